//! The search page's search: the API's (docs/spec/api-spec.md#search-matching) with what people typing on a phone need more.
//!
//! 0. Words also match the front matter's other text (opening hours, contacts...: the `facts`
//!    field), with the lowest weight.
//! 1. A word also matches its other forms in the site's language and in the records' languages
//!    ([`super::forms`]), ranked below the word as written.
//! 2. When a word matches nothing, the index's words a typo away from it (accents folded, as the
//!    index folds them) are offered; when each such word has exactly one nearest, the search runs
//!    again with them.
//! 3. When no document has all the words, the documents with the most of them are shown.
//!
//! Every step runs on the same engine ([`super::matching`]) in both servers. The API does none of
//! this: its answers stay as the spec defines them.

use std::collections::BTreeMap;

use super::forms::Forms;
use super::matching::Leniency;
use super::{engine, Hit, SearchError, SearchIndex};
use crate::content::did_you_mean::transposition_distance;

/// The fewest characters a word needs to be corrected: shorter words have too many neighbours.
const MIN_TYPO_CHARS: usize = 4;

/// From this many characters a correction may be two edits away (one below).
const TWO_EDITS_FROM: usize = 8;

/// The most words a partial match is looked for with (each fewer word is one more search).
const MAX_PARTIAL_WORDS: usize = 8;

/// What the search page shows.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Forgiven {
    /// The words the hits were found with: the query's, or their corrections when applied.
    pub words: Vec<String>,
    /// The query with each unknown word replaced by its nearest known one, when there is one.
    pub suggestion: Option<String>,
    /// Whether the hits are the suggestion's (exactly one nearest word for each unknown word).
    pub corrected: bool,
    /// Whether the hits have only some of the words (none had them all).
    pub partial: bool,
    /// Per collection asked, the hits and how many documents matched.
    pub found: Vec<(Vec<Hit>, usize)>,
}

impl Forgiven {
    /// How many documents matched in all.
    pub fn total(&self) -> usize {
        total(&self.found)
    }
}

fn total(found: &[(Vec<Hit>, usize)]) -> usize {
    found.iter().map(|(_, total)| total).sum()
}

/// One unknown word's corrections: the nearest known word (most documents first among equals),
/// and whether it is the only one that near.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Nearest {
    word: String,
    only: bool,
}

impl SearchIndex {
    /// The stemmers of the site's language and of the records' languages.
    pub fn forms(&self, site_language: &str) -> Forms {
        Forms::new(std::iter::once(site_language).chain(self.languages.iter().map(String::as_str)))
    }

    /// The search page's search of `words` (analyzed) in `collections` (see the module's
    /// documentation), at most `limit` hits per collection.
    pub fn forgiving(
        &self,
        words: &[String],
        collections: &[String],
        limit: usize,
        forms: &Forms,
    ) -> Result<Forgiven, SearchError> {
        let all = Leniency { forms: Some(forms), min_words: usize::MAX, fields: Leniency::ALL_FIELDS };
        let found = self.search_lenient(words, &all, collections, limit)?;
        let mut answer = Forgiven { words: words.to_vec(), found, ..Forgiven::default() };
        if answer.total() > 0 || words.is_empty() {
            return Ok(answer);
        }
        if let Some(corrections) = self.corrections(words, collections, &all)? {
            let corrected: Vec<String> = corrections.iter().map(|c| c.word.clone()).collect();
            answer.suggestion = Some(corrected.join(" "));
            if corrections.iter().all(|c| c.only) {
                let found = self.search_lenient(&corrected, &all, collections, limit)?;
                answer.words = corrected;
                answer.corrected = true;
                if total(&found) > 0 {
                    answer.found = found;
                    return Ok(answer);
                }
            }
        }
        self.partially(answer, collections, limit, forms)
    }

    /// The documents with the most of the words, when there are two or more.
    fn partially(
        &self,
        mut answer: Forgiven,
        collections: &[String],
        limit: usize,
        forms: &Forms,
    ) -> Result<Forgiven, SearchError> {
        let count = answer.words.len();
        if !(2..=MAX_PARTIAL_WORDS).contains(&count) {
            return Ok(answer);
        }
        for at_least in (1..count).rev() {
            let some = Leniency { forms: Some(forms), min_words: at_least, fields: Leniency::ALL_FIELDS };
            let found = self.search_lenient(&answer.words, &some, collections, limit)?;
            if total(&found) > 0 {
                answer.found = found;
                answer.partial = true;
                break;
            }
        }
        Ok(answer)
    }

    /// Each word, or its nearest known word when it matches nothing: `None` when every word
    /// matches something or no unknown word has a near one.
    fn corrections(
        &self,
        words: &[String],
        collections: &[String],
        leniency: &Leniency,
    ) -> Result<Option<Vec<Nearest>>, SearchError> {
        let wanted = self.wanted(collections);
        let mut corrected = Vec::with_capacity(words.len());
        let mut any = false;
        for (i, word) in words.iter().enumerate() {
            let last = i + 1 == words.len();
            let known = self.engine.knows(word, last, leniency, &wanted).map_err(engine("searching"))?;
            let nearest = if known { None } else { self.nearest(word, &wanted)? };
            any |= nearest.is_some();
            corrected.push(nearest.unwrap_or(Nearest { word: word.clone(), only: true }));
        }
        Ok(any.then_some(corrected))
    }

    /// The known word nearest `word` (see [`nearest`]).
    fn nearest(&self, word: &str, wanted: &[bool]) -> Result<Option<Nearest>, SearchError> {
        let chars = word.chars().count();
        if chars < MIN_TYPO_CHARS {
            return Ok(None);
        }
        let distance = if chars >= TWO_EDITS_FROM { 2 } else { 1 };
        let near = self.engine.near_words(word, distance, wanted).map_err(engine("looking for near words"))?;
        Ok(nearest(word, &near))
    }
}

/// The word of `near` (each with how many documents have it) fewest edits from `word` (a swap of
/// neighbours is one), most documents first among equals, then in byte order; the word itself
/// does not count.
fn nearest(word: &str, near: &BTreeMap<String, u64>) -> Option<Nearest> {
    let mut ranked: Vec<(usize, std::cmp::Reverse<u64>, &str)> = near
        .iter()
        .filter(|(candidate, _)| candidate.as_str() != word)
        .map(|(candidate, &docs)| {
            (transposition_distance(word, candidate), std::cmp::Reverse(docs), candidate.as_str())
        })
        .collect();
    ranked.sort();
    let (best, _, candidate) = *ranked.first()?;
    let only = ranked.get(1).is_none_or(|(next, _, _)| *next > best);
    Some(Nearest { word: candidate.to_string(), only })
}

/// Which analyzed words of a text a hit matched through, for marking them in excerpts: the query's
/// words, their forms, and words the last one starts.
#[derive(Debug)]
pub struct Highlight<'a> {
    words: &'a [String],
    forms: &'a Forms,
    of: Vec<Option<super::forms::WordForms>>,
}

impl<'a> Highlight<'a> {
    /// The highlight of `words` (analyzed) with `forms`.
    pub fn new(words: &'a [String], forms: &'a Forms) -> Self {
        Highlight { words, forms, of: words.iter().map(|w| forms.of(w)).collect() }
    }

    /// Whether `term` (analyzed) is one of the matched words.
    pub fn marks(&self, term: &str) -> bool {
        self.words.iter().zip(&self.of).enumerate().any(|(i, (word, of))| {
            term == word
                || i + 1 == self.words.len() && term.starts_with(word.as_str())
                || of.as_ref().is_some_and(|of| self.forms.matches(term, of))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_nearest_word_is_the_fewest_edits_away_then_the_commonest() {
        let near: BTreeMap<String, u64> =
            [("vaccination", 3), ("vaccinations", 1), ("vacation", 9)].map(|(w, d)| (w.to_string(), d)).into();
        assert_eq!(nearest("vacination", &near), Some(Nearest { word: "vaccination".into(), only: true }));
        let tied: BTreeMap<String, u64> = [("cat", 1), ("car", 5)].map(|(w, d)| (w.to_string(), d)).into();
        assert_eq!(nearest("cax", &tied), Some(Nearest { word: "car".into(), only: false }));
        assert_eq!(nearest("water", &[("water".to_string(), 2)].into()), None);
    }

    #[test]
    fn the_highlight_marks_words_forms_and_the_last_prefix() {
        let forms = Forms::new(["en"]);
        let words = ["clinics".to_string(), "wat".to_string()];
        let highlight = Highlight::new(&words, &forms);
        assert!(highlight.marks("clinic") && highlight.marks("clinics") && highlight.marks("water"));
        assert!(!highlight.marks("hours") && !highlight.marks("wa"));
    }
}
