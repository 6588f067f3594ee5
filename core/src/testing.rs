//! An in-memory [`Platform`] for tests of handlers: files from a map, a settable clock, a real
//! rate-limit store, a cache, recorded submissions and scripted upstream answers.

use std::cell::RefCell;
use std::collections::HashMap;

use bytes::Bytes;

use crate::forms::{idempotency, mail_quota};
use crate::http::ratelimit::{Decision, MemoryStore, RateLimit, Window};
use crate::platform::{Platform, PlatformError, Submission, UpstreamRequest, UpstreamResponse};

/// A platform whose world is a few maps.
#[derive(Debug)]
pub struct FakePlatform {
    /// Built files by path.
    pub files: RefCell<HashMap<String, Bytes>>,
    /// The clock, in Unix milliseconds.
    pub now_ms: RefCell<u64>,
    /// The rate-limit windows.
    pub limiter: RefCell<MemoryStore>,
    /// Cached values with their expiry (Unix ms).
    pub cache: RefCell<HashMap<String, (Bytes, u64)>>,
    /// Upstream answers by URL; a missing URL is a network failure.
    pub upstreams: RefCell<HashMap<String, UpstreamResponse>>,
    /// Upstream requests made, in order.
    pub fetched: RefCell<Vec<UpstreamRequest>>,
    /// The mail-quota windows, by key.
    pub mail_windows: RefCell<HashMap<String, Window>>,
    /// Submissions stored, in order.
    pub submissions: RefCell<Vec<Submission>>,
    /// Failures reported to the operator, as `context: cause`.
    pub reports: RefCell<Vec<String>>,
    /// The deployment's settings (see [`Platform::setting`]).
    pub settings: RefCell<HashMap<String, String>>,
    /// How many random values were drawn: each is this count in every byte, so tests know it.
    pub draws: RefCell<u8>,
    /// The idempotency keys' rows, by scoped key.
    pub keys: RefCell<HashMap<String, idempotency::Record>>,
}

impl Default for FakePlatform {
    fn default() -> Self {
        FakePlatform {
            files: RefCell::default(),
            now_ms: RefCell::new(1_790_000_000_000),
            limiter: RefCell::new(MemoryStore::new(RateLimit::default(), 10_000)),
            cache: RefCell::default(),
            upstreams: RefCell::default(),
            fetched: RefCell::default(),
            mail_windows: RefCell::default(),
            submissions: RefCell::default(),
            reports: RefCell::default(),
            settings: RefCell::default(),
            draws: RefCell::default(),
            keys: RefCell::default(),
        }
    }
}

impl FakePlatform {
    /// Adds a built file.
    pub fn with_file(self, path: &str, bytes: impl Into<Bytes>) -> Self {
        self.files.borrow_mut().insert(path.to_string(), bytes.into());
        self
    }

    /// Scripts an upstream answer for `url`.
    pub fn with_upstream(self, url: &str, status: u16, body: impl Into<Bytes>) -> Self {
        self.with_upstream_now(url, status, body);
        self
    }

    /// Changes an upstream's answer for `url` from now on.
    pub fn with_upstream_now(&self, url: &str, status: u16, body: impl Into<Bytes>) {
        let response = UpstreamResponse { status, headers: Vec::new(), body: body.into() };
        self.upstreams.borrow_mut().insert(url.to_string(), response);
    }

    /// Moves the clock forward.
    pub fn advance(&self, ms: u64) {
        *self.now_ms.borrow_mut() += ms;
    }
}

impl Platform for FakePlatform {
    async fn read_asset(&self, file: &str) -> Result<Option<Bytes>, PlatformError> {
        Ok(self.files.borrow().get(file).cloned())
    }

    async fn rate_limit(&self, client: &str, now_ms: u64, cost: u32) -> Result<Decision, PlatformError> {
        Ok(self.limiter.borrow_mut().check(client, now_ms, cost))
    }

    fn now_ms(&self) -> u64 {
        *self.now_ms.borrow()
    }

    async fn fetch(&self, request: UpstreamRequest) -> Result<UpstreamResponse, PlatformError> {
        self.fetched.borrow_mut().push(request.clone());
        self.upstreams
            .borrow()
            .get(&request.url)
            .cloned()
            .ok_or_else(|| PlatformError(format!("no route to {}", request.url)))
    }

    async fn cache_get(&self, key: &str) -> Option<Bytes> {
        let now = self.now_ms();
        self.cache.borrow().get(key).filter(|(_, expires)| *expires > now).map(|(value, _)| value.clone())
    }

    async fn cache_put(&self, key: &str, value: Bytes, ttl_secs: u64) {
        let expires = self.now_ms() + ttl_secs * 1000;
        self.cache.borrow_mut().insert(key.to_string(), (value, expires));
    }

    async fn count_mail(&self, ask: &mail_quota::Ask) -> Result<mail_quota::Verdict, PlatformError> {
        let mut windows = self.mail_windows.borrow_mut();
        let held: Vec<Option<Window>> = ask.keys().iter().map(|key| windows.get(key).copied()).collect();
        let (updated, verdict) = mail_quota::decide(ask, &held);
        windows.extend(updated);
        Ok(verdict)
    }

    async fn store_submission(&self, submission: &Submission) -> Result<(), PlatformError> {
        self.submissions.borrow_mut().push(submission.clone());
        Ok(())
    }

    async fn idempotency(&self, step: &idempotency::Step) -> Result<Option<idempotency::Record>, PlatformError> {
        let mut keys = self.keys.borrow_mut();
        let row = idempotency::apply(keys.get(step.key()), step);
        match &row {
            Some(row) => keys.insert(step.key().to_string(), row.clone()),
            None => keys.remove(step.key()),
        };
        Ok(row.filter(|_| matches!(step, idempotency::Step::Claim { .. })))
    }

    fn setting(&self, name: &str) -> Option<String> {
        self.settings.borrow().get(name).filter(|v| !v.is_empty()).cloned()
    }

    fn random(&self) -> Result<[u8; 16], PlatformError> {
        let mut draws = self.draws.borrow_mut();
        *draws = draws.wrapping_add(1);
        Ok([*draws; 16])
    }

    fn report(&self, context: &str, cause: &dyn std::fmt::Display) {
        self.reports.borrow_mut().push(format!("{context}: {cause}"));
    }
}

/// Runs a future to completion on the current thread (core's futures never wait on real I/O).
pub fn block_on<F: std::future::Future>(future: F) -> F::Output {
    use std::task::{Context, Poll, Waker};
    let waker = Waker::noop();
    let mut context = Context::from_waker(waker);
    let mut future = std::pin::pin!(future);
    loop {
        if let Poll::Ready(output) = future.as_mut().poll(&mut context) {
            return output;
        }
    }
}
