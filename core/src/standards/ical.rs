//! The events as iCalendar (RFC 5545; docs/standards.md#icalendar): `/events.ics` with every
//! published event and `/events/<slug>.ics` with one, written by the build from a record's JSON.
//!
//! A small writer of our own rather than the `icalendar` crate: the crate stamps `DTSTAMP` with
//! the wall clock and makes random UIDs unless each is overridden, and brings chrono and uuid into
//! the Worker's build; these files must come out byte-identical from two builds of one content
//! (a stamp from `updated`/`date`/start, a UID from the page's path and the site's host). Lines
//! end in CRLF and are folded at 75 octets, never inside a UTF-8 character; TEXT values are
//! escaped (`\` `;` `,` and line breaks).

use serde_json::{Map, Value};
use time::macros::format_description;
use time::{Duration, OffsetDateTime};

use crate::content::event::{self, Moment, Status, ZoneFn};
use crate::content::i18n::Strings;
use crate::content::time::parse_content_date;
use crate::content::SiteConfig;

/// The longest line, in octets, without its CRLF.
const MAX_LINE: usize = 75;

/// What the writer reads besides the records.
pub struct Calendar<'a> {
    /// The site's settings (title, base URL, labels).
    pub site: &'a SiteConfig,
    /// The interface text (labels of zones).
    pub strings: &'a Strings,
    /// The site's time zone, for times written without an offset.
    pub zone: Option<ZoneFn<'a>>,
    /// The build time (Unix seconds; `SOURCE_DATE_EPOCH` when set): no `DTSTAMP` is later, as
    /// RFC 5545 has it the time the object was created.
    pub built: i64,
}

/// A TEXT value escaped (RFC 5545 §3.3.11): `\` `;` `,` and line breaks; other control
/// characters, which a TEXT value may not hold, are dropped.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' | ';' | ',' => {
                out.push('\\');
                out.push(c);
            }
            '\r' => {
                chars.next_if_eq(&'\n');
                out.push_str("\\n");
            }
            '\n' => out.push_str("\\n"),
            '\t' => out.push(c),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

/// One content line, folded (RFC 5545 §3.1): at most 75 octets a line, continuation lines
/// starting with a space, each ending in CRLF; a character is never split.
pub fn fold(line: &str) -> String {
    let mut out = String::with_capacity(line.len() + line.len() / 70 * 3 + 2);
    let mut width = 0;
    for c in line.chars() {
        if width + c.len_utf8() > MAX_LINE {
            out.push_str("\r\n ");
            width = 1;
        }
        out.push(c);
        width += c.len_utf8();
    }
    out.push_str("\r\n");
    out
}

/// `YYYYMMDDTHHMMSSZ` of Unix seconds.
fn utc_stamp(unix: i64) -> String {
    let at = OffsetDateTime::from_unix_timestamp(unix).unwrap_or(OffsetDateTime::UNIX_EPOCH);
    at.format(format_description!("[year][month][day]T[hour][minute][second]Z")).unwrap_or_default()
}

/// `DTSTART`/`DTEND` of a moment: a date, a UTC time, or a floating local time.
fn date_property(name: &str, moment: Moment) -> String {
    match moment {
        Moment::Day(date) => {
            format!("{name};VALUE=DATE:{}", date.format(format_description!("[year][month][day]")).unwrap_or_default())
        }
        Moment::At { unix, .. } => format!("{name}:{}", utc_stamp(unix)),
        Moment::Floating(naive) => format!(
            "{name}:{}",
            naive.format(format_description!("[year][month][day]T[hour][minute][second]")).unwrap_or_default()
        ),
    }
}

/// The end of an all-day event as iCalendar has it: the day after its last (exclusive), as a
/// date whatever the end was written as.
fn all_day_end(end: Moment) -> Moment {
    let last = match end {
        Moment::Day(date) => date,
        Moment::At { unix, offset } => {
            let at = OffsetDateTime::from_unix_timestamp(unix + i64::from(offset) * 60)
                .unwrap_or(OffsetDateTime::UNIX_EPOCH);
            at.date()
        }
        Moment::Floating(naive) => naive.date(),
    };
    Moment::Day(last.saturating_add(Duration::days(1)))
}

/// The host of the site's base URL, for UIDs (`localhost` when the site names none).
fn host(site: &SiteConfig) -> &str {
    let base = site.base();
    let rest = base.split_once("://").map_or(base, |(_, rest)| rest);
    let host = rest.split('/').next().unwrap_or(rest);
    if host.is_empty() {
        "localhost"
    } else {
        host
    }
}

/// The part of a UID before `@`, stable whatever changes in the event: the page's path, its last
/// segment the `translation_key` when it has one, so the translations of one event are one event
/// (`events/film-evening` for `/events/film-evening-ar` with the key `film-evening`).
fn uid_path(url: &str, translation_key: Option<&str>) -> String {
    let path = url.trim_start_matches('/');
    match (translation_key, path.rsplit_once('/')) {
        (Some(key), Some((folder, _))) => format!("{folder}/{key}"),
        (Some(key), None) => key.to_string(),
        (None, _) => path.to_string(),
    }
}

impl Calendar<'_> {
    /// Whether `record` stands for its event in a calendar of several: not a translation of an
    /// event whose record in the site's language (else its first) is among `records`.
    fn primary(&self, record: &Map<String, Value>, records: &[&Map<String, Value>]) -> bool {
        fn key_of(r: &Map<String, Value>) -> Option<&str> {
            r.get("translation_key").and_then(Value::as_str).map(str::trim)
        }
        let Some(key) = key_of(record).filter(|k| !k.is_empty()) else { return true };
        let site_language = |r: &Map<String, Value>| {
            r.get("language").and_then(Value::as_str).is_none_or(|l| l.eq_ignore_ascii_case(&self.site.language))
        };
        let group: Vec<&&Map<String, Value>> = records.iter().filter(|r| key_of(r) == Some(key)).collect();
        let chosen = group.iter().find(|r| site_language(r)).or(group.first());
        chosen.is_none_or(|chosen| std::ptr::eq(**chosen, record))
    }

    /// The VEVENT of a record (its JSON: `title`, `url` and its front matter), as folded lines;
    /// `None` when it has no readable start.
    pub fn event(&self, record: &Map<String, Value>) -> Option<String> {
        let when = event::when(record, self.zone)?;
        let text = |key: &str| record.get(key).and_then(Value::as_str).map(str::trim).filter(|s| !s.is_empty());
        let url = text("url").unwrap_or("/");
        let uid = format!("{}@{}", uid_path(url, text("translation_key")), host(self.site));
        let stamp = ["updated", "date"]
            .iter()
            .find_map(|key| text(key).and_then(|t| parse_content_date(t).ok()))
            .map_or(when.start.unix(), |d| d.unix)
            .min(self.built);
        let mut lines = vec![
            "BEGIN:VEVENT".to_string(),
            format!("UID:{}", escape(&uid)),
            format!("DTSTAMP:{}", utc_stamp(stamp)),
            date_property("DTSTART", when.start),
        ];
        let end = match (when.start, when.end) {
            (Moment::Day(_), Some(end)) => Some(all_day_end(end)),
            (Moment::Day(_), None) => None,
            (_, Some(Moment::Day(_))) => None,
            (_, end) => end,
        };
        lines.extend(end.map(|end| date_property("DTEND", end)));
        lines.push(format!("SUMMARY:{}", escape(text("title").unwrap_or_default())));
        lines.extend(text("summary").map(|s| format!("DESCRIPTION:{}", escape(s))));
        lines.push(format!("URL:{}{url}", self.site.base()));
        lines.extend(event::place(record, self.site, self.strings).map(|p| format!("LOCATION:{}", escape(&p))));
        lines.extend(event::geo(record).map(|(lat, lon)| format!("GEO:{lat};{lon}")));
        let tags: Vec<String> = match record.get("tags") {
            Some(Value::Array(tags)) => tags.iter().filter_map(Value::as_str).map(escape).collect(),
            _ => Vec::new(),
        };
        if !tags.is_empty() {
            lines.push(format!("CATEGORIES:{}", tags.join(",")));
        }
        lines.extend(event::status(record).map(|s| match s {
            Status::Cancelled => "STATUS:CANCELLED".to_string(),
            Status::Postponed | Status::Rescheduled => "STATUS:TENTATIVE".to_string(),
        }));
        lines.push("END:VEVENT".into());
        Some(lines.iter().map(|line| fold(line)).collect())
    }

    /// A whole calendar of `records` (each a record's JSON), in their order; those without a
    /// readable start are left out, and translations of one event are one VEVENT: its record in
    /// the site's language, else the first of them.
    pub fn file<'r>(&self, name: &str, records: impl IntoIterator<Item = &'r Value>) -> String {
        let head = [
            "BEGIN:VCALENDAR".to_string(),
            "VERSION:2.0".into(),
            format!("PRODID:-//portal//{}//EN", escape(&self.site.title).replace("//", "/")),
            "CALSCALE:GREGORIAN".into(),
            "METHOD:PUBLISH".into(),
            format!("X-WR-CALNAME:{}", escape(name)),
        ];
        let mut out: String = head.iter().map(|line| fold(line)).collect();
        let records: Vec<&Map<String, Value>> =
            records.into_iter().filter_map(Value::as_object).filter(|r| event::when(r, self.zone).is_some()).collect();
        for record in records.iter().filter(|r| self.primary(r, &records)) {
            out.extend(self.event(record));
        }
        out.push_str(&fold("END:VCALENDAR"));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn long_lines_fold_at_75_octets_without_splitting_a_character() {
        let line = format!("SUMMARY:{}", "é".repeat(60));
        let folded = fold(&line);
        for part in folded.split("\r\n").filter(|p| !p.is_empty()) {
            assert!(part.len() <= MAX_LINE, "{} octets: {part}", part.len());
        }
        let unfolded = folded.trim_end_matches("\r\n").replace("\r\n ", "");
        assert_eq!(unfolded, line);
        assert_eq!(fold("SHORT:x"), "SHORT:x\r\n");
        let exact = "X".repeat(75);
        assert_eq!(fold(&exact), format!("{exact}\r\n"));
    }

    #[test]
    fn text_escapes_its_delimiters_and_line_breaks() {
        assert_eq!(escape("a,b;c\\d"), "a\\,b\\;c\\\\d");
        assert_eq!(escape("one\r\ntwo\nthree\rfour"), "one\\ntwo\\nthree\\nfour");
        assert_eq!(escape("bell\u{7}"), "bell");
    }

    fn site() -> SiteConfig {
        SiteConfig { title: "Fixture".into(), base_url: "https://fixture.example.org".into(), ..SiteConfig::default() }
    }

    #[test]
    fn an_event_has_a_stable_uid_a_reproducible_stamp_and_utc_times() {
        let site = site();
        let strings = Strings::default();
        let calendar = Calendar { site: &site, strings: &strings, zone: None, built: i64::MAX };
        let record = json!({"title": "Market, day; one", "url": "/events/market-day", "date": "2026-12-01",
            "start": "2026-12-05T08:00:00+03:00", "end": "2026-12-05T13:30:00+03:00", "tags": ["a,b", "c"],
            "venue": "Square", "status": "cancelled"});
        let text = calendar.event(record.as_object().expect("a map")).expect("an event");
        for line in [
            "UID:events/market-day@fixture.example.org",
            "DTSTAMP:20261201T000000Z",
            "DTSTART:20261205T050000Z",
            "DTEND:20261205T103000Z",
            "SUMMARY:Market\\, day\\; one",
            "URL:https://fixture.example.org/events/market-day",
            "LOCATION:Square",
            "CATEGORIES:a\\,b,c",
            "STATUS:CANCELLED",
        ] {
            assert!(text.contains(&format!("{line}\r\n")), "{line} in {text}");
        }
    }

    #[test]
    fn an_all_day_event_ends_the_day_after_its_last() {
        let site = site();
        let strings = Strings::default();
        let calendar = Calendar { site: &site, strings: &strings, zone: None, built: i64::MAX };
        let record = json!({"title": "Fair", "url": "/events/fair", "start": "2026-08-15", "end": "2026-08-16"});
        let text = calendar.event(record.as_object().expect("a map")).expect("an event");
        assert!(text.contains("DTSTART;VALUE=DATE:20260815\r\n") && text.contains("DTEND;VALUE=DATE:20260817\r\n"));
        assert!(text.contains("DTSTAMP:20260815T000000Z\r\n"), "{text}");
        let none = json!({"title": "No time", "url": "/events/x", "start": 12});
        assert_eq!(calendar.event(none.as_object().expect("a map")), None);
    }

    #[test]
    fn translations_are_one_event_and_no_stamp_is_after_the_build() {
        let site = site();
        let strings = Strings::default();
        let built = 1_790_000_000; // 2026-09-21T14:13:20Z
        let calendar = Calendar { site: &site, strings: &strings, zone: None, built };
        let arabic = json!({"title": "أمسية", "url": "/events/film-evening-ar", "start": "2026-10-03",
            "language": "ar", "translation_key": "film-evening"});
        let english = json!({"title": "Film", "url": "/events/film-evening", "start": "2026-10-03", "translation_key": "film-evening"});
        let other = json!({"title": "Fair", "url": "/events/fair", "start": "2026-12-05", "date": "2026-08-01"});
        let text = calendar.file("All", [&arabic, &english, &other]);
        assert_eq!(text.matches("BEGIN:VEVENT").count(), 2, "{text}");
        assert!(text.contains("SUMMARY:Film\r\n") && !text.contains("أمسية"), "the site's language stands: {text}");
        let alone = calendar.event(arabic.as_object().expect("a map")).expect("an event");
        assert!(alone.contains("UID:events/film-evening@fixture.example.org\r\n"), "one UID: {alone}");
        assert!(text.contains("DTSTAMP:20260921T141320Z\r\n"), "a start after the build is not a stamp: {text}");
        assert!(text.contains("DTSTAMP:20260801T000000Z\r\n"), "an earlier `date` is: {text}");
    }
}
