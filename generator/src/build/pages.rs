//! The published site: an HTML page for the home, every collection, record, doc and page, every
//! encyclopedia entry and `/api-docs`, each with a markdown twin (decision D8); a 404 page, the
//! theme's assets, `sitemap.xml` and `robots.txt`. Templates are compiled once and pages rendered in
//! parallel.

use std::collections::BTreeMap;

use anyhow::{anyhow, Result};
use portal_core::collections::{description, PAGES};
use portal_core::content::{Entry, Record};
use portal_core::encyclopedia::letter_of;
use portal_core::i18n::{direction, Strings};
use portal_core::problem::ErrorCode;
use portal_core::ratelimit::Limits;
use portal_core::routes::ROUTES;
use portal_core::{API_VERSION, SUPPORTED_API_VERSIONS};
use rayon::prelude::*;
use serde_json::{json, Value};
use tera::{Context, Tera};

use super::encyclopedia::json_ld;
use super::output::OutFile;
use crate::load::Content;
use crate::theme;

/// The media type of HTML pages.
pub const HTML: &str = "text/html; charset=utf-8";
/// Where the 404 page is written (served for unknown paths, never at a URL of its own).
pub const NOT_FOUND_FILE: &str = "404.html";

/// "community-voices" -> "Community voices".
pub fn label(name: &str) -> String {
    let spaced = name.replace('-', " ");
    let mut chars = spaced.chars();
    chars.next().map(|c| c.to_uppercase().chain(chars).collect()).unwrap_or_default()
}

/// Markdown headings in a body become one level lower on a page, so the page keeps one `h1`.
fn demote_headings(html: &str) -> String {
    (1..=5).rev().fold(html.to_string(), |html, level| {
        html.replace(&format!("<h{level}"), &format!("<h{}", level + 1))
            .replace(&format!("</h{level}>"), &format!("</h{}>", level + 1))
    })
}

/// The file of the HTML page served at `route`: `/` is `index.html`, `/a/b` is `a/b.html`.
///
/// A page lives in a file named after its URL (not `a/b/index.html`) so that a relative link
/// resolves to the same place on the web (`/a/b` sits in the folder `/a/`) and in an unpacked
/// copy of `dist/` opened from the file system (`a/b.html` sits in `a/`).
pub fn page_file(route: &str) -> String {
    match route.trim_matches('/') {
        "" => "index.html".to_string(),
        path => format!("{path}.html"),
    }
}

/// An HTML page and its markdown twin (`a/b.md` beside `a/b.html`), served at `route`.
fn page(route: &str, html: String, markdown: String) -> [OutFile; 2] {
    let file = page_file(route);
    let twin = format!("{}.md", file.trim_end_matches(".html"));
    let mut html_file = OutFile::served(route, file, HTML, html.into_bytes());
    html_file.headers = Some("html".into());
    html_file.markdown = Some(twin.clone());
    [html_file, OutFile::internal(twin, markdown.into_bytes())]
}

struct Renderer<'a> {
    tera: Tera,
    content: &'a Content,
    site: Value,
}

impl Renderer<'_> {
    /// Renders a page served at `url` (`None` for the 404 page, which has no URL of its own).
    fn render(&self, template: &str, url: Option<&str>, mut context: Context) -> Result<String> {
        context.insert("site", &self.site);
        context.insert("url", &url);
        context.insert("lang", &self.content.site.language);
        context.insert("dir", direction(&self.content.site.language));
        context.insert("t", &self.content.strings.0);
        self.tera.render(template, &context).map_err(|e| anyhow!("rendering {template}: {e:?}"))
    }
}

fn scalar_facts(record: &Record, strings: &Strings) -> Vec<Value> {
    let mut facts = Vec::new();
    for (key, value) in &record.fields {
        if ["title", "summary", "slug", "id", "draft", "weight", "tags"].contains(&key.as_str()) {
            continue;
        }
        let text = match value {
            Value::String(s) => s.clone(),
            Value::Number(n) => n.to_string(),
            Value::Bool(b) => strings.get(if *b { "record.answer_yes" } else { "record.answer_no" }).to_string(),
            Value::Array(items) if items.iter().all(Value::is_string) => {
                items.iter().filter_map(Value::as_str).collect::<Vec<_>>().join(", ")
            }
            _ => continue,
        };
        facts.push(json!({"label": label(key), "value": text}));
    }
    if !record.tags.is_empty() {
        facts.push(json!({"label": strings.get("record.tags"), "value": record.tags.join(", ")}));
    }
    facts
}

fn record_markdown(record: &Record, strings: &Strings, base: &str, api_url: &str) -> String {
    let mut md = format!("# {}\n\n", record.title);
    if let Some(summary) = &record.summary {
        md.push_str(&format!("> {summary}\n\n"));
    }
    for fact in scalar_facts(record, strings) {
        md.push_str(&format!(
            "- **{}**: {}\n",
            fact["label"].as_str().unwrap_or(""),
            fact["value"].as_str().unwrap_or("")
        ));
    }
    if let Some(body) = &record.body {
        md.push_str(&format!("\n{body}\n"));
    }
    md.push_str(&format!("\n---\n\nSource: <{base}{}> · JSON: <{base}{api_url}>\n", record.url));
    md
}

fn record_page(r: &Renderer, record: &Record) -> Result<[OutFile; 2]> {
    let api_url = format!("/api/{}/{}", record.collection, record.slug);
    let (parent_url, parent_label) = if record.collection == PAGES {
        ("/".to_string(), r.content.strings.get("nav.home").to_string())
    } else {
        (format!("/{}", record.collection), label(&record.collection))
    };
    let mut context = Context::new();
    context.insert("record", &record.to_json());
    context.insert("facts", &scalar_facts(record, &r.content.strings));
    context.insert("body", &demote_headings(record.html.as_deref().unwrap_or("")));
    context.insert("api_url", &api_url);
    context.insert("parent_url", &parent_url);
    context.insert("parent_label", &parent_label);
    let html = r.render("record.html", Some(&record.url), context)?;
    Ok(page(&record.url, html, record_markdown(record, &r.content.strings, r.content.site.base(), &api_url)))
}

fn collection_page(r: &Renderer, name: &str, records: &[Record]) -> Result<[OutFile; 2]> {
    let items: Vec<Value> = records
        .iter()
        .map(|rec| json!({"title": rec.title, "url": rec.url, "summary": rec.summary, "date": rec.date.map(|d| d.date())}))
        .collect();
    let mut context = Context::new();
    context.insert("name", name);
    context.insert("label", &label(name));
    context.insert("description", description(name));
    context.insert("records", &items);
    let html = r.render("collection.html", Some(&format!("/{name}")), context)?;
    let mut md =
        format!("# {}\n\n{}. JSON: <{}/api/{name}>\n\n", label(name), description(name), r.content.site.base());
    for rec in records {
        md.push_str(&format!(
            "- [{}]({}){}\n",
            rec.title,
            rec.url,
            rec.summary.as_ref().map(|s| format!(": {s}")).unwrap_or_default()
        ));
    }
    Ok(page(&format!("/{name}"), html, md))
}

fn entry_page(r: &Renderer, entry: &Entry, by_slug: &BTreeMap<&str, &Entry>) -> Result<[OutFile; 2]> {
    let record = &entry.record;
    let related: Vec<Value> = entry
        .related
        .iter()
        .filter_map(|slug| by_slug.get(slug.as_str()))
        .map(|e| json!({"title": e.record.title, "url": e.record.url}))
        .collect();
    let mut item = record.to_json();
    item["aliases"] = json!(entry.aliases);
    item["sources"] = json!(entry.sources);
    item["language"] = json!(entry.language);
    let mut context = Context::new();
    context.insert("entry", &item);
    context.insert("body", &demote_headings(record.html.as_deref().unwrap_or("")));
    context.insert("related", &related);
    context.insert("updated", &record.updated.or(record.date).map(|d| d.date()));
    context.insert("jsonld", &json_ld(entry, &r.content.site).to_string().replace("</", "<\\/"));
    let html = r.render("entry.html", Some(&record.url), context)?;
    let mut md = format!("# {}\n\n", record.title);
    if let Some(summary) = &record.summary {
        md.push_str(&format!("> {summary}\n\n"));
    }
    if let Some(body) = &record.body {
        md.push_str(&format!("{body}\n\n"));
    }
    md.push_str("## Sources\n\n");
    for (i, s) in entry.sources.iter().enumerate() {
        md.push_str(&format!(
            "{}. [{}]({}){}\n",
            i + 1,
            s.title,
            s.url,
            s.publisher.as_ref().map(|p| format!(", {p}")).unwrap_or_default()
        ));
    }
    Ok(page(&record.url, html, md))
}

fn encyclopedia_index(r: &Renderer) -> Result<[OutFile; 2]> {
    let mut letters: BTreeMap<String, Vec<Value>> = BTreeMap::new();
    for entry in &r.content.entries {
        let rec = &entry.record;
        letters
            .entry(letter_of(&rec.title))
            .or_default()
            .push(json!({"title": rec.title, "url": rec.url, "summary": rec.summary}));
    }
    let groups: Vec<Value> =
        letters.iter().map(|(letter, entries)| json!({"letter": letter, "entries": entries})).collect();
    let mut context = Context::new();
    context.insert("letters", &groups);
    let html = r.render("encyclopedia.html", Some("/encyclopedia"), context)?;
    let mut md = "# Encyclopedia\n\nSourced background articles.\n".to_string();
    for (letter, entries) in &letters {
        md.push_str(&format!("\n## {letter}\n\n"));
        for e in entries {
            md.push_str(&format!("- [{}]({})\n", e["title"].as_str().unwrap_or(""), e["url"].as_str().unwrap_or("")));
        }
    }
    Ok(page("/encyclopedia", html, md))
}

fn home(r: &Renderer) -> Result<[OutFile; 2]> {
    let content = r.content;
    let collections: Vec<Value> = content
        .collections
        .iter()
        .filter(|(name, _)| **name != PAGES)
        .map(|(name, records)| json!({"name": name, "label": label(name), "count": records.len(), "description": description(name)}))
        .collect();
    let latest: Vec<Value> = content
        .records("news")
        .iter()
        .take(5)
        .map(|n| json!({"title": n.title, "url": n.url, "date": n.date.map(|d| d.date())}))
        .collect();
    let mut context = Context::new();
    context.insert("collections", &collections);
    context.insert("latest", &latest);
    context.insert("entries", &content.entries.len());
    let html = r.render("home.html", Some("/"), context)?;
    let site = &content.site;
    let mut md = format!("# {}\n\n> {}\n\n## Collections\n\n", site.title, site.description);
    for c in &collections {
        md.push_str(&format!(
            "- [{}](/{}): {} ({} records)\n",
            c["label"].as_str().unwrap_or(""),
            c["name"].as_str().unwrap_or(""),
            c["description"].as_str().unwrap_or(""),
            c["count"]
        ));
    }
    md.push_str(&format!("- [Encyclopedia](/encyclopedia): sourced background articles ({} entries)\n\nAPI: <{}/api-docs> · OpenAPI: <{}/api/openapi.json>\n", content.entries.len(), site.base(), site.base()));
    Ok(page("/", html, md))
}

fn api_docs(r: &Renderer) -> Result<[OutFile; 2]> {
    let mut sections: Vec<Value> = Vec::new();
    let mut md = format!("# API documentation\n\nOpenAPI 3.1: <{}/api/openapi.json>\n\n## Endpoints\n\n| Method | Path | What it does | Limited |\n|---|---|---|---|\n", r.content.site.base());
    for route in ROUTES.iter().filter(|route| route.tag != "pages") {
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
    let errors: Vec<Value> = ErrorCode::ALL
        .iter()
        .map(|c| json!({"code": c.as_str(), "status": c.status(), "title": c.title(), "resolution": c.resolution()}))
        .collect();
    md.push_str("\n## Errors\n\n");
    for c in ErrorCode::ALL {
        md.push_str(&format!("- `{}` ({}): {}. {}\n", c.as_str(), c.status(), c.title(), c.resolution()));
    }
    let limits = Limits::default();
    let mut context = Context::new();
    context.insert("sections", &sections);
    context.insert("errors", &errors);
    context.insert("api_version", API_VERSION);
    context.insert("versions", &SUPPORTED_API_VERSIONS);
    context.insert("limit", &limits.limit);
    context.insert("window", &(limits.window_ms / 1000));
    context.insert("max_body_kib", &(portal_core::body::MAX_BODY_BYTES / 1024));
    let html = r.render("api-docs.html", Some("/api-docs"), context)?;
    Ok(page("/api-docs", html, md))
}

/// The `local_date` filter of the templates: `2026-03-07` as the site's language writes it.
fn local_date(strings: Strings) -> impl tera::Filter {
    move |value: &Value, _: &std::collections::HashMap<String, Value>| -> tera::Result<Value> {
        Ok(Value::String(value.as_str().map_or_else(|| value.to_string(), |d| strings.date(d))))
    }
}

fn sitemap(content: &Content, routes: &[String]) -> OutFile {
    let base = content.site.base();
    let mut xml = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n",
    );
    for route in routes {
        let escaped = route.replace('&', "&amp;").replace('<', "&lt;");
        xml.push_str(&format!("  <url><loc>{base}{escaped}</loc></url>\n"));
    }
    xml.push_str("</urlset>\n");
    OutFile::served("/sitemap.xml", "sitemap.xml", "application/xml", xml.into_bytes())
}

/// Every page, its twin, the 404 page, the assets, the sitemap and robots.txt, with templates
/// overridden from `templates` where it has them.
pub fn files(content: &Content, templates: Option<&std::path::Path>) -> Result<Vec<OutFile>> {
    let mut tera = theme::templates(templates)?;
    tera.register_filter("local_date", local_date(content.strings.clone()));
    let renderer = Renderer { tera, content, site: serde_json::to_value(&content.site)? };
    let by_slug: BTreeMap<&str, &Entry> = content.entries.iter().map(|e| (e.record.slug.as_str(), e)).collect();
    let records: Vec<&Record> = content.collections.values().flatten().collect();
    let mut pages: Vec<[OutFile; 2]> =
        records.par_iter().map(|rec| record_page(&renderer, rec)).collect::<Result<_>>()?;
    pages.extend(content.entries.par_iter().map(|e| entry_page(&renderer, e, &by_slug)).collect::<Result<Vec<_>>>()?);
    for (name, records) in content.collections.iter().filter(|(name, _)| **name != PAGES) {
        pages.push(collection_page(&renderer, name, records)?);
    }
    pages.push(encyclopedia_index(&renderer)?);
    pages.push(home(&renderer)?);
    pages.push(api_docs(&renderer)?);
    let mut files: Vec<OutFile> = pages.into_iter().flatten().collect();
    let routes: Vec<String> = files.iter().filter_map(|f| f.route.clone()).collect();
    files.push(sitemap(content, &routes));
    files.push(OutFile::served(
        "/robots.txt",
        "robots.txt",
        "text/plain; charset=utf-8",
        format!("User-agent: *\nAllow: /\nSitemap: {}/sitemap.xml\n", content.site.base()).into_bytes(),
    ));
    files.push(OutFile::internal(NOT_FOUND_FILE, renderer.render("404.html", None, Context::new())?.into_bytes()));
    for (name, media, bytes) in theme::assets(templates)? {
        files.push(OutFile::served(format!("/assets/{name}"), format!("assets/{name}"), media, bytes));
    }
    Ok(files)
}
