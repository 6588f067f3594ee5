//! The site's time zone (site.yaml `timezone`): an offset from UTC (`+03:00`, `UTC`) or a name of
//! the IANA time zone database (`Africa/Kampala`, `Europe/Paris`), whose offset is looked up for
//! each instant, so summer time is kept.

use std::str::FromStr;

use chrono::{Offset, TimeZone};
use chrono_tz::{Tz, TZ_VARIANTS};
use portal_core::content::did_you_mean::nearest;
use portal_core::content::time::parse_offset;

/// A time zone a site can name.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Zone {
    /// A fixed offset, in minutes from UTC.
    Fixed(i32),
    /// A zone of the IANA database.
    Named(Tz),
}

impl Zone {
    /// Reads `text`; the error says what to write instead (the closest zone name for a typo).
    pub fn parse(text: &str) -> Result<Zone, String> {
        if let Some(minutes) = parse_offset(text) {
            return Ok(Zone::Fixed(minutes));
        }
        if let Some(zone) = abbreviation(text.trim())? {
            return Ok(zone);
        }
        if let Ok(tz) = Tz::from_str(text.trim()) {
            return Ok(Zone::Named(tz));
        }
        // Only a name gets a name back: `+3` is a malformed offset, not a misspelt `GB`.
        let name = text.trim();
        // An abbreviation gets no name back: `EAT` is not `EET`, an hour apart.
        let named = name.chars().filter(char::is_ascii_alphabetic).count() >= 3 && !looks_abbreviated(name);
        let hint = match nearest(name, TZ_VARIANTS.iter().map(|tz| tz.name())).filter(|_| named) {
            Some(name) => format!(" (did you mean `{name}`?)"),
            None => String::new(),
        };
        Err(format!(
            "`timezone: {text}` is neither an offset from UTC nor a time zone name{hint}: write it like \
             +03:00, UTC or Africa/Kampala"
        ))
    }

    /// The zone's offset from UTC at `unix` seconds, in minutes.
    pub fn offset_at(self, unix: i64) -> i32 {
        match self {
            Zone::Fixed(minutes) => minutes,
            Zone::Named(tz) => match tz.timestamp_opt(unix, 0).single() {
                Some(at) => at.offset().fix().local_minus_utc() / 60,
                None => 0,
            },
        }
    }
}

/// Abbreviations people write for a zone, with its offset from UTC in minutes, and whether the
/// places using it keep one offset all year. The IANA database has only a few abbreviations as
/// names (`EET`, `EST`...), and `EAT` is not one of them, though East Africa writes it.
const ABBREVIATIONS: &[(&str, i32, bool)] = &[
    ("EAT", 180, true),
    ("CAT", 120, true),
    ("WAT", 60, true),
    ("SAST", 120, true),
    ("MSK", 180, true),
    ("AST", 180, false),
    ("IST", 330, false),
    ("PKT", 300, true),
    ("BST", 60, false),
    ("CET", 60, false),
    ("CEST", 120, false),
    ("EEST", 180, false),
    ("WEST", 60, false),
    ("GMT", 0, false),
    ("EDT", -240, false),
    ("CST", -360, false),
    ("CDT", -300, false),
    ("PST", -480, false),
    ("PDT", -420, false),
];

/// Whether `text` is written like a zone abbreviation (two to five capitals).
fn looks_abbreviated(text: &str) -> bool {
    (2..=5).contains(&text.len()) && text.bytes().all(|b| b.is_ascii_uppercase())
}

/// A zone abbreviation read right: one of a single offset all year is that offset (`EAT` is
/// +03:00); one whose places change or that names several offsets is refused with the IANA names
/// at that offset to choose from. `Ok(None)` when `text` is not an abbreviation of the table.
fn abbreviation(text: &str) -> Result<Option<Zone>, String> {
    let Some((abbr, minutes, fixed)) = ABBREVIATIONS.iter().find(|(a, _, _)| a.eq_ignore_ascii_case(text)) else {
        return Ok(None);
    };
    if *fixed {
        return Ok(Some(Zone::Fixed(*minutes)));
    }
    if *abbr == "GMT" {
        // The IANA name `GMT` is a zone of its own (never summer time).
        return Ok(None);
    }
    let names: Vec<&str> = names_at(*minutes).into_iter().take(4).collect();
    Err(format!(
        "`timezone: {text}` is an abbreviation that stands for more than one zone or changes with summer time: \
         write a zone name such as {} ({} in winter or in summer)",
        names.join(", "),
        offset_text(*minutes)
    ))
}

/// IANA zone names (`Region/City`) whose offset is `minutes` in January or in July 2026.
fn names_at(minutes: i32) -> Vec<&'static str> {
    const JANUARY: i64 = 1_768_435_200;
    const JULY: i64 = 1_784_073_600;
    TZ_VARIANTS
        .iter()
        .filter(|tz| tz.name().contains('/') && !tz.name().starts_with("Etc/"))
        .filter(|tz| [JANUARY, JULY].iter().any(|at| Zone::Named(**tz).offset_at(*at) == minutes))
        .map(|tz| tz.name())
        .collect()
}

/// `+03:00` of minutes from UTC.
fn offset_text(minutes: i32) -> String {
    let sign = if minutes < 0 { '-' } else { '+' };
    format!("{sign}{:02}:{:02}", minutes.abs() / 60, minutes.abs() % 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_and_names_are_read_and_names_keep_summer_time() {
        assert_eq!(Zone::parse("+03:00"), Ok(Zone::Fixed(180)));
        assert_eq!(Zone::parse("UTC"), Ok(Zone::Fixed(0)));
        let kampala = Zone::parse("Africa/Kampala").expect("a zone");
        assert_eq!(kampala.offset_at(1_790_000_000), 180);
        let paris = Zone::parse(" Europe/Paris ").expect("a zone");
        assert_eq!(paris.offset_at(1_767_225_600), 60, "1 January 2026: winter time");
        assert_eq!(paris.offset_at(1_782_864_000), 120, "1 July 2026: summer time");
    }

    #[test]
    fn an_abbreviation_is_read_right_or_refused_with_names_at_its_offset() {
        assert_eq!(Zone::parse("EAT"), Ok(Zone::Fixed(180)), "East Africa Time is +03:00, never EET");
        assert_eq!(Zone::parse("cat"), Ok(Zone::Fixed(120)));
        let error = Zone::parse("CEST").expect_err("summer time");
        assert!(error.contains("+02:00") && error.contains("/"), "{error}");
        let unknown = Zone::parse("XYZT").expect_err("not a zone");
        assert!(!unknown.contains("did you mean"), "{unknown}");
        assert_eq!(Zone::parse("EET").map(|z| z.offset_at(1_768_435_200)), Ok(120), "an IANA name stays itself");
    }

    #[test]
    fn a_misspelt_name_gets_the_closest_one() {
        let error = Zone::parse("Africa/Kampla").expect_err("not a zone");
        assert!(error.contains("did you mean `Africa/Kampala`?"), "{error}");
        assert!(Zone::parse("+3").is_err() && Zone::parse("EAT+3").is_err());
    }
}
