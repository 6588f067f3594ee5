//! The search outputs: the tantivy index (one segment, packed into chunk files under
//! `_portal/search/` with a manifest) and `/api/search-index.json`, the flat public index (D4).

use super::model::{json_array, Model};
use super::output::{Group, OutFile};
use crate::load::Content;
use anyhow::{Context, Result};
use portal_core::content::{Entry, Record};
use portal_core::search::pack::{pack, INDEX_MANIFEST};
use portal_core::search::writer::{build as build_index, SearchDoc};

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

/// An encyclopedia entry as the index sees it: its aliases count as tags.
pub fn entry_doc(entry: &Entry) -> SearchDoc {
    let mut doc = search_doc(&entry.record);
    doc.tags.extend(entry.aliases.iter().cloned());
    doc
}

/// The index chunks, their manifest and the flat index (records and encyclopedia entries).
pub fn files(content: &Content, model: &Model) -> Result<Vec<OutFile>> {
    let docs = content.collections.values().flatten().map(search_doc).chain(content.entries.iter().map(entry_doc));
    let index_files = build_index(docs.collect()).context("building the search index")?;
    let (manifest, chunks) = pack(&index_files);
    let mut out: Vec<OutFile> = chunks.into_iter().map(|(name, bytes)| OutFile::internal(name, bytes)).collect();
    out.push(OutFile::internal(INDEX_MANIFEST, serde_json::to_vec(&manifest)?));
    let flat = json_array(model.all().map(|card| card.flat.as_str()));
    out.push(OutFile::at("/api/search-index.json", flat.into_bytes())?);
    Ok(out.into_iter().map(|f| f.in_group(Group::Search)).collect())
}
