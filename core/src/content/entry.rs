//! An encyclopedia entry (docs/spec/decisions.md#d5-encyclopedia): a record with sources (at least
//! one), aliases, related entries and a language. The common members are validated as for any
//! record.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::record::{Issue, Record};
use crate::content::collections::ENCYCLOPEDIA;

/// Slugs the encyclopedia's own endpoints use (`/api/encyclopedia/suggest`, `/facets`).
pub const RESERVED_ENTRY_SLUGS: &[&str] = &["suggest", "facets"];

/// Front-matter keys an entry has besides a record's ([`super::record::KNOWN_KEYS`]).
pub const ENTRY_KEYS: &[&str] = &["aliases", "related", "sources"];

/// One cited source.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Source {
    /// The source's title.
    pub title: String,
    /// Where to read it.
    pub url: String,
    /// Who published it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub publisher: Option<String>,
    /// When it was published.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub date: Option<String>,
}

/// An encyclopedia entry.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    /// The common record members (collection `entries`, url `/encyclopedia/<slug>`).
    pub record: Record,
    /// Other names it is known by.
    pub aliases: Vec<String>,
    /// Slugs of related entries (checked to exist by the loader).
    pub related: Vec<String>,
    /// The sources, at least one.
    pub sources: Vec<Source>,
    /// Its language (BCP 47), if it differs from the site's.
    pub language: Option<String>,
}

fn strings(fields: &Map<String, Value>, key: &str, issues: &mut Vec<Issue>) -> Vec<String> {
    match fields.get(key) {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(items)) if items.iter().all(Value::is_string) => {
            items.iter().filter_map(Value::as_str).map(str::to_string).collect()
        }
        Some(_) => {
            issues.push(Issue { key: Some(key.into()), message: format!("`{key}` must be a list of strings") });
            Vec::new()
        }
    }
}

fn sources(fields: &Map<String, Value>, issues: &mut Vec<Issue>) -> Vec<Source> {
    let issue = |message: String| Issue { key: Some("sources".into()), message };
    let Some(Value::Array(items)) = fields.get("sources") else {
        issues.push(issue(
            "missing `sources`: every encyclopedia entry cites at least one source ({title, url, publisher?, date?})"
                .into(),
        ));
        return Vec::new();
    };
    if items.is_empty() {
        issues.push(issue("`sources` is empty: cite at least one source".into()));
    }
    let mut out = Vec::new();
    for (index, item) in items.iter().enumerate() {
        match serde_json::from_value::<Source>(item.clone()) {
            Ok(source) if source.title.trim().is_empty() || source.url.trim().is_empty() => {
                issues.push(issue(format!("source {} needs a non-empty `title` and `url`", index + 1)))
            }
            Ok(source) if !(source.url.starts_with("https://") || source.url.starts_with("http://")) => issues
                .push(issue(format!("source {}: `url` must be an http(s) address, not `{}`", index + 1, source.url))),
            Ok(source) => out.push(source),
            Err(e) => issues.push(issue(format!("source {} is not {{title, url, publisher?, date?}}: {e}", index + 1))),
        }
    }
    out
}

impl Entry {
    /// Validates an entry's front matter; every problem is reported.
    pub fn from_fields(slug: &str, fields: Map<String, Value>, body: Option<String>) -> Result<Entry, Vec<Issue>> {
        let mut issues = Vec::new();
        let aliases = strings(&fields, "aliases", &mut issues);
        let related = strings(&fields, "related", &mut issues);
        let sources = sources(&fields, &mut issues);
        let language = match fields.get("language") {
            None | Some(Value::Null) => None,
            Some(Value::String(l)) => Some(l.clone()),
            Some(_) => {
                issues.push(Issue { key: Some("language".into()), message: "`language` must be a string".into() });
                None
            }
        };
        let record = Record::from_fields(ENCYCLOPEDIA, slug, fields, body);
        if let Ok(record) = &record {
            if RESERVED_ENTRY_SLUGS.contains(&record.slug.as_str()) {
                issues.push(Issue {
                    key: None,
                    message: format!("`{}` is reserved for an encyclopedia endpoint: rename the entry", record.slug),
                });
            }
            if record.slug.contains('/') {
                issues
                    .push(Issue { key: None, message: "encyclopedia entries are not nested: move the file up".into() });
            }
        }
        match record {
            Ok(record) if issues.is_empty() => Ok(Entry { record, aliases, related, sources, language }),
            Ok(_) => Err(issues),
            Err(mut more) => {
                more.append(&mut issues);
                Err(more)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn fields(value: Value) -> Map<String, Value> {
        value.as_object().cloned().unwrap_or_default()
    }

    #[test]
    fn an_entry_needs_sources() {
        let err = Entry::from_fields("asylum", fields(json!({"title": "Asylum"})), None).expect_err("no sources");
        assert!(err[0].message.contains("missing `sources`"));
        let err = Entry::from_fields("asylum", fields(json!({"title": "Asylum", "sources": [{"title": "x"}]})), None)
            .expect_err("no url");
        assert_eq!(err[0].key.as_deref(), Some("sources"));
    }

    #[test]
    fn a_valid_entry_keeps_its_extras() {
        let entry = Entry::from_fields(
            "asylum",
            fields(json!({"title": "Asylum", "aliases": ["Refuge"], "sources": [{"title": "Convention", "url": "https://example.org/c"}]})),
            None,
        )
        .expect("valid");
        assert_eq!(entry.record.url, "/encyclopedia/asylum");
        assert_eq!(entry.aliases, ["Refuge"]);
        assert_eq!(entry.sources[0].publisher, None);
    }

    #[test]
    fn reserved_slugs_are_refused() {
        let f = fields(json!({"title": "S", "sources": [{"title": "x", "url": "https://example.org"}]}));
        assert!(Entry::from_fields("suggest", f, None).is_err());
    }
}
