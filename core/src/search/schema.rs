//! The index schema and its analyzer: lower-casing and accent folding ("cafe" finds "Café"),
//! Arabic letter forms and diacritics folded and the attached article split off ([`super::arabic`]),
//! splitting on anything that is not a letter or digit (so Arabic, Swahili and Somali words are
//! kept whole), and no stemming (an English stemmer would mangle names in other languages).
//!
//! Besides the title, summary, tags and body, the rest of a record's front matter that is text
//! (opening hours, contacts, a venue...) is one more field, `facts`, searched by the search page
//! only (the API searches what docs/spec/api-spec.md#search-matching names: [`API_FIELDS`]).
//!
//! Each searched field has a twin that indexes the first [`PREFIX_CHARS`] characters of its words
//! (`water` gives `wa`, `a` gives `a`): a last word that short matches as a prefix through one term
//! of the twin (or, for one character, the few twin terms it starts) instead of every word it
//! starts, which in an index of many segments would be read once per segment
//! ([`super::matching`]).

use tantivy::schema::{Field, IndexRecordOption, Schema, TextFieldIndexing, TextOptions, STORED, STRING};
use tantivy::tokenizer::{
    AsciiFoldingFilter, LowerCaser, RemoveLongFilter, SimpleTokenizer, TextAnalyzer, Token, TokenFilter, TokenStream,
    Tokenizer,
};
use tantivy::Index;

/// The analyzer's registered name.
pub const ANALYZER: &str = "portal_folded";

/// The longest prefix the twins index, in characters.
pub const PREFIX_CHARS: usize = 2;

/// The fields of a search document.
#[derive(Debug, Clone, Copy)]
pub struct Fields {
    /// The collection name (`entries` for the encyclopedia): exact; a segment holds one, which
    /// opening the index checks against the manifest (hits take it from their segment).
    pub collection: Field,
    /// What a hit shows (slug, URL and title), stored as one value ([`hit_value`]): the only
    /// stored field, so reading a hit decodes one value.
    pub hit: Field,
    /// The title: searched with the highest weight.
    pub title: Field,
    /// The summary.
    pub summary: Field,
    /// Tags (and encyclopedia aliases), space-joined.
    pub tags: Field,
    /// The markdown body.
    pub body: Field,
    /// The other text of the front matter ([`super::facts`]): searched by the search page, with
    /// the lowest weight, not by the API.
    pub facts: Field,
    /// The record's `language` (BCP 47, as written; absent when the record names none): exact, not
    /// stored. The search page stems words in the languages it finds here ([`super::word_forms`]).
    pub language: Field,
    /// The prefix twins of `title`, `summary`, `tags`, `body` and `facts`, in that order: each word
    /// cut to [`PREFIX_CHARS`] characters ([`PREFIX_ANALYZER`]; documents only: no frequencies, no
    /// norms).
    pub prefixes: [Field; TEXT_FIELDS],
}

/// How many text fields there are.
pub const TEXT_FIELDS: usize = 5;

/// The first this many text fields of [`WEIGHTS`] are the API's
/// (docs/spec/api-spec.md#search-matching: titles, summaries, tags and bodies); the search page
/// searches them all.
pub const API_FIELDS: usize = 4;

/// How much each text field counts in the ranking. The front matter's other text counts less than
/// the body: a word there (`clinics` in opening hours) says less of what the record is about.
pub const WEIGHTS: [(&str, f32); TEXT_FIELDS] =
    [("title", 4.0), ("summary", 2.0), ("tags", 1.5), ("body", 1.0), ("facts", 0.75)];

impl Fields {
    /// The searchable text fields with their weights, in [`WEIGHTS`] order.
    pub fn weighted(&self) -> [(Field, f32); TEXT_FIELDS] {
        let fields = [self.title, self.summary, self.tags, self.body, self.facts];
        std::array::from_fn(|i| (fields[i], WEIGHTS[i].1))
    }
}

/// The schema and its fields.
pub fn schema() -> (Schema, Fields) {
    let mut builder = Schema::builder();
    let indexing = TextFieldIndexing::default().set_tokenizer(ANALYZER).set_index_option(IndexRecordOption::WithFreqs);
    let text = TextOptions::default().set_indexing_options(indexing);
    let prefixes = TextOptions::default().set_indexing_options(
        TextFieldIndexing::default()
            .set_tokenizer(PREFIX_ANALYZER)
            .set_index_option(IndexRecordOption::Basic)
            .set_fieldnorms(false),
    );
    let fields = Fields {
        collection: builder.add_text_field("collection", STRING),
        hit: builder.add_text_field("hit", STORED),
        title: builder.add_text_field("title", text.clone()),
        summary: builder.add_text_field("summary", text.clone()),
        tags: builder.add_text_field("tags", text.clone()),
        body: builder.add_text_field("body", text.clone()),
        facts: builder.add_text_field("facts", text),
        language: builder.add_text_field("language", STRING),
        prefixes: WEIGHTS
            .map(|(name, _)| name)
            .map(|name| builder.add_text_field(&format!("{name}_prefixes"), prefixes.clone())),
    };
    (builder.build(), fields)
}

/// The stored value of a hit: the byte lengths of the slug and the URL, then the three texts
/// (`"5 12 water/news/watertitle"`), so no text needs escaping.
pub fn hit_value(slug: &str, url: &str, title: &str) -> String {
    format!("{} {} {slug}{url}{title}", slug.len(), url.len())
}

/// The slug, URL and title of a [`hit_value`], or `None` if it is not one.
pub fn parse_hit_value(value: &str) -> Option<(&str, &str, &str)> {
    let (slug_len, rest) = value.split_once(' ')?;
    let (url_len, rest) = rest.split_once(' ')?;
    let (slug, rest) = rest.split_at_checked(slug_len.parse().ok()?)?;
    let (url, title) = rest.split_at_checked(url_len.parse().ok()?)?;
    Some((slug, url, title))
}

/// Words of this many bytes or more are left out of the index (and of excerpts' words).
pub const MAX_WORD_BYTES: usize = 64;

/// The analyzer shared by indexing and querying.
pub fn analyzer() -> TextAnalyzer {
    TextAnalyzer::builder(SimpleTokenizer::default())
        .filter(RemoveLongFilter::limit(MAX_WORD_BYTES))
        .filter(LowerCaser)
        .filter(AsciiFoldingFilter)
        .filter(ArabicFolding)
        .build()
}

/// Registers [`analyzer`] and [`prefix_analyzer`] on an index (needed both when writing and when
/// reading).
pub fn register(index: &Index) {
    index.tokenizers().register(ANALYZER, analyzer());
    index.tokenizers().register(PREFIX_ANALYZER, prefix_analyzer());
}

/// The registered name of the analyzer of the prefix twins: [`ANALYZER`]'s words cut to their first
/// [`PREFIX_CHARS`] characters, each prefix once per field value.
pub const PREFIX_ANALYZER: &str = "portal_folded_prefixes";

/// The analyzer of the prefix twins (see [`PREFIX_ANALYZER`]).
pub fn prefix_analyzer() -> TextAnalyzer {
    TextAnalyzer::builder(SimpleTokenizer::default())
        .filter(RemoveLongFilter::limit(MAX_WORD_BYTES))
        .filter(LowerCaser)
        .filter(AsciiFoldingFilter)
        .filter(ArabicFolding)
        .filter(Prefixes)
        .build()
}

/// A token filter that cuts each word to its first [`PREFIX_CHARS`] characters and drops most
/// repeats (a documents-only field needs each term once per document, and a body has far fewer
/// distinct prefixes than words); a repeat that gets through changes nothing.
#[derive(Clone, Copy)]
struct Prefixes;

impl TokenFilter for Prefixes {
    type Tokenizer<T: Tokenizer> = PrefixesTokenizer<T>;

    fn transform<T: Tokenizer>(self, inner: T) -> PrefixesTokenizer<T> {
        PrefixesTokenizer { inner }
    }
}

#[derive(Clone)]
struct PrefixesTokenizer<T> {
    inner: T,
}

impl<T: Tokenizer> Tokenizer for PrefixesTokenizer<T> {
    type TokenStream<'a> = PrefixesStream<T::TokenStream<'a>>;

    fn token_stream<'a>(&'a mut self, text: &'a str) -> Self::TokenStream<'a> {
        PrefixesStream { tail: self.inner.token_stream(text), seen: [0; SEEN] }
    }
}

/// Slots of the table of prefixes given.
const SEEN: usize = 64;

struct PrefixesStream<S> {
    tail: S,
    /// Prefixes given, packed into 8 bytes (two characters take at most 8), by a hash of their
    /// bytes; a later prefix with the same hash takes the slot (0 is free: a prefix is not empty).
    seen: [u64; SEEN],
}

impl<S: TokenStream> TokenStream for PrefixesStream<S> {
    fn advance(&mut self) -> bool {
        while self.tail.advance() {
            let text = &mut self.tail.token_mut().text;
            if let Some((end, _)) = text.char_indices().nth(PREFIX_CHARS) {
                text.truncate(end);
            }
            let mut packed = [0u8; 8];
            let len = text.len().min(8);
            packed[..len].copy_from_slice(&text.as_bytes()[..len]);
            let packed = u64::from_le_bytes(packed);
            let slot = (packed.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 58) as usize;
            if self.seen[slot] != packed {
                self.seen[slot] = packed;
                return true;
            }
        }
        false
    }

    fn token(&self) -> &Token {
        self.tail.token()
    }

    fn token_mut(&mut self) -> &mut Token {
        self.tail.token_mut()
    }
}

/// A token filter that folds Arabic words ([`super::arabic::fold`]) and drops a word of marks only.
#[derive(Clone, Copy)]
struct ArabicFolding;

impl TokenFilter for ArabicFolding {
    type Tokenizer<T: Tokenizer> = ArabicFoldingTokenizer<T>;

    fn transform<T: Tokenizer>(self, inner: T) -> ArabicFoldingTokenizer<T> {
        ArabicFoldingTokenizer { inner }
    }
}

#[derive(Clone)]
struct ArabicFoldingTokenizer<T> {
    inner: T,
}

impl<T: Tokenizer> Tokenizer for ArabicFoldingTokenizer<T> {
    type TokenStream<'a> = ArabicFoldingStream<T::TokenStream<'a>>;

    fn token_stream<'a>(&'a mut self, text: &'a str) -> Self::TokenStream<'a> {
        ArabicFoldingStream { tail: self.inner.token_stream(text) }
    }
}

struct ArabicFoldingStream<S> {
    tail: S,
}

impl<S: TokenStream> TokenStream for ArabicFoldingStream<S> {
    fn advance(&mut self) -> bool {
        while self.tail.advance() {
            let token = self.tail.token_mut();
            if super::arabic::is_arabic(&token.text) {
                token.text = super::arabic::fold(&token.text);
            }
            if !token.text.is_empty() {
                return true;
            }
        }
        false
    }

    fn token(&self) -> &Token {
        self.tail.token()
    }

    fn token_mut(&mut self) -> &mut Token {
        self.tail.token_mut()
    }
}

/// The analyzed words of `text`, in order.
pub fn words(text: &str) -> Vec<String> {
    let mut analyzer = analyzer();
    let mut stream = analyzer.token_stream(text);
    let mut words = Vec::new();
    while let Some(token) = stream.next() {
        words.push(token.text.clone());
    }
    words
}

/// Folds text the way the analyzer does, for prefix matching outside the index (suggestions,
/// letters): lower-case, accents removed, whitespace collapsed.
pub fn fold(text: &str) -> String {
    words(text).join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_lower_cased_and_folded_but_not_stemmed() {
        assert_eq!(words("Café École MAJI safi"), ["cafe", "ecole", "maji", "safi"]);
        assert_eq!(words("running runs"), ["running", "runs"]);
        assert_eq!(words("مرحبا بكم"), ["مرحبا", "بكم"]);
        assert_eq!(words("العِيادة والمياه ـ"), ["عياده", "مياه"]);
        assert_eq!(fold("  Élan   vital "), "elan vital");
    }

    #[test]
    fn a_hit_value_holds_any_slug_url_and_title() {
        let value = hit_value("a b", "/news/a b", "Café 3 4 x");
        assert_eq!(parse_hit_value(&value), Some(("a b", "/news/a b", "Café 3 4 x")));
        assert_eq!(parse_hit_value(&hit_value("", "", "")), Some(("", "", "")));
        assert_eq!(parse_hit_value("9 1 short"), None);
    }

    #[test]
    fn the_prefix_twins_hold_the_first_characters_of_every_word_once() {
        let mut analyzer = prefix_analyzer();
        let mut stream = analyzer.token_stream("Water É Éla مرحبا wasser élan");
        let mut prefixes = Vec::new();
        while let Some(token) = stream.next() {
            prefixes.push(token.text.clone());
        }
        assert_eq!(prefixes, ["wa", "e", "el", "مر"]);
    }
}
