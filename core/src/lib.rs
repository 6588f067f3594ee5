//! `portal-core`: everything `portal` knows about its content and its API, with no I/O of its own.
//!
//! The same code runs natively inside `portal serve` and inside the Cloudflare Worker, so every
//! behaviour a client can observe lives here: the content model ([`content`]), the route table
//! ([`routes`]), problem documents ([`problem`]), the shared HTTP rules ([`headers`]), the rate-limit
//! state machine ([`ratelimit`]) and the handlers ([`handlers`]), dispatched by [`app::App`].
//! Adapters talk to it through the small [`platform::Platform`] trait.
#![deny(missing_docs)]

pub mod agents;
pub mod app;
pub mod content;
pub mod dist;
pub mod forms;
pub mod handlers;
pub mod http;
pub mod pages;
pub mod platform;
pub mod queries;
pub mod routing;
pub mod search;
pub mod single_flight;
pub mod state;
#[cfg(any(test, feature = "testing"))]
pub mod testing;

/// The API version this build serves, sent in every `API-Version` response header.
pub const API_VERSION: &str = "1.0.0";

/// The values of the `API-Version` request header that select [`API_VERSION`] (docs/spec/api-spec.md#versioning).
pub const SUPPORTED_API_VERSIONS: &[&str] = &["1.0.0", "1.0", "1"];
