//! The bounds of one query's work, whatever its text (docs/spec/api-spec.md#query-limits): the one
//! place they are set. Every entry that searches (`/api/search`, the page `/search`, MCP
//! `search_portal`, the HSDS `search` filter, the encyclopedia's `q`) reads its query through
//! [`terms`] or [`bounded_terms`] and refuses what is over a limit, naming it; the engine holds
//! to the same bounds whatever it is given ([`distinct`]), so no caller can make it do more.
//!
//! What one query costs grows with its distinct words (each is looked up in every field of every
//! segment and its postings read) and with what a word expands to: the last word's prefix (one
//! word only), the search page's word forms (one walk per word) and typo corrections (one
//! automaton walk over every dictionary per unknown word). A word given twice is searched once:
//! every word must match anyway, so a repeat adds nothing but work.

use super::schema::words;

/// Shortest query, in Unicode scalar values after trimming.
pub const MIN_QUERY_CHARS: usize = 2;

/// Longest query, in Unicode scalar values as sent (white space included, as JSON Schema's
/// `maxLength` counts): ten times a long question, far below what a URL can carry.
pub const MAX_QUERY_CHARS: usize = 256;

/// The most distinct words (after folding: `Water` and `water` are one) a query may have.
pub const MAX_QUERY_WORDS: usize = 16;

/// The most unknown words the search page looks for typo corrections of: a query with more words
/// that match nothing is not a query with typos, and each look-up walks every term dictionary.
pub const MAX_CORRECTED_WORDS: usize = 3;

/// The most words the search page looks for a partial match with, when no document has them all
/// (each fewer word is one more search).
pub const MAX_PARTIAL_WORDS: usize = 8;

/// Why a query is not searched; [`Refusal::message`] names the limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// Under [`MIN_QUERY_CHARS`] characters.
    TooShort,
    /// Over [`MAX_QUERY_CHARS`] characters (`chars` of them).
    TooLong {
        /// How many characters the query has.
        chars: usize,
    },
    /// Over [`MAX_QUERY_WORDS`] distinct words (`words` of them).
    TooManyWords {
        /// How many distinct words the query has.
        words: usize,
    },
}

impl Refusal {
    /// What a client is told, the query being parameter (or argument) `name`.
    pub fn message(&self, name: &str) -> String {
        match self {
            Refusal::TooShort => format!("`{name}` must have at least {MIN_QUERY_CHARS} characters."),
            Refusal::TooLong { chars } => {
                format!("`{name}` must have at most {MAX_QUERY_CHARS} characters; it has {chars}.")
            }
            Refusal::TooManyWords { words } => format!(
                "`{name}` may have at most {MAX_QUERY_WORDS} different words (a repeated word counts once); it has {words}."
            ),
        }
    }
}

/// Whether a query is long enough to search.
pub fn long_enough(query: &str) -> bool {
    query.trim().chars().nth(MIN_QUERY_CHARS - 1).is_some()
}

/// The words a query searches for ([`distinct`] of its analyzed words), or why it is refused:
/// too short, too long, or too many words.
pub fn terms(query: &str) -> Result<Vec<String>, Refusal> {
    if !long_enough(query) {
        return Err(Refusal::TooShort);
    }
    bounded_terms(query)
}

/// [`terms`] without the shortest length (the encyclopedia's `q` may be one character).
pub fn bounded_terms(query: &str) -> Result<Vec<String>, Refusal> {
    // Counting stops past the limit: the answer is the same and the count bounded.
    if query.chars().nth(MAX_QUERY_CHARS).is_some() {
        return Err(Refusal::TooLong { chars: query.chars().count() });
    }
    let terms = unique(&words(query));
    if terms.len() > MAX_QUERY_WORDS {
        return Err(Refusal::TooManyWords { words: terms.len() });
    }
    Ok(terms)
}

/// `words` (analyzed) with each word once, in order, the last word last (it is also a prefix, for
/// search as you type), and at most [`MAX_QUERY_WORDS`] of them: the first ones and the last.
/// The engine searches this whatever it is given.
pub fn distinct(words: &[String]) -> Vec<String> {
    let mut out = unique(words);
    if out.len() > MAX_QUERY_WORDS {
        out.drain(MAX_QUERY_WORDS - 1..out.len() - 1);
    }
    out
}

/// `words` with each word once, in order, the last word last.
fn unique(words: &[String]) -> Vec<String> {
    let Some((last, rest)) = words.split_last() else {
        return Vec::new();
    };
    let mut seen = std::collections::HashSet::with_capacity(rest.len().min(MAX_QUERY_WORDS * 4));
    seen.insert(last.as_str());
    let mut out: Vec<String> = rest.iter().filter(|word| seen.insert(word.as_str())).cloned().collect();
    out.push(last.clone());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(words: &[&str]) -> Vec<String> {
        words.iter().map(|w| w.to_string()).collect()
    }

    #[test]
    fn a_repeated_word_counts_once_and_the_last_word_stays_last() {
        assert_eq!(distinct(&strings(&["water", "clinic", "water"])), ["clinic", "water"]);
        assert_eq!(distinct(&strings(&["a", "b", "a", "b"])), ["a", "b"]);
        assert_eq!(distinct(&strings(&["a"; 10_000])), ["a"]);
        assert!(distinct(&[]).is_empty());
        assert_eq!(terms("Water WATER wáter clinic"), Ok(strings(&["water", "clinic"])));
    }

    #[test]
    fn the_engine_never_gets_more_than_the_most_words() {
        let many: Vec<String> = (0..10_000).map(|n| format!("w{n}")).collect();
        let bounded = distinct(&many);
        assert_eq!(bounded.len(), MAX_QUERY_WORDS);
        assert_eq!(bounded.last().map(String::as_str), Some("w9999"), "the prefix word is kept");
        assert_eq!(bounded[0], "w0");
    }

    #[test]
    fn a_query_over_a_limit_is_refused_naming_it() {
        assert_eq!(terms(" a "), Err(Refusal::TooShort));
        assert_eq!(bounded_terms("a"), Ok(strings(&["a"])));
        let repeated = "a ".repeat(8_000);
        assert_eq!(terms(&repeated), Err(Refusal::TooLong { chars: 16_000 }));
        let at_most = "é".repeat(MAX_QUERY_CHARS);
        assert!(terms(&at_most).is_ok(), "the limit counts characters, not bytes");
        assert!(terms(&format!("{at_most}e")).is_err());
        let seventeen: Vec<String> = (0..=MAX_QUERY_WORDS).map(|n| format!("w{n}")).collect();
        assert_eq!(terms(&seventeen.join(" ")), Err(Refusal::TooManyWords { words: MAX_QUERY_WORDS + 1 }));
        let sixteen_repeated = format!("{} {}", seventeen[..MAX_QUERY_WORDS].join(" "), seventeen[0]);
        assert_eq!(terms(&sixteen_repeated).map(|t| t.len()), Ok(MAX_QUERY_WORDS));
        let message = Refusal::TooManyWords { words: 17 }.message("q");
        assert!(message.contains("`q`") && message.contains("16") && message.contains("17"), "{message}");
        assert!(Refusal::TooLong { chars: 300 }.message("search").contains("at most 256 characters"));
    }
}
