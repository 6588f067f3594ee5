//! The static search (docs/spec/api-spec.md#static-search): the search page's index as small
//! files a browser searches without a server, on a plain static host, in a snapshot or offline,
//! with the search page's rules ([`super::forgiving`], `handlers::search_page`).
//!
//! Made by `portal build` from the index it has just written, so the numbers are the server's:
//! - `find/index.json`, the manifest: the collections and which documents are theirs, the stop
//!   words, help words and help page, the weights, the page's strings and where every group of
//!   [`GROUP_CHUNKS`] chunks starts; `find/<kind>s/<g>.json` where each chunk of group `g` starts.
//! - `find/t/<n>.json`, the words, split in ranges of at most about [`CHUNK_BYTES`]: each folded
//!   word that the index, the word lists ([`super::known`]) or the synonyms know maps to its
//!   postings (per document: in which fields it is, and its BM25 score summed over them, computed
//!   here as [`super::matching`] computes it), its other forms in the index ([`super::word_forms`],
//!   stemmed here: the browser needs no stemmer) and its other words ([`super::synonyms`]); a
//!   prefix of at most [`PREFIX_ENTRY_CHARS`] characters also maps to the documents with a word
//!   that starts with it (in which fields), as the index's prefix twins do.
//! - `find/v/<n>.json` the index's words with how many documents have them (for typos, ordered by
//!   `vocabulary_key`),
//!   `find/k/<n>.json` the word lists (a word of a language is never corrected), `find/d/<n>.json`
//!   what a hit shows ([`DOCS_PER_FRAGMENT`] documents a file), `find/l/<collection>.json` the
//!   first records of a collection a query names.
//!
//! A query fetches the manifest, per word a group's starts and the word's chunk (which holds its
//! forms and other words too), and the fragments of the hits shown: at most 100 KB at
//! [`MAX_DOCS`] (BENCHMARKS.md, "Search without a server").

use std::collections::{BTreeMap, BTreeSet, HashMap};

use rayon::prelude::*;
use serde_json::{json, Map, Value};
use tantivy::postings::Postings;
use tantivy::query::Bm25Weight;
use tantivy::schema::IndexRecordOption;
use tantivy::{DocAddress, DocSet, TERMINATED};

use super::known;
use super::query::PREFIX_DISCOUNT;
use super::safety::HelpWords;
use super::schema::{schema, words, WEIGHTS};
use super::stopwords::stop_words;
use super::{engine, SearchError, SearchIndex};
use crate::content::collections::{COLLECTIONS, ENCYCLOPEDIA};
use crate::content::i18n::Strings;
use crate::content::{HelpPage, SiteConfig};

/// The folder of the static search in `dist/`, and its URL path.
pub const DIR: &str = "find";

/// The manifest's file (see the module's documentation).
pub const MANIFEST: &str = "find/index.json";

/// The most documents (records and entries) a static search is made for: a site of 10,000
/// records with an encyclopedia of a tenth as many entries. It is made in memory from the whole
/// index (about 15 KiB a document at the build's peak), and a rebuild makes it again, so a bigger
/// site publishes none and its `search.html` needs the live site
/// (docs/api.md#search-without-a-server).
pub const MAX_DOCS: usize = 12_000;

/// The most bytes a chunk of words is made of, but for one word whose postings alone are more: a
/// query reads a chunk per word, so the smaller the fewer bytes it reads, but the more files.
pub const CHUNK_BYTES: usize = 8 * 1024;

/// The most bytes a file of the index's words (for typos) or of the word lists is made of: a typo
/// reads a few of them (its first letter's words of about its length) and one list.
pub const LIST_BYTES: usize = 4 * 1024;

/// Chunks per group: the manifest holds where each group of chunks starts, and `find/<kind>s/<g>.json`
/// where each chunk of group `g` starts (chunk `g * GROUP_CHUNKS + i` starts at its `i`th), so the
/// manifest stays small however many chunks there are.
pub const GROUP_CHUNKS: usize = 64;

/// Prefixes up to this many characters have an entry of their own (the documents of every word
/// they start): a longer last word is matched by the words of its chunk.
pub const PREFIX_ENTRY_CHARS: usize = 3;

/// Hits a fragment file holds: one, as the hits a page shows are scattered over the documents
/// (at 10,000 records, 8 a file made a query read about 60 files of 1.5 KB for 20 hits' worth).
pub const DOCS_PER_FRAGMENT: usize = 1;

/// The version of the files' layout, which the browser's script checks (2: chunks' starts in two
/// levels).
pub const FORMAT: u32 = 2;

/// The most records of a collection a query names that the page lists (as the server's page).
const MAX_LISTED: usize = 20;

/// Scores are written as integers of thousandths.
const SCORE_SCALE: f32 = 1000.0;

/// What the static search is made of besides the index.
#[derive(Debug, Clone, Copy)]
pub struct Site<'a> {
    /// The site's settings (its language, `search:` settings).
    pub config: &'a SiteConfig,
    /// The help page, when the site has one.
    pub help: Option<&'a HelpPage>,
    /// The strings of the site's language.
    pub strings: &'a Strings,
    /// `/api/search-index.json` (summaries and dates of the hits, the listings).
    pub flat: &'a [u8],
}

/// One word's entry.
#[derive(Debug, Default)]
struct Entry {
    /// Per document (global number): the fields it is in (bit per field) and its score.
    postings: Vec<(u32, u8, u32)>,
    /// Per document: the fields with a word this prefix starts.
    prefixed: BTreeMap<u32, u8>,
    forms: Vec<String>,
    synonyms: Vec<String>,
    /// Per document, the fields its forms are in (so a word's chunk is all a query reads of it).
    form_masks: BTreeMap<u32, u8>,
    /// Per document, the scores of its other words, summed.
    synonym_scores: BTreeMap<u32, u32>,
}

/// `map` as a flat list of gaps between documents and their values.
fn gaps<V: Copy + Into<u32>>(map: &BTreeMap<u32, V>) -> Vec<u32> {
    let mut flat = Vec::with_capacity(map.len() * 2);
    let mut last = 0;
    for (&doc, &value) in map {
        flat.extend([doc - last, value.into()]);
        last = doc;
    }
    flat
}

impl Entry {
    fn is_empty(&self) -> bool {
        self.postings.is_empty() && self.prefixed.is_empty() && self.forms.is_empty() && self.synonyms.is_empty()
    }

    fn to_json(&self) -> Value {
        let mut out = Map::new();
        if !self.postings.is_empty() {
            let mut flat = Vec::with_capacity(self.postings.len() * 3);
            let mut last = 0;
            for &(doc, mask, score) in &self.postings {
                flat.extend([doc - last, u32::from(mask), score]);
                last = doc;
            }
            out.insert("p".into(), json!(flat));
        }
        if !self.prefixed.is_empty() {
            out.insert("x".into(), json!(gaps(&self.prefixed)));
        }
        if !self.forms.is_empty() {
            out.insert("f".into(), json!(self.forms));
            out.insert("fp".into(), json!(gaps(&self.form_masks)));
            out.insert("ff".into(), json!(self.form_masks.values().fold(0u8, |all, m| all | m)));
        }
        if !self.synonyms.is_empty() {
            out.insert("s".into(), json!(self.synonyms));
            out.insert("sp".into(), json!(gaps(&self.synonym_scores)));
        }
        Value::Object(out)
    }
}

/// The files of the static search: (path in `dist/`, bytes), the manifest last.
pub fn files(index: &SearchIndex, site: &Site<'_>) -> Result<Vec<(String, Vec<u8>)>, SearchError> {
    let (docs, segments) = documents(index)?;
    let mut entries = postings(index, docs.len())?;
    add_words(index, site.config, &mut entries);
    let mut out = Vec::new();
    let terms = chunked("t", entries.iter().filter(|(_, e)| !e.is_empty()).map(|(k, e)| (k.clone(), e.to_json())));
    let vocab = vocabulary(&entries);
    let mut known_words: Vec<String> = known::all_words().into_iter().filter(|w| w.chars().nth(3).is_some()).collect();
    known_words.sort();
    known_words.dedup();
    let known = word_lists(known_words);
    let flat: Vec<Value> = serde_json::from_slice(site.flat).unwrap_or_default();
    let mut groups = Vec::new();
    for (kind, (starts, files)) in [("t", terms), ("v", vocab), ("k", known)] {
        let (first, lists) = grouped(kind, starts);
        groups.push(first);
        out.extend(files);
        out.extend(lists);
    }
    out.extend(fragments(&docs, &flat, site.strings));
    out.extend(listings(&flat));
    let manifest = manifest(site, &segments, &groups);
    out.push((MANIFEST.to_string(), manifest.to_string().into_bytes()));
    Ok(out)
}

/// A hit: its collection, title and URL, by global number.
struct Doc {
    collection: String,
    title: String,
    url: String,
}

/// A segment's collection and the number of its first document.
type SegmentStart = (String, u32);

/// Every document in the server's order (segment, then document: ties rank so), and where each
/// segment's documents start.
fn documents(index: &SearchIndex) -> Result<(Vec<Doc>, Vec<SegmentStart>), SearchError> {
    let mut docs = Vec::new();
    let mut segments = Vec::new();
    for (ordinal, reader) in index.searcher.segment_readers().iter().enumerate() {
        let collection = index.engine.segments()[ordinal].collection.clone();
        segments.push((collection.clone(), docs.len() as u32));
        for doc in 0..reader.max_doc() {
            let hit = index.hit(DocAddress::new(ordinal as u32, doc))?;
            docs.push(Doc { collection: collection.clone(), title: hit.title, url: hit.url });
        }
    }
    Ok((docs, segments))
}

/// Every word of every searched field with its postings and scores (BM25 with the whole index's
/// statistics, boosted by the field's weight, as [`super::matching`] scores an exact match), and
/// the prefix entries.
fn postings(index: &SearchIndex, total_docs: usize) -> Result<BTreeMap<String, Entry>, SearchError> {
    let fields = schema().1.weighted();
    let readers = index.searcher.segment_readers();
    let starts: Vec<u32> = readers
        .iter()
        .scan(0u32, |at, r| {
            let start = *at;
            *at += r.max_doc();
            Some(start)
        })
        .collect();
    // Per word, per (document, field): term frequency and fieldnorm id; per word and field, the
    // documents that have it.
    type Raw = Vec<(u32, usize, u32, u8)>;
    let mut raw: BTreeMap<String, (Raw, [u64; WEIGHTS.len()])> = BTreeMap::new();
    let mut tokens = [0u64; WEIGHTS.len()];
    for (field_at, (field, _)) in fields.iter().enumerate() {
        for (reader, start) in readers.iter().zip(&starts) {
            let inverted = reader.inverted_index(*field).map_err(engine("reading the index for the static search"))?;
            tokens[field_at] += inverted.total_num_tokens();
            let norms = reader.get_fieldnorms_reader(*field).map_err(engine("reading the fieldnorms"))?;
            let mut stream = inverted.terms().stream().map_err(|e| engine("reading the words")(e.into()))?;
            while stream.advance() {
                let term = String::from_utf8_lossy(stream.key()).into_owned();
                let info = stream.value().clone();
                let mut docs = inverted
                    .read_postings_from_terminfo(&info, IndexRecordOption::WithFreqs)
                    .map_err(|e| engine("reading postings")(e.into()))?;
                let (list, df) = raw.entry(term).or_default();
                df[field_at] += u64::from(info.doc_freq);
                while docs.doc() != TERMINATED {
                    let doc = docs.doc();
                    list.push((start + doc, field_at, docs.term_freq(), norms.fieldnorm_id(doc)));
                    docs.advance();
                }
            }
        }
    }
    let total = total_docs.max(1) as u64;
    let average = tokens.map(|t| t as f32 / total as f32);
    let mut entries: BTreeMap<String, Entry> = BTreeMap::new();
    for (term, (mut list, df)) in raw {
        list.sort_unstable();
        let weights: Vec<Bm25Weight> = (0..WEIGHTS.len())
            .map(|f| Bm25Weight::for_one_term(df[f].max(1), total, average[f]).boost_by(WEIGHTS[f].1))
            .collect();
        let mut scored: Vec<(u32, u8, f32)> = Vec::new();
        for (doc, field, tf, norm) in list {
            let score = weights[field].score(norm, tf);
            match scored.last_mut() {
                Some(last) if last.0 == doc => {
                    last.1 |= 1 << field;
                    last.2 += score;
                }
                _ => scored.push((doc, 1 << field, score)),
            }
        }
        for chars in 1..=PREFIX_ENTRY_CHARS {
            let Some(prefix) = prefix_of(&term, chars) else { break };
            let entry = entries.entry(prefix.to_string()).or_default();
            for &(doc, mask, _) in &scored {
                *entry.prefixed.entry(doc).or_default() |= mask;
            }
        }
        let postings = scored.into_iter().map(|(d, m, s)| (d, m, (s * SCORE_SCALE).round() as u32)).collect();
        entries.entry(term).or_default().postings = postings;
    }
    Ok(entries)
}

/// The first `chars` characters of `word`, when it has that many.
fn prefix_of(word: &str, chars: usize) -> Option<&str> {
    match word.char_indices().nth(chars) {
        Some((end, _)) => Some(&word[..end]),
        None => (word.chars().count() == chars).then_some(word),
    }
}

/// The forms and other words of every word a query may have: the index's, the word lists' and the
/// synonyms' (a word the browser finds in none of them has none, as on the server but for words
/// of no list whose stem the index shares).
fn add_words(index: &SearchIndex, site: &SiteConfig, entries: &mut BTreeMap<String, Entry>) {
    let forms = index.page_forms(site);
    let indexed: BTreeSet<String> =
        entries.iter().filter(|(_, e)| !e.postings.is_empty()).map(|(k, _)| k.clone()).collect();
    let mut by_stem: HashMap<(usize, String), Vec<&str>> = HashMap::new();
    for term in &indexed {
        for (language, stem) in forms.stems(term).into_iter().enumerate() {
            by_stem.entry((language, stem)).or_default().push(term);
        }
    }
    // The index's words and the synonyms' get their forms and other words. A word of the lists
    // gets its forms in the index, when its first characters start a word of the index (forms
    // share the start of their stem); its other words only when it is a word of the groups. That
    // keeps this a fraction of a second in a release build.
    let starts: BTreeSet<&str> = indexed.iter().filter_map(|t| prefix_of(t, PREFIX_ENTRY_CHARS)).collect();
    let mut candidates: BTreeSet<String> = indexed.clone();
    candidates.extend(super::synonyms::BUILT_IN.iter().flat_map(|g| g.iter()).flat_map(|w| words(w)));
    candidates.extend(site.search.synonyms.iter().flatten().flat_map(|w| words(w)));
    let listed: Vec<String> = known::all_words()
        .into_iter()
        .filter(|w| !candidates.contains(w) && prefix_of(w, PREFIX_ENTRY_CHARS).is_some_and(|p| starts.contains(p)))
        .collect();
    let candidates: Vec<(String, bool)> =
        candidates.into_iter().map(|w| (w, true)).chain(listed.into_iter().map(|w| (w, false))).collect();
    let found: Vec<(String, Vec<String>, Vec<String>)> = candidates
        .par_iter()
        .filter_map(|(word, grouped)| {
            let mut own: BTreeSet<&str> = BTreeSet::new();
            if let Some(of) = forms.of(word) {
                for (language, stem) in of.stems.iter().enumerate() {
                    for term in by_stem.get(&(language, stem.clone())).into_iter().flatten() {
                        if *term != word && term.starts_with(of.prefix.as_str()) {
                            own.insert(term);
                        }
                    }
                }
            }
            let synonyms: Vec<String> = if *grouped {
                forms.synonyms_of(word).into_iter().filter(|s| indexed.contains(s)).collect()
            } else {
                Vec::new()
            };
            (!own.is_empty() || !synonyms.is_empty())
                .then(|| (word.clone(), own.into_iter().map(str::to_string).collect(), synonyms))
        })
        .collect();
    for (word, own, synonyms) in found {
        let mut form_masks = BTreeMap::new();
        for &(doc, mask, _) in own.iter().filter_map(|t| entries.get(t)).flat_map(|e| &e.postings) {
            *form_masks.entry(doc).or_insert(0u8) |= mask;
        }
        let mut synonym_scores = BTreeMap::new();
        for &(doc, _, score) in synonyms.iter().filter_map(|t| entries.get(t)).flat_map(|e| &e.postings) {
            *synonym_scores.entry(doc).or_insert(0u32) += score;
        }
        let entry = entries.entry(word).or_default();
        entry.forms = own;
        entry.synonyms = synonyms;
        entry.form_masks = form_masks;
        entry.synonym_scores = synonym_scores;
    }
}

/// Entries (in key order) cut into files `find/<kind>/<n>.json` of at most [`CHUNK_BYTES`]: the
/// first key of each, and the files.
type Chunks = (Vec<String>, Vec<(String, Vec<u8>)>);

fn chunked(kind: &str, entries: impl Iterator<Item = (String, Value)>) -> Chunks {
    let items = entries.map(|(key, value)| {
        let item = format!("{}:{}", Value::String(key.clone()), value);
        (key, item)
    });
    cut(kind, ('{', '}'), CHUNK_BYTES, items)
}

/// The index's words with how many (document, field) pairs have them, in files `find/v/<n>.json`
/// of at most [`LIST_BYTES`], ordered by [`vocabulary_key`] (so a typo reads only the words it may
/// be corrected to): the start of each, and the files.
fn vocabulary(entries: &BTreeMap<String, Entry>) -> Chunks {
    let mut items: Vec<(String, String)> = entries
        .iter()
        .filter(|(_, e)| !e.postings.is_empty())
        .map(|(term, e)| {
            let docs: u32 = e.postings.iter().map(|(_, mask, _)| mask.count_ones()).sum();
            (vocabulary_key(term), format!("{}:{docs}", Value::String(term.clone())))
        })
        .collect();
    items.sort_unstable();
    cut("v", ('{', '}'), LIST_BYTES, items.into_iter())
}

/// A word's place among the index's words for typos: its first character, its length in
/// characters in two digits, then the word (a typo is corrected to a word of the same first
/// character and a length at most 2 apart, `search::forgiving`).
fn vocabulary_key(word: &str) -> String {
    let first = word.chars().next().map(String::from).unwrap_or_default();
    format!("{first}{:02}{word}", word.chars().count().min(99))
}

/// `items` (a key and its JSON text, in key order) as JSON objects or arrays (`brackets`) in files
/// `find/<kind>/<n>.json` of at most `size` bytes: the start of each (see [`separating`]), and
/// the files.
fn cut(kind: &str, (open, close): (char, char), size: usize, items: impl Iterator<Item = (String, String)>) -> Chunks {
    let mut starts = Vec::new();
    let mut files = Vec::new();
    let mut current = String::new();
    let flush = |current: &mut String, files: &mut Vec<(String, Vec<u8>)>| {
        if !current.is_empty() {
            current.push(close);
            files.push((format!("{DIR}/{kind}/{}.json", files.len()), std::mem::take(current).into_bytes()));
        }
    };
    let mut last = String::new();
    for (key, item) in items {
        if !current.is_empty() && current.len() + item.len() + 2 > size {
            flush(&mut current, &mut files);
        }
        if current.is_empty() {
            starts.push(separating(&last, &key).to_string());
            current.push(open);
        } else {
            current.push(',');
        }
        current.push_str(&item);
        last = key;
    }
    flush(&mut current, &mut files);
    (starts, files)
}

/// The shortest start of `key` that sorts after `before` (the last key of the chunk before), so
/// the manifest names each chunk by as few characters as tell it from the one before: every key
/// of a chunk sorts at or after its start, every key before it, before.
fn separating<'a>(before: &str, key: &'a str) -> &'a str {
    key.char_indices().map(|(at, c)| &key[..at + c.len_utf8()]).find(|start| *start > before).unwrap_or(key)
}

/// The starts of a kind's chunks in files `find/<kind>s/<g>.json` of [`GROUP_CHUNKS`] starts each
/// (a JSON array): the start of each group's first chunk (for the manifest), and the files.
fn grouped(kind: &str, starts: Vec<String>) -> (Vec<String>, Vec<(String, Vec<u8>)>) {
    starts
        .chunks(GROUP_CHUNKS)
        .enumerate()
        .map(|(g, group)| {
            (group[0].clone(), (format!("{DIR}/{kind}s/{g}.json"), json!(group).to_string().into_bytes()))
        })
        .unzip()
}

/// The chunk of `kind` (`t`, `v` or `k`) that would hold `key` in `files` (by path, parsed), found
/// as the browser finds it (`chunkAt` in templates/assets/find.js): the group from the manifest,
/// then the chunk from the group's starts.
#[cfg(test)]
pub(crate) fn chunk_at(files: &BTreeMap<String, Value>, kind: &str, key: &str) -> Option<usize> {
    let list = match kind {
        "t" => "terms",
        "v" => "vocab",
        _ => "known",
    };
    let last_at_or_before = |starts: &Value| {
        let starts: Vec<&str> = starts.as_array()?.iter().filter_map(Value::as_str).collect();
        starts.iter().rposition(|start| *start <= key)
    };
    let group = last_at_or_before(&files.get(MANIFEST)?[list])?;
    let at = last_at_or_before(files.get(&format!("{DIR}/{kind}s/{group}.json"))?)?;
    Some(group * GROUP_CHUNKS + at)
}

/// The word lists in files `find/k/<n>.json` of at most [`LIST_BYTES`], each a JSON array of
/// words in byte order: the first word of each, and the files.
fn word_lists(sorted: Vec<String>) -> Chunks {
    cut(
        "k",
        ('[', ']'),
        LIST_BYTES,
        sorted.into_iter().map(|word| {
            let item = Value::String(word.clone()).to_string();
            (word, item)
        }),
    )
}

/// What each hit shows: `[url, title, collection, date, date as read, summary]`, in files of
/// [`DOCS_PER_FRAGMENT`].
fn fragments(docs: &[Doc], flat: &[Value], strings: &Strings) -> Vec<(String, Vec<u8>)> {
    let by_url: HashMap<&str, &Value> = flat.iter().filter_map(|v| Some((v.get("url")?.as_str()?, v))).collect();
    docs.chunks(DOCS_PER_FRAGMENT)
        .enumerate()
        .map(|(n, chunk)| {
            let items: Vec<Value> = chunk
                .iter()
                .map(|doc| {
                    let item = by_url.get(doc.url.as_str());
                    let text = |key: &str| item.and_then(|v| v.get(key)).and_then(Value::as_str).unwrap_or_default();
                    let date = crate::content::time::leading_date(text("date")).map(str::to_string);
                    let summary: String = text("summary").chars().take(super::excerpt::EXCERPT_CHARS).collect();
                    json!([doc.url, doc.title, doc.collection, date, date.as_deref().map(|d| strings.date(d)), summary])
                })
                .collect();
            (format!("{DIR}/d/{n}.json"), Value::Array(items).to_string().into_bytes())
        })
        .collect()
}

/// Per collection of the flat index, its first records (title, URL) and how many it has.
fn listings(flat: &[Value]) -> Vec<(String, Vec<u8>)> {
    let mut by: BTreeMap<&str, (Vec<Value>, usize)> = BTreeMap::new();
    for item in flat {
        let text = |key: &str| item.get(key).and_then(Value::as_str);
        let (Some(collection), Some(title), Some(url)) = (text("collection"), text("title"), text("url")) else {
            continue;
        };
        let (hits, total) = by.entry(collection).or_default();
        if hits.len() < MAX_LISTED {
            hits.push(json!([title, url]));
        }
        *total += 1;
    }
    by.into_iter()
        .filter(|(collection, _)| *collection != ENCYCLOPEDIA)
        .map(|(collection, (hits, total))| {
            (format!("{DIR}/l/{collection}.json"), json!({"hits": hits, "total": total}).to_string().into_bytes())
        })
        .collect()
}

/// The strings of the search page the script shows.
const STRINGS: [&str; 15] = [
    "search_page.title",
    "search_page.none",
    "search_page.results",
    "search_page.did_you_mean",
    "search_page.corrected",
    "search_page.partial",
    "search_page.more",
    "search_page.help_call",
    "search_page.help_links",
    "search_page.services_link",
    "search_page.encyclopedia",
    "search_page.too_short",
    "search_page.too_long",
    "search_page.too_many_words",
    "search_page.index_failed",
];

/// The manifest (see the module's documentation).
fn manifest(site: &Site<'_>, segments: &[SegmentStart], groups: &[Vec<String>]) -> Value {
    let settings = &site.config.search;
    let scope: Vec<String> = COLLECTIONS.iter().map(|c| c.to_string()).chain([ENCYCLOPEDIA.to_string()]).collect();
    let mut labels = Map::new();
    let mut names = Map::new();
    let mut weights = Map::new();
    for collection in &scope {
        let key = format!("collections.{collection}.label");
        let label = site.strings.lookup(&key).and_then(Value::as_str);
        labels.insert(collection.clone(), json!(label.unwrap_or(collection)));
        names.insert(
            collection.clone(),
            json!([collection, collection.trim_end_matches('s'), words(label.unwrap_or_default()).join(" ")]),
        );
        weights.insert(collection.clone(), json!(settings.weight(collection)));
    }
    labels.insert(ENCYCLOPEDIA.into(), json!(site.strings.get("search_page.encyclopedia")));
    let strings: Map<String, Value> = STRINGS.iter().map(|k| (k.to_string(), json!(site.strings.get(k)))).collect();
    let help_words = HelpWords::new(&settings.help_words, settings.help_words_replace).entries();
    json!({
        "format": FORMAT,
        "scope": scope,
        "segments": segments,
        "labels": labels,
        "names": names,
        "weights": weights,
        "strings": strings,
        "help": site.help,
        "helpWords": help_words,
        "stopWords": stop_words(),
        "fieldWeights": WEIGHTS.map(|(_, w)| w),
        "prefixDiscount": PREFIX_DISCOUNT,
        "formDiscount": super::matching::FORM_DISCOUNT,
        "scoreScale": SCORE_SCALE,
        "prefixEntryChars": PREFIX_ENTRY_CHARS,
        "limits": {
            "minQueryChars": super::limits::MIN_QUERY_CHARS,
            "maxQueryChars": super::limits::MAX_QUERY_CHARS,
            "maxQueryWords": super::limits::MAX_QUERY_WORDS,
            "maxPartialWords": super::limits::MAX_PARTIAL_WORDS,
            "maxCorrectedWords": super::limits::MAX_CORRECTED_WORDS,
            "pageLimit": 3,
        },
        "fragment": DOCS_PER_FRAGMENT,
        "group": GROUP_CHUNKS,
        "terms": groups[0],
        "vocab": groups[1],
        "known": groups[2],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_stay_under_their_size_and_start_where_the_manifest_says() {
        let entries = (0..5000).map(|i| (format!("w{i:05}"), json!({"p": [i, 1, 1000]})));
        let (starts, files) = chunked("t", entries);
        assert!(files.len() > 1, "{} files", files.len());
        assert_eq!(starts.len(), files.len());
        for ((path, bytes), start) in files.iter().zip(&starts) {
            assert!(bytes.len() <= CHUNK_BYTES, "{path}: {}", bytes.len());
            let chunk: Map<String, Value> = serde_json::from_slice(bytes).expect("a chunk is a JSON object");
            let first = chunk.keys().next().expect("a key");
            assert!(first.starts_with(start.as_str()) && !start.is_empty(), "{path}: {start} {first}");
        }
        assert!(starts.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(starts[0], "w", "the first chunk needs one character");
        let big = [("a".to_string(), json!("x".repeat(CHUNK_BYTES * 2))), ("b".to_string(), json!(1))];
        let (starts, files) = chunked("t", big.into_iter());
        assert_eq!((starts.as_slice(), files.len()), (&["a".to_string(), "b".to_string()][..], 2));
    }

    /// The files of `entries` cut as the term chunks are, with a manifest of their groups, parsed.
    fn grouped_files(entries: &[(String, Value)]) -> (BTreeMap<String, Value>, usize) {
        let (starts, chunks) = chunked("t", entries.iter().cloned());
        let count = chunks.len();
        let (groups, lists) = grouped("t", starts);
        let mut files: BTreeMap<String, Value> = chunks
            .into_iter()
            .chain(lists)
            .map(|(path, bytes)| (path, serde_json::from_slice(&bytes).expect("JSON")))
            .collect();
        files.insert(MANIFEST.to_string(), json!({ "terms": groups }));
        (files, count)
    }

    #[test]
    fn every_word_is_found_through_both_levels_across_chunks_and_groups() {
        // About 3 groups of chunks, words of several lengths so starts differ in length.
        let entries: Vec<(String, Value)> =
            (0..40_000).map(|i| (format!("w{}{i:05}", "ab".repeat(i % 3)), json!({"p": [i, 1, 1000]}))).collect();
        let mut entries = entries;
        entries.sort_by(|a, b| a.0.cmp(&b.0));
        let (files, count) = grouped_files(&entries);
        assert!(count > 2 * GROUP_CHUNKS, "{count} chunks");
        let groups = files[MANIFEST]["terms"].as_array().expect("groups").len();
        assert_eq!(groups, count.div_ceil(GROUP_CHUNKS));
        for (word, _) in &entries {
            let at = chunk_at(&files, "t", word).expect("a chunk");
            assert!(files[&format!("find/t/{at}.json")].get(word).is_some(), "{word} not in chunk {at}");
        }
        // The words on either side of a group's edge: the last of the group's last chunk, the first
        // of the next group's first chunk.
        let edge = |n: usize| files[&format!("find/t/{n}.json")].as_object().expect("a chunk").clone();
        let before = edge(GROUP_CHUNKS - 1).keys().next_back().cloned().expect("a word");
        let after = edge(GROUP_CHUNKS).keys().next().cloned().expect("a word");
        assert_eq!(chunk_at(&files, "t", &before), Some(GROUP_CHUNKS - 1));
        assert_eq!(chunk_at(&files, "t", &after), Some(GROUP_CHUNKS));
        assert_eq!(chunk_at(&files, "t", ""), None, "nothing sorts before the first chunk");
        // A group's list of starts is small: a query reads one per word.
        for g in 0..groups {
            let list = serde_json::to_vec(&files[&format!("find/ts/{g}.json")]).expect("JSON");
            assert!(list.len() <= GROUP_CHUNKS * 16, "group {g}: {} bytes", list.len());
        }
    }

    #[test]
    fn the_index_words_are_ordered_for_typos_by_first_character_and_length() {
        assert_eq!(vocabulary_key("water"), "w05water");
        assert_eq!(vocabulary_key("عياده"), "ع05عياده");
        let mut entries = BTreeMap::new();
        for word in ["wa", "water", "waters", "wet", "zebra", "wonderful"] {
            entries.insert(word.to_string(), Entry { postings: vec![(0, 1, 1)], ..Entry::default() });
        }
        let (starts, files) = vocabulary(&entries);
        assert_eq!(starts, ["w"]);
        let text = String::from_utf8(files[0].1.clone()).expect("UTF-8");
        assert_eq!(text, r#"{"wa":1,"wet":1,"water":1,"waters":1,"wonderful":1,"zebra":1}"#);
    }

    #[test]
    fn a_chunk_is_named_by_the_fewest_characters_after_the_chunk_before() {
        assert_eq!(separating("", "water"), "w");
        assert_eq!(separating("wasser", "water"), "wat");
        assert_eq!(separating("wat", "water"), "wate");
        assert_eq!(separating("عيادات", "عياده"), "عياده");
    }

    #[test]
    fn prefixes_are_counted_in_characters() {
        assert_eq!(prefix_of("عياده", 2), Some("عي"));
        assert_eq!(prefix_of("wa", 2), Some("wa"));
        assert_eq!(prefix_of("w", 2), None);
        assert_eq!(prefix_of("école", 3), Some("éco"));
    }

    #[test]
    fn postings_are_written_as_gaps() {
        let entry = Entry { postings: vec![(3, 1, 500), (10, 9, 1200)], ..Entry::default() };
        assert_eq!(entry.to_json(), json!({"p": [3, 1, 500, 7, 9, 1200]}));
        assert!(Entry::default().is_empty());
    }
}

#[cfg(test)]
mod folding {
    /// The browser's folding (templates/assets/find.js) is checked against the same vector in
    /// tests/browser/test_static_search.py: this test says the vector is core's.
    #[test]
    fn the_browsers_folding_vector_is_cores() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/browser/folding.json");
        let text = std::fs::read_to_string(path).expect("the folding vector");
        let cases: Vec<(String, Vec<String>)> = serde_json::from_str(&text).expect("pairs of text and words");
        assert!(cases.len() >= 10);
        for (input, expected) in cases {
            assert_eq!(crate::search::schema::words(&input), expected, "{input}");
        }
    }
}
