//! Every output of the build that is not an HTML page: the collections' API documents, the
//! standards formats (iCalendar, JSON-LD, HSDS, OGC, GeoJSON), the discovery documents, the
//! encyclopedia's documents, the datasets, the search indexes, the mail templates of the actions,
//! the CMS configuration and the static files copied from `content/static/`.

pub mod actions;
pub mod api;
pub mod calendar;
pub mod cms;
pub mod data;
pub mod discovery;
pub mod encyclopedia;
pub mod feed;
pub mod hsds;
pub mod ogc;
pub mod search;
pub mod spatial;
pub mod statics;
