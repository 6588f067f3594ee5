//! `sources:` in site.yaml: records read from a table or an export (CSV, TSV, a spreadsheet, JSON,
//! JSON Lines, GeoJSON) rather than written one file each (docs/content.md#sources). Each row
//! becomes front matter (the mapped columns under their fields, every other column under its
//! snake_case name) and goes through the same validation as a record file, so a source's records
//! are records like any other. Errors name the row: `file:line`, `file Sheet!A5` or a JSON pointer.

pub mod hsds;
pub mod tables;

use std::path::{Path, PathBuf};

use portal_core::content::collections::COLLECTIONS;
use portal_core::content::did_you_mean::near_miss;
use portal_core::content::{ContentError, DataSource as Source, Issue, Record, SiteConfig};
use serde_json::{Map, Value};

use tables::Row;

/// Fields whose text a table holds as one cell and records as a list: split at commas and
/// semicolons.
const LIST_FIELDS: &[&str] = &["tags", "categories", "languages"];

/// A record read from a source, with where its row is.
#[derive(Debug)]
pub struct Sourced {
    /// Its collection.
    pub collection: &'static str,
    /// The record (its `file` is the row's place).
    pub record: Record,
    /// The source file, as errors name it.
    pub file: String,
    /// The row's line in it (1 where lines mean nothing).
    pub line: usize,
}

/// The folder conventionally holding source files (nothing in it is published as it is).
pub const FOLDER: &str = "sources";

/// The files the sources of `site` read, relative to `root` (a rebuild reads them again when one
/// changes).
pub fn files(root: &Path, site: &SiteConfig) -> Vec<PathBuf> {
    site.sources
        .iter()
        .flat_map(
            |source| if hsds::is_hsds(source) { hsds::files(root, source) } else { vec![root.join(&source.from)] },
        )
        .collect()
}

/// Every record of every source of `site` (content folder `root`; `site_file` and `site_text` are
/// site.yaml's, for errors about a source entry), with the errors of every row.
pub fn load(root: &Path, site: &SiteConfig, site_file: &str, site_text: &str) -> (Vec<Sourced>, Vec<ContentError>) {
    let mut records = Vec::new();
    let mut errors = Vec::new();
    for source in &site.sources {
        let at = |message: String| ContentError::new(site_file, entry_line(site_text, &source.from), message);
        match one(root, source) {
            Ok((mut found, mut problems)) => {
                records.append(&mut found);
                errors.append(&mut problems);
            }
            Err(Problem::Entry(message)) => errors.push(at(message)),
            Err(Problem::File(file, message)) => errors.push(ContentError::new(file, 1, message)),
        }
    }
    (records, errors)
}

/// What stops a whole source.
enum Problem {
    /// The entry in site.yaml is wrong.
    Entry(String),
    /// The file cannot be read as its format.
    File(String, String),
}

/// The records of one source, and the errors of its rows.
fn one(root: &Path, source: &Source) -> Result<(Vec<Sourced>, Vec<ContentError>), Problem> {
    let collection = COLLECTIONS.iter().copied().find(|c| *c == source.collection).ok_or_else(|| {
        let hint = near_miss(&source.collection, COLLECTIONS.iter().copied())
            .map(|c| format!(": did you mean `{c}`?"))
            .unwrap_or_else(|| format!(" (collections: {})", COLLECTIONS.join(", ")));
        Problem::Entry(format!("source `{}`: unknown collection `{}`{hint}", source.from, source.collection))
    })?;
    if hsds::is_hsds(source) {
        return hsds::load(root, collection, source);
    }
    if source.from.starts_with("http://") || source.from.starts_with("https://") {
        return Err(Problem::Entry(format!(
            "source `{}`: sources are read from files in the content folder; download it there and name the file",
            source.from
        )));
    }
    let format = match &source.format {
        Some(format) => format.to_ascii_lowercase(),
        None => tables::format_of(&source.from).map(str::to_string).ok_or_else(|| {
            Problem::Entry(format!(
                "source `{}`: cannot tell its format from the name; set `format:` ({})",
                source.from,
                tables::FORMATS.join(", ")
            ))
        })?,
    };
    let path = root.join(&source.from);
    let file = path.display().to_string();
    if !path.is_file() {
        return Err(Problem::Entry(format!("source `{}`: no such file in the content folder ({file})", source.from)));
    }
    let (headers, rows) =
        tables::read(&path, &file, &format).map_err(|message| Problem::File(file.clone(), message))?;
    let columns = Columns::new(source, &headers).map_err(Problem::Entry)?;
    let mut records = Vec::with_capacity(rows.len());
    let mut errors = Vec::new();
    for (n, row) in rows.iter().enumerate() {
        match record(collection, source, &columns, (&file, row), n + 1) {
            Ok(record) => records.push(Sourced { collection, record, file: file.clone(), line: row.line }),
            Err(mut problems) => errors.append(&mut problems),
        }
    }
    Ok((records, errors))
}

/// The columns a source's settings name, checked against its header.
struct Columns<'a> {
    /// Every column named by `map`, `id` or `body`: the others are kept under their own names.
    used: Vec<&'a str>,
}

impl<'a> Columns<'a> {
    fn new(source: &'a Source, headers: &[String]) -> Result<Self, String> {
        let named = source
            .map
            .iter()
            .map(|(field, column)| (format!("map.{field}"), column.as_str()))
            .chain(source.id.as_deref().map(|c| ("id".to_string(), c)))
            .chain(source.body.as_deref().map(|c| ("body".to_string(), c)));
        let mut used = Vec::new();
        for (setting, column) in named {
            let column = column.trim();
            if !headers.iter().any(|h| h == column) {
                let lowered: Vec<String> = headers.iter().map(|h| h.to_lowercase()).collect();
                let hint = near_miss(&column.to_lowercase(), lowered.iter().map(String::as_str))
                    .and_then(|near| headers.iter().find(|h| h.to_lowercase() == near))
                    .map(|h| format!("did you mean `{h}`?"))
                    .unwrap_or_else(|| format!("its columns are: {}", headers.join(", ")));
                return Err(format!(
                    "source `{}`: `{setting}` names column `{column}`, which it has not; {hint}",
                    source.from
                ));
            }
            used.push(column);
        }
        Ok(Columns { used })
    }
}

/// The record of one row of `file` (`number`, counted from 1, names it when nothing else does).
fn record(
    collection: &str,
    source: &Source,
    columns: &Columns<'_>,
    (file, row): (&str, &Row),
    number: usize,
) -> Result<Record, Vec<ContentError>> {
    let mut fields = Map::new();
    for (field, column) in &source.map {
        if let Some(value) = row.cells.get(column.trim()) {
            insert(&mut fields, field, as_field(field, value));
        }
    }
    for (column, value) in &row.cells {
        let key = snake_case(column);
        if !columns.used.contains(&column.as_str()) && !key.is_empty() && !fields.contains_key(&key) {
            fields.insert(key.clone(), as_field(&key, value));
        }
    }
    let cell = |column: &Option<String>| column.as_deref().and_then(|c| row.cells.get(c.trim())).map(cell_text);
    let body = cell(&source.body).filter(|b| !b.trim().is_empty());
    let title = fields.get("title").and_then(Value::as_str).unwrap_or_default();
    let slug = cell(&source.id)
        .map(|id| crate::load::slug::ascii_slug(&id))
        .unwrap_or_else(|| crate::load::slug::ascii_slug(title));
    let slug = if slug.is_empty() { format!("row-{number}") } else { slug };
    let mut record =
        Record::from_fields(collection, &slug, fields, body).map_err(|issues| located(source, file, row, issues))?;
    record.file = row.place.clone();
    if let Some(body) = &record.body {
        record.html = Some(crate::markdown::to_html(body));
    }
    Ok(record)
}

/// The errors of a row's issues (a row of `file`): its place, and the column a field was read
/// from.
fn located(source: &Source, file: &str, row: &Row, issues: Vec<Issue>) -> Vec<ContentError> {
    issues
        .into_iter()
        .map(|Issue { key, message }| {
            let column =
                key.as_deref().and_then(|k| source.map.get(k)).map(|c| format!(" (column `{c}`)")).unwrap_or_default();
            ContentError::new(file, row.line, format!("{}{column}: {message}", row.place))
        })
        .collect()
}

/// A cell as text (numbers and booleans as written).
fn cell_text(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// A cell as the value of `field`: a list for the fields that hold one, else as it is.
fn as_field(field: &str, value: &Value) -> Value {
    match value {
        Value::String(text) if LIST_FIELDS.contains(&field) => Value::Array(
            text.split([',', ';']).map(str::trim).filter(|t| !t.is_empty()).map(|t| Value::String(t.into())).collect(),
        ),
        other => other.clone(),
    }
}

/// Inserts `value` at `field`, a dotted path (`contact.phone`) making nested mappings.
fn insert(fields: &mut Map<String, Value>, field: &str, value: Value) {
    match field.split_once('.') {
        None => {
            fields.insert(field.to_string(), value);
        }
        Some((head, rest)) => {
            let inner = fields.entry(head.to_string()).or_insert_with(|| Value::Object(Map::new()));
            if !inner.is_object() {
                *inner = Value::Object(Map::new());
            }
            if let Value::Object(inner) = inner {
                insert(inner, rest, value);
            }
        }
    }
}

/// A column name as a front-matter key: lower case, runs of anything but letters and digits one
/// `_` (`Organization Name` -> `organization_name`, `group/phone` -> `group_phone`); a leading `_`
/// is kept (`_uuid`: hidden from pages, as front matter starting with `_` is).
fn snake_case(column: &str) -> String {
    let mut out = String::with_capacity(column.len());
    if column.starts_with('_') {
        out.push('_');
    }
    for c in column.chars() {
        if c.is_alphanumeric() {
            out.extend(c.to_lowercase());
        } else if !out.is_empty() && !out.ends_with('_') {
            out.push('_');
        }
    }
    out.trim_end_matches('_').to_string()
}

/// The line of site.yaml that names source `from` (1 when not found).
fn entry_line(site_text: &str, from: &str) -> usize {
    site_text.lines().position(|line| line.contains("from:") && line.contains(from)).map_or(1, |i| i + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn column_names_become_front_matter_keys() {
        assert_eq!(snake_case("Organization Name"), "organization_name");
        assert_eq!(snake_case("  Phone number (main) "), "phone_number_main");
        assert_eq!(snake_case("group_contact/phone"), "group_contact_phone");
        assert_eq!(snake_case("_uuid"), "_uuid");
        assert_eq!(snake_case("Année"), "année");
        assert_eq!(snake_case("---"), "");
    }

    #[test]
    fn dotted_fields_nest_and_lists_split() {
        let mut fields = Map::new();
        insert(&mut fields, "contact.phone", Value::String("+256 700".into()));
        insert(&mut fields, "contact.email", Value::String("a@b.org".into()));
        assert_eq!(fields["contact"], serde_json::json!({"phone": "+256 700", "email": "a@b.org"}));
        assert_eq!(as_field("tags", &Value::String("water; health, ".into())), serde_json::json!(["water", "health"]));
        assert_eq!(as_field("title", &Value::String("a, b".into())), serde_json::json!("a, b"));
    }
}
