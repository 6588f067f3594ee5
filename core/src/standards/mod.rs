//! The writers of open standards' documents that are no part of the API's own shapes
//! (docs/standards.md): events as iCalendar (RFC 5545) and records, entries and events as
//! schema.org JSON-LD. Pure functions of the content model; the build calls them. They sit above
//! the search module because JSON-LD tells organisations from people by the analyzer's words.

pub mod ical;
pub mod json_ld;
