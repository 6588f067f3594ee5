//! Full-text search over every record and encyclopedia entry (spec 4.2, decision D4).
//!
//! One tantivy index, written by `portal build` ([`writer`]), carried through `dist/` as chunk files
//! ([`pack`]), and opened read-only from those bytes by `portal serve` and by the Worker alike
//! ([`SearchIndex`]), so both answer every query identically.

pub mod collector;
pub mod pack;
pub mod query;
pub mod schema;
pub mod writer;

use std::collections::HashMap;
use std::ops::Range;

use tantivy::schema::{IndexRecordOption, Value};
use tantivy::{
    DocAddress, DocId, DocSet, Index, IndexReader, ReloadPolicy, Searcher, TantivyDocument, Term, TERMINATED,
};

use self::collector::PerCollection;

use self::pack::{BlobDirectory, PackManifest};
use self::schema::{register, schema, Fields};

/// One search hit (spec 2.3).
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
    /// The packed chunks do not match their manifest.
    Pack(pack::PackError),
    /// tantivy failed at `step` (opening, reading, searching, loading a hit).
    Engine {
        /// What was being done.
        step: &'static str,
        /// tantivy's error.
        cause: tantivy::TantivyError,
    },
    /// The index is not laid out as the writer lays it out (one merged segment).
    Layout(&'static str),
}

impl std::fmt::Display for SearchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SearchError::Pack(e) => write!(f, "the packed search index is damaged: {e}"),
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
    reader: IndexReader,
    fields: Fields,
    /// Each collection's contiguous document-id range in the single segment.
    ranges: HashMap<String, Range<DocId>>,
}

/// Blocks of stored documents kept decompressed. Only the hit fields are stored (about 120 bytes a
/// document), so 1024 blocks of 16 KiB hold every hit of 100k records once warm.
const DOC_STORE_CACHE_BLOCKS: usize = 1024;

impl std::fmt::Debug for SearchIndex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "SearchIndex({} documents)", self.reader.searcher().num_docs())
    }
}

impl SearchIndex {
    /// Opens the packed index from its manifest and the concatenated chunk bytes.
    pub fn open(manifest: &PackManifest, blob: Vec<u8>) -> Result<Self, SearchError> {
        let directory = BlobDirectory::new(manifest, blob)?;
        let index = Index::open(directory).map_err(engine("opening the search index"))?;
        register(&index);
        let reader = index
            .reader_builder()
            .reload_policy(ReloadPolicy::Manual)
            .doc_store_cache_num_blocks(DOC_STORE_CACHE_BLOCKS)
            .try_into()
            .map_err(engine("reading the search index"))?;
        let fields = schema().1;
        let ranges = collection_ranges(&reader.searcher(), &fields)?;
        Ok(SearchIndex { reader, fields, ranges })
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
        if words.is_empty() {
            return Ok(vec![(Vec::new(), 0); collections.len()]);
        }
        let ranges = collections.iter().map(|c| self.ranges.get(c).cloned().unwrap_or(0..0)).collect();
        let searcher = self.reader.searcher();
        let query = query::matching(&self.fields, words);
        let buckets = searcher.search(&query, &PerCollection { ranges, limit }).map_err(engine("searching"))?;
        buckets
            .into_iter()
            .map(|bucket| {
                let hits = bucket.top.iter().map(|r| self.hit(&searcher, r.doc)).collect::<Result<_, _>>()?;
                Ok((hits, bucket.total))
            })
            .collect()
    }

    fn hit(&self, searcher: &Searcher, doc: DocId) -> Result<Hit, SearchError> {
        let document: TantivyDocument = searcher.doc(DocAddress::new(0, doc)).map_err(engine("reading a hit"))?;
        let text = |field| document.get_first(field).and_then(|v| v.as_str()).unwrap_or_default().to_string();
        Ok(Hit {
            slug: text(self.fields.slug),
            title: text(self.fields.title),
            collection: text(self.fields.collection),
            url: text(self.fields.url),
        })
    }
}

/// Each collection's document-id range, read once from the `collection` postings. The writer adds
/// documents sorted by collection into one segment, so each range is contiguous; anything else
/// is refused rather than searched wrongly.
fn collection_ranges(searcher: &Searcher, fields: &Fields) -> Result<HashMap<String, Range<DocId>>, SearchError> {
    let mut ranges = HashMap::new();
    let segment = match searcher.segment_readers() {
        [] => return Ok(ranges),
        [segment] => segment,
        _ => return Err(SearchError::Layout("the search index must be one merged segment")),
    };
    let inverted = segment.inverted_index(fields.collection).map_err(engine("reading the collections"))?;
    let names = crate::collections::COLLECTIONS.iter().copied().chain([crate::collections::ENCYCLOPEDIA]);
    for name in names {
        let term = Term::from_field_text(fields.collection, name);
        let Some(mut postings) = inverted
            .read_postings(&term, IndexRecordOption::Basic)
            .map_err(|e| engine("reading a collection")(e.into()))?
        else {
            continue;
        };
        let start = postings.doc();
        let mut end = start;
        while postings.doc() != TERMINATED {
            if postings.doc() != end {
                return Err(SearchError::Layout(
                    "the documents of a collection are not contiguous in the search index",
                ));
            }
            end += 1;
            postings.advance();
        }
        ranges.insert(name.to_string(), start..end);
    }
    Ok(ranges)
}

#[cfg(test)]
mod tests {
    use super::writer::{build, SearchDoc};
    use super::*;

    fn doc(collection: &str, id: &str, title: &str, body: &str) -> SearchDoc {
        SearchDoc {
            collection: collection.into(),
            id: id.into(),
            slug: id.into(),
            url: format!("/{collection}/{id}"),
            title: title.into(),
            body: body.into(),
            ..SearchDoc::default()
        }
    }

    fn index(docs: Vec<SearchDoc>) -> SearchIndex {
        let files = build(docs).expect("index builds");
        let (manifest, chunks) = pack::pack(&files);
        let blob: Vec<u8> = chunks.into_iter().flat_map(|(_, bytes)| bytes).collect();
        SearchIndex::open(&manifest, blob).expect("index opens")
    }

    fn ids(index: &SearchIndex, q: &str, collection: &str) -> Vec<String> {
        let words = schema::words(q);
        index.search(&words, collection, 10).expect("search").0.into_iter().map(|h| h.slug).collect()
    }

    #[test]
    fn accents_case_prefix_and_and() {
        let index = index(vec![
            doc("services", "cafe", "Café Amani", "Tea and language lessons"),
            doc("services", "clinic", "Health clinic", "Open daily for vaccinations"),
            doc("services", "water", "Water point", "Clean water at the cafe corner"),
        ]);
        assert_eq!(ids(&index, "CAFE", "services"), ["cafe", "water"]);
        assert_eq!(ids(&index, "vacc", "services"), ["clinic"]);
        assert_eq!(ids(&index, "clean cafe", "services"), ["water"]);
        assert!(ids(&index, "clean vaccinations", "services").is_empty());
        assert!(ids(&index, "cafe", "news").is_empty());
    }

    #[test]
    fn a_title_match_ranks_above_a_body_match_and_ties_go_by_id() {
        let index = index(vec![
            doc("news", "b-body", "Market news", "The borehole is repaired"),
            doc("news", "a-title", "Borehole repaired", "Good news for zone B"),
            doc("news", "d-same", "Same", "identical words here"),
            doc("news", "c-same", "Same", "identical words here"),
        ]);
        assert_eq!(ids(&index, "borehole", "news"), ["a-title", "b-body"]);
        assert_eq!(ids(&index, "identical", "news"), ["c-same", "d-same"]);
    }

    #[test]
    fn the_same_documents_give_the_same_bytes() {
        let docs = vec![doc("news", "a", "One", "x"), doc("news", "b", "Two", "y")];
        let first = build(docs.clone()).expect("first");
        assert!(first == build(docs).expect("second"), "index bytes differ between two builds");
        assert!(first.iter().any(|(name, _)| name == "meta.json"));
    }
}
