//! Calendar arithmetic and the date formats the API speaks (content dates, RFC 3339, IMF-fixdate).
//!
//! Core never reads a clock: callers pass instants in as Unix seconds or milliseconds. This module
//! is small on purpose so the wasm build stays free of a date library.

/// A calendar date and time of day, in UTC, with whole seconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
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

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
pub fn days_from_civil(year: i64, month: u32, day: u32) -> i64 {
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let yoe = year - era * 400;
    let month = i64::from(month);
    let doy = (153 * (if month > 2 { month - 3 } else { month + 9 }) + 2) / 5 + i64::from(day) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The calendar date `(year, month, day)` of a day count since 1970-01-01.
pub fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

fn days_in_month(year: i64, month: u32) -> u32 {
    match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        _ if (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 => 29,
        _ => 28,
    }
}

fn digits(text: &str, range: std::ops::Range<usize>) -> Option<u32> {
    let part = text.get(range)?;
    if part.bytes().all(|b| b.is_ascii_digit()) {
        part.parse().ok()
    } else {
        None
    }
}

/// Parses a calendar date `YYYY-MM-DD`, checking that the day exists.
pub fn parse_date(text: &str) -> Result<(i64, u32, u32), DateError> {
    let bad = || DateError(format!("`{text}` is not a date of the form YYYY-MM-DD"));
    // ASCII only, so every byte index below is a character boundary.
    if !text.is_ascii() || text.len() != 10 || &text[4..5] != "-" || &text[7..8] != "-" {
        return Err(bad());
    }
    let year = i64::from(digits(text, 0..4).ok_or_else(bad)?);
    let month = digits(text, 5..7).ok_or_else(bad)?;
    let day = digits(text, 8..10).ok_or_else(bad)?;
    if !(1..=12).contains(&month) || day == 0 || day > days_in_month(year, month) {
        return Err(DateError(format!("`{text}` is not a calendar date (no such day)")));
    }
    Ok((year, month, day))
}

/// Parses a clock time `HH:MM` (24 hours).
pub fn parse_clock(text: &str) -> Option<(u32, u32)> {
    if !text.is_ascii() || text.len() != 5 || &text[2..3] != ":" {
        return None;
    }
    let hour = digits(text, 0..2)?;
    let minute = digits(text, 3..5)?;
    (hour < 24 && minute < 60).then_some((hour, minute))
}

/// Parses a content date: `YYYY-MM-DD` (midnight UTC) or an RFC 3339 date-time.
pub fn parse_content_date(text: &str) -> Result<DateTime, DateError> {
    let text = text.trim();
    if !text.is_ascii() {
        return Err(DateError(format!("`{text}` is not a date: use YYYY-MM-DD or an RFC 3339 date-time")));
    }
    let (year, month, day) = parse_date(text.get(..10).unwrap_or(text))?;
    let days = days_from_civil(year, month, day);
    if text.len() == 10 {
        return Ok(DateTime { unix: days * 86_400 });
    }
    let bad = || {
        DateError(format!(
            "`{text}` is not a date: use YYYY-MM-DD or an RFC 3339 date-time such as 2026-05-01T09:30:00Z"
        ))
    };
    let rest = &text[10..];
    if !(rest.starts_with('T') || rest.starts_with('t') || rest.starts_with(' ')) || rest.len() < 9 {
        return Err(bad());
    }
    let hour = digits(rest, 1..3).ok_or_else(bad)?;
    let minute = digits(rest, 4..6).ok_or_else(bad)?;
    let second = digits(rest, 7..9).ok_or_else(bad)?;
    if &rest[3..4] != ":" || &rest[6..7] != ":" || hour > 23 || minute > 59 || second > 60 {
        return Err(bad());
    }
    let mut zone = &rest[9..];
    if let Some(fraction) = zone.strip_prefix('.') {
        let end = fraction.find(|c: char| !c.is_ascii_digit()).unwrap_or(fraction.len());
        if end == 0 {
            return Err(bad());
        }
        zone = &fraction[end..];
    }
    let offset = match zone {
        "Z" | "z" => 0,
        _ if zone.len() == 6 && (zone.starts_with('+') || zone.starts_with('-')) && &zone[3..4] == ":" => {
            let hours = i64::from(digits(zone, 1..3).ok_or_else(bad)?);
            let minutes = i64::from(digits(zone, 4..6).ok_or_else(bad)?);
            if hours > 23 || minutes > 59 {
                return Err(bad());
            }
            let sign = if zone.starts_with('-') { -1 } else { 1 };
            sign * (hours * 3600 + minutes * 60)
        }
        _ => return Err(bad()),
    };
    let seconds = i64::from(hour * 3600 + minute * 60 + second.min(59));
    Ok(DateTime { unix: days * 86_400 + seconds - offset })
}

impl DateTime {
    /// The instant `unix` seconds after the epoch.
    pub fn from_unix(unix: i64) -> Self {
        DateTime { unix }
    }

    fn parts(self) -> (i64, u32, u32, i64, i64, i64) {
        let days = self.unix.div_euclid(86_400);
        let secs = self.unix.rem_euclid(86_400);
        let (year, month, day) = civil_from_days(days);
        (year, month, day, secs / 3600, secs % 3600 / 60, secs % 60)
    }

    /// RFC 3339 in UTC, e.g. `2026-11-22T10:00:00Z` (ISO 8601 timestamps of the API).
    pub fn rfc3339(self) -> String {
        let (y, mo, d, h, mi, s) = self.parts();
        format!("{y:04}-{mo:02}-{d:02}T{h:02}:{mi:02}:{s:02}Z")
    }

    /// The calendar date `YYYY-MM-DD` in UTC.
    pub fn date(self) -> String {
        let (y, mo, d, ..) = self.parts();
        format!("{y:04}-{mo:02}-{d:02}")
    }

    /// The month number 1-12 in UTC.
    pub fn month(self) -> u32 {
        self.parts().1
    }

    /// IMF-fixdate of RFC 9110 (`Sunset`, `Last-Modified`), e.g. `Mon, 01 Mar 2027 00:00:00 GMT`.
    /// RFC 822/2822 readers (RSS `pubDate`) accept it too.
    pub fn http_date(self) -> String {
        const DAYS: [&str; 7] = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"];
        const MONTHS: [&str; 12] = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
        let (y, mo, d, h, mi, s) = self.parts();
        let weekday = DAYS[self.unix.div_euclid(86_400).rem_euclid(7) as usize];
        let month = MONTHS[(mo - 1) as usize];
        format!("{weekday}, {d:02} {month} {y:04} {h:02}:{mi:02}:{s:02} GMT")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_dates_are_midnight_utc() {
        assert_eq!(parse_content_date("1970-01-02").map(|d| d.unix), Ok(86_400));
        assert_eq!(parse_content_date("2027-03-01").map(|d| d.http_date()), Ok("Mon, 01 Mar 2027 00:00:00 GMT".into()));
    }

    #[test]
    fn offsets_are_applied() {
        let a = parse_content_date("2026-10-14T09:30:00+03:00").map(|d| d.rfc3339());
        assert_eq!(a, Ok("2026-10-14T06:30:00Z".into()));
        let b = parse_content_date("2026-10-14T06:30:00.250Z").map(|d| d.rfc3339());
        assert_eq!(b, Ok("2026-10-14T06:30:00Z".into()));
    }

    #[test]
    fn impossible_dates_are_rejected() {
        for bad in [
            "2026-02-30",
            "2026-13-01",
            "26-1-1",
            "2026/01/01",
            "2026-01-01T25:00:00Z",
            "2026-01-01T10:00",
            "yesterday",
        ] {
            assert!(parse_content_date(bad).is_err(), "{bad} accepted");
        }
        assert!(parse_content_date("2024-02-29").is_ok());
    }

    // Found by the content_record fuzz target: byte slicing inside a multi-byte character panicked,
    // from a content date and, through the same parser, from a booking's `visitDate`.
    #[test]
    fn non_ascii_text_is_an_error_not_a_panic() {
        for text in
            ["2026\u{feff}-21", "2026-01-0\u{e9}", "\u{e9}\u{e9}\u{e9}\u{e9}\u{e9}", "2026-05-01T\u{e9}9:30:00Z"]
        {
            assert!(parse_date(text).is_err(), "{text}");
            assert!(parse_content_date(text).is_err(), "{text}");
        }
        assert_eq!(parse_clock("1\u{e9}:3"), None);
        assert_eq!(parse_clock("\u{e9}\u{e9}:"), None);
    }

    #[test]
    fn civil_round_trip() {
        for days in [-1000, 0, 59, 365, 20_000, 60_000] {
            let (y, m, d) = civil_from_days(days);
            assert_eq!(days_from_civil(y, m, d), days);
        }
    }
}
