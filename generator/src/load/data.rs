//! Dashboard datasets (docs/spec/api-spec.md#snapshots; `content/data/<name>.yaml|.yml|.json`): alerts,
//! population, finance, charts, any snapshot of the site's own (docs/content.md#data-pages) and the
//! seasonal weather fallback. Each must be a mapping or a list.

use std::collections::BTreeMap;
use std::path::Path;

use portal_core::content::ContentError;
use serde_json::Value;

use super::front_matter::to_json;

/// The data folder inside the content folder.
pub const FOLDER: &str = "data";
/// Snapshots served at `/api/<name>`.
pub const SNAPSHOTS: [&str; 4] = ["alerts", "population", "finance", "charts"];
/// The seasonal weather fallback.
pub const WEATHER_FALLBACK: &str = "weather-fallback";

/// Whether `stem` can name a snapshot: it becomes `/data/<stem>` and `/api/data/<stem>`.
pub fn is_name(stem: &str) -> bool {
    stem.starts_with(|c: char| c.is_ascii_lowercase() || c.is_ascii_digit())
        && stem.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

/// Where a snapshot's JSON is published: `/api/<name>` for the four of the spec, else
/// `/api/data/<name>` (docs/spec/api-spec.md#snapshots).
pub fn json_url(name: &str) -> String {
    if SNAPSHOTS.contains(&name) {
        format!("/api/{name}")
    } else {
        format!("/api/data/{name}")
    }
}

/// Parses one data file into JSON (mapping or list only).
pub fn parse(file: &str, json: bool, text: &str) -> Result<Value, ContentError> {
    let value = if json {
        match serde_json::from_str::<Value>(text) {
            Ok(mut v) => {
                portal_core::content::text::clean_value(&mut v);
                v
            }
            Err(e) => return Err(ContentError::new(file, e.line(), format!("invalid JSON: {e}"))),
        }
    } else {
        let yaml: serde_yaml::Value = serde_yaml::from_str(text)
            .map_err(|e| ContentError::new(file, e.location().map_or(1, |l| l.line()), format!("invalid YAML: {e}")))?;
        to_json(yaml).map_err(|m| ContentError::new(file, 1, m))?
    };
    match value {
        Value::Object(_) | Value::Array(_) => Ok(value),
        _ => Err(ContentError::new(file, 1, "a dataset must be a mapping or a list, not a single value")),
    }
}

fn check_fallback(file: &str, text: &str, value: &Value) -> Option<ContentError> {
    let line = text.lines().position(|l| l.starts_with("months")).map_or(1, |i| i + 1);
    let Some(months) = value.get("months").and_then(Value::as_object) else {
        return Some(ContentError::new(
            file,
            1,
            "the weather fallback needs a `months:` mapping from 1-12 to {summary, ...}",
        ));
    };
    for (month, season) in months {
        let valid_month = month.parse::<u32>().is_ok_and(|m| (1..=12).contains(&m));
        if !valid_month || season.get("summary").and_then(Value::as_str).is_none() {
            return Some(ContentError::new(
                file,
                line,
                format!("months.{month}: each month 1-12 needs a `summary` string"),
            ));
        }
    }
    None
}

/// Loads the datasets and the weather fallback; problems go into `errors`.
pub fn load(content: &Path, errors: &mut Vec<ContentError>) -> (BTreeMap<String, Value>, Option<Value>) {
    let mut datasets = BTreeMap::new();
    let mut fallback = None;
    let Ok(read) = std::fs::read_dir(content.join(FOLDER)) else { return (datasets, fallback) };
    let mut paths: Vec<_> = read.flatten().map(|e| e.path()).filter(|p| p.is_file()).collect();
    paths.sort();
    for path in paths {
        let file = path.display().to_string();
        let (Some(stem), Some(ext)) =
            (path.file_stem().and_then(|s| s.to_str()), path.extension().and_then(|e| e.to_str()))
        else {
            continue;
        };
        if stem.starts_with('.') || !matches!(ext, "yaml" | "yml" | "json") {
            continue;
        }
        if !is_name(stem) {
            errors.push(ContentError::new(
                &file,
                1,
                format!(
                    "data file `{stem}`: name a snapshot with lowercase letters, digits and hyphens (it is its URL)"
                ),
            ));
            continue;
        }
        let text = match super::file::read_other(&path) {
            Ok(text) => text,
            Err(e) => {
                errors.push(e);
                continue;
            }
        };
        match parse(&file, ext == "json", &text) {
            Ok(value) if stem == WEATHER_FALLBACK => match check_fallback(&file, &text, &value) {
                Some(error) => errors.push(error),
                None => fallback = Some(value),
            },
            Ok(value) => {
                datasets.insert(stem.to_string(), value);
            }
            Err(e) => errors.push(e),
        }
    }
    (datasets, fallback)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dataset_must_be_a_mapping_or_a_list() {
        assert!(parse("a.yaml", false, "items: [1, 2]\n").is_ok());
        assert!(parse("a.yaml", false, "- 1\n- 2\n").is_ok());
        let err = parse("a.yaml", false, "just text\n").expect_err("scalar");
        assert_eq!(err.to_string(), "a.yaml:1: a dataset must be a mapping or a list, not a single value");
        assert_eq!(parse("a.json", true, "{\n\"a\": }").expect_err("json").line, 2);
    }

    #[test]
    fn a_site_may_add_snapshots_of_its_own_named_as_urls() {
        assert!(is_name("school-results") && is_name("2026") && !is_name("Bad Name") && !is_name("-x"));
        assert_eq!(json_url("population"), "/api/population");
        assert_eq!(json_url("school-results"), "/api/data/school-results");
    }
}
