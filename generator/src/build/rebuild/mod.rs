//! Rebuilds (docs/deploying.md#rebuilds-and-the-build-cache): a build into a folder that holds an
//! earlier build redoes only what depends on what changed, and writes exactly what a clean build of
//! the same content would.
//!
//! A clean build leaves its state in the build cache, outside the output folder ([`state`]): the record and entry
//! files it read with their sizes and times ([`sources`]), the cards of every record (the model
//! every listing, tag page, feed and index is made from), and each group's table of outputs. A
//! rebuild hashes the inputs every page depends on ([`inputs`]); if any changed, the build is a
//! clean one. Otherwise it reads only the record and entry files whose size or time changed
//! ([`changes`]), updates the cards, makes again the groups they touch ([`groups`]) and what
//! depends on them ([`dirty`]), and writes what differs: files, route shards ([`routes`]), parts
//! and packs ([`layout`]). Anything a rebuild cannot settle on its own (a content error, a URL
//! two files claim, a site passing a threshold of its layout) it leaves to a clean build, which
//! reports or lays out everything as always.

pub mod changes;
mod commit;
pub mod dirty;
pub mod groups;
pub mod inputs;
pub mod layout;
pub mod routes;
pub mod save;
pub mod search;
pub mod sources;
pub mod state;
mod write;

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::time::Instant;

use portal_core::content::ContentError;

use self::changes::Changes;
use self::state::Head;
use super::model::{Card, Model};
use super::pages::navigation;
use super::{BuildError, BuildOptions, BuildReport, Steps};
use crate::build::write::file::Group;
use crate::load::{self, Content, Loaded};

/// Rebuilds into `options.out` from the state `head`; `None` when only a clean build will do.
pub fn run(options: &BuildOptions, head: Head, started: Instant) -> Result<Option<BuildReport>, BuildError> {
    let mut steps = Steps::default();
    if steps.time("inputs", || inputs::hash(options))? != head.inputs {
        return Ok(None);
    }
    let Some(found) = steps.time("scan", || sources::scan(&options.content)) else { return Ok(None) };
    let Ok(mut content) = steps.time("site", || load::load_site(&options.content, options.drafts)) else {
        return Ok(None);
    };
    let Some(rows) = steps.time("sources", || source_rows(options, &content)) else { return Ok(None) };
    let found = sources::with_rows(found, rows.values().map(|s| (s.record.file.clone(), s.collection, s.digest)));
    if let Some(base_url) = &options.base_url {
        content.site.base_url = base_url.clone();
    }
    let Some(mut model) = steps.time("cards", || changes::last_model(&options.state_dir())) else { return Ok(None) };
    let changes = Changes::between(&head, &found);
    let Some(loaded) = steps.time("load", || load_changed(&content, &rows, &changes.read)) else { return Ok(None) };
    let last_menu = navigation::main_menu(&content, &model);
    let old = changes::apply(&mut model, &changes, &loaded, &content);
    if !changes::holds(&model, &changes.collections()) || navigation::main_menu(&content, &model) != last_menu {
        return Ok(None);
    }
    let read: BTreeSet<String> = changes.read.iter().map(|(_, path)| path.display().to_string()).collect();
    if !dirty::intros_hold(&model, &old, &read) {
        return Ok(None);
    }
    let mut loaded_warnings: Vec<(String, Vec<ContentError>)> =
        loaded.iter().map(|one| (one.file.clone(), one.warnings.clone())).collect();
    let read_cards = model.all().filter(|card| read.contains(&card.file));
    for warning in crate::build::documents::cms::config::key_warnings(&content.site, &options.content, read_cards) {
        match loaded_warnings.iter_mut().find(|(file, _)| *file == warning.file) {
            Some((_, warnings)) => warnings.push(warning),
            None => loaded_warnings.push((warning.file.clone(), vec![warning])),
        }
    }
    let state = options.state_dir();
    let work =
        Work { options, state, head, content: Content::default(), model, old, read, found, rows, loaded_warnings };
    let mut dependents = dirty::dependents(&work.model, &work.old, &work.read);
    dependents.extend(dirty::intro_files(&work.model).into_iter().filter(|file| !work.read.contains(file)));
    let Some(mut records) = work.load_with(&content, &dependents) else { return Ok(None) };
    records.extend(loaded.into_iter().filter_map(|one| one.loaded));
    put_records(&mut content, records);
    let work = Work { content, ..work };
    write::finish(work, &changes, steps, started)
}

/// What a rebuild works from.
pub struct Work<'a> {
    /// The build's options.
    pub options: &'a BuildOptions,
    /// The state folder of the build cache (see `BuildOptions::state_dir`).
    pub state: PathBuf,
    /// The last build's state.
    pub head: Head,
    /// The site's settings, and the records and entries whose outputs are made again.
    pub content: Content,
    /// The cards now.
    pub model: Model,
    /// The cards replaced or removed, by file.
    pub old: BTreeMap<String, Card>,
    /// The files read again.
    pub read: BTreeSet<String>,
    /// Every record and entry file now.
    pub found: BTreeMap<String, sources::Found>,
    /// Every row of the site's sources now, by place.
    pub rows: BTreeMap<String, load::sources::Sourced>,
    /// The warnings of the files read again.
    pub loaded_warnings: Vec<(String, Vec<ContentError>)>,
}

impl Work<'_> {
    /// Loads the unchanged files `files` (whose pages are made again); `None` on a problem.
    pub fn load(&self, files: &BTreeSet<String>) -> Option<Vec<Loaded>> {
        self.load_with(&self.content, files)
    }

    fn load_with(&self, content: &Content, files: &BTreeSet<String>) -> Option<Vec<Loaded>> {
        let list: Vec<(&str, PathBuf)> =
            files.iter().filter_map(|file| self.found.get(file).map(|f| (f.collection, PathBuf::from(file)))).collect();
        let ones = load_changed(content, &self.rows, &list)?;
        Some(ones.into_iter().filter_map(|one| one.loaded).collect())
    }
}

/// The rows of the site's sources, by place; `None` when a source has a problem or a warning,
/// which a clean build reports.
fn source_rows(options: &BuildOptions, content: &Content) -> Option<BTreeMap<String, load::sources::Sourced>> {
    if content.site.sources.is_empty() {
        return Some(BTreeMap::new());
    }
    let read = load::sources::load(&options.content, &content.site, &options.reading().remote);
    if !read.errors.is_empty() || !read.warnings.is_empty() {
        return None;
    }
    Some(read.records.into_iter().map(|sourced| (sourced.record.file.clone(), sourced)).collect())
}

/// Loads the files and source rows of `list`; `None` on a problem.
fn load_changed(
    content: &Content,
    rows: &BTreeMap<String, load::sources::Sourced>,
    list: &[(&'static str, PathBuf)],
) -> Option<Vec<load::One>> {
    let (sourced, files): (Vec<_>, Vec<_>) =
        list.iter().cloned().partition(|(_, path)| rows.contains_key(path.to_string_lossy().as_ref()));
    let mut ones = load::load_files(content, &files).ok()?;
    let records = sourced.iter().filter_map(|(_, path)| rows.get(path.to_string_lossy().as_ref()));
    ones.extend(load::load_rows(content, records.map(|s| s.record.clone())));
    Some(ones)
}

/// Puts loaded records and entries into `content` (the ones whose outputs are made again).
fn put_records(content: &mut Content, loaded: Vec<Loaded>) {
    for one in loaded {
        match one {
            Loaded::Record(record) => {
                if let Group::Collection(name) = Group::collection(&record.collection) {
                    content.collections.entry(name).or_default().push(record);
                }
            }
            Loaded::Entry(entry) => content.entries.push(entry),
        }
    }
}
