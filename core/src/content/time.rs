//! The date formats the API speaks (content dates, RFC 3339, IMF-fixdate), on the `time` crate.
//!
//! Core never reads a clock: callers pass instants in as Unix seconds or milliseconds. The calendar
//! and the parsers are the `time` crate's (tantivy already brings it into both builds); this module
//! keeps only the API's formats and the messages a content author or a visitor reads.

use time::format_description::well_known::Rfc3339;
use time::macros::format_description;
use time::{Date, OffsetDateTime, PrimitiveDateTime, Time};

/// A calendar date and time of day, in UTC, with whole seconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub struct DateTime {
    /// Seconds since the Unix epoch.
    pub unix: i64,
}

/// Why a date string was rejected, phrased for a content author.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DateError(pub String);

impl std::fmt::Display for DateError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// The Julian day number of 1970-01-01, to count days from the Unix epoch.
const UNIX_EPOCH_JULIAN_DAY: i64 = 2_440_588;

/// Days since 1970-01-01 of a calendar date (negative before it).
pub fn day_number(date: Date) -> i64 {
    i64::from(date.to_julian_day()) - UNIX_EPOCH_JULIAN_DAY
}

/// The calendar date (`YYYY-MM-DD`) `text` starts with, as written: what a search result shows of
/// a record's `date`, whatever time follows it.
pub fn leading_date(text: &str) -> Option<&str> {
    let bytes = text.as_bytes();
    let is_date = bytes.len() >= 10
        && bytes[..10].iter().enumerate().all(|(i, b)| if i == 4 || i == 7 { *b == b'-' } else { b.is_ascii_digit() });
    is_date.then(|| &text[..10])
}

/// Parses a calendar date `YYYY-MM-DD`, checking that the day exists.
pub fn parse_date(text: &str) -> Result<Date, DateError> {
    let shape = format_description!("[year repr:full padding:zero]-[month]-[day]");
    // The shape is checked first so that a malformed text and an impossible day get different advice.
    let well_formed = text.len() == 10
        && text.bytes().enumerate().all(|(i, b)| if i == 4 || i == 7 { b == b'-' } else { b.is_ascii_digit() });
    if !well_formed {
        return Err(DateError(format!("`{text}` is not a date of the form YYYY-MM-DD")));
    }
    Date::parse(text, shape).map_err(|_| DateError(format!("`{text}` is not a calendar date (no such day)")))
}

/// Parses a clock time `HH:MM` (24 hours).
pub fn parse_clock(text: &str) -> Option<Time> {
    let shape = format_description!("[hour repr:24]:[minute]");
    (text.len() == 5).then(|| Time::parse(text, shape).ok()).flatten()
}

/// Parses a content date: `YYYY-MM-DD` (midnight UTC) or an RFC 3339 date-time (a space may stand
/// for the `T`, as RFC 3339 allows).
pub fn parse_content_date(text: &str) -> Result<DateTime, DateError> {
    let text = text.trim();
    if text.len() <= 10 {
        let date = parse_date(text)?;
        return Ok(DateTime { unix: day_number(date) * 86_400 });
    }
    // The date part gets the calendar's own message ("no such day").
    parse_date(text.get(..10).unwrap_or(text))?;
    let normalized = match text.as_bytes().get(10) {
        Some(b' ') => format!("{}T{}", &text[..10], &text[11..]),
        _ => text.to_string(),
    };
    OffsetDateTime::parse(&normalized, &Rfc3339).map(|instant| DateTime { unix: instant.unix_timestamp() }).map_err(
        |_| {
            DateError(format!(
                "`{text}` is not a date: use YYYY-MM-DD or an RFC 3339 date-time such as 2026-05-01T09:30:00Z"
            ))
        },
    )
}

/// A content date-time as RFC 3339 has it: `T` for a space, and seconds when only hours and
/// minutes are written (`2026-05-01T18:30+03:00`, as people write it).
pub(crate) fn rfc3339(text: &str) -> String {
    let mut normalized = match text.as_bytes().get(10) {
        Some(b' ') => format!("{}T{}", &text[..10], &text[11..]),
        _ => text.to_string(),
    };
    let bytes = normalized.as_bytes();
    if bytes.len() >= 16 && bytes[13] == b':' && !matches!(bytes.get(16), Some(b':')) {
        normalized.insert_str(16, ":00");
    }
    normalized
}

/// An offset from UTC written `+03:00`, `-05:30`, `Z` or `UTC`, in minutes.
pub fn parse_offset(text: &str) -> Option<i32> {
    let text = text.trim();
    if text == "Z" || text.eq_ignore_ascii_case("UTC") {
        return Some(0);
    }
    let (sign, rest) = match text.as_bytes().first()? {
        b'+' => (1, &text[1..]),
        b'-' => (-1, &text[1..]),
        _ => return None,
    };
    let (hours, minutes) = rest.split_once(':')?;
    let (hours, minutes): (i32, i32) = (hours.parse().ok()?, minutes.parse().ok()?);
    (hours.to_string().len() <= 2 && hours <= 14 && (0..60).contains(&minutes)).then_some(sign * (hours * 60 + minutes))
}

/// A content date as a reader sees it: its calendar date (`YYYY-MM-DD`) and, for a date-time, its
/// clock time (`HH:MM`), in the zone `offset` (minutes from UTC) or else in the offset it was
/// written with.
pub fn local(text: &str, offset: Option<i32>) -> Option<(String, Option<String>)> {
    let text = text.trim();
    if text.len() <= 10 {
        return parse_date(text).ok().map(|_| (text.to_string(), None));
    }
    let instant = OffsetDateTime::parse(&rfc3339(text), &Rfc3339).ok()?;
    let zone = match offset {
        Some(minutes) => time::UtcOffset::from_whole_seconds(minutes * 60).ok()?,
        None => instant.offset(),
    };
    let here = instant.to_offset(zone);
    let date = here.format(format_description!("[year]-[month]-[day]")).ok()?;
    let clock = here.format(format_description!("[hour]:[minute]")).ok()?;
    Some((date, Some(clock)))
}

impl DateTime {
    /// The instant `unix` seconds after the epoch.
    pub fn from_unix(unix: i64) -> Self {
        DateTime { unix }
    }

    /// The instant in UTC; instants outside the calendar's range (±9999 years) are clamped to it.
    fn utc(self) -> PrimitiveDateTime {
        let instant = OffsetDateTime::from_unix_timestamp(self.unix).unwrap_or(if self.unix < 0 {
            PrimitiveDateTime::MIN.assume_utc()
        } else {
            PrimitiveDateTime::MAX.assume_utc()
        });
        PrimitiveDateTime::new(instant.date(), instant.time())
    }

    fn format(self, shape: &[time::format_description::BorrowedFormatItem<'_>]) -> String {
        self.utc().format(shape).unwrap_or_default()
    }

    /// RFC 3339 in UTC, e.g. `2026-11-22T10:00:00Z` (ISO 8601 timestamps of the API).
    pub fn rfc3339(self) -> String {
        self.format(format_description!("[year]-[month]-[day]T[hour]:[minute]:[second]Z"))
    }

    /// The calendar date `YYYY-MM-DD` in UTC.
    pub fn date(self) -> String {
        self.format(format_description!("[year]-[month]-[day]"))
    }

    /// The month number 1-12 in UTC.
    pub fn month(self) -> u32 {
        u32::from(u8::from(self.utc().month()))
    }

    /// IMF-fixdate of RFC 9110 (`Sunset`, `Last-Modified`), e.g. `Mon, 01 Mar 2027 00:00:00 GMT`.
    /// RFC 822/2822 readers (RSS `pubDate`) accept it too.
    pub fn http_date(self) -> String {
        self.format(format_description!(
            "[weekday repr:short], [day] [month repr:short] [year] [hour]:[minute]:[second] GMT"
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_leading_date_is_the_first_ten_characters_of_a_date() {
        assert_eq!(leading_date("2026-10-14T09:00:00+03:00"), Some("2026-10-14"));
        assert_eq!(leading_date("2026-10-14"), Some("2026-10-14"));
        assert_eq!(leading_date("14/10/2026 morning"), None);
        assert_eq!(leading_date("2026-10-1"), None);
        assert_eq!(leading_date("٢٠٢٦-١٠-١٤ x"), None);
    }

    #[test]
    fn times_read_in_the_zone_asked_or_as_written() {
        assert_eq!(local("2026-12-23T08:00+03:00", None), Some(("2026-12-23".into(), Some("08:00".into()))));
        assert_eq!(local("2026-12-23T08:00:00+03:00", Some(0)), Some(("2026-12-23".into(), Some("05:00".into()))));
        assert_eq!(local("2026-12-23T23:30:00Z", Some(180)), Some(("2026-12-24".into(), Some("02:30".into()))));
        assert_eq!(local("2026-12-23", Some(180)), Some(("2026-12-23".into(), None)));
        assert_eq!(
            (parse_offset("+03:00"), parse_offset("-05:30"), parse_offset("UTC")),
            (Some(180), Some(-330), Some(0))
        );
        assert_eq!((parse_offset("Africa/Kampala"), parse_offset("+3")), (None, None));
    }

    #[test]
    fn plain_dates_are_midnight_utc() {
        assert_eq!(parse_content_date("1970-01-02").map(|d| d.unix), Ok(86_400));
        assert_eq!(parse_content_date("2027-03-01").map(|d| d.http_date()), Ok("Mon, 01 Mar 2027 00:00:00 GMT".into()));
        assert_eq!(DateTime::from_unix(1_795_300_000).rfc3339(), "2026-11-21T22:26:40Z");
        assert_eq!(DateTime::from_unix(1_795_300_000).month(), 11);
    }

    #[test]
    fn offsets_are_applied() {
        let a = parse_content_date("2026-10-14T09:30:00+03:00").map(|d| d.rfc3339());
        assert_eq!(a, Ok("2026-10-14T06:30:00Z".into()));
        let b = parse_content_date("2026-10-14T06:30:00.250Z").map(|d| d.rfc3339());
        assert_eq!(b, Ok("2026-10-14T06:30:00Z".into()));
        let c = parse_content_date("2026-10-14 06:30:00Z").map(|d| d.rfc3339());
        assert_eq!(c, Ok("2026-10-14T06:30:00Z".into()));
    }

    #[test]
    fn impossible_dates_are_rejected_with_advice() {
        for bad in [
            "2026-02-30",
            "2026-13-01",
            "26-1-1",
            "2026/01/01",
            "2026-01-01T25:00:00Z",
            "2026-01-01T10:00",
            "yesterday",
            "+2026-01-01",
        ] {
            assert!(parse_content_date(bad).is_err(), "{bad} accepted");
        }
        assert!(parse_content_date("2024-02-29").is_ok());
        assert!(parse_date("2026-02-30").is_err_and(|e| e.0.contains("no such day")));
        assert!(parse_date("2026-2-3").is_err_and(|e| e.0.contains("YYYY-MM-DD")));
    }

    // Found by the content_record fuzz target: byte slicing inside a multi-byte character panicked,
    // from a content date and, through the same parser, from a booking's `visitDate`.
    #[test]
    fn non_ascii_text_is_an_error_not_a_panic() {
        for text in [
            "2026\u{feff}-21",
            "2026-01-0\u{e9}",
            "\u{e9}\u{e9}\u{e9}\u{e9}\u{e9}",
            "2026-05-01T\u{e9}9:30:00Z",
            "2026-05-01\u{e9}09:30:00Z",
        ] {
            assert!(parse_date(text).is_err(), "{text}");
            assert!(parse_content_date(text).is_err(), "{text}");
        }
        assert_eq!(parse_clock("1\u{e9}:3"), None);
        assert_eq!(parse_clock("\u{e9}\u{e9}:"), None);
    }

    #[test]
    fn clock_times_are_24_hour_with_minutes() {
        assert!(parse_clock("09:30").is_some());
        assert!(parse_clock("23:59").is_some());
        for bad in ["24:00", "9:30", "09:60", "09:30:00", "0930"] {
            assert!(parse_clock(bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn day_numbers_count_from_the_epoch() {
        let date = |text| parse_date(text).map(day_number);
        assert_eq!(date("1970-01-01"), Ok(0));
        assert_eq!(date("1969-12-31"), Ok(-1));
        assert_eq!(date("2026-11-22"), Ok(20_779));
    }

    #[test]
    fn instants_outside_the_calendar_do_not_panic() {
        assert!(DateTime::from_unix(i64::MAX).rfc3339().starts_with("9999"));
        assert!(DateTime::from_unix(i64::MIN).date().starts_with("-9999"));
    }
}
