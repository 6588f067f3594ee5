//! The CSV files the product writes (the spatial CSV, the submissions export): quoting by the `csv`
//! crate, and the one rule that keeps a spreadsheet from running a cell. It knows nothing of what
//! the rows mean.
//!
//! A cell of text that starts with `=`, `+`, `-`, `@`, a tab or a carriage return is read by
//! spreadsheets as a formula, so public text could make an editor's machine fetch a URL or run a
//! command; such a cell is written with a leading `'` (OWASP's CSV injection rule, SECURITY.md).
//! Numbers the writer made itself (a negative longitude) stay numbers.

use std::borrow::Cow;

use serde_json::Value;

/// The characters that make a spreadsheet read a cell as a formula.
pub const FORMULA_STARTS: [char; 6] = ['=', '+', '-', '@', '\t', '\r'];

/// One cell of a row.
#[derive(Debug, Clone, PartialEq)]
pub enum Cell {
    /// Text from content or from a visitor: defused when it could run as a formula.
    Text(String),
    /// A number's text. Written as it is only when it reads as a finite number; anything else is
    /// treated as text, so a caller's mistake cannot let a formula through.
    Number(String),
}

impl Cell {
    /// The cell of a JSON value: numbers stay numbers, null is empty, strings and everything
    /// else are text (arrays and objects as their JSON).
    pub fn of_json(value: &Value) -> Cell {
        match value {
            Value::Null => Cell::Text(String::new()),
            Value::Number(n) => Cell::Number(n.to_string()),
            Value::String(s) => Cell::Text(s.clone()),
            other => Cell::Text(other.to_string()),
        }
    }

    /// The text written for this cell (before quoting).
    pub fn written(&self) -> Cow<'_, str> {
        match self {
            Cell::Number(n) if is_number(n) => Cow::Borrowed(n),
            Cell::Number(text) | Cell::Text(text) => defuse(text),
        }
    }
}

impl From<&str> for Cell {
    fn from(text: &str) -> Cell {
        Cell::Text(text.to_string())
    }
}

fn is_number(text: &str) -> bool {
    text.parse::<f64>().is_ok_and(f64::is_finite)
}

/// `text` with a leading `'` when a spreadsheet would read it as a formula.
pub fn defuse(text: &str) -> Cow<'_, str> {
    if text.starts_with(FORMULA_STARTS) {
        Cow::Owned(format!("'{text}"))
    } else {
        Cow::Borrowed(text)
    }
}

/// Whether a cell read back from a written CSV is safe: not a formula, or a plain number.
pub fn is_safe(written: &str) -> bool {
    !written.starts_with(FORMULA_STARTS) || is_number(written)
}

/// Writes `rows` (the header first) as CSV with RFC 4180 quoting.
pub fn write<R>(rows: impl IntoIterator<Item = R>) -> Result<String, String>
where
    R: IntoIterator<Item = Cell>,
{
    let mut writer = csv::WriterBuilder::new().flexible(true).from_writer(Vec::new());
    for row in rows {
        let cells: Vec<Cell> = row.into_iter().collect();
        writer.write_record(cells.iter().map(|c| c.written().into_owned())).map_err(|e| e.to_string())?;
    }
    let bytes = writer.into_inner().map_err(|e| e.to_string())?;
    String::from_utf8(bytes).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn text_that_would_run_as_a_formula_gets_a_leading_quote() {
        for text in ["=HYPERLINK(\"http://x\")", "+1", "-2+3", "@SUM(A1)", "\tx", "\rx"] {
            assert_eq!(Cell::from(text).written(), format!("'{text}"), "{text:?}");
        }
        assert_eq!(Cell::from("plain -").written(), "plain -");
    }

    #[test]
    fn numbers_stay_numbers_and_text_posing_as_a_number_does_not() {
        assert_eq!(Cell::of_json(&json!(-1.5)).written(), "-1.5");
        assert_eq!(Cell::Number("-1.25".into()).written(), "-1.25");
        assert_eq!(Cell::of_json(&json!("-1.5")).written(), "'-1.5");
        assert_eq!(Cell::Number("-1+cmd".into()).written(), "'-1+cmd");
        assert_eq!(Cell::Number("-inf".into()).written(), "'-inf");
    }

    #[test]
    fn written_rows_are_quoted_and_read_back_safe() {
        let rows = vec![
            vec![Cell::from("a,b"), Cell::from("say \"hi\"\nbye")],
            vec![Cell::from("=1+1"), Cell::of_json(&json!(-3))],
        ];
        let text = write(rows).expect("csv");
        assert_eq!(text, "\"a,b\",\"say \"\"hi\"\"\nbye\"\n'=1+1,-3\n");
        let mut reader = csv::ReaderBuilder::new().has_headers(false).from_reader(text.as_bytes());
        let cells: Vec<String> =
            reader.records().flat_map(|r| r.expect("parses").iter().map(String::from).collect::<Vec<_>>()).collect();
        assert_eq!(cells, ["a,b", "say \"hi\"\nbye", "'=1+1", "-3"]);
        assert!(cells.iter().all(|c| is_safe(c)));
    }
}
