//! `portal-core`: everything `portal` knows about its content and its API, with no I/O of its own.
//!
//! The same code runs natively inside `portal serve` and inside the Cloudflare Worker, so every
//! behaviour a client can observe lives here: the content model ([`content`]), the route table
//! ([`routes`]), problem documents ([`problem`]), the shared HTTP rules ([`headers`]), the rate-limit
//! state machine ([`ratelimit`]) and the handlers ([`handlers`]), dispatched by [`app::App`].
//! Adapters talk to it through the small [`platform::Platform`] trait.
#![deny(missing_docs)]

pub mod alert_feed;
pub mod app;
pub mod body;
pub mod cache_control;
pub mod client;
pub mod collections;
pub mod content;
pub mod csv_cells;
pub mod deprecation;
pub mod dispatch;
pub mod encyclopedia;
pub mod envelope;
pub mod form_page;
pub mod forms;
pub mod handlers;
pub mod headers;
pub mod html;
pub mod http;
pub mod i18n;
pub mod license;
pub mod listing;
pub mod mail;
pub mod mail_quota;
pub mod manifest;
pub mod mcp;
pub mod media;
pub mod openapi;
pub mod outbox;
pub mod packs;
pub mod paging;
pub mod parts;
pub mod platform;
pub mod problem;
pub mod query;
pub mod ratelimit;
pub mod record_schema;
pub mod route_index;
pub mod routes;
pub mod search;
pub mod single_flight;
pub mod spatial;
pub mod stable_hash;
pub mod suggest;
pub mod taxonomy;
#[cfg(any(test, feature = "testing"))]
pub mod testing;
pub mod time;
pub mod validate;
pub mod webmcp;

/// The API version this build serves, sent in every `API-Version` response header.
pub const API_VERSION: &str = "1.0.0";

/// The values of the `API-Version` request header that select [`API_VERSION`] (docs/spec/api-spec.md#versioning).
pub const SUPPORTED_API_VERSIONS: &[&str] = &["1.0.0", "1.0", "1"];
