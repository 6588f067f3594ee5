//! The four read-only MCP tools. Each validates its arguments, then calls the REST handler that
//! answers the same question, so an agent and an app always get the same data.

use serde_json::{json, Map, Value};

use crate::collections::{is_collection, COLLECTIONS, ENCYCLOPEDIA};
use crate::handlers::files::read_json;
use crate::handlers::{collections, encyclopedia, search, Ctx};
use crate::http::{Method, Request, Response};
use crate::platform::Platform;
use crate::problem::Problem;
use crate::query::Query;
use crate::routes::Params;

/// A tool's description for `tools/list`.
pub fn definitions() -> Vec<Value> {
    let mut scopes: Vec<&str> = COLLECTIONS.to_vec();
    scopes.push(ENCYCLOPEDIA);
    let hit = json!({"type": "object", "properties": {
        "slug": {"type": "string"}, "title": {"type": "string"}, "collection": {"type": "string"}, "url": {"type": "string"}
    }, "required": ["slug", "title", "collection", "url"]});
    let record = json!({"type": "object", "properties": {
        "id": {"type": "string"}, "collection": {"type": "string"}, "title": {"type": "string"},
        "slug": {"type": "string"}, "url": {"type": "string"}
    }, "required": ["id", "collection", "title", "slug", "url"]});
    let read_only =
        json!({"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false});
    vec![
        json!({
            "name": "search_portal",
            "title": "Search the portal",
            "description": "Full-text search over every published collection (services, events, jobs, news, rights guidance...) and, with `entries` in `collections`, the encyclopedia. Every word must match; the last also as a prefix. Returns the best hits per collection.",
            "inputSchema": {"type": "object", "properties": {
                "query": {"type": "string", "minLength": 2, "description": "Words to find (at least 2 characters)."},
                "collections": {"type": "array", "items": {"type": "string", "enum": scopes}, "description": "Collections to search (default: all 19; `entries` adds the encyclopedia)."},
                "limit": {"type": "integer", "minimum": 1, "maximum": search::MAX_LIMIT, "default": search::DEFAULT_LIMIT, "description": "Hits per collection."}
            }, "required": ["query"], "additionalProperties": false},
            "outputSchema": {"type": "object", "properties": {
                "query": {"type": "string"},
                "totalResults": {"type": "integer"},
                "results": {"type": "object", "additionalProperties": {"type": "array", "items": hit}},
                "totals": {"type": "object", "additionalProperties": {"type": "integer"}}
            }, "required": ["query", "totalResults", "results", "totals"]},
            "annotations": read_only,
        }),
        json!({
            "name": "list_portal_collection",
            "title": "List a collection",
            "description": "Published records of one collection in the portal's order (pinned first, newest first), a page at a time.",
            "inputSchema": {"type": "object", "properties": {
                "collection": {"type": "string", "enum": COLLECTIONS},
                "limit": {"type": "integer", "minimum": 1, "maximum": collections::MAX_LIMIT, "default": DEFAULT_LIST_LIMIT},
                "offset": {"type": "integer", "minimum": 0, "default": 0}
            }, "required": ["collection"], "additionalProperties": false},
            "outputSchema": {"type": "object", "properties": {
                "collection": {"type": "string"},
                "total": {"type": "integer"},
                "count": {"type": "integer"},
                "offset": {"type": "integer"},
                "records": {"type": "array", "items": record}
            }, "required": ["collection", "total", "count", "offset", "records"]},
            "annotations": read_only,
        }),
        json!({
            "name": "search_portal_encyclopedia",
            "title": "Search the encyclopedia",
            "description": "Query the sourced encyclopedia with optional filters (category, tag, first letter) and pagination. Without a query, entries come in title order.",
            "inputSchema": {"type": "object", "properties": {
                "query": {"type": "string"},
                "category": {"type": "string"},
                "tag": {"type": "string"},
                "letter": {"type": "string", "minLength": 1, "maxLength": 1},
                "page": {"type": "integer", "minimum": 1, "default": 1},
                "pageSize": {"type": "integer", "minimum": 1, "maximum": encyclopedia::PAGE_SIZE.1, "default": encyclopedia::PAGE_SIZE.0},
                "sort": {"type": "string", "enum": ["title", "updated", "relevance"]}
            }, "additionalProperties": false},
            "outputSchema": {"type": "object", "properties": {
                "total": {"type": "integer"}, "count": {"type": "integer"}, "page": {"type": "integer"},
                "pageSize": {"type": "integer"}, "totalPages": {"type": "integer"},
                "entries": {"type": "array", "items": record}
            }, "required": ["total", "count", "page", "pageSize", "totalPages", "entries"]},
            "annotations": read_only,
        }),
        json!({
            "name": "get_portal_encyclopedia_entry",
            "title": "Read an encyclopedia entry",
            "description": "One encyclopedia entry by slug, with its full text (markdown and HTML) and its sources.",
            "inputSchema": {"type": "object", "properties": {
                "slug": {"type": "string", "description": "The entry's slug, as found by search_portal_encyclopedia."}
            }, "required": ["slug"], "additionalProperties": false},
            "outputSchema": {"type": "object", "properties": {
                "entry": {"type": "object", "properties": {
                    "slug": {"type": "string"}, "title": {"type": "string"}, "url": {"type": "string"},
                    "sources": {"type": "array", "items": {"type": "object", "properties": {"title": {"type": "string"}, "url": {"type": "string"}}, "required": ["title", "url"]}}
                }, "required": ["slug", "title", "url", "sources"]}
            }, "required": ["entry"]},
            "annotations": read_only,
        }),
    ]
}

/// Records per page when the caller does not say.
pub const DEFAULT_LIST_LIMIT: i64 = 20;

/// A tool's failure, reported to the model as a result with `isError: true`.
pub struct ToolError(pub String);

impl From<Problem> for ToolError {
    fn from(problem: Problem) -> Self {
        ToolError(problem.detail)
    }
}

/// Reads the tool arguments into query pairs, checking each type and rejecting unknown names.
fn arguments(args: &Map<String, Value>, allowed: &[(&str, &str, &str)]) -> Result<Vec<(String, String)>, ToolError> {
    if let Some(unknown) = args.keys().find(|k| !allowed.iter().any(|(name, ..)| name == k)) {
        let names: Vec<&str> = allowed.iter().map(|(name, ..)| *name).collect();
        return Err(ToolError(format!("Unknown argument `{unknown}`; this tool takes {}.", names.join(", "))));
    }
    let mut pairs = Vec::new();
    for (name, param, kind) in allowed {
        let Some(value) = args.get(*name).filter(|v| !v.is_null()) else { continue };
        let text = match (*kind, value) {
            ("string", Value::String(s)) => s.clone(),
            ("integer", Value::Number(n)) if n.is_i64() || n.is_u64() => n.to_string(),
            ("strings", Value::Array(items)) if items.iter().all(Value::is_string) => {
                items.iter().filter_map(Value::as_str).collect::<Vec<_>>().join(",")
            }
            ("strings", _) => return Err(ToolError(format!("`{name}` must be an array of strings."))),
            (kind, _) => {
                return Err(ToolError(format!(
                    "`{name}` must be {}.",
                    if kind == "string" { "a string" } else { "an integer" }
                )))
            }
        };
        pairs.push((param.to_string(), text));
    }
    Ok(pairs)
}

fn body(response: Response) -> Result<Value, ToolError> {
    serde_json::from_slice(&response.body).map_err(|_| ToolError("The portal returned an unreadable answer.".into()))
}

/// Runs a tool by name; `Ok(None)` when there is no such tool.
pub async fn call<P: Platform>(
    ctx: &Ctx<'_, P>,
    name: &str,
    args: &Map<String, Value>,
) -> Result<Option<Value>, ToolError> {
    let get = Request::new(Method::Get, "/mcp");
    let run = |pairs: Vec<(String, String)>, params: Params| (Query::from_pairs(pairs), params);
    let structured = match name {
        "search_portal" => {
            let pairs = arguments(
                args,
                &[("query", "q", "string"), ("collections", "collections", "strings"), ("limit", "limit", "integer")],
            )?;
            if !args.contains_key("query") {
                return Err(ToolError("`query` is required.".into()));
            }
            let (query, params) = run(pairs, Params::default());
            let sub =
                Ctx { app: ctx.app, platform: ctx.platform, request: &get, params: &params, query, now_ms: ctx.now_ms };
            let mut answer = body(search::handle(&sub).await?)?;
            strip(&mut answer, &["status", "cached"]);
            answer
        }
        "list_portal_collection" => {
            let mut pairs = arguments(
                args,
                &[
                    ("collection", "collection", "string"),
                    ("limit", "limit", "integer"),
                    ("offset", "offset", "integer"),
                ],
            )?;
            let collection = args.get("collection").and_then(Value::as_str).unwrap_or_default().to_string();
            if !is_collection(&collection) {
                return Err(ToolError(format!("`collection` must be one of: {}.", COLLECTIONS.join(", "))));
            }
            if !args.contains_key("limit") {
                pairs.push(("limit".into(), DEFAULT_LIST_LIMIT.to_string()));
            }
            let offset = args.get("offset").and_then(Value::as_i64).unwrap_or(0);
            let (query, params) = run(pairs, Params { collection: Some(collection.clone()), ..Params::default() });
            let sub =
                Ctx { app: ctx.app, platform: ctx.platform, request: &get, params: &params, query, now_ms: ctx.now_ms };
            let answer = body(collections::handle(&sub).await?)?;
            json!({
                "collection": collection,
                "total": answer["total"],
                "count": answer["count"],
                "offset": offset,
                "records": answer["data"][collection.as_str()],
            })
        }
        "search_portal_encyclopedia" => {
            let pairs = arguments(
                args,
                &[
                    ("query", "q", "string"),
                    ("category", "category", "string"),
                    ("tag", "tag", "string"),
                    ("letter", "letter", "string"),
                    ("page", "page", "integer"),
                    ("pageSize", "pageSize", "integer"),
                    ("sort", "sort", "string"),
                ],
            )?;
            let (query, params) = run(pairs, Params::default());
            let sub =
                Ctx { app: ctx.app, platform: ctx.platform, request: &get, params: &params, query, now_ms: ctx.now_ms };
            let mut answer = body(encyclopedia::list(&sub).await?)?;
            let entries = answer["data"]["entries"].take();
            strip(&mut answer, &["status", "data", "links"]);
            answer["entries"] = entries;
            answer
        }
        "get_portal_encyclopedia_entry" => {
            arguments(args, &[("slug", "slug", "string")])?;
            let slug = args.get("slug").and_then(Value::as_str).map(str::trim).unwrap_or_default();
            if slug.is_empty() {
                return Err(ToolError("`slug` is required.".into()));
            }
            let detail = if slug.contains('/') {
                None
            } else {
                read_json(ctx.app, ctx.platform, &format!("/api/encyclopedia/{slug}")).await?
            };
            let Some(mut detail) = detail else {
                return Err(ToolError(format!(
                    "There is no encyclopedia entry `{slug}`. Use search_portal_encyclopedia to find the slugs of existing entries."
                )));
            };
            json!({"entry": detail["data"]["entry"].take()})
        }
        _ => return Ok(None),
    };
    Ok(Some(structured))
}

fn strip(value: &mut Value, keys: &[&str]) {
    if let Value::Object(map) = value {
        for key in keys {
            map.remove(*key);
        }
    }
}
