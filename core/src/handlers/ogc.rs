//! OGC API - Features answers to a query (docs/spec/api-spec.md#ogc): a collection's items with
//! `limit`, `offset`, `bbox` and the property filters of `/api/v1/spatial.json`, and one feature.
//! Both read the collection's one internal file the build wrote; the pages without a query are
//! built files.

use serde_json::Value;

use super::files::{read_json_file, serve};
use crate::handlers::Ctx;
use crate::http::media::{GEOJSON, JSON};
use crate::http::problem::Problem;
use crate::http::Response;
use crate::platform::Platform;
use crate::queries::spatial::{filter, requested, FILTERS};
use crate::standards::ogc::{
    self, check_bbox_crs, check_parameters, datetime, find, store_file, wants_json, within, Bbox, Items, Paging,
    DOCUMENT_PARAMETERS, ITEMS_PARAMETERS, ROOT,
};

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

/// A built document (landing page, conformance, collections, a collection, the OpenAPI
/// document) asked for with a query: `f` may ask for JSON, which it is; any other parameter is 400.
pub async fn document<P: Platform>(ctx: &Ctx<'_, P>) -> Result<Response, Problem> {
    check_parameters(&ctx.query, &DOCUMENT_PARAMETERS)?;
    if wants_json(&ctx.query)? || ctx.query.get("f").is_none() {
        // Every OGC document's file is its path with `.json`, which also answers as its alias.
        let path = crate::routing::normalize_path(&ctx.request.path);
        return serve(ctx.state, ctx.platform, ctx.request, path.strip_suffix(".json").unwrap_or(&path)).await;
    }
    Err(Problem::bad_request("`f` may only be `json` here: these documents are JSON."))
}

/// `GET /api/ogc/collections/<id>/items` with a query.
pub async fn items<P: Platform>(ctx: &Ctx<'_, P>) -> Result<Response, Problem> {
    let collection = ctx.params.name.as_deref().unwrap_or_default();
    check_parameters(&ctx.query, &ITEMS_PARAMETERS)?;
    let paging = Paging::parse(&ctx.query)?;
    let json = wants_json(&ctx.query)?;
    check_bbox_crs(&ctx.query)?;
    let bbox = ctx.query.get("bbox").map(Bbox::parse).transpose()?;
    let span = ctx.query.get("datetime").map(datetime::parse).transpose()?;
    let all = features(ctx, collection).await?;
    let mut matched = filter(&all, &requested(&ctx.query, &FILTERS))?;
    if let Some(bbox) = bbox {
        matched = within(matched, &bbox);
    }
    if let Some(span) = span {
        if !all.iter().any(|f| datetime::of_feature(f).is_some()) {
            return Err(Problem::bad_request(format!(
                "No feature of `{collection}` has a date ({}), so `datetime` cannot choose among them; ask without it.",
                datetime::DATE_PROPERTIES.join(", ")
            )));
        }
        matched = datetime::within(matched, &span);
    }
    let kept = ctx
        .query
        .pairs()
        .filter(|(name, _)| !matches!(*name, "limit" | "offset" | "f"))
        .map(|(name, value)| (name.to_string(), value.to_string()))
        .collect();
    let base = ctx.state.manifest().site.base();
    let body = ogc::items(Items { base, collection, matched, paging, kept, json });
    Ok(Response::new(200).with_body(if json { JSON } else { GEOJSON }, body.to_string()))
}

/// `GET /api/ogc/collections/<id>/items/<featureId>` (the id percent-decoded, `/` and all).
pub async fn item<P: Platform>(ctx: &Ctx<'_, P>) -> Result<Response, Problem> {
    let collection = ctx.params.name.as_deref().unwrap_or_default();
    let id = ctx.params.slug.as_deref().unwrap_or_default();
    check_parameters(&ctx.query, &DOCUMENT_PARAMETERS)?;
    wants_json(&ctx.query)?;
    let all = features(ctx, collection).await?;
    let Some(feature) = find(&all, id) else {
        return Err(Problem::not_found(format!("The feature collection `{collection}` has no feature `{id}`.")));
    };
    let body = ogc::item(ctx.state.manifest().site.base(), collection, feature);
    Ok(Response::new(200).with_body(GEOJSON, body.to_string()))
}
