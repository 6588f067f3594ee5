//! Dashboard datasets as files (`{status, updatedAt, data}`, docs/spec/api-spec.md#snapshots), the deprecated pageview
//! counter (always zero, with its deprecation headers), and the weather fallback the handler reads.

use anyhow::Result;
use portal_core::content::time::DateTime;
use portal_core::handlers::weather::FALLBACK_FILE;
use portal_core::http::deprecation::DEPRECATIONS;
use portal_core::http::envelope::success;
use serde_json::{json, Value};

use crate::build::write::file::OutFile;
use crate::load::Content;

/// The snapshot's `updatedAt` (docs/spec/api-spec.md#snapshots): the dataset's own top-level
/// `updatedAt` or `updated`, else the build time.
pub fn updated_at(dataset: &Value, built: DateTime) -> Value {
    dataset.get("updatedAt").or_else(|| dataset.get("updated")).cloned().unwrap_or_else(|| json!(built.rfc3339()))
}

/// The dataset files, the pageview counter and the weather fallback.
pub fn files(content: &Content, built: DateTime) -> Result<Vec<OutFile>> {
    let mut files: Vec<OutFile> = content
        .datasets
        .iter()
        .map(|(name, dataset)| {
            let body = success(json!({"updatedAt": updated_at(dataset, built), "data": dataset}));
            OutFile::at(crate::load::data::json_url(name), body.to_string().into_bytes())
        })
        .collect::<Result<_>>()?;
    for deprecation in DEPRECATIONS {
        let mut counter =
            OutFile::at(deprecation.path, success(json!({"data": {"pageviews": 0}})).to_string().into_bytes())?;
        counter.headers = Some(format!("deprecated:{}", deprecation.path));
        files.push(counter);
    }
    if let Some(fallback) = &content.weather_fallback {
        files.push(OutFile::internal(FALLBACK_FILE, fallback.to_string().into_bytes()));
    }
    Ok(files)
}
