//! The four read-only MCP tools. Each validates its arguments, then calls the REST handler that
//! answers the same question, so an agent and an app always get the same data.

use serde_json::{json, Map, Value};

use crate::content::collections::{is_collection, COLLECTIONS, ENCYCLOPEDIA};
use crate::handlers::files::read_json;
use crate::handlers::{collections, encyclopedia, search, Ctx};
use crate::http::problem::Problem;
use crate::http::query::Query;
use crate::http::{Method, Request, Response};
use crate::platform::{internal, Platform};
use crate::routing::Params;
use crate::search::limits::{self, MAX_QUERY_CHARS, MAX_QUERY_WORDS};
use crate::search::safety::HelpWords;

/// A tool's description for `tools/list`, in a fixed order (clients may cache the list).
pub fn definitions() -> Vec<Value> {
    vec![search_tool(), list_tool(), encyclopedia_search_tool(), entry_tool()]
}

/// What every tool promises: it reads, changes nothing, and answers the same question the same way.
fn read_only() -> Value {
    json!({"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false})
}

/// A record as the listing tools return it: the members every record has.
fn record_schema(required: &[&str]) -> Value {
    json!({"type": "object", "properties": {
        "id": {"type": "string"}, "collection": {"type": "string"}, "title": {"type": "string"},
        "slug": {"type": "string"}, "url": {"type": "string"}
    }, "required": required})
}

/// `search_portal`: every collection at once, encyclopedia on request.
fn search_tool() -> Value {
    let mut scopes: Vec<&str> = COLLECTIONS.to_vec();
    scopes.push(ENCYCLOPEDIA);
    let hit = json!({"type": "object", "properties": {
        "slug": {"type": "string"}, "title": {"type": "string"}, "collection": {"type": "string"}, "url": {"type": "string"}
    }, "required": ["slug", "title", "collection", "url"]});
    json!({
        "name": "search_portal",
        "title": "Search the portal",
        "description": "Full-text search over every published collection (services, events, jobs, news, rights guidance...) and, with `entries` in `collections`, the encyclopedia. Every word must match; the last also as a prefix. Returns the best hits per collection. With `forgiving`, searches as the site's search page does.",
        "inputSchema": {"type": "object", "properties": {
            "query": {"type": "string", "minLength": limits::MIN_QUERY_CHARS, "maxLength": MAX_QUERY_CHARS, "description": format!("Words to find: at least {} and at most {MAX_QUERY_CHARS} characters, at most {MAX_QUERY_WORDS} different words.", limits::MIN_QUERY_CHARS)},
            "collections": {"type": "array", "items": {"type": "string", "enum": scopes}, "description": "Collections to search (default: all 19; `entries` adds the encyclopedia)."},
            "limit": {"type": "integer", "minimum": 1, "maximum": search::MAX_LIMIT, "default": search::DEFAULT_LIMIT, "description": "Hits per collection."},
            "forgiving": {"type": "boolean", "default": false, "description": "Search as the site's search page does: words also match their other forms (clinics, clinic), a word that matches nothing is replaced by the one nearest known word (see `suggestion`, `corrected`), and when no record has every word the records with most of them are returned (`partial`)."}
        }, "required": ["query"], "additionalProperties": false},
        "outputSchema": {"type": "object", "properties": {
            "query": {"type": "string"},
            "totalResults": {"type": "integer"},
            "results": {"type": "object", "additionalProperties": {"type": "array", "items": hit}},
            "totals": {"type": "object", "additionalProperties": {"type": "integer"}},
            "suggestion": {"type": "string", "description": "With `forgiving`, when a word matched nothing: the query with each such word replaced by its nearest known word."},
            "corrected": {"type": "boolean", "description": "With `forgiving`: the hits are the suggestion's."},
            "partial": {"type": "boolean", "description": "With `forgiving`: no record had every word; these have most of them."},
            "help": {"type": "object", "description": "With `forgiving`, when the query asks for help (violence, abuse, an emergency, suicide, a lost child): the site's help page to show first, `{url, title, summary, phones: [{text, tel}]}`."}
        }, "required": ["query", "totalResults", "results", "totals"]},
        "annotations": read_only(),
    })
}

/// `list_portal_collection`: one collection a page at a time, with the REST listing's filter, sort and fields.
fn list_tool() -> Value {
    let listed = record_schema(&["id", "collection", "slug", "url"]);
    let bound = json!({"anyOf": [{"type": "string"}, {"type": "number"}]});
    json!({
        "name": "list_portal_collection",
        "title": "List a collection",
        "description": "Published records of one collection in the portal's order (pinned first, newest first), a page at a time.",
        "inputSchema": {"type": "object", "properties": {
            "collection": {"type": "string", "enum": COLLECTIONS, "x-mcp-header": "Collection",
                "description": "The collection (also sent as the Mcp-Param-Collection header by 2026-07-28 clients, for gateways that route by it)."},
            "limit": {"type": "integer", "minimum": 1, "maximum": collections::MAX_LIMIT, "default": DEFAULT_LIST_LIMIT},
            "offset": {"type": "integer", "minimum": 0, "default": 0},
            "filter": {"type": "object", "description": "Conditions on fields, all of which must hold: a value matches a field equal to it (strings ignore case) or a list field containing it; an array of values matches any of them; {\"gte\": x, \"lte\": y} bounds dates and numbers. E.g. {\"tags\": [\"water\", \"health\"], \"date\": {\"gte\": \"2026-01-01\"}}.",
                "additionalProperties": {"anyOf": [
                    {"type": "string"}, {"type": "number"}, {"type": "boolean"},
                    {"type": "array", "items": {"anyOf": [{"type": "string"}, {"type": "number"}, {"type": "boolean"}]}},
                    {"type": "object", "properties": {"gte": bound, "lte": bound}, "additionalProperties": false}
                ]}},
            "sort": {"type": "string", "description": "Fields to order by, comma-separated, `-` for descending (records without the field last), e.g. `-date,title`. Default: the portal's order."},
            "fields": {"type": "array", "items": {"type": "string"}, "description": "Return only these fields (id, collection, slug and url always come)."}
        }, "required": ["collection"], "additionalProperties": false},
        "outputSchema": {"type": "object", "properties": {
            "collection": {"type": "string"},
            "total": {"type": "integer"},
            "count": {"type": "integer"},
            "offset": {"type": "integer"},
            "records": {"type": "array", "items": listed}
        }, "required": ["collection", "total", "count", "offset", "records"]},
        "annotations": read_only(),
    })
}

/// `search_portal_encyclopedia`: the encyclopedia's query, filters and pages.
fn encyclopedia_search_tool() -> Value {
    let record = record_schema(&["id", "collection", "title", "slug", "url"]);
    json!({
        "name": "search_portal_encyclopedia",
        "title": "Search the encyclopedia",
        "description": "Query the sourced encyclopedia with optional filters (category, tag, first letter) and pagination. Without a query, entries come in title order.",
        "inputSchema": {"type": "object", "properties": {
            "query": {"type": "string", "maxLength": MAX_QUERY_CHARS, "description": format!("Words to find: at most {MAX_QUERY_CHARS} characters and {MAX_QUERY_WORDS} different words.")},
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
        "annotations": read_only(),
    })
}

/// `get_portal_encyclopedia_entry`: one entry, whole.
fn entry_tool() -> Value {
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
        "annotations": read_only(),
    })
}

/// The tools as `revision` describes them: before 2025-06-18 tools had no `title` or `outputSchema`.
pub fn listed(revision: super::version::Revision) -> Vec<Value> {
    let mut tools = definitions();
    if !revision.has_structured_output() {
        for tool in &mut tools {
            strip(tool, &["title", "outputSchema"]);
        }
    }
    tools
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
        if *kind == "filter" {
            pairs.extend(filter_pairs(value)?);
            continue;
        }
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

/// The `filter` argument as the query pairs of the REST listing: `{"tags": ["a", "b"]}` is
/// `filter[tags]=a,b`, `{"date": {"gte": "2026-01-01"}}` is `filter[date][gte]=2026-01-01`.
fn filter_pairs(filter: &Value) -> Result<Vec<(String, String)>, ToolError> {
    let Value::Object(fields) = filter else {
        return Err(ToolError("`filter` must be an object of field conditions.".into()));
    };
    let scalar = |field: &str, value: &Value| match value {
        Value::String(s) => Ok(s.clone()),
        Value::Number(_) | Value::Bool(_) => Ok(value.to_string()),
        _ => Err(ToolError(format!("`filter.{field}` must be a value, an array of values, or {{gte, lte}}."))),
    };
    let mut pairs = Vec::new();
    for (field, condition) in fields {
        match condition {
            Value::Array(values) => {
                let values = values.iter().map(|v| scalar(field, v)).collect::<Result<Vec<_>, _>>()?;
                pairs.push((format!("filter[{field}]"), values.join(",")));
            }
            Value::Object(bounds) => {
                for (bound, value) in bounds {
                    if bound != "gte" && bound != "lte" {
                        return Err(ToolError(format!("`filter.{field}` takes `gte` and `lte`, not `{bound}`.")));
                    }
                    pairs.push((format!("filter[{field}][{bound}]"), scalar(field, value)?));
                }
            }
            value => pairs.push((format!("filter[{field}]"), scalar(field, value)?)),
        }
    }
    Ok(pairs)
}

/// The records, hits or entries a tool's result names, for its `resource_link`s.
pub fn linked_items(structured: &Value) -> Vec<&Value> {
    let mut items: Vec<&Value> = Vec::new();
    for key in ["records", "entries"] {
        items.extend(structured[key].as_array().into_iter().flatten());
    }
    if let Some(results) = structured["results"].as_object() {
        items.extend(results.values().filter_map(Value::as_array).flatten());
    }
    if structured["entry"].is_object() {
        items.push(&structured["entry"]);
    }
    items
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
    Ok(Some(match name {
        "search_portal" => search_portal(ctx, args).await?,
        "list_portal_collection" => list_portal_collection(ctx, args).await?,
        "search_portal_encyclopedia" => search_portal_encyclopedia(ctx, args).await?,
        "get_portal_encyclopedia_entry" => get_portal_encyclopedia_entry(ctx, args).await?,
        _ => return Ok(None),
    }))
}

/// The context a REST handler runs in on behalf of a tool: the tool's arguments as its query.
fn delegated<'b, P>(
    ctx: &Ctx<'b, P>,
    request: &'b Request,
    params: &'b Params,
    pairs: Vec<(String, String)>,
) -> Ctx<'b, P> {
    Ctx {
        state: ctx.state,
        platform: ctx.platform,
        request,
        params,
        query: Query::from_pairs(pairs),
        now_ms: ctx.now_ms,
    }
}

async fn search_portal<P: Platform>(ctx: &Ctx<'_, P>, args: &Map<String, Value>) -> Result<Value, ToolError> {
    let mut args = args.clone();
    let forgiving = match args.remove("forgiving") {
        None | Some(Value::Null) => false,
        Some(Value::Bool(forgiving)) => forgiving,
        Some(_) => return Err(ToolError("`forgiving` must be true or false.".into())),
    };
    let pairs = arguments(
        &args,
        &[("query", "q", "string"), ("collections", "collections", "strings"), ("limit", "limit", "integer")],
    )?;
    let Some(query) = args.get("query").and_then(Value::as_str) else {
        return Err(ToolError("`query` is required.".into()));
    };
    // Refused here so that the message names the tool's argument (docs/spec/api-spec.md#query-limits).
    limits::terms(query).map_err(|refusal| ToolError(refusal.message("query")))?;
    let (request, params) = (Request::new(Method::Get, "/mcp"), Params::default());
    let delegated = delegated(ctx, &request, &params, pairs);
    if forgiving {
        return forgiving_search(&delegated).await;
    }
    let mut answer = body(search::handle(&delegated).await?)?;
    strip(&mut answer, &["status", "cached"]);
    Ok(answer)
}

/// `search_portal` with `forgiving`: the search page's search ([`crate::search::forgiving`]), in
/// the API's document plus what it forgave.
async fn forgiving_search<P: Platform>(ctx: &Ctx<'_, P>) -> Result<Value, ToolError> {
    let asked = search::asked(ctx)?;
    let terms = limits::terms(&asked.query).map_err(|refusal| ToolError(refusal.message("query")))?;
    let index = ctx.state.search_index(ctx.platform).await?;
    let forms = index.page_forms(&ctx.state.manifest().site);
    let forgiven =
        index.forgiving(&terms, &asked.scope, asked.limit, &forms).map_err(internal(ctx.platform, "searching"))?;
    let mut answer = search::hits_document(&asked.query, &asked.scope, &forgiven.found);
    if let Value::Object(map) = &mut answer {
        if let Some(suggestion) = forgiven.suggestion {
            map.insert("suggestion".into(), Value::String(suggestion));
        }
        map.insert("corrected".into(), json!(forgiven.corrected));
        map.insert("partial".into(), json!(forgiven.partial));
        let manifest = ctx.state.manifest();
        let settings = &manifest.site.search;
        let asks = HelpWords::new(&settings.help_words, settings.help_words_replace).asks_for_help(&asked.query);
        if let Some(help) = manifest.help.as_ref().filter(|_| asks) {
            map.insert("help".into(), json!(help));
        }
    }
    Ok(answer)
}

async fn list_portal_collection<P: Platform>(ctx: &Ctx<'_, P>, args: &Map<String, Value>) -> Result<Value, ToolError> {
    let mut pairs = arguments(
        args,
        &[
            ("collection", "collection", "string"),
            ("limit", "limit", "integer"),
            ("offset", "offset", "integer"),
            ("filter", "filter", "filter"),
            ("sort", "sort", "string"),
            ("fields", "fields", "strings"),
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
    let request = Request::new(Method::Get, "/mcp");
    let params = Params { collection: Some(collection.clone()), ..Params::default() };
    let answer = body(collections::handle(&delegated(ctx, &request, &params, pairs)).await?)?;
    Ok(json!({
        "collection": collection,
        "total": answer["total"],
        "count": answer["count"],
        "offset": offset,
        "records": answer["data"][collection.as_str()],
    }))
}

async fn search_portal_encyclopedia<P: Platform>(
    ctx: &Ctx<'_, P>,
    args: &Map<String, Value>,
) -> Result<Value, ToolError> {
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
    if let Some(query) = args.get("query").and_then(Value::as_str) {
        limits::bounded_terms(query).map_err(|refusal| ToolError(refusal.message("query")))?;
    }
    let (request, params) = (Request::new(Method::Get, "/mcp"), Params::default());
    let mut answer = body(encyclopedia::list(&delegated(ctx, &request, &params, pairs)).await?)?;
    let entries = answer["data"]["entries"].take();
    strip(&mut answer, &["status", "data", "links"]);
    answer["entries"] = entries;
    Ok(answer)
}

async fn get_portal_encyclopedia_entry<P: Platform>(
    ctx: &Ctx<'_, P>,
    args: &Map<String, Value>,
) -> Result<Value, ToolError> {
    arguments(args, &[("slug", "slug", "string")])?;
    let slug = args.get("slug").and_then(Value::as_str).map(str::trim).unwrap_or_default();
    if slug.is_empty() {
        return Err(ToolError("`slug` is required.".into()));
    }
    let detail = if slug.contains('/') {
        None
    } else {
        read_json(ctx.state, ctx.platform, &format!("/api/encyclopedia/{slug}")).await?
    };
    let Some(mut detail) = detail else {
        return Err(ToolError(format!(
            "There is no encyclopedia entry `{slug}`. Use search_portal_encyclopedia to find the slugs of existing entries."
        )));
    };
    Ok(json!({"entry": detail["data"]["entry"].take()}))
}

fn strip(value: &mut Value, keys: &[&str]) {
    if let Value::Object(map) = value {
        for key in keys {
            map.remove(*key);
        }
    }
}
