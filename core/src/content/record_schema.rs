//! The JSON Schema (2020-12) of a collection's records, derived at build time from the records
//! themselves: the members every record has, the type of each front-matter key as it is used, a
//! `format` where every value is a date, a date-time or a URL, and an `enum` where a field takes
//! few, repeated values. Published at `/api/schemas/<collection>.json` for clients and agents that
//! validate or generate forms; every published record validates against its collection's schema.

use std::collections::BTreeSet;

use serde_json::{json, Map, Value};

use crate::content::time::{parse_content_date, parse_date};
use crate::content::RESERVED_KEYS;

/// The JSON Schema dialect of the documents.
pub const DIALECT: &str = "https://json-schema.org/draft/2020-12/schema";

/// The media type of the documents.
pub const MEDIA_TYPE: &str = "application/schema+json";

/// A field gets an `enum` when it takes at most this many distinct values...
const ENUM_MAX_VALUES: usize = 10;
/// ...none longer than this...
const ENUM_MAX_LENGTH: usize = 60;
/// ...and each value is used this many times on average (so unique values stay free text).
const ENUM_MIN_REPEATS: usize = 2;

/// What the records say about one key.
#[derive(Debug, Default)]
struct Usage {
    /// Records that have it (with any value, null included).
    present: usize,
    /// JSON types seen.
    types: BTreeSet<&'static str>,
    /// Every string value (of the key, or of the items of a list).
    strings: Vec<String>,
    /// Types of list items.
    item_types: BTreeSet<&'static str>,
}

fn type_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// A `type` keyword for a set of types (`integer` folds into `number` when both occur).
fn type_keyword(types: &BTreeSet<&'static str>) -> Value {
    let mut types: Vec<&str> = types.iter().copied().collect();
    if types.contains(&"number") {
        types.retain(|t| *t != "integer");
    }
    match types.as_slice() {
        [one] => json!(one),
        many => json!(many),
    }
}

/// The `format` every one of `values` has, if they share one.
fn format_of(values: &[String]) -> Option<&'static str> {
    if values.is_empty() {
        return None;
    }
    if values.iter().all(|v| parse_date(v).is_ok()) {
        return Some("date");
    }
    if values.iter().all(|v| v.len() > 10 && parse_content_date(v).is_ok()) {
        return Some("date-time");
    }
    if values.iter().all(|v| v.starts_with("https://") || v.starts_with("http://")) {
        return Some("uri");
    }
    None
}

/// The values as an `enum` when they are few and repeated.
fn enum_of(values: &[String]) -> Option<Vec<String>> {
    let distinct: BTreeSet<&String> = values.iter().collect();
    let few = distinct.len() <= ENUM_MAX_VALUES && distinct.iter().all(|v| v.chars().count() <= ENUM_MAX_LENGTH);
    (few && values.len() >= distinct.len() * ENUM_MIN_REPEATS).then(|| distinct.into_iter().cloned().collect())
}

/// The schema of string values: a format, else an enum, else plain.
fn strings(values: &[String]) -> Map<String, Value> {
    let mut schema = Map::new();
    if let Some(format) = format_of(values) {
        schema.insert("format".into(), json!(format));
    } else if let Some(values) = enum_of(values) {
        schema.insert("enum".into(), json!(values));
    }
    schema
}

fn property(usage: &Usage) -> Value {
    let mut schema = Map::new();
    schema.insert("type".into(), type_keyword(&usage.types));
    let only = |t: &str| usage.types.iter().all(|seen| *seen == t || *seen == "null");
    if only("string") {
        schema.extend(strings(&usage.strings));
    } else if only("array") {
        let mut items = Map::new();
        if !usage.item_types.is_empty() {
            items.insert("type".into(), type_keyword(&usage.item_types));
        }
        if usage.item_types.iter().all(|t| *t == "string") {
            items.extend(strings(&usage.strings));
        }
        schema.insert("items".into(), Value::Object(items));
    }
    Value::Object(schema)
}

/// How `records` use each key, in order of first use.
fn usages(records: &[Value]) -> Vec<(String, Usage)> {
    let mut usages: Vec<(String, Usage)> = Vec::new();
    for map in records.iter().filter_map(Value::as_object) {
        for (key, value) in map {
            let position = match usages.iter().position(|(k, _)| k == key) {
                Some(position) => position,
                None => {
                    usages.push((key.clone(), Usage::default()));
                    usages.len() - 1
                }
            };
            let usage = &mut usages[position].1;
            usage.present += 1;
            usage.types.insert(type_of(value));
            match value {
                Value::String(s) => usage.strings.push(s.clone()),
                Value::Array(items) => {
                    for item in items {
                        usage.item_types.insert(type_of(item));
                        if let Value::String(s) = item {
                            usage.strings.push(s.clone());
                        }
                    }
                }
                _ => {}
            }
        }
    }
    usages
}

/// The schema of the records of `collection` (as its listing shows them), published at `id`.
pub fn derive(collection: &str, id: &str, records: &[Value]) -> Value {
    let usages = usages(records);
    let mut properties = Map::new();
    let mut required: Vec<String> = RESERVED_KEYS.iter().map(|k| k.to_string()).collect();
    for (key, usage) in &usages {
        properties.insert(key.clone(), property(usage));
        if usage.present == records.len() && !required.contains(key) {
            required.push(key.clone());
        }
    }
    for key in RESERVED_KEYS {
        properties.entry(key.to_string()).or_insert_with(|| json!({"type": "string"}));
    }
    properties.insert("collection".into(), json!({"const": collection}));
    json!({
        "$schema": DIALECT,
        "$id": id,
        "title": format!("A record of the `{collection}` collection"),
        "description": format!(
            "Derived from the {} published record(s) of the collection: the members every record has are required, \
             and each key has the type its records use. The detail endpoint adds `html`.",
            records.len()
        ),
        "type": "object",
        "required": required,
        "properties": properties,
        "additionalProperties": true,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn records() -> Vec<Value> {
        (0..6)
            .map(|i| {
                json!({"id": format!("r{i}"), "collection": "jobs", "title": format!("Job {i}"), "slug": format!("r{i}"),
                       "url": format!("/jobs/r{i}"), "date": format!("2026-01-0{}", i + 1),
                       "category": if i % 2 == 0 { "health" } else { "trade" },
                       "tags": ["a", if i < 3 { "b" } else { "c" }], "salary": if i == 0 { json!(100) } else { json!(12.5) },
                       "apply": format!("https://example.org/{i}"), "summary": format!("unique summary {i}")})
            })
            .collect()
    }

    #[test]
    fn members_every_record_has_are_required_and_types_follow_use() {
        let schema = derive("jobs", "https://x/api/schemas/jobs.json", &records());
        assert_eq!(schema["$schema"], DIALECT);
        assert!(schema["required"].as_array().is_some_and(|r| r.contains(&json!("category"))));
        assert_eq!(schema["properties"]["collection"], json!({"const": "jobs"}));
        assert_eq!(schema["properties"]["salary"]["type"], "number");
        assert_eq!(schema["properties"]["date"]["format"], "date");
        assert_eq!(schema["properties"]["apply"]["format"], "uri");
    }

    #[test]
    fn few_repeated_values_become_an_enum_and_unique_ones_stay_free() {
        let schema = derive("jobs", "x", &records());
        assert_eq!(schema["properties"]["category"]["enum"], json!(["health", "trade"]));
        assert_eq!(schema["properties"]["tags"]["items"]["enum"], json!(["a", "b", "c"]));
        assert!(schema["properties"]["summary"].get("enum").is_none());
    }
}
