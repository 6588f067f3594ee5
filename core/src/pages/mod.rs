//! The published site's pages as core sees them: the page shell that per-request HTML is written
//! into, paged listings, markdown escaping, and the
//! drawings pages carry (the weather chart, the map of places).

pub mod map;
pub mod markdown;
pub mod paging;
pub mod shell;
pub mod weather_chart;
