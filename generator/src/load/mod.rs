//! Loading a content folder (docs/content.md#the-content-folder) into the core's model: site settings and the 19
//! collections, every file parsed in parallel, every problem collected as `file:line: message`.

pub mod data;
pub mod encyclopedia;
pub mod file;
pub mod front_matter;
pub mod i18n;
pub mod images;
pub mod read_ahead;
pub mod records;
pub mod shelf;
pub mod site;
pub mod skills;
pub mod slug;
pub mod sources;
pub mod spatial;
pub mod statics;
pub mod zone;

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use portal_core::content::collections::{nearest_collection, COLLECTIONS};
use portal_core::content::i18n::Strings;
use portal_core::content::{sort_records, ContentError, Entry, Record, SiteConfig};
use rayon::prelude::*;

use crate::progress::Progress;

/// Top-level folders with a meaning besides the collections (docs/content.md#the-content-folder).
pub const OTHER_FOLDERS: &[&str] =
    &["encyclopedia", "data", "spatial", "skills", i18n::FOLDER, statics::FOLDER, sources::FOLDER];

/// A loaded content folder: published records only, in API order (docs/spec/api-spec.md#record-order).
#[derive(Debug, Clone, Default)]
pub struct Content {
    /// `site.yaml`.
    pub site: SiteConfig,
    /// Every collection (missing folders are empty), published records in API order.
    pub collections: BTreeMap<&'static str, Vec<Record>>,
    /// Published encyclopedia entries, in title order.
    pub entries: Vec<Entry>,
    /// Agent skills, by name.
    pub skills: Vec<skills::Skill>,
    /// Dashboard datasets by name (alerts, population, finance, charts: the API's "snapshot"
    /// endpoints; in this code "snapshot" is only the offline archive of `portal snapshot`).
    pub datasets: BTreeMap<String, serde_json::Value>,
    /// The seasonal weather fallback (`data/weather-fallback.yaml`).
    pub weather_fallback: Option<serde_json::Value>,
    /// Every spatial feature of every register, `protocol` and `id` set.
    pub features: Vec<serde_json::Value>,
    /// The registers (files of `spatial/`) those features come from, in file order.
    pub registers: Vec<spatial::Register>,
    /// The interface text in the site's language (theme table, then `i18n/` overrides).
    pub strings: Strings,
    /// The files of `static/`, published as they are.
    pub statics: statics::StaticFiles,
    /// Whether drafts were kept (`portal serve --drafts`): they are marked as drafts on every page.
    pub drafts: bool,
    /// Problems that do not stop the build (a missing image, a missing `base_url`...), sorted.
    pub warnings: Vec<ContentError>,
    /// The content folder it came from.
    pub root: PathBuf,
    /// The records a build keeps on disk rather than in `collections` (see [`shelf`]).
    pub shelved: Option<std::sync::Arc<shelf::Shelved>>,
    /// Every row of the site's sources, drafts too: (its place, its collection, its digest), which
    /// the build cache keeps so that a rebuild reads again only the rows that changed. `None` when
    /// a source gave a warning (an old copy of a URL): then the next build is a clean one, which
    /// reports it again.
    pub source_rows: Option<Vec<SourceRow>>,
}

impl Content {
    /// The records of `collection` (empty for an unknown name).
    pub fn records(&self, collection: &str) -> &[Record] {
        self.collections.get(collection).map(Vec::as_slice).unwrap_or(&[])
    }

    /// Number of published records over all collections.
    pub fn record_count(&self) -> usize {
        let shelved = self.shelved.as_ref().map_or(0, |s| s.places.values().map(Vec::len).sum());
        self.collections.values().map(Vec::len).sum::<usize>() + shelved
    }

    /// Number of published encyclopedia entries.
    pub fn entry_count(&self) -> usize {
        self.entries.len() + self.shelved.as_ref().map_or(0, |s| s.entries.len())
    }

    /// Calls `each` with the encyclopedia's entries in title order, at most `size` at a time:
    /// those held, then those on the shelf.
    pub fn each_entry_batch(
        &self,
        size: usize,
        each: impl FnMut(&[Entry]) -> anyhow::Result<()>,
    ) -> anyhow::Result<()> {
        let shelved = self.shelved.as_deref().map(|s| (&s.shelf, s.entries.as_slice()));
        in_batches(&self.entries, shelved, size, each)
    }

    /// Calls `each` with the records of `collection` in API order, at most `size` at a time: those
    /// held, then those on the shelf, read back a batch at a time.
    pub fn each_batch(
        &self,
        collection: &str,
        size: usize,
        each: impl FnMut(&[Record]) -> anyhow::Result<()>,
    ) -> anyhow::Result<()> {
        let shelved = self.shelved.as_deref().map(|s| {
            let places = s.places.get(collection).map_or(&[][..], Vec::as_slice);
            (&s.shelf, places)
        });
        in_batches(self.records(collection), shelved, size, each)
    }
}

/// Calls `each` with `held`, then with what `shelved` places on its shelf, at most `size` at a time.
fn in_batches<T: serde::de::DeserializeOwned + Send>(
    held: &[T],
    shelved: Option<(&shelf::Shelf, &[shelf::Place])>,
    size: usize,
    mut each: impl FnMut(&[T]) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    for batch in held.chunks(size.max(1)) {
        each(batch)?;
    }
    let Some((shelf, places)) = shelved else { return Ok(()) };
    for places in places.chunks(size.max(1)) {
        each(&shelf.get_all(places)?)?;
    }
    Ok(())
}

/// Why loading failed: content problems (all of them) or an I/O error.
#[derive(Debug)]
pub enum LoadError {
    /// Problems in the content, every one found, sorted by file and line.
    Content(Vec<ContentError>),
    /// The folder could not be read at all.
    Io(anyhow::Error),
}

/// One record file parsed: its collection's index, its slug and what was kept of it (`None` for a
/// draft left out) or its errors, the file, warnings.
type Parsed<K> = (usize, Result<Option<(String, K)>, Vec<ContentError>>, String, Vec<ContentError>);

/// Loads and validates `root`. Reports every content error in one go.
pub fn load(root: &Path, progress: &Progress) -> Result<Content, LoadError> {
    load_with(root, progress, false)
}

/// Loads everything of `root` but its records and entries: the site's settings, interface text,
/// static files, skills, datasets and places (what a rebuild reads every time; it loads only the
/// record and entry files that changed, with [`load_files`]).
pub fn load_site(root: &Path, drafts: bool) -> Result<Content, LoadError> {
    if !root.is_dir() {
        return Err(LoadError::Io(anyhow::anyhow!("content folder {} does not exist", root.display())));
    }
    let mut errors = Vec::new();
    let site = site::load(root).map_err(|e| errors.push(e)).ok();
    let mut shared = Shared::load(root, site.as_ref(), &mut errors);
    if !errors.is_empty() {
        errors.sort();
        return Err(LoadError::Content(errors));
    }
    let site = site.unwrap_or_default();
    let mut warnings = spatial::rewind(root, &mut shared.features, &shared.registers);
    warnings.extend(spatial::swapped_places(root, &shared.features, &shared.registers));
    if site.markdown.unsafe_html {
        warnings.push(unsafe_html_warning(root));
    }
    let collections = COLLECTIONS.iter().map(|c| (*c, Vec::new())).collect();
    Ok(shared.into_content(root, site, collections, Vec::new(), drafts, warnings))
}

/// What the pages depend on besides the settings and the records (static files, skills, datasets,
/// places, interface text): loaded alike by a build ([`load_with`]) and a rebuild ([`load_site`]).
struct Shared {
    statics: statics::StaticFiles,
    skills: Vec<skills::Skill>,
    datasets: BTreeMap<String, serde_json::Value>,
    weather_fallback: Option<serde_json::Value>,
    features: Vec<serde_json::Value>,
    registers: Vec<spatial::Register>,
    strings: Strings,
}

impl Shared {
    fn load(root: &Path, site: Option<&SiteConfig>, errors: &mut Vec<ContentError>) -> Shared {
        let statics = statics::load(root, errors);
        let skills = skills::load(root, errors);
        let (datasets, weather_fallback) = data::load(root, errors);
        let (features, registers) = spatial::load(root, errors);
        let language = site.map_or("en", |s| s.language.as_str());
        let strings = i18n::load(root, language, errors);
        Shared { statics, skills, datasets, weather_fallback, features, registers, strings }
    }

    fn into_content(
        self,
        root: &Path,
        site: SiteConfig,
        collections: BTreeMap<&'static str, Vec<Record>>,
        entries: Vec<Entry>,
        drafts: bool,
        warnings: Vec<ContentError>,
    ) -> Content {
        let mut site = site;
        zone_names(&self.features, &mut site.labels);
        Content {
            site,
            collections,
            entries,
            skills: self.skills,
            datasets: self.datasets,
            weather_fallback: self.weather_fallback,
            features: self.features,
            registers: self.registers,
            strings: self.strings,
            statics: self.statics,
            drafts,
            warnings,
            root: root.to_path_buf(),
            shelved: None,
            source_rows: None,
        }
    }
}

/// Names the zones the places of `spatial/` are in from the zones' own features: a feature whose
/// id is another feature's `zone` (a zone drawn on the map) gives that zone its `name`, unless
/// site.yaml `labels` names it (docs/content.md#places-and-the-map).
fn zone_names(features: &[serde_json::Value], labels: &mut BTreeMap<String, String>) {
    let property = |feature: &serde_json::Value, key: &str| {
        feature.pointer(&format!("/properties/{key}")).and_then(serde_json::Value::as_str).map(str::to_string)
    };
    let zones: std::collections::BTreeSet<String> = features.iter().filter_map(|f| property(f, "zone")).collect();
    for feature in features {
        let id = feature
            .get("id")
            .and_then(serde_json::Value::as_str)
            .map(str::to_string)
            .or_else(|| property(feature, "id"));
        if let (Some(id), Some(name)) = (id.filter(|id| zones.contains(id)), property(feature, "name")) {
            labels.entry(id).or_insert(name);
        }
    }
}

/// A record or an entry.
#[derive(Debug, Clone)]
pub enum Loaded {
    /// A record of a collection.
    Record(Record),
    /// An encyclopedia entry.
    Entry(Entry),
}

/// One record or entry file, loaded on its own (see [`load_files`]).
#[derive(Debug, Clone)]
pub struct One {
    /// The file, as errors name it.
    pub file: String,
    /// What it holds; `None` for a draft (unpublished, unless drafts are shown).
    pub loaded: Option<Loaded>,
    /// The problems that do not stop the build.
    pub warnings: Vec<ContentError>,
}

/// Loads the record and entry files `files` (collection, path; `entries` for the encyclopedia)
/// of a site whose settings `site` holds, each on its own, bodies cleaned; every problem found.
/// Checks that need every file (a slug used twice, a `related` entry that does not exist) are
/// the caller's.
pub fn load_files(site: &Content, files: &[(&str, PathBuf)]) -> Result<Vec<One>, Vec<ContentError>> {
    let allow = &site.site.front_matter.allow;
    let sanitizer = crate::sanitize::Sanitizer::new(&site.site.markdown);
    let loaded: Vec<Result<One, Vec<ContentError>>> = files
        .par_iter()
        .map(|(collection, path)| {
            let mut warnings = Vec::new();
            let mut loaded = if *collection == portal_core::content::collections::ENCYCLOPEDIA {
                encyclopedia::load_one(&site.root, path, &site.statics, allow, &mut warnings).map(Loaded::Entry)?
            } else {
                let dir = site.root.join(collection);
                Loaded::Record(records::load_checked(
                    collection,
                    &dir,
                    path,
                    &site.statics,
                    allow,
                    Some(&site.site),
                    &mut warnings,
                )?)
            };
            let record = match &mut loaded {
                Loaded::Record(record) => record,
                Loaded::Entry(entry) => &mut entry.record,
            };
            sanitizer.clean_body(record);
            let draft = record.draft && !site.drafts;
            let warnings = if draft { Vec::new() } else { warnings };
            Ok(One { file: path.display().to_string(), loaded: (!draft).then_some(loaded), warnings })
        })
        .collect();
    let mut errors = Vec::new();
    let mut out = Vec::new();
    for result in loaded {
        match result {
            Ok(one) => out.push(one),
            Err(mut problems) => errors.append(&mut problems),
        }
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        errors.sort();
        Err(errors)
    }
}

/// The records of source rows as [`load_files`] gives those of files: bodies cleaned, drafts
/// left out unless kept.
pub fn load_rows(site: &Content, rows: impl IntoIterator<Item = Record>) -> Vec<One> {
    let sanitizer = crate::sanitize::Sanitizer::new(&site.site.markdown);
    let one = |mut record: Record| {
        sanitizer.clean_body(&mut record);
        let draft = record.draft && !site.drafts;
        One { file: record.file.clone(), loaded: (!draft).then_some(Loaded::Record(record)), warnings: Vec::new() }
    };
    rows.into_iter().map(one).collect()
}

/// [`load`], keeping drafts when `drafts` is set (for a private preview, never for publishing).
pub fn load_with(root: &Path, progress: &Progress, drafts: bool) -> Result<Content, LoadError> {
    let reading = Reading { drafts, ..Reading::default() };
    let (mut content, mut collections) = load_records(root, progress, &reading, |_| {}, |_, record| Ok(record))?;
    collections.par_iter_mut().for_each(|(_, records)| sort_records(records));
    content.collections = collections;
    Ok(content)
}

/// Loads `root` as [`load_with`] does, handing each record to `keep` as it is parsed and cleaned,
/// with the rest of the content (settings, entries, interface text) loaded and adjusted by
/// `adjust`: what `keep` makes of each record is kept instead of the record, per collection in
/// the order of the files (the caller sorts), so a big site's records need not be held together
/// (see [`shelf`]). `content.collections` is left with every collection, empty.
pub fn load_records<K: Send>(
    root: &Path,
    progress: &Progress,
    reading: &Reading,
    adjust: impl FnOnce(&mut Content),
    keep: impl Fn(&Content, Record) -> anyhow::Result<K> + Sync,
) -> Result<(Content, BTreeMap<&'static str, Vec<K>>), LoadError> {
    if !root.is_dir() {
        return Err(LoadError::Io(anyhow::anyhow!("content folder {} does not exist", root.display())));
    }
    let mut errors = Vec::new();
    let site = site::load(root).map_err(|e| errors.push(e)).ok();
    let files = collect_files(root, &mut errors).map_err(LoadError::Io)?;
    let mut shared = Shared::load(root, site.as_ref(), &mut errors);
    let drafts = reading.drafts;
    let mut warnings = spatial::rewind(root, &mut shared.features, &shared.registers);
    warnings.extend(spatial::swapped_places(root, &shared.features, &shared.registers));
    let allow: Vec<String> = site.as_ref().map_or_else(Vec::new, |s| s.front_matter.allow.clone());
    let entries = encyclopedia::load(root, drafts, &shared.statics, &allow, &mut errors, &mut warnings);
    let site_ok = site.is_some();
    let site = site.unwrap_or_default();
    let empty = COLLECTIONS.iter().map(|c| (*c, Vec::new())).collect();
    let mut content = shared.into_content(root, site, empty, entries, drafts, Vec::new());
    adjust(&mut content);
    let sanitizer = crate::sanitize::Sanitizer::new(&content.site.markdown);
    let bar = progress.bar("parsing", files.len() as u64);
    let site_for_records = site_ok.then_some(&content.site);
    let parse = |(collection, path): &(&'static str, PathBuf)| -> anyhow::Result<Parsed<K>> {
        let file = path.display().to_string();
        let mut found = Vec::new();
        let dir = root.join(collection);
        let loaded =
            records::load_checked(collection, &dir, path, &content.statics, &allow, site_for_records, &mut found);
        let index = COLLECTIONS.iter().position(|c| c == collection).unwrap_or(0);
        let result = match loaded {
            Ok(record) if record.draft && !drafts => Ok(None),
            Ok(mut record) => {
                sanitizer.clean_body(&mut record);
                let slug = record.slug.clone();
                Ok(Some((slug, keep(&content, record)?)))
            }
            Err(problems) => Err(problems),
        };
        bar.inc(1);
        Ok((index, result, file, found))
    };
    let parsed = read_ahead::try_par_map(&files, |(_, path)| path.as_path(), parse).map_err(LoadError::Io)?;
    bar.finish();
    let mut collections: BTreeMap<&'static str, Vec<K>> = COLLECTIONS.iter().map(|c| (*c, Vec::new())).collect();
    let mut seen: Taken = HashMap::new();
    for (index, result, file, found) in parsed {
        match result {
            Ok(None) => {}
            Ok(Some((slug, kept))) => {
                warnings.extend(found);
                if let Some(first) = seen.insert((index, slug.clone()), file.clone()) {
                    let line = records::key_line(Path::new(&file), "slug");
                    errors.push(ContentError::new(
                        &file,
                        line,
                        format!("duplicate slug `{slug}` in `{}`: {first} already uses it", COLLECTIONS[index]),
                    ));
                    continue;
                }
                collections.entry(COLLECTIONS[index]).or_default().push(kept);
            }
            Err(problems) => {
                warnings.extend(found);
                errors.extend(problems);
            }
        }
    }
    if site_ok {
        let taken = (&mut seen, &mut collections);
        content.source_rows = keep_sourced(&content, reading, &sanitizer, taken, &keep, (&mut errors, &mut warnings))?;
    }
    if !errors.is_empty() {
        errors.sort();
        return Err(LoadError::Content(errors));
    }
    clean_entries(root, &mut content, &mut warnings);
    warnings.sort();
    content.warnings = warnings;
    Ok((content, collections))
}

/// A row of a source as the build cache keeps it: its place, its collection, its digest.
pub type SourceRow = (String, &'static str, u128);

/// Slugs taken, by collection index and slug, with the file (or row) taking each.
type Taken = HashMap<(usize, String), String>;

/// Hands the records of the site's sources ([`sources`]) to `keep` into `collections`, as the
/// records of files are (drafts left out, a slug `taken` already an error), their errors and
/// warnings pushed into `problems`. Returns every row for the build cache, `None` after a warning
/// (see [`Content::source_rows`]).
fn keep_sourced<K>(
    content: &Content,
    reading: &Reading,
    sanitizer: &crate::sanitize::Sanitizer,
    (taken, collections): (&mut Taken, &mut BTreeMap<&'static str, Vec<K>>),
    keep: &(impl Fn(&Content, Record) -> anyhow::Result<K> + Sync),
    problems: (&mut Vec<ContentError>, &mut Vec<ContentError>),
) -> Result<Option<Vec<SourceRow>>, LoadError> {
    if content.site.sources.is_empty() {
        return Ok(Some(Vec::new()));
    }
    let mut rows = Vec::new();
    let mut duplicates = Vec::new();
    let clean = |record: &mut Record| sanitizer.clean_body(record);
    let read = sources::each(
        &content.root,
        &content.site,
        &reading.remote,
        &clean,
        &mut |sources::Sourced { collection, record, file, line, digest }| {
            rows.push((record.file.clone(), collection, digest));
            if record.draft && !reading.drafts {
                return Ok(());
            }
            let index = COLLECTIONS.iter().position(|c| *c == collection).unwrap_or(0);
            if let Some(first) = taken.insert((index, record.slug.clone()), record.file.clone()) {
                let message = format!("{}: duplicate slug `{}` in `{collection}`: {first} already uses it (set `id:` to a column that is unique)", record.file, record.slug);
                duplicates.push(ContentError::new(file, line, message));
                return Ok(());
            }
            collections.entry(collection).or_default().push(keep(content, record)?);
            Ok(())
        },
    )
    .map_err(LoadError::Io)?;
    problems.0.extend(read.errors.into_iter().chain(duplicates));
    let rows = read.warnings.is_empty().then_some(rows);
    problems.1.extend(read.warnings);
    Ok(rows)
}

/// How a content folder is read.
#[derive(Debug, Clone, Default)]
pub struct Reading {
    /// Whether drafts are kept (`portal serve --drafts`).
    pub drafts: bool,
    /// How sources at URLs are read.
    pub remote: sources::Remote,
}

/// Cleans the rendered body of every entry with the site's HTML policy ([`crate::sanitize`]; the
/// records' are cleaned as they are loaded); a site that turned the policy off hears about it at
/// every build.
fn clean_entries(root: &Path, content: &mut Content, warnings: &mut Vec<ContentError>) {
    if content.site.markdown.unsafe_html {
        warnings.push(unsafe_html_warning(root));
        return;
    }
    let sanitizer = crate::sanitize::Sanitizer::new(&content.site.markdown);
    content.entries.par_iter_mut().for_each(|entry| sanitizer.clean_body(&mut entry.record));
}

/// The warning of a site that publishes raw HTML as written.
fn unsafe_html_warning(root: &Path) -> ContentError {
    let file = root.join("site.yaml");
    let line = records::key_line(&file, "markdown");
    ContentError::new(
        file.display().to_string(),
        line,
        "`markdown.unsafe_html` is on: raw HTML in content (scripts included) is published as written",
    )
}

/// Lists every record file of every collection, checking the top-level folders on the way.
pub fn collect_files(root: &Path, errors: &mut Vec<ContentError>) -> anyhow::Result<Vec<(&'static str, PathBuf)>> {
    let mut files = Vec::new();
    let mut entries: Vec<_> = std::fs::read_dir(root)
        .map_err(|e| anyhow::anyhow!("cannot read content folder {}: {e}", root.display()))?
        .collect::<Result<_, _>>()?;
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') || !entry.file_type()?.is_dir() {
            continue;
        }
        if let Some(collection) = COLLECTIONS.iter().find(|c| **c == name) {
            for path in record_files(&entry.path(), errors)? {
                files.push((*collection, path));
            }
        } else if !OTHER_FOLDERS.contains(&name.as_str()) {
            let hint = nearest_collection(&name).map(|c| format!(" Did you mean `{c}`?")).unwrap_or_default();
            errors.push(ContentError::new(
                entry.path().display().to_string(),
                1,
                format!(
                    "unknown folder `{name}`: top-level folders are the 19 collections and {}.{hint}",
                    OTHER_FOLDERS.join(", ")
                ),
            ));
        }
    }
    Ok(files)
}

/// The record files below a collection folder, sorted (hidden files skipped); any other file is
/// an error naming it, since nothing would publish it.
fn record_files(dir: &Path, errors: &mut Vec<ContentError>) -> anyhow::Result<Vec<PathBuf>> {
    use records::Format;
    let mut out = Vec::new();
    let walker = walkdir::WalkDir::new(dir).sort_by_file_name().into_iter();
    for entry in walker.filter_entry(|e| e.depth() == 0 || !e.file_name().to_string_lossy().starts_with('.')) {
        let entry = entry.map_err(|e| anyhow::anyhow!("cannot read {}: {e}", dir.display()))?;
        if !entry.file_type().is_file() {
            continue;
        }
        match records::stray_file(entry.path(), &[Format::Markdown, Format::Yaml, Format::Json]) {
            None => out.push(entry.into_path()),
            Some(message) => errors.push(ContentError::new(entry.path().display().to_string(), 1, message)),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_zone_drawn_on_the_map_names_the_zone_unless_site_yaml_does() {
        let features: Vec<serde_json::Value> = vec![
            serde_json::json!({"id": "zone-c", "properties": {"name": "Kisoro side", "category": "zone"}}),
            serde_json::json!({"id": "well-1", "properties": {"name": "Well", "zone": "zone-c"}}),
            serde_json::json!({"id": "zone-a", "properties": {"name": "North", "zone": "zone-c"}}),
            serde_json::json!({"id": "school", "properties": {"name": "School", "zone": "zone-a"}}),
        ];
        let mut labels = BTreeMap::from([("zone-a".to_string(), "Zone A".to_string())]);
        zone_names(&features, &mut labels);
        assert_eq!(labels.get("zone-c").map(String::as_str), Some("Kisoro side"));
        assert_eq!(labels.get("zone-a").map(String::as_str), Some("Zone A"), "site.yaml's label stands");
        assert!(!labels.contains_key("well-1"), "a place that is no zone names nothing");
    }
}
