//! The content model (docs/content.md): site settings, records and content errors, with what
//! the model is made of: the 19 collections, tags and categories, content dates and times, the
//! license, the JSON Schema of a collection's records, and "did you mean" for mistyped names.
//!
//! Types and validation only; reading files is the generator's job. Validation reports problems
//! by front-matter key so the loader, which knows the text, can turn each into `file:line`.

pub mod cms;
pub mod collections;
pub mod did_you_mean;
mod entry;
mod error;
pub mod event;
pub mod help;
pub mod i18n;
mod intro;
pub mod language;
pub mod license;
pub mod limits;
pub mod offline;
pub mod phone;
pub mod plain;
mod record;
pub mod record_schema;
mod site;
pub mod taxonomy;
pub mod text;
pub mod time;
pub mod url_policy;

pub use entry::{Entry, Source, ENTRY_KEYS, RESERVED_ENTRY_SLUGS};
pub use error::ContentError;
pub use help::{HelpPage, HelpPhone};
pub use intro::Intro;
pub use record::{
    d2_order, is_valid_slug, known_keys, scalar_text, sort_records, Issue, Record, KNOWN_KEYS, RESERVED_KEYS,
};
pub use site::{
    Api, Booking, CacheSettings, Cms, CmsApp, CmsBackend, Contact, DataSource, FrontMatter, Markdown, MenuItem,
    Notifications, Pagination, Rss, SearchSettings, SiteConfig, Upstreams, DEFAULT_PAGE_SIZE,
};
