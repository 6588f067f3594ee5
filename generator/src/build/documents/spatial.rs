//! `/api/v1/spatial.json` (all features, RFC 7946) and `/api/v1/spatial.csv` as built files; the
//! filters are answered by the core's handler from the JSON file.

use anyhow::Result;
use portal_core::queries::spatial::to_csv;
use serde_json::json;

use crate::build::write::file::OutFile;
use crate::load::Content;

/// Both spatial files.
pub fn files(content: &Content) -> Result<Vec<OutFile>> {
    let collection = json!({"type": "FeatureCollection", "features": content.features});
    let csv = to_csv(&content.features).map_err(|e| anyhow::anyhow!("writing the spatial CSV: {e}"))?;
    Ok(vec![
        OutFile::at("/api/v1/spatial.json", collection.to_string().into_bytes())?,
        OutFile::at("/api/v1/spatial.csv", csv.into_bytes())?,
    ])
}
