//! The search outputs: the tantivy index (one file per segment under `_portal/search/`, with the
//! manifest `index.json`; see `portal_core::search`) and `/api/search-index.json`, the flat public
//! index (docs/spec/api-spec.md#search).

use std::collections::BTreeMap;

use anyhow::{Context, Result};
use portal_core::content::collections::ENCYCLOPEDIA;
use portal_core::content::{Entry, Record};
use portal_core::dist::manifest::Manifest;
use portal_core::search::facts::facts;
use portal_core::search::offline;
use portal_core::search::pack::{PackManifest, INDEX_MANIFEST};
use portal_core::search::writer::{split_by, SearchDoc};
use portal_core::search::{build_segment, index_manifest, SearchIndex, Segment, SegmentMeta};
use rayon::prelude::*;
use serde_json::Value;

use crate::build::model::{json_array, Card, Model};
use crate::build::write::file::{Group, OutFile};
use crate::build::write::sink::Outputs;
use crate::load::shelf::{Place, Shelved};
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
        facts: facts(&record.fields),
        language: record.fields.get("language").and_then(Value::as_str).unwrap_or_default().to_string(),
    }
}

/// Each collection's cards (and the encyclopedia's, as `entries`), in the flat index's order.
pub fn blocks(model: &Model) -> impl Iterator<Item = (String, &[Card])> + '_ {
    let collections = model.collections.iter().map(|(name, cards)| (name.to_string(), cards.as_slice()));
    collections.chain([(ENCYCLOPEDIA.to_string(), model.entries.as_slice())])
}

/// The entries of `cards` in the flat index, joined: one block of it.
pub fn block(cards: &[Card]) -> String {
    let flats: Vec<String> = cards.iter().map(Card::flat).collect();
    let joined = json_array(flats.iter().map(String::as_str));
    joined[1..joined.len() - 1].to_string()
}

/// Each collection's byte range in the flat index (see [`flat_index`]).
pub type FlatRanges = BTreeMap<String, (usize, usize)>;

/// `/api/search-index.json` from its blocks (see [`blocks`]): the bytes, and the range of each
/// block that has entries, so a rebuild can copy the blocks that did not change.
pub fn flat_index(blocks: impl Iterator<Item = (String, String)>) -> (String, FlatRanges) {
    let mut out = String::from("[");
    let mut ranges = BTreeMap::new();
    for (name, block) in blocks.filter(|(_, block)| !block.is_empty()) {
        if out.len() > 1 {
            out.push(',');
        }
        ranges.insert(name, (out.len(), out.len() + block.len()));
        out.push_str(&block);
    }
    out.push(']');
    (out, ranges)
}

/// An encyclopedia entry as the index sees it: its aliases count as tags.
pub fn entry_doc(entry: &Entry) -> SearchDoc {
    let mut doc = search_doc(&entry.record);
    doc.tags.extend(entry.aliases.iter().cloned());
    doc
}

/// A record or entry as the index sees it, from its JSON as the API gives it (a rebuild reads the
/// records it did not load again so): the same document [`search_doc`] and [`entry_doc`] make.
pub fn doc_of_json(item: &Value) -> SearchDoc {
    let text = |key: &str| item[key].as_str().unwrap_or_default().to_string();
    let list = |key: &str| -> Vec<String> {
        item[key].as_array().into_iter().flatten().filter_map(Value::as_str).map(str::to_string).collect()
    };
    let mut tags = list("tags");
    if text("collection") == ENCYCLOPEDIA {
        tags.extend(list("aliases"));
    }
    SearchDoc {
        collection: text("collection"),
        id: text("id"),
        slug: text("slug"),
        url: text("url"),
        title: text("title"),
        summary: text("summary"),
        tags,
        body: text("body"),
        facts: item.as_object().map(facts).unwrap_or_default(),
        language: text("language"),
    }
}

/// A record or an encyclopedia entry, as it goes into the index.
#[derive(Clone, Copy)]
enum Indexed<'a> {
    Record(&'a Record),
    Entry(&'a Entry),
    /// A record on the build's shelf, with its card.
    Shelved(&'a Card, Place),
    /// An entry on the build's shelf, with its card.
    ShelvedEntry(&'a Card, Place),
}

impl<'a> Indexed<'a> {
    /// What the index is ordered and cut by: its collection and id.
    fn key(self) -> (&'a str, &'a str) {
        match self {
            Indexed::Record(record) | Indexed::Entry(Entry { record, .. }) => (&record.collection, &record.id),
            Indexed::Shelved(card, _) | Indexed::ShelvedEntry(card, _) => (&card.collection, &card.id),
        }
    }

    fn doc(self, shelved: Option<&Shelved>) -> Result<SearchDoc> {
        Ok(match self {
            Indexed::Record(record) => search_doc(record),
            Indexed::Entry(entry) => entry_doc(entry),
            Indexed::Shelved(_, place) => search_doc(&shelf(shelved)?.get(place)?),
            Indexed::ShelvedEntry(_, place) => entry_doc(&shelf(shelved)?.get(place)?),
        })
    }
}

/// The shelf of a build whose records are on one.
fn shelf(shelved: Option<&Shelved>) -> Result<&crate::load::shelf::Shelf> {
    Ok(&shelved.context("a shelved record without its shelf")?.shelf)
}

/// What the static search is made from once the build knows its help page and strings
/// ([`find_files`]): the index's manifest and segments, and the flat index.
pub struct Written {
    /// The segments' metadata, in plan order.
    pub metas: Vec<SegmentMeta>,
    /// Each segment's bytes, in the same order.
    pub segments: Vec<Vec<u8>>,
    /// `/api/search-index.json`.
    pub flat: Vec<u8>,
}

/// Writes the index's segment files, its manifest and the flat index (records and encyclopedia
/// entries) into `files`, and gives each collection's range in the flat index. The segments are
/// made a few at a time, each from its own documents, so the text of every record is never
/// copied at once.
pub fn put(content: &Content, model: &Model, files: &mut Outputs) -> Result<(FlatRanges, Written)> {
    let shelved = content.shelved.as_deref();
    let mut items: Vec<Indexed> = Vec::with_capacity(model.record_count() + model.entries.len());
    for (name, records) in &content.collections {
        items.extend(records.iter().map(Indexed::Record));
        if let Some(shelved) = shelved {
            let places = shelved.places.get(name).map_or(&[][..], Vec::as_slice);
            items.extend(model.cards(name).iter().zip(places).map(|(card, place)| Indexed::Shelved(card, *place)));
        }
    }
    items.extend(content.entries.iter().map(Indexed::Entry));
    if let Some(shelved) = shelved {
        items.extend(
            model.entries.iter().zip(&shelved.entries).map(|(card, place)| Indexed::ShelvedEntry(card, *place)),
        );
    }
    let groups = split_by(items, |item| item.key());
    let mut metas = Vec::with_capacity(groups.len());
    let mut bytes = Vec::with_capacity(groups.len());
    for at_once in groups.chunks(rayon::current_num_threads().max(1)) {
        let docs: Vec<Vec<SearchDoc>> = at_once
            .iter()
            .map(|group| group.par_iter().map(|item| item.doc(shelved)).collect::<Result<_>>())
            .collect::<Result<_>>()?;
        let segments = build_all(docs)?;
        metas.extend(segments.iter().map(Segment::meta));
        bytes.extend(segments.iter().map(Segment::bytes));
        files.extend(segment_files(&segments));
    }
    files.push(manifest_file(&metas));
    let (flat, ranges) = flat_index(blocks(model).map(|(name, cards)| (name, block(cards))));
    files.push(OutFile::at("/api/search-index.json", flat.clone().into_bytes())?.in_group(Group::Search));
    Ok((ranges, Written { metas, segments: bytes, flat: flat.into_bytes() }))
}

/// The static search's files (`portal_core::search::offline`), made from the index just written,
/// the help page and the strings of `manifest`.
pub fn find_files(indexed: Written, manifest: &Manifest) -> Result<Vec<OutFile>> {
    let docs: usize = indexed.metas.iter().map(|meta| meta.docs as usize).sum();
    if docs > offline::MAX_DOCS {
        return Ok(Vec::new());
    }
    let pack: PackManifest = serde_json::from_slice(&index_manifest(&indexed.metas))?;
    let index = SearchIndex::open(&pack, indexed.segments).context("opening the index for the static search")?;
    let site = offline::Site {
        config: &manifest.site,
        help: manifest.help.as_ref(),
        strings: &manifest.strings,
        flat: &indexed.flat,
    };
    let made = offline::files(&index, &site).context("making the static search")?;
    made.into_iter()
        .map(|(file, bytes)| {
            let media = portal_core::http::media::of_file(&file);
            Ok(OutFile::served(format!("/{file}"), file, media, bytes).in_group(Group::Search))
        })
        .collect()
}

/// The segments of `groups` (the documents of each, see `split`), built in parallel.
pub fn build_all(groups: Vec<Vec<SearchDoc>>) -> Result<Vec<Segment>> {
    let segments: std::result::Result<Vec<Segment>, _> = groups.into_par_iter().map(build_segment).collect();
    segments.context("building the search index")
}

/// The files of `segments`.
pub fn segment_files(segments: &[Segment]) -> Vec<OutFile> {
    segments.iter().map(|s| OutFile::internal(s.meta().file(), s.bytes()).in_group(Group::Search)).collect()
}

/// The index's manifest for segments `metas`, in plan order.
pub fn manifest_file(metas: &[SegmentMeta]) -> OutFile {
    OutFile::internal(INDEX_MANIFEST, index_manifest(metas)).in_group(Group::Search)
}
