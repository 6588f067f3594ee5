//! The per-client fixed window of docs/spec/api-spec.md#rate-limit, as a pure state machine.
//!
//! A window starts at a client's first request and admits `limit` requests until `window` has passed;
//! then the next request opens a new window. A request may cost more than one (an MCP batch costs
//! one per message): it is admitted whole when its cost fits in what remains, and refused whole,
//! consuming nothing, when it does not. Nothing here reads a clock: callers pass `now` in
//! milliseconds, so the native store and the Worker's Durable Object give the same answers.

use std::collections::HashMap;

/// The budget: `limit` requests per `window_ms` per client address.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RateLimit {
    /// Requests admitted per window.
    pub limit: u32,
    /// Window length in milliseconds.
    pub window_ms: u64,
}

impl Default for RateLimit {
    /// 60 requests per 60 seconds (docs/spec/api-spec.md#rate-limit).
    fn default() -> Self {
        RateLimit { limit: 60, window_ms: 60_000 }
    }
}

/// One client's current window.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Window {
    /// When the window opened (Unix milliseconds).
    pub start_ms: u64,
    /// Requests admitted in it so far.
    pub count: u32,
}

/// The verdict on one request, with everything the response headers need.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Decision {
    /// Whether the request is admitted.
    pub allowed: bool,
    /// The window's budget.
    pub limit: u32,
    /// Requests left in the window after this one.
    pub remaining: u32,
    /// Whole seconds until the window resets (at least 1).
    pub reset_secs: u64,
    /// The Unix time (seconds, rounded up) at which the window resets.
    pub reset_at: u64,
    /// The window length in whole seconds, for `RateLimit-Policy`.
    pub window_secs: u64,
}

impl Decision {
    /// The `RateLimit-Policy` value, e.g. `60;w=60`.
    pub fn policy(&self) -> String {
        format!("{};w={}", self.limit, self.window_secs)
    }
}

impl Window {
    /// Whether the window has run out at `now_ms`.
    pub fn expired(&self, now_ms: u64, limits: RateLimit) -> bool {
        now_ms >= self.start_ms.saturating_add(limits.window_ms)
    }

    /// Admits or refuses one request costing `cost` (at least 1) at `now_ms`, opening a new window
    /// when `current` is absent or over. A refused request leaves the window as it was.
    pub fn check(current: Option<Window>, now_ms: u64, limits: RateLimit, cost: u32) -> (Window, Decision) {
        let mut window = match current {
            Some(window) if !window.expired(now_ms, limits) => window,
            _ => Window { start_ms: now_ms, count: 0 },
        };
        let cost = cost.max(1);
        let allowed = window.count.saturating_add(cost) <= limits.limit;
        if allowed {
            window.count += cost;
        }
        let end_ms = window.start_ms + limits.window_ms;
        let decision = Decision {
            allowed,
            limit: limits.limit,
            remaining: limits.limit.saturating_sub(window.count),
            reset_secs: (end_ms - now_ms).div_ceil(1000).max(1),
            reset_at: end_ms.div_ceil(1000),
            window_secs: limits.window_ms.div_ceil(1000),
        };
        (window, decision)
    }
}

/// An in-memory store of windows keyed by client address, bounded in entries.
///
/// Expired windows are swept as the map grows; past `max_entries` live windows the oldest are
/// dropped (their clients start afresh), so memory stays bounded under any number of addresses.
#[derive(Debug)]
pub struct MemoryStore {
    limits: RateLimit,
    max_entries: usize,
    windows: HashMap<String, Window>,
    next_sweep: usize,
}

impl MemoryStore {
    /// A store for `limits` holding at most `max_entries` windows.
    pub fn new(limits: RateLimit, max_entries: usize) -> Self {
        let max_entries = max_entries.max(1);
        MemoryStore { limits, max_entries, windows: HashMap::new(), next_sweep: 1024.min(max_entries) }
    }

    /// The store's limits.
    pub fn limits(&self) -> RateLimit {
        self.limits
    }

    /// Number of windows held.
    pub fn len(&self) -> usize {
        self.windows.len()
    }

    /// Whether no window is held.
    pub fn is_empty(&self) -> bool {
        self.windows.is_empty()
    }

    /// Checks one request from `key` costing `cost` at `now_ms`.
    pub fn check(&mut self, key: &str, now_ms: u64, cost: u32) -> Decision {
        if !self.windows.contains_key(key) && self.windows.len() >= self.next_sweep {
            self.sweep(now_ms);
        }
        let (window, decision) = Window::check(self.windows.get(key).copied(), now_ms, self.limits, cost);
        match self.windows.get_mut(key) {
            Some(slot) => *slot = window,
            None => {
                self.windows.insert(key.to_string(), window);
            }
        }
        decision
    }

    fn sweep(&mut self, now_ms: u64) {
        let limits = self.limits;
        self.windows.retain(|_, w| !w.expired(now_ms, limits));
        if self.windows.len() >= self.max_entries {
            let mut starts: Vec<u64> = self.windows.values().map(|w| w.start_ms).collect();
            let keep = (self.max_entries / 2).max(1);
            let cut_index = starts.len() - keep;
            let (_, cut, _) = starts.select_nth_unstable(cut_index);
            let cut = *cut;
            self.windows.retain(|_, w| w.start_ms > cut);
        }
        // Sweep again once the map has doubled, so the cost stays amortised O(1) per request.
        self.next_sweep = (self.windows.len() * 2).clamp(1024.min(self.max_entries), self.max_entries);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIMITS: RateLimit = RateLimit { limit: 3, window_ms: 10_000 };

    #[test]
    fn admits_the_limit_then_refuses_until_the_window_ends() {
        let mut store = MemoryStore::new(LIMITS, 100);
        let remaining: Vec<u32> = (0..3).map(|i| store.check("a", 1_000 + i, 1)).map(|d| d.remaining).collect();
        assert_eq!(remaining, [2, 1, 0]);
        let refused = store.check("a", 5_000, 1);
        assert!(!refused.allowed);
        assert_eq!(refused.reset_secs, 6);
        assert_eq!(refused.reset_at, 11);
        assert!(store.check("b", 5_000, 1).allowed, "another address has its own budget");
        let fresh = store.check("a", 11_000, 1);
        assert!(fresh.allowed);
        assert_eq!(fresh.remaining, 2);
        assert_eq!(fresh.reset_secs, 10);
    }

    #[test]
    fn a_request_costing_more_than_remains_is_refused_whole_and_consumes_nothing() {
        let mut store = MemoryStore::new(LIMITS, 100);
        assert_eq!(store.check("a", 1_000, 2).remaining, 1, "a cost of 2 takes 2");
        let refused = store.check("a", 1_001, 2);
        assert!(!refused.allowed);
        assert_eq!(refused.remaining, 1, "a refused request takes nothing");
        assert!(store.check("a", 1_002, 1).allowed, "what remains is still there");
        assert!(!store.check("b", 1_000, 4).allowed, "a cost over the whole limit never fits");
        assert_eq!(store.check("b", 1_001, 0).remaining, 2, "a cost of 0 counts as 1");
    }

    #[test]
    fn memory_stays_bounded_under_a_million_addresses() {
        let mut store = MemoryStore::new(RateLimit::default(), 100_000);
        let mut most = 0;
        for i in 0..1_000_000u64 {
            store.check(&format!("10.{}.{}.{}", i >> 16 & 255, i >> 8 & 255, i & 255), 1_000 + i / 1000, 1);
            most = most.max(store.len());
        }
        assert!(most <= 100_000, "held {most} windows");
    }

    #[test]
    fn policy_names_limit_and_window() {
        let (_, decision) = Window::check(None, 0, RateLimit::default(), 1);
        assert_eq!(decision.policy(), "60;w=60");
    }
}
