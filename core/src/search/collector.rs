//! The top hits and match counts of every searched collection in one pass over the matching
//! documents. The writer adds documents sorted by collection, so each collection is one contiguous
//! range of document ids in the index's single segment; a hit's collection is found by its id,
//! and one query serves all collections instead of one query per collection.

use std::cmp::{Ordering, Reverse};
use std::collections::BinaryHeap;
use std::ops::Range;

use tantivy::collector::{Collector, SegmentCollector};
use tantivy::{DocId, Score, SegmentOrdinal, SegmentReader};

/// One ranked document: higher score first, then lower id (ids follow record ids).
#[derive(Debug, Clone, Copy)]
pub struct Ranked {
    /// Its BM25 score.
    pub score: Score,
    /// Its document id in the segment.
    pub doc: DocId,
}

impl PartialEq for Ranked {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Ranked {}

impl PartialOrd for Ranked {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Ranked {
    /// Better is greater: a higher score, or the same score and a lower id.
    fn cmp(&self, other: &Self) -> Ordering {
        self.score.total_cmp(&other.score).then_with(|| other.doc.cmp(&self.doc))
    }
}

/// What one collection yields: how many documents matched and the best `limit`, best first.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Bucket {
    /// Matching documents in the collection.
    pub total: usize,
    /// The best of them, best first.
    pub top: Vec<Ranked>,
}

/// Collects [`Bucket`]s for collections given as document-id ranges of the single segment.
#[derive(Debug, Clone)]
pub struct PerCollection {
    /// One range per searched collection, in the caller's order.
    pub ranges: Vec<Range<DocId>>,
    /// Hits kept per collection.
    pub limit: usize,
}

/// The segment side of [`PerCollection`].
pub struct PerCollectionSegment {
    /// `(start, end, bucket index)` sorted by start.
    spans: Vec<(DocId, DocId, usize)>,
    /// The span the last document fell in: documents arrive in increasing order, so finding the
    /// next one's span is a step forward, not a search.
    cursor: usize,
    limit: usize,
    totals: Vec<usize>,
    /// Min-heaps: the worst kept hit on top, so a better one replaces it.
    heaps: Vec<BinaryHeap<Reverse<Ranked>>>,
}

impl Collector for PerCollection {
    type Fruit = Vec<Bucket>;
    type Child = PerCollectionSegment;

    fn for_segment(&self, segment: SegmentOrdinal, _reader: &SegmentReader) -> tantivy::Result<PerCollectionSegment> {
        // The ranges describe segment 0; the index is always written as one merged segment.
        let mut spans: Vec<(DocId, DocId, usize)> = if segment == 0 {
            self.ranges.iter().enumerate().map(|(i, r)| (r.start, r.end, i)).collect()
        } else {
            Vec::new()
        };
        spans.sort_unstable();
        Ok(PerCollectionSegment {
            spans,
            cursor: 0,
            limit: self.limit.max(1),
            totals: vec![0; self.ranges.len()],
            heaps: vec![BinaryHeap::new(); self.ranges.len()],
        })
    }

    fn requires_scoring(&self) -> bool {
        true
    }

    fn merge_fruits(&self, fruits: Vec<Vec<Bucket>>) -> tantivy::Result<Vec<Bucket>> {
        let mut merged = vec![Bucket::default(); self.ranges.len()];
        for fruit in fruits {
            for (into, from) in merged.iter_mut().zip(fruit) {
                into.total += from.total;
                into.top.extend(from.top);
            }
        }
        for bucket in &mut merged {
            bucket.top.sort_unstable_by(|a, b| b.cmp(a));
            bucket.top.truncate(self.limit.max(1));
        }
        Ok(merged)
    }
}

impl SegmentCollector for PerCollectionSegment {
    type Fruit = Vec<Bucket>;

    fn collect(&mut self, doc: DocId, score: Score) {
        let at_or_before =
            |cursor: usize, spans: &[(DocId, DocId, usize)]| spans.get(cursor).is_some_and(|s| s.0 <= doc);
        if !at_or_before(self.cursor, &self.spans) {
            // Out of order (not expected): search from the start.
            self.cursor = self.spans.partition_point(|&(start, _, _)| start <= doc).saturating_sub(1);
        }
        while at_or_before(self.cursor + 1, &self.spans) {
            self.cursor += 1;
        }
        let Some(&(start, end, bucket)) = self.spans.get(self.cursor) else { return };
        if doc < start || doc >= end {
            return;
        }
        self.totals[bucket] += 1;
        let heap = &mut self.heaps[bucket];
        let candidate = Ranked { score, doc };
        if heap.len() < self.limit {
            heap.push(Reverse(candidate));
        } else if heap.peek().is_some_and(|Reverse(worst)| candidate > *worst) {
            heap.pop();
            heap.push(Reverse(candidate));
        }
    }

    fn harvest(self) -> Vec<Bucket> {
        self.totals
            .into_iter()
            .zip(self.heaps)
            .map(|(total, heap)| {
                let mut top: Vec<Ranked> = heap.into_iter().map(|Reverse(r)| r).collect();
                top.sort_unstable_by(|a, b| b.cmp(a));
                Bucket { total, top }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn segment(ranges: Vec<Range<DocId>>, limit: usize) -> PerCollectionSegment {
        let mut spans: Vec<(DocId, DocId, usize)> =
            ranges.iter().enumerate().map(|(i, r)| (r.start, r.end, i)).collect();
        spans.sort_unstable();
        PerCollectionSegment {
            spans,
            cursor: 0,
            limit,
            totals: vec![0; ranges.len()],
            heaps: vec![BinaryHeap::new(); ranges.len()],
        }
    }

    #[test]
    fn documents_land_in_their_collection_best_first_ties_by_id() {
        // Collections asked in a different order than their ranges.
        let mut collector = segment(vec![10..20, 0..10], 2);
        for (doc, score) in [(3, 1.0), (1, 2.0), (2, 2.0), (12, 0.5), (15, 0.7), (11, 0.1), (25, 9.0)] {
            collector.collect(doc, score);
        }
        let buckets = collector.harvest();
        assert_eq!(buckets[0].total, 3);
        assert_eq!(buckets[0].top.iter().map(|r| r.doc).collect::<Vec<_>>(), [15, 12]);
        assert_eq!(buckets[1].total, 3);
        assert_eq!(buckets[1].top.iter().map(|r| r.doc).collect::<Vec<_>>(), [1, 2]);
    }
}
