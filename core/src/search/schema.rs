//! The index schema and its analyzer: lower-casing and accent folding ("cafe" finds "Café"),
//! splitting on anything that is not a letter or digit (so Arabic, Swahili and Somali words are
//! kept whole), and no stemming (an English stemmer would mangle names in other languages).

use tantivy::schema::{Field, IndexRecordOption, Schema, TextFieldIndexing, TextOptions, STORED, STRING};
use tantivy::tokenizer::{AsciiFoldingFilter, LowerCaser, RemoveLongFilter, SimpleTokenizer, TextAnalyzer};
use tantivy::Index;

/// The analyzer's registered name.
pub const ANALYZER: &str = "portal_folded";

/// The fields of a search document.
#[derive(Debug, Clone, Copy)]
pub struct Fields {
    /// The collection name (`entries` for the encyclopedia): exact, for filtering.
    pub collection: Field,
    /// The record id: exact; documents are added in id order so ties rank by id.
    pub id: Field,
    /// The slug, stored for hits.
    pub slug: Field,
    /// The site-relative URL, stored for hits.
    pub url: Field,
    /// The title: searched with the highest weight, stored for hits.
    pub title: Field,
    /// The summary.
    pub summary: Field,
    /// Tags (and encyclopedia aliases), space-joined.
    pub tags: Field,
    /// The markdown body.
    pub body: Field,
}

/// How much each text field counts in the ranking.
pub const WEIGHTS: [(&str, f32); 4] = [("title", 4.0), ("summary", 2.0), ("tags", 1.5), ("body", 1.0)];

impl Fields {
    /// The searchable text fields with their weights, in [`WEIGHTS`] order.
    pub fn weighted(&self) -> [(Field, f32); 4] {
        [(self.title, WEIGHTS[0].1), (self.summary, WEIGHTS[1].1), (self.tags, WEIGHTS[2].1), (self.body, WEIGHTS[3].1)]
    }
}

/// The schema and its fields.
pub fn schema() -> (Schema, Fields) {
    let mut builder = Schema::builder();
    let indexing = TextFieldIndexing::default().set_tokenizer(ANALYZER).set_index_option(IndexRecordOption::WithFreqs);
    let text = TextOptions::default().set_indexing_options(indexing);
    let fields = Fields {
        collection: builder.add_text_field("collection", STRING | STORED),
        id: builder.add_text_field("id", STRING | STORED),
        slug: builder.add_text_field("slug", STORED),
        url: builder.add_text_field("url", STORED),
        title: builder.add_text_field("title", text.clone().set_stored()),
        summary: builder.add_text_field("summary", text.clone()),
        tags: builder.add_text_field("tags", text.clone()),
        body: builder.add_text_field("body", text),
    };
    (builder.build(), fields)
}

/// The analyzer shared by indexing and querying.
pub fn analyzer() -> TextAnalyzer {
    TextAnalyzer::builder(SimpleTokenizer::default())
        .filter(RemoveLongFilter::limit(64))
        .filter(LowerCaser)
        .filter(AsciiFoldingFilter)
        .build()
}

/// Registers [`analyzer`] on an index (needed both when writing and when reading).
pub fn register(index: &Index) {
    index.tokenizers().register(ANALYZER, analyzer());
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
        assert_eq!(fold("  Élan   vital "), "elan vital");
    }
}
