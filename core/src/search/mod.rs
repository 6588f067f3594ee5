//! Full-text search over every record and encyclopedia entry (docs/spec/api-spec.md#search).
//!
//! A tantivy index of independent segments, each holding documents of one collection
//! ([`plan`](mod@plan)), written by `portal build` ([`writer`]), carried through `dist/` as one
//! file per segment plus a manifest ([`pack`]), and opened read-only from those bytes by `portal
//! serve` and by the Worker alike ([`SearchIndex`]), so both answer every query identically.
//! Queries mean what [`query::matching`] says and run on [`matching`], within [`limits`].

pub mod arabic;
pub mod collector;
pub mod excerpt;
pub mod facts;
pub mod forgiving;
pub mod known;
pub mod lexicon;
pub mod limits;
pub mod matching;
pub mod word_forms;
// Made by `portal build` only, never in the Worker.
#[cfg(not(target_arch = "wasm32"))]
pub mod offline;
pub mod pack;
pub mod plan;
pub mod query;
pub mod safety;
pub mod schema;
pub mod shown;
pub mod stopwords;
pub mod synonyms;
pub mod writer;

pub use self::pack::{index_manifest, SegmentMeta};
pub use self::plan::plan;
pub use self::writer::{build, build_segment, Segment};

use tantivy::schema::document::{DeserializeError, DocumentDeserialize, DocumentDeserializer};
use tantivy::{DocAddress, Index, ReloadPolicy, Searcher};

use self::collector::Bucket;
use self::matching::{Engine, Leniency};
use self::pack::{PackManifest, SegmentDirectory};
use self::schema::{register, schema, Fields};

/// One search hit (docs/spec/api-spec.md#search).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Hit {
    /// The record's slug.
    pub slug: String,
    /// Its title.
    pub title: String,
    /// Its collection (`entries` for the encyclopedia).
    pub collection: String,
    /// The site-relative URL of its page.
    pub url: String,
}

/// Why the index could not be opened or searched; the message names the step and the cause, for
/// the operator's log (clients only ever see a 500).
#[derive(Debug)]
pub enum SearchError {
    /// The segment files do not match their manifest.
    Pack(pack::PackError),
    /// tantivy failed at `step` (opening, reading, searching, loading a hit).
    Engine {
        /// What was being done.
        step: &'static str,
        /// tantivy's error.
        cause: tantivy::TantivyError,
    },
    /// The index is not laid out as the writer lays it out (one collection per segment, as the
    /// manifest says).
    Layout(String),
}

impl std::fmt::Display for SearchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SearchError::Pack(e) => write!(f, "the search index is damaged: {e}"),
            SearchError::Engine { step, cause } => write!(f, "{step}: {cause}"),
            SearchError::Layout(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for SearchError {}

impl From<pack::PackError> for SearchError {
    fn from(e: pack::PackError) -> Self {
        SearchError::Pack(e)
    }
}

/// Tags a tantivy error with the step that failed.
fn engine(step: &'static str) -> impl FnOnce(tantivy::TantivyError) -> SearchError {
    move |cause| SearchError::Engine { step, cause }
}

/// An open, read-only index.
pub struct SearchIndex {
    searcher: Searcher,
    engine: Engine,
    /// The records' languages, each once (see [`schema::Fields::language`]).
    languages: Vec<String>,
}

/// Blocks of stored documents kept decompressed, per segment. Only the hit fields are stored (about
/// 120 bytes a document), so 128 blocks of 16 KiB hold every hit of the largest segment once warm.
const DOC_STORE_CACHE_BLOCKS: usize = 128;

impl std::fmt::Debug for SearchIndex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "SearchIndex({} documents in {} segments)", self.searcher.num_docs(), self.engine.segments().len())
    }
}

impl SearchIndex {
    /// Opens the index from its manifest and the bytes of its segment files, in manifest order.
    pub fn open(manifest: &PackManifest, segments: Vec<Vec<u8>>) -> Result<Self, SearchError> {
        if serde_json::to_value(schema().0).ok().as_ref() != manifest.meta.get("schema") {
            return Err(SearchError::Layout(
                "the search index was written with another schema (by another version of portal): build the site again"
                    .into(),
            ));
        }
        let directory = SegmentDirectory::new(manifest, segments)?;
        let index = Index::open(directory).map_err(engine("opening the search index"))?;
        register(&index);
        let reader = index
            .reader_builder()
            .reload_policy(ReloadPolicy::Manual)
            .doc_store_cache_num_blocks(DOC_STORE_CACHE_BLOCKS)
            .try_into()
            .map_err(engine("reading the search index"))?;
        let searcher = reader.searcher();
        let fields = schema().1;
        let collections = segment_collections(&searcher, &fields, manifest)?;
        let languages = languages(&searcher, &fields)?;
        let engine = Engine::new(&searcher, &fields, collections).map_err(engine("reading the search index"))?;
        Ok(SearchIndex { searcher, engine, languages })
    }

    /// The top `limit` hits of `words` in `collection`, best first (ties by id), and how many
    /// documents matched in all.
    pub fn search(&self, words: &[String], collection: &str, limit: usize) -> Result<(Vec<Hit>, usize), SearchError> {
        let mut results = self.search_collections(words, &[collection.to_string()], limit)?;
        Ok(results.pop().unwrap_or_default())
    }

    /// [`SearchIndex::search`] for several collections at once, in one pass over the matches:
    /// one `(hits, total)` per collection of `collections`, in that order.
    pub fn search_collections(
        &self,
        words: &[String],
        collections: &[String],
        limit: usize,
    ) -> Result<Vec<(Vec<Hit>, usize)>, SearchError> {
        self.search_lenient(words, &Leniency::STRICT, collections, limit)
    }

    /// The ranked matches per collection of `collections` under `leniency` (a name given twice
    /// gets the same).
    pub(crate) fn rank_with(
        &self,
        words: &[String],
        leniency: &Leniency,
        collections: &[String],
        limit: usize,
    ) -> Result<Vec<Bucket>, SearchError> {
        let first = |name: &String| collections.iter().position(|c| c == name);
        let buckets: Vec<Option<usize>> = self.engine.segments().iter().map(|s| first(&s.collection)).collect();
        let found = self
            .engine
            .search_with(words, leniency, &buckets, collections.len(), limit)
            .map_err(engine("searching"))?;
        Ok(collections.iter().map(|name| first(name).map(|i| found[i].clone()).unwrap_or_default()).collect())
    }

    /// [`SearchIndex::search_collections`] under `leniency` (the search page's rules).
    pub fn search_lenient(
        &self,
        words: &[String],
        leniency: &Leniency,
        collections: &[String],
        limit: usize,
    ) -> Result<Vec<(Vec<Hit>, usize)>, SearchError> {
        let buckets = self.rank_with(words, leniency, collections, limit)?;
        buckets
            .into_iter()
            .map(|bucket| {
                let hits = bucket.top.iter().map(|r| self.hit(r.address)).collect::<Result<_, _>>()?;
                Ok((hits, bucket.total))
            })
            .collect()
    }

    /// The languages the records name, each once, in byte order.
    pub fn languages(&self) -> &[String] {
        &self.languages
    }

    /// Per segment, whether its collection is one of `collections`.
    fn wanted(&self, collections: &[String]) -> Vec<bool> {
        self.engine.segments().iter().map(|s| collections.contains(&s.collection)).collect()
    }

    pub(crate) fn hit(&self, address: DocAddress) -> Result<Hit, SearchError> {
        let StoredHit(mut hit) = self.searcher.doc(address).map_err(engine("reading a hit"))?;
        let segment = self.engine.segments().get(address.segment_ord as usize);
        hit.collection = segment.map(|s| s.collection.clone()).unwrap_or_default();
        Ok(hit)
    }
}

/// A hit read straight from its one stored value ([`schema::hit_value`]; the collection is its
/// segment's), without building a whole document first.
struct StoredHit(Hit);

impl DocumentDeserialize for StoredHit {
    fn deserialize<'de, D: DocumentDeserializer<'de>>(mut document: D) -> Result<Self, DeserializeError> {
        let mut hit = Hit { slug: String::new(), title: String::new(), collection: String::new(), url: String::new() };
        while let Some((_, value)) = document.next_field::<String>()? {
            if let Some((slug, url, title)) = schema::parse_hit_value(&value) {
                hit = Hit { slug: slug.into(), title: title.into(), collection: String::new(), url: url.into() };
            }
        }
        Ok(StoredHit(hit))
    }
}

/// Each segment's collection, read from its `collection` terms: exactly one, the one the manifest
/// names, or the index is refused rather than searched wrongly.
fn segment_collections(
    searcher: &Searcher,
    fields: &Fields,
    manifest: &PackManifest,
) -> Result<Vec<String>, SearchError> {
    let readers = searcher.segment_readers();
    if readers.len() != manifest.segments.len() {
        return Err(SearchError::Layout(format!(
            "the search index has {} segments, its manifest lists {}",
            readers.len(),
            manifest.segments.len()
        )));
    }
    let mut collections = Vec::with_capacity(readers.len());
    for (reader, meta) in readers.iter().zip(&manifest.segments) {
        let inverted = reader.inverted_index(fields.collection).map_err(engine("reading the collections"))?;
        let mut terms = inverted.terms().stream().map_err(|e| engine("reading the collections")(e.into()))?;
        let mut names = Vec::new();
        while terms.advance() {
            names.push(String::from_utf8_lossy(terms.key()).into_owned());
        }
        if names != [meta.collection.as_str()] {
            return Err(SearchError::Layout(format!(
                "segment {} of the search index holds {names:?}, its manifest says {}",
                meta.id, meta.collection
            )));
        }
        collections.push(meta.collection.clone());
    }
    Ok(collections)
}

/// The languages of the records (the terms of the `language` field of every segment), each once.
fn languages(searcher: &Searcher, fields: &Fields) -> Result<Vec<String>, SearchError> {
    let mut languages = std::collections::BTreeSet::new();
    for reader in searcher.segment_readers() {
        let inverted = reader.inverted_index(fields.language).map_err(engine("reading the languages"))?;
        let mut terms = inverted.terms().stream().map_err(|e| engine("reading the languages")(e.into()))?;
        while terms.advance() {
            languages.insert(String::from_utf8_lossy(terms.key()).into_owned());
        }
    }
    Ok(languages.into_iter().collect())
}

#[cfg(test)]
mod tests;
