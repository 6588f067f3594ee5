//! The curated alerts of `data/alerts.yaml` (docs/content.md#alerts) as the alerts page and the
//! home page show them: current ones first, ended ones (an end date before the build time)
//! marked as such. Any shape is read: `items:` (or `alerts:`) of a mapping, a bare list, one
//! alert alone; fields under the names people use (`severity` or `level`, `summary` or
//! `message`, `area` or `zones`, `expires` or `end`...), each optional.

use serde_json::{Map, Value};

use crate::content::time::{parse_content_date, DateTime};

/// Levels that put a current alert on the home page, above everything else.
pub const HIGH_LEVELS: &[&str] = &["high", "severe", "extreme", "critical", "urgent", "emergency", "red", "danger"];

/// One alert, read.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Alert {
    /// Its `id`, when it has one (an anchor on the alerts page).
    pub id: Option<String>,
    /// What it says in a line.
    pub title: String,
    /// Its level as written (`severe`, `moderate`...).
    pub level: Option<String>,
    /// What to know or do.
    pub message: Option<String>,
    /// Where it applies (zones, areas), as written.
    pub areas: Vec<String>,
    /// When it was issued or starts (`YYYY-MM-DD` or a date-time, as written).
    pub issued: Option<String>,
    /// When it ends.
    pub ends: Option<String>,
    /// More about it: an `http(s)` or site-relative link only.
    pub link: Option<String>,
    /// It ended before the build time.
    pub ended: bool,
    /// Its level is one of [`HIGH_LEVELS`].
    pub high: bool,
}

fn text(map: &Map<String, Value>, keys: &[&str]) -> Option<String> {
    keys.iter().find_map(|k| match map.get(*k)? {
        Value::String(s) if !s.trim().is_empty() => Some(s.trim().to_string()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    })
}

fn list(map: &Map<String, Value>, keys: &[&str]) -> Vec<String> {
    keys.iter()
        .find_map(|k| match map.get(*k)? {
            Value::Array(items) => Some(items.iter().filter_map(text_of).collect()),
            Value::String(s) if !s.trim().is_empty() => Some(vec![s.trim().to_string()]),
            _ => None,
        })
        .unwrap_or_default()
}

fn text_of(value: &Value) -> Option<String> {
    match value {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// Whether `url` may be linked: `http(s)` or a path of the site (never `javascript:`).
fn safe_link(url: &str) -> bool {
    let lower = url.to_ascii_lowercase();
    lower.starts_with("https://") || lower.starts_with("http://") || (url.starts_with('/') && !url.starts_with("//"))
}

/// The instant a written end ends: a bare date lasts until the end of its day.
fn end_instant(text: &str) -> Option<i64> {
    let at = parse_content_date(text).ok()?.unix;
    Some(if text.trim().len() <= 10 { at + 86_400 } else { at })
}

fn alert(value: &Value, now: DateTime) -> Option<Alert> {
    let map = match value {
        Value::Object(map) => map.clone(),
        Value::String(s) if !s.trim().is_empty() => {
            let mut map = Map::new();
            map.insert("title".into(), Value::String(s.clone()));
            map
        }
        _ => return None,
    };
    let level = text(&map, &["level", "severity", "priority", "urgency"]);
    let message = text(&map, &["message", "summary", "description", "text", "body", "details"]);
    let named = text(&map, &["title", "headline", "name", "event"]);
    // An alert with a message only has it as its title, said once.
    let (title, message) = match (named, message) {
        (Some(title), message) => (title, message),
        (None, Some(message)) => (message, None),
        (None, None) => (text(&map, &["id"])?, None),
    };
    let ends = text(&map, &["ends", "end", "expires", "until", "end_date", "expiry"]);
    let ended = ends.as_deref().and_then(end_instant).is_some_and(|end| end <= now.unix);
    let high = level.as_deref().is_some_and(|l| HIGH_LEVELS.contains(&l.to_ascii_lowercase().as_str()));
    Some(Alert {
        id: text(&map, &["id"]),
        title,
        message,
        areas: list(&map, &["zones", "zone", "areas", "area", "where", "location"]),
        issued: text(&map, &["issued", "start", "starts", "effective", "onset", "date", "published"]),
        ends,
        link: text(&map, &["link", "url", "href", "more"]).filter(|l| safe_link(l)),
        ended,
        high,
        level,
    })
}

/// The alerts of an `alerts` snapshot, current ones first then ended ones, each group in the
/// order of the file; `now` is the build time.
pub fn alerts(data: &Value, now: DateTime) -> Vec<Alert> {
    let items: Vec<Value> = match data {
        Value::Array(items) => items.clone(),
        Value::Object(map) => match map.get("items").or_else(|| map.get("alerts")) {
            Some(Value::Array(items)) => items.clone(),
            Some(one @ Value::Object(_)) => vec![one.clone()],
            _ if map.contains_key("title") || map.contains_key("headline") => vec![data.clone()],
            _ => Vec::new(),
        },
        _ => Vec::new(),
    };
    let mut read: Vec<Alert> = items.iter().filter_map(|item| alert(item, now)).collect();
    read.sort_by_key(|a| a.ended);
    read
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn now() -> DateTime {
        DateTime::from_unix(parse_content_date("2026-11-26T12:00:00Z").map(|d| d.unix).unwrap_or_default())
    }

    #[test]
    fn current_alerts_come_first_and_ended_ones_are_marked() {
        let data = json!({"updated": "2026-11-20", "items": [
            {"title": "Old flood", "severity": "severe", "expires": "2026-11-25T23:59:00+03:00"},
            {"title": "Cholera", "severity": "high", "area": "zone-b"},
            {"title": "Ends today", "level": "low", "end": "2026-11-26"},
        ]});
        let read = alerts(&data, now());
        let titles: Vec<&str> = read.iter().map(|a| a.title.as_str()).collect();
        assert_eq!(titles, ["Cholera", "Ends today", "Old flood"]);
        assert!(read[2].ended && !read[1].ended && !read[0].ended);
        assert!(read[0].high && read[2].high && !read[1].high);
        assert_eq!(read[0].areas, ["zone-b"]);
    }

    #[test]
    fn other_shapes_and_missing_fields_are_read_and_bad_links_dropped() {
        let bare = json!([{"headline": "<script>x</script>", "zones": ["a", 2], "url": "javascript:alert(1)"}, "Plain", 3, {}]);
        let read = alerts(&bare, now());
        assert_eq!(read.len(), 2);
        assert_eq!(read[0].title, "<script>x</script>");
        assert_eq!(read[0].areas, ["a", "2"]);
        assert_eq!(read[0].link, None);
        assert_eq!(read[1].title, "Plain");
        let message_only = alerts(&json!([{"message": "Boil water"}]), now());
        assert_eq!((message_only[0].title.as_str(), message_only[0].message.as_deref()), ("Boil water", None));
        let one = json!({"title": "Alone", "ends": "not a date", "link": "/news/x"});
        let read = alerts(&one, now());
        assert_eq!((read[0].ended, read[0].link.as_deref()), (false, Some("/news/x")));
        assert!(alerts(&json!({"updated": "x"}), now()).is_empty());
        assert!(alerts(&json!("text"), now()).is_empty());
    }
}
