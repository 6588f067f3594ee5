//! The Durable Object that holds one client address's rate-limit window. One object per address
//! (named by it) makes the count exact across isolates and locations; the window logic itself is
//! the core's [`Window::check`], the same as natively.

use std::cell::Cell;

use portal_core::http::ratelimit::{RateLimit, Window};
use serde::{Deserialize, Serialize};
use worker::{durable_object, DurableObject, Env, Request, Response, Result, State};

const STORAGE_KEY: &str = "window";

/// What the Worker asks: one request costing `cost` at `now_ms` under `limits`.
#[derive(Debug, Serialize, Deserialize)]
pub struct Ask {
    /// The request time (Unix ms).
    pub now_ms: u64,
    /// Requests per window.
    pub limit: u32,
    /// Window length (ms).
    pub window_ms: u64,
    /// What the request costs (an MCP batch: one per message).
    pub cost: u32,
}

/// One client's window, kept in memory and persisted so an evicted object resumes it exactly.
#[durable_object]
pub struct RateLimitWindow {
    state: State,
    window: Cell<Option<Window>>,
}

impl DurableObject for RateLimitWindow {
    fn new(state: State, _env: Env) -> Self {
        RateLimitWindow { state, window: Cell::new(None) }
    }

    async fn fetch(&self, mut request: Request) -> Result<Response> {
        let ask: Ask = request.json().await?;
        let current = match self.window.get() {
            Some(window) => Some(window),
            None => self.state.storage().get::<Window>(STORAGE_KEY).await.ok().flatten(),
        };
        let limits = RateLimit { limit: ask.limit, window_ms: ask.window_ms };
        let (window, decision) = Window::check(current, ask.now_ms, limits, ask.cost);
        self.window.set(Some(window));
        self.state.storage().put(STORAGE_KEY, window).await?;
        Response::from_json(&decision)
    }
}
