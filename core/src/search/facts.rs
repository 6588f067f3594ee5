//! The text of a record's front matter that its title, summary, tags and body do not already give:
//! opening hours, contacts, a venue, an image's description, any key a site adds, in mappings and
//! lists too. The search page finds a record by it ([`super::schema::Fields::facts`]).
//!
//! Left out: the keys with a meaning of their own (docs/content.md#front-matter: ids, dates,
//! weights, the language, the category id...), numbers and booleans, and strings that are not
//! words for people: links, paths, e-mail addresses, dates.

use serde_json::{Map, Value};

/// Keys whose values are not searched as facts: indexed in their own field, or ids, dates and
/// settings rather than text.
const NOT_FACTS: &[&str] = &[
    "id",
    "collection",
    "title",
    "slug",
    "url",
    "body",
    "html",
    "summary",
    "tags",
    "aliases",
    "category",
    "draft",
    "weight",
    "date",
    "updated",
    "start",
    "end",
    "language",
    "translation_key",
];

/// The facts of a record, from its front matter (or its JSON as the API gives it, which holds the
/// same keys): each text value once in key order, nested values depth first, joined by newlines.
pub fn facts(front_matter: &Map<String, Value>) -> String {
    let mut out = Vec::new();
    for (key, value) in front_matter {
        if !NOT_FACTS.contains(&key.as_str()) {
            collect(value, &mut out);
        }
    }
    out.join("\n")
}

fn collect<'a>(value: &'a Value, out: &mut Vec<&'a str>) {
    match value {
        Value::String(text) if is_words(text) && !out.contains(&text.as_str()) => out.push(text),
        Value::Array(items) => items.iter().for_each(|item| collect(item, out)),
        Value::Object(map) => map.values().for_each(|item| collect(item, out)),
        _ => {}
    }
}

/// Whether `text` is words for people rather than a link, a path, an e-mail address or a date.
fn is_words(text: &str) -> bool {
    let text = text.trim();
    let date = text.len() >= 10
        && text.as_bytes()[..10].iter().enumerate().all(|(i, b)| match i {
            4 | 7 => *b == b'-',
            _ => b.is_ascii_digit(),
        });
    let link = text.starts_with('/')
        || text.starts_with('#')
        || text.contains("://")
        || text.starts_with("mailto:")
        || text.starts_with("tel:")
        || !text.contains(' ') && text.contains('@');
    !(text.is_empty() || date || link)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn front(yaml: serde_json::Value) -> Map<String, Value> {
        yaml.as_object().cloned().unwrap_or_default()
    }

    #[test]
    fn text_values_at_any_depth_are_facts() {
        let fields = front(serde_json::json!({
            "title": "Amani Health Centre",
            "hours": "Outpatient clinics Mon-Fri",
            "phone": "+256 700 000 102",
            "languages": ["en", "ar"],
            "venue": {"name": "Community hall", "latitude": -0.6},
            "image": {"src": "/media/clinic.jpg", "alt": "A white clinic"},
        }));
        assert_eq!(
            facts(&fields),
            "Outpatient clinics Mon-Fri\n+256 700 000 102\nen\nar\nCommunity hall\nA white clinic"
        );
    }

    #[test]
    fn links_dates_numbers_and_keys_with_a_meaning_are_not() {
        let fields = front(serde_json::json!({
            "summary": "Already indexed",
            "tags": ["health"],
            "category": "health",
            "date": "2026-11-18",
            "translation_key": "boreholes",
            "weight": 2,
            "free": true,
            "website": "https://example.org/a b",
            "map": "/map/place/hc-amani",
            "email": "help@example.org",
            "deadline": "2026-12-01T12:00:00Z",
            "contact": "Ask at the desk",
        }));
        assert_eq!(facts(&fields), "Ask at the desk");
    }
}
