//! `POST /api/export` (docs/spec/api-spec.md#export) and the description served by
//! `GET /api/export`, which the build writes from [`description`].

use serde_json::{json, Map, Value};

use crate::content::collections::{is_collection, COLLECTIONS};
use crate::forms::validate::require_object;
use crate::handlers::collections::{metadata, parse_options, records, stats};
use crate::handlers::Ctx;
use crate::http::body::{json_kind, json_object};
use crate::http::envelope::success;
use crate::http::problem::{FieldError, Problem};
use crate::http::Response;
use crate::platform::Platform;

/// The document of `GET /api/export`: method, body schema, options and supported collections.
pub fn description() -> Value {
    success(json!({
        "endpoint": "/api/export",
        "method": "POST",
        "description": "Exports several collections at once. Send a JSON body naming the collections; \
                        options add export metadata and per-collection counts.",
        "body": {
            "type": "object",
            "required": ["collections"],
            "properties": {
                "collections": {"type": "array", "minItems": 1, "items": {"type": "string", "enum": COLLECTIONS}},
                "options": {
                    "type": "object",
                    "properties": {
                        "includeMetadata": {"type": "boolean", "default": false},
                        "includeStats": {"type": "boolean", "default": false}
                    }
                }
            }
        },
        "options": {
            "includeMetadata": "adds `metadata`: exportDate, totalCollections, collections",
            "includeStats": "adds `stats`: totalItems, itemsPerCollection"
        },
        "supportedCollections": COLLECTIONS,
    }))
}

/// The requested collection names, in order, without repeats; every unknown name is reported.
pub fn parse_collections(body: &Map<String, Value>) -> Result<Vec<String>, Problem> {
    let fail = |message: String| Problem::invalid_body(vec![FieldError::new("collections", message)]);
    let list = match body.get("collections") {
        None | Some(Value::Null) => return Err(fail("is required: an array of collection names".into())),
        Some(Value::Array(list)) if list.is_empty() => return Err(fail("must name at least one collection".into())),
        Some(Value::Array(list)) => list,
        Some(other) => return Err(fail(format!("must be an array of collection names, not {}", json_kind(other)))),
    };
    let mut names: Vec<String> = Vec::new();
    let mut unknown = Vec::new();
    for item in list {
        match item {
            Value::String(name) if is_collection(name) => {
                if !names.contains(name) {
                    names.push(name.clone());
                }
            }
            Value::String(name) => unknown.push(format!("`{name}`")),
            other => unknown.push(json_kind(other).to_string()),
        }
    }
    if unknown.is_empty() {
        Ok(names)
    } else {
        Err(fail(format!("unknown collection(s): {}; see GET /api/export for the supported names", unknown.join(", "))))
    }
}

/// Answers the export.
pub async fn handle<P: Platform>(ctx: &Ctx<'_, P>) -> Result<Response, Problem> {
    let body = require_object(json_object(ctx.request)?)?;
    let options = parse_options(Some(&body));
    let names = parse_collections(&body);
    let (options, names) = match (options, names) {
        (Ok(options), Ok(names)) => (options, names),
        (Err(a), Err(b)) => return Err(merge(a, b)),
        (Err(e), _) | (_, Err(e)) => return Err(e),
    };
    let mut data = Map::new();
    let mut counts = Vec::new();
    for name in &names {
        let list = records(ctx, name).await?;
        counts.push((name.as_str(), list.len()));
        data.insert(name.clone(), Value::Array(list));
    }
    let mut envelope = Map::new();
    envelope.insert("status".into(), json!("success"));
    envelope.insert("data".into(), Value::Object(data));
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    if options.include_metadata {
        envelope.insert("metadata".into(), metadata(ctx.now_ms, &refs));
    }
    if options.include_stats {
        envelope.insert("stats".into(), stats(&counts));
    }
    Ok(Response::json(&Value::Object(envelope)))
}

/// One `invalid_body` listing the fields of two.
fn merge(a: Problem, b: Problem) -> Problem {
    let fields = |p: &Problem| -> Vec<FieldError> {
        p.extensions
            .iter()
            .filter(|(n, _)| n == "errors")
            .flat_map(|(_, v)| v.as_array().cloned().unwrap_or_default())
            .map(|e| {
                FieldError::new(e["field"].as_str().unwrap_or_default(), e["message"].as_str().unwrap_or_default())
            })
            .collect()
    };
    Problem::invalid_body([fields(&b), fields(&a)].concat())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn body(text: &str) -> Map<String, Value> {
        serde_json::from_str(text).unwrap_or_default()
    }

    #[test]
    fn collections_are_checked_and_deduplicated() {
        assert_eq!(
            parse_collections(&body(r#"{"collections":["news","events","news"]}"#)),
            Ok(vec!["news".into(), "events".into()])
        );
        for bad in
            [r#"{}"#, r#"{"collections":[]}"#, r#"{"collections":"news"}"#, r#"{"collections":["news","nope",3]}"#]
        {
            assert!(parse_collections(&body(bad)).is_err(), "{bad}");
        }
        let err = parse_collections(&body(r#"{"collections":["nope"]}"#)).expect_err("unknown");
        assert!(err.detail.contains("`nope`"));
    }

    #[test]
    fn the_description_lists_every_collection() {
        assert_eq!(description()["supportedCollections"].as_array().map(Vec::len), Some(COLLECTIONS.len()));
    }
}
