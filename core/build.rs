//! Compiles the word lists of `data/words/` (scripts/wordlists.py) into one fst set per language,
//! which `src/search/known.rs` includes: a few hundred kilobytes the Worker carries as they are.

use std::path::Path;

const LANGUAGES: [&str; 4] = ["en", "fr", "sw", "ar"];

fn main() {
    let out = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    for lang in LANGUAGES {
        let source = format!("data/words/{lang}.txt");
        println!("cargo:rerun-if-changed={source}");
        let text = std::fs::read_to_string(&source).expect("the word list is in data/words");
        let mut words: Vec<&str> = text.lines().map(str::trim).filter(|w| !w.is_empty()).collect();
        words.sort_unstable();
        words.dedup();
        let mut builder = tantivy_fst::MapBuilder::memory();
        builder.extend_iter(words.into_iter().map(|w| (w, 0))).expect("sorted, distinct words");
        let bytes = builder.into_inner().expect("an fst in memory");
        std::fs::write(Path::new(&out).join(format!("words-{lang}.fst")), bytes).expect("OUT_DIR is writable");
    }
}
