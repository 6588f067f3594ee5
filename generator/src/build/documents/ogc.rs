//! OGC API - Features (docs/spec/api-spec.md#ogc): the landing page, conformance, the collections
//! (one per register), each collection and its first page of items as built files, and one
//! internal file per collection holding its features, which the core's handler reads for queries
//! and single features (never a file per feature: docs/spec/decisions.md#d13-ogc).

use anyhow::Result;
use portal_core::standards::ogc::{self, store_file, with_ids, Items, Paging, Register, OPENAPI_PATH, ROOT};
use serde_json::{json, Value};

use crate::build::write::file::OutFile;
use crate::load::Content;

/// Every file of the OGC API.
pub fn files(content: &Content) -> Result<Vec<OutFile>> {
    let site = &content.site;
    let base = site.base();
    let stored: Vec<(&str, &str, Vec<Value>)> = content
        .registers
        .iter()
        .filter(|r| !r.stem.is_empty() && !r.stem.starts_with('.'))
        .map(|r| {
            let features = content.features.get(r.features.clone()).unwrap_or_default();
            (r.stem.as_str(), r.title.as_str(), with_ids(features))
        })
        .collect();
    let registers: Vec<Register> =
        stored.iter().map(|(id, title, features)| Register { id, title, features: features.as_slice() }).collect();
    let title = if site.title.is_empty() { "portal" } else { site.title.as_str() };
    let mut files = vec![
        OutFile::at(ROOT, ogc::landing(base, &format!("{title}: places"), &site.description).to_string().into_bytes())?,
        OutFile::at(format!("{ROOT}/conformance"), ogc::conformance().to_string().into_bytes())?,
        OutFile::at(format!("{ROOT}/collections"), ogc::collections(base, &registers).to_string().into_bytes())?,
        OutFile::at(OPENAPI_PATH, ogc::openapi(base, title, &registers).to_string().into_bytes())?,
    ];
    for register in &registers {
        files.extend(collection_files(base, register)?);
    }
    Ok(files)
}

/// A collection's document, its first page of items, and the internal file of its features.
fn collection_files(base: &str, register: &Register) -> Result<Vec<OutFile>> {
    let id = register.id;
    let first = Items {
        base,
        collection: id,
        matched: register.features.to_vec(),
        paging: Paging::default(),
        kept: Vec::new(),
        json: false,
    };
    Ok(vec![
        OutFile::at(format!("{ROOT}/collections/{id}"), ogc::collection(base, register).to_string().into_bytes())?,
        OutFile::at(format!("{ROOT}/collections/{id}/items"), ogc::items(first).to_string().into_bytes())?,
        OutFile::internal(store_file(id), json!({"features": register.features}).to_string().into_bytes()),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load::spatial::Register as Loaded;

    #[test]
    fn every_register_is_a_collection_with_its_first_page_and_its_store() {
        let content = Content {
            features: vec![
                json!({"type": "Feature", "id": "a", "geometry": null, "properties": {}}),
                json!({"type": "Feature", "geometry": {"type": "Point", "coordinates": [1, 2]}, "properties": {"n": 1}}),
            ],
            registers: vec![
                Loaded { stem: "one".into(), title: "One".into(), features: 0..1 },
                Loaded { stem: "two".into(), title: "two".into(), features: 1..2 },
                Loaded { stem: "bad".into(), title: "bad".into(), features: 5..9 },
            ],
            ..Content::default()
        };
        let files = files(&content).expect("files");
        let names: Vec<&str> = files.iter().map(|f| f.file.as_str()).collect();
        for name in [
            "api/ogc.json",
            "api/ogc/openapi.json",
            "api/ogc/collections/two.json",
            "api/ogc/collections/two/items.json",
            "_portal/ogc/two.json",
        ] {
            assert!(names.contains(&name), "{name} in {names:?}");
        }
        let page = files.iter().find(|f| f.file == "api/ogc/collections/two/items.json").expect("the first page");
        let page: Value = serde_json::from_slice(&page.bytes).expect("JSON");
        assert_eq!(page["numberMatched"], 1);
        assert!(page["features"][0]["id"].as_str().is_some_and(|id| id.starts_with("f-")));
        assert_eq!(ogc::items_path("two"), "/api/ogc/collections/two/items");
    }
}
