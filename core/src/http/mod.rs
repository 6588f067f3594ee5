//! HTTP as core speaks it, with no framework: the request and response types adapters convert
//! to and from, request bodies and their limit, query strings, the headers every answer shares
//! (CORS, versioning, rate limit, security, deprecation), `Cache-Control`, problem documents,
//! media types, the envelopes of JSON answers, who the client is and the per-client rate limit.

pub mod body;
pub mod cache_control;
pub mod client_identity;
pub mod deprecation;
pub mod envelope;
pub mod headers;
pub mod media;
mod message;
pub mod problem;
pub mod query;
pub mod ratelimit;
pub mod upstream;

pub use message::{Location, Method, Request, Response, MAX_BODY_BYTES};
pub use problem::{ErrorCode, Problem};
