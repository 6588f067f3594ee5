//! The search index after a rebuild: the plan of segments made again from the documents' keys
//! (`portal_core::search::plan`, content-defined, so an edit moves at most the segment it falls
//! in), each segment whose documents are the same as in the last build kept as it is, the others
//! built again from the records' JSON (the listings and details made now, or the last build's), and
//! `index.json` written from the segments' metadata, as a clean build writes it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use anyhow::{Context, Result};
use portal_core::content::collections::ENCYCLOPEDIA;
use portal_core::search::pack::{PackManifest, INDEX_MANIFEST};
use portal_core::search::writer::SearchDoc;
use portal_core::search::{plan, SegmentMeta};
use serde_json::Value;

use super::groups::Made;
use super::state::Output;
use super::Work;
use crate::build::documents::search;
use crate::build::model::Card;

/// A document's key: (collection, id).
type Key = (String, String);

fn key_of(card: &Card) -> Key {
    (card.collection.clone(), card.id.clone())
}

/// The index made again, given the files made now (`made_now`, by file), the records' JSON of the
/// collections made again (`items`) and the last build's table of the search group (`old`). `None`
/// when the last build's index cannot be matched.
pub fn index(
    work: &Work,
    made_now: &BTreeMap<&str, &[u8]>,
    items: &BTreeMap<&str, &[Value]>,
    old: &[Output],
) -> Result<Option<Made>> {
    let out = work.options.out.as_path();
    let read_again: BTreeSet<Key> =
        work.model.all().filter(|card| work.read.contains(&card.file)).map(key_of).collect();
    let changed: BTreeSet<Key> = work.old.values().map(key_of).chain(read_again.iter().cloned()).collect();
    let mut now: Vec<Key> = work.model.all().map(key_of).collect();
    now.sort();
    let mut before: Vec<Key> = now.iter().filter(|k| !read_again.contains(*k)).cloned().collect();
    before.extend(work.old.values().map(key_of));
    before.sort();
    let last = last_manifest(out)?;
    let before_plan = plan(&borrowed(&before));
    if before_plan.len() != last.segments.len() {
        return Ok(None);
    }
    let reusable: BTreeMap<&[Key], &SegmentMeta> = before_plan
        .iter()
        .zip(&last.segments)
        .filter(|(range, _)| before[(*range).clone()].iter().all(|k| !changed.contains(k)))
        .map(|(range, meta)| (&before[range.clone()], meta))
        .collect();
    let mut metas = Vec::new();
    let mut rebuild: Vec<(usize, &[Key])> = Vec::new();
    for range in plan(&borrowed(&now)) {
        let keys = &now[range];
        match reusable.get(keys) {
            Some(meta) => metas.push((*meta).clone()),
            None => {
                rebuild.push((metas.len(), keys));
                metas.push(SegmentMeta::default());
            }
        }
    }
    let Some(docs) = documents(work, made_now, items, &rebuild)? else { return Ok(None) };
    let built = search::build_all(docs)?;
    for ((at, _), segment) in rebuild.iter().zip(&built) {
        metas[*at] = segment.meta();
    }
    let mut files = search::segment_files(&built);
    files.push(search::manifest_file(&metas));
    let kept_files: BTreeSet<String> = metas.iter().map(SegmentMeta::file).collect();
    let made: BTreeSet<String> = files.iter().map(|f| f.file.clone()).collect();
    let kept = old.iter().filter(|o| kept_files.contains(&o.file) && !made.contains(&o.file)).cloned().collect();
    Ok(Some(Made { files, kept, items: None }))
}

fn borrowed(keys: &[Key]) -> Vec<(&str, &str)> {
    keys.iter().map(|(c, id)| (c.as_str(), id.as_str())).collect()
}

fn last_manifest(out: &Path) -> Result<PackManifest> {
    let file = out.join(INDEX_MANIFEST);
    let bytes = std::fs::read(&file).with_context(|| format!("reading {}", file.display()))?;
    serde_json::from_slice(&bytes).with_context(|| format!("reading {}", file.display()))
}

/// The documents of each segment to build, from the JSON of its records: a collection's listing,
/// or each entry's detail. `None` when a record cannot be found so (two records with one id).
fn documents(
    work: &Work,
    made_now: &BTreeMap<&str, &[u8]>,
    items: &BTreeMap<&str, &[Value]>,
    rebuild: &[(usize, &[Key])],
) -> Result<Option<Vec<Vec<SearchDoc>>>> {
    let out = work.options.out.as_path();
    let read = |file: &str| -> Result<Value> {
        let bytes = match made_now.get(file) {
            Some(bytes) => bytes.to_vec(),
            None => std::fs::read(out.join(file)).with_context(|| format!("reading {}", out.join(file).display()))?,
        };
        serde_json::from_slice(&bytes).with_context(|| format!("reading {file}"))
    };
    let mut listings: BTreeMap<String, BTreeMap<String, SearchDoc>> = BTreeMap::new();
    let slugs: BTreeMap<&str, &str> = work.model.entries.iter().map(|c| (c.id.as_str(), c.slug.as_str())).collect();
    let mut groups = Vec::new();
    for (_, keys) in rebuild {
        let mut docs = Vec::with_capacity(keys.len());
        for (collection, id) in *keys {
            if collection == ENCYCLOPEDIA {
                let slug = slugs.get(id.as_str()).copied().unwrap_or(id.as_str());
                let detail = read(&format!("api/encyclopedia/{slug}.json"))?;
                docs.push(search::doc_of_json(&detail["data"]["entry"]));
                continue;
            }
            if !listings.contains_key(collection) {
                let by_id = match items.get(collection.as_str()) {
                    Some(items) => items.iter().map(search::doc_of_json).map(|d| (d.id.clone(), d)).collect(),
                    None => {
                        let listing = read(&format!("api/{collection}.json"))?;
                        let items = listing["data"][collection.as_str()].as_array().cloned().unwrap_or_default();
                        items.iter().map(search::doc_of_json).map(|d| (d.id.clone(), d)).collect()
                    }
                };
                listings.insert(collection.clone(), by_id);
            }
            let Some(doc) = listings.get_mut(collection).and_then(|docs| docs.remove(id)) else { return Ok(None) };
            docs.push(doc);
        }
        groups.push(docs);
    }
    Ok(Some(groups))
}
