//! The content model (docs/content.md): site settings, records and content errors.
//!
//! Types and validation only; reading files is the generator's job. Validation reports problems
//! by front-matter key so the loader, which knows the text, can turn each into `file:line`.

mod entry;
mod error;
mod intro;
mod record;
mod site;

pub use entry::{Entry, Source, ENTRY_KEYS, RESERVED_ENTRY_SLUGS};
pub use error::ContentError;
pub use intro::Intro;
pub use record::{d2_order, is_valid_slug, sort_records, Issue, Record, KNOWN_KEYS, RESERVED_KEYS};
pub use site::{
    Api, Booking, Contact, FrontMatter, Markdown, MenuItem, Notifications, Pagination, Rss, SiteConfig, Upstreams,
    DEFAULT_PAGE_SIZE,
};
