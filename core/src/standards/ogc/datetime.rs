//! The `datetime` parameter of OGC API - Features items (docs/spec/api-spec.md#ogc): an instant
//! (`2026-03-01`, `2026-03-01T09:00:00Z`) or an interval (`start/end`, either end `..` or empty
//! for open), matched against each feature's own date. A feature's date is the first of its
//! properties [`DATE_PROPERTIES`] that reads as a date or an RFC 3339 date-time; a date stands
//! for its whole day (UTC), on both sides.

use serde_json::Value;

use crate::content::time::parse_content_date;
use crate::http::problem::Problem;

/// The properties a feature's date is read from, in order.
pub const DATE_PROPERTIES: [&str; 3] = ["datetime", "date", "updated"];

const DAY: i64 = 86_400;

/// A span of time in Unix seconds, `end` exclusive; `None` is open on that side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Span {
    /// The first second in it.
    pub start: Option<i64>,
    /// The first second after it.
    pub end: Option<i64>,
}

impl Span {
    /// Whether the two spans share a second.
    fn meets(&self, other: &Span) -> bool {
        let before = |end: Option<i64>, start: Option<i64>| matches!((end, start), (Some(e), Some(s)) if e <= s);
        !before(self.end, other.start) && !before(other.end, self.start)
    }
}

/// One instant of text: a date is its day, a date-time its second.
fn instant(text: &str) -> Option<Span> {
    let at = parse_content_date(text).ok()?.unix;
    let length = if text.trim().len() <= 10 { DAY } else { 1 };
    Some(Span { start: Some(at), end: Some(at + length) })
}

/// The `datetime` parameter; 400 naming the forms it takes for anything else.
pub fn parse(raw: &str) -> Result<Span, Problem> {
    let bad = || {
        Problem::bad_request(format!(
            "`datetime` takes a date or an RFC 3339 date-time (2026-03-01, 2026-03-01T09:00:00Z) or an interval of \
             two with `/` (either end `..` for open, as in 2026-01-01/..); got `{raw}`."
        ))
    };
    let text = raw.trim();
    let Some((from, to)) = text.split_once('/') else { return instant(text).ok_or_else(bad) };
    let end = |part: &str, pick: fn(Span) -> Option<i64>| -> Result<Option<i64>, Problem> {
        match part.trim() {
            "" | ".." => Ok(None),
            part => instant(part).map(pick).ok_or_else(bad),
        }
    };
    let span = Span { start: end(from, |s| s.start)?, end: end(to, |s| s.end)? };
    match (span.start, span.end) {
        (None, None) if from.trim() != ".." || to.trim() != ".." => Err(bad()),
        (Some(start), Some(end)) if start >= end => Err(bad()),
        _ => Ok(span),
    }
}

/// A feature's date as a span, when it has one.
pub fn of_feature(feature: &Value) -> Option<Span> {
    DATE_PROPERTIES.iter().find_map(|name| instant(feature["properties"][*name].as_str()?))
}

/// Keeps the features whose date meets `span`; a feature without a date never does.
pub fn within(features: Vec<Value>, span: &Span) -> Vec<Value> {
    features.into_iter().filter(|f| of_feature(f).is_some_and(|at| at.meets(span))).collect()
}

/// The first and last day of the features' dates, `None` when no feature has one.
pub fn extent(features: &[Value]) -> Option<(String, String)> {
    let spans: Vec<Span> = features.iter().filter_map(of_feature).collect();
    let first = spans.iter().filter_map(|s| s.start).min()?;
    let last = spans.iter().filter_map(|s| s.end).max()?;
    let at = |unix: i64| crate::content::time::DateTime { unix }.rfc3339();
    Some((at(first), at(last - 1)))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn dated(id: &str, date: &str) -> Value {
        json!({"type": "Feature", "id": id, "geometry": null, "properties": {"updated": date}})
    }

    fn ids(features: Vec<Value>) -> Vec<String> {
        features.iter().filter_map(|f| f["id"].as_str().map(str::to_string)).collect()
    }

    #[test]
    fn instants_and_intervals_select_features_by_their_date() {
        let features = vec![dated("a", "2026-01-10"), dated("b", "2026-03-01T12:00:00Z"), json!({"id": "c"})];
        let pick = |raw: &str| ids(within(features.clone(), &parse(raw).expect(raw)));
        assert_eq!(pick("2026-01-10T08:00:00Z"), ["a"], "a date is its whole day");
        assert_eq!(pick("2026-03-01"), ["b"]);
        assert_eq!(pick("2026-01-11/.."), ["b"]);
        assert_eq!(pick("../2026-01-10"), ["a"], "an interval's last day counts whole");
        assert_eq!(pick("/2026-02-01"), ["a"]);
        assert_eq!(pick("../.."), ["a", "b"], "open on both sides: every dated feature");
        assert_eq!(extent(&features), Some(("2026-01-10T00:00:00Z".into(), "2026-03-01T12:00:00Z".into())));
    }

    #[test]
    fn anything_else_is_a_bad_request() {
        for bad in ["", "yesterday", "2026-13-01", "2026-03-01/2026-01-01", "a/b", "2026-01-01/x", "/", "2026/01/02"] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }
}
