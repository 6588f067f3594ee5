//! `/api/v1/spatial.json` (all features, RFC 7946) and `/api/v1/spatial.csv` as built files; the
//! filters are answered by the core's handler from the JSON file.

use anyhow::Result;
use portal_core::handlers::spatial::GEOJSON;
use portal_core::spatial::to_csv;
use serde_json::json;

use super::output::OutFile;
use crate::load::Content;

/// Both spatial files.
pub fn files(content: &Content) -> Result<Vec<OutFile>> {
    let collection = json!({"type": "FeatureCollection", "features": content.features});
    let csv = to_csv(&content.features).map_err(|e| anyhow::anyhow!("writing the spatial CSV: {e}"))?;
    Ok(vec![
        OutFile::served("/api/v1/spatial.json", "api/v1/spatial.json", GEOJSON, collection.to_string().into_bytes()),
        OutFile::served("/api/v1/spatial.csv", "api/v1/spatial.csv", "text/csv; charset=utf-8", csv.into_bytes()),
    ])
}
