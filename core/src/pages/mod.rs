//! The published site's pages as core sees them: the page shell that per-request HTML is written
//! into, the interface text in the site's language, and paged listings.

pub mod i18n;
pub mod paging;
pub mod shell;

pub use i18n::Strings;
