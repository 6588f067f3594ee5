//! The interface text of the site: the theme's table for `site.yaml` `language` (English where the
//! theme has no table of that language), overridden by `content/i18n/<language>.yaml`.
//!
//! English defines the keys: a key no English string has is a content error with its line and the
//! nearest known key, so a typo in an override never passes silently. Every file of `i18n/` is
//! checked, not only the one of the site's language.

use std::collections::HashMap;
use std::path::Path;

use portal_core::content::did_you_mean::nearest;
use portal_core::content::i18n::Strings;
use portal_core::content::ContentError;
use serde_json::Value;

use super::front_matter::{to_json, yaml_object};
use crate::theme;

/// The content folder of per-site string overrides.
pub const FOLDER: &str = "i18n";

/// The language a table serves: `sw-KE` is served by `sw`.
fn primary(language: &str) -> String {
    language.split(['-', '_']).next().unwrap_or(language).to_ascii_lowercase()
}

/// Loads the table for `language`, pushing every problem of `content/i18n/` into `errors`.
pub fn load(root: &Path, language: &str, errors: &mut Vec<ContentError>) -> Strings {
    let english = match built_in("en") {
        Ok(table) => table,
        Err(e) => {
            errors.push(e);
            return Strings::default();
        }
    };
    let mut table = english.clone();
    if primary(language) != "en" {
        match built_in(&primary(language)) {
            Ok(theirs) => overlay(&mut table, &theirs),
            Err(e) if theme::i18n_table(&primary(language)).is_some() => errors.push(e),
            Err(_) => {}
        }
    }
    for (path, stem) in override_files(&root.join(FOLDER)) {
        let file = path.display().to_string();
        let text = match super::file::read_other(&path) {
            Ok(text) => text,
            Err(e) => {
                errors.push(e);
                continue;
            }
        };
        let overrides = match yaml_object(&text) {
            Ok(map) => Value::Object(map),
            Err(e) => {
                errors.push(ContentError::new(&file, e.line, e.message));
                continue;
            }
        };
        let before = errors.len();
        check_keys(&english, &overrides, &file, &text, errors);
        if errors.len() == before && (stem == language.to_ascii_lowercase() || stem == primary(language)) {
            overlay(&mut table, &overrides);
        }
    }
    Strings(table)
}

/// The theme's table of `language`, parsed.
fn built_in(language: &str) -> Result<Value, ContentError> {
    let file = format!("templates/i18n/{language}.yaml");
    let text = theme::i18n_table(language).ok_or_else(|| ContentError::new(&file, 1, "no such table"))?;
    let yaml: serde_yaml::Value =
        serde_yaml::from_str(text).map_err(|e| ContentError::new(&file, 1, format!("invalid YAML: {e}")))?;
    to_json(yaml).map_err(|e| ContentError::new(&file, 1, e))
}

/// The `.yaml`/`.yml` files of the overrides folder with their lower-cased stems, sorted.
fn override_files(dir: &Path) -> Vec<(std::path::PathBuf, String)> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    let mut files: Vec<_> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_file() && matches!(p.extension().and_then(|e| e.to_str()), Some("yaml" | "yml")))
        .filter_map(|p| {
            let stem = p.file_stem()?.to_string_lossy().to_ascii_lowercase();
            Some((p, stem))
        })
        .collect();
    files.sort();
    files
}

/// Replaces the leaves of `base` with those of `overrides` (which [`check_keys`] accepted).
fn overlay(base: &mut Value, overrides: &Value) {
    match (base, overrides) {
        (Value::Object(base), Value::Object(overrides)) => {
            for (key, value) in overrides {
                match base.get_mut(key) {
                    Some(slot @ Value::Object(_)) => overlay(slot, value),
                    Some(slot) => *slot = value.clone(),
                    None => {
                        base.insert(key.clone(), value.clone());
                    }
                }
            }
        }
        (base, overrides) => *base = overrides.clone(),
    }
}

/// Every leaf key of a table, dotted, with its value.
fn leaves<'a>(prefix: &str, value: &'a Value, out: &mut Vec<(String, &'a Value)>) {
    match value {
        Value::Object(map) => {
            for (key, child) in map {
                let dotted = if prefix.is_empty() { key.clone() } else { format!("{prefix}.{key}") };
                leaves(&dotted, child, out);
            }
        }
        _ => out.push((prefix.to_string(), value)),
    }
}

/// Checks an override table against English: known keys only, and each value of the same shape
/// (a string for a string, a list of as many strings for a list).
fn check_keys(english: &Value, overrides: &Value, file: &str, text: &str, errors: &mut Vec<ContentError>) {
    let mut known = Vec::new();
    leaves("", english, &mut known);
    let known: HashMap<String, &Value> = known.into_iter().collect();
    let lines = dotted_key_lines(text);
    let mut given = Vec::new();
    leaves("", overrides, &mut given);
    for (key, value) in given {
        let line = lines.get(&key).copied().unwrap_or(1);
        let Some(expected) = known.get(&key) else {
            let hint = nearest(&key, known.keys().map(String::as_str))
                .map(|k| format!(" Did you mean `{k}`?"))
                .unwrap_or_default();
            errors.push(ContentError::new(file, line, format!("unknown interface string `{key}`.{hint}")));
            continue;
        };
        let fits = match (expected, value) {
            (Value::String(_), Value::String(_)) => true,
            (Value::Array(a), Value::Array(b)) => a.len() == b.len() && b.iter().all(Value::is_string),
            _ => false,
        };
        if !fits {
            let shape = match expected {
                Value::Array(a) => format!("a list of {} strings", a.len()),
                _ => "a string".to_string(),
            };
            errors.push(ContentError::new(file, line, format!("`{key}` must be {shape}")));
        }
    }
}

/// The 1-based line of every mapping key of a block-style YAML text, dotted (`nav.home`).
pub fn dotted_key_lines(text: &str) -> HashMap<String, usize> {
    let mut lines = HashMap::new();
    let mut stack: Vec<(usize, String)> = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let content = line.trim_start();
        if content.is_empty() || content.starts_with('#') || content.starts_with('-') {
            continue;
        }
        let indent = line.len() - content.len();
        let Some((key, _)) = content.split_once(':') else { continue };
        let key = key.trim().trim_matches(['"', '\'']).to_string();
        while stack.last().is_some_and(|(depth, _)| *depth >= indent) {
            stack.pop();
        }
        let dotted = stack.iter().map(|(_, k)| k.as_str()).chain([key.as_str()]).collect::<Vec<_>>().join(".");
        lines.entry(dotted).or_insert(index + 1);
        stack.push((indent, key));
    }
    lines
}

/// Every built-in table has exactly the English keys (tested, so a new key is translated before it ships).
pub fn missing_keys(language: &str) -> Vec<String> {
    let (Ok(english), Ok(theirs)) = (built_in("en"), built_in(language)) else {
        return vec![format!("table {language} does not parse")];
    };
    let mut known = Vec::new();
    leaves("", &english, &mut known);
    let mut errors = Vec::new();
    check_keys(&english, &theirs, language, "", &mut errors);
    let mut given = Vec::new();
    leaves("", &theirs, &mut given);
    let given: Vec<String> = given.into_iter().map(|(k, _)| k).collect();
    known
        .into_iter()
        .map(|(k, _)| k)
        .filter(|k| !given.contains(k))
        .map(|k| format!("{language}: `{k}` is missing"))
        .chain(errors.into_iter().map(|e| e.message))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_built_in_table_is_complete() {
        for language in theme::I18N.iter().map(|(l, _)| *l) {
            assert_eq!(missing_keys(language), Vec::<String>::new(), "{language}");
        }
    }

    #[test]
    fn overrides_replace_strings_and_unknown_keys_are_errors_with_their_line() {
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::create_dir_all(dir.path().join(FOLDER)).expect("folder");
        std::fs::write(dir.path().join("i18n/sw.yaml"), "nav:\n  home: Nyumbani\n  hmoe: x\n").expect("write");
        let mut errors = Vec::new();
        load(dir.path(), "sw", &mut errors);
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert_eq!(errors[0].line, 3);
        assert!(errors[0].message.contains("`nav.home`"), "{}", errors[0].message);
        std::fs::write(dir.path().join("i18n/sw.yaml"), "nav:\n  home: Nyumbani\n").expect("write");
        let mut errors = Vec::new();
        let table = load(dir.path(), "sw", &mut errors);
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(table.get("nav.home"), "Nyumbani");
        assert_eq!(table.get("search.button"), "Tafuta");
    }

    #[test]
    fn a_language_without_a_table_speaks_english_until_the_site_adds_one() {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut errors = Vec::new();
        assert_eq!(load(dir.path(), "so", &mut errors).get("search.button"), "Search");
        assert!(errors.is_empty());
        assert_eq!(load(dir.path(), "fr-CA", &mut errors).get("search.button"), "Rechercher");
    }

    #[test]
    fn key_lines_follow_nesting() {
        let lines = dotted_key_lines("# c\nnav:\n  home: a\n  skip: b\nsearch:\n  button: c\n");
        assert_eq!(lines.get("nav.skip"), Some(&4));
        assert_eq!(lines.get("search.button"), Some(&6));
    }
}
