//! Queries over what the build wrote, as pure functions every server shares: a collection's
//! listing (filters, sort, fields), the encyclopedia's catalog, spatial data and its CSV, the
//! CSV cells the product writes, and the weather-alert feeds read from upstream.

pub mod alert_feed;
pub mod csv_cells;
pub mod encyclopedia;
pub mod listing;
pub mod spatial;

pub use encyclopedia::Catalog;
