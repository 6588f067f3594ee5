//! The envelopes every successful JSON answer comes in (spec 2.3, D2): defined once here, so the
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

/// One record of `GET /api/<collection>/<slug>`: `{status, count: 1, data: {<collection>: [record]}}`.
pub fn detail(collection: &str, record: Value) -> Value {
    success(json!({"count": 1, "data": { collection: [record] }}))
}

#[cfg(test)]
mod tests {
    use super::*;

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
