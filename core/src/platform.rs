//! The small trait through which core reaches the world: built files, rate-limit state and the clock.
//!
//! `portal serve` implements it over the `dist/` folder and memory; the Worker over the static-assets
//! binding and a Durable Object. Methods are few and coarse, and async without `Send` bounds because
//! Worker futures are not `Send`.

use bytes::Bytes;

use crate::ratelimit::Decision;

/// A failure inside the platform (I/O, a binding). Core answers it with 500 and logs nothing private.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlatformError(pub String);

impl std::fmt::Display for PlatformError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for PlatformError {}

/// What core needs from the machine it runs on.
#[allow(async_fn_in_trait)]
pub trait Platform {
    /// Reads a file of the build by its path relative to the build folder (as the manifest names it).
    /// `Ok(None)` when there is no such file.
    async fn read_asset(&self, file: &str) -> Result<Option<Bytes>, PlatformError>;

    /// Counts one request of `client` against its fixed window at `now_ms` and says whether it
    /// is admitted. Implementations keep [`crate::ratelimit::Window`]s and call its `check`.
    async fn rate_limit(&self, client: &str, now_ms: u64) -> Result<Decision, PlatformError>;

    /// The current time in Unix milliseconds. Called once per request.
    fn now_ms(&self) -> u64;
}
