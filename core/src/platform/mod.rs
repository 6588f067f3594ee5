//! The small trait through which core reaches the world: built files, rate-limit state, a cache,
//! upstream fetches, durable storage of submissions, and the clock.
//!
//! `portal serve` implements it over the `dist/` folder, memory and SQLite; the Worker over the
//! static-assets binding, a Durable Object, the Cache API, `Fetch` and D1. Methods are few and
//! coarse, and async without `Send` bounds because Worker futures are not `Send`.

use bytes::Bytes;

use crate::http::ratelimit::Decision;

mod parts;
mod stored;

pub use parts::{index_file, PartsIndex, PARTS_DIR};
pub use stored::{KeyAnswer, KeyRecord, KeyStep, Mail, MailAsk, MailQuota, MailVerdict, Submission};

/// A failure inside the platform (I/O, a binding, a network error). Core answers it with 500, or
/// 503 where an upstream is concerned, and never shows its text to clients.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlatformError(pub String);

impl std::fmt::Display for PlatformError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for PlatformError {}

/// An outgoing request to a third-party upstream: a GET (weather, alerts, geolocation), or a POST
/// when it carries a body (the CMS sign-in's exchange of a code for a token).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UpstreamRequest {
    /// The absolute URL.
    pub url: String,
    /// The body of a POST (its type in `headers`); `None` sends a GET.
    pub body: Option<Bytes>,
    /// Headers to send (e.g. `accept`).
    pub headers: Vec<(String, String)>,
    /// Give up after this many milliseconds.
    pub timeout_ms: u64,
    /// Read no more of the body than one byte past this: core refuses a longer answer (or one
    /// whose `content-length` says it is longer) whatever the platform read.
    pub max_bytes: usize,
}

/// An upstream's answer (any status; core decides what counts as failure).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UpstreamResponse {
    /// The status code.
    pub status: u16,
    /// Response headers, names lower-cased.
    pub headers: Vec<(String, String)>,
    /// The body.
    pub body: Bytes,
}

/// What core needs from the machine it runs on.
#[allow(async_fn_in_trait)]
pub trait Platform {
    /// Reads a file of the build by its path relative to the build folder (as the manifest names it).
    /// `Ok(None)` when there is no such file.
    async fn read_asset(&self, file: &str) -> Result<Option<Bytes>, PlatformError>;

    /// Reads a file of the build as [`read_asset`](Platform::read_asset) does, joining it from its
    /// parts when the platform has only those (a file over the static-asset limit; see
    /// [`PartsIndex`]). Core reads every file through this.
    async fn read_file(&self, file: &str) -> Result<Option<Bytes>, PlatformError> {
        parts::join(self, file).await
    }

    /// Reads several files of the build, each as [`read_file`](Platform::read_file) does, in
    /// order: a platform on which each read is a hand-off to another thread (`portal serve`)
    /// makes one for all of them. The search page reads a record for every hit it shows.
    async fn read_files(&self, files: &[String]) -> Vec<Result<Option<Bytes>, PlatformError>> {
        let mut read = Vec::with_capacity(files.len());
        for file in files {
            read.push(self.read_file(file).await);
        }
        read
    }

    /// Counts one request of `client` costing `cost` requests (an MCP batch: one per message)
    /// against its fixed window at `now_ms` and says whether it is admitted. Implementations keep
    /// [`crate::http::ratelimit::Window`]s and call its `check`.
    async fn rate_limit(&self, client: &str, now_ms: u64, cost: u32) -> Result<Decision, PlatformError>;

    /// The current time in Unix milliseconds. Called once per request.
    fn now_ms(&self) -> u64;

    /// Sends a request to an upstream (a POST when it has a body, else a GET). `Err` on a network
    /// failure or when `timeout_ms` passes. It follows no redirect: a 3xx is the answer, returned
    /// as it came (its `location` among the headers), so a request reaches only the URL core
    /// built from the site's settings, never one an upstream names (docs/spec/api-spec.md#upstreams).
    async fn fetch(&self, request: UpstreamRequest) -> Result<UpstreamResponse, PlatformError>;

    /// Whether a request may wait for work another request started (an upstream fetch under way,
    /// which requests asking for the same URL then share). The Workers runtime cancels a request
    /// that waits on another request's I/O as hung, so the Worker says no. The default says yes.
    fn shares_work_across_requests(&self) -> bool {
        true
    }

    /// A setting of the deployment that is no part of the build: a Worker var or secret, an
    /// environment variable of `portal serve`. Core asks only for the names it documents (the CMS
    /// sign-in's `CMS_GITHUB_*`, docs/deploying.md#cms-sign-in) and never logs or stores a value.
    /// `None` when unset or empty; the default knows none.
    fn setting(&self, name: &str) -> Option<String> {
        let _ = name;
        None
    }

    /// 16 bytes from the machine's cryptographic random source (an unguessable `state` of the CMS
    /// sign-in). Core has no random source of its own. The default has none, and says so.
    fn random(&self) -> Result<[u8; 16], PlatformError> {
        Err(PlatformError("this platform has no random source".into()))
    }

    /// A value cached under `key` that has not expired, if any (search results, upstream answers).
    async fn cache_get(&self, key: &str) -> Option<Bytes>;

    /// Caches `value` under `key` for `ttl_secs` seconds. Best effort: a full cache may drop it.
    async fn cache_put(&self, key: &str, value: Bytes, ttl_secs: u64);

    /// Counts an ask against the mail quotas at its time, durably (a restart forgets nothing), and
    /// says whether it fits: a booking's confirmation before the booking is stored (one that does
    /// not fit is not queued), and, by the platform's own outbox, each mail before it is sent (one
    /// that does not fit waits). Implementations hold a [`crate::http::ratelimit::Window`] per key of
    /// [`crate::forms::mail_quota::Ask::keys`] and run [`crate::forms::mail_quota::decide`] over them as one
    /// atomic step, storing the windows it returns.
    async fn count_mail(&self, ask: &MailAsk) -> Result<MailVerdict, PlatformError>;

    /// Stores a submission and its mails durably, in one transaction, before returning `Ok`.
    /// Delivering the mails is the platform's outbox's job, after this returns.
    async fn store_submission(&self, submission: &Submission) -> Result<(), PlatformError>;

    /// Runs one step of an idempotency key's life atomically and durably (a restart forgets no key
    /// within its time): implementations run the statements of
    /// [`crate::forms::idempotency::statements`] as one transaction, or
    /// [`crate::forms::idempotency::apply`] over a row kept in memory. A claim answers the key's
    /// row as it is afterwards; the other steps answer `None`.
    async fn idempotency(&self, step: &KeyStep) -> Result<Option<KeyRecord>, PlatformError>;

    /// Tells the operator about a failure that core answers with a bare 500 (clients never see
    /// its cause): `portal serve` writes it to stderr, the Worker to its log. Called once per
    /// failure, with what was being done and why it failed. The default forgets it.
    fn report(&self, context: &str, cause: &dyn std::fmt::Display) {
        let _ = (context, cause);
    }
}

/// The 500 for a failure of `context`, reported to the operator with its cause first: use as
/// `.map_err(internal(platform, "reading the catalog"))`.
pub fn internal<'a, P: Platform, E: std::fmt::Display>(
    platform: &'a P,
    context: &'a str,
) -> impl FnOnce(E) -> crate::http::problem::Problem + 'a {
    move |cause| {
        platform.report(context, &cause);
        crate::http::problem::Problem::internal()
    }
}
