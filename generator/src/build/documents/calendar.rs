//! The events as iCalendar files (docs/standards.md#icalendar): `/events.ics` made with the
//! events' listing (from the records' JSON, as a rebuild has them), `/events/<slug>.ics` with each
//! event's page. The writer is the core's (`portal_core::standards::ical`); this module gives it
//! the site's time zone, which the generator's zone database resolves. The JSON-LD of record pages
//! reads times with the same zone, so it is set up here too.

use anyhow::Result;
use portal_core::content::event::ZoneFn;
use portal_core::content::Record;
use portal_core::standards::ical::Calendar;
use portal_core::standards::json_ld;
use serde_json::Value;

use crate::build::pages::figure;
use crate::build::pages::navigation::collection_label;
use crate::build::write::file::{Group, OutFile};
use crate::load::zone::Zone;
use crate::load::Content;

/// The collection whose records are events.
pub const EVENTS: &str = "events";

/// The URL of the calendar of every event.
pub const FEED_URL: &str = "/events.ics";

/// The URL of one event's calendar file.
pub fn event_url(record: &Record) -> String {
    format!("/{EVENTS}/{}.ics", record.slug)
}

/// The site's zone as the core reads it (minutes from UTC at an instant), when site.yaml names one.
fn zone(content: &Content) -> Option<Zone> {
    content.site.timezone.as_deref().and_then(|z| Zone::parse(z).ok())
}

/// Runs `write` with the core's calendar writer set up for `content`.
fn with_calendar<T>(content: &Content, write: impl FnOnce(&Calendar<'_>) -> T) -> T {
    let zone = zone(content);
    let offset = move |unix: i64| zone.map_or(0, |z| z.offset_at(unix));
    let zone_fn: Option<ZoneFn<'_>> = zone.is_some().then_some(&offset as ZoneFn<'_>);
    let built = crate::build::build_time().unix;
    write(&Calendar { site: &content.site, strings: &content.strings, zone: zone_fn, built })
}

/// `/events.ics`: every event of `items` (the records' JSON, in the listing's order).
pub fn feed(content: &Content, items: &[Value]) -> Result<OutFile> {
    let name = format!("{}: {}", content.site.title, collection_label(&content.strings, EVENTS));
    let text = with_calendar(content, |calendar| calendar.file(&name, items));
    Ok(OutFile::at(FEED_URL, text.into_bytes())?.in_group(Group::collection(EVENTS)))
}

/// `/events/<slug>.ics` of an event with a readable start (`None` for another record).
pub fn event_file(content: &Content, record: &Record) -> Result<Option<OutFile>> {
    if record.collection != EVENTS {
        return Ok(None);
    }
    let json = record.to_json();
    let text = with_calendar(content, |calendar| {
        calendar.event(json.as_object()?)?;
        Some(calendar.file(&record.title, [&json]))
    });
    let Some(text) = text else { return Ok(None) };
    let file = OutFile::at(event_url(record), text.into_bytes())?;
    Ok(Some(file.with_source(&record.file).in_group(Group::collection(EVENTS))))
}

/// Whether `record` has a calendar file (an event with a readable start).
pub fn has_file(record: &Record) -> bool {
    record.collection == EVENTS && portal_core::content::event::when(&record.fields, None).is_some()
}

/// The schema.org JSON-LD of `record`'s page, as the text of its `<script>` element (`None` for
/// collections without a schema.org type).
pub fn json_ld_script(content: &Content, record: &Record) -> Option<String> {
    let zone = zone(content);
    let offset = move |unix: i64| zone.map_or(0, |z| z.offset_at(unix));
    let zone_fn: Option<ZoneFn<'_>> = zone.is_some().then_some(&offset as ZoneFn<'_>);
    let context = json_ld::Context { site: &content.site, strings: &content.strings, zone: zone_fn };
    let mut value = context.record(record)?;
    // The picture the page shows (a published one), as an absolute URL.
    if let Some(figure) = figure::image(record, &content.statics, figure::PAGE_SIZES) {
        let src = figure["src"].as_str().unwrap_or_default();
        let base = content.site.base();
        value["image"] = Value::from(if src.starts_with('/') && !src.starts_with("//") {
            format!("{base}{src}")
        } else {
            src.to_string()
        });
    }
    Some(json_ld::script(&value))
}
