//! Word forms for the search page: a word also matches the words of the index that share its
//! Snowball stem in one of the site's languages ("clinics" finds "clinic", "écoles" finds
//! "école"). The API matches words as written (docs/spec/api-spec.md#search-matching); only the forgiving search uses this.
//!
//! The index holds words as written (folded, see [`super::schema`](mod@super::schema)), not stems:
//! a word's forms are found at query time among the terms that start like its stem, so the index
//! does not grow. Snowball stemmers cut endings, so the forms of a word start with its stem but for
//! the stem's last letter (`happy` and `happiness` share `happi`, and both start with `happ`).
//! Stemmers that also cut prefixes (Arabic's `ال`) find only the forms that start alike.

use rust_stemmers::{Algorithm, Stemmer};

use super::synonyms::Synonyms;

/// The fewest characters of a stem that its forms are looked for under: shorter, the walk over
/// the terms that start with it would be long and the forms mostly unrelated words.
const MIN_PREFIX_CHARS: usize = 2;

/// The stemmers of a set of languages, and the other words for a word ([`Synonyms`]).
pub struct Forms {
    stemmers: Vec<(Algorithm, Stemmer)>,
    synonyms: Synonyms,
}

impl std::fmt::Debug for Forms {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let algorithms: Vec<Algorithm> = self.stemmers.iter().map(|(a, _)| *a).collect();
        write!(f, "Forms({algorithms:?})")
    }
}

/// The Snowball stemmer of a language tag (`fr`, `fr-CA`, `en`...), if there is one (Kiswahili and
/// most other languages have none: their words match as written).
pub fn algorithm(language: &str) -> Option<Algorithm> {
    let primary = language.split(['-', '_']).next().unwrap_or_default().to_ascii_lowercase();
    Some(match primary.as_str() {
        "ar" => Algorithm::Arabic,
        "da" => Algorithm::Danish,
        "nl" => Algorithm::Dutch,
        "en" => Algorithm::English,
        "fi" => Algorithm::Finnish,
        "fr" => Algorithm::French,
        "de" => Algorithm::German,
        "el" => Algorithm::Greek,
        "hu" => Algorithm::Hungarian,
        "it" => Algorithm::Italian,
        "no" | "nb" | "nn" => Algorithm::Norwegian,
        "pt" => Algorithm::Portuguese,
        "ro" => Algorithm::Romanian,
        "ru" => Algorithm::Russian,
        "es" => Algorithm::Spanish,
        "sv" => Algorithm::Swedish,
        "ta" => Algorithm::Tamil,
        "tr" => Algorithm::Turkish,
        _ => return None,
    })
}

/// What one query word's forms are: its stems and the prefix every form starts with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WordForms {
    /// The word's stem in each language, in the order of [`Forms`]'s stemmers.
    pub stems: Vec<String>,
    /// The start every form shares.
    pub prefix: String,
}

impl Forms {
    /// The stemmers of `languages` (each once; languages without one are left out).
    pub fn new<'a>(languages: impl IntoIterator<Item = &'a str>) -> Self {
        let mut stemmers: Vec<(Algorithm, Stemmer)> = Vec::new();
        for algorithm in languages.into_iter().filter_map(algorithm) {
            if !stemmers.iter().any(|(a, _)| *a == algorithm) {
                stemmers.push((algorithm, Stemmer::create(algorithm)));
            }
        }
        Forms { stemmers, synonyms: Synonyms::default() }
    }

    /// The same, a word also matching the other words of its groups in `synonyms`.
    pub fn with_synonyms(self, synonyms: Synonyms) -> Self {
        Forms { synonyms, ..self }
    }

    /// The other words of an analyzed `word` (see [`Synonyms::of`]).
    pub fn synonyms_of(&self, word: &str) -> Vec<String> {
        self.synonyms.of(word)
    }

    /// Whether no language has a stemmer (then words only match as written).
    pub fn is_empty(&self) -> bool {
        self.stemmers.is_empty()
    }

    /// The forms of an analyzed `word`: `None` when no stemmer applies or the word is too short to
    /// have forms worth looking for.
    pub fn of(&self, word: &str) -> Option<WordForms> {
        if self.stemmers.is_empty() || word.chars().count() <= MIN_PREFIX_CHARS {
            return None;
        }
        let stems: Vec<String> = self.stemmers.iter().map(|(_, s)| s.stem(word).into_owned()).collect();
        let shared = stems.iter().map(|stem| shared_start(word, stem).min(stem.chars().count().saturating_sub(1)));
        let chars = shared.min()?;
        if chars < MIN_PREFIX_CHARS {
            return None;
        }
        let prefix: String = word.chars().take(chars).collect();
        Some(WordForms { stems, prefix })
    }

    /// The stem of `word` in each language, in the order of [`WordForms::stems`] (the static
    /// search's build groups the index's words by them, `super::offline`).
    pub fn stems(&self, word: &str) -> Vec<String> {
        self.stemmers.iter().map(|(_, s)| s.stem(word).into_owned()).collect()
    }

    /// Whether `term` (analyzed) is a form of the word of `forms`: the same stem in one language.
    pub fn matches(&self, term: &str, forms: &WordForms) -> bool {
        term.starts_with(forms.prefix.as_str())
            && self.stemmers.iter().zip(&forms.stems).any(|((_, stemmer), stem)| stemmer.stem(term) == stem.as_str())
    }
}

/// How many characters `a` and `b` start with alike.
fn shared_start(a: &str, b: &str) -> usize {
    a.chars().zip(b.chars()).take_while(|(x, y)| x == y).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn is_form(forms: &Forms, term: &str, word: &str) -> bool {
        forms.of(word).is_some_and(|of| forms.matches(term, &of))
    }

    #[test]
    fn forms_share_a_stem_in_one_of_the_languages() {
        let forms = Forms::new(["en", "fr", "sw"]);
        assert!(is_form(&forms, "clinic", "clinics"));
        assert!(is_form(&forms, "clinics", "clinic"));
        assert!(is_form(&forms, "job", "jobs"));
        assert!(is_form(&forms, "ecole", "ecoles"));
        assert!(is_form(&forms, "happy", "happiness") || is_form(&forms, "happiness", "happy"));
        assert!(!is_form(&forms, "clinical", "cling"));
        assert!(!is_form(&forms, "water", "waiter"));
    }

    #[test]
    fn languages_without_a_stemmer_and_short_words_have_no_forms() {
        assert!(Forms::new(["sw", "so"]).is_empty());
        assert_eq!(Forms::new(["sw"]).of("shule"), None);
        assert_eq!(Forms::new(["en"]).of("is"), None);
        assert_eq!(algorithm("fr-CA"), Some(Algorithm::French));
        assert_eq!(Forms::new(["en", "en-GB", "fr"]).stemmers.len(), 2);
    }

    #[test]
    fn arabic_words_find_their_suffixed_forms() {
        let forms = Forms::new(["ar"]);
        let of = forms.of("مدارس");
        assert!(of.is_some(), "{of:?}");
    }
}
