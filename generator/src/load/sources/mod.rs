//! `sources:` in site.yaml: records read from a table or an export (CSV, TSV, a spreadsheet, JSON,
//! JSON Lines, GeoJSON) rather than written one file each (docs/content.md#sources). Each row
//! becomes front matter (the mapped columns under their fields, every other column under its
//! snake_case name) and goes through the same validation as a record file, so a source's records
//! are records like any other. Errors name the row: `file:line`, `file Sheet!A5` or a JSON pointer.

pub mod hsds;
pub mod remote;
pub mod tables;

use std::path::Path;

use portal_core::content::collections::COLLECTIONS;
use portal_core::content::did_you_mean::near_miss;
use portal_core::content::{ContentError, DataSource as Source, Issue, Record, SiteConfig};
use rayon::prelude::*;
use serde_json::{Map, Value};

pub use remote::Remote;
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
    /// A digest of the row (its cells and place): a rebuild makes again only the records whose
    /// rows changed (docs/deploying.md#rebuilds-and-the-build-cache).
    pub digest: u128,
}

/// What reading a site's sources gave.
#[derive(Debug, Default)]
pub struct Read {
    /// Every row's record.
    pub records: Vec<Sourced>,
    /// Problems with rows, files or entries: the build stops.
    pub errors: Vec<ContentError>,
    /// Problems that do not stop it: an old copy of a URL used, a source without rows.
    pub warnings: Vec<ContentError>,
}

/// The folder conventionally holding source files (nothing in it is published as it is).
pub const FOLDER: &str = "sources";

/// Every record of every source of `site` (content folder `root`), with the errors of every row.
pub fn load(root: &Path, site: &SiteConfig, remote: &Remote) -> Read {
    let mut records = Vec::new();
    let mut read = each(root, site, remote, &|_| {}, &mut |sourced| {
        records.push(sourced);
        Ok(())
    })
    .unwrap_or_default();
    read.records = records;
    read
}

/// What makes a source's record ready, on any thread (cleans its HTML).
pub type Clean<'a> = dyn Fn(&mut Record) + Sync + 'a;

/// What takes each record of a source as it is made.
pub type Keep<'a> = dyn FnMut(Sourced) -> anyhow::Result<()> + 'a;

/// Hands every record of every source of `site` to `keep` as it is made, a batch of rows at a
/// time (made, then passed through `clean`, in parallel), so a big source's records need not be
/// held together; returns the errors and warnings (`records` left empty), those about an entry
/// on its line of `root`'s site.yaml. Stops at `keep`'s first error.
pub fn each(
    root: &Path,
    site: &SiteConfig,
    remote: &Remote,
    clean: &Clean<'_>,
    keep: &mut Keep<'_>,
) -> anyhow::Result<Read> {
    let mut read = Read::default();
    let site_file = root.join("site.yaml");
    // Read only when an entry has something to say (most builds: never).
    let site_text = std::cell::OnceCell::new();
    for source in &site.sources {
        let at = |message: String| {
            let text = site_text.get_or_init(|| std::fs::read_to_string(&site_file).unwrap_or_default());
            ContentError::new(site_file.display().to_string(), entry_line(text, &source.from), message)
        };
        match one(root, source, remote, (clean, keep)) {
            Ok(Ok(found)) => {
                if found.rows == 0 && found.errors.is_empty() {
                    read.warnings
                        .push(at(format!("source `{}` has no rows: its collection gets nothing from it", source.from)));
                }
                read.warnings.extend(found.warnings.into_iter().map(at));
                read.errors.extend(found.errors);
            }
            Ok(Err(Problem::Entry(message))) => read.errors.push(at(message)),
            Ok(Err(Problem::File(file, message))) => read.errors.push(ContentError::new(file, 1, message)),
            Err(kept) => return Err(kept),
        }
    }
    Ok(read)
}

/// How the places of the rows of `site`'s sources begin: each source's file as the content folder
/// `root` names it, or its URL. A card whose file begins so is a row, which the CMS does not edit.
pub fn places(root: &Path, site: &SiteConfig) -> Vec<String> {
    let place =
        |from: &str| if remote::is_url(from) { from.to_string() } else { root.join(from).display().to_string() };
    site.sources.iter().map(|source| place(&source.from)).collect()
}

/// Whether `file` (a card's) is the place of a row of a source beginning with one of `places`.
pub fn is_row(file: &str, places: &[String]) -> bool {
    places.iter().any(|place| file.len() > place.len() && file.starts_with(place.as_str()))
}

/// What stops a whole source.
enum Problem {
    /// The entry in site.yaml is wrong.
    Entry(String),
    /// The file cannot be read as its format.
    File(String, String),
}

/// One source's records, the errors of its rows and why its copy may be old.
#[derive(Debug, Default)]
struct Found {
    records: Vec<Sourced>,
    errors: Vec<ContentError>,
    warnings: Vec<String>,
}

/// The records of one source, and the errors of its rows.
fn one(
    root: &Path,
    source: &Source,
    remote: &Remote,
    (clean, keep): (&Clean<'_>, &mut Keep<'_>),
) -> anyhow::Result<Result<Made, Problem>> {
    let mut made = Made::default();
    if hsds::is_hsds(source) {
        let found = match collection_of(source).and_then(|c| hsds::load(root, c, source, remote)) {
            Ok(found) => found,
            Err(problem) => return Ok(Err(problem)),
        };
        made.rows = found.records.len();
        for mut sourced in found.records {
            clean(&mut sourced.record);
            keep(sourced)?;
        }
        return Ok(Ok(Made { errors: found.errors, warnings: found.warnings, ..made }));
    }
    let table = match open(root, source, remote) {
        Ok(table) => table,
        Err(problem) => return Ok(Err(problem)),
    };
    let columns = match Columns::new(source, &table.headers) {
        Ok(columns) => columns,
        Err(message) => return Ok(Err(Problem::Entry(message))),
    };
    made.warnings.extend(table.warning.clone());
    made.rows = table.rows.len();
    for (batch, rows) in table.rows.chunks(BATCH).enumerate() {
        let results: Vec<(usize, Result<Record, Vec<ContentError>>)> = rows
            .par_iter()
            .enumerate()
            .map(|(i, row)| {
                let n = batch * BATCH + i + 1;
                let mut made = record(table.collection, source, &columns, (&table.file, row), n);
                if let Ok(record) = made.as_mut() {
                    clean(record);
                }
                (n, made)
            })
            .collect();
        for ((n, result), row) in results.into_iter().zip(rows) {
            match result {
                Ok(record) => keep(Sourced {
                    collection: table.collection,
                    record,
                    file: table.file.clone(),
                    line: row.line,
                    digest: digest(row, n),
                })?,
                Err(problems) => made.errors.extend(problems),
            }
        }
    }
    Ok(Ok(made))
}

/// How many rows are made into records at a time (in parallel): enough to keep both cores busy,
/// few enough that a big source's records are never held together.
const BATCH: usize = 1024;

/// What making one source's records gave, besides the records.
#[derive(Debug, Default)]
struct Made {
    rows: usize,
    errors: Vec<ContentError>,
    warnings: Vec<String>,
}

/// The rows of `source` as record files would hold them (for `portal import`): each row's front
/// matter, body and slug, checked as a record of its collection, with the row's place; or the
/// errors of the rows that are not records. `root` is the folder `source.from` is relative to.
pub fn fronts(root: &Path, source: &Source, remote: &Remote) -> Result<Vec<(String, Front)>, Vec<ContentError>> {
    let whole = |problem: Problem| match problem {
        Problem::Entry(message) => vec![ContentError::new(&source.from, 1, message)],
        Problem::File(file, message) => vec![ContentError::new(file, 1, message)],
    };
    let table = open(root, source, remote).map_err(whole)?;
    let columns = Columns::new(source, &table.headers).map_err(|m| whole(Problem::Entry(m)))?;
    let (mut fronts, mut errors) = (Vec::new(), Vec::new());
    for (n, row) in table.rows.iter().enumerate() {
        let front = front_matter(source, &columns, row, n + 1);
        let checked = Record::from_fields(table.collection, &front.slug, front.fields.clone(), front.body.clone());
        match checked {
            Ok(_) => fronts.push((row.place.clone(), front)),
            Err(issues) => errors.extend(located(source, &table.file, row, issues)),
        }
    }
    if errors.is_empty() {
        Ok(fronts)
    } else {
        Err(errors)
    }
}

/// A source's rows as read, before they are records.
pub struct Table {
    /// The collection its records belong to.
    pub collection: &'static str,
    /// The source as errors name it: its file, or its URL.
    pub file: String,
    /// The columns, in order.
    pub headers: Vec<String>,
    /// The rows.
    pub rows: Vec<Row>,
    /// Why the rows may be old (a URL read from the build cache).
    pub warning: Option<String>,
}

/// Reads the rows of `source` (a file of the content folder `root`, or a URL through `remote`).
fn open(root: &Path, source: &Source, remote: &Remote) -> Result<Table, Problem> {
    let collection = collection_of(source)?;
    let url = remote::is_url(&source.from);
    let named = if url { remote::file_part(&source.from) } else { source.from.as_str() };
    let format = match &source.format {
        Some(format) => format.to_ascii_lowercase(),
        None => tables::format_of(named).map(str::to_string).ok_or_else(|| {
            Problem::Entry(format!(
                "source `{}`: cannot tell its format from the name; set `format:` ({})",
                source.from,
                tables::FORMATS.join(", ")
            ))
        })?,
    };
    let (path, file, warning) = if url {
        let copy = remote.copy(root, &source.from).map_err(Problem::Entry)?;
        (copy.path, source.from.clone(), copy.warning)
    } else {
        let path = root.join(&source.from);
        let file = path.display().to_string();
        if !path.is_file() {
            return Err(Problem::Entry(format!(
                "source `{}`: no such file in the content folder ({file})",
                source.from
            )));
        }
        (path, file, None)
    };
    let (headers, rows) =
        tables::read(&path, &file, &format).map_err(|message| Problem::File(file.clone(), message))?;
    Ok(Table { collection, file, headers, rows, warning })
}

/// The collection `source` names.
fn collection_of(source: &Source) -> Result<&'static str, Problem> {
    COLLECTIONS.iter().copied().find(|c| *c == source.collection).ok_or_else(|| {
        let hint = near_miss(&source.collection, COLLECTIONS.iter().copied())
            .map(|c| format!(": did you mean `{c}`?"))
            .unwrap_or_else(|| format!(" (collections: {})", COLLECTIONS.join(", ")));
        Problem::Entry(format!("source `{}`: unknown collection `{}`{hint}", source.from, source.collection))
    })
}

/// The digest of row `number` (counted from 1): its place, its number and its cells.
pub(crate) fn digest(row: &Row, number: usize) -> u128 {
    use sha2::{Digest, Sha256};
    let mut hasher = Sha256::new();
    hasher.update(row.place.as_bytes());
    hasher.update(number.to_le_bytes());
    hasher.update(serde_json::to_vec(&row.cells).unwrap_or_default());
    let bytes = hasher.finalize();
    let mut first = [0u8; 16];
    first.copy_from_slice(&bytes[..16]);
    u128::from_le_bytes(first)
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
    let Front { fields, body, slug } = front_matter(source, columns, row, number);
    let mut record =
        Record::from_fields(collection, &slug, fields, body).map_err(|issues| located(source, file, row, issues))?;
    record.file = row.place.clone();
    if let Some(body) = &record.body {
        record.html = Some(crate::markdown::to_html(body));
    }
    Ok(record)
}

/// A row as a record file would hold it: front matter, body and slug.
pub struct Front {
    /// The front matter.
    pub fields: Map<String, Value>,
    /// The markdown body.
    pub body: Option<String>,
    /// The slug: from the `id` column, else the title, else the row's number.
    pub slug: String,
}

/// The front matter of a row: the mapped columns under their fields, every other column under
/// its own name ([`key_of`]), and a point from `_geolocation` as the `location`.
fn front_matter(source: &Source, columns: &Columns<'_>, row: &Row, number: usize) -> Front {
    let mut fields = Map::new();
    for (field, column) in &source.map {
        if let Some(value) = row.cells.get(column.trim()) {
            insert(&mut fields, field, as_field(field, value));
        }
    }
    for (column, value) in &row.cells {
        if columns.used.contains(&column.as_str()) {
            continue;
        }
        let key = key_of(column, &fields);
        if !key.is_empty() {
            fields.insert(key.clone(), as_field(&key, value));
        }
    }
    if let (None, Some(point)) = (fields.get("location"), row.cells.get(GEOLOCATION).and_then(point_of)) {
        fields.insert("location".into(), point);
    }
    let cell = |column: &Option<String>| column.as_deref().and_then(|c| row.cells.get(c.trim())).map(cell_text);
    let body = cell(&source.body).filter(|b| !b.trim().is_empty());
    let title = fields.get("title").and_then(Value::as_str).unwrap_or_default();
    let slug = cell(&source.id)
        .map(|id| crate::load::slug::ascii_slug(&id))
        .unwrap_or_else(|| crate::load::slug::ascii_slug(title));
    let slug = if slug.is_empty() { format!("row-{number}") } else { slug };
    Front { fields, body, slug }
}

/// The column KoboToolbox and ODK exports give a submission's point in: `[lat, lon]`, or text
/// `lat,lon` / `lat lon alt acc`.
const GEOLOCATION: &str = "_geolocation";

/// Form groups whose fields are about the submission, not its subject (ODK's `meta`, Kobo's
/// `formhub`): kept hidden, as keys starting with `_` are.
const HIDDEN_GROUPS: &[&str] = &["meta", "formhub"];

/// The front-matter key of an unmapped column not yet in `fields`: its snake_case name, and for
/// a form export's `group/field` the field's own name when no other column took it
/// (`contact/phone` -> `phone`); hidden (`_`) for a metadata group. Empty: keep nothing.
fn key_of(column: &str, fields: &Map<String, Value>) -> String {
    let full = snake_case(column);
    let Some((group, field)) = column.rsplit_once('/') else {
        return if fields.contains_key(&full) { String::new() } else { full };
    };
    let group_name = group.split('/').next().unwrap_or(group).trim().to_ascii_lowercase();
    let short = snake_case(field);
    let key = if HIDDEN_GROUPS.contains(&group_name.as_str()) && !short.is_empty() {
        format!("_{}", short.trim_start_matches('_'))
    } else {
        short
    };
    [key, full].into_iter().find(|k| !k.is_empty() && !fields.contains_key(k)).unwrap_or_default()
}

/// A `location` from a `_geolocation` cell, when it holds a latitude and a longitude in range.
fn point_of(value: &Value) -> Option<Value> {
    let numbers: Vec<f64> = match value {
        Value::Array(items) => items.iter().filter_map(Value::as_f64).collect(),
        Value::String(text) => {
            text.split([',', ' ', ';']).filter(|t| !t.is_empty()).map_while(|t| t.trim().parse().ok()).collect()
        }
        _ => return None,
    };
    match numbers.as_slice() {
        [lat, lon, ..] if lat.abs() <= 90.0 && lon.abs() <= 180.0 => {
            Some(serde_json::json!({"latitude": lat, "longitude": lon}))
        }
        _ => None,
    }
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
    fn form_groups_give_their_fields_names_and_metadata_stays_hidden() {
        let mut fields = Map::new();
        assert_eq!(key_of("group_ab12/Phone", &fields), "phone");
        fields.insert("phone".into(), Value::Null);
        assert_eq!(key_of("other_group/Phone", &fields), "other_group_phone");
        assert_eq!(key_of("meta/instanceID", &fields), "_instanceid");
        assert_eq!(key_of("formhub/uuid", &fields), "_uuid");
        assert_eq!(key_of("phone", &fields), "");
    }

    #[test]
    fn a_geolocation_cell_is_a_point_in_range() {
        let point = |v: Value| point_of(&v).map(|p| (p["latitude"].as_f64(), p["longitude"].as_f64()));
        assert_eq!(point(serde_json::json!([0.35, 32.58])), Some((Some(0.35), Some(32.58))));
        assert_eq!(point(Value::String("0.35 32.58 1200 5".into())), Some((Some(0.35), Some(32.58))));
        assert_eq!(point(Value::String("-0.6,30.6".into())), Some((Some(-0.6), Some(30.6))));
        assert_eq!(point(Value::String("200,30".into())), None);
        assert_eq!(point(Value::String("n/a".into())), None);
        assert_eq!(point(serde_json::json!([null, null])), None);
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
