//! Whether a word is a word of a language: the never-rewrite rule of the search page
//! (docs/spec/api-spec.md#search-page-corrections) corrects a word automatically only when neither
//! the site's index nor any of these lists knows it.
//!
//! The lists (core/data/words, made by scripts/wordlists.py, licences in
//! core/data/words/LICENSE.md): the 30,000 most frequent words of English, French and Arabic
//! (wordfreq 3.1.1) and the Kiswahili words of hunspell-sw, folded as the analyzer folds them,
//! compiled into fst sets by core/build.rs and read in place.

use tantivy_fst::raw::Fst;

/// Each list's fst, by language.
const LISTS: [(&str, &[u8]); 4] = [
    ("en", include_bytes!(concat!(env!("OUT_DIR"), "/words-en.fst"))),
    ("fr", include_bytes!(concat!(env!("OUT_DIR"), "/words-fr.fst"))),
    ("sw", include_bytes!(concat!(env!("OUT_DIR"), "/words-sw.fst"))),
    ("ar", include_bytes!(concat!(env!("OUT_DIR"), "/words-ar.fst"))),
];

/// The languages that have a list.
pub fn languages() -> impl Iterator<Item = &'static str> {
    LISTS.iter().map(|(lang, _)| *lang)
}

/// Whether `word` (folded, as [`super::schema::words`] gives it) is a word of one of the
/// languages. A list that cannot be read (never: build.rs wrote it) knows nothing.
pub fn is_known_word(word: &str) -> bool {
    LISTS.iter().any(|(_, bytes)| Fst::new(*bytes).is_ok_and(|fst| fst.contains_key(word)))
}

/// Every word of every list, each list in byte order (the static search ships them, in chunks,
/// for the same rule in the browser).
pub fn all_words() -> Vec<String> {
    let mut all = Vec::new();
    for (_, bytes) in LISTS {
        let Ok(fst) = Fst::new(bytes) else { continue };
        let mut stream = fst.stream();
        while let Some((key, _)) = tantivy_fst::Streamer::next(&mut stream) {
            all.push(String::from_utf8_lossy(key).into_owned());
        }
    }
    all
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::schema::words;

    #[test]
    fn the_lists_know_common_words_of_each_language_but_not_typos() {
        for typed in ["beats", "beaten", "husband", "rape", "école", "santé", "mtoto", "amepotea", "مدرسة"] {
            let folded = words(typed).join("");
            assert!(is_known_word(&folded), "{typed}");
        }
        for typo in ["vacination", "helth", "registraton", "protecion", "xqzt"] {
            assert!(!is_known_word(typo), "{typo}");
        }
        assert_eq!(languages().count(), 4);
    }
}
