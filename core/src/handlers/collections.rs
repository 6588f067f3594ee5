//! `GET /api/<collection>` with `limit`/`offset`, filters, sorting and field selection, and
//! `POST /api/<collection>` with options (docs/spec/api-spec.md#collection-endpoints).
//!
//! Both read the listing the build wrote; a plain GET never gets here (the file is served as is).

use serde_json::{json, Map, Value};

use crate::content::time::DateTime;
use crate::handlers::files::read_json;
use crate::handlers::Ctx;
use crate::http::body::{json_kind, json_object};
use crate::http::envelope;
use crate::http::problem::{FieldError, Problem};
use crate::http::{Method, Response};
use crate::platform::Platform;
use crate::queries::listing::ListQuery;

/// The largest `limit` of a collection GET (docs/spec/api-spec.md#limits).
pub const MAX_LIMIT: i64 = 1000;

/// The options of a POST body.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Options {
    /// Add `metadata`.
    pub include_metadata: bool,
    /// Add `stats`.
    pub include_stats: bool,
}

/// Reads `options` from a POST body: absent, `{}` or booleans; anything else is 400 `invalid_body`.
pub fn parse_options(body: Option<&Map<String, Value>>) -> Result<Options, Problem> {
    let Some(options) = body.and_then(|b| b.get("options")) else {
        return Ok(Options::default());
    };
    let options = match options {
        Value::Object(map) => map,
        Value::Null => return Ok(Options::default()),
        other => {
            return Err(Problem::invalid_body(vec![FieldError::new(
                "options",
                format!("must be an object, not {}", json_kind(other)),
            )]))
        }
    };
    let mut errors = Vec::new();
    let mut flag = |name: &str| match options.get(name) {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(other) => {
            errors.push(FieldError::new(
                format!("options.{name}"),
                format!("must be true or false, not {}", json_kind(other)),
            ));
            false
        }
    };
    let parsed = Options { include_metadata: flag("includeMetadata"), include_stats: flag("includeStats") };
    if errors.is_empty() {
        Ok(parsed)
    } else {
        Err(Problem::invalid_body(errors))
    }
}

/// The `metadata` object of the export shape.
pub fn metadata(now_ms: u64, collections: &[&str]) -> Value {
    json!({
        "exportDate": DateTime::from_unix((now_ms / 1000) as i64).rfc3339(),
        "totalCollections": collections.len(),
        "collections": collections,
    })
}

/// The `stats` object of the export shape.
pub fn stats(counts: &[(&str, usize)]) -> Value {
    let per: Map<String, Value> = counts.iter().map(|(name, n)| (name.to_string(), json!(n))).collect();
    json!({"totalItems": counts.iter().map(|(_, n)| n).sum::<usize>(), "itemsPerCollection": per})
}

/// The records of a collection as the build listed them.
pub async fn records<P: Platform>(ctx: &Ctx<'_, P>, name: &str) -> Result<Vec<Value>, Problem> {
    let listing = read_json(ctx.state, ctx.platform, &format!("/api/{name}")).await?;
    let mut listing = listing.ok_or_else(|| Problem::not_found(format!("The collection `{name}` was not built.")))?;
    match listing.pointer_mut(&format!("/data/{name}")).map(Value::take) {
        Some(Value::Array(records)) => Ok(records),
        _ => Err(Problem::internal()),
    }
}

/// Answers GET with `limit`/`offset`, or POST with options.
pub async fn handle<P: Platform>(ctx: &Ctx<'_, P>) -> Result<Response, Problem> {
    let name = ctx.params.collection.clone().unwrap_or_default();
    let options = if ctx.request.method == Method::Post {
        parse_options(json_object(ctx.request)?.as_ref())?
    } else {
        Options::default()
    };
    let limit = ctx.query.integer("limit", 1, MAX_LIMIT)?;
    let offset = ctx.query.integer("offset", 0, i64::MAX)?.unwrap_or(0);
    let list = ListQuery::parse(&ctx.query)?;
    let all = records(ctx, &name).await?;
    let all = if list.is_empty() { all } else { list.apply(all)? };
    let total = all.len();
    let page: Vec<Value> = all
        .into_iter()
        .skip(usize::try_from(offset).unwrap_or(usize::MAX))
        .take(limit.map_or(usize::MAX, |l| l as usize))
        .collect();
    let count = page.len();
    let mut envelope = envelope::listing(&name, page, total);
    if options.include_metadata {
        envelope.insert("metadata".into(), metadata(ctx.now_ms, &[name.as_str()]));
    }
    if options.include_stats {
        envelope.insert("stats".into(), stats(&[(name.as_str(), count)]));
    }
    Ok(Response::json(&Value::Object(envelope)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::http::problem::ErrorCode;

    fn body(text: &str) -> Option<Map<String, Value>> {
        serde_json::from_str(text).ok()
    }

    #[test]
    fn options_accept_the_d2_forms() {
        assert_eq!(parse_options(None), Ok(Options::default()));
        assert_eq!(parse_options(body("{}").as_ref()), Ok(Options::default()));
        assert_eq!(parse_options(body(r#"{"options":{}}"#).as_ref()), Ok(Options::default()));
        let both = parse_options(body(r#"{"options":{"includeMetadata":true,"includeStats":true},"x":1}"#).as_ref());
        assert_eq!(both, Ok(Options { include_metadata: true, include_stats: true }));
    }

    #[test]
    fn bad_options_are_invalid_body() {
        for bad in [r#"{"options":[]}"#, r#"{"options":{"includeStats":"yes"}}"#, r#"{"options":1}"#] {
            let err = parse_options(body(bad).as_ref()).expect_err(bad);
            assert_eq!(err.code, ErrorCode::InvalidBody);
        }
    }
}
