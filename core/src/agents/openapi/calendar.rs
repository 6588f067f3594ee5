//! The `calendar` section: the events as iCalendar (docs/spec/api-spec.md#calendar).

use super::describe::{slug, text, Description};
use super::Facts;
use crate::http::media;
use crate::http::problem::ErrorCode::NotFound;

/// `GET /events.ics`.
pub fn feed(_: &Facts) -> Description {
    Description::ok(text(
        "An iCalendar (RFC 5545) VCALENDAR with one VEVENT per published event: UID, DTSTAMP, DTSTART (DTEND), \
         SUMMARY, DESCRIPTION, URL, LOCATION, GEO, CATEGORIES, STATUS. Times in UTC, all-day events as dates.",
        media::CALENDAR,
    ))
    .errors(&[NotFound])
}

/// `GET /events/{slug}.ics`.
pub fn event(_: &Facts) -> Description {
    Description::ok(text("One event as an iCalendar VCALENDAR with one VEVENT.", media::CALENDAR))
        .params([slug()])
        .errors(&[NotFound])
}
