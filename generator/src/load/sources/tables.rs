//! Reading a source's rows: each format into the same shape, a header and rows of cells, each row
//! with where it is in the source for errors (docs/content.md#sources). Libraries do the parsing:
//! `csv` for CSV and TSV, `calamine` for spreadsheets, serde for JSON.

use std::path::Path;

use serde_json::{Map, Value};

/// The formats a source may have.
pub const FORMATS: &[&str] = &["csv", "tsv", "xlsx", "ods", "json", "jsonl", "geojson"];

/// One row of a source: its cells by column, in column order, and where it is.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// Where the row is: `file:line` (CSV, JSON Lines), `file Sheet!A5` (spreadsheets) or
    /// `file#/3` (a JSON pointer).
    pub place: String,
    /// The line of the file errors point at (1 where a line means nothing, as in a spreadsheet).
    pub line: usize,
    /// Column name (header cell, trimmed) -> value; empty cells are left out.
    pub cells: Map<String, Value>,
}

/// Every row of the file at `path` (shown as `file`) in `format`, and the columns in order;
/// errors are messages about the file as a whole.
pub fn read(path: &Path, file: &str, format: &str) -> Result<(Vec<String>, Vec<Row>), String> {
    match format {
        "csv" => delimited(path, file, b','),
        "tsv" => delimited(path, file, b'\t'),
        "xlsx" | "ods" => spreadsheet(path, file),
        "json" => json(path, file),
        "jsonl" => json_lines(path, file),
        "geojson" => geojson(path, file),
        other => Err(format!("unknown source format `{other}` (formats: {})", FORMATS.join(", "))),
    }
}

/// The format of a file named `from`, by its extension.
pub fn format_of(from: &str) -> Option<&'static str> {
    let extension = Path::new(from).extension()?.to_str()?.to_ascii_lowercase();
    let extension = if extension == "ndjson" { "jsonl".to_string() } else { extension };
    FORMATS.iter().copied().find(|f| *f == extension)
}

/// A cell's text as a value: trimmed, `None` when empty.
fn text(cell: &str) -> Option<Value> {
    let cell = cell.trim();
    (!cell.is_empty()).then(|| Value::String(cell.to_string()))
}

/// Keeps the first of equal header names: a second column of the same name is renamed with its
/// position (`Phone (2)`), so no cell is lost.
fn unique(headers: Vec<String>) -> Vec<String> {
    let mut seen: Vec<String> = Vec::with_capacity(headers.len());
    for (i, header) in headers.into_iter().enumerate() {
        let name = if seen.contains(&header) { format!("{header} ({})", i + 1) } else { header };
        seen.push(name);
    }
    seen
}

fn delimited(path: &Path, file: &str, delimiter: u8) -> Result<(Vec<String>, Vec<Row>), String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read the source: {e}"))?;
    let bytes = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(&bytes);
    let mut reader = csv::ReaderBuilder::new().delimiter(delimiter).flexible(true).from_reader(bytes);
    let headers = reader.headers().map_err(|e| format!("cannot read the header row: {e}"))?;
    let headers = unique(headers.iter().map(|h| h.trim().to_string()).collect());
    let (mut rows, mut counted) = (Vec::new(), (0, 1));
    for record in reader.records() {
        let record = record.map_err(|e| format!("cannot read a row: {e}"))?;
        let line = record.position().map_or(1, |p| line_at(bytes, p.byte() as usize, &mut counted));
        let cells = headers.iter().zip(record.iter()).filter_map(|(h, c)| Some((h.clone(), text(c)?))).collect();
        rows.push(Row { place: format!("{file}:{line}"), line, cells });
    }
    Ok((headers, rows))
}

/// The line of the row starting at `byte` of `bytes`, counting on from `counted` (a byte and its
/// line, which it moves there). The csv crate starts a row after the `\r` of a CRLF, so its own
/// line number is one short in files with Windows line endings.
fn line_at(bytes: &[u8], byte: usize, counted: &mut (usize, usize)) -> usize {
    let start = if bytes.get(byte) == Some(&b'\n') { byte + 1 } else { byte };
    let (from, line) = *counted;
    let between = bytes.get(from.min(start)..start).unwrap_or_default();
    let line = line + between.iter().filter(|b| **b == b'\n').count();
    *counted = (start, line);
    line
}

fn spreadsheet(path: &Path, file: &str) -> Result<(Vec<String>, Vec<Row>), String> {
    use calamine::Reader;
    let mut workbook = calamine::open_workbook_auto(path).map_err(|e| format!("cannot read the spreadsheet: {e}"))?;
    let Some(sheet) = workbook.sheet_names().first().cloned() else {
        return Err("the spreadsheet has no sheet".into());
    };
    let range = workbook.worksheet_range(&sheet).map_err(|e| format!("cannot read sheet `{sheet}`: {e}"))?;
    let (top, left) = range.start().unwrap_or((0, 0));
    let mut lines = range.rows();
    let headers = unique(
        lines.next().map(|row| row.iter().map(|c| cell_text(c).unwrap_or_default()).collect()).unwrap_or_default(),
    );
    let mut rows = Vec::new();
    for (n, row) in lines.enumerate() {
        let number = top as usize + n + 2;
        let cells: Map<String, Value> =
            headers.iter().zip(row).filter_map(|(h, c)| Some((h.clone(), Value::String(cell_text(c)?)))).collect();
        if !cells.is_empty() {
            let place = format!("{file} {sheet}!{}{number}", column_name(left as usize));
            rows.push(Row { place, line: 1, cells });
        }
    }
    Ok((headers, rows))
}

/// A spreadsheet cell as text: numbers as written (whole numbers without `.0`), dates as
/// `YYYY-MM-DD` (with the time when it has one), `None` for an empty or error cell.
fn cell_text(cell: &calamine::Data) -> Option<String> {
    use calamine::Data;
    let text = match cell {
        Data::Empty | Data::Error(_) => return None,
        Data::String(s) => s.trim().to_string(),
        Data::Int(i) => i.to_string(),
        Data::Float(f) if f.fract() == 0.0 && f.abs() < 1e15 => format!("{}", *f as i64),
        Data::Float(f) => f.to_string(),
        Data::Bool(b) => b.to_string(),
        Data::DateTime(d) => {
            let (y, mo, day, h, mi, s, _) = d.to_ymd_hms_milli();
            if (h, mi, s) == (0, 0, 0) {
                format!("{y:04}-{mo:02}-{day:02}")
            } else {
                format!("{y:04}-{mo:02}-{day:02}T{h:02}:{mi:02}:{s:02}")
            }
        }
        Data::DateTimeIso(s) | Data::DurationIso(s) => s.clone(),
    };
    (!text.is_empty()).then_some(text)
}

/// The spreadsheet name of column `index` (0 is `A`, 26 is `AA`).
fn column_name(index: usize) -> String {
    let mut name = Vec::new();
    let mut n = index + 1;
    while n > 0 {
        let rest = (n - 1) % 26;
        name.push(b'A' + rest as u8);
        n = (n - 1) / 26;
    }
    name.reverse();
    String::from_utf8(name).unwrap_or_default()
}

fn read_json(path: &Path) -> Result<Value, String> {
    let text = crate::load::records::read_text(path).map_err(|e| e.message)?;
    serde_json::from_str(&text).map_err(|e| format!("not valid JSON at line {}: {e}", e.line()))
}

/// Adds the keys of `object` (trimmed) not yet among `columns`, in order: a key is a column even
/// where its every value is empty.
fn add_columns(columns: &mut Vec<String>, object: &Map<String, Value>) {
    for key in object.keys().map(|k| k.trim()) {
        if !columns.iter().any(|c| c == key) {
            columns.push(key.to_string());
        }
    }
}

/// An object's values as cells: keys trimmed, empty strings and nulls left out.
fn cells_of(object: &Map<String, Value>) -> Map<String, Value> {
    object
        .iter()
        .filter_map(|(key, value)| {
            let value = match value {
                Value::Null => return None,
                Value::String(s) => text(s)?,
                other => other.clone(),
            };
            Some((key.trim().to_string(), value))
        })
        .collect()
}

fn json(path: &Path, file: &str) -> Result<(Vec<String>, Vec<Row>), String> {
    let value = read_json(path)?;
    // An array of objects, or an object holding one (`{"data": [...]}`, as many APIs answer).
    let (pointer, items) = match &value {
        Value::Array(items) => (String::new(), items),
        Value::Object(map) => match map.iter().filter(|(_, v)| v.is_array()).collect::<Vec<_>>().as_slice() {
            [(key, Value::Array(items))] => (format!("/{key}"), items),
            _ => return Err("expected an array of objects, or an object holding one array of them".into()),
        },
        _ => return Err("expected an array of objects".into()),
    };
    let (mut headers, mut rows) = (Vec::new(), Vec::new());
    for (i, item) in items.iter().enumerate() {
        let Value::Object(object) = item else {
            return Err(format!("{file}#{pointer}/{i} is not an object"));
        };
        add_columns(&mut headers, object);
        rows.push(Row { place: format!("{file}#{pointer}/{i}"), line: 1, cells: cells_of(object) });
    }
    Ok((headers, rows))
}

fn json_lines(path: &Path, file: &str) -> Result<(Vec<String>, Vec<Row>), String> {
    let text = crate::load::records::read_text(path).map_err(|e| e.message)?;
    let (mut headers, mut rows) = (Vec::new(), Vec::new());
    for (n, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let place = format!("{file}:{}", n + 1);
        match serde_json::from_str::<Value>(line) {
            Ok(Value::Object(object)) => {
                add_columns(&mut headers, &object);
                rows.push(Row { place, line: n + 1, cells: cells_of(&object) });
            }
            Ok(_) => return Err(format!("{place}: a line must hold one JSON object")),
            Err(e) => return Err(format!("{place}: not valid JSON: {e}")),
        }
    }
    Ok((headers, rows))
}

/// A GeoJSON FeatureCollection: each feature's properties are its cells; a point's coordinates
/// are the `location` (`latitude`, `longitude`) unless a property of that name is there.
fn geojson(path: &Path, file: &str) -> Result<(Vec<String>, Vec<Row>), String> {
    let value = read_json(path)?;
    let features = value.get("features").and_then(Value::as_array).ok_or("expected a GeoJSON FeatureCollection")?;
    let (mut headers, mut rows) = (Vec::new(), Vec::new());
    for (i, feature) in features.iter().enumerate() {
        let props = feature.get("properties").and_then(Value::as_object).cloned().unwrap_or_default();
        let mut cells = cells_of(&props);
        let point = feature
            .pointer("/geometry/coordinates")
            .and_then(Value::as_array)
            .filter(|_| feature.pointer("/geometry/type").and_then(Value::as_str) == Some("Point"));
        if let (Some(point), false) = (point, cells.contains_key("location")) {
            if let [Value::Number(lon), Value::Number(lat), ..] = point.as_slice() {
                cells.insert("location".into(), serde_json::json!({"latitude": lat, "longitude": lon}));
            }
        }
        if let Some(id) = feature.get("id").filter(|_| !cells.contains_key("id")) {
            cells.insert("id".into(), id.clone());
        }
        add_columns(&mut headers, &cells);
        rows.push(Row { place: format!("{file}#/features/{i}"), line: 1, cells });
    }
    Ok((headers, rows))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spreadsheet_columns_are_named_as_people_read_them() {
        assert_eq!(column_name(0), "A");
        assert_eq!(column_name(25), "Z");
        assert_eq!(column_name(26), "AA");
        assert_eq!(column_name(701), "ZZ");
    }

    #[test]
    fn a_repeated_header_keeps_both_columns() {
        assert_eq!(unique(vec!["Phone".into(), "Name".into(), "Phone".into()]), ["Phone", "Name", "Phone (3)"]);
    }

    #[test]
    fn rows_are_on_their_lines_whatever_the_line_endings() {
        let dir = tempfile::tempdir().expect("temp");
        let path = dir.path().join("x.csv");
        for text in ["a,b\r\n1,2\r\n3,4\r\n", "a,b\n1,2\n\"3\n\",4\n5,6\n", "a,b\r\n1,2\r\n3,4\n"] {
            std::fs::write(&path, text).expect("write");
            let (_, rows) = read(&path, "x.csv", "csv").expect("rows");
            let lines: Vec<usize> = rows.iter().map(|r| r.line).collect();
            let expected: &[usize] = if text.contains("5,6") { &[2, 3, 5] } else { &[2, 3] };
            assert_eq!(lines, expected, "{text:?}");
        }
    }

    #[test]
    fn the_format_comes_from_the_extension() {
        assert_eq!(format_of("sources/Services.CSV"), Some("csv"));
        assert_eq!(format_of("x.ndjson"), Some("jsonl"));
        assert_eq!(format_of("x.txt"), None);
    }
}
