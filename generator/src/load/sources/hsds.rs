//! `format: hsds` (docs/content.md#sources): the services of an Open Referral HSDS 3.0 directory
//! as `services` records, read from a datapackage (datapackage.json and the CSV tables it lists)
//! or from an HSDS API (its paged `/services`). Each service is first put together fully nested,
//! as the API's `/services/{id}` gives it, so both ways end in one mapping to front matter; the
//! service keeps its HSDS id as `hsds_id`, which `/api/hsds` publishes (docs/standards.md#hsds).

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Component, Path, PathBuf};

use portal_core::content::time::parse_content_date;
use portal_core::content::{ContentError, DataSource as Source};
use serde_json::{json, Map, Value};

use super::tables::{self, Row};
use super::{Columns, Problem, Sourced};

/// The format's name in `format:`.
pub const FORMAT: &str = "hsds";

/// The file a datapackage source names, or the file in the folder it names.
const DATAPACKAGE: &str = "datapackage.json";

/// A service put together, with where it was read.
struct Found {
    /// The file (or URL) errors name.
    file: String,
    /// Its row there, as errors name it (`services.csv:4`, a URL with a JSON pointer).
    place: String,
    /// Its line in `file` (1 where lines mean nothing).
    line: usize,
    /// The service, fully nested as HSDS 3.0 `service` has it.
    service: Value,
}

/// Whether `source` is an HSDS source.
pub fn is_hsds(source: &Source) -> bool {
    source.format.as_deref().is_some_and(|f| f.eq_ignore_ascii_case(FORMAT))
}

/// The records of an HSDS source of `collection`, the errors of its services, and which answers
/// of an API were old copies.
pub(super) fn load(
    root: &Path,
    collection: &'static str,
    source: &Source,
    remote: &super::Remote,
) -> Result<super::Found, Problem> {
    if !source.map.is_empty() || source.id.is_some() || source.body.is_some() {
        return Err(Problem::Entry(format!(
            "source `{}`: `format: hsds` maps HSDS fields itself; remove `map`, `id` and `body`",
            source.from
        )));
    }
    let (found, warnings) = if super::remote::is_url(&source.from) {
        api(root, &source.from, remote)?
    } else {
        (datapackage(root, &source.from)?, Vec::new())
    };
    if found.is_empty() {
        return Err(Problem::Entry(format!("source `{}`: the HSDS directory has no services", source.from)));
    }
    let plain = Source::default();
    let columns = Columns::new(&plain, &[]).map_err(Problem::Entry)?;
    let (mut slugs, mut ids) = (HashSet::new(), HashMap::new());
    let (mut records, mut errors) = (Vec::with_capacity(found.len()), Vec::new());
    for (n, Found { file, place, line, service }) in found.into_iter().enumerate() {
        let row = Row { place, line, cells: fields(&service, &mut slugs) };
        // One id, one service: `/api/hsds/services/{id}` could show only one of two.
        if let Some(id) = row.cells.get("hsds_id").and_then(Value::as_str) {
            if let Some(first) = ids.insert(id.to_string(), row.place.clone()) {
                let message = format!("{}: HSDS id `{id}` is the id of {first} too; ids must be unique", row.place);
                errors.push(ContentError::new(file, line, message));
                continue;
            }
        }
        match super::record(collection, &plain, &columns, (&file, &row), n + 1) {
            Ok(record) => {
                let digest = super::digest(&row, n + 1);
                records.push(Sourced { collection, record, file, line, digest });
            }
            Err(mut problems) => errors.append(&mut problems),
        }
    }
    Ok(super::Found { records, errors, warnings })
}

/// The datapackage.json a source names: the file itself or the one in the folder.
fn package_file(path: &Path) -> PathBuf {
    if path.is_dir() {
        path.join(DATAPACKAGE)
    } else {
        path.to_path_buf()
    }
}

fn read_json(path: &Path) -> Result<Value, String> {
    let text = crate::load::records::read_text(path).map_err(|e| e.message)?;
    serde_json::from_str(&text).map_err(|e| format!("not valid JSON at line {}: {e}", e.line()))
}

/// The tables a datapackage lists: resource name (in the singular, as HSDS names them) -> path
/// as written; only those a service is put together from (a `funding` or `metadata` table is
/// never read).
fn resources(package: &Value) -> BTreeMap<String, String> {
    let listed = package.get("resources").and_then(Value::as_array).into_iter().flatten();
    listed
        .filter_map(|r| Some((singular(r.get("name")?.as_str()?), r.get("path")?.as_str()?.to_string())))
        .filter(|(name, _)| name == "service" || KEYS.iter().any(|(table, _)| table == name))
        .collect()
}

/// A table's name as HSDS writes it: `services` and `service` are the `service` table,
/// `taxonomy_terms` the `taxonomy_term` table, `addresses` the `address` table.
fn singular(name: &str) -> String {
    let name = name.trim().to_ascii_lowercase();
    let known = KEYS.iter().map(|(table, _)| *table).chain(["service"]);
    for table in known {
        let plurals = [format!("{table}s"), format!("{table}es"), format!("{}ies", table.trim_end_matches('y'))];
        if name == table || plurals.contains(&name) {
            return table.to_string();
        }
    }
    name
}

/// `relative` inside `folder`, or `None` when it would lead out of it (or is a URL): a
/// datapackage reads only files beside it.
fn inside(folder: &Path, relative: &str) -> Option<PathBuf> {
    let path = Path::new(relative);
    let plain = path.components().all(|c| matches!(c, Component::Normal(_) | Component::CurDir));
    (plain && !relative.contains("://")).then(|| folder.join(path))
}

/// The joins that put a service together: a table and its column holding the id looked up.
const KEYS: &[(&str, &str)] = &[
    ("organization", "id"),
    ("phone", "service_id"),
    ("schedule", "service_id"),
    ("language", "service_id"),
    ("contact", "service_id"),
    ("service_at_location", "service_id"),
    ("location", "id"),
    ("address", "location_id"),
    ("attribute", "link_id"),
    ("taxonomy_term", "id"),
];

/// The tables of a datapackage, by resource name (HSDS names them in the singular), each as the
/// file it came from and its rows, with the rows of each [`KEYS`] join by value: a directory of
/// many thousand services is put together in one pass over each table.
struct Tables {
    rows: BTreeMap<String, (String, Vec<Row>)>,
    index: HashMap<(&'static str, &'static str), HashMap<String, Vec<usize>>>,
}

impl Tables {
    fn new(rows: BTreeMap<String, (String, Vec<Row>)>) -> Self {
        let mut index = HashMap::new();
        for &(table, column) in KEYS {
            let mut by: HashMap<String, Vec<usize>> = HashMap::new();
            for (i, row) in rows.get(table).map_or(&[][..], |(_, rows)| rows.as_slice()).iter().enumerate() {
                if let Some(value) = row.cells.get(column).and_then(Value::as_str) {
                    by.entry(value.to_string()).or_default().push(i);
                }
            }
            index.insert((table, column), by);
        }
        Tables { rows, index }
    }

    /// The rows of `table` whose `column` (one of [`KEYS`]) is `value`, as HSDS objects.
    fn matching(&self, table: &'static str, column: &'static str, value: &str) -> Vec<Value> {
        let Some((_, rows)) = self.rows.get(table) else { return Vec::new() };
        let found = self.index.get(&(table, column)).and_then(|by| by.get(value)).into_iter().flatten();
        found.filter_map(|i| rows.get(*i)).map(|row| Value::Object(row.cells.clone())).collect()
    }

    /// The first row of `table` with `id`.
    fn by_id(&self, table: &'static str, id: &str) -> Option<Value> {
        self.matching(table, "id", id).into_iter().next()
    }
}

/// The services of the datapackage at `from` (a datapackage.json, or the folder holding one).
fn datapackage(root: &Path, from: &str) -> Result<Vec<Found>, Problem> {
    let package = package_file(&root.join(from));
    let shown = package.display().to_string();
    if !package.is_file() {
        return Err(Problem::Entry(format!("source `{from}`: no HSDS datapackage at {shown}")));
    }
    let value = read_json(&package).map_err(|m| Problem::File(shown.clone(), m))?;
    let folder = package.parent().map(Path::to_path_buf).unwrap_or_default();
    let mut rows = BTreeMap::new();
    for (name, relative) in resources(&value) {
        let path = inside(&folder, &relative).ok_or_else(|| {
            Problem::File(shown.clone(), format!("table `{name}`: `{relative}` is not a file beside datapackage.json"))
        })?;
        let file = path.display().to_string();
        let format = tables::format_of(&relative).unwrap_or("csv");
        let (_, table) = tables::read(&path, &file, format).map_err(|m| Problem::File(file.clone(), m))?;
        rows.insert(name, (file, table));
    }
    let tables = Tables::new(rows);
    let Some((file, services)) = tables.rows.get("service") else {
        return Err(Problem::File(shown, "the datapackage lists no `service` table".into()));
    };
    Ok(services
        .iter()
        .map(|row| Found {
            file: file.clone(),
            place: row.place.clone(),
            line: row.line,
            service: nested(row, &tables),
        })
        .collect())
}

/// A service row with what the other tables say of it, nested as the HSDS API nests it.
fn nested(row: &Row, tables: &Tables) -> Value {
    let mut service = row.cells.clone();
    let id = text(&row.cells, "id").unwrap_or_default();
    let of_service = |name: &'static str| Value::Array(tables.matching(name, "service_id", &id));
    if let Some(organization) = text(&row.cells, "organization_id").and_then(|o| tables.by_id("organization", &o)) {
        service.insert("organization".into(), organization);
    }
    for (key, table) in
        [("phones", "phone"), ("schedules", "schedule"), ("languages", "language"), ("contacts", "contact")]
    {
        service.insert(key.into(), of_service(table));
    }
    let mut at_locations = tables.matching("service_at_location", "service_id", &id);
    for at in &mut at_locations {
        let location = at.get("location_id").and_then(Value::as_str).and_then(|l| tables.by_id("location", l));
        if let Some(mut location) = location {
            let addresses =
                tables.matching("address", "location_id", text_of(&location, "id").as_deref().unwrap_or(""));
            location["addresses"] = Value::Array(addresses);
            at["location"] = location;
        }
    }
    service.insert("service_at_locations".into(), Value::Array(at_locations));
    let mut attributes = tables.matching("attribute", "link_id", &id);
    for attribute in &mut attributes {
        let term =
            attribute.get("taxonomy_term_id").and_then(Value::as_str).and_then(|t| tables.by_id("taxonomy_term", t));
        if let Some(term) = term {
            attribute["taxonomy_term"] = term;
        }
    }
    service.insert("attributes".into(), Value::Array(attributes));
    Value::Object(service)
}

/// A trimmed, non-empty text (a number as written) of `key` in `map`.
fn text(map: &Map<String, Value>, key: &str) -> Option<String> {
    match map.get(key)? {
        Value::String(s) => Some(s.trim().to_string()).filter(|s| !s.is_empty()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// [`text`] of an object value.
fn text_of(value: &Value, key: &str) -> Option<String> {
    value.as_object().and_then(|map| text(map, key))
}

/// The objects of list `key` of `value`.
fn list<'a>(value: &'a Value, key: &str) -> impl Iterator<Item = &'a Value> {
    value.get(key).and_then(Value::as_array).into_iter().flatten().filter(|v| v.is_object())
}

/// HSDS text fields kept as front matter under the same name (shown as facts, searched).
const KEPT: &[&str] = &[
    "alternate_name",
    "eligibility_description",
    "fees_description",
    "application_process",
    "interpretation_services",
    "accreditations",
    "alert",
];

/// A service's front matter. `slugs` are those given so far: a name seen before gets its id's
/// first characters after it, so that two services of one name both have a page.
fn fields(service: &Value, slugs: &mut HashSet<String>) -> Map<String, Value> {
    let mut fields = Map::new();
    let mut put = |key: &str, value: Option<Value>| {
        if let Some(value) = value {
            fields.insert(key.to_string(), value);
        }
    };
    let id = text_of(service, "id");
    let name = text_of(service, "name");
    put("title", name.clone().map(Value::String));
    put("slug", Some(Value::String(slug(name.as_deref(), id.as_deref(), slugs))));
    put("hsds_id", id.map(Value::String));
    put("summary", text_of(service, "description").map(Value::String));
    let contact_email = list(service, "contacts").find_map(|c| text_of(c, "email"));
    put("email", text_of(service, "email").or(contact_email).map(Value::String));
    put("website", text_of(service, "url").map(Value::String));
    put("phone", phones(service));
    put("hours", hours(service));
    put("languages", strings(list(service, "languages").filter_map(|l| text_of(l, "code"))));
    put("location", location(service));
    put("organization", organization(service));
    let terms: Vec<String> =
        list(service, "attributes").filter_map(|a| a.get("taxonomy_term")).filter_map(|t| text_of(t, "name")).collect();
    put("category", terms.first().cloned().map(Value::String));
    put("tags", strings(terms.into_iter()));
    let modified = text_of(service, "last_modified").filter(|m| parse_content_date(m).is_ok());
    put("updated", modified.map(Value::String));
    // A service no longer offered is not published (HSDS `status`: inactive, defunct).
    let status = text_of(service, "status").unwrap_or_default();
    put("draft", matches!(status.as_str(), "inactive" | "defunct").then_some(Value::Bool(true)));
    for key in KEPT {
        put(key, text_of(service, key).map(Value::String));
    }
    fields
}

/// A list of the distinct strings of `items`, `None` when there are none.
fn strings(items: impl Iterator<Item = String>) -> Option<Value> {
    let mut seen: Vec<String> = Vec::new();
    for item in items {
        if !seen.contains(&item) {
            seen.push(item);
        }
    }
    (!seen.is_empty()).then(|| json!(seen))
}

/// The slug of a service named `name` with HSDS id `id`, not among `taken` (which it joins).
fn slug(name: Option<&str>, id: Option<&str>, taken: &mut HashSet<String>) -> String {
    use crate::load::slug::ascii_slug;
    let by_id = ascii_slug(id.unwrap_or_default());
    let short: String = by_id.chars().filter(|c| *c != '-').take(8).collect();
    let mut slug = ascii_slug(name.unwrap_or_default());
    if slug.is_empty() {
        slug = by_id;
    } else if taken.contains(&slug) && !short.is_empty() {
        slug = format!("{slug}-{short}");
    }
    taken.insert(slug.clone());
    slug
}

/// The phone numbers (one: a string; more: a list). Exports often keep a number's quotes.
fn phones(service: &Value) -> Option<Value> {
    let numbers = list(service, "phones")
        .filter_map(|p| text_of(p, "number"))
        .map(|n| n.trim_matches(|c| c == '"' || c == '\'').trim().to_string())
        .filter(|n| !n.is_empty());
    match strings(numbers)? {
        Value::Array(mut one) if one.len() == 1 => one.pop(),
        many => Some(many),
    }
}

/// The schedules as `hours` text: a weekly one as days and times (`Thu, Fri 10:00-18:00`,
/// which `/api/hsds` reads back), any other by its description.
fn hours(service: &Value) -> Option<Value> {
    let parts: Vec<String> = list(service, "schedules").filter_map(schedule_text).collect();
    (!parts.is_empty()).then(|| Value::String(parts.join("; ")))
}

fn schedule_text(schedule: &Value) -> Option<String> {
    const DAYS: [(&str, &str); 7] =
        [("MO", "Mon"), ("TU", "Tue"), ("WE", "Wed"), ("TH", "Thu"), ("FR", "Fri"), ("SA", "Sat"), ("SU", "Sun")];
    let clock = |key: &str| text_of(schedule, key).and_then(|t| t.get(..5).map(str::to_string));
    let weekly = text_of(schedule, "freq").is_none_or(|f| f.eq_ignore_ascii_case("WEEKLY"));
    let days: Vec<&str> = text_of(schedule, "byday")
        .unwrap_or_default()
        .split(',')
        .filter_map(|d| DAYS.iter().find(|(code, _)| d.trim().eq_ignore_ascii_case(code)).map(|(_, day)| *day))
        .collect();
    match (clock("opens_at"), clock("closes_at")) {
        (Some(opens), Some(closes)) if weekly && !days.is_empty() => {
            Some(format!("{} {opens}-{closes}", days.join(", ")))
        }
        _ => text_of(schedule, "description"),
    }
}

/// The first location the service is at: its name, coordinates (when on Earth) and address.
fn location(service: &Value) -> Option<Value> {
    let location = list(service, "service_at_locations").find_map(|at| at.get("location").filter(|l| l.is_object()))?;
    let mut place = Map::new();
    if let Some(name) = text_of(location, "name") {
        place.insert("name".into(), json!(name));
    }
    let coordinate = |key: &str, limit: f64| {
        text_of(location, key).and_then(|t| t.parse::<f64>().ok()).filter(|n| n.is_finite() && n.abs() <= limit)
    };
    if let (Some(latitude), Some(longitude)) = (coordinate("latitude", 90.0), coordinate("longitude", 180.0)) {
        place.insert("latitude".into(), json!(latitude));
        place.insert("longitude".into(), json!(longitude));
    }
    let address = list(location, "addresses").next().map(|a| {
        let parts = ["address_1", "address_2", "city", "state_province", "postal_code", "country"];
        parts.iter().filter_map(|key| text_of(a, key)).collect::<Vec<_>>().join(", ")
    });
    if let Some(address) = address.filter(|a| !a.is_empty()) {
        place.insert("address".into(), json!(address));
    }
    (!place.is_empty()).then_some(Value::Object(place))
}

/// Who provides the service: its organization's name, website, e-mail, description and HSDS id.
fn organization(service: &Value) -> Option<Value> {
    let organization = service.get("organization")?;
    let name = text_of(organization, "name")?;
    let mut out = json!({"name": name});
    for (key, from) in [("url", "website"), ("email", "email"), ("description", "description"), ("hsds_id", "id")] {
        if let Some(value) = text_of(organization, from) {
            out[key] = json!(value);
        }
    }
    Some(out)
}

/// The services of the HSDS API at `base`, fully nested: every page of `/services`, then each
/// service the list does not nest fully. Each answer goes through the build cache like any
/// source at a URL ([`super::remote`]); the warnings say which answers were old copies.
fn api(root: &Path, base: &str, remote: &super::Remote) -> Result<(Vec<Found>, Vec<String>), Problem> {
    let base = base.trim_end_matches('/');
    let base = base.strip_suffix("/services").unwrap_or(base);
    let mut warnings = Vec::new();
    let mut get = |url: &str| -> Result<Value, Problem> {
        let copy = remote.copy(root, url).map_err(|message| Problem::File(url.to_string(), message))?;
        warnings.extend(copy.warning);
        let bytes = std::fs::read(&copy.path).map_err(|e| Problem::File(url.to_string(), e.to_string()))?;
        serde_json::from_slice(&bytes).map_err(|e| Problem::File(url.to_string(), format!("did not answer JSON: {e}")))
    };
    let mut found = Vec::new();
    for page in 1..=MAX_PAGES {
        let url = format!("{base}/services?page={page}&full=true");
        let body = get(&url)?;
        let contents = body.get("contents").and_then(Value::as_array).ok_or_else(|| {
            Problem::File(url.clone(), "not an HSDS page of services (no `contents` list)".to_string())
        })?;
        for (i, item) in contents.iter().enumerate() {
            let place = format!("{url}#/contents/{i}");
            let service = if is_full(item) { item.clone() } else { detail(&mut get, base, item, &place)? };
            found.push(Found { file: url.clone(), place, line: 1, service });
        }
        let total = body.get("total_pages").and_then(Value::as_u64).unwrap_or(1);
        let last = body.get("last_page").and_then(Value::as_bool).unwrap_or(false);
        if last || contents.is_empty() || page >= total {
            break;
        }
    }
    Ok((found, warnings))
}

/// The most pages read (a server that never says its last page stops here).
const MAX_PAGES: u64 = 100_000;

/// What a path segment escapes: all but RFC 3986's unreserved characters.
const SEGMENT: &percent_encoding::AsciiSet =
    &percent_encoding::NON_ALPHANUMERIC.remove(b'-').remove(b'.').remove(b'_').remove(b'~');

/// Whether a listed service is already nested (a server that honours `full=true`).
fn is_full(item: &Value) -> bool {
    ["phones", "schedules", "service_at_locations", "attributes"].iter().any(|key| item.get(key).is_some())
}

/// `/services/{id}` of a listed service.
fn detail(
    get: &mut impl FnMut(&str) -> Result<Value, Problem>,
    base: &str,
    item: &Value,
    place: &str,
) -> Result<Value, Problem> {
    let Some(id) = item.get("id").and_then(Value::as_str).filter(|id| !id.is_empty()) else {
        return Err(Problem::File(place.to_string(), "a listed service has no `id`".into()));
    };
    let id = percent_encoding::utf8_percent_encode(id, SEGMENT);
    let service = get(&format!("{base}/services/{id}"))?;
    Ok(if service.is_object() { service } else { item.clone() })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_weekly_schedule_reads_as_hours_and_another_by_its_words() {
        let weekly = json!({"freq": "WEEKLY", "byday": "TH,FR", "opens_at": "10:00:00", "closes_at": "18:00:00"});
        assert_eq!(schedule_text(&weekly).as_deref(), Some("Thu, Fri 10:00-18:00"));
        let monthly = json!({"freq": "MONTHLY", "byday": "1MO", "opens_at": "10:00", "closes_at": "12:00",
            "description": "First Monday of the month"});
        assert_eq!(schedule_text(&monthly).as_deref(), Some("First Monday of the month"));
    }

    #[test]
    fn two_services_of_one_name_get_two_slugs() {
        let mut taken = HashSet::new();
        let a = slug(Some("Food Pantry"), Some("ac148810-d857"), &mut taken);
        let b = slug(Some("Food Pantry"), Some("bd259921-e968"), &mut taken);
        let c = slug(None, Some("CE36"), &mut taken);
        assert_eq!((a.as_str(), b.as_str(), c.as_str()), ("food-pantry", "food-pantry-bd259921", "ce36"));
    }

    #[test]
    fn tables_are_found_by_their_singular_or_plural_names() {
        let names = ["services", "Addresses", "taxonomy_terms", "service_at_location", "funding"];
        let found: Vec<String> = names.iter().map(|n| singular(n)).collect();
        assert_eq!(found, ["service", "address", "taxonomy_term", "service_at_location", "funding"]);
    }

    #[test]
    fn only_the_tables_a_service_is_made_of_are_read() {
        let package = json!({"resources": [{"name": "services", "path": "s.csv"}, {"name": "funding", "path": "f.csv"},
            {"name": "phone", "path": "p.csv"}, {"path": "nameless.csv"}]});
        let names: Vec<String> = resources(&package).into_keys().collect();
        assert_eq!(names, ["phone", "service"]);
    }

    #[test]
    fn a_datapackage_reads_only_files_beside_it() {
        let folder = Path::new("/site/sources/hsds");
        assert_eq!(inside(folder, "services.csv"), Some(folder.join("services.csv")));
        assert_eq!(inside(folder, "../../site.yaml"), None);
        assert_eq!(inside(folder, "/etc/passwd"), None);
        assert_eq!(inside(folder, "https://example.org/services.csv"), None);
    }

    #[test]
    fn coordinates_off_the_earth_are_left_out_and_the_address_is_one_line() {
        let service = json!({"service_at_locations": [{"location": {"name": "Civic Center", "latitude": "100",
            "longitude": "101", "addresses": [{"address_1": "1-30 Main Street", "city": "MyCity"}]}}]});
        assert_eq!(location(&service), Some(json!({"name": "Civic Center", "address": "1-30 Main Street, MyCity"})));
    }
}
