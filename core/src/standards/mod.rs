//! The open standards' documents that are no part of the API's own shapes (docs/standards.md):
//! events as iCalendar (RFC 5545); records, entries and events as schema.org JSON-LD; the services
//! as Open Referral HSDS 3.0; places as OGC API - Features. Pure functions of the content model
//! and the built data, which the build and the handlers share. They sit above search and queries:
//! JSON-LD tells organisations from people by the analyzer's words, and OGC filters places as the
//! spatial query does.

pub mod hsds;
pub mod ical;
pub mod json_ld;
pub mod ogc;
