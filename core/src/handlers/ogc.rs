//! OGC API - Features answers to a query (docs/spec/api-spec.md#ogc): a collection's items with
//! `limit`, `offset`, `bbox` and the property filters of `/api/v1/spatial.json`, and one feature.
//! Both read the collection's one internal file the build wrote; the pages without a query are
//! built files.

use serde_json::Value;

use super::files::read_json_file;
use crate::handlers::Ctx;
use crate::http::media::{GEOJSON, JSON};
use crate::http::problem::Problem;
use crate::http::Response;
use crate::platform::Platform;
use crate::queries::ogc::{self, check_bbox_crs, find, store_file, wants_json, within, Bbox, Items, Paging, ROOT};
use crate::queries::spatial::{filter, requested, FILTERS};

/// The features of collection `id`, or 404 when there is no such collection.
async fn features<P: Platform>(ctx: &Ctx<'_, P>, id: &str) -> Result<Vec<Value>, Problem> {
    let missing =
        || Problem::not_found(format!("There is no feature collection `{id}`; {ROOT}/collections lists them."));
    if id.is_empty() || id.starts_with('.') || id.contains(['/', '\\']) {
        return Err(missing());
    }
    let stored = read_json_file(ctx.platform, &store_file(id)).await?.ok_or_else(missing)?;
    match stored {
        Value::Object(mut members) => match members.remove("features") {
            Some(Value::Array(features)) => Ok(features),
            _ => Ok(Vec::new()),
        },
        _ => Ok(Vec::new()),
    }
}

/// `GET /api/ogc/collections/<id>/items` with a query.
pub async fn items<P: Platform>(ctx: &Ctx<'_, P>) -> Result<Response, Problem> {
    let collection = ctx.params.name.as_deref().unwrap_or_default();
    let paging = Paging::parse(&ctx.query)?;
    let json = wants_json(&ctx.query)?;
    check_bbox_crs(&ctx.query)?;
    let bbox = ctx.query.get("bbox").map(Bbox::parse).transpose()?;
    let all = features(ctx, collection).await?;
    let mut matched = filter(&all, &requested(&ctx.query, &FILTERS))?;
    if let Some(bbox) = bbox {
        matched = within(matched, &bbox);
    }
    let kept = ctx
        .query
        .pairs()
        .filter(|(name, _)| !matches!(*name, "limit" | "offset" | "f"))
        .map(|(name, value)| (name.to_string(), value.to_string()))
        .collect();
    let base = ctx.app.manifest().site.base();
    let body = ogc::items(Items { base, collection, matched, paging, kept, json });
    Ok(Response::new(200).with_body(if json { JSON } else { GEOJSON }, body.to_string()))
}

/// `GET /api/ogc/collections/<id>/items/<featureId>` (the id percent-decoded, `/` and all).
pub async fn item<P: Platform>(ctx: &Ctx<'_, P>) -> Result<Response, Problem> {
    let collection = ctx.params.name.as_deref().unwrap_or_default();
    let id = ctx.params.slug.as_deref().unwrap_or_default();
    let all = features(ctx, collection).await?;
    let Some(feature) = find(&all, id) else {
        return Err(Problem::not_found(format!("The feature collection `{collection}` has no feature `{id}`.")));
    };
    let body = ogc::item(ctx.app.manifest().site.base(), collection, feature);
    Ok(Response::new(200).with_body(GEOJSON, body.to_string()))
}
