//! The top hits and match counts of every searched collection. Every segment holds documents of
//! one collection ([`super::plan`](mod@super::plan)), so a hit's collection is its segment's:
//! [`PerCollection`] gives each segment the bucket of its collection (or none, for collections not
//! asked), and [`TopK`] keeps a collection's best hits over all its segments.

use std::cmp::{Ordering, Reverse};
use std::collections::BinaryHeap;

use tantivy::collector::{Collector, SegmentCollector};
use tantivy::{DocAddress, DocId, Score, SegmentOrdinal, SegmentReader};

/// One ranked document: more of the query's words first, then the higher score, then the lower
/// address (segments are in `(collection, id)` order and so are the documents inside one, so ties
/// rank by id). Where every match has every word (the API), the score decides.
#[derive(Debug, Clone, Copy)]
pub struct Ranked {
    /// How many of the query's words it has (0 from tantivy's evaluation, which does not count).
    pub words: u32,
    /// Its BM25 score.
    pub score: Score,
    /// Where it is in the index.
    pub address: DocAddress,
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
    /// Better is greater: more words, then a higher score, then a lower address.
    fn cmp(&self, other: &Self) -> Ordering {
        self.words
            .cmp(&other.words)
            .then_with(|| self.score.total_cmp(&other.score))
            .then_with(|| other.address.cmp(&self.address))
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

/// The best `limit` hits seen so far: a min-heap with the worst kept hit on top, so a better one
/// replaces it.
#[derive(Debug, Clone)]
pub struct TopK {
    limit: usize,
    heap: BinaryHeap<Reverse<Ranked>>,
}

impl TopK {
    /// Keeps the best `limit` (at least one).
    pub fn new(limit: usize) -> Self {
        TopK { limit: limit.max(1), heap: BinaryHeap::new() }
    }

    /// Offers a hit.
    #[inline]
    pub fn offer(&mut self, candidate: Ranked) {
        if self.heap.len() < self.limit {
            self.heap.push(Reverse(candidate));
        } else if self.heap.peek().is_some_and(|Reverse(worst)| candidate > *worst) {
            self.heap.pop();
            self.heap.push(Reverse(candidate));
        }
    }

    /// Keeps the best of `self` and `other` (two parts of one collection searched apart).
    pub fn merge(&mut self, other: TopK) {
        for Reverse(candidate) in other.heap {
            self.offer(candidate);
        }
    }

    /// The words and score a hit must beat to get in, once `limit` hits are kept.
    pub fn threshold(&self) -> Option<(u32, Score)> {
        (self.heap.len() >= self.limit)
            .then(|| self.heap.peek().map_or((0, Score::MIN), |Reverse(worst)| (worst.words, worst.score)))
    }

    /// The kept hits, best first.
    pub fn into_sorted(self) -> Vec<Ranked> {
        let mut top: Vec<Ranked> = self.heap.into_iter().map(|Reverse(r)| r).collect();
        top.sort_unstable_by(|a, b| b.cmp(a));
        top
    }
}

/// Collects [`Bucket`]s through tantivy's own query evaluation (the reference the engine of
/// [`super::matching`] is tested against): `buckets[segment]` is the bucket of a segment's
/// collection, `None` for a collection not asked.
#[derive(Debug, Clone)]
pub struct PerCollection {
    /// Per segment ordinal, the index of its collection's bucket.
    pub buckets: Vec<Option<usize>>,
    /// How many buckets (searched collections).
    pub collections: usize,
    /// Hits kept per collection.
    pub limit: usize,
}

/// The segment side of [`PerCollection`].
pub struct PerCollectionSegment {
    segment: SegmentOrdinal,
    bucket: Option<usize>,
    collections: usize,
    total: usize,
    top: TopK,
}

impl Collector for PerCollection {
    type Fruit = Vec<Bucket>;
    type Child = PerCollectionSegment;

    fn for_segment(&self, segment: SegmentOrdinal, _reader: &SegmentReader) -> tantivy::Result<PerCollectionSegment> {
        Ok(PerCollectionSegment {
            segment,
            bucket: self.buckets.get(segment as usize).copied().flatten(),
            collections: self.collections,
            total: 0,
            top: TopK::new(self.limit),
        })
    }

    fn requires_scoring(&self) -> bool {
        true
    }

    fn merge_fruits(&self, fruits: Vec<Vec<Bucket>>) -> tantivy::Result<Vec<Bucket>> {
        let mut totals = vec![0; self.collections];
        let mut tops: Vec<TopK> = (0..self.collections).map(|_| TopK::new(self.limit)).collect();
        for fruit in fruits {
            for (bucket, from) in fruit.into_iter().enumerate() {
                totals[bucket] += from.total;
                from.top.into_iter().for_each(|hit| tops[bucket].offer(hit));
            }
        }
        Ok(totals.into_iter().zip(tops).map(|(total, top)| Bucket { total, top: top.into_sorted() }).collect())
    }
}

impl SegmentCollector for PerCollectionSegment {
    type Fruit = Vec<Bucket>;

    fn collect(&mut self, doc: DocId, score: Score) {
        if self.bucket.is_some() {
            self.total += 1;
            self.top.offer(Ranked { words: 0, score, address: DocAddress::new(self.segment, doc) });
        }
    }

    fn harvest(self) -> Vec<Bucket> {
        let mut buckets = vec![Bucket::default(); self.collections];
        if let Some(bucket) = self.bucket {
            buckets[bucket] = Bucket { total: self.total, top: self.top.into_sorted() };
        }
        buckets
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hit(score: Score, segment: u32, doc: DocId) -> Ranked {
        Ranked { words: 1, score, address: DocAddress::new(segment, doc) }
    }

    #[test]
    fn the_best_are_kept_best_first_ties_by_address() {
        let mut top = TopK::new(3);
        assert_eq!(top.threshold(), None);
        for candidate in [hit(1.0, 0, 3), hit(2.0, 1, 1), hit(2.0, 0, 9), hit(0.5, 0, 0), hit(2.0, 1, 0)] {
            top.offer(candidate);
        }
        assert_eq!(top.threshold(), Some((1, 2.0)));
        let kept: Vec<(u32, DocId)> =
            top.into_sorted().iter().map(|r| (r.address.segment_ord, r.address.doc_id)).collect();
        assert_eq!(kept, [(0, 9), (1, 0), (1, 1)]);
    }

    #[test]
    fn more_words_rank_above_a_higher_score() {
        let mut top = TopK::new(2);
        top.offer(hit(9.0, 0, 1));
        top.offer(Ranked { words: 2, ..hit(0.5, 0, 2) });
        top.offer(Ranked { words: 2, ..hit(1.5, 0, 3) });
        let kept: Vec<DocId> = top.into_sorted().iter().map(|r| r.address.doc_id).collect();
        assert_eq!(kept, [3, 2]);
    }

    #[test]
    fn a_segment_counts_only_for_its_collection() {
        let collector = PerCollection { buckets: vec![Some(1), None, Some(0)], collections: 2, limit: 2 };
        let mut fruits = Vec::new();
        for segment in 0..3u32 {
            let mut child = PerCollectionSegment {
                segment,
                bucket: collector.buckets[segment as usize],
                collections: 2,
                total: 0,
                top: TopK::new(2),
            };
            for (doc, score) in [(0, 1.0), (1, 3.0), (2, 2.0)] {
                child.collect(doc, score);
            }
            fruits.push(child.harvest());
        }
        let buckets = collector.merge_fruits(fruits).expect("merge");
        assert_eq!(buckets[0].total, 3);
        assert_eq!(
            buckets[0].top.iter().map(|r| r.address).collect::<Vec<_>>(),
            [DocAddress::new(2, 1), DocAddress::new(2, 2)]
        );
        assert_eq!(buckets[1].total, 3);
        assert_eq!(buckets[1].top[0].address, DocAddress::new(0, 1));
    }
}
