use serde_json::{json, Value};

use super::*;

fn point(lon: f64, lat: f64) -> Value {
    json!({"type": "Feature", "id": format!("p{lon}"), "properties": {}, "geometry": {"type": "Point", "coordinates": [lon, lat]}})
}

fn boxed(raw: &str) -> Bbox {
    Bbox::parse(raw).unwrap_or_else(|e| panic!("{raw}: {}", e.detail))
}

#[test]
fn a_bbox_is_four_numbers_or_six_with_heights() {
    assert_eq!(boxed("30,-2,31,-1"), Bbox { west: 30.0, south: -2.0, east: 31.0, north: -1.0 });
    assert_eq!(boxed(" 30 , -2 , 0, 31, -1 , 100"), Bbox { west: 30.0, south: -2.0, east: 31.0, north: -1.0 });
    for bad in [
        "30,-2,31",
        "30,-2,31,-1,5",
        "a,b,c,d",
        "",
        "30,-91,31,-1",
        "30,-2,31,95",
        "190,0,191,1",
        "0,5,1,4",
        "NaN,0,1,1",
    ] {
        assert!(Bbox::parse(bad).is_err(), "{bad}");
    }
}

#[test]
fn a_bbox_whose_west_is_east_of_its_east_crosses_the_antimeridian() {
    let pacific = boxed("170,-20,-170,20");
    let features = vec![point(175.0, 0.0), point(-175.0, 0.0), point(0.0, 0.0), point(179.0, 30.0)];
    let ids: Vec<String> = within(features, &pacific).iter().map(feature_id).collect();
    assert_eq!(ids, ["p175", "p-175"]);
    let across = Bbox { west: -180.0, south: -1.0, east: 180.0, north: 1.0 };
    assert!(across.intersects(&pacific) && pacific.intersects(&across));
    assert!(!boxed("-10,-1,10,1").intersects(&pacific));
}

#[test]
fn a_geometry_matches_by_its_own_box_not_only_its_points() {
    let road = json!({"type": "Feature", "id": "road", "geometry": {"type": "LineString", "coordinates": [[30.0, 0.0], [32.0, 2.0]]}});
    let query = boxed("30.9,0.9,31.1,1.1");
    assert_eq!(within(vec![road], &query).len(), 1, "no vertex inside, the line's box meets it");
    let edge = boxed("32,2,33,3");
    assert!(Bbox::of_geometry(&json!({"type": "Point", "coordinates": [32, 2]})).is_some_and(|b| b.intersects(&edge)));
}

#[test]
fn odd_geometries_have_a_box_or_none_and_never_fail() {
    let collection = json!({"type": "GeometryCollection", "geometries": [
        {"type": "Point", "coordinates": [1, 2]}, {"type": "MultiPolygon", "coordinates": [[[[3, -4], [5, -4], [5, 6], [3, -4]]]]}]});
    assert_eq!(Bbox::of_geometry(&collection), Some(Bbox { west: 1.0, south: -4.0, east: 5.0, north: 6.0 }));
    assert_eq!(Bbox::of_geometry(&json!({"type": "Point", "coordinates": ["30.5", "-1"]})).map(|b| b.west), Some(30.5));
    for odd in [json!(null), json!({}), json!({"type": "Point", "coordinates": []}), json!("x"), json!([[]])] {
        assert_eq!(Bbox::of_geometry(&odd), None, "{odd}");
    }
    let features = vec![json!({"type": "Feature", "geometry": null}), json!(7), point(1.0, 1.0)];
    assert_eq!(within(with_ids(&features), &boxed("-180,-90,180,90")).len(), 1);
}

#[test]
fn ids_are_the_features_own_else_stable_from_the_properties() {
    let features = with_ids(&[
        json!({"type": "Feature", "id": 7, "properties": {}}),
        json!({"type": "Feature", "properties": {"name": "Well"}}),
        json!({"type": "Feature", "properties": {"name": "Well"}, "id": ""}),
    ]);
    assert_eq!(features[0]["id"], 7);
    assert!(features[1]["id"].as_str().is_some_and(|id| id.starts_with("f-") && id.len() == 18));
    assert_eq!(features[1]["id"], features[2]["id"], "the same properties, the same id");
    assert_eq!(find(&features, "7").map(|f| &f["id"]), Some(&json!(7)));
}

#[test]
fn limit_is_capped_and_bad_paging_is_refused() {
    let paging = |raw: &str| Paging::parse(&Query::parse(Some(raw)));
    assert_eq!(paging(""), Ok(Paging { limit: 10, offset: 0 }));
    assert_eq!(paging("limit=50000&offset=3"), Ok(Paging { limit: MAX_LIMIT, offset: 3 }));
    assert_eq!(paging("limit=99999999999999999999999").map(|p| p.limit), Ok(MAX_LIMIT));
    for bad in ["limit=0", "limit=ten", "limit=-1", "offset=-1", "offset=x", "limit=1.5"] {
        assert!(paging(bad).is_err(), "{bad}");
    }
}

#[test]
fn f_asks_for_json_or_geojson_and_nothing_else() {
    let f = |raw: &str| wants_json(&Query::parse(Some(raw)));
    assert_eq!((f(""), f("f=json"), f("f=application/json")), (Ok(false), Ok(true), Ok(true)));
    assert_eq!((f("f=geojson"), f("f=application%2Fgeo%2Bjson")), (Ok(false), Ok(false)));
    assert!(f("f=html").is_err());
}

#[test]
fn pages_link_to_their_neighbours_keeping_the_filters() {
    let matched: Vec<Value> = (0..25).map(|i| point(f64::from(i), 0.0)).collect();
    let page = Items {
        base: "https://x.org",
        collection: "my places",
        matched,
        paging: Paging { limit: 10, offset: 10 },
        kept: vec![("zone".into(), "a b".into())],
        json: false,
    };
    let doc = items(page);
    assert_eq!((doc["numberMatched"].as_u64(), doc["numberReturned"].as_u64()), (Some(25), Some(10)));
    let href =
        |rel: &str| doc["links"].as_array().into_iter().flatten().find(|l| l["rel"] == rel).map(|l| l["href"].clone());
    let items = "https://x.org/api/ogc/collections/my%20places/items";
    assert_eq!(href("next"), Some(json!(format!("{items}?zone=a+b&limit=10&offset=20"))));
    assert_eq!(href("prev"), Some(json!(format!("{items}?zone=a+b&limit=10&offset=0"))));
    assert_eq!(href("alternate"), Some(json!(format!("{items}?zone=a+b&f=json&limit=10&offset=10"))));
    let first = super::items(Items {
        matched: vec![point(0.0, 0.0)],
        paging: Paging::default(),
        kept: Vec::new(),
        ..page_stub()
    });
    assert_eq!(first["links"][0]["href"], json!("/api/ogc/collections/c/items"));
    assert!(href("next").is_some() && first["links"].as_array().is_some_and(|l| l.len() == 3), "no next, no prev");
}

fn page_stub() -> Items<'static> {
    Items { base: "", collection: "c", matched: Vec::new(), paging: Paging::default(), kept: Vec::new(), json: false }
}

#[test]
fn a_collection_has_the_box_of_its_geometries() {
    let features = vec![point(30.0, -1.0), json!({"type": "Feature", "geometry": null}), point(31.0, -2.0)];
    let doc = collection("", &Register { id: "places", title: "Places", features: &features });
    assert_eq!(doc["extent"]["spatial"]["bbox"], json!([[30.0, -2.0, 31.0, -1.0]]));
    assert_eq!(doc["links"][1]["href"], "/api/ogc/collections/places/items");
    let empty = collection("", &Register { id: "none", title: "none", features: &[] });
    assert!(empty.get("extent").is_none());
    assert_eq!(item("", "a/b", &json!({"id": "x y"}))["links"][0]["href"], "/api/ogc/collections/a%2Fb/items/x%20y");
}
