//! Splitting a markdown file into YAML front matter and body, converting YAML to JSON in key order,
//! and finding the line of a top-level key (so errors can name `file:line`).

use std::collections::HashMap;

use portal_core::content::text;
use serde_json::{Map, Number, Value};

/// A file split into front matter and body, with the line the front matter starts on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Split<'a> {
    /// The YAML between the `---` lines.
    pub yaml: &'a str,
    /// The 1-based line of the file where `yaml` starts.
    pub first_line: usize,
    /// Everything after the closing `---` line.
    pub body: &'a str,
}

/// Splits `---\n<yaml>\n---\n<body>`; `Err` carries the message for line 1 when there is no front matter.
pub fn split(text: &str) -> Result<Split<'_>, String> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let Some(after_open) = strip_fence(text) else {
        return Err("missing front matter: a record starts with a `---` line, its YAML (with `title:`), and a closing `---` line".into());
    };
    let mut offset = 0;
    for line in after_open.split_inclusive('\n') {
        let trimmed = line.trim_end_matches(['\n', '\r']);
        if trimmed.trim_end() == "---" || trimmed.trim_end() == "..." {
            let yaml = &after_open[..offset];
            let body = &after_open[offset + line.len()..];
            return Ok(Split { yaml, first_line: 2, body });
        }
        offset += line.len();
    }
    Err("the front matter is not closed: add a `---` line after the YAML".into())
}

fn strip_fence(text: &str) -> Option<&str> {
    let rest = text.strip_prefix("---")?;
    let rest = rest.trim_start_matches([' ', '\t']);
    rest.strip_prefix("\r\n").or_else(|| rest.strip_prefix('\n'))
}

/// A YAML or JSON problem with the 1-based line (within the text given) where it was found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntaxError {
    /// Line within the parsed text.
    pub line: usize,
    /// The parser's message.
    pub message: String,
}

/// What usually causes a YAML parser's complaint, said as advice to an author.
pub fn advice(message: &str) -> Option<&'static str> {
    const ADVICE: &[(&str, &str)] = &[
        ("mapping values are not allowed", "a `:` inside a value needs quotes, e.g. title: \"Water: the facts\""),
        ("tab character", "indent with spaces, not tabs"),
        ("cannot start any token", "a value starting with @, `, % or a tab needs quotes (and indentation uses spaces)"),
        ("did not find expected key", "check the indentation: the keys of one mapping must line up"),
        ("did not find expected '-' indicator", "check the indentation: the items of one list must line up"),
        (
            "unknown escape character",
            "inside \"double quotes\" a backslash starts an escape: use 'single quotes' or write \\\\",
        ),
        ("duplicate entry", "a key appears twice: keep one"),
        ("found unexpected end of stream", "a quote or bracket is not closed"),
        ("while scanning a quoted scalar", "a quote is not closed"),
        ("did not find expected node content", "a value is missing after a `-` or a `:`"),
    ];
    ADVICE.iter().find(|(cause, _)| message.contains(cause)).map(|(_, advice)| *advice)
}

/// A YAML parser's error as `file:line` text: where (line and column), what the parser says, and
/// what usually causes it.
fn yaml_error(e: &serde_yaml::Error) -> SyntaxError {
    let message = strip_location(&e.to_string());
    let column = e.location().map(|l| format!(" at column {}", l.column())).unwrap_or_default();
    let advice = advice(&message).map(|a| format!(": {a}")).unwrap_or_default();
    SyntaxError {
        line: e.location().map_or(1, |l| l.line()),
        message: format!("invalid YAML{column}{advice} ({message})"),
    }
}

/// Parses YAML into a JSON object, keeping key order. Empty YAML is an empty object.
pub fn yaml_object(yaml: &str) -> Result<Map<String, Value>, SyntaxError> {
    let value: serde_yaml::Value = serde_yaml::from_str(yaml).map_err(|e| yaml_error(&e))?;
    match to_json(value) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(Value::Null) => Ok(Map::new()),
        Ok(_) => {
            Err(SyntaxError { line: 1, message: "the front matter must be a mapping of `key: value` lines".into() })
        }
        Err(message) => Err(SyntaxError { line: 1, message }),
    }
}

/// Parses a JSON record file into an object.
pub fn json_object(text: &str) -> Result<Map<String, Value>, SyntaxError> {
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(mut map)) => {
            text::clean_map(&mut map);
            Ok(map)
        }
        Ok(_) => Err(SyntaxError { line: 1, message: "a JSON record must be an object".into() }),
        Err(e) => {
            Err(SyntaxError { line: e.line(), message: format!("invalid JSON: {}", strip_location(&e.to_string())) })
        }
    }
}

fn strip_location(message: &str) -> String {
    match message.find(" at line ") {
        Some(at) => message[..at].to_string(),
        None => message.to_string(),
    }
}

/// Converts a YAML value to JSON, in order. Scalar keys become strings; `.nan`/`.inf` become null;
/// strings and keys lose their control characters (`portal_core::content::text`: a YAML escape
/// such as `"\v"` writes one into a value however clean the file is).
pub fn to_json(value: serde_yaml::Value) -> Result<Value, String> {
    use serde_yaml::Value as Y;
    Ok(match value {
        Y::Null => Value::Null,
        Y::Bool(b) => Value::Bool(b),
        Y::Number(n) => {
            if let Some(i) = n.as_i64() {
                Value::Number(i.into())
            } else if let Some(u) = n.as_u64() {
                Value::Number(u.into())
            } else {
                n.as_f64().and_then(Number::from_f64).map_or(Value::Null, Value::Number)
            }
        }
        Y::String(mut s) => {
            text::clean_string(&mut s);
            Value::String(s)
        }
        Y::Sequence(items) => Value::Array(items.into_iter().map(to_json).collect::<Result<_, _>>()?),
        Y::Mapping(mapping) => {
            let mut map = Map::new();
            for (key, value) in mapping {
                let mut key = match key {
                    Y::String(s) => s,
                    Y::Number(n) => n.to_string(),
                    Y::Bool(b) => b.to_string(),
                    Y::Null => "null".to_string(),
                    _ => return Err("a mapping key must be a plain value, not a list or mapping".into()),
                };
                text::clean_string(&mut key);
                map.insert(key, to_json(value)?);
            }
            Value::Object(map)
        }
        Y::Tagged(tagged) => to_json(tagged.value)?,
    })
}

/// Removes the control characters of every string and key of a YAML value in place, for files
/// read into typed settings rather than through [`to_json`] (`site.yaml`).
pub fn clean_yaml(value: &mut serde_yaml::Value) {
    use serde_yaml::Value as Y;
    match value {
        Y::String(s) => text::clean_string(s),
        Y::Sequence(items) => items.iter_mut().for_each(clean_yaml),
        Y::Mapping(mapping) => {
            let old = std::mem::take(mapping);
            for (mut key, mut item) in old {
                clean_yaml(&mut key);
                clean_yaml(&mut item);
                mapping.insert(key, item);
            }
        }
        Y::Tagged(tagged) => clean_yaml(&mut tagged.value),
        Y::Null | Y::Bool(_) | Y::Number(_) => {}
    }
}

/// The 1-based line of each top-level key of a YAML mapping or JSON object (first occurrence).
pub fn key_lines(text: &str) -> HashMap<String, usize> {
    let mut lines = HashMap::new();
    for (index, line) in text.lines().enumerate() {
        // A byte-order mark opens the first line of a file saved by some Windows editors.
        let line = if index == 0 { line.trim_start_matches('\u{feff}') } else { line };
        let trimmed = line.trim_start();
        let indented = trimmed.len() != line.len();
        let key = if let Some(rest) = trimmed.strip_prefix('"') {
            rest.split_once('"').filter(|(_, after)| after.trim_start().starts_with(':')).map(|(k, _)| k)
        } else if indented {
            None
        } else {
            trimmed.split_once(':').map(|(k, _)| k.trim_end().trim_matches('\''))
        };
        if let Some(key) = key {
            lines.entry(key.to_string()).or_insert(index + 1);
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_front_matter_and_body() {
        let s = split("---\ntitle: A\n---\n# Body\n").expect("front matter");
        assert_eq!(s.yaml, "title: A\n");
        assert_eq!(s.body, "# Body\n");
        assert_eq!(s.first_line, 2);
        let crlf = split("\u{feff}---\r\ntitle: A\r\n---\r\nbody").expect("crlf");
        assert_eq!(crlf.body, "body");
    }

    #[test]
    fn missing_or_unclosed_front_matter_is_an_error() {
        assert!(split("# just markdown").is_err());
        assert!(split("---\ntitle: A\n").is_err());
    }

    #[test]
    fn yaml_keeps_key_order_and_reports_lines() {
        let map = yaml_object("zeta: 1\nalpha: [a, b]\n2024: year\n").expect("yaml");
        let keys: Vec<&String> = map.keys().collect();
        assert_eq!(keys, ["zeta", "alpha", "2024"]);
        let err = yaml_object("title: A\nbad: [unclosed\n").expect_err("bad yaml");
        assert!(err.line >= 2, "{err:?}");
    }

    #[test]
    fn yaml_errors_read_as_advice_with_line_and_column() {
        let err = yaml_object("title: Water: the facts\n").expect_err("a colon in a value");
        assert!(err.message.contains("needs quotes") && err.message.contains("column"), "{}", err.message);
        let err = yaml_object("title: A\n\tsummary: x\n").expect_err("a tab");
        assert_eq!(err.line, 2);
        assert!(err.message.contains("tab"), "{}", err.message);
    }

    #[test]
    fn escaped_control_characters_never_reach_a_value_or_key() {
        let map =
            yaml_object("title: \"Water\\vnews\\a\"\ntags: [\"a\\x1bb\"]\n\"k\\0\": \"\\N\\x85x\"\n").expect("yaml");
        assert_eq!(Value::Object(map), serde_json::json!({"title": "Water news", "tags": ["ab"], "k": "  x"}));
        let map = json_object(r#"{"title": "A\u000bB\u0000", "x\u0007": ["\u009f"]}"#).expect("json");
        assert_eq!(Value::Object(map), serde_json::json!({"title": "A B", "x": [""]}));
        let mut yaml: serde_yaml::Value =
            serde_yaml::from_str("a: \"x\\ty\\x07\"\n\"b\\v\": [!t \"\\0\"]\n").expect("yaml");
        clean_yaml(&mut yaml);
        assert_eq!(yaml, serde_yaml::from_str::<serde_yaml::Value>("a: \"x\\ty\"\n\"b \": [!t \"\"]\n").expect("yaml"));
    }

    #[test]
    fn key_lines_find_top_level_keys() {
        let lines = key_lines("title: A\nnested:\n  date: x\ndate: 2026-01-01\n");
        assert_eq!(lines.get("date"), Some(&4));
        let json = key_lines("{\n  \"title\": \"A\",\n  \"date\": \"x\"\n}");
        assert_eq!(json.get("date"), Some(&3));
        let windows = key_lines("\u{feff}title: A\r\ntgas: [a]\r\n");
        assert_eq!((windows.get("title"), windows.get("tgas")), (Some(&1), Some(&2)));
    }
}
