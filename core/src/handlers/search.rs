//! `GET /api/search` (spec 4.2, decision D4): every word must match, the last also as a prefix;
//! per-collection top-N by relevance; identical queries within a minute come from the cache.

use serde_json::{json, Map, Value};

use crate::collections::{is_collection, COLLECTIONS, ENCYCLOPEDIA};
use crate::envelope::success;
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

/// A search as the request asks for it: the query, hits per collection and the scope.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Asked {
    /// The query as sent.
    pub query: String,
    /// Hits per collection.
    pub limit: usize,
    /// The collections searched (and `entries`).
    pub scope: Vec<String>,
}

/// Reads `limit` and `collections` of the request (400 `bad_request` when malformed); `query` is
/// the raw `q`, whose length each caller checks in its own way.
pub fn asked<P>(ctx: &Ctx<'_, P>) -> Result<Asked, Problem> {
    let query = ctx.query.get("q").unwrap_or_default().to_string();
    let limit = ctx.query.integer("limit", 1, MAX_LIMIT)?.unwrap_or(DEFAULT_LIMIT) as usize;
    let scope = scope(ctx.query.get("collections"))?;
    Ok(Asked { query, limit, scope })
}

/// Whether a query is long enough to search (spec 8).
pub fn long_enough(query: &str) -> bool {
    query.trim().chars().count() >= MIN_QUERY_CHARS
}

/// The answer of a search (the JSON document of `/api/search`): from the cache when the same
/// search ran within [`CACHE_SECONDS`], else from the index (and cached).
pub async fn run<P: Platform>(ctx: &Ctx<'_, P>, asked: &Asked) -> Result<Value, Problem> {
    Ok(answer(ctx, asked).await?.0)
}

/// [`run`]'s document and its JSON text (written once, for the cache and the response alike).
async fn answer<P: Platform>(ctx: &Ctx<'_, P>, asked: &Asked) -> Result<(Value, String), Problem> {
    let Asked { query, limit, scope } = asked;
    let key = format!("search\u{1f}{limit}\u{1f}{}\u{1f}{query}", scope.join(","));
    if let Some(cached) = ctx.platform.cache_get(&key).await {
        if let Ok(Value::Object(mut body)) = serde_json::from_slice::<Value>(&cached) {
            body.insert("cached".into(), json!(true));
            let body = Value::Object(body);
            let text = body.to_string();
            return Ok((body, text));
        }
    }
    let index = ctx.app.search_index(ctx.platform).await?;
    let mut results = Map::new();
    let mut totals = Map::new();
    let mut returned = 0;
    let found = index.search_collections(&words(query), scope, *limit).map_err(internal(ctx.platform, "searching"))?;
    for (collection, (hits, total)) in scope.iter().zip(found) {
        totals.insert(collection.clone(), json!(total));
        if !hits.is_empty() {
            returned += hits.len();
            results.insert(collection.clone(), json!(hits));
        }
    }
    let body = success(json!({
        "query": query,
        "totalResults": returned,
        "results": results,
        "totals": totals,
        "cached": false,
    }));
    let text = body.to_string();
    ctx.platform.cache_put(&key, text.clone().into(), CACHE_SECONDS).await;
    Ok((body, text))
}

/// Answers `/api/search`.
pub async fn handle<P: Platform>(ctx: &Ctx<'_, P>) -> Result<Response, Problem> {
    let asked = asked(ctx)?;
    if !long_enough(&asked.query) {
        return Err(Problem::bad_request(format!("`q` must have at least {MIN_QUERY_CHARS} characters.")));
    }
    let (_, text) = answer(ctx, &asked).await?;
    Ok(Response::new(200).with_body(crate::media::JSON, text))
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
