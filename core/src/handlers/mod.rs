//! The handlers: plain async functions of a request context ([`Ctx`]), one file per resource.
//! The pipeline ([`crate::app`]) picks the one the route table names.

pub mod bookings;
pub mod cms_auth;
pub mod collections;
mod ctx;
pub mod encyclopedia;
pub mod export;
pub mod files;
pub mod form_pages;
pub mod geolocation;
pub mod hsds;
pub mod match_category;
pub mod ogc;
pub mod page;
pub mod search;
pub mod search_page;
pub mod spatial;
pub mod submit;
pub mod upstream;
pub mod voices;
pub mod weather;
pub mod weather_alerts;
pub mod weather_page;

pub use ctx::Ctx;
