//! A published record: front matter as docs/content.md#front-matter says, shape and order as
//! docs/spec/api-spec.md#records says.

use std::cmp::Ordering;

use serde_json::{Map, Value};

use crate::content::collections::record_url;
use crate::content::limits::{MAX_TAGS, MAX_TERM_CHARS};
use crate::content::time::{parse_content_date, DateTime};

/// Members every record leads with, computed by the build; front-matter keys of these names set
/// their value (id, title, slug) or are ignored (collection, url) but never repeat.
pub const RESERVED_KEYS: &[&str] = &["id", "collection", "title", "slug", "url"];

/// Front-matter keys with a meaning: those of docs/content.md#front-matter, and those the theme and
/// the API act on (a record's picture, its language and translations, an event's times). A key that
/// is almost one of these (`Draft`, `sumary`) is a content error, since it would pass through
/// silently and do nothing.
pub const KNOWN_KEYS: &[&str] = &[
    "id",
    "title",
    "slug",
    "date",
    "updated",
    "summary",
    "tags",
    "category",
    "draft",
    "weight",
    "image",
    "image_alt",
    "language",
    "translation_key",
    "start",
    "end",
];

/// What a job's JSON-LD reads besides a record's keys (`crate::standards::json_ld`).
const JOB_KEYS: &[&str] = &[
    "deadline",
    "valid_through",
    "employment_type",
    "contract",
    "remote",
    "applicant_location",
    "employer",
    "hiring_organization",
    "organization",
    "organisation",
    "location",
    "venue",
    "zone",
];

/// The front-matter keys `collection` has a use for: [`KNOWN_KEYS`], and an event's own
/// (`crate::content::event::KEYS` and the other spellings of its times) or a job's.
pub fn known_keys(collection: &str) -> Vec<&'static str> {
    let mut keys = KNOWN_KEYS.to_vec();
    match collection {
        "events" => {
            use crate::content::event::{ALIASES, KEYS};
            keys.extend(KEYS);
            keys.extend(ALIASES.iter().map(|(alias, _)| *alias));
        }
        "jobs" => keys.extend(JOB_KEYS),
        _ => {}
    }
    keys
}

/// A validation problem with a record, tied to the front-matter key it concerns (if any).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Issue {
    /// The key at fault; `None` for the record as a whole.
    pub key: Option<String>,
    /// What is wrong.
    pub message: String,
}

impl Issue {
    fn at(key: &str, message: impl Into<String>) -> Self {
        Issue { key: Some(key.to_string()), message: message.into() }
    }
}

/// One record of a collection, validated. Serializable so that a big build can keep its records
/// on disk between the steps that read them (docs/deploying.md#memory).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Record {
    /// The content file it came from, as errors name it (empty when it was made otherwise).
    pub file: String,
    /// The collection it belongs to.
    pub collection: String,
    /// `id` (default: the slug).
    pub id: String,
    /// The slug, `/`-separated for nested files.
    pub slug: String,
    /// The title.
    pub title: String,
    /// The site-relative URL of its page.
    pub url: String,
    /// Every front-matter key, in file order.
    pub fields: Map<String, Value>,
    /// The markdown body, when the record has one.
    pub body: Option<String>,
    /// The rendered body, filled in by the build.
    pub html: Option<String>,
    /// `date`, parsed.
    pub date: Option<DateTime>,
    /// `updated`, parsed.
    pub updated: Option<DateTime>,
    /// `weight`.
    pub weight: Option<i64>,
    /// `draft`: unpublished records appear nowhere.
    pub draft: bool,
    /// `summary`.
    pub summary: Option<String>,
    /// `tags`.
    pub tags: Vec<String>,
    /// `category`.
    pub category: Option<String>,
}

/// A front-matter or data value as text: a string as written, a number or a boolean as JSON
/// writes it; `None` for lists, maps and null.
pub fn scalar_text(value: &Value) -> Option<String> {
    match value {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

/// Whether `slug` is `[a-z0-9][a-z0-9-]*` in every `/`-separated segment.
pub fn is_valid_slug(slug: &str) -> bool {
    !slug.is_empty()
        && slug.split('/').all(|segment| {
            let mut bytes = segment.bytes();
            matches!(bytes.next(), Some(b'a'..=b'z' | b'0'..=b'9'))
                && bytes.all(|b| matches!(b, b'a'..=b'z' | b'0'..=b'9' | b'-'))
        })
}

fn optional_string(fields: &Map<String, Value>, key: &str, issues: &mut Vec<Issue>) -> Option<String> {
    match fields.get(key) {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s.clone()),
        Some(Value::Number(n)) if key == "id" => Some(n.to_string()),
        Some(other) => {
            issues.push(Issue::at(key, format!("`{key}` must be a string, not {}", kind(other))));
            None
        }
    }
}

fn optional_date(fields: &Map<String, Value>, key: &str, issues: &mut Vec<Issue>) -> Option<DateTime> {
    let text = optional_string(fields, key, issues)?;
    match parse_content_date(&text) {
        Ok(date) => Some(date),
        Err(e) => {
            issues.push(Issue::at(key, format!("`{key}`: {e}")));
            None
        }
    }
}

/// A tag or category longer than [`MAX_TERM_CHARS`] (its slug names a file) is an issue at its key.
fn check_term_lengths(tags: &[String], category: Option<&str>, issues: &mut Vec<Issue>) {
    let long = |term: &&str| term.chars().count() > MAX_TERM_CHARS;
    let terms = tags.iter().map(|t| ("tags", t.as_str())).chain(category.map(|c| ("category", c)));
    for (key, term) in terms.filter(|(_, term)| long(term)) {
        let start: String = term.chars().take(20).collect();
        issues.push(Issue::at(
            key,
            format!("`{key}`: `{start}...` has more than {MAX_TERM_CHARS} characters; shorten it"),
        ));
    }
}

fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "a mapping",
    }
}

impl Record {
    /// Validates front matter and builds the record. `path_slug` is the file path inside the
    /// collection folder without extension, lower-cased (the default slug). Every problem is
    /// reported, not only the first.
    pub fn from_fields(
        collection: &str,
        path_slug: &str,
        fields: Map<String, Value>,
        body: Option<String>,
    ) -> Result<Record, Vec<Issue>> {
        let mut issues = Vec::new();
        let fields = if collection == "events" {
            let (fields, twice) = crate::content::event::canonical(fields);
            for alias in twice {
                let meant = crate::content::event::canonical_key(&alias);
                issues.push(Issue::at(&alias, format!("`{alias}` says again what `{meant}` says: keep one of them")));
            }
            fields
        } else {
            fields
        };
        let title = match fields.get("title") {
            Some(Value::String(t)) if !t.trim().is_empty() => t.clone(),
            Some(Value::String(_)) => {
                issues.push(Issue::at("title", "`title` is empty"));
                String::new()
            }
            Some(other) => {
                issues.push(Issue::at("title", format!("`title` must be a string, not {}", kind(other))));
                String::new()
            }
            None => {
                issues.push(Issue { key: None, message: "missing `title`: every record needs a title string".into() });
                String::new()
            }
        };
        let slug = optional_string(&fields, "slug", &mut issues).unwrap_or_else(|| path_slug.to_string());
        if !is_valid_slug(&slug) {
            let key = if fields.contains_key("slug") { "slug" } else { "" };
            issues.push(Issue {
                key: (!key.is_empty()).then(|| key.to_string()),
                message: format!(
                    "slug `{slug}` is not valid: each path segment must match [a-z0-9][a-z0-9-]* (rename the file or set `slug:`)"
                ),
            });
        }
        let id = optional_string(&fields, "id", &mut issues).unwrap_or_else(|| slug.clone());
        let date = optional_date(&fields, "date", &mut issues);
        let updated = optional_date(&fields, "updated", &mut issues);
        let summary = optional_string(&fields, "summary", &mut issues);
        let language = fields.get("language").and_then(Value::as_str);
        if let Some(message) = language.and_then(|l| crate::content::language::name_instead_of_code("language", l)) {
            issues.push(Issue::at("language", message));
        }
        let category = optional_string(&fields, "category", &mut issues);
        let tags = match fields.get("tags") {
            None | Some(Value::Null) => Vec::new(),
            Some(Value::Array(items)) if items.len() > MAX_TAGS => {
                let message = format!("`tags` lists {} tags; a record may have at most {MAX_TAGS}", items.len());
                issues.push(Issue::at("tags", message));
                Vec::new()
            }
            Some(Value::Array(items)) if items.iter().all(Value::is_string) => {
                items.iter().filter_map(|t| t.as_str().map(str::to_string)).collect()
            }
            Some(_) => {
                issues.push(Issue::at("tags", "`tags` must be a list of strings"));
                Vec::new()
            }
        };
        check_term_lengths(&tags, category.as_deref(), &mut issues);
        let draft = match fields.get("draft") {
            None | Some(Value::Null) => false,
            Some(Value::Bool(b)) => *b,
            Some(other) => {
                issues.push(Issue::at("draft", format!("`draft` must be true or false, not {}", kind(other))));
                false
            }
        };
        let weight = match fields.get("weight") {
            None | Some(Value::Null) => None,
            Some(Value::Number(n)) if n.is_i64() => n.as_i64(),
            Some(other) => {
                issues.push(Issue::at("weight", format!("`weight` must be an integer, not {}", kind(other))));
                None
            }
        };
        if !issues.is_empty() {
            return Err(issues);
        }
        Ok(Record {
            file: String::new(),
            collection: collection.to_string(),
            url: record_url(collection, &slug),
            id,
            slug,
            title,
            fields,
            body,
            html: None,
            date,
            updated,
            weight,
            draft,
            summary,
            tags,
            category,
        })
    }

    /// The record as every JSON response shows it (docs/spec/api-spec.md#records): id, collection,
    /// title, slug, url, the front-matter keys in file order, then `body`.
    pub fn to_json(&self) -> Value {
        let mut out = Map::new();
        out.insert("id".into(), Value::String(self.id.clone()));
        out.insert("collection".into(), Value::String(self.collection.clone()));
        out.insert("title".into(), Value::String(self.title.clone()));
        out.insert("slug".into(), Value::String(self.slug.clone()));
        out.insert("url".into(), Value::String(self.url.clone()));
        for (key, value) in &self.fields {
            if !RESERVED_KEYS.contains(&key.as_str()) {
                out.insert(key.clone(), value.clone());
            }
        }
        if let Some(body) = &self.body {
            out.insert("body".into(), Value::String(body.clone()));
        }
        Value::Object(out)
    }

    /// The record of `GET /api/<collection>/<slug>`: [`Record::to_json`] plus `html`.
    pub fn to_detail_json(&self) -> Value {
        let mut value = self.to_json();
        if let Value::Object(map) = &mut value {
            map.insert("html".into(), Value::String(self.html.clone().unwrap_or_default()));
        }
        value
    }
}

/// The API's order (docs/spec/api-spec.md#record-order): `weight` ascending (unweighted last), then `date`
/// descending (undated last), then `id`.
pub fn sort_records(records: &mut [Record]) {
    records.sort_by(|a, b| d2_order((a.weight, a.date, &a.id), (b.weight, b.date, &b.id)));
}

/// The API's order (docs/spec/api-spec.md#record-order) of two records given as `(weight, date,
/// id)`: the one comparison every list of records in API order is sorted by.
pub fn d2_order(a: (Option<i64>, Option<DateTime>, &str), b: (Option<i64>, Option<DateTime>, &str)) -> Ordering {
    let by_weight = match (a.0, b.0) {
        (Some(x), Some(y)) => x.cmp(&y),
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        (None, None) => Ordering::Equal,
    };
    let by_date = match (a.1, b.1) {
        (Some(x), Some(y)) => y.cmp(&x),
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        (None, None) => Ordering::Equal,
    };
    by_weight.then(by_date).then_with(|| a.2.cmp(b.2))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn fields(value: Value) -> Map<String, Value> {
        match value {
            Value::Object(map) => map,
            _ => Map::new(),
        }
    }

    #[test]
    fn each_collection_knows_its_own_keys() {
        let (events, jobs, news) = (known_keys("events"), known_keys("jobs"), known_keys("news"));
        assert!(events.contains(&"venue") && events.contains(&"starts") && !news.contains(&"venue"));
        assert!(jobs.contains(&"deadline") && !events.contains(&"deadline"));
        assert_eq!(crate::content::did_you_mean::near_miss("deadlin", jobs), Some("deadline"));
    }

    #[test]
    fn a_language_name_is_an_issue_with_its_code() {
        let swahili = fields(json!({"title": "Habari", "language": "swahili"}));
        let issues = Record::from_fields("news", "habari", swahili, None).expect_err("a name");
        assert_eq!(issues[0].key.as_deref(), Some("language"));
        assert!(issues[0].message.contains("`language: sw`"), "{}", issues[0].message);
    }

    #[test]
    fn an_event_written_with_starts_and_ends_has_start_and_end() {
        let written = fields(json!({"title": "Fair", "starts": "2026-12-03 14:00", "ends": "2026-12-03 16:00"}));
        let event = Record::from_fields("events", "fair", written.clone(), None).expect("valid");
        assert_eq!(event.fields.keys().collect::<Vec<_>>(), ["title", "start", "end"]);
        let news = Record::from_fields("news", "fair", written, None).expect("valid");
        assert!(news.fields.contains_key("starts"), "only events read the other spellings");
        let twice = fields(json!({"title": "Fair", "start": "2026-12-03", "start_date": "2026-12-03"}));
        let issues = Record::from_fields("events", "fair", twice, None).expect_err("said twice");
        assert_eq!(issues[0].key.as_deref(), Some("start_date"));
    }

    fn record(value: Value) -> Record {
        Record::from_fields("news", "a", fields(value), None).expect("valid record")
    }

    #[test]
    fn json_leads_with_computed_members_then_front_matter_order() {
        let r = Record::from_fields(
            "news",
            "x",
            fields(json!({"zeta": 1, "title": "T", "alpha": 2, "url": "ignored"})),
            Some("b".into()),
        )
        .expect("valid");
        let keys: Vec<String> = r.to_json().as_object().map(|m| m.keys().cloned().collect()).unwrap_or_default();
        assert_eq!(keys, ["id", "collection", "title", "slug", "url", "zeta", "alpha", "body"]);
        assert_eq!(r.to_json()["url"], "/news/x");
    }

    #[test]
    fn every_issue_is_reported() {
        let issues = Record::from_fields(
            "news",
            "Bad Slug",
            fields(json!({"date": "2026-02-30", "tags": "x", "weight": 1.5})),
            None,
        )
        .expect_err("invalid");
        let keys: Vec<Option<String>> = issues.iter().map(|i| i.key.clone()).collect();
        assert_eq!(keys, [None, None, Some("date".into()), Some("tags".into()), Some("weight".into())]);
    }

    #[test]
    fn too_many_tags_or_a_term_too_long_is_an_issue_at_its_key() {
        let many: Vec<String> = (0..=MAX_TAGS).map(|n| format!("t{n}")).collect();
        let issues = Record::from_fields("news", "a", fields(json!({"title": "T", "tags": many})), None)
            .expect_err("too many tags");
        assert_eq!(issues, [Issue::at("tags", format!("`tags` lists 101 tags; a record may have at most {MAX_TAGS}"))]);
        let enough: Vec<String> = (0..MAX_TAGS).map(|n| format!("t{n}")).collect();
        assert!(Record::from_fields("news", "a", fields(json!({"title": "T", "tags": enough})), None).is_ok());
        let long = "ش".repeat(MAX_TERM_CHARS + 1);
        let issues =
            Record::from_fields("news", "a", fields(json!({"title": "T", "tags": [long], "category": long})), None)
                .expect_err("long terms");
        let keys: Vec<Option<&str>> = issues.iter().map(|i| i.key.as_deref()).collect();
        assert_eq!(keys, [Some("tags"), Some("category")]);
        assert!(Record::from_fields(
            "news",
            "a",
            fields(json!({"title": "T", "category": "ش".repeat(MAX_TERM_CHARS)})),
            None
        )
        .is_ok());
    }

    #[test]
    fn order_is_weight_then_newest_then_id() {
        let mut records = vec![
            record(json!({"title": "c", "id": "c"})),
            record(json!({"title": "b", "id": "b", "date": "2026-01-01"})),
            record(json!({"title": "a", "id": "a", "date": "2026-03-01"})),
            record(json!({"title": "w", "id": "w", "weight": 2})),
            record(json!({"title": "v", "id": "v", "weight": 1})),
            record(json!({"title": "d", "id": "d"})),
        ];
        sort_records(&mut records);
        let ids: Vec<&str> = records.iter().map(|r| r.id.as_str()).collect();
        assert_eq!(ids, ["v", "w", "a", "b", "c", "d"]);
    }

    #[test]
    fn slugs_are_checked_per_segment() {
        assert!(is_valid_slug("api/getting-started"));
        assert!(is_valid_slug("2026-report"));
        assert!(!is_valid_slug("-x"));
        assert!(!is_valid_slug("a//b"));
        assert!(!is_valid_slug("café"));
        assert!(!is_valid_slug(""));
    }
}
