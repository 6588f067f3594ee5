//! `GET /api/search` (spec 4.2, decision D4): every word must match, the last also as a prefix;
//! per-collection top-N by relevance; identical queries within a minute come from the cache.

use serde_json::{json, Map, Value};

use crate::collections::{is_collection, COLLECTIONS, ENCYCLOPEDIA};
use crate::handlers::Ctx;
use crate::http::Response;
use crate::platform::{internal, Platform};
use crate::problem::Problem;
use crate::search::schema::words;

/// Shortest query, in Unicode scalar values after trimming (spec 8).
pub const MIN_QUERY_CHARS: usize = 2;
/// Default hits per collection (spec 8).
pub const DEFAULT_LIMIT: i64 = 10;
/// Largest `limit` (D4).
pub const MAX_LIMIT: i64 = 50;
/// How long an answer is reused for an identical query (D4).
pub const CACHE_SECONDS: u64 = 60;

/// The collections a `collections` parameter names: all 19 when it is absent or empty; `entries`
/// adds the encyclopedia. An empty name in a list (`news,,docs`) is a 400, like an unknown one.
pub fn scope(param: Option<&str>) -> Result<Vec<String>, Problem> {
    let Some(list) = param.filter(|list| !list.trim().is_empty()) else {
        return Ok(COLLECTIONS.iter().map(|c| c.to_string()).collect());
    };
    let mut names: Vec<String> = Vec::new();
    let mut unknown = Vec::new();
    for name in list.split(',').map(str::trim) {
        if name.is_empty() {
            return Err(Problem::bad_request(
                "`collections` has an empty name: list collection names separated by commas, or leave the parameter out.",
            ));
        }
        if !is_collection(name) && name != ENCYCLOPEDIA {
            unknown.push(name.to_string());
        } else if !names.iter().any(|n| n == name) {
            names.push(name.to_string());
        }
    }
    if !unknown.is_empty() {
        return Err(Problem::bad_request(format!(
            "Unknown collection(s) in `collections`: {}. Use the collection names of /api/status, or `{ENCYCLOPEDIA}` for the encyclopedia.",
            unknown.join(", ")
        )));
    }
    Ok(names)
}

/// Answers a search.
pub async fn handle<P: Platform>(ctx: &Ctx<'_, P>) -> Result<Response, Problem> {
    let raw = ctx.query.get("q").unwrap_or_default();
    if raw.trim().chars().count() < MIN_QUERY_CHARS {
        return Err(Problem::bad_request(format!("`q` must have at least {MIN_QUERY_CHARS} characters.")));
    }
    let limit = ctx.query.integer("limit", 1, MAX_LIMIT)?.unwrap_or(DEFAULT_LIMIT) as usize;
    let scope = scope(ctx.query.get("collections"))?;
    let key = format!("search\u{1f}{limit}\u{1f}{}\u{1f}{raw}", scope.join(","));
    if let Some(cached) = ctx.platform.cache_get(&key).await {
        if let Ok(Value::Object(mut body)) = serde_json::from_slice::<Value>(&cached) {
            body.insert("cached".into(), json!(true));
            return Ok(Response::json(&Value::Object(body)));
        }
    }
    let index = ctx.app.search_index(ctx.platform).await?;
    let words = words(raw);
    let mut results = Map::new();
    let mut totals = Map::new();
    let mut returned = 0;
    let found = index.search_collections(&words, &scope, limit).map_err(internal(ctx.platform, "searching"))?;
    for (collection, (hits, total)) in scope.iter().zip(found) {
        totals.insert(collection.clone(), json!(total));
        if !hits.is_empty() {
            returned += hits.len();
            results.insert(collection.clone(), json!(hits));
        }
    }
    let body = json!({
        "status": "success",
        "query": raw,
        "totalResults": returned,
        "results": results,
        "totals": totals,
        "cached": false,
    });
    ctx.platform.cache_put(&key, body.to_string().into(), CACHE_SECONDS).await;
    Ok(Response::json(&body))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scope_defaults_to_the_collections_and_accepts_entries() {
        assert_eq!(scope(None).map(|s| s.len()), Ok(19));
        assert_eq!(scope(Some("news, entries,news")), Ok(vec!["news".to_string(), "entries".to_string()]));
        let err = scope(Some("news,nope")).expect_err("unknown");
        assert!(err.detail.contains("nope"));
        assert_eq!(scope(Some(" ")).map(|s| s.len()), Ok(19));
        for empty in ["news,,docs", "news,", ","] {
            assert!(scope(Some(empty)).is_err(), "{empty:?}");
        }
    }
}
