//! One sorted table of terms per field for the whole index, each term with the segments that hold
//! it and where its postings are: what a search would otherwise ask every segment's term dictionary.
//!
//! The index is many content-defined segments (44 at 100,000 records, see
//! [`super::plan`](mod@super::plan)), each with its own dictionary. A query looks every word up in
//! every segment (its statistics count the whole index) and walks every segment's terms that start
//! with the last word: on a realistic vocabulary that was about a third of a search's time (tantivy's
//! FST `get` and term streams, measured with perf at 100k records). The table answers a word with
//! one binary search and a prefix with one range, whichever the number of segments, and the
//! search page's typo neighbours with one walk of the table instead of one per segment.
//!
//! Natively the engine builds the tables on a thread of its own once the index is open (16 bytes
//! per term and segment: about 21 MiB at 100k records of a realistic vocabulary). The Worker does
//! not: an isolate opens the index for the searches of its short life, where building them would
//! cost more than the lookups they save, so it asks the segments' dictionaries instead; so does `portal serve` for
//! an index past [`super::matching`]'s cap on the table's size.
//! Both give the engine the same postings, so the same answers ([`super::matching`]'s tests compare
//! the two).

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use tantivy::postings::TermInfo;
use tantivy::InvertedIndexReader;
use tantivy_fst::Automaton;

/// Where one term's postings are in one segment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Posting {
    /// The segment's ordinal.
    pub segment: u32,
    doc_freq: u32,
    start: u32,
    len: u32,
}

impl Posting {
    /// The term's `TermInfo` in its segment (the searched fields have no positions).
    pub fn info(&self) -> TermInfo {
        let start = self.start as usize;
        TermInfo { doc_freq: self.doc_freq, postings_range: start..start + self.len as usize, positions_range: 0..0 }
    }
}

/// The terms of one field in every segment, in byte order.
#[derive(Debug, Default)]
pub struct Table {
    /// The terms, one after the other.
    bytes: Vec<u8>,
    /// Where each term ends in `bytes`.
    ends: Vec<u32>,
    /// Where each term's postings end in `postings` (a term's start where the previous one ends).
    firsts: Vec<u32>,
    postings: Vec<Posting>,
}

impl Table {
    /// The table of one field from its inverted index in each segment, in segment order.
    #[cfg_attr(target_arch = "wasm32", allow(dead_code))]
    pub fn build(segments: &[&InvertedIndexReader]) -> std::io::Result<Table> {
        let mut streams = Vec::with_capacity(segments.len());
        for inverted in segments {
            streams.push(inverted.terms().stream()?);
        }
        // A k-way merge: the smallest current key of every segment's stream, segments in order.
        let mut heap = BinaryHeap::new();
        for (segment, stream) in streams.iter_mut().enumerate() {
            if stream.advance() {
                heap.push(Reverse((stream.key().to_vec(), segment)));
            }
        }
        let mut table = Table::default();
        while let Some(Reverse((key, segment))) = heap.pop() {
            let stream = &mut streams[segment];
            let info = stream.value();
            if table.ends.is_empty() || table.term(table.ends.len() - 1) != key.as_slice() {
                table.bytes.extend_from_slice(&key);
                table.ends.push(offset(table.bytes.len())?);
                table.firsts.push(offset(table.postings.len())?);
            }
            table.postings.push(Posting {
                segment: offset(segment)?,
                doc_freq: info.doc_freq,
                start: offset(info.postings_range.start)?,
                len: offset(info.postings_range.len())?,
            });
            if stream.advance() {
                heap.push(Reverse((stream.key().to_vec(), segment)));
            }
        }
        Ok(table)
    }

    fn term(&self, i: usize) -> &[u8] {
        let start = if i == 0 { 0 } else { self.ends[i - 1] as usize };
        &self.bytes[start..self.ends[i] as usize]
    }

    fn postings_of(&self, i: usize) -> &[Posting] {
        let end = self.firsts.get(i + 1).map_or(self.postings.len(), |&end| end as usize);
        &self.postings[self.firsts[i] as usize..end]
    }

    /// Where `key` is in every segment that has it.
    pub fn find(&self, key: &[u8]) -> &[Posting] {
        let at = self.lower_bound(key);
        if at < self.ends.len() && self.term(at) == key {
            self.postings_of(at)
        } else {
            &[]
        }
    }

    /// Every term that starts with `prefix` (itself included), in order, with its postings.
    pub fn starting_with<'a>(&'a self, prefix: &'a [u8]) -> impl Iterator<Item = (&'a [u8], &'a [Posting])> + 'a {
        (self.lower_bound(prefix)..self.ends.len())
            .map(|i| (self.term(i), self.postings_of(i)))
            .take_while(move |(term, _)| term.starts_with(prefix))
    }

    /// Calls `found` with every term `automaton` matches, in order, with its postings: the walk an
    /// FST search makes, over the sorted table. The states of the current term's prefix are kept
    /// for the next term, and once a prefix can match nothing, every term it starts is skipped with
    /// one binary search (a typo's neighbours in a dictionary of 100,000s of terms are a few
    /// thousand steps, not a walk of each segment's dictionary).
    pub fn each_match<A: Automaton>(&self, automaton: &A, mut found: impl FnMut(&[u8], &[Posting])) {
        // states[d]: the automaton's state after the first d bytes of the last term walked.
        let mut states = vec![automaton.start()];
        let mut previous: &[u8] = &[];
        let mut i = 0;
        while i < self.ends.len() {
            let term = self.term(i);
            let shared = previous.iter().zip(term).take_while(|(a, b)| a == b).count();
            states.truncate(shared + 1);
            previous = term;
            let mut dead = None;
            for depth in states.len() - 1..term.len() {
                let next = automaton.accept(&states[depth], term[depth]);
                if !automaton.can_match(&next) {
                    dead = Some(depth + 1);
                    break;
                }
                states.push(next);
            }
            match dead {
                Some(length) => i = self.after_prefix(&term[..length]).max(i + 1),
                None => {
                    if states.last().is_some_and(|state| automaton.is_match(state)) {
                        found(term, self.postings_of(i));
                    }
                    i += 1;
                }
            }
        }
    }

    /// The first term that does not start with `prefix` and sorts after it.
    fn after_prefix(&self, prefix: &[u8]) -> usize {
        let mut next = prefix.to_vec();
        while let Some(last) = next.pop() {
            if last < u8::MAX {
                next.push(last + 1);
                return self.lower_bound(&next);
            }
        }
        self.ends.len()
    }

    /// The first term not below `key`.
    fn lower_bound(&self, key: &[u8]) -> usize {
        let (mut low, mut high) = (0, self.ends.len());
        while low < high {
            let middle = (low + high) / 2;
            if self.term(middle) < key {
                low = middle + 1;
            } else {
                high = middle;
            }
        }
        low
    }
}

/// The tables of the searched fields and of their prefix twins.
#[derive(Debug, Default)]
pub struct Lexicon {
    fields: Vec<Table>,
    twins: Vec<Table>,
}

impl Lexicon {
    /// The tables of `fields` and `twins`, each given as its inverted index in every segment, in
    /// segment order. One after the other, on the caller's thread: the engine builds them on a
    /// thread of its own, leaving rayon's pool to the searches that run meanwhile.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn build(fields: &[Vec<&InvertedIndexReader>], twins: &[Vec<&InvertedIndexReader>]) -> std::io::Result<Self> {
        let build = |of: &[Vec<&InvertedIndexReader>]| -> std::io::Result<Vec<Table>> {
            of.iter().map(|segments| Table::build(segments)).collect()
        };
        Ok(Lexicon { fields: build(fields)?, twins: build(twins)? })
    }

    /// The table of field `field` (in the engine's order), or of its prefix twin.
    pub fn table(&self, field: usize, twin: bool) -> &Table {
        let tables = if twin { &self.twins } else { &self.fields };
        &tables[field]
    }
}

/// Offsets fit 32 bits: a segment file is at most [`super::pack::MAX_SEGMENT_BYTES`].
fn offset(value: usize) -> std::io::Result<u32> {
    u32::try_from(value).map_err(|_| std::io::Error::other("a search segment is larger than 4 GiB"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table<T: AsRef<[u8]>>(terms: &[(T, &[u32])]) -> Table {
        let mut table = Table::default();
        for (term, segments) in terms {
            table.bytes.extend_from_slice(term.as_ref());
            table.ends.push(table.bytes.len() as u32);
            table.firsts.push(table.postings.len() as u32);
            for &segment in *segments {
                table.postings.push(Posting { segment, doc_freq: 1, start: segment * 10, len: 3 });
            }
        }
        table
    }

    #[test]
    fn a_term_is_found_with_its_segments_and_a_prefix_with_its_terms() {
        let table = table(&[("wat", &[1]), ("water", &[0, 2]), ("waters", &[2]), ("wax", &[0])]);
        let segments = |postings: &[Posting]| postings.iter().map(|p| p.segment).collect::<Vec<_>>();
        assert_eq!(segments(table.find(b"water")), [0, 2]);
        assert_eq!(table.find(b"water")[1].info().postings_range, 20..23);
        assert!(table.find(b"wate").is_empty());
        assert!(table.find(b"zebra").is_empty());
        assert!(table.find(b"").is_empty());
        let terms: Vec<&[u8]> = table.starting_with(b"wat").map(|(term, _)| term).collect();
        assert_eq!(terms, [&b"wat"[..], b"water", b"waters"]);
        assert_eq!(table.starting_with(b"wax").count(), 1);
        assert_eq!(table.starting_with(b"y").count(), 0);
        assert_eq!(Table::default().starting_with(b"a").count(), 0);
    }

    #[test]
    fn the_walk_finds_what_an_fst_search_finds() {
        // "watca" cannot be one edit from "water" past its "a", yet "watcer", after it, is.
        let words: [&[u8]; 19] = [
            b"",
            b"a",
            b"ab",
            b"vacation",
            b"vaccinat",
            b"vaccination",
            b"vaccinations",
            b"vacination",
            b"vacinnation",
            b"vacuum",
            b"wat",
            b"watca",
            b"watcer",
            b"water",
            b"waters",
            b"wax",
            b"zz\xff",
            b"zz\xff\xff",
            b"\xff\xff",
        ];
        let table = table(&words.map(|w| (w, &[0u32, 3][..])));
        let fst = tantivy_fst::Map::from_iter(words.map(|w| (w, 0))).expect("sorted words");
        for (typed, distance) in [("vacination", 2), ("vacation", 1), ("water", 1), ("wa", 1), ("", 1), ("zz", 2)] {
            let term = tantivy::Term::from_field_text(tantivy::schema::Field::from_field_id(0), typed);
            let automaton = tantivy::query::FuzzyTermQuery::new(term, distance, true).automaton().expect("automaton");
            let mut walked = Vec::new();
            table.each_match(&automaton, |term, postings| {
                assert_eq!(postings.len(), 2);
                walked.push(term.to_vec());
            });
            let mut stream = tantivy_fst::IntoStreamer::into_stream(fst.search(&automaton));
            let mut searched = Vec::new();
            while let Some((term, _)) = tantivy_fst::Streamer::next(&mut stream) {
                searched.push(term.to_vec());
            }
            assert_eq!(walked, searched, "{typed} within {distance}");
            assert!(!walked.is_empty(), "{typed}");
        }
        assert_eq!(table.after_prefix(b"zz\xff"), 18, "a prefix ending in 0xff skips to the next byte up");
        assert_eq!(table.after_prefix(b"\xff"), 19);
    }
}
