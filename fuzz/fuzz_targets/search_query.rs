//! The query parser and its limits (`portal_core::search::limits`, docs/spec/api-spec.md#query-limits):
//! any text as a query. The parser never panics; what it accepts is at most `MAX_QUERY_WORDS`
//! distinct words of a query of at most `MAX_QUERY_CHARS` characters, and what it refuses is over a
//! limit it names; whatever words the engine is given, it plans at most `MAX_QUERY_WORDS` of them.
//! The text also goes, as `q` or `search`, to every entry that searches, over the conformance build:
//! a 200 or a 400, never a 500 (`harness::check`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use portal_core::http::{Method, Request};
use portal_core::search::limits::{self, Refusal, MAX_QUERY_CHARS, MAX_QUERY_WORDS, MIN_QUERY_CHARS};
use portal_core::search::schema::words;

#[path = "harness.rs"]
mod harness;

/// `text` percent-encoded as a query value (every byte but ASCII letters and digits).
fn encoded(text: &str) -> String {
    text.bytes()
        .map(|b| if b.is_ascii_alphanumeric() { char::from(b).to_string() } else { format!("%{b:02X}") })
        .collect()
}

fn check_parser(text: &str) {
    match limits::terms(text) {
        Ok(terms) => {
            assert!(text.chars().count() <= MAX_QUERY_CHARS);
            assert!(text.trim().chars().count() >= MIN_QUERY_CHARS);
            assert!(terms.len() <= MAX_QUERY_WORDS, "{} terms", terms.len());
            let mut sorted = terms.clone();
            sorted.sort();
            sorted.dedup();
            assert_eq!(sorted.len(), terms.len(), "a term twice: {terms:?}");
            assert_eq!(terms.last(), words(text).last(), "the last word stays last");
        }
        Err(Refusal::TooShort) => assert!(text.trim().chars().count() < MIN_QUERY_CHARS),
        Err(Refusal::TooLong { chars }) => assert!(chars > MAX_QUERY_CHARS && chars == text.chars().count()),
        Err(Refusal::TooManyWords { words }) => assert!(words > MAX_QUERY_WORDS),
    }
    assert!(limits::distinct(&words(text)).len() <= MAX_QUERY_WORDS);
    // Repeating the text never makes the engine's words more than the limit.
    let repeated = words(&text.repeat(8));
    assert!(limits::distinct(&repeated).len() <= MAX_QUERY_WORDS);
}

fuzz_target!(|text: &str| {
    check_parser(text);
    let value = encoded(text);
    for target in [
        format!("/api/search?q={value}"),
        format!("/search?q={value}"),
        format!("/api/hsds/services?search={value}"),
        format!("/api/encyclopedia?q={value}"),
    ] {
        let response = harness::check(Request::new(Method::Get, &target));
        assert!(matches!(response.status, 200 | 400), "{target}: {}", response.status);
    }
});
