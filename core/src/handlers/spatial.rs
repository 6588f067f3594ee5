//! `GET /api/v1/spatial.json` and `/api/v1/spatial.csv` with filters (docs/spec/api-spec.md#spatial); the
//! unfiltered files are served as built.

use crate::http::media;
use serde_json::{json, Value};

use super::files::read_json;
use crate::handlers::Ctx;
use crate::http::problem::Problem;
use crate::http::Response;
use crate::platform::{internal, Platform};
use crate::queries::spatial::{filter, requested, to_csv, FILTERS};

/// The media type of the GeoJSON answer.
pub use crate::http::media::GEOJSON;

async fn features<P: Platform>(ctx: &Ctx<'_, P>, names: &[&'static str]) -> Result<Vec<Value>, Problem> {
    let collection =
        read_json(ctx.state, ctx.platform, "/api/v1/spatial.json").await?.unwrap_or_else(|| json!({"features": []}));
    let all = collection["features"].as_array().cloned().unwrap_or_default();
    filter(&all, &requested(&ctx.query, names))
}

/// The filtered FeatureCollection.
pub async fn geojson<P: Platform>(ctx: &Ctx<'_, P>) -> Result<Response, Problem> {
    if let Some(format) = ctx.query.get("format").filter(|f| *f != "json") {
        return Err(Problem::bad_request(format!(
            "`format` may only be `json`; got `{format}`. The CSV form is /api/v1/spatial.csv."
        )));
    }
    let features = features(ctx, &FILTERS).await?;
    let body = json!({"type": "FeatureCollection", "features": features});
    Ok(Response::new(200).with_body(GEOJSON, body.to_string()))
}

/// The filtered CSV.
pub async fn csv<P: Platform>(ctx: &Ctx<'_, P>) -> Result<Response, Problem> {
    let features = features(ctx, &FILTERS[..2]).await?;
    let text = to_csv(&features).map_err(internal(ctx.platform, "writing the spatial CSV"))?;
    Ok(Response::new(200).with_body(media::CSV, text))
}
