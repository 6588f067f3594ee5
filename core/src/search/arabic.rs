//! Arabic folding, part of the analyzer ([`super::schema::analyzer`]), so the same at index and
//! query time and in both servers (docs/spec/api-spec.md#search-matching): as accents are ignored,
//! Arabic letter forms and diacritics are, and the attached article and conjunction are split off
//! as French `l'` is by the tokenizer.
//!
//! 1. Letter forms: alef with hamza or madda and alef wasla (`أ إ آ ٱ`) read as `ا`, alef maqsura
//!    `ى` as `ي`, teh marbuta `ة` as `ه` (written interchangeably at the end of a word).
//! 2. Tatweel (`ـ`, stretching) and harakat (short vowels, tanween, shadda, sukun, dagger alef)
//!    are removed.
//! 3. The article and what attaches before it (`ال وال بال كال فال لل`) are removed when at least
//!    two letters remain, and the conjunction `و` when at least three remain (`ولد`, "boy", stays):
//!    Lucene's light stemmer's prefixes. Bare `ب ل ف ك` are kept: too many words start with them
//!    (`بيت`, `لبنان`, `فريق`) for a rule without a dictionary.
//!
//! Suffixes and word forms are left to the search page's Snowball stemmer ([`super::word_forms`]).

/// Attached prefixes removed when at least [`MIN_REST`] letters remain, longest first.
const ARTICLES: [&str; 6] = ["وال", "بال", "كال", "فال", "لل", "ال"];

/// Letters that must remain after an article.
const MIN_REST: usize = 2;

/// Letters that must remain after a bare conjunction `و`.
const MIN_REST_AFTER_WAW: usize = 3;

/// Whether `text` has an Arabic letter or mark (the only text [`fold`] changes).
pub fn is_arabic(text: &str) -> bool {
    text.chars().any(|c| ('\u{0600}'..='\u{06FF}').contains(&c))
}

/// One character's letter form, or `None` for a character that is removed.
fn letter(c: char) -> Option<char> {
    match c {
        'أ' | 'إ' | 'آ' | 'ٱ' => Some('ا'),
        'ى' => Some('ي'),
        'ة' => Some('ه'),
        // Tatweel, then harakat (fathatan to sukun, and the marks after them), dagger alef.
        '\u{0640}' | '\u{064B}'..='\u{065F}' | '\u{0670}' => None,
        _ => Some(c),
    }
}

/// `word` (one analyzed word) with Arabic letter forms folded, marks removed and the attached
/// article or conjunction split off; other words are returned as they are.
pub fn fold(word: &str) -> String {
    if !is_arabic(word) {
        return word.to_string();
    }
    let letters: String = word.chars().filter_map(letter).collect();
    strip_prefix(&letters).to_string()
}

/// `word` without its attached article or conjunction (see the module's documentation).
fn strip_prefix(word: &str) -> &str {
    for article in ARTICLES {
        if let Some(rest) = word.strip_prefix(article) {
            if rest.chars().count() >= MIN_REST {
                return rest;
            }
        }
    }
    match word.strip_prefix('و') {
        Some(rest) if rest.chars().count() >= MIN_REST_AFTER_WAW => rest,
        _ => word,
    }
}

#[cfg(test)]
mod tests {
    use super::fold;

    #[test]
    fn letter_forms_are_folded() {
        for (written, folded) in [
            ("أمل", "امل"),
            ("إسعاف", "اسعاف"),
            ("آبار", "ابار"),
            ("ٱسم", "اسم"),
            ("مستشفى", "مستشفي"),
            ("عيادة", "عياده"),
            ("مدرسه", "مدرسه"),
        ] {
            assert_eq!(fold(written), folded, "{written}");
        }
    }

    #[test]
    fn tatweel_and_harakat_are_removed() {
        assert_eq!(fold("عيـــادة"), "عياده");
        assert_eq!(fold("رُكِّبَتْ"), "ركبت");
        assert_eq!(fold("ماءً"), "ماء");
        assert_eq!(fold("هٰذا"), "هذا");
    }

    #[test]
    fn the_article_and_attached_prefixes_are_split_off() {
        for (written, folded) in [
            ("العيادة", "عياده"),
            ("والعيادة", "عياده"),
            ("بالعيادة", "عياده"),
            ("فالماء", "ماء"),
            ("كالماء", "ماء"),
            ("للتسجيل", "تسجيل"),
            ("المياه", "مياه"),
            ("ومياه", "مياه"),
        ] {
            assert_eq!(fold(written), folded, "{written}");
        }
    }

    #[test]
    fn short_words_keep_what_looks_like_a_prefix() {
        // "boy", "he gave birth": a bare و needs three letters after it.
        assert_eq!(fold("ولد"), "ولد");
        assert_eq!(fold("وقت"), "وقت");
        // An article needs two letters after it: "الله" keeps two, "الا" does not.
        assert_eq!(fold("الا"), "الا");
        assert_eq!(fold("لله"), "لله");
        // Bare ب ل ف are never removed.
        assert_eq!(fold("بيت"), "بيت");
        assert_eq!(fold("لبنان"), "لبنان");
        assert_eq!(fold("فريق"), "فريق");
    }

    #[test]
    fn other_scripts_are_untouched() {
        assert_eq!(fold("water"), "water");
        assert_eq!(fold("école"), "école");
    }
}
