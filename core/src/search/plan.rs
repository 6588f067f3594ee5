//! Which documents share a segment: contiguous runs of the documents sorted by `(collection, id)`,
//! cut where the content says so, so that adding, editing or removing one document changes only the
//! segment that holds it and an incremental build rebuilds that segment alone.
//!
//! A segment never spans two collections (the searcher maps each segment to one collection).
//! Inside a collection a segment starts at a document whose [`key_hash`] is `0 mod`
//! [`SEGMENT_BOUNDARY`] (content-defined chunking: the cut points are properties of the documents,
//! not of their positions), or when the current segment holds [`MAX_SEGMENT_DOCS`] documents.
//!
//! Removing a document that starts a segment joins its segment to the previous one, and adding a
//! document that starts one splits the segment it lands in: either way one range of the new plan is
//! new. Editing a document never moves a cut. A forced cut moves with insertions and removals
//! until the next content-defined cut; with `K` = 8192 and a maximum of 16,384, runs longer than
//! the maximum hold about 40 % of the documents of a collection much larger than `K` (none below
//! 16,384 documents), and an insertion there rebuilds about one segment more.
//!
//! ## The choice of `K` and the maximum (measured 2026-11 on the shared 2-core build machine)
//!
//! A one-record edit rebuilds one segment: about 30 to 50 µs a document on one core (so about 0.3
//! to 0.4 s for a segment of `K` = 8192 documents), against 3 to 6 s for the whole index of 110k
//! documents. Every segment adds a fixed cost to every query (term-dictionary lookups per word and
//! field, a prefix walk or twin lookup per field, postings readers, bitsets), and splitting a
//! collection duplicates its term dictionaries. Engine-only figures at 100k records plus 10k
//! entries (`core/tests/search_bench.rs`, 1,000 distinct queries, 1 ms pause between queries as in
//! a server; medians of two runs on a loaded machine, so the ordering holds better than the
//! figures):
//!
//! | K | max | segments | index, synthetic / realistic | p50, synthetic / realistic | slowest segment build |
//! |---|---|---|---|---|---|
//! | 2048 | 8192 | 90 | 16.7 / 50.7 MiB | 1.60 / 1.19 ms | 0.17 to 0.31 s |
//! | 4096 | 16384 | 58 | 15.8 / 46.6 MiB | 1.39 / 0.88 ms | 0.17 to 0.34 s |
//! | **8192** | **16384** | 43 | 15.4 / 44.1 MiB | 1.25 / 0.68 ms | 0.15 to 0.40 s |
//! | 16384 | 32768 | 35 | 15.2 / 42.7 MiB | 1.26 / 0.63 ms | 0.26 to 0.44 s |
//!
//! (The slowest segment at 100k records is bounded by the size of a collection, about 5,300
//! records, 10,000 entries; on a larger site a segment holds about `K` documents.) Below 8192,
//! queries slow down faster than rebuilds speed up; above it, queries hardly gain while a rebuild
//! doubles. The maximum is 2 `K` rather than more because it also bounds a segment's file: 16,384
//! documents take about 1.5 MiB on the synthetic corpus and 4 MiB on the realistic one (about
//! 250 bytes of index a document), so documents four times as heavy still fit in 20 MiB;
//! [`super::writer::build_segment`] refuses a segment over the limit rather than write a file a
//! Worker could not load.

use std::ops::Range;

/// A new segment starts at a document whose key hash is a multiple of this (the expected segment
/// size inside a large collection).
pub const SEGMENT_BOUNDARY: u64 = 8192;

/// The most documents one segment holds; a cut is forced when a segment reaches it.
pub const MAX_SEGMENT_DOCS: usize = 16_384;

/// FNV-1a, 64 bits: a stable hash (the same on every machine, build and version), unlike `std`'s
/// randomly keyed hasher. Not collision-resistant; used for cut points only.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    bytes.iter().fold(OFFSET, |hash, &byte| (hash ^ u64::from(byte)).wrapping_mul(PRIME))
}

/// The hash of a document's key: [`fnv1a64`] of the collection, a `0xff` byte (never in UTF-8, so
/// `("ab", "c")` and `("a", "bc")` differ) and the id.
pub fn key_hash(collection: &str, id: &str) -> u64 {
    let mut key = Vec::with_capacity(collection.len() + 1 + id.len());
    key.extend_from_slice(collection.as_bytes());
    key.push(0xff);
    key.extend_from_slice(id.as_bytes());
    fnv1a64(&key)
}

/// The segments of `keys`, the `(collection, id)` of every document sorted by `(collection, id)`:
/// contiguous ranges covering all of them, in order.
pub fn plan(keys: &[(&str, &str)]) -> Vec<Range<usize>> {
    plan_with(keys, SEGMENT_BOUNDARY, MAX_SEGMENT_DOCS)
}

/// [`plan`] with another boundary divisor and maximum (for measuring; both at least 1).
pub fn plan_with(keys: &[(&str, &str)], boundary: u64, max_docs: usize) -> Vec<Range<usize>> {
    let boundary = boundary.max(1);
    let max_docs = max_docs.max(1);
    let mut ranges = Vec::new();
    let mut start = 0;
    for (i, &(collection, id)) in keys.iter().enumerate().skip(1) {
        let new_collection = keys[i - 1].0 != collection;
        if new_collection || i - start >= max_docs || key_hash(collection, id).is_multiple_of(boundary) {
            ranges.push(start..i);
            start = i;
        }
    }
    if start < keys.len() {
        ranges.push(start..keys.len());
    }
    ranges
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(n: usize) -> Vec<(String, String)> {
        let mut keys: Vec<(String, String)> =
            (0..n).map(|i| (["events", "news", "services"][i % 3].to_string(), format!("record-{i:06}"))).collect();
        keys.sort();
        keys
    }

    fn borrowed(keys: &[(String, String)]) -> Vec<(&str, &str)> {
        keys.iter().map(|(c, i)| (c.as_str(), i.as_str())).collect()
    }

    /// Each range of a plan as the keys it holds, so plans of different key lists compare.
    fn segments(keys: &[(String, String)], boundary: u64, max: usize) -> Vec<Vec<(String, String)>> {
        plan_with(&borrowed(keys), boundary, max).into_iter().map(|r| keys[r].to_vec()).collect()
    }

    #[test]
    fn fnv1a64_matches_the_reference_values() {
        assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a64(b"foobar"), 0x8594_4171_f739_67e8);
        assert_ne!(key_hash("ab", "c"), key_hash("a", "bc"));
    }

    #[test]
    fn a_plan_covers_every_document_once_and_never_spans_two_collections() {
        let keys = keys(5000);
        let ranges = plan_with(&borrowed(&keys), 64, 200);
        assert_eq!(ranges.first().map(|r| r.start), Some(0));
        assert_eq!(ranges.last().map(|r| r.end), Some(keys.len()));
        for pair in ranges.windows(2) {
            assert_eq!(pair[0].end, pair[1].start);
        }
        for range in &ranges {
            assert!(!range.is_empty() && range.len() <= 200);
            assert!(keys[range.clone()].iter().all(|(c, _)| *c == keys[range.start].0));
        }
        assert!(ranges.len() > 5000 / 200, "content-defined cuts happen: {}", ranges.len());
        assert!(plan(&[]).is_empty());
        assert_eq!(plan(&[("news", "a")]), vec![std::ops::Range { start: 0, end: 1 }]);
    }

    #[test]
    fn removing_or_adding_one_document_changes_only_one_segment() {
        let all = keys(3000);
        let before = segments(&all, 32, 100_000);
        for removed in [0, 1, 17, 500, 1499, 1500, 2999] {
            let mut fewer = all.clone();
            let gone = fewer.remove(removed);
            let after = segments(&fewer, 32, 100_000);
            let new: Vec<_> = after.iter().filter(|s| !before.contains(s)).collect();
            let old: Vec<_> = before.iter().filter(|s| !after.contains(s)).collect();
            assert!(new.len() <= 1, "removing {gone:?} made {} new segments", new.len());
            assert!(old.len() <= 2 && old.iter().all(|s| s.contains(&gone) || new.len() == 1));
            // Adding it back restores the original plan: cuts depend on content alone.
            assert_eq!(segments(&all, 32, 100_000), before);
            // And adding a document is the mirror image.
            let new_from_adding: Vec<_> = before.iter().filter(|s| !after.contains(s)).collect();
            assert!(new_from_adding.iter().all(|s| s.contains(&gone)), "only the segment that holds it");
        }
    }

    #[test]
    fn a_cut_is_forced_at_the_maximum() {
        let all = keys(3000);
        let ranges = plan_with(&borrowed(&all), u64::MAX, 300);
        assert!(ranges.iter().all(|r| r.len() <= 300));
        // Without content-defined cuts only collection changes and the maximum cut.
        assert_eq!(ranges.len(), 3 * 1000usize.div_ceil(300));
    }
}
