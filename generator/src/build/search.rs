//! The search outputs: the tantivy index (one file per segment under `_portal/search/`, with the
//! manifest `index.json`; see `portal_core::search`) and `/api/search-index.json`, the flat public
//! index (D4).

use anyhow::{Context, Result};
use portal_core::content::{Entry, Record};
use portal_core::search::pack::INDEX_MANIFEST;
use portal_core::search::writer::{split, SearchDoc};
use portal_core::search::{build_segment, index_manifest, Segment, SegmentMeta};
use rayon::prelude::*;
use serde_json::{json, Value};

use super::output::OutFile;
use crate::load::Content;

/// A record as the index sees it.
pub fn search_doc(record: &Record) -> SearchDoc {
    SearchDoc {
        collection: record.collection.clone(),
        id: record.id.clone(),
        slug: record.slug.clone(),
        url: record.url.clone(),
        title: record.title.clone(),
        summary: record.summary.clone().unwrap_or_default(),
        tags: record.tags.clone(),
        body: record.body.clone().unwrap_or_default(),
    }
}

/// A record's entry in `search-index.json`.
pub fn flat_entry(record: &Record) -> Value {
    json!({
        "slug": record.slug,
        "title": record.title,
        "collection": record.collection,
        "url": record.url,
        "summary": record.summary,
        "tags": record.tags,
        "date": record.fields.get("date").or_else(|| record.fields.get("updated")).cloned().unwrap_or(Value::Null),
    })
}

/// An encyclopedia entry as the index sees it: its aliases count as tags.
pub fn entry_doc(entry: &Entry) -> SearchDoc {
    let mut doc = search_doc(&entry.record);
    doc.tags.extend(entry.aliases.iter().cloned());
    doc
}

/// The segments of the index for every record and encyclopedia entry, built in parallel (the same
/// bytes as `portal_core::search::build`, which builds them one after the other).
pub fn segments(content: &Content) -> Result<Vec<Segment>> {
    let docs = content.collections.values().flatten().map(search_doc).chain(content.entries.iter().map(entry_doc));
    let segments: std::result::Result<Vec<Segment>, _> =
        split(docs.collect()).into_par_iter().map(build_segment).collect();
    segments.context("building the search index")
}

/// The index's segment files, its manifest and the flat index (records and encyclopedia entries).
pub fn files(content: &Content) -> Result<Vec<OutFile>> {
    let entries = content.entries.iter().map(|e| &e.record);
    let records: Vec<&Record> = content.collections.values().flatten().chain(entries).collect();
    let segments = segments(content)?;
    let metas: Vec<SegmentMeta> = segments.iter().map(Segment::meta).collect();
    let mut out: Vec<OutFile> =
        segments.iter().zip(&metas).map(|(s, m)| OutFile::internal(m.file(), s.bytes())).collect();
    out.push(OutFile::internal(INDEX_MANIFEST, index_manifest(&metas)));
    let flat: Vec<Value> = records.iter().map(|r| flat_entry(r)).collect();
    out.push(OutFile::at("/api/search-index.json", serde_json::to_vec(&flat)?)?);
    Ok(out)
}
