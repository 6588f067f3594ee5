//! What a handler is given: the build's state, the platform, the request and its parsed parts.

use crate::http::query::Query;
use crate::http::Request;
use crate::routing::Params;
use crate::state::State;

/// Everything a handler may look at: the build, the platform, the request and its parsed parts.
pub struct Ctx<'a, P> {
    /// The build's state (manifest head, route index, catalog, search index).
    pub state: &'a State,
    /// The platform (files, state, clock).
    pub platform: &'a P,
    /// The request.
    pub request: &'a Request,
    /// The route's placeholders.
    pub params: &'a Params,
    /// The query string.
    pub query: Query,
    /// The request time (Unix milliseconds), read once.
    pub now_ms: u64,
}
