//! The search page's search: the API's (docs/spec/api-spec.md#search-matching) with what people typing on a phone need more
//! (docs/spec/api-spec.md#search-page-ranking).
//!
//! 0. Words also match the front matter's other text (opening hours, contacts...: the `facts`
//!    field), with the lowest weight.
//! 1. Stop words of the languages ([`super::stopwords`]: where, is, the, wapi, où...) do not count.
//! 2. A word also matches its other forms in the site's language and in the records' languages
//!    ([`super::word_forms`]), ranked below the word as written.
//! 3. A document needs only some of the words: those with the most of them come first (as
//!    Meilisearch's "words" rule), then by score (BM25 per field, title and summary first), so an
//!    extra word never knocks out the page that answers.
//! 4. A word the index does not know is offered its nearest index words a typo away (accents
//!    folded, as the index folds them); the search runs with them only when each such word has
//!    exactly one nearest and is a word of no language ([`super::known`]): a word spelled correctly
//!    is never rewritten, only a suggestion is offered.
//!
//! Every step runs on the same engine ([`super::matching`]) in both servers. The API does none of
//! this: its answers stay as the spec defines them.

use std::collections::BTreeMap;

use super::known::is_known_word;
use super::limits::{self, MAX_CORRECTED_WORDS, MAX_PARTIAL_WORDS};
use super::matching::Leniency;
use super::stopwords::meaningful;
use super::synonyms::Synonyms;
use super::word_forms::Forms;
use super::{engine, Hit, SearchError, SearchIndex};
use crate::content::did_you_mean::transposition_distance;
use crate::content::SiteConfig;

/// The fewest characters a word needs to be corrected: shorter words have too many neighbours.
const MIN_TYPO_CHARS: usize = 4;

/// From this many characters a correction may be two edits away (one below).
const TWO_EDITS_FROM: usize = 8;

/// What the search page shows.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Forgiven {
    /// The words the hits were found with: the query's without stop words, or their corrections
    /// when applied.
    pub words: Vec<String>,
    /// The query with each unknown word replaced by its nearest known one, when there is one.
    pub suggestion: Option<String>,
    /// Whether the hits are the suggestion's (exactly one nearest word for each unknown word, none
    /// of them a word of a language).
    pub corrected: bool,
    /// Whether the best hits have only some of the words (none had them all).
    pub partial: bool,
    /// Per collection asked, the hits and how many documents matched.
    pub found: Vec<(Vec<Hit>, usize)>,
    /// Per collection asked, how its best hit ranks: how many of the words it has, and its score.
    pub best: Vec<Option<(usize, f32)>>,
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

    /// What the search page matches a word with on `site`: its forms ([`SearchIndex::forms`]) and
    /// the other words of its groups (site.yaml `search.synonyms`, [`super::synonyms`]).
    pub fn page_forms(&self, site: &SiteConfig) -> Forms {
        let settings = &site.search;
        self.forms(&site.language).with_synonyms(Synonyms::new(&settings.synonyms, settings.synonyms_replace))
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
        let mut typed = meaningful(&limits::distinct(words));
        typed.truncate(MAX_PARTIAL_WORDS);
        let mut answer = Forgiven { words: typed.clone(), ..Forgiven::default() };
        if typed.is_empty() {
            answer.found = vec![Default::default(); collections.len()];
            answer.best = vec![None; collections.len()];
            return Ok(answer);
        }
        let all = Leniency { forms: Some(forms), min_words: usize::MAX, fields: Leniency::ALL_FIELDS };
        if let Some(corrections) = self.corrections(&typed, collections, &all)? {
            let corrected: Vec<String> = corrections.iter().map(|c| c.word.clone()).collect();
            answer.suggestion = Some(corrected.join(" "));
            if corrections.iter().all(|c| c.only) {
                self.by_words(&mut answer, &corrected, collections, limit, forms)?;
                if answer.total() > 0 {
                    answer.words = corrected;
                    answer.corrected = true;
                    return Ok(answer);
                }
            }
        }
        self.by_words(&mut answer, &typed, collections, limit, forms)?;
        Ok(answer)
    }

    /// Fills `answer`'s hits with the documents that have the most of `words` first, in one
    /// search: the engine ranks by words matched, then by score ([`super::collector::Ranked`]).
    fn by_words(
        &self,
        answer: &mut Forgiven,
        words: &[String],
        collections: &[String],
        limit: usize,
        forms: &Forms,
    ) -> Result<(), SearchError> {
        let some = Leniency { forms: Some(forms), min_words: 1, fields: Leniency::ALL_FIELDS };
        let buckets = self.rank_with(words, &some, collections, limit)?;
        let all = u32::try_from(words.len()).unwrap_or(u32::MAX);
        answer.partial =
            buckets.iter().any(|b| b.total > 0) && buckets.iter().all(|b| b.top.first().is_none_or(|r| r.words < all));
        answer.best = buckets.iter().map(|b| b.top.first().map(|r| (r.words as usize, r.score))).collect();
        answer.found = buckets
            .into_iter()
            .map(|bucket| {
                let hits = bucket.top.into_iter().map(|r| self.hit(r.address)).collect::<Result<_, _>>()?;
                Ok((hits, bucket.total))
            })
            .collect::<Result<_, SearchError>>()?;
        Ok(())
    }

    /// Each word, or its nearest known word when it matches nothing: `None` when every word
    /// matches something, no unknown word has a near one, or more than
    /// [`MAX_CORRECTED_WORDS`] words could be corrected (see [`limits`]). A word of a language is
    /// never the only correction (see [`is_known_word`]).
    fn corrections(
        &self,
        words: &[String],
        collections: &[String],
        leniency: &Leniency,
    ) -> Result<Option<Vec<Nearest>>, SearchError> {
        let wanted = self.wanted(collections);
        let mut unknown = Vec::with_capacity(words.len());
        for (i, word) in words.iter().enumerate() {
            let last = i + 1 == words.len();
            unknown.push(!self.engine.knows(word, last, leniency, &wanted).map_err(engine("searching"))?);
        }
        let correctable = words.iter().zip(&unknown).filter(|(word, &unknown)| unknown && typo_candidate(word));
        if correctable.count() > MAX_CORRECTED_WORDS {
            return Ok(None);
        }
        let mut corrected = Vec::with_capacity(words.len());
        let mut any = false;
        for (word, unknown) in words.iter().zip(unknown) {
            let mut nearest = if unknown { self.nearest(word, &wanted)? } else { None };
            if let Some(near) = nearest.as_mut() {
                near.only &= !is_known_word(word);
            }
            any |= nearest.is_some();
            corrected.push(nearest.unwrap_or(Nearest { word: word.clone(), only: true }));
        }
        Ok(any.then_some(corrected))
    }

    /// The known word nearest `word` (see [`nearest`]).
    fn nearest(&self, word: &str, wanted: &[bool]) -> Result<Option<Nearest>, SearchError> {
        if !typo_candidate(word) {
            return Ok(None);
        }
        let chars = word.chars().count();
        let distance = if chars >= TWO_EDITS_FROM { 2 } else { 1 };
        let near = self.engine.near_words(word, distance, wanted).map_err(engine("looking for near words"))?;
        Ok(nearest(word, &near))
    }
}

/// Whether a word is long enough to be corrected.
fn typo_candidate(word: &str) -> bool {
    word.chars().nth(MIN_TYPO_CHARS - 1).is_some()
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
/// words, their forms and other words for them, and words the last one starts.
#[derive(Debug)]
pub struct Highlight<'a> {
    words: &'a [String],
    forms: &'a Forms,
    of: Vec<Option<super::word_forms::WordForms>>,
    synonyms: Vec<String>,
}

impl<'a> Highlight<'a> {
    /// The highlight of `words` (analyzed) with `forms`.
    pub fn new(words: &'a [String], forms: &'a Forms) -> Self {
        let synonyms = words.iter().flat_map(|w| forms.synonyms_of(w)).collect();
        Highlight { words, forms, of: words.iter().map(|w| forms.of(w)).collect(), synonyms }
    }

    /// Whether `term` (analyzed) is one of the matched words.
    pub fn marks(&self, term: &str) -> bool {
        self.synonyms.iter().any(|other| other == term)
            || self.words.iter().zip(&self.of).enumerate().any(|(i, (word, of))| {
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
