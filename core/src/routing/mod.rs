//! Routing: the route table (every route of the spec, what serves it, its `operationId`, by which
//! the OpenAPI document finds its description), the file rules that say where the build writes each route's file, the
//! site's page URLs, and the matcher that finds a path's route fast.

mod files;
mod matcher;
pub mod pages;
mod table;

pub use files::*;
pub use pages::{page_at, PageAt, ASSETS_PREFIX, BOOKING_FORM, FORM_PAGES, GENERATED_FOR_SOME_SITES, VOICE_FORM};
pub use table::*;

/// Decodes percent-escapes and drops a trailing slash, so `/api/%73ervices/` is `/api/services`.
pub fn normalize_path(raw: &str) -> String {
    let decoded = percent_encoding::percent_decode_str(raw).decode_utf8_lossy();
    let trimmed = decoded.trim_end_matches('/');
    if trimmed.is_empty() {
        "/".to_string()
    } else if trimmed.starts_with('/') {
        trimmed.to_string()
    } else {
        format!("/{trimmed}")
    }
}
