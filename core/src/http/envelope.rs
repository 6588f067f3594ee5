//! The envelopes every successful JSON answer comes in (docs/spec/api-spec.md#envelopes): defined once here, so the
//! files the build writes and the answers handlers compute cannot drift apart.

use serde_json::{json, Map, Value};

/// The `status` of every successful answer.
pub const SUCCESS: &str = "success";

/// `{"status": "success", ...members}`: `status` first, then `members` in their order.
pub fn success(members: Value) -> Value {
    let mut out = Map::new();
    out.insert("status".into(), json!(SUCCESS));
    if let Value::Object(members) = members {
        out.extend(members);
    }
    Value::Object(out)
}

/// A collection listing: `{status, count, total, data: {<name>: items}}`, where `count` is the
/// number of `items` and `total` the size of the whole (filtered) collection.
pub fn listing(name: &str, items: Vec<Value>, total: usize) -> Map<String, Value> {
    let mut map = Map::new();
    map.insert("status".into(), json!(SUCCESS));
    map.insert("count".into(), json!(items.len()));
    map.insert("total".into(), json!(total));
    map.insert("data".into(), json!({ name: items }));
    map
}

/// Page `page` (from 1) of a listing split into pages of `page_size`: the listing envelope of the
/// page's `items` (with `total` the whole collection's size), the page numbers, and `links` to
/// itself, its neighbours and both ends (site-relative URLs made by `url_of(page)`).
pub fn page(
    name: &str,
    items: Vec<Value>,
    total: usize,
    (page, page_size): (usize, usize),
    url_of: impl Fn(usize) -> String,
) -> Value {
    let total_pages = total.div_ceil(page_size.max(1)).max(1);
    let mut links = Map::new();
    links.insert("self".into(), json!(url_of(page)));
    links.insert("first".into(), json!(url_of(1)));
    links.insert("last".into(), json!(url_of(total_pages)));
    if page > 1 {
        links.insert("prev".into(), json!(url_of(page - 1)));
    }
    if page < total_pages {
        links.insert("next".into(), json!(url_of(page + 1)));
    }
    let mut map = listing(name, items, total);
    map.insert("page".into(), json!(page));
    map.insert("pageSize".into(), json!(page_size));
    map.insert("totalPages".into(), json!(total_pages));
    map.insert("links".into(), Value::Object(links));
    Value::Object(map)
}

/// One record of `GET /api/<collection>/<slug>`: `{status, count: 1, data: {<collection>: [record]}}`.
pub fn detail(collection: &str, record: Value) -> Value {
    success(json!({"count": 1, "data": { collection: [record] }}))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_link_their_neighbours_and_both_ends() {
        let url = |n: usize| format!("/api/news/_page/{n}");
        let middle = page("news", vec![json!({"id": "a"})], 250, (2, 100), url);
        assert_eq!(
            (middle["count"].clone(), middle["total"].clone(), middle["totalPages"].clone()),
            (json!(1), json!(250), json!(3))
        );
        assert_eq!(middle["links"]["prev"], "/api/news/_page/1");
        assert_eq!(middle["links"]["next"], "/api/news/_page/3");
        let only = page("news", Vec::new(), 0, (1, 100), url);
        assert_eq!((only["totalPages"].clone(), only["links"].get("next")), (json!(1), None));
        assert_eq!(only["links"]["last"], "/api/news/_page/1");
    }

    #[test]
    fn status_leads_every_envelope() {
        let listing = Value::Object(listing("news", vec![json!({"id": "a"})], 3));
        assert_eq!(listing.to_string(), r#"{"status":"success","count":1,"total":3,"data":{"news":[{"id":"a"}]}}"#);
        assert_eq!(
            detail("news", json!({"id": "a"})).to_string(),
            r#"{"status":"success","count":1,"data":{"news":[{"id":"a"}]}}"#
        );
        assert_eq!(success(json!({"b": 1, "a": 2})).to_string(), r#"{"status":"success","b":1,"a":2}"#);
    }
}
