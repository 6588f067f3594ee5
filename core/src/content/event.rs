//! What a record says about when and where something happens, read the one way the calendar
//! feeds, the schema.org JSON-LD and the pages share (docs/standards.md#icalendar): `start`/`end`
//! (else `date`) as a day or an instant, the place (`venue` or `location`, each a text or a
//! mapping `{name, address, zone}`, else `address` and `zone`), coordinates, status. The other
//! spellings people write (`starts`, `start_date`...) are renamed when a record is read
//! ([`canonical`], docs/content.md#events).
//!
//! Every front-matter shape is tolerated: a value that cannot be read is left out, and
//! [`problems`] says why so the loader can warn naming the file. Times without an offset are in
//! the site's zone, given as a function because the zone database is the generator's.

use serde_json::{Map, Value};
use time::format_description::well_known::Rfc3339;
use time::macros::format_description;
use time::{Date, OffsetDateTime, PrimitiveDateTime, UtcOffset};

use crate::content::i18n::Strings;
use crate::content::time::{parse_date, rfc3339};
use crate::content::SiteConfig;

/// Other spellings of an event's times, each read as the key it stands for (docs/content.md#events).
pub const ALIASES: &[(&str, &str)] =
    &[("starts", "start"), ("start_date", "start"), ("ends", "end"), ("end_date", "end")];

/// Keys an event has a use for besides a record's own (`KNOWN_KEYS`): what this module, the
/// JSON-LD and the pages read. A key one edit away from one of these is a typo.
pub const KEYS: &[&str] = &[
    "venue",
    "location",
    "address",
    "zone",
    "status",
    "organizer",
    "organiser",
    "organization",
    "organisation",
    "attendance",
    "online",
    "latitude",
    "longitude",
];

/// The key an alias stands for, or the key itself.
pub fn canonical_key(key: &str) -> &str {
    ALIASES.iter().find(|(alias, _)| *alias == key).map_or(key, |(_, meant)| meant)
}

/// The spellings a key may have been written with, itself first (for finding its line).
pub fn spellings(key: &str) -> impl Iterator<Item = &str> {
    std::iter::once(key).chain(ALIASES.iter().filter(move |(_, meant)| *meant == key).map(|(alias, _)| *alias))
}

/// An event's front matter with each alias renamed to its key, in place, keeping the order; the
/// aliases given beside their key (or beside another alias of it) are returned, to be refused.
pub fn canonical(fields: Map<String, Value>) -> (Map<String, Value>, Vec<String>) {
    if !fields.keys().any(|k| ALIASES.iter().any(|(alias, _)| alias == k)) {
        return (fields, Vec::new());
    }
    let mut out = Map::new();
    let mut twice = Vec::new();
    for (key, value) in fields {
        let meant = canonical_key(&key);
        if out.contains_key(meant) {
            twice.push(key);
        } else {
            out.insert(meant.to_string(), value);
        }
    }
    (out, twice)
}

/// The site's offset from UTC, in minutes, at an instant (Unix seconds).
pub type ZoneFn<'a> = &'a dyn Fn(i64) -> i32;

/// When something starts or ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Moment {
    /// A whole day (`2026-10-03`).
    Day(Date),
    /// An instant, with the offset it is shown in (minutes from UTC).
    At {
        /// Unix seconds.
        unix: i64,
        /// The offset it was written with, or the site zone's then.
        offset: i32,
    },
    /// A time of day without an offset on a site that names no zone (a "floating" time).
    Floating(PrimitiveDateTime),
}

impl Moment {
    /// Reads a content date or date-time: `YYYY-MM-DD`, RFC 3339 (seconds optional, a space for
    /// the `T`), or a date-time without an offset, which is in `zone` (else floating).
    pub fn parse(text: &str, zone: Option<ZoneFn<'_>>) -> Option<Moment> {
        let text = text.trim();
        if text.len() <= 10 {
            return parse_date(text).ok().map(Moment::Day);
        }
        let normalized = rfc3339(text);
        if let Ok(at) = OffsetDateTime::parse(&normalized, &Rfc3339) {
            return Some(Moment::At { unix: at.unix_timestamp(), offset: i32::from(at.offset().whole_minutes()) });
        }
        let naive = normalized.split('.').next().unwrap_or(&normalized);
        let naive =
            PrimitiveDateTime::parse(naive, format_description!("[year]-[month]-[day]T[hour]:[minute]:[second]"))
                .ok()?;
        let Some(zone) = zone else { return Some(Moment::Floating(naive)) };
        let as_utc = naive.assume_utc().unix_timestamp();
        // The zone's offset at the local time read as UTC, then at the instant that gives: right
        // on both sides of a change of summer time but the hour it skips.
        let first = zone(as_utc);
        let offset = zone(as_utc - i64::from(first) * 60);
        Some(Moment::At { unix: as_utc - i64::from(offset) * 60, offset })
    }

    /// Unix seconds (a day and a floating time read as UTC), for ordering and stamps.
    pub fn unix(self) -> i64 {
        match self {
            Moment::Day(date) => date.midnight().assume_utc().unix_timestamp(),
            Moment::At { unix, .. } => unix,
            Moment::Floating(naive) => naive.assume_utc().unix_timestamp(),
        }
    }

    /// The calendar date (`YYYY-MM-DD`) and, unless it is a whole day, the clock time (`HH:MM`) a
    /// reader sees: in `offset` (minutes from UTC, the site's zone) when given, else as written.
    pub fn local(self, offset: Option<i32>) -> (String, Option<String>) {
        let day = format_description!("[year]-[month]-[day]");
        let clock = format_description!("[hour]:[minute]");
        match self {
            Moment::Day(date) => (date.format(day).unwrap_or_default(), None),
            Moment::At { unix, offset: written } => {
                let zone = UtcOffset::from_whole_seconds(offset.unwrap_or(written) * 60).unwrap_or(UtcOffset::UTC);
                let at =
                    OffsetDateTime::from_unix_timestamp(unix).unwrap_or(OffsetDateTime::UNIX_EPOCH).to_offset(zone);
                (at.format(day).unwrap_or_default(), at.format(clock).ok())
            }
            Moment::Floating(naive) => (naive.format(day).unwrap_or_default(), naive.format(clock).ok()),
        }
    }

    /// ISO 8601 as schema.org reads it: `2026-10-03`, `2026-12-05T08:00:00+03:00`, or a local time.
    pub fn iso(self) -> String {
        match self {
            Moment::Day(date) => date.format(format_description!("[year]-[month]-[day]")).unwrap_or_default(),
            Moment::At { unix, offset } => {
                let zone = UtcOffset::from_whole_seconds(offset * 60).unwrap_or(UtcOffset::UTC);
                let at = OffsetDateTime::from_unix_timestamp(unix).map(|at| at.to_offset(zone));
                at.ok().and_then(|at| at.format(&Rfc3339).ok()).unwrap_or_default()
            }
            Moment::Floating(naive) => {
                naive.format(format_description!("[year]-[month]-[day]T[hour]:[minute]:[second]")).unwrap_or_default()
            }
        }
    }
}

/// When an event happens: its start, and its end when it has a readable one not before the start.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct When {
    /// `start`, else `date`.
    pub start: Moment,
    /// `end`.
    pub end: Option<Moment>,
}

fn text<'a>(fields: &'a Map<String, Value>, key: &str) -> Option<&'a str> {
    fields.get(key).and_then(Value::as_str).map(str::trim).filter(|s| !s.is_empty())
}

/// The record's times (see [`When`]); `None` when neither `start` nor `date` can be read.
pub fn when(fields: &Map<String, Value>, zone: Option<ZoneFn<'_>>) -> Option<When> {
    let read = |key: &str| text(fields, key).and_then(|t| Moment::parse(t, zone));
    let start = read("start").or_else(|| read("date"))?;
    let end = read("end").filter(|end| end.unix() >= start.unix());
    Some(When { start, end })
}

/// The first of `keys` the record has as text, or as the `name` of a mapping.
pub fn named<'a>(fields: &'a Map<String, Value>, keys: &[&str]) -> Option<&'a str> {
    keys.iter().find_map(|key| match fields.get(*key) {
        Some(Value::String(s)) => Some(s.trim()).filter(|s| !s.is_empty()),
        Some(Value::Object(map)) => text(map, "name"),
        _ => None,
    })
}

/// Where an event happens, as written: a name, an address and a zone (a slug or a name).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Venue<'a> {
    /// `venue` (a text, or its `name`), else `location` (the same).
    pub name: Option<&'a str>,
    /// The `address` text of `venue` or `location`, else of the record.
    pub address: Option<&'a str>,
    /// The `zone` of `venue` or `location`, else of the record.
    pub zone: Option<&'a str>,
}

/// The record's [`Venue`].
pub fn venue(fields: &Map<String, Value>) -> Venue<'_> {
    let places = || ["venue", "location"].into_iter().filter_map(|key| fields.get(key));
    let inner = |key: &'static str| places().filter_map(Value::as_object).find_map(move |map| text(map, key));
    let name = places().find_map(|place| match place {
        Value::String(s) => Some(s.trim()).filter(|s| !s.is_empty()),
        Value::Object(map) => text(map, "name"),
        _ => None,
    });
    Venue {
        name,
        address: inner("address").or_else(|| text(fields, "address")),
        zone: inner("zone").or_else(|| text(fields, "zone")),
    }
}

/// Where it happens, on one line: its venue's name, its address and its zone as the site labels
/// it, each left out when an earlier part already says it.
pub fn place(fields: &Map<String, Value>, site: &SiteConfig, strings: &Strings) -> Option<String> {
    let Venue { name, address, zone } = venue(fields);
    let named = zone.map(|z| site.zone_name(z, strings));
    let mut line = String::new();
    for part in [name, address, named.as_deref()].into_iter().flatten() {
        // A venue that already names the zone, by its slug or by its name, says it.
        let said = line.contains(part) || Some(part) == named.as_deref() && zone.is_some_and(|z| line.contains(z));
        if !said {
            if !line.is_empty() {
                line.push_str(", ");
            }
            line.push_str(part);
        }
    }
    (!line.is_empty()).then_some(line)
}

/// Latitude and longitude in degrees, from `location` or `venue` (or the record itself): `latitude` and
/// `longitude`, or `lat` with `lon`/`lng`; `None` unless both are numbers in range.
pub fn geo(fields: &Map<String, Value>) -> Option<(f64, f64)> {
    let from = |map: &Map<String, Value>| {
        let number = |keys: &[&str]| keys.iter().find_map(|k| map.get(*k).and_then(Value::as_f64));
        let (lat, lon) = (number(&["latitude", "lat"])?, number(&["longitude", "lon", "lng"])?);
        ((-90.0..=90.0).contains(&lat) && (-180.0..=180.0).contains(&lon)).then_some((lat, lon))
    };
    ["location", "venue"]
        .into_iter()
        .filter_map(|key| fields.get(key).and_then(Value::as_object))
        .find_map(from)
        .or_else(|| from(fields))
}

/// What the record says of its going ahead.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// `status: cancelled` (or `canceled`).
    Cancelled,
    /// `status: postponed`.
    Postponed,
    /// `status: rescheduled`.
    Rescheduled,
}

/// The record's `status`, when it is one of [`Status`].
pub fn status(fields: &Map<String, Value>) -> Option<Status> {
    match text(fields, "status")?.to_ascii_lowercase().as_str() {
        "cancelled" | "canceled" => Some(Status::Cancelled),
        "postponed" => Some(Status::Postponed),
        "rescheduled" => Some(Status::Rescheduled),
        _ => None,
    }
}

/// What the feeds cannot read of an event, phrased for its author (the build warns with them).
pub fn problems(fields: &Map<String, Value>) -> Vec<String> {
    let mut out = Vec::new();
    let readable = |key: &str| fields.get(key).and_then(Value::as_str).and_then(|t| Moment::parse(t, None));
    for key in ["start", "end"] {
        if fields.get(key).is_some_and(|v| !v.is_null()) && readable(key).is_none() {
            out.push(format!(
                "`{key}` cannot be read as a date or time (write 2026-12-05 or 2026-12-05T08:00:00+03:00): \
                 the calendar and JSON-LD leave it out"
            ));
        }
    }
    if readable("start").is_none() && readable("date").is_none() {
        out.push("the event has no readable `start` or `date`: it is left out of the calendar feed".into());
    }
    if let (Some(start), Some(end)) = (readable("start").or_else(|| readable("date")), readable("end")) {
        if end.unix() < start.unix() {
            out.push("`end` is before `start`: the calendar and JSON-LD leave it out".into());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn fields(value: Value) -> Map<String, Value> {
        value.as_object().cloned().unwrap_or_default()
    }

    #[test]
    fn times_with_an_offset_are_instants_and_plain_dates_days() {
        let at = Moment::parse("2026-12-05T08:00+03:00", None).expect("a time");
        assert_eq!(at, Moment::At { unix: 1_796_446_800, offset: 180 });
        assert_eq!(at.iso(), "2026-12-05T08:00:00+03:00");
        assert!(matches!(Moment::parse("2026-10-03", None), Some(Moment::Day(_))));
        assert_eq!(Moment::parse("2026-02-30", None), None);
        assert_eq!(Moment::parse("soon", None), None);
    }

    #[test]
    fn times_without_an_offset_are_in_the_site_zone_else_floating() {
        let kampala = |_: i64| 180;
        let at = Moment::parse("2026-12-05 08:00", Some(&kampala)).expect("a time");
        assert_eq!(at, Moment::At { unix: 1_796_446_800, offset: 180 });
        let floating = Moment::parse("2026-12-05T08:00:00", None).expect("a time");
        assert_eq!(floating.iso(), "2026-12-05T08:00:00");
    }

    #[test]
    fn an_end_before_the_start_is_dropped_and_said() {
        let record = fields(json!({"start": "2026-12-05T10:00:00Z", "end": "2026-12-05T09:00:00Z"}));
        assert_eq!(when(&record, None).and_then(|w| w.end), None);
        assert_eq!(problems(&record).len(), 1);
        let odd = fields(json!({"start": 2026, "end": "tomorrow"}));
        assert_eq!(problems(&odd).len(), 3, "{:?}", problems(&odd));
    }

    #[test]
    fn places_and_coordinates_take_every_shape() {
        let site = SiteConfig::default();
        let strings = Strings::default();
        let record = fields(json!({"venue": "Market square", "zone": "zone-b"}));
        assert_eq!(place(&record, &site, &strings).as_deref(), Some("Market square, Zone B"));
        let mapping = fields(json!({"location": {"name": "Hall", "lat": 1.5, "lng": 30.0}}));
        assert_eq!(place(&mapping, &site, &strings).as_deref(), Some("Hall"));
        assert_eq!(geo(&mapping), Some((1.5, 30.0)));
        assert_eq!(geo(&fields(json!({"location": {"latitude": 91.0, "longitude": 0.0}}))), None);
        assert_eq!(status(&fields(json!({"status": "Canceled"}))), Some(Status::Cancelled));
    }

    #[test]
    fn a_venue_mapping_or_text_is_the_place() {
        let (site, strings) = (SiteConfig::default(), Strings::default());
        let mapping = fields(json!({"venue": {"name": "Hall", "address": "Plot 4, Main Road", "zone": "zone-b"}}));
        assert_eq!(place(&mapping, &site, &strings).as_deref(), Some("Hall, Plot 4, Main Road, Zone B"));
        assert_eq!(venue(&mapping).name, Some("Hall"));
        let text = fields(json!({"venue": "Market square, zone-b", "zone": "zone-b"}));
        assert_eq!(place(&text, &site, &strings).as_deref(), Some("Market square, zone-b"));
        let geo_in_venue = fields(json!({"venue": {"name": "Hall", "latitude": 3.0, "longitude": 31.5}}));
        assert_eq!(geo(&geo_in_venue), Some((3.0, 31.5)));
    }

    #[test]
    fn other_spellings_of_the_times_are_read_as_start_and_end() {
        let written = fields(json!({"title": "Fair", "starts": "2026-12-03 14:00", "end_date": "2026-12-03 16:00"}));
        let (read, twice) = canonical(written);
        assert_eq!(read.keys().collect::<Vec<_>>(), ["title", "start", "end"]);
        assert!(twice.is_empty());
        let kampala = |_: i64| 180;
        let when = when(&read, Some(&kampala)).expect("a time");
        assert_eq!(when.start.local(None), ("2026-12-03".into(), Some("14:00".into())));
        assert_eq!(when.end.map(|e| e.local(Some(0)).1), Some(Some("13:00".into())));
        let (_, twice) = canonical(fields(json!({"start": "2026-12-03", "starts": "2026-12-04"})));
        assert_eq!(twice, ["starts"]);
        assert_eq!(spellings("end").collect::<Vec<_>>(), ["end", "ends", "end_date"]);
    }

    #[test]
    fn a_floating_time_reads_as_a_day_and_a_clock() {
        let floating = Moment::parse("2026-12-03T14:00", None).expect("a time");
        assert_eq!(floating.local(Some(60)), ("2026-12-03".into(), Some("14:00".into())));
        assert_eq!(Moment::parse("2026-12-03", None).map(|d| d.local(None).1), Some(None));
    }
}
