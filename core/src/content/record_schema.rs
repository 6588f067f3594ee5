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
    /// Its string values (of the key, or of the items of a list).
    strings: Strings,
    /// Types of list items.
    item_types: BTreeSet<&'static str>,
}

/// What the schema needs to know of a key's string values, folded as they come: a collection of a
/// million records is never held as text twice to derive its schema.
#[derive(Debug)]
struct Strings {
    /// How many there were.
    count: usize,
    /// Whether every one so far is a date, a date-time, a URL.
    date: bool,
    date_time: bool,
    uri: bool,
    /// The distinct values, while they may still make an `enum` (`None` once they cannot).
    distinct: Option<BTreeSet<String>>,
}

impl Default for Strings {
    fn default() -> Self {
        Strings { count: 0, date: true, date_time: true, uri: true, distinct: Some(BTreeSet::new()) }
    }
}

impl Strings {
    fn add(&mut self, v: &str) {
        self.count += 1;
        self.date = self.date && parse_date(v).is_ok();
        self.date_time = self.date_time && v.len() > 10 && parse_content_date(v).is_ok();
        self.uri = self.uri && (v.starts_with("https://") || v.starts_with("http://"));
        if let Some(distinct) = self.distinct.as_mut().filter(|d| !d.contains(v)) {
            if v.chars().count() > ENUM_MAX_LENGTH || distinct.len() == ENUM_MAX_VALUES {
                self.distinct = None;
            } else {
                distinct.insert(v.to_string());
            }
        }
    }

    /// The `format` every value has, if they share one.
    fn format(&self) -> Option<&'static str> {
        let formats = [(self.date, "date"), (self.date_time, "date-time"), (self.uri, "uri")];
        formats.into_iter().find_map(|(every, format)| (every && self.count > 0).then_some(format))
    }

    /// The values as an `enum` when they are few and repeated.
    fn enumerated(&self) -> Option<Vec<String>> {
        // No values (a key that is always null) make no `enum`: an empty one would refuse them all.
        let distinct = self.distinct.as_ref().filter(|d| !d.is_empty())?;
        (self.count >= distinct.len() * ENUM_MIN_REPEATS).then(|| distinct.iter().cloned().collect())
    }

    /// The schema of the values: a format, else an enum, else plain.
    fn schema(&self) -> Map<String, Value> {
        let mut schema = Map::new();
        if let Some(format) = self.format() {
            schema.insert("format".into(), json!(format));
        } else if let Some(values) = self.enumerated() {
            schema.insert("enum".into(), json!(values));
        }
        schema
    }
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

fn property(usage: &Usage) -> Value {
    let mut schema = Map::new();
    schema.insert("type".into(), type_keyword(&usage.types));
    let only = |t: &str| usage.types.iter().all(|seen| *seen == t || *seen == "null");
    if only("string") {
        schema.extend(usage.strings.schema());
    } else if only("array") {
        let mut items = Map::new();
        if !usage.item_types.is_empty() {
            items.insert("type".into(), type_keyword(&usage.item_types));
        }
        if usage.item_types.iter().all(|t| *t == "string") {
            items.extend(usage.strings.schema());
        }
        schema.insert("items".into(), Value::Object(items));
    }
    Value::Object(schema)
}

/// How a collection's records use each key, in order of first use, folded a record at a time.
#[derive(Debug, Default)]
struct Shapes {
    usages: Vec<(String, Usage)>,
    /// Records added.
    records: usize,
}

impl Shapes {
    /// Adds a record as its collection's listing shows it.
    fn add(&mut self, record: &Value) {
        self.records += 1;
        let Some(map) = record.as_object() else { return };
        for (key, value) in map {
            let position = match self.usages.iter().position(|(k, _)| k == key) {
                Some(position) => position,
                None => {
                    self.usages.push((key.clone(), Usage::default()));
                    self.usages.len() - 1
                }
            };
            let usage = &mut self.usages[position].1;
            usage.present += 1;
            usage.types.insert(type_of(value));
            match value {
                Value::String(s) => usage.strings.add(s),
                Value::Array(items) => {
                    for item in items {
                        usage.item_types.insert(type_of(item));
                        if let Value::String(s) = item {
                            usage.strings.add(s);
                        }
                    }
                }
                _ => {}
            }
        }
    }

    /// The schema of the records of `collection` added, published at `id`.
    fn schema(&self, collection: &str, id: &str) -> Value {
        let mut properties = Map::new();
        let mut required: Vec<String> = RESERVED_KEYS.iter().map(|k| k.to_string()).collect();
        for (key, usage) in &self.usages {
            properties.insert(key.clone(), property(usage));
            if usage.present == self.records && !required.contains(key) {
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
                self.records
            ),
            "type": "object",
            "required": required,
            "properties": properties,
            "additionalProperties": true,
        })
    }
}

/// The schema of the records of `collection` (as its listing shows them), published at `id`.
pub fn derive(collection: &str, id: &str, records: &[Value]) -> Value {
    let mut shapes = Shapes::default();
    for record in records {
        shapes.add(record);
    }
    shapes.schema(collection, id)
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

    #[test]
    fn a_key_always_null_has_no_enum_and_long_or_many_values_none_either() {
        let records: Vec<Value> = (0..24)
            .map(|i| json!({"gone": null, "long": "x".repeat(61 + i % 2), "many": format!("v{}", i % 12), "few": format!("v{}", i % 10)}))
            .collect();
        let schema = derive("jobs", "x", &records);
        for key in ["gone", "long", "many"] {
            assert!(schema["properties"][key].get("enum").is_none(), "{key}: {}", schema["properties"][key]);
        }
        assert_eq!(schema["properties"]["few"]["enum"].as_array().map(Vec::len), Some(10));
    }
}
