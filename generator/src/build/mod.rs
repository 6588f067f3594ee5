//! `portal build`: load the content, render every static endpoint, write `dist/` and its manifest.
//!
//! A build runs in steps, each timed (`timings.rs`): **load** the content ([`crate::load`]), keeping
//! each record's **card** (`model.rs`) while the record waits on a shelf; the **API documents** and
//! every other output that is not a page (`documents/`); the **search** indexes
//! (`documents/search.rs`); the **pages** (`pages/`, with the offline copies of `offline/`);
//! the **links** of the pages made relative; and the **write** (`write/`): each file goes into a
//! staging folder as it is made, the route index in shards, `_headers`, the nginx snippet and the
//! upload layout for the hosts (`hosting/`), then the staging folder takes the output folder's
//! place. A build into an earlier build is a rebuild (`rebuild/`): it makes again only what its changes
//! touch, with the same functions.
//!
//! | Entry | Holds |
//! |---|---|
//! | `mod.rs` | the steps of a clean build, and the choice between a clean build and a rebuild |
//! | `options.rs` | what a build is asked to do (`BuildOptions`) |
//! | `timings.rs` | the build time, and how long each step took with the memory it held |
//! | `warnings.rs` | the problems that do not stop a build (unless `--strict`) |
//! | `model.rs` | the cards: what a build keeps of each record and entry |
//! | `documents/` | every output that is not an HTML page: API documents, standards formats, discovery, search, static files |
//! | `pages/` | the HTML pages and their twins |
//! | `offline/` | the web app manifest, the service worker and what it precaches |
//! | `write/` | the output file, the sink and the staging folder, the spool, link rewriting, collisions, the manifest head, the route index |
//! | `hosting/` | `_headers`, the nginx snippet, the layout of a Worker deploy's upload |
//! | `rebuild/` | the build cache, and a rebuild from it |

pub(crate) mod documents;
pub mod hosting;
pub(crate) mod model;
pub(crate) mod offline;
mod options;
pub(crate) mod pages;
pub(crate) mod rebuild;
pub(crate) mod timings;
pub(crate) mod warnings;
pub(crate) mod write;

pub use self::options::BuildOptions;
pub(crate) use self::timings::{build_time, free_later, Steps};

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use portal_core::content::time::DateTime;
use portal_core::content::{ContentError, Record};
use portal_core::dist::manifest::{shard_count, Manifest};
use rayon::prelude::*;

use self::model::Model;
use self::write::sink::Outputs;
use crate::load::{self, Content, LoadError};
use crate::progress::Progress;

/// What a build did.
#[derive(Debug, Clone)]
pub struct BuildReport {
    /// Published records per collection.
    pub collections: Vec<(&'static str, usize)>,
    /// Published encyclopedia entries.
    pub entries: usize,
    /// What writing changed.
    pub write: write::file::WriteStats,
    /// Problems that did not stop the build.
    pub warnings: Vec<ContentError>,
    /// Wall time.
    pub elapsed: Duration,
    /// Whether the build reused the last one's work (a rebuild), or started clean.
    pub rebuilt: bool,
}

/// Why a build failed.
#[derive(Debug)]
pub enum BuildError {
    /// The content has problems (all listed).
    Content(Vec<ContentError>),
    /// Reading or writing failed.
    Io(anyhow::Error),
}

impl From<LoadError> for BuildError {
    fn from(e: LoadError) -> Self {
        match e {
            LoadError::Content(errors) => BuildError::Content(errors),
            LoadError::Io(e) => BuildError::Io(e),
        }
    }
}

impl From<anyhow::Error> for BuildError {
    /// A content error carried through an `anyhow` chain (a template at fault) stays a content
    /// error (exit 1, `file:line`); anything else is an I/O error.
    fn from(e: anyhow::Error) -> Self {
        match e.downcast::<ContentError>() {
            Ok(content) => BuildError::Content(vec![content]),
            Err(e) => BuildError::Io(e),
        }
    }
}

/// Everything a build makes: the bytes of its files are written as they are made (see
/// `write::sink`), and only what the manifest and the build cache need of them is held.
pub struct Rendered {
    /// What the content it was made from holds (the content itself is freed once its pages are
    /// made: nothing after needs the records' text, see docs/deploying.md).
    pub counted: Counted,
    /// The cards of its records and entries.
    pub model: Model,
    /// Every output file, sorted by file.
    pub files: Outputs,
    /// The manifest head of the files.
    pub manifest: Manifest,
    /// How many URLs the build serves (written as the shards of the route index).
    pub routes: usize,
    /// Problems that do not stop the build.
    pub warnings: Vec<ContentError>,
    /// The build time.
    pub generated_at: DateTime,
    /// Each collection's range in the flat search index.
    pub flat_ranges: documents::search::FlatRanges,
    /// The rows of the site's sources (see [`Content::source_rows`]).
    pub source_rows: Option<Vec<load::SourceRow>>,
}

/// How much a build's content held, and where it came from.
#[derive(Debug, Clone, Default)]
pub struct Counted {
    /// Published records.
    pub records: usize,
    /// Published encyclopedia entries.
    pub entries: usize,
    /// The content folder.
    pub root: PathBuf,
}

impl Counted {
    fn of(content: &Content) -> Self {
        Counted { records: content.record_count(), entries: content.entry_count(), root: content.root.clone() }
    }
}

/// Loads the content and renders every output, writing nothing: what `check` verifies, so `check`
/// finds every problem `build` would (URL collisions included). With `strict`, warnings are
/// errors.
pub fn render(options: &BuildOptions, progress: &Progress, strict: bool) -> Result<Rendered, BuildError> {
    render_into(options, progress, strict, None)
}

/// [`render`], each output written into `folder` as it is made (a clean build's staging folder).
pub fn render_into(
    options: &BuildOptions,
    progress: &Progress,
    strict: bool,
    folder: Option<PathBuf>,
) -> Result<Rendered, BuildError> {
    let mut steps = Steps::default();
    // `check` writes nothing of its own: its shelf goes to the system's temporary folder.
    let shelf = if folder.is_some() { options.cache_root() } else { std::env::temp_dir() };
    let (mut content, model) = steps.time("load", || load_shelved(options, &shelf, progress))?;
    let mut warnings = warnings::site_warnings(&content, &options.content, content.warnings.clone());
    warnings.extend(documents::cms::config::key_warnings(&content.site, &content.root, model.all()));
    warnings.sort();
    if strict {
        warnings::strict(&warnings)?;
    }
    let generated_at = build_time();
    let mut files = Outputs::new(folder)?.spooled_in(&shelf)?;
    steps.time("api", || documents::api::put(&content, &mut files))?;
    let (flat_ranges, indexed) = steps.time("search", || documents::search::put(&content, &model, &mut files))?;
    steps.time("encyclopedia", || documents::encyclopedia::put(&content, &model, &mut files))?;
    files.extend(documents::site_files(&content, &model, generated_at)?);
    files.extend(documents::theme_files(&content, options.templates.as_deref())?);
    steps.time("static", || -> Result<(), BuildError> {
        files.extend(documents::statics::files(&content.statics)?);
        Ok(())
    })?;
    let templates = options.templates.as_deref();
    // What is needed of the records once their pages are made is taken before: the pages take
    // the records and free their text a batch at a time.
    let (found, reserved) = pages::intro::candidates(&content)?;
    let intros = pages::intro::Intros::new(found).with_help(pages::intro::help_page(&content)?);
    let mut manifest = write::manifest::head(&content, &model, &intros, generated_at, 0);
    files.extend(steps.time("static search", || documents::search::find_files(indexed, &manifest))?);
    let counted = Counted::of(&content);
    steps.time("pages", || pages::files(&mut content, &model, intros, templates, generated_at, &mut files))?;
    write::collisions::check_outputs(&content.statics, reserved, files.made())?;
    let routes = files.made().iter().filter(|w| w.route().is_some()).count();
    manifest.route_shards = shard_count(routes);
    let base = content.site.base().to_string();
    let source_rows = std::mem::take(&mut content.source_rows);
    free_later(content);
    steps.time("links", || files.resolve_links(&base))?;
    let left_out = steps.time("offline", || offline::put(&manifest, templates, &mut files))?;
    warnings.extend(left_out);
    steps.time("manifest", || layout_files(&manifest, &mut files))?;
    files.finish()?;
    steps.report();
    Ok(Rendered { counted, model, files, manifest, routes, warnings, generated_at, flat_ranges, source_rows })
}

/// Loads the content of `options` with its records on a shelf in `dir` (see [`load::shelf`]), keeping
/// only their cards: what a clean build holds of each record while it runs.
fn load_shelved(options: &BuildOptions, dir: &Path, progress: &Progress) -> Result<(Content, Model), BuildError> {
    let shelf = load::shelf::Shelf::new(dir)?;
    let adjust = |content: &mut Content| {
        if let Some(base_url) = &options.base_url {
            content.site.base_url = base_url.clone();
        }
    };
    let shapes = model::SharedShapes::default();
    let keep =
        |content: &Content, record: Record| Ok((shapes.share(model::Card::of(&record, content)), shelf.put(&record)?));
    let (mut content, kept) = load::load_records(&options.content, progress, &options.reading(), adjust, keep)?;
    let mut model = Model::default();
    let mut places = BTreeMap::new();
    for (name, mut kept) in kept {
        kept.sort_by(|(a, _), (b, _)| a.api_order(b));
        let (cards, at): (Vec<_>, Vec<_>) = kept.into_iter().unzip();
        model.collections.insert(name, cards);
        places.insert(name, at);
    }
    let entries = std::mem::take(&mut content.entries);
    model.entries = entries.par_iter().map(|e| model::Card::of_entry(e, &content)).collect();
    let entries = entries.iter().map(|entry| shelf.put(entry)).collect::<anyhow::Result<_>>()?;
    content.shelved = Some(std::sync::Arc::new(load::shelf::Shelved { shelf, places, entries }));
    Ok((content, model))
}

/// `_headers` and the nginx snippet (over the files that may need rules of their own: not those of
/// records, see `Group::record_scale`), then the shards of the route index, made from every file
/// written.
fn layout_files(manifest: &Manifest, files: &mut Outputs) -> Result<(), BuildError> {
    let made = files.made();
    let own = made.iter().filter(|w| !w.group.record_scale()).filter_map(|w| Some((w.route()?.to_string(), w.asset())));
    let hosting = hosting::files(manifest, &own.collect());
    files.extend(hosting);
    write::routes::put(files, manifest.route_shards.max(1))?;
    Ok(())
}

/// Checks the content and everything the build would make, writing nothing (`portal check`).
pub fn check(options: &BuildOptions, progress: &Progress, strict: bool) -> Result<Rendered, BuildError> {
    render(options, progress, strict)
}

/// Runs a build: a rebuild when the output folder holds an earlier build whose state says what
/// can be kept (see `rebuild`), else a clean one. `strict` builds are always clean.
pub fn build(options: &BuildOptions, progress: &Progress, strict: bool) -> Result<BuildReport, BuildError> {
    let started = Instant::now();
    if !strict {
        let mut steps = Steps::default();
        let state = options.state_dir();
        let head = rebuild::state::head(&state).filter(|head| head.stamp == rebuild::state::stamp(&options.out));
        if let Some(head) = steps.time("state", || head) {
            steps.report();
            if let Some(report) = rebuild::run(options, head, started)? {
                return Ok(report);
            }
        }
    }
    clean(options, progress, strict, started)
}

/// Says that the build cache could not be kept: the build stands, and the next one is clean.
pub(crate) fn cache_warning(state: &Path, e: &anyhow::Error) {
    rebuild::state::forget(state);
    eprintln!(
        "portal: warning: could not keep the build cache in {} ({e:#}); the build is complete, the next one \
         will be a clean build (set --cache-dir to a writable folder)",
        state.display()
    );
}

/// A clean build, which leaves the state a rebuild starts from.
fn clean(
    options: &BuildOptions,
    progress: &Progress,
    strict: bool,
    started: Instant,
) -> Result<BuildReport, BuildError> {
    let mut steps = Steps::default();
    let sources = steps.time("scan", || rebuild::sources::scan(&options.content));
    let inputs = steps.time("inputs", || rebuild::inputs::hash(options))?;
    rebuild::state::forget(&options.state_dir());
    steps.report();
    write::file::guard_output_folder(&options.out)?;
    let staging = write::staging::Staging::new(&options.out)?;
    let mut rendered = render_into(options, progress, strict, Some(staging.path().to_path_buf()))?;
    let mut steps = Steps::default();
    let manifest = &rendered.manifest;
    let files = &mut rendered.files;
    let (write, upload) = steps.time("write", || write::file::write(staging, files, manifest, options.layout))?;
    let bytes = write.bytes;
    let state = options.state_dir();
    let rows = rendered.source_rows.take();
    let sources = sources.zip(rows).map(|(found, rows)| rebuild::sources::with_rows(found, rows));
    let kept =
        steps.time("state", || rebuild::save::clean(&state, &options.out, &rendered, sources, inputs, upload, bytes));
    if let Err(e) = kept {
        cache_warning(&state, &e);
    }
    steps.report();
    let report = BuildReport {
        collections: rendered.model.collections.iter().map(|(name, cards)| (*name, cards.len())).collect(),
        entries: rendered.model.entries.len(),
        write,
        warnings: std::mem::take(&mut rendered.warnings),
        elapsed: started.elapsed(),
        rebuilt: false,
    };
    free_later(rendered);
    Ok(report)
}
