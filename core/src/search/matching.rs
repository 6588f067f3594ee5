//! The engine behind every search: what [`super::query::matching`] asks of tantivy (every word in
//! some field, the last also as a prefix; BM25 per field times the field's weight, a constant for
//! a prefix match), computed straight from tantivy's postings and statistics, faster than its
//! general query machinery and with the same scores.
//!
//! Per segment (one collection, see [`super::plan`](mod@super::plan)) and query; segments of
//! collections not asked are skipped:
//! 1. Every clause (a word in a field, or the last word as a prefix in a field) becomes a bitset
//!    of the documents that have it; exact terms also keep their frequencies. A prefix of one or
//!    two characters is read from the field's prefix twin ([`super::schema`](mod@super::schema)),
//!    a longer one from the terms it starts. Natively every term is found in the [`Lexicon`] (one
//!    table per field for all segments), in the Worker in each segment's dictionary; both give the
//!    same postings. The documents of a word are the union of its clauses,
//!    the matches the intersection of the words: counting them (`totals`) needs no score at all.
//! 2. Scores are computed only where they can change the top hits (MaxScore): clauses in order of
//!    their best possible contribution in the segment (from its highest frequency and shortest
//!    field); the matches that have the best clause are scored first, then those that have the
//!    next, and so on, until what the remaining clauses can add together is below the
//!    collection's current `limit`-th best score; a candidate whose own clauses cannot reach that
//!    score is not scored either.
//! 3. When a match needs only some of the words (the search page), a document with more of them
//!    ranks above one with fewer whatever their scores ([`Ranked`]): the documents with every word
//!    are ranked first, and the others only while the top hits are not all of those; the bounds
//!    above then count a document's words too.
//!
//! Natively, a search over many documents runs its segments in two halves on two threads (rayon's
//! pool) and merges what they found; below `TWO_THREADS_OVER` documents, and in the Worker, one
//! thread. Measured at 100,000 records with a pause between queries, as a server idles between
//! requests (`PORTAL_BENCH_PAUSE_US` in `core/tests/search_bench.rs`): p50 and p99 about 30 % lower.
//!
//! A document's score adds its clauses' contributions in the order tantivy's query adds them (per
//! word in clause order, then the words), from the same BM25 weights (statistics of the whole
//! index, every segment), so it equals tantivy's score for one and two words (the tests compare
//! them) and, whatever the words, it is the same number whichever segment holds the document.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use tantivy::fieldnorm::FieldNormReader;
use tantivy::postings::{BlockSegmentPostings, TermInfo};
use tantivy::query::{Bm25Weight, FuzzyTermQuery};
use tantivy::schema::{Field, IndexRecordOption};
use tantivy::{DocAddress, InvertedIndexReader, Score, Searcher, Term};

use super::collector::{Bucket, Ranked, TopK};
use super::lexicon::Lexicon;
use super::limits;
use super::query::PREFIX_DISCOUNT;
use super::schema::{Fields, API_FIELDS, PREFIX_CHARS, TEXT_FIELDS};
use super::word_forms::{Forms, WordForms};

/// The searched text fields, in [`Fields::weighted`] order (the API's are the first
/// [`API_FIELDS`]).
const FIELDS: usize = TEXT_FIELDS;

/// How much a match through another form of a word, or another word for it
/// ([`super::synonyms`]), counts against a match of the word as written, in the same field (a
/// constant, as for a prefix): low, so that exact matches rank first.
pub const FORM_DISCOUNT: f32 = 0.3;

/// How far a search departs from the API's rules (docs/spec/api-spec.md#search-matching), for the search page: words may also
/// match their other forms and the front matter's other text, and a document may match only some
/// of the words.
#[derive(Debug, Clone, Copy)]
pub struct Leniency<'a> {
    /// The stemmers whose forms of a word also match it (none: words match as written).
    pub forms: Option<&'a Forms>,
    /// How many of the words a match needs (at least one; more than there are words means all).
    pub min_words: usize,
    /// How many of the text fields are searched, in [`Fields::weighted`] order: the API's
    /// ([`API_FIELDS`]) or all of them (`FIELDS`).
    pub fields: usize,
}

impl Leniency<'_> {
    /// The API's rules: every word, as written (the last also as a prefix), in the API's fields.
    pub const STRICT: Leniency<'static> = Leniency { forms: None, min_words: usize::MAX, fields: API_FIELDS };

    /// Every text field, the front matter's other text too (the search page).
    pub const ALL_FIELDS: usize = FIELDS;
}

/// What the engine keeps of one segment.
pub struct SegmentView {
    /// Its documents' collection.
    pub collection: String,
    max_doc: usize,
    inverted: [Arc<InvertedIndexReader>; FIELDS],
    /// The prefix twins of the fields ([`Fields::prefixes`]).
    prefixes: [Arc<InvertedIndexReader>; FIELDS],
    fieldnorms: [FieldNormReader; FIELDS],
    /// Per field, the smallest fieldnorm id of a document with at least one token in it: no match
    /// in the field is shorter, so this bounds what a term can score.
    shortest: [u8; FIELDS],
}

impl SegmentView {
    /// The inverted index of field `field` (in [`Fields::weighted`] order), or of its prefix twin.
    fn dictionary(&self, field: usize, twin: bool) -> &Arc<InvertedIndexReader> {
        if twin {
            &self.prefixes[field]
        } else {
            &self.inverted[field]
        }
    }
}

/// The segments of an index and the statistics its scores use.
pub struct Engine {
    segments: Vec<SegmentView>,
    weighted: [(Field, Score); FIELDS],
    total_docs: u64,
    average_fieldnorm: [Score; FIELDS],
    largest_segment: usize,
    /// Natively, every segment's terms in one table per field ([`Lexicon`]), built on a thread of
    /// its own once the index is open (a few hundred milliseconds at 100k records, which a server's
    /// start or a `--watch` reload does not wait for); until then, and always in the Worker, each
    /// segment's dictionary is asked.
    lexicon: Arc<OnceLock<Lexicon>>,
    /// Tests ask the segments' dictionaries even when the lexicon is there.
    #[cfg(test)]
    dictionaries_only: bool,
    /// Scratch space of finished searches, for the next ones (one per concurrent search).
    scratch: Mutex<Vec<Scratch>>,
    /// Natively, searches over at least this many documents run on two threads.
    #[cfg(not(target_arch = "wasm32"))]
    two_threads_over: usize,
}

/// Per bucket, the matches counted and the best kept so far.
struct Found {
    totals: Vec<usize>,
    tops: Vec<TopK>,
    #[cfg_attr(target_arch = "wasm32", allow(dead_code))]
    limit: usize,
}

impl Found {
    fn new(collections: usize, limit: usize) -> Self {
        Found { totals: vec![0; collections], tops: (0..collections).map(|_| TopK::new(limit)).collect(), limit }
    }

    /// Adds what another part of the same search found.
    #[cfg(not(target_arch = "wasm32"))]
    fn merge(&mut self, other: Found) {
        for (total, more) in self.totals.iter_mut().zip(other.totals) {
            *total += more;
        }
        for (top, more) in self.tops.iter_mut().zip(other.tops) {
            top.merge(more);
        }
    }
}

/// Natively, a search over at least this many documents runs on two threads, each over segments
/// holding about half of them (below it, waking a second thread costs more than it saves).
#[cfg(not(target_arch = "wasm32"))]
const TWO_THREADS_OVER: usize = 24_576;

/// What one search reads: its words (bounded) and their clauses.
struct Plan {
    words: Vec<String>,
    clauses: Vec<Clause>,
}

/// One clause of a query.
struct Clause {
    /// Which word (position in the query).
    word: usize,
    /// Which field (in [`Fields::weighted`] order).
    field: usize,
    kind: Kind,
}

enum Kind {
    /// The whole word: BM25 with the index's statistics, boosted by the field's weight; the term's
    /// postings in each segment (`None` where it does not occur).
    Exact { weight: Bm25Weight, postings: Vec<Option<TermInfo>> },
    /// The last word as a prefix: a constant, from every term that starts with it in the field, or
    /// in its prefix `twin` when the word is shorter than the twin's terms: per segment, their
    /// postings. `exact` is the clause of the whole word in the same field, if any: its documents
    /// are already known, so that term is not among `terms` and is not read twice.
    Prefix { score: Score, terms: Vec<Vec<TermInfo>>, exact: Option<usize>, twin: bool },
    /// The last word as a prefix of [`PREFIX_CHARS`] characters: a constant, from one term of the
    /// field's prefix twin per segment.
    ShortPrefix { score: Score, postings: Vec<Option<TermInfo>> },
}

/// Bitsets, frequencies and postings readers of one segment, reused from segment to segment and
/// from search to search (see [`Engine::scratch`]).
#[derive(Default)]
struct Scratch {
    /// Words of 64 bits per bitset (of the segment being searched).
    width: usize,
    /// Per clause, the documents that have it.
    clauses: Vec<u64>,
    /// The documents that match: with every word, or enough of them.
    matches: Vec<u64>,
    /// The documents with every word.
    every: Vec<u64>,
    /// The documents of one word.
    word: Vec<u64>,
    /// The matches scored so far.
    scored: Vec<u64>,
    /// Per exact clause, the term frequency of each document that has it (stale elsewhere: a
    /// frequency is read only where the clause's bit is set, after it was written).
    freqs: Vec<u32>,
    /// Per clause, the highest frequency in the segment.
    max_freq: Vec<u32>,
    /// Per clause, where its frequencies start in `freqs` (exact clauses).
    freq_slot: Vec<usize>,
    /// Postings readers kept to be reset for the next term rather than made anew: of the searched
    /// fields with frequencies, of the searched fields without, of the prefix twins.
    with_freqs: Option<BlockSegmentPostings>,
    docs_only: Option<BlockSegmentPostings>,
    twin: Option<BlockSegmentPostings>,
}

impl Scratch {
    /// Ready for the clauses of a search over segments of at most `largest` documents.
    fn prepare(&mut self, clauses: &[Clause], largest: usize) {
        let mut slots = 0;
        self.freq_slot.clear();
        for clause in clauses {
            self.freq_slot.push(match clause.kind {
                Kind::Exact { .. } => {
                    slots += 1;
                    (slots - 1) * largest
                }
                Kind::Prefix { .. } | Kind::ShortPrefix { .. } => 0,
            });
        }
        if self.freqs.len() < slots * largest {
            self.freqs.resize(slots * largest, 0);
        }
        self.max_freq.clear();
        self.max_freq.resize(clauses.len(), 0);
    }

    fn reset(&mut self, clauses: usize, max_doc: usize) {
        self.width = max_doc.div_ceil(64);
        for bits in [&mut self.matches, &mut self.every, &mut self.word, &mut self.scored] {
            bits.clear();
            bits.resize(self.width, 0);
        }
        self.clauses.clear();
        self.clauses.resize(clauses * self.width, 0);
        self.max_freq.iter_mut().for_each(|f| *f = 0);
    }

    fn bits(&self, clause: usize) -> &[u64] {
        &self.clauses[clause * self.width..(clause + 1) * self.width]
    }
}

/// The postings of `info` in `inverted`, through the reusable reader `slot` (opened on first use
/// with `option`; a reader is only ever reset for terms of fields indexed like the one it was
/// opened on).
fn read_postings<'a>(
    slot: &'a mut Option<BlockSegmentPostings>,
    inverted: &InvertedIndexReader,
    info: &TermInfo,
    option: IndexRecordOption,
) -> std::io::Result<&'a mut BlockSegmentPostings> {
    match slot {
        Some(block) => inverted.reset_block_postings_from_terminfo(info, block)?,
        None => *slot = Some(inverted.read_block_postings_from_terminfo(info, option)?),
    }
    slot.as_mut().ok_or_else(|| std::io::Error::other("a postings reader was just opened"))
}

/// The most terms (counted once per segment and field) the lexicon is built for: 16 bytes each,
/// so at most 256 MiB, which an index that large (over a million records) already exceeds in its
/// own bytes. Past it, the segments' dictionaries answer, as in the Worker.
#[cfg(not(target_arch = "wasm32"))]
const MAX_LEXICON_TERMS: usize = 16 << 20;

/// Builds the lexicon of `segments` on a thread of its own and puts it in `slot`. Should that fail
/// (a damaged dictionary, which searching would report), the engine goes on without it.
#[cfg(not(target_arch = "wasm32"))]
fn build_lexicon(segments: &[SegmentView], slot: Arc<OnceLock<Lexicon>>) {
    let terms: usize = segments
        .iter()
        .flat_map(|s| s.inverted.iter().chain(&s.prefixes))
        .map(|inverted| inverted.terms().num_terms())
        .sum();
    if terms > MAX_LEXICON_TERMS {
        return;
    }
    let tables = |twin: bool| -> Vec<Vec<Arc<InvertedIndexReader>>> {
        (0..FIELDS).map(|field| segments.iter().map(|s| Arc::clone(s.dictionary(field, twin))).collect()).collect()
    };
    let (fields, twins) = (tables(false), tables(true));
    std::thread::spawn(move || {
        fn borrow(of: &[Vec<Arc<InvertedIndexReader>>]) -> Vec<Vec<&InvertedIndexReader>> {
            of.iter().map(|segments| segments.iter().map(|inverted| &**inverted).collect()).collect()
        }
        if let Ok(lexicon) = Lexicon::build(&borrow(&fields), &borrow(&twins)) {
            let _ = slot.set(lexicon);
        }
    });
}

/// Calls `each` with every document of `bits`, in order.
#[inline]
fn for_each_doc(word_index: usize, mut word: u64, mut each: impl FnMut(usize)) {
    while word != 0 {
        each(word_index * 64 + word.trailing_zeros() as usize);
        word &= word - 1;
    }
}

/// Whether `word` (other than the last) is in no field of segment `ordinal`: then nothing in it
/// matches.
fn absent(clauses: &[Clause], ordinal: usize, word: usize) -> bool {
    !clauses.iter().any(|c| {
        c.word == word
            && match &c.kind {
                Kind::Exact { postings, .. } | Kind::ShortPrefix { postings, .. } => postings[ordinal].is_some(),
                Kind::Prefix { .. } => true,
            }
    })
}

/// Sets each clause's bits (and an exact clause's frequencies) in `scratch` from its postings in
/// segment `ordinal`.
fn read_clauses(
    ordinal: usize,
    segment: &SegmentView,
    clauses: &[Clause],
    scratch: &mut Scratch,
) -> std::io::Result<()> {
    let width = scratch.width;
    for (index, clause) in clauses.iter().enumerate() {
        let (before, after) = scratch.clauses.split_at_mut(index * width);
        let bits = &mut after[..width];
        match &clause.kind {
            Kind::Exact { postings, .. } => {
                let Some(info) = &postings[ordinal] else { continue };
                let slot = scratch.freq_slot[index];
                let freqs = &mut scratch.freqs[slot..slot + segment.max_doc];
                let inverted = &segment.inverted[clause.field];
                let mut max_freq = 0;
                let block = read_postings(&mut scratch.with_freqs, inverted, info, IndexRecordOption::WithFreqs)?;
                while !block.docs().is_empty() {
                    for (&doc, &freq) in block.docs().iter().zip(block.freqs()) {
                        bits[doc as usize >> 6] |= 1 << (doc & 63);
                        freqs[doc as usize] = freq;
                        max_freq = max_freq.max(freq);
                    }
                    block.advance();
                }
                scratch.max_freq[index] = max_freq;
            }
            Kind::ShortPrefix { postings, .. } => {
                let Some(info) = &postings[ordinal] else { continue };
                let inverted = &segment.prefixes[clause.field];
                let block = read_postings(&mut scratch.twin, inverted, info, IndexRecordOption::Basic)?;
                set_docs(block, bits);
            }
            Kind::Prefix { terms, exact, twin, .. } => {
                if let Some(exact) = exact {
                    for (into, from) in bits.iter_mut().zip(&before[exact * width..(exact + 1) * width]) {
                        *into |= from;
                    }
                }
                let inverted = segment.dictionary(clause.field, *twin);
                let slot = if *twin { &mut scratch.twin } else { &mut scratch.docs_only };
                for info in &terms[ordinal] {
                    set_docs(read_postings(slot, inverted, info, IndexRecordOption::Basic)?, bits);
                }
            }
        }
    }
    Ok(())
}

/// Sets the bit of every document of `block`'s postings in `bits`.
fn set_docs(block: &mut BlockSegmentPostings, bits: &mut [u64]) {
    while !block.docs().is_empty() {
        for &doc in block.docs() {
            bits[doc as usize >> 6] |= 1 << (doc & 63);
        }
        block.advance();
    }
}

/// How many words a search has, and how many of them a match needs.
#[derive(Debug, Clone, Copy)]
struct Needed {
    words: usize,
    at_least: usize,
}

/// The matches of the segment (enough words in some clause each) into `scratch.matches`, and the
/// documents with every word into `scratch.every`; returns how many match.
fn intersect(segment: &SegmentView, clauses: &[Clause], words: Needed, scratch: &mut Scratch) -> usize {
    let some = words.at_least < words.words;
    if some && words.at_least > 1 {
        return at_least(segment, clauses, words, scratch);
    }
    let width = scratch.width;
    scratch.every.iter_mut().for_each(|w| *w = u64::MAX);
    if !segment.max_doc.is_multiple_of(64) {
        scratch.every[width - 1] = (1 << (segment.max_doc % 64)) - 1;
    }
    for word in 0..words.words {
        scratch.word.iter_mut().for_each(|w| *w = 0);
        for (index, _) in clauses.iter().enumerate().filter(|(_, c)| c.word == word) {
            for (into, from) in scratch.word.iter_mut().zip(&scratch.clauses[index * width..(index + 1) * width]) {
                *into |= from;
            }
        }
        for (every, from) in scratch.every.iter_mut().zip(&scratch.word) {
            *every &= from;
        }
        if some {
            for (any, from) in scratch.matches.iter_mut().zip(&scratch.word) {
                *any |= from;
            }
        }
    }
    if !some {
        scratch.matches.copy_from_slice(&scratch.every);
    }
    scratch.matches.iter().map(|w| w.count_ones() as usize).sum()
}

/// [`intersect`] when a match needs more than one of the words but not all: counts each
/// document's words.
fn at_least(segment: &SegmentView, clauses: &[Clause], words: Needed, scratch: &mut Scratch) -> usize {
    let width = scratch.width;
    let mut counts = vec![0u16; segment.max_doc];
    for word in 0..words.words {
        scratch.word.iter_mut().for_each(|w| *w = 0);
        for (index, _) in clauses.iter().enumerate().filter(|(_, c)| c.word == word) {
            for (into, from) in scratch.word.iter_mut().zip(&scratch.clauses[index * width..(index + 1) * width]) {
                *into |= from;
            }
        }
        for (w, &bits) in scratch.word.iter().enumerate() {
            for_each_doc(w, bits, |doc| counts[doc] = counts[doc].saturating_add(1));
        }
    }
    scratch.matches.iter_mut().for_each(|w| *w = 0);
    scratch.every.iter_mut().for_each(|w| *w = 0);
    let mut total = 0;
    for (doc, &count) in counts.iter().enumerate().filter(|(_, &count)| usize::from(count) >= words.at_least) {
        scratch.matches[doc >> 6] |= 1 << (doc & 63);
        if usize::from(count) == words.words {
            scratch.every[doc >> 6] |= 1 << (doc & 63);
        }
        total += 1;
    }
    total
}

/// The most clause `index` can add to a score in this segment (0 when it matches nothing here).
fn bound(segment: &SegmentView, clauses: &[Clause], scratch: &Scratch, index: usize) -> f64 {
    match &clauses[index].kind {
        Kind::Exact { weight, .. } if scratch.max_freq[index] > 0 => {
            f64::from(weight.score(segment.shortest[clauses[index].field], scratch.max_freq[index]))
        }
        Kind::Prefix { score, .. } | Kind::ShortPrefix { score, .. } if scratch.bits(index).iter().any(|&w| w != 0) => {
            f64::from(*score)
        }
        _ => 0.0,
    }
}

/// The first key after every key that starts with `prefix` (UTF-8 never has a 0xff byte).
fn after_prefix(prefix: &[u8]) -> Vec<u8> {
    let mut end = prefix.to_vec();
    while let Some(last) = end.pop() {
        if last < 0xff {
            end.push(last + 1);
            break;
        }
    }
    end
}

impl Engine {
    /// The engine over the segments of `searcher`, each holding the documents of `collections[i]`.
    pub fn new(searcher: &Searcher, fields: &Fields, collections: Vec<String>) -> tantivy::Result<Self> {
        let weighted = fields.weighted();
        let mut segments = Vec::with_capacity(collections.len());
        let mut total_docs = 0u64;
        let mut total_tokens = [0u64; FIELDS];
        for (reader, collection) in searcher.segment_readers().iter().zip(collections) {
            let max_doc = reader.max_doc() as usize;
            total_docs += max_doc as u64;
            let mut inverted = Vec::with_capacity(FIELDS);
            let mut prefixes = Vec::with_capacity(FIELDS);
            for field in fields.prefixes {
                prefixes.push(reader.inverted_index(field)?);
            }
            let mut fieldnorms = Vec::with_capacity(FIELDS);
            let mut shortest = [u8::MAX; FIELDS];
            for (i, (field, _)) in weighted.iter().enumerate() {
                let index = reader.inverted_index(*field)?;
                total_tokens[i] += index.total_num_tokens();
                inverted.push(index);
                let norms = reader.get_fieldnorms_reader(*field)?;
                shortest[i] =
                    (0..max_doc as u32).map(|d| norms.fieldnorm_id(d)).filter(|&id| id > 0).min().unwrap_or(1);
                fieldnorms.push(norms);
            }
            let (Ok(inverted), Ok(prefixes), Ok(fieldnorms)) =
                (inverted.try_into(), prefixes.try_into(), fieldnorms.try_into())
            else {
                return Err(tantivy::TantivyError::InternalError("five searched fields".into()));
            };
            segments.push(SegmentView { collection, max_doc, inverted, prefixes, fieldnorms, shortest });
        }
        let average_fieldnorm = total_tokens.map(|tokens| tokens as Score / total_docs as Score);
        let largest_segment = segments.iter().map(|s| s.max_doc).max().unwrap_or(0);
        let lexicon = Arc::new(OnceLock::new());
        #[cfg(not(target_arch = "wasm32"))]
        build_lexicon(&segments, Arc::clone(&lexicon));
        Ok(Engine {
            segments,
            weighted,
            total_docs,
            average_fieldnorm,
            largest_segment,
            lexicon,
            #[cfg(test)]
            dictionaries_only: false,
            scratch: Mutex::new(Vec::new()),
            #[cfg(not(target_arch = "wasm32"))]
            two_threads_over: TWO_THREADS_OVER,
        })
    }

    /// Runs searches over at least `docs` documents on two threads (tests split small indexes).
    #[cfg(all(test, not(target_arch = "wasm32")))]
    pub(crate) fn split_over(&mut self, docs: usize) {
        self.two_threads_over = docs;
    }

    /// Asks each segment's term dictionary rather than the [`Lexicon`], as the Worker does (tests
    /// compare the two).
    #[cfg(test)]
    pub(crate) fn without_lexicon(&mut self) {
        self.dictionaries_only = true;
    }

    /// Waits until the lexicon is built (tests of the native path).
    #[cfg(all(test, not(target_arch = "wasm32")))]
    pub(crate) fn wait_for_lexicon(&self) {
        self.lexicon.wait();
    }

    /// The lexicon, once it is built.
    fn lexicon(&self) -> Option<&Lexicon> {
        #[cfg(test)]
        if self.dictionaries_only {
            return None;
        }
        self.lexicon.get()
    }

    /// The segments, in order.
    pub fn segments(&self) -> &[SegmentView] {
        &self.segments
    }

    /// What a search of `words` reads: whatever the caller gives, each word once and at most
    /// [`limits::MAX_QUERY_WORDS`] of them ([`limits::distinct`]), so one query's work stays
    /// bounded (docs/spec/api-spec.md#query-limits).
    fn plan(&self, words: &[String], searched: &[bool], leniency: &Leniency) -> tantivy::Result<Plan> {
        let words = limits::distinct(words);
        let clauses = self.clauses(&words, searched, leniency)?;
        Ok(Plan { words, clauses })
    }

    /// The size of a search's [`Engine::plan`] over every segment: its words, clauses, and the
    /// terms its prefix and form clauses expand to (counted per segment).
    #[cfg(test)]
    pub(crate) fn plan_size(&self, words: &[String], leniency: &Leniency) -> (usize, usize, usize) {
        let every = vec![true; self.segments.len()];
        let plan = self.plan(words, &every, leniency).expect("a plan");
        let expansions = plan
            .clauses
            .iter()
            .map(|clause| match &clause.kind {
                Kind::Prefix { terms, .. } => terms.iter().map(Vec::len).sum(),
                Kind::Exact { .. } | Kind::ShortPrefix { .. } => 0,
            })
            .sum();
        (plan.words.len(), plan.clauses.len(), expansions)
    }

    /// The clauses of `words`, in the order tantivy's query adds their scores. Exact terms are
    /// looked up in every segment (their statistics count the whole index), prefix twins only in
    /// the segments `searched`.
    fn clauses(&self, words: &[String], searched: &[bool], leniency: &Leniency) -> tantivy::Result<Vec<Clause>> {
        let mut clauses = Vec::new();
        for (word, text) in words.iter().enumerate() {
            self.word_clauses(word, text, word + 1 == words.len(), searched, leniency, &mut clauses)?;
        }
        Ok(clauses)
    }

    /// Adds the clauses of word number `word` (`text`; `last` also matches as a prefix) to
    /// `clauses`: per field its exact term, then its prefix, then (when lenient) its other forms.
    fn word_clauses(
        &self,
        word: usize,
        text: &str,
        last: bool,
        searched: &[bool],
        leniency: &Leniency,
        clauses: &mut Vec<Clause>,
    ) -> tantivy::Result<()> {
        let key = text.as_bytes();
        let forms = leniency.forms.and_then(|forms| forms.of(text).map(|of| (forms, of)));
        let synonyms = leniency.forms.map(|forms| forms.synonyms_of(text)).unwrap_or_default();
        let mut memo = HashMap::new();
        for (field, &(_, boost)) in self.weighted.iter().enumerate().take(leniency.fields) {
            let exact_clause = self.exact_clause(word, field, key, boost, clauses)?;
            for other in &synonyms {
                self.exact_clause(word, field, other.as_bytes(), boost * FORM_DISCOUNT, clauses)?;
            }
            if last {
                let score = boost * PREFIX_DISCOUNT;
                let chars = text.chars().count();
                let kind = if chars == PREFIX_CHARS {
                    Kind::ShortPrefix { score, postings: self.lookup(field, true, key, Some(searched))? }
                } else {
                    // Shorter: the twin's terms that start with it (itself included); longer:
                    // the field's, the whole word's postings being its exact clause's.
                    let twin = chars < PREFIX_CHARS;
                    let exact = exact_clause.filter(|_| !twin);
                    let terms = self.starting_with(field, twin, key, exact.is_some(), searched)?;
                    Kind::Prefix { score, terms, exact, twin }
                };
                clauses.push(Clause { word, field, kind });
            }
            if let Some((forms, of)) = &forms {
                let terms = self.forms_in(field, key, forms, of, searched, &mut memo)?;
                if terms.iter().any(|t| !t.is_empty()) {
                    let kind = Kind::Prefix { score: boost * FORM_DISCOUNT, terms, exact: exact_clause, twin: false };
                    clauses.push(Clause { word, field, kind });
                }
            }
        }
        Ok(())
    }

    /// Adds the clause of `term` as written in `field` (boosted by `boost`) for word number `word`,
    /// when the index has it; its place in `clauses`.
    fn exact_clause(
        &self,
        word: usize,
        field: usize,
        term: &[u8],
        boost: f32,
        clauses: &mut Vec<Clause>,
    ) -> tantivy::Result<Option<usize>> {
        let postings = self.lookup(field, false, term, None)?;
        let doc_freq: u64 = postings.iter().flatten().map(|info| u64::from(info.doc_freq)).sum();
        if doc_freq == 0 {
            return Ok(None);
        }
        let weight = Bm25Weight::for_one_term(doc_freq, self.total_docs, self.average_fieldnorm[field]).boost_by(boost);
        clauses.push(Clause { word, field, kind: Kind::Exact { weight, postings } });
        Ok(Some(clauses.len() - 1))
    }

    /// Per segment `wanted`, the postings of the other forms of `word` (see [`Forms`]) in field
    /// `field`; `memo` keeps which terms are forms, for the next fields.
    fn forms_in(
        &self,
        field: usize,
        word: &[u8],
        forms: &Forms,
        of: &WordForms,
        wanted: &[bool],
        memo: &mut HashMap<Vec<u8>, bool>,
    ) -> tantivy::Result<Vec<Vec<TermInfo>>> {
        let mut is_form = |term: &[u8]| -> bool {
            if term == word {
                return false;
            }
            if let Some(&known) = memo.get(term) {
                return known;
            }
            let form = std::str::from_utf8(term).is_ok_and(|term| forms.matches(term, of));
            memo.insert(term.to_vec(), form);
            form
        };
        let prefix = of.prefix.as_bytes();
        let mut found = vec![Vec::new(); self.segments.len()];
        if let Some(lexicon) = self.lexicon() {
            for (term, postings) in lexicon.table(field, false).starting_with(prefix) {
                if is_form(term) {
                    for posting in postings.iter().filter(|p| wanted[p.segment as usize]) {
                        found[posting.segment as usize].push(posting.info());
                    }
                }
            }
            return Ok(found);
        }
        for (segment, infos) in found.iter_mut().enumerate().filter(|(segment, _)| wanted[*segment]) {
            let dictionary = self.segments[segment].dictionary(field, false).terms();
            let mut terms = dictionary.range().ge(prefix).lt(after_prefix(prefix)).into_stream()?;
            while terms.advance() {
                if is_form(terms.key()) {
                    infos.push(terms.value().clone());
                }
            }
        }
        Ok(found)
    }

    /// Whether `text` (the `last` word, or another) matches any document of the segments `wanted`
    /// under `leniency`'s word forms.
    pub fn knows(&self, text: &str, last: bool, leniency: &Leniency, wanted: &[bool]) -> tantivy::Result<bool> {
        let mut clauses = Vec::new();
        self.word_clauses(0, text, last, wanted, leniency, &mut clauses)?;
        let somewhere = |postings: &[Option<TermInfo>]| postings.iter().zip(wanted).any(|(p, &w)| w && p.is_some());
        Ok(clauses.iter().any(|clause| match &clause.kind {
            Kind::Exact { postings, .. } | Kind::ShortPrefix { postings, .. } => somewhere(postings),
            Kind::Prefix { terms, .. } => terms.iter().any(|t| !t.is_empty()),
        }))
    }

    /// The words of the segments `wanted` at most `distance` edits from `text` (a swap of two
    /// neighbours counts as one), each with how many documents have it in some field (counted
    /// once per field).
    pub fn near_words(&self, text: &str, distance: u8, wanted: &[bool]) -> tantivy::Result<BTreeMap<String, u64>> {
        let mut found = BTreeMap::new();
        // One automaton for every dictionary (only the term's text counts, not its field).
        let automaton =
            FuzzyTermQuery::new(Term::from_field_text(self.weighted[0].0, text), distance, true).automaton()?;
        if let Some(lexicon) = self.lexicon() {
            for field in 0..FIELDS {
                lexicon.table(field, false).each_match(&automaton, |term, postings| {
                    let docs = postings
                        .iter()
                        .filter(|p| wanted.get(p.segment as usize) == Some(&true))
                        .map(|p| u64::from(p.info().doc_freq))
                        .reduce(|sum, docs| sum + docs);
                    if let (Some(docs), Ok(term)) = (docs, std::str::from_utf8(term)) {
                        *found.entry(term.to_string()).or_insert(0) += docs;
                    }
                });
            }
            return Ok(found);
        }
        for (segment, _) in self.segments.iter().zip(wanted).filter(|(_, &w)| w) {
            for field in 0..FIELDS {
                let dictionary = segment.dictionary(field, false).terms();
                let mut terms = dictionary.search(&automaton).into_stream()?;
                while terms.advance() {
                    if let Ok(term) = std::str::from_utf8(terms.key()) {
                        *found.entry(term.to_string()).or_insert(0) += u64::from(terms.value().doc_freq);
                    }
                }
            }
        }
        Ok(found)
    }

    /// Where `key` is in each segment of field `field` (or of its prefix `twin`), `None` where it
    /// is absent or (when `wanted` is given) not wanted.
    fn lookup(
        &self,
        field: usize,
        twin: bool,
        key: &[u8],
        wanted: Option<&[bool]>,
    ) -> tantivy::Result<Vec<Option<TermInfo>>> {
        let wanted = |segment: usize| wanted.is_none_or(|wanted| wanted[segment]);
        let mut found = vec![None; self.segments.len()];
        if let Some(lexicon) = self.lexicon() {
            for posting in lexicon.table(field, twin).find(key) {
                let segment = posting.segment as usize;
                if wanted(segment) {
                    found[segment] = Some(posting.info());
                }
            }
            return Ok(found);
        }
        for (segment, slot) in found.iter_mut().enumerate().filter(|(segment, _)| wanted(*segment)) {
            *slot = self.segments[segment].dictionary(field, twin).terms().get(key)?;
        }
        Ok(found)
    }

    /// Per segment `wanted`, the postings of every term of field `field` (or of its prefix `twin`)
    /// that starts with `prefix`, but `prefix` itself when `but_itself`.
    fn starting_with(
        &self,
        field: usize,
        twin: bool,
        prefix: &[u8],
        but_itself: bool,
        wanted: &[bool],
    ) -> tantivy::Result<Vec<Vec<TermInfo>>> {
        let mut found = vec![Vec::new(); self.segments.len()];
        if let Some(lexicon) = self.lexicon() {
            for (term, postings) in lexicon.table(field, twin).starting_with(prefix) {
                if but_itself && term == prefix {
                    continue;
                }
                for posting in postings.iter().filter(|p| wanted[p.segment as usize]) {
                    found[posting.segment as usize].push(posting.info());
                }
            }
            return Ok(found);
        }
        for (segment, infos) in found.iter_mut().enumerate().filter(|(segment, _)| wanted[*segment]) {
            let dictionary = self.segments[segment].dictionary(field, twin).terms();
            let mut terms = dictionary.range().ge(prefix).lt(after_prefix(prefix)).into_stream()?;
            while terms.advance() {
                if !(but_itself && terms.key() == prefix) {
                    infos.push(terms.value().clone());
                }
            }
        }
        Ok(found)
    }

    /// Searches `words` in the segments that `buckets` gives a bucket (`buckets[segment]`, one of
    /// `collections` buckets): per bucket, how many documents match and the best `limit`.
    pub fn search(
        &self,
        words: &[String],
        buckets: &[Option<usize>],
        collections: usize,
        limit: usize,
    ) -> tantivy::Result<Vec<Bucket>> {
        self.search_with(words, &Leniency::STRICT, buckets, collections, limit)
    }

    /// [`Engine::search`] under `leniency` (the API's search is [`Leniency::STRICT`]).
    pub fn search_with(
        &self,
        words: &[String],
        leniency: &Leniency,
        buckets: &[Option<usize>],
        collections: usize,
        limit: usize,
    ) -> tantivy::Result<Vec<Bucket>> {
        let mut found = Found::new(collections, limit);
        if !words.is_empty() {
            let wanted: Vec<bool> =
                (0..self.segments.len()).map(|o| buckets.get(o).copied().flatten().is_some()).collect();
            let Plan { words, clauses } = self.plan(words, &wanted, leniency)?;
            let searched: Vec<(usize, usize)> = (0..self.segments.len())
                .filter_map(|ordinal| buckets.get(ordinal).copied().flatten().map(|bucket| (ordinal, bucket)))
                .collect();
            let words = Needed { words: words.len(), at_least: leniency.min_words.clamp(1, words.len()) };
            found = self.search_parts(&clauses, words, &searched, found)?;
        }
        Ok(found
            .totals
            .into_iter()
            .zip(found.tops)
            .map(|(total, top)| Bucket { total, top: top.into_sorted() })
            .collect())
    }

    /// The segments `searched` (ordinal, bucket): natively, a big search in two halves on two
    /// threads (the top hits of a collection split over both are merged: each half keeps its exact
    /// best `limit`, so the same hits come out); otherwise one after the other.
    fn search_parts(
        &self,
        clauses: &[Clause],
        words: Needed,
        searched: &[(usize, usize)],
        found: Found,
    ) -> tantivy::Result<Found> {
        #[cfg(not(target_arch = "wasm32"))]
        {
            let docs: usize = searched.iter().map(|&(ordinal, _)| self.segments[ordinal].max_doc).sum();
            if docs >= self.two_threads_over {
                let mut sum = 0;
                let half = searched
                    .iter()
                    .position(|&(ordinal, _)| {
                        sum += self.segments[ordinal].max_doc;
                        sum * 2 >= docs
                    })
                    .map_or(searched.len(), |at| at + 1);
                let (first, second) = searched.split_at(half);
                let other = Found::new(found.totals.len(), found.limit);
                let (found, other) = rayon::join(
                    || self.search_segments(clauses, words, first, found),
                    || self.search_segments(clauses, words, second, other),
                );
                let mut found = found?;
                found.merge(other?);
                return Ok(found);
            }
        }
        self.search_segments(clauses, words, searched, found)
    }

    /// The segments `searched` (ordinal, bucket), one after the other.
    fn search_segments(
        &self,
        clauses: &[Clause],
        words: Needed,
        searched: &[(usize, usize)],
        mut found: Found,
    ) -> tantivy::Result<Found> {
        let mut scratch = self.scratch.lock().unwrap_or_else(PoisonError::into_inner).pop().unwrap_or_default();
        scratch.prepare(clauses, self.largest_segment);
        for &(ordinal, bucket) in searched {
            let top = &mut found.tops[bucket];
            found.totals[bucket] +=
                self.segment(ordinal, &self.segments[ordinal], clauses, words, &mut scratch, top)?;
        }
        self.scratch.lock().unwrap_or_else(PoisonError::into_inner).push(scratch);
        Ok(found)
    }

    /// One segment: returns its match count and offers its possible top hits to `top`.
    fn segment(
        &self,
        ordinal: usize,
        segment: &SegmentView,
        clauses: &[Clause],
        words: Needed,
        scratch: &mut Scratch,
        top: &mut TopK,
    ) -> tantivy::Result<usize> {
        let present = (0..words.words).filter(|&word| !absent(clauses, ordinal, word)).count();
        if present < words.at_least {
            return Ok(0);
        }
        scratch.reset(clauses.len(), segment.max_doc);
        read_clauses(ordinal, segment, clauses, scratch)?;
        let total = intersect(segment, clauses, words, scratch);
        if total > 0 && words.at_least < words.words {
            // Documents with every word first: once they fill the top, the others cannot get in.
            self.rank(ordinal, segment, clauses, scratch, top, true);
            if top.threshold().is_some_and(|(worst, _)| worst as usize >= words.words) {
                return Ok(total);
            }
        }
        if total > 0 {
            self.rank(ordinal, segment, clauses, scratch, top, false);
        }
        Ok(total)
    }

    /// Scores the matches of one segment (their clauses' bits in `scratch`) that can change the
    /// top hits, and offers them to `top` (MaxScore, see the module's documentation): a document
    /// is skipped when neither its words nor its clauses' bounds can beat the worst hit kept. Only
    /// the documents with every word when `every`; a document already scored is not again.
    fn rank(
        &self,
        ordinal: usize,
        segment: &SegmentView,
        clauses: &[Clause],
        scratch: &mut Scratch,
        top: &mut TopK,
        every: bool,
    ) {
        let width = scratch.width;
        let ahead = Ahead::new(segment, clauses, scratch);
        // The clauses' bits of the 64 documents at hand: all of them (to score), and from the
        // clause at hand on in `ahead`'s order (to bound).
        let mut window = vec![0u64; clauses.len()];
        let mut from_here = vec![0u64; ahead.order.len()];
        for (at, &clause) in ahead.order.iter().enumerate() {
            // A document not scored yet has none of the clauses gone through.
            if top.threshold().is_some_and(|worst| !could_beat(ahead.reach_from(at), worst)) {
                break;
            }
            for w in 0..width {
                let wanted = if every { scratch.every[w] } else { scratch.matches[w] };
                let candidates = wanted & scratch.clauses[clause * width + w] & !scratch.scored[w];
                if candidates == 0 {
                    continue;
                }
                scratch.scored[w] |= candidates;
                for (bits, &index) in from_here[at..].iter_mut().zip(&ahead.order[at..]) {
                    *bits = scratch.clauses[index * width + w];
                }
                let worst = top.threshold();
                // Often none of the 64 can get in: then none is looked at one by one.
                if worst.is_some_and(|worst| !could_beat(ahead.reach(at, &from_here, candidates), worst)) {
                    continue;
                }
                for (index, bits) in window.iter_mut().enumerate() {
                    *bits = scratch.clauses[index * width + w];
                }
                for_each_doc(w, candidates, |doc| {
                    let mask = 1u64 << (doc & 63);
                    if top.threshold().is_some_and(|worst| !could_beat(ahead.reach(at, &from_here, mask), worst)) {
                        return;
                    }
                    let (words, score) = self.score(segment, clauses, scratch, &window, doc);
                    top.offer(Ranked { words, score, address: DocAddress::new(ordinal as u32, doc as u32) });
                });
            }
        }
    }

    /// How many words `doc` has and its score, whose clauses' bits `window` holds: per word the
    /// sum of its clauses in order, then the words in order.
    #[inline]
    fn score(
        &self,
        segment: &SegmentView,
        clauses: &[Clause],
        scratch: &Scratch,
        window: &[u64],
        doc: usize,
    ) -> (u32, Score) {
        let mask = 1u64 << (doc & 63);
        let mut total: Score = 0.0;
        let mut word_score: Score = 0.0;
        let mut word = 0;
        let mut words = 0;
        let mut has_word = false;
        for (index, (clause, bits)) in clauses.iter().zip(window).enumerate() {
            if clause.word != word {
                total = if word == 0 { word_score } else { total + word_score };
                word_score = 0.0;
                word = clause.word;
                words += u32::from(has_word);
                has_word = false;
            }
            if bits & mask == 0 {
                continue;
            }
            has_word = true;
            word_score += match &clause.kind {
                Kind::Exact { weight, .. } => {
                    let fieldnorm = segment.fieldnorms[clause.field].fieldnorm_id(doc as u32);
                    weight.score(fieldnorm, scratch.freqs[scratch.freq_slot[index] + doc])
                }
                Kind::Prefix { score, .. } | Kind::ShortPrefix { score, .. } => *score,
            };
        }
        let words = words + u32::from(has_word);
        if word == 0 {
            (words, word_score)
        } else {
            (words, total + word_score)
        }
    }
}

/// The clauses of one segment that match something, best bound first, and what they can add to a
/// score: the MaxScore order of [`Engine::rank`].
struct Ahead {
    /// Clause indexes, highest bound first.
    order: Vec<usize>,
    /// Per position of `order`, its clause's bound and its word (as a bit).
    bounds: Vec<f64>,
    words: Vec<u64>,
    /// Per position, the sum of the bounds from it on, and their words (one more, empty, at the end).
    rest: Vec<f64>,
    words_from: Vec<u64>,
}

impl Ahead {
    fn new(segment: &SegmentView, clauses: &[Clause], scratch: &Scratch) -> Self {
        let all: Vec<f64> = (0..clauses.len()).map(|index| bound(segment, clauses, scratch, index)).collect();
        let mut order: Vec<usize> = (0..clauses.len()).filter(|&i| all[i] > 0.0).collect();
        order.sort_by(|&a, &b| all[b].total_cmp(&all[a]).then(a.cmp(&b)));
        let bounds: Vec<f64> = order.iter().map(|&i| all[i]).collect();
        let words: Vec<u64> = order.iter().map(|&i| 1u64 << (clauses[i].word % 64)).collect();
        let (mut rest, mut words_from) = (vec![0.0; order.len() + 1], vec![0u64; order.len() + 1]);
        for at in (0..order.len()).rev() {
            rest[at] = rest[at + 1] + bounds[at];
            words_from[at] = words_from[at + 1] | words[at];
        }
        Ahead { order, bounds, words, rest, words_from }
    }

    /// The most a document with none of the clauses before position `at` can reach.
    fn reach_from(&self, at: usize) -> (u32, f64) {
        (self.words_from[at].count_ones(), self.rest[at])
    }

    /// The most the documents `mask` can reach, when none has a clause before position `at` and
    /// `from_here` holds the bits of the clauses from `at` on (in this order): how many words they
    /// have, and the sum of their clauses' bounds.
    #[inline]
    fn reach(&self, at: usize, from_here: &[u64], mask: u64) -> (u32, f64) {
        let (mut words, mut best) = (0u64, 0.0);
        for ((bits, bound), word) in from_here[at..].iter().zip(&self.bounds[at..]).zip(&self.words[at..]) {
            if bits & mask != 0 {
                best += bound;
                words |= word;
            }
        }
        (words.count_ones(), best)
    }
}

/// Whether a document with `words` of the words and a score of at most `best` could rank above
/// the worst hit kept (with room for rounding).
fn could_beat((words, best): (u32, f64), (worst_words, worst_score): (u32, Score)) -> bool {
    words > worst_words || words == worst_words && best * (1.0 + 1e-5) >= f64::from(worst_score)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_key_after_a_prefix_bounds_every_word_that_starts_with_it() {
        assert_eq!(after_prefix(b"wat"), b"wau");
        assert_eq!(after_prefix("é".as_bytes()), [0xc3, 0xaa]);
        assert!(b"water".as_slice() < after_prefix(b"wat").as_slice());
    }
}
