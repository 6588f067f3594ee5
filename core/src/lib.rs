//! `portal-core`: everything `portal` knows about its content and its API, with no I/O of its own.
//!
//! The same code runs natively inside `portal serve` and inside the Cloudflare Worker, so every
//! behaviour a client can observe lives here, one folder per concern:
//!
//! - [`app`]: the request pipeline, over the build's [`state`], calling the [`handlers`];
//! - [`http`]: requests, bodies, headers, problem documents, cache policy, client identity and
//!   the rate limit;
//! - [`routing`]: the route table and its matcher;
//! - [`dist`]: the format of the build's output (manifest, route index, parts, packs);
//! - [`content`]: the content model, collections, taxonomies and time;
//! - [`queries`]: listings, the encyclopedia, spatial data; [`search`]: the search index;
//! - [`forms`]: the forms, their validation and markup, mail and the outbox;
//! - [`pages`]: the page shell and the interface text; [`agents`]: MCP, OpenAPI and WebMCP;
//! - [`dashboards`]: the data pages' charts and tables, and the alerts;
//! - [`standards`]: iCalendar, JSON-LD, HSDS and OGC API - Features documents.
//!
//! Adapters talk to it through the small [`platform::Platform`] trait.
#![deny(missing_docs)]
#![warn(unreachable_pub)]

pub mod agents;
pub mod app;
pub mod content;
pub mod dashboards;
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
pub mod standards;
pub mod state;
#[cfg(any(test, feature = "testing"))]
pub mod testing;

/// The API version this build serves, sent in every `API-Version` response header.
pub const API_VERSION: &str = "1.0.0";

/// The values of the `API-Version` request header that select [`API_VERSION`] (docs/spec/api-spec.md#versioning).
pub const SUPPORTED_API_VERSIONS: &[&str] = &["1.0.0", "1.0", "1"];
