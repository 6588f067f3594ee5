//! `GET /api/search` (docs/spec/api-spec.md#search): every word must match, the last also as a prefix;
//! per-collection top-N by relevance; identical queries within a minute come from the cache.

use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::Value;

use crate::content::collections::{is_collection, COLLECTIONS, ENCYCLOPEDIA};
use crate::handlers::Ctx;
use crate::http::envelope::SUCCESS;
use crate::http::problem::Problem;
use crate::http::Response;
use crate::platform::{internal, Platform};
use crate::search::limits;
use crate::search::Hit;

pub use crate::search::limits::{long_enough, MIN_QUERY_CHARS};
/// Default hits per collection (docs/spec/api-spec.md#limits).
pub const DEFAULT_LIMIT: i64 = 10;
/// Largest `limit` (docs/spec/api-spec.md#limits).
pub const MAX_LIMIT: i64 = 50;
/// How long an answer is reused for an identical query (docs/spec/api-spec.md#search).
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
/// the raw `q`, whose limits each caller checks in its own way ([`crate::search::limits`]).
pub fn asked<P>(ctx: &Ctx<'_, P>) -> Result<Asked, Problem> {
    let query = ctx.query.get("q").unwrap_or_default().to_string();
    let limit = ctx.query.integer("limit", 1, MAX_LIMIT)?.unwrap_or(DEFAULT_LIMIT) as usize;
    let scope = scope(ctx.query.get("collections"))?;
    Ok(Asked { query, limit, scope })
}

/// The answer of a search (the JSON document of `/api/search`): from the cache when the same
/// search ran within [`CACHE_SECONDS`], else from the index (and cached).
pub async fn run<P: Platform>(ctx: &Ctx<'_, P>, asked: &Asked) -> Result<Value, Problem> {
    let text = answer(ctx, asked, &terms(asked, "q")?).await?;
    serde_json::from_str(&text).map_err(internal(ctx.platform, "reading a search answer"))
}

/// The words of the query asked, or 400 `bad_request` naming the limit it is over, the query
/// being parameter `name` (docs/spec/api-spec.md#query-limits).
pub fn terms(asked: &Asked, name: &str) -> Result<Vec<String>, Problem> {
    limits::terms(&asked.query).map_err(|refusal| Problem::bad_request(refusal.message(name)))
}

/// [`run`]'s document as JSON text for the words `terms` of `asked`, written once for the cache and
/// the response alike.
async fn answer<P: Platform>(ctx: &Ctx<'_, P>, asked: &Asked, terms: &[String]) -> Result<String, Problem> {
    let Asked { query, limit, scope } = asked;
    let key = format!("search\u{1f}{limit}\u{1f}{}\u{1f}{query}", scope.join(","));
    if let Some(cached) = ctx.platform.cache_get(&key).await {
        // A fresh answer ends with `"cached":false}` (see `Body`): the cached one says true.
        if let Some(head) = std::str::from_utf8(&cached).ok().and_then(|text| text.strip_suffix(FRESH_TAIL)) {
            return Ok(format!("{head}{CACHED_TAIL}"));
        }
    }
    let index = ctx.state.search_index(ctx.platform).await?;
    let found = index.search_collections(terms, scope, *limit).map_err(internal(ctx.platform, "searching"))?;
    let body = Body { query, scope, found: &found };
    let text = serde_json::to_string(&body).map_err(internal(ctx.platform, "writing a search answer"))?;
    ctx.platform.cache_put(&key, text.clone().into(), CACHE_SECONDS).await;
    Ok(text)
}

/// The document of `/api/search` for hits found another way (the forgiving search of the MCP
/// tool), without `status` and `cached`: the same `query`, `totalResults`, `results` and `totals`.
pub fn hits_document(query: &str, scope: &[String], found: &[(Vec<Hit>, usize)]) -> Value {
    let mut document = serde_json::to_value(Body { query, scope, found }).unwrap_or(Value::Null);
    if let Value::Object(map) = &mut document {
        map.remove("status");
        map.remove("cached");
    }
    document
}

/// How a fresh answer ends, and how the same answer from the cache ends.
const FRESH_TAIL: &str = r#""cached":false}"#;
const CACHED_TAIL: &str = r#""cached":true}"#;

/// A fresh answer as [`crate::http::envelope::success`] would wrap it (`status` first), written straight
/// from the hits: `results` has the collections with hits, `totals` every collection searched.
struct Body<'a> {
    query: &'a str,
    scope: &'a [String],
    found: &'a [(Vec<Hit>, usize)],
}

impl Body<'_> {
    /// Each collection searched once (a name given twice counts once, as a JSON object would).
    fn collections(&self) -> impl Iterator<Item = (&str, &(Vec<Hit>, usize))> {
        self.scope
            .iter()
            .zip(self.found)
            .enumerate()
            .filter(|(i, (name, _))| !self.scope[..*i].contains(name))
            .map(|(_, (name, found))| (name.as_str(), found))
    }
}

impl Serialize for Body<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        struct Results<'a, 'b>(&'b Body<'a>);
        impl Serialize for Results<'_, '_> {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.collect_map(
                    self.0.collections().filter(|(_, (hits, _))| !hits.is_empty()).map(|(c, (h, _))| (c, h)),
                )
            }
        }
        struct Totals<'a, 'b>(&'b Body<'a>);
        impl Serialize for Totals<'_, '_> {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.collect_map(self.0.collections().map(|(c, (_, total))| (c, total)))
            }
        }
        let returned: usize = self.collections().map(|(_, (hits, _))| hits.len()).sum();
        let mut map = serializer.serialize_map(Some(6))?;
        map.serialize_entry("status", SUCCESS)?;
        map.serialize_entry("query", self.query)?;
        map.serialize_entry("totalResults", &returned)?;
        map.serialize_entry("results", &Results(self))?;
        map.serialize_entry("totals", &Totals(self))?;
        map.serialize_entry("cached", &false)?;
        map.end()
    }
}

/// Answers `/api/search`.
pub async fn handle<P: Platform>(ctx: &Ctx<'_, P>) -> Result<Response, Problem> {
    let asked = asked(ctx)?;
    let terms = terms(&asked, "q")?;
    Ok(Response::new(200).with_body(crate::http::media::JSON, answer(ctx, &asked, &terms).await?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::http::envelope::success;
    use serde_json::{json, Map};

    #[test]
    fn an_answer_is_written_as_the_envelope_would_write_it() {
        let hit = |slug: &str| Hit {
            slug: slug.into(),
            title: "T \"q\"".into(),
            collection: "news".into(),
            url: "/news/x".into(),
        };
        let scope = ["news".to_string(), "docs".to_string(), "news".to_string()];
        let found = [(vec![hit("a"), hit("b")], 7), (Vec::new(), 0), (vec![hit("a"), hit("b")], 7)];
        let text = serde_json::to_string(&Body { query: "water ca", scope: &scope, found: &found }).expect("json");
        assert!(text.ends_with(FRESH_TAIL), "the cache marks an answer by its tail: {text}");
        let mut results = Map::new();
        results.insert("news".into(), json!([hit("a"), hit("b")]));
        let expected = success(json!({
            "query": "water ca",
            "totalResults": 2,
            "results": results,
            "totals": {"news": 7, "docs": 0},
            "cached": false,
        }));
        assert_eq!(text, expected.to_string());
    }

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
