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
        if let Ok(tz) = Tz::from_str(text.trim()) {
            return Ok(Zone::Named(tz));
        }
        // Only a name gets a name back: `+3` is a malformed offset, not a misspelt `GB`.
        let name = text.trim();
        let named = name.chars().filter(char::is_ascii_alphabetic).count() >= 3;
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
    fn a_misspelt_name_gets_the_closest_one() {
        let error = Zone::parse("Africa/Kampla").expect_err("not a zone");
        assert!(error.contains("did you mean `Africa/Kampala`?"), "{error}");
        assert!(Zone::parse("+3").is_err() && Zone::parse("EAT+3").is_err());
    }
}
