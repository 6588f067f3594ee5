//! `Cache-Control` (docs/spec/api-spec.md#caching): one policy for every server, the CDN's `_headers` and the nginx
//! snippet, so a cache keeps an answer exactly as long wherever it came from.
//!
//! - Built files (JSON, pages, feeds, static files) may be kept [`CacheSettings::max_age`] seconds
//!   and served stale while revalidating for [`CacheSettings::stale_while_revalidate`] more: a
//!   republished site reaches readers within minutes, and a reader on a dropped connection still
//!   gets the last copy. ETag revalidation (304) refreshes them cheaply.
//! - Files whose name carries a hash of their bytes never change at that name: `immutable`.
//! - The service worker is `no-cache`: revalidated on every visit (docs/offline.md#updates).
//! - Answers computed per request (search, filtered listings, encyclopedia queries, proxies) are
//!   kept [`DYNAMIC_MAX_AGE`] seconds: long enough to absorb a burst, short enough to stay live.
//! - Errors and answers to anything but a read are never stored (`no-store`): a 429 or a 503 must
//!   not outlive its cause, and a submission's answer belongs to its sender.
//! - Answers about the caller itself (its location) are [`PRIVATE`]: a shared cache must never hand
//!   one client's location to another.

use crate::content::{offline, CacheSettings};
use crate::http::{Method, Response};

/// Seconds an answer computed per request may be kept.
pub const DYNAMIC_MAX_AGE: u32 = 60;

/// The value for answers that must not be stored.
pub const NO_STORE: &str = "no-store";

/// The value for answers about the caller itself: no shared cache keeps them, and no browser
/// writes them down.
pub const PRIVATE: &str = "private, no-store";

/// The value for files named by a hash of their bytes.
pub const IMMUTABLE: &str = "public, max-age=31536000, immutable";

// The setting is content's (`site.yaml`); what it means for a response is this policy's.
impl CacheSettings {
    /// The value for a built file at `file` (relative to the build folder).
    pub fn for_file(&self, file: &str) -> String {
        // Checked on every visit, so a new build's worker and precache list reach readers.
        if file == offline::SERVICE_WORKER {
            return offline::SERVICE_WORKER_CACHE_CONTROL.to_string();
        }
        if is_fingerprinted(file) {
            return IMMUTABLE.to_string();
        }
        format!("public, max-age={}, stale-while-revalidate={}", self.max_age, self.stale_while_revalidate)
    }
}

/// The value for an answer computed per request.
pub fn dynamic() -> String {
    format!("public, max-age={DYNAMIC_MAX_AGE}")
}

/// The name under which a theme asset is also written so caches may keep it for ever:
/// `style.css` with the hex digest `0123…` is `style.0123456789abcdef.css` (the first 16 digits).
pub fn fingerprinted(name: &str, hex_digest: &str) -> String {
    let hash = hex_digest.get(..16).unwrap_or(hex_digest);
    match name.rsplit_once('.') {
        Some((stem, extension)) => format!("{stem}.{hash}.{extension}"),
        None => format!("{name}.{hash}"),
    }
}

/// Whether `file`'s name carries a hash of its bytes: `<name>.<16 hex digits>.<extension>`, as the
/// build names the theme's assets (see the generator's theme).
pub fn is_fingerprinted(file: &str) -> bool {
    let name = file.rsplit('/').next().unwrap_or(file);
    let mut parts = name.rsplit('.');
    let (_, hash) = (parts.next(), parts.next());
    parts.next().is_some() && hash.is_some_and(|h| h.len() == 16 && h.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// Sets the answer's `Cache-Control` by the policy: errors and answers to writes `no-store`,
/// whatever a handler said; otherwise what the handler or file set, else [`dynamic`].
pub fn apply(response: &mut Response, method: &Method) {
    let read = matches!(method, Method::Get | Method::Head | Method::Options);
    if response.status >= 400 || !read {
        response.set_header("cache-control", NO_STORE);
    } else if response.header("cache-control").is_none() {
        response.set_header("cache-control", dynamic());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_are_kept_minutes_and_fingerprinted_files_forever() {
        let settings = CacheSettings::default();
        assert_eq!(settings.for_file("api/news.json"), "public, max-age=300, stale-while-revalidate=86400");
        assert_eq!(settings.for_file("assets/style.0123456789abcdef.css"), IMMUTABLE);
        assert!(!is_fingerprinted("assets/style.css"));
        assert_eq!(settings.for_file("sw.js"), "no-cache", "docs/offline.md#updates");
        let name = fingerprinted("style.css", "0123456789abcdef0123");
        assert_eq!(name, "style.0123456789abcdef.css");
        assert!(is_fingerprinted(&name));
        assert!(!is_fingerprinted("0123456789abcdef.css"));
        assert!(!is_fingerprinted("media/a.0123456789abcdeg.jpg"));
    }

    #[test]
    fn errors_and_writes_are_never_stored() {
        let mut ok = Response::new(200).with_header("cache-control", "public, max-age=300");
        apply(&mut ok, &Method::Get);
        assert_eq!(ok.header("cache-control"), Some("public, max-age=300"));
        let mut computed = Response::new(200);
        apply(&mut computed, &Method::Get);
        assert_eq!(computed.header("cache-control"), Some("public, max-age=60"));
        let mut error = Response::new(404).with_header("cache-control", "public, max-age=300");
        apply(&mut error, &Method::Get);
        assert_eq!(error.header("cache-control"), Some(NO_STORE));
        let mut posted = Response::new(303);
        apply(&mut posted, &Method::Post);
        assert_eq!(posted.header("cache-control"), Some(NO_STORE));
    }
}
