//! `tests/spec.py`, the facts the Python suites check, holds the core's values: each name there
//! is one of the core's constants below, with its value, so a Python test never checks a limit or
//! a media type the core no longer has.

use std::collections::BTreeMap;
use std::path::Path;

use portal_core::http::media;

/// Every fact of `tests/spec.py` with the core's value, as Python writes it.
fn owners() -> BTreeMap<&'static str, String> {
    let text = |value: &str| format!("{value:?}");
    BTreeMap::from([
        ("PROBLEM_JSON", text(media::PROBLEM_JSON)),
        ("RSS", text(media::RSS)),
        ("GEOJSON", text(media::GEOJSON)),
        ("JSON_LD", text(media::JSON_LD)),
        ("CALENDAR", text(media::CALENDAR)),
        ("OPENAPI", text(media::OPENAPI)),
        ("SCHEMA_JSON", text(media::SCHEMA_JSON)),
        ("MAX_FILE_BYTES", portal_core::dist::manifest::MAX_FILE_BYTES.to_string()),
        ("MIN_QUERY_CHARS", portal_core::search::limits::MIN_QUERY_CHARS.to_string()),
        ("MAX_QUERY_CHARS", portal_core::search::limits::MAX_QUERY_CHARS.to_string()),
        ("MAX_QUERY_WORDS", portal_core::search::limits::MAX_QUERY_WORDS.to_string()),
        ("OFFLINE_BUDGET", portal_core::content::offline::DEFAULT_BUDGET.to_string()),
    ])
}

/// The `NAME = value` lines of a Python module, the value without a trailing comment and, for a
/// number, without its `_` separators.
fn facts(python: &str) -> BTreeMap<String, String> {
    python
        .lines()
        .filter_map(|line| line.split_once(" = "))
        .filter(|(name, _)| !name.is_empty() && name.chars().all(|c| c.is_ascii_uppercase() || c == '_'))
        .map(|(name, value)| {
            let value =
                if value.starts_with('"') { value.trim() } else { value.split('#').next().unwrap_or("").trim() };
            let value = if value.starts_with('"') { value.to_string() } else { value.replace('_', "") };
            (name.to_string(), value)
        })
        .collect()
}

/// What differs between `facts` and the core's values: a name without an owner, or another value.
fn drift(facts: &BTreeMap<String, String>, owners: &BTreeMap<&str, String>) -> Vec<String> {
    facts
        .iter()
        .filter_map(|(name, value)| match owners.get(name.as_str()) {
            None => Some(format!("{name} has no constant in the core to check it against")),
            Some(owner) if owner != value => Some(format!("{name} is {value} in tests/spec.py, {owner} in the core")),
            Some(_) => None,
        })
        .collect()
}

#[test]
fn the_python_suites_facts_are_the_cores() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/spec.py");
    let python = std::fs::read_to_string(&path).expect("tests/spec.py");
    let facts = facts(&python);
    assert_eq!(facts.len(), owners().len(), "every constant of the core here is in tests/spec.py: {facts:?}");
    assert_eq!(drift(&facts, &owners()), Vec::<String>::new());
}

#[test]
fn a_changed_or_unowned_fact_is_found() {
    let facts = facts("RSS = \"application/rss+xml\"\nMAX_QUERY_WORDS = 1_6  # words\nLIMIT = 3\nlower = 1\n");
    assert_eq!(facts.len(), 3);
    let found = drift(&facts, &owners());
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(found[0].contains("LIMIT has no constant") && found[1].contains("RSS is"), "{found:?}");
}
