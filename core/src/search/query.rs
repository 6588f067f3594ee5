//! From words to a tantivy query: every word must match (AND) in some of the API's text fields
//! ([`API_FIELDS`]), weighted by field; the last word also matches as a prefix, for search as you type.
//!
//! This query defines what a search means and how it scores. Searches run on
//! [`super::matching`], which computes the same thing from the postings directly; the tests run
//! both and compare.

use tantivy::query::{BooleanQuery, BoostQuery, FuzzyTermQuery, Occur, Query, TermQuery};
use tantivy::schema::IndexRecordOption;
use tantivy::Term;

use super::schema::{Fields, API_FIELDS};

/// How much a prefix match counts against a whole-word match of the same field.
pub const PREFIX_DISCOUNT: f32 = 0.5;

fn word_clause(fields: &Fields, word: &str, prefix: bool) -> Box<dyn Query> {
    let mut alternatives: Vec<(Occur, Box<dyn Query>)> = Vec::new();
    for (field, weight) in fields.weighted().into_iter().take(API_FIELDS) {
        let term = Term::from_field_text(field, word);
        let exact = TermQuery::new(term.clone(), IndexRecordOption::WithFreqs);
        alternatives.push((Occur::Should, Box::new(BoostQuery::new(Box::new(exact), weight))));
        if prefix {
            let starts = FuzzyTermQuery::new_prefix(term, 0, true);
            alternatives.push((Occur::Should, Box::new(BoostQuery::new(Box::new(starts), weight * PREFIX_DISCOUNT))));
        }
    }
    Box::new(BooleanQuery::new(alternatives))
}

/// The query for `words` (already analyzed) over every collection; the collector splits the
/// matches by collection.
pub fn matching(fields: &Fields, words: &[String]) -> BooleanQuery {
    let clauses = words
        .iter()
        .enumerate()
        .map(|(index, word)| (Occur::Must, word_clause(fields, word, index + 1 == words.len())));
    BooleanQuery::new(clauses.collect())
}
