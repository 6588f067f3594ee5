//! `/api-docs`: every API route of the route table by tag, the HTML pages the site serves, the
//! conventions (versions, CORS, rate limit) and an `error-<code>` anchor per error code (the `type`
//! of docs/spec/api-spec.md#errors).

use anyhow::Result;
use portal_core::http::problem::ErrorCode;
use portal_core::http::ratelimit::RateLimit;
use portal_core::routing::ROUTES;
use portal_core::{API_VERSION, SUPPORTED_API_VERSIONS};
use serde_json::{json, Value};
use tera::Context;

use super::Renderer;
use crate::build::write::file::OutFile;

/// The docs page and its twin.
pub fn render(r: &Renderer) -> Result<[OutFile; 2]> {
    let mut sections: Vec<Value> = Vec::new();
    let mut md = format!("# API documentation\n\nOpenAPI 3.1: <{}/api/openapi.json>\n\n## Endpoints\n\n| Method | Path | What it does | Limited |\n|---|---|---|---|\n", r.content.site.base());
    let mut html_pages: Vec<Value> = Vec::new();
    let mut pages_md =
        String::from("\n## Pages\n\nHTML pages for people (each also as markdown for `Accept: text/markdown`):\n\n");
    for route in ROUTES {
        if route.tag == "pages" {
            for op in route.operations {
                html_pages.push(json!({"id": op.operation_id, "path": route.pattern, "summary": op.summary}));
                pages_md.push_str(&format!("- `{}`: {}\n", route.pattern, op.summary));
            }
            continue;
        }
        let operations: Vec<Value> = route
            .operations
            .iter()
            .map(|op| json!({"id": op.operation_id, "method": op.method, "path": route.pattern, "summary": op.summary, "limited": op.rate_limited}))
            .collect();
        for op in route.operations {
            md.push_str(&format!(
                "| {} | `{}` | {} | {} |\n",
                op.method,
                route.pattern,
                op.summary,
                if op.rate_limited { "yes" } else { "no" }
            ));
        }
        match sections.iter_mut().find(|s| s["tag"] == route.tag) {
            Some(section) => {
                section["operations"].as_array_mut().into_iter().for_each(|ops| ops.extend(operations.clone()))
            }
            None => sections.push(json!({"tag": route.tag, "operations": operations})),
        }
    }
    md.push_str(&pages_md);
    let errors: Vec<Value> = ErrorCode::ALL
        .iter()
        .map(|c| json!({"code": c.as_str(), "status": c.status(), "title": c.title(), "resolution": c.resolution()}))
        .collect();
    md.push_str("\n## Errors\n\n");
    for c in ErrorCode::ALL {
        md.push_str(&format!("- `{}` ({}): {}. {}\n", c.as_str(), c.status(), c.title(), c.resolution()));
    }
    let limits = RateLimit::default();
    let mut context = Context::new();
    context.insert("sections", &sections);
    context.insert("pages", &html_pages);
    context.insert("errors", &errors);
    context.insert("api_version", API_VERSION);
    context.insert("versions", &SUPPORTED_API_VERSIONS);
    context.insert("limit", &limits.limit);
    context.insert("window", &(limits.window_ms / 1000));
    context.insert("max_body_kib", &(portal_core::http::MAX_BODY_BYTES / 1024));
    r.generated("api-docs.html", "/api-docs", context, md)
}
