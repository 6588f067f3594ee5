//! The published site's pages as core sees them: the page shell that per-request HTML is written
//! into, the interface text in the site's language, paged listings, markdown escaping, and the
//! drawings pages carry (the weather chart, the map of places).

pub mod i18n;
pub mod map;
pub mod markdown;
pub mod offline;
pub mod paging;
pub mod shell;
pub mod weather_chart;

pub use i18n::Strings;
