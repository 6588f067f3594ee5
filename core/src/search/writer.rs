//! Building the index (in `portal build`, natively: writing spawns threads, which wasm cannot).
//!
//! The index is a list of independent segments ([`super::plan`](mod@super::plan)): each one a
//! single-segment tantivy index of its documents, written by tantivy's `SingleSegmentIndexWriter`
//! (one segment, no merge, no writer threads; tantivy is pinned, see the workspace `Cargo.toml`),
//! named by a hash of its documents and of the format, so the same documents always give the same
//! bytes under the same name and a build can keep a segment whose documents did not change.
//! Building segments in parallel is the caller's affair (`portal build` uses rayon).

use tantivy::directory::{Directory, RamDirectory};
use tantivy::{doc, Index, SingleSegmentIndexWriter, TantivyDocument, TantivyError};

use super::pack::{SegmentMeta, MAX_SEGMENT_BYTES};
use super::plan::plan;
use super::schema::{hit_value, register, schema, ANALYZER, PREFIX_ANALYZER};

/// One record or encyclopedia entry as the index sees it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SearchDoc {
    /// Collection name (`entries` for the encyclopedia).
    pub collection: String,
    /// Record id.
    pub id: String,
    /// Slug.
    pub slug: String,
    /// Site-relative URL of its page.
    pub url: String,
    /// Title.
    pub title: String,
    /// Summary.
    pub summary: String,
    /// Tags (and aliases).
    pub tags: Vec<String>,
    /// Markdown body.
    pub body: String,
    /// The rest of its front matter's text ([`super::facts::facts`]).
    pub facts: String,
    /// The record's `language`, empty when it names none (then the site's).
    pub language: String,
}

/// One built segment: a tantivy index of the documents of one range of the plan.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Segment {
    /// Its id (32 hex digits): a hash of its documents and of [`FORMAT`], also tantivy's segment id.
    pub id: String,
    /// The collection of all its documents.
    pub collection: String,
    /// How many documents it holds.
    pub docs: u32,
    /// Its tantivy files (`<id>.idx`, `<id>.term`...), sorted by name.
    pub files: Vec<(String, Vec<u8>)>,
}

impl Segment {
    /// What the index manifest says of it (no bytes): see [`super::pack::index_manifest`].
    pub fn meta(&self) -> SegmentMeta {
        let mut files = Vec::with_capacity(self.files.len());
        let mut at = 0;
        for (name, bytes) in &self.files {
            files.push((name.clone(), at..at + bytes.len()));
            at += bytes.len();
        }
        SegmentMeta { id: self.id.clone(), collection: self.collection.clone(), docs: self.docs, files }
    }

    /// The contents of its file in the build folder ([`SegmentMeta::file`]): its tantivy files
    /// concatenated in order.
    pub fn bytes(&self) -> Vec<u8> {
        let mut bytes = Vec::with_capacity(self.files.iter().map(|(_, b)| b.len()).sum());
        for (_, file) in &self.files {
            bytes.extend_from_slice(file);
        }
        bytes
    }
}

/// What the bytes of a segment depend on besides its documents; part of every segment id, so a
/// change here renames every segment and no build reuses a segment written another way. Change it
/// with the writer's settings, the analyzer or the tantivy version (the schema is hashed too).
pub const FORMAT: &str = "portal search segment 2 (facts, Arabic folding); tantivy 0.27.0; lz4; single-segment writer";

/// The memory budget given to the writer, which writes one segment whatever it holds: the budget
/// only sizes its term hash table (a third of it), which grows as needed. The smallest tantivy
/// accepts: a larger table is allocated, cleared and walked whole for every segment, which for small
/// segments cost more than the indexing.
const WRITER_MEMORY: usize = 15_000_000;

/// FNV-1a, 128 bits, fed with length-prefixed fields, for segment ids.
struct Fnv128(u128);

impl Fnv128 {
    fn new() -> Self {
        Fnv128(0x6c62_272e_07bb_0142_62b8_2175_6295_c58d)
    }

    fn bytes(&mut self, bytes: &[u8]) {
        for &byte in (bytes.len() as u64).to_le_bytes().iter().chain(bytes) {
            self.0 = (self.0 ^ u128::from(byte)).wrapping_mul(0x0000_0000_0100_0000_0000_0000_0000_013b);
        }
    }
}

/// The id of a segment of `docs`: a hash of the format, the schema and every field of every
/// document, in order. Not a cryptographic hash: content is the site's own.
pub fn segment_id(docs: &[SearchDoc]) -> String {
    let mut hash = Fnv128::new();
    hash.bytes(FORMAT.as_bytes());
    hash.bytes(ANALYZER.as_bytes());
    hash.bytes(PREFIX_ANALYZER.as_bytes());
    hash.bytes(serde_json::to_string(&schema().0).unwrap_or_default().as_bytes());
    for d in docs {
        for field in [&d.collection, &d.id, &d.slug, &d.url, &d.title, &d.summary] {
            hash.bytes(field.as_bytes());
        }
        hash.bytes(&(d.tags.len() as u64).to_le_bytes());
        for tag in &d.tags {
            hash.bytes(tag.as_bytes());
        }
        hash.bytes(d.body.as_bytes());
        hash.bytes(d.facts.as_bytes());
        hash.bytes(d.language.as_bytes());
    }
    format!("{:032x}", hash.0)
}

fn sort(docs: &mut [SearchDoc]) {
    docs.sort_by(|a, b| (&a.collection, &a.id).cmp(&(&b.collection, &b.id)));
}

/// The documents of each segment of the plan: `docs` sorted by `(collection, id)`, then cut as
/// [`plan`] says. Building each group with [`build_segment`] (in any order, in parallel) gives
/// [`build`]'s segments.
pub fn split(docs: Vec<SearchDoc>) -> Vec<Vec<SearchDoc>> {
    split_by(docs, |d| (d.collection.as_str(), d.id.as_str()))
}

/// [`split`] of anything a document is made from, by its `(collection, id)`: a build makes each
/// segment's documents only when it builds the segment, rather than all of them at once.
pub fn split_by<T>(mut items: Vec<T>, key: impl Fn(&T) -> (&str, &str)) -> Vec<Vec<T>> {
    items.sort_by(|a, b| key(a).cmp(&key(b)));
    let keys: Vec<(&str, &str)> = items.iter().map(&key).collect();
    let sizes: Vec<usize> = plan(&keys).into_iter().map(|range| range.len()).collect();
    let mut rest = items.into_iter();
    sizes.into_iter().map(|size| rest.by_ref().take(size).collect()).collect()
}

/// Indexes `docs` (sorted or not) into the segments of the plan, in order.
pub fn build(docs: Vec<SearchDoc>) -> tantivy::Result<Vec<Segment>> {
    split(docs).into_iter().map(build_segment).collect()
}

/// One segment of exactly `docs`, all of one collection (sorted by id here if they are not): the
/// same documents give the same bytes and the same id.
pub fn build_segment(mut docs: Vec<SearchDoc>) -> tantivy::Result<Segment> {
    let Some(first) = docs.first() else {
        return Err(TantivyError::InvalidArgument("a search segment needs at least one document".into()));
    };
    let collection = first.collection.clone();
    if let Some(other) = docs.iter().find(|d| d.collection != collection) {
        return Err(TantivyError::InvalidArgument(format!(
            "a search segment holds one collection; {} is in {}, not {collection}",
            other.id, other.collection
        )));
    }
    sort(&mut docs);
    let id = segment_id(&docs);
    let count = docs.len();
    let (first_id, last_id) = (docs[0].id.clone(), docs[count - 1].id.clone());
    let (schema, fields) = schema();
    // The analyzers, registered on a throwaway index for the builder to take.
    let template = Index::create_in_ram(schema.clone());
    register(&template);
    let builder = Index::builder().schema(schema).tokenizers(template.tokenizers().clone());
    let mut writer: SingleSegmentIndexWriter<TantivyDocument> =
        builder.single_segment_index_writer(RamDirectory::create(), WRITER_MEMORY)?;
    for d in docs {
        let tags = d.tags.join(" ");
        let mut document = doc!(
            fields.collection => d.collection,
            fields.hit => hit_value(&d.slug, &d.url, &d.title),
        );
        for (twin, text) in fields.prefixes.into_iter().zip([&d.title, &d.summary, &tags, &d.body, &d.facts]) {
            document.add_text(twin, text);
        }
        document.add_text(fields.title, d.title);
        document.add_text(fields.summary, d.summary);
        document.add_text(fields.tags, tags);
        document.add_text(fields.body, d.body);
        document.add_text(fields.facts, d.facts);
        if !d.language.is_empty() {
            document.add_text(fields.language, d.language);
        }
        writer.add_document(document)?;
    }
    let index = writer.finalize()?;
    let files = collect_files(&index, &id, count)?;
    let size: usize = files.iter().map(|(_, bytes)| bytes.len()).sum();
    if size > MAX_SEGMENT_BYTES {
        return Err(TantivyError::InvalidArgument(format!(
            "the search segment of {collection} from {first_id} to {last_id} ({count} documents) takes {size} bytes, \
             over the {MAX_SEGMENT_BYTES} a static asset may have"
        )));
    }
    Ok(Segment { id, collection, docs: count as u32, files })
}

/// The files of the index's one segment, renamed from tantivy's random id to `id`.
fn collect_files(index: &Index, id: &str, docs: usize) -> tantivy::Result<Vec<(String, Vec<u8>)>> {
    let metas = index.load_metas()?;
    let [segment] = metas.segments.as_slice() else {
        return Err(TantivyError::InternalError(format!(
            "a search segment was written as {} tantivy segments",
            metas.segments.len()
        )));
    };
    if segment.max_doc() as usize != docs {
        return Err(TantivyError::InternalError(format!(
            "a search segment of {docs} documents was written with {}",
            segment.max_doc()
        )));
    }
    let original = segment.id().uuid_string();
    let directory = index.directory();
    let mut files = Vec::new();
    for path in directory.list_managed_files() {
        let name = path.to_string_lossy().into_owned();
        let Some(extension) = name.strip_prefix(original.as_str()) else { continue };
        if !directory.exists(&path)? {
            continue;
        }
        files.push((format!("{id}{extension}"), directory.atomic_read(&path)?));
    }
    files.sort();
    Ok(files)
}
