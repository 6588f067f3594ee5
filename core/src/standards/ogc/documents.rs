//! The JSON documents of OGC API - Features (docs/spec/api-spec.md#ogc), made alike by the build
//! (the files served without a query) and by the handler (answers to a query), so both forms of
//! a page are the same document.

use serde_json::{json, Value};

use super::openapi::OPENAPI_PATH;
use super::{
    collection_path, items_path, link, segment, Bbox, Paging, CONFORMANCE, CRS84, DEFAULT_LIMIT, GEOJSON, HTML, JSON,
    ROOT,
};
use crate::http::media::OPENAPI_30;

/// One collection: the features of one file of `content/spatial/`.
#[derive(Debug, Clone, Copy)]
pub struct Register<'a> {
    /// The file's stem: the collection's id.
    pub id: &'a str,
    /// Its title: the FeatureCollection's own `name` or `title`, else the stem.
    pub title: &'a str,
    /// Its features, ids set ([`super::with_ids`]).
    pub features: &'a [Value],
}

/// `/api/ogc`: what the API is and where its parts are.
pub fn landing(base: &str, title: &str, description: &str) -> Value {
    json!({
        "title": title,
        "description": description,
        "links": [
            link(format!("{base}{ROOT}"), "self", JSON, "This document"),
            link(format!("{base}{OPENAPI_PATH}"), "service-desc", OPENAPI_30, "The API's OpenAPI 3.0 description"),
            link(format!("{base}/api-docs"), "service-doc", HTML, "The API's documentation"),
            link(format!("{base}{ROOT}/conformance"), "conformance", JSON, "The conformance classes implemented"),
            link(format!("{base}{ROOT}/collections"), "data", JSON, "The feature collections"),
        ],
    })
}

/// `/api/ogc/conformance`.
pub fn conformance() -> Value {
    json!({"conformsTo": CONFORMANCE})
}

/// `/api/ogc/collections/<id>`: with the box around every geometry of the collection.
pub fn collection(base: &str, register: &Register) -> Value {
    let path = collection_path(register.id);
    let mut out = json!({
        "id": register.id,
        "title": register.title,
        "description": format!("{} features of the register `{}`.", register.features.len(), register.id),
        "itemType": "feature",
        "crs": [CRS84],
        "links": [
            link(format!("{base}{path}"), "self", JSON, "This collection"),
            link(format!("{base}{}", items_path(register.id)), "items", GEOJSON, "Its features"),
        ],
    });
    let bbox = register.features.iter().filter_map(|f| Bbox::of_geometry(&f["geometry"])).reduce(Bbox::union);
    if let Some(bbox) = bbox {
        out["extent"] = json!({"spatial": {"bbox": [bbox.to_json()], "crs": CRS84}});
    }
    if let Some((first, last)) = super::datetime::extent(register.features) {
        out["extent"]["temporal"] = json!({"interval": [[first, last]]});
    }
    out
}

/// `/api/ogc/collections`.
pub fn collections(base: &str, registers: &[Register]) -> Value {
    json!({
        "links": [link(format!("{base}{ROOT}/collections"), "self", JSON, "The feature collections")],
        "collections": registers.iter().map(|r| collection(base, r)).collect::<Vec<_>>(),
    })
}

/// A page of a collection's items: what matched, and how the request asked for it.
#[derive(Debug, Clone)]
pub struct Items<'a> {
    /// The site's base URL.
    pub base: &'a str,
    /// The collection's id.
    pub collection: &'a str,
    /// Every feature that matched, in order.
    pub matched: Vec<Value>,
    /// The page of them to show.
    pub paging: Paging,
    /// The request's other parameters (filters, `bbox`), kept in the links; `limit`, `offset`
    /// and `f` left out.
    pub kept: Vec<(String, String)>,
    /// Whether the page is asked for as `application/json` (`f=json`) rather than GeoJSON.
    pub json: bool,
}

impl Items<'_> {
    /// The URL of the page at `offset`, as GeoJSON or (`json`) as JSON.
    fn href(&self, offset: usize, json: bool) -> String {
        let mut pairs = self.kept.clone();
        if json {
            pairs.push(("f".into(), "json".into()));
        }
        let path = format!("{}{}", self.base, items_path(self.collection));
        if pairs.is_empty() && offset == 0 && self.paging.limit == DEFAULT_LIMIT {
            return path;
        }
        pairs.push(("limit".into(), self.paging.limit.to_string()));
        pairs.push(("offset".into(), offset.to_string()));
        format!("{path}?{}", form_urlencoded::Serializer::new(String::new()).extend_pairs(pairs).finish())
    }
}

/// The page as a FeatureCollection with `numberMatched`, `numberReturned` and its links.
pub fn items(page: Items) -> Value {
    let Paging { limit, offset } = page.paging;
    let matched = page.matched.len();
    let shown: Vec<&Value> = page.matched.iter().skip(offset).take(limit).collect();
    let own = if page.json { JSON } else { GEOJSON };
    let (other, other_title) = if page.json { (GEOJSON, "This page as GeoJSON") } else { (JSON, "This page as JSON") };
    let mut links = vec![
        link(page.href(offset, page.json), "self", own, "This page"),
        link(page.href(offset, !page.json), "alternate", other, other_title),
        link(format!("{}{}", page.base, collection_path(page.collection)), "collection", JSON, "The collection"),
    ];
    if offset.saturating_add(shown.len()) < matched {
        links.push(link(page.href(offset + shown.len(), page.json), "next", own, "The next page"));
    }
    if offset > 0 {
        links.push(link(page.href(offset.saturating_sub(limit), page.json), "prev", own, "The previous page"));
    }
    json!({
        "type": "FeatureCollection",
        "features": shown,
        "numberMatched": matched,
        "numberReturned": shown.len(),
        "links": links,
    })
}

/// One feature with its links.
pub fn item(base: &str, collection: &str, feature: &Value) -> Value {
    let mut out = feature.clone();
    let id = super::feature_id(feature);
    out["links"] = json!([
        link(format!("{base}{}/{}", items_path(collection), segment(&id)), "self", GEOJSON, "This feature"),
        link(format!("{base}{}", collection_path(collection)), "collection", JSON, "Its collection"),
    ]);
    out
}
