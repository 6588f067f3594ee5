//! `portal build`: load the content, render every static endpoint, write `dist/` and its manifest.
//!
//! A sequence of named steps; each later issue adds its renderer as one more step.

pub mod model;
pub mod offline;
pub mod pages;
pub mod rebuild;

pub mod documents;

pub mod write;

pub mod hosting;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use portal_core::content::time::DateTime;
use portal_core::content::{ContentError, Record};
use portal_core::dist::manifest::{shard_count, shard_file, shard_of, Manifest, Routes, MANIFEST_FORMAT};
use rayon::prelude::*;

use self::model::Model;
use crate::build::write::file::{Group, OutFile};
use crate::build::write::sink::{Outputs, Written};
use crate::load::{self, Content, LoadError};
use crate::progress::Progress;

/// Where to read and write.
#[derive(Debug, Clone)]
pub struct BuildOptions {
    /// The content folder.
    pub content: PathBuf,
    /// A folder of templates overriding the built-in theme.
    pub templates: Option<PathBuf>,
    /// The output folder.
    pub out: PathBuf,
    /// Overrides `base_url` of `site.yaml`.
    pub base_url: Option<String>,
    /// Keeps drafts, marked as such (a private preview: `portal serve --drafts`).
    pub drafts: bool,
    /// How a Worker deploy of the output is laid out: files over the size limit in parts, small
    /// files in packs past a number of files (see [`upload`]).
    pub layout: hosting::upload::Layout,
    /// The build cache (`--cache-dir`); `None`: `.portal/cache/` beside the content folder (see
    /// [`BuildOptions::state_dir`]).
    pub cache_dir: Option<PathBuf>,
    /// Reads sources at URLs from the build cache only (`--offline`).
    pub offline: bool,
}

impl BuildOptions {
    /// The build cache's folder: `--cache-dir`, else `.portal/cache/` beside the content folder,
    /// like the state folder of `portal serve`. Never inside the output folder, which holds only
    /// what may be published: the cache keeps every record's card, drafts included.
    pub fn cache_root(&self) -> PathBuf {
        self.cache_dir.clone().unwrap_or_else(|| load::sources::remote::cache_beside(&self.content))
    }

    /// How the content is read: drafts or not, and sources at URLs through the build cache.
    pub fn reading(&self) -> load::Reading {
        let remote = load::sources::Remote {
            cache: Some(load::sources::remote::copies_in(&self.cache_root())),
            offline: self.offline,
        };
        load::Reading { drafts: self.drafts, remote }
    }

    /// The state a build into `out` keeps for the next one: a folder of the cache named by a
    /// hash of the output folder's absolute path, so builds of one content folder into several
    /// output folders keep apart.
    pub fn state_dir(&self) -> PathBuf {
        use sha2::{Digest, Sha256};
        let out = std::path::absolute(&self.out).unwrap_or_else(|_| self.out.clone());
        let digest = Sha256::digest(out.as_os_str().as_encoded_bytes());
        let name: String = digest.iter().take(8).map(|b| format!("{b:02x}")).collect();
        self.cache_root().join(name)
    }
}

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

/// The build time: `SOURCE_DATE_EPOCH` when set (reproducible builds), else now.
pub fn build_time() -> DateTime {
    let from_env = std::env::var("SOURCE_DATE_EPOCH").ok().and_then(|v| v.trim().parse::<i64>().ok());
    let now = || std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs() as i64);
    DateTime::from_unix(from_env.unwrap_or_else(now))
}

/// How long each step of a build took, the memory the process held after it and the most it held
/// during it, printed to stderr when `PORTAL_TIMINGS` is set (for profiling builds; see
/// BENCHMARKS.md).
#[derive(Debug, Default)]
pub(crate) struct Steps(Vec<(&'static str, Duration, Option<Resident>)>);

impl Steps {
    pub(crate) fn time<T>(&mut self, name: &'static str, step: impl FnOnce() -> T) -> T {
        let timed = std::env::var_os("PORTAL_TIMINGS").is_some();
        if timed {
            Resident::reset_peak();
        }
        let started = Instant::now();
        let result = step();
        let resident = timed.then(Resident::now).flatten();
        self.0.push((name, started.elapsed(), resident));
        result
    }

    pub(crate) fn report(&self) {
        if std::env::var_os("PORTAL_TIMINGS").is_some() {
            let parts: Vec<String> = self
                .0
                .iter()
                .map(|(name, d, resident)| match resident {
                    Some(r) => format!("{name} {} ms ({} MiB, peak {} MiB)", d.as_millis(), r.now, r.peak),
                    None => format!("{name} {} ms", d.as_millis()),
                })
                .collect();
            eprintln!("portal: timings: {}", parts.join(", "));
            if let Some(peak) = self.0.iter().filter_map(|(_, _, r)| r.map(|r| r.peak)).max() {
                eprintln!("portal: timings: peak of these steps {peak} MiB");
            }
        }
    }
}

/// The memory the process holds (its resident set), where the system says (Linux).
#[derive(Debug, Clone, Copy)]
struct Resident {
    /// Now, in MiB.
    now: u64,
    /// The most since the last [`Resident::reset_peak`] (or the start), in MiB.
    peak: u64,
}

impl Resident {
    fn now() -> Option<Self> {
        let status = std::fs::read_to_string("/proc/self/status").ok()?;
        let mib = |key: &str| -> Option<u64> {
            let line = status.lines().find(|line| line.starts_with(key))?;
            Some(line.split_whitespace().nth(1)?.parse::<u64>().ok()? / 1024)
        };
        Some(Resident { now: mib("VmRSS:")?, peak: mib("VmHWM:")? })
    }

    /// Starts the peak over from the memory held now (Linux's `clear_refs`; elsewhere the peak
    /// is the process's). This also resets what `getrusage` and `/usr/bin/time` report as the
    /// process's peak, so a timed build prints the largest of its steps' peaks at its end.
    fn reset_peak() {
        let _ = std::fs::write("/proc/self/clear_refs", "5");
    }
}

/// Frees `value` on a thread of its own: freeing a big site's outputs and model takes a while, and
/// nothing needs to wait for it (a command exits, a server goes on serving).
pub(crate) fn free_later<T: Send + 'static>(value: T) {
    std::thread::spawn(move || drop(value));
}

/// Everything a build makes: the bytes of its files are written as they are made (see
/// [`write::sink`]), and only what the manifest and the build cache need of them is held.
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
    let mut warnings = site_warnings(&content, &options.content, content.warnings.clone());
    warnings.extend(documents::cms::config::key_warnings(&content.site, &content.root, model.all()));
    warnings.sort();
    if strict && !warnings.is_empty() {
        return Err(BuildError::Content(
            warnings
                .into_iter()
                .map(|w| ContentError::new(w.file, w.line, format!("{} (--strict)", w.message)))
                .collect(),
        ));
    }
    let generated_at = build_time();
    let mut files = Outputs::new(folder)?.spooled_in(&shelf)?;
    steps.time("api", || documents::api::put(&content, &mut files))?;
    let (flat_ranges, indexed) = steps.time("search", || documents::search::put(&content, &model, &mut files))?;
    steps.time("encyclopedia", || documents::encyclopedia::put(&content, &model, &mut files))?;
    files.extend(site_files(&content, &model, generated_at)?);
    files.extend(theme_files(&content, options.templates.as_deref())?);
    steps.time("static", || -> Result<(), BuildError> {
        files.extend(documents::statics::files(&content.statics)?);
        Ok(())
    })?;
    let templates = options.templates.as_deref();
    // What is needed of the records once their pages are made is taken before: the pages take
    // the records and free their text a batch at a time.
    let (found, reserved) = pages::intro::candidates(&content)?;
    let intros = pages::intro::Intros::new(found).with_help(pages::intro::help_page(&content)?);
    let mut manifest = manifest_head(&content, &model, &intros, generated_at, 0);
    files.extend(steps.time("static search", || documents::search::find_files(indexed, &manifest))?);
    let counted = Counted::of(&content);
    steps.time("pages", || pages::files(&mut content, &model, intros, templates, generated_at, &mut files))?;
    check_outputs(&content.statics, reserved, files.made())?;
    let routes = files.made().iter().filter(|w| w.route.is_some()).count();
    manifest.route_shards = shard_count(routes);
    let base = content.site.base().to_string();
    let source_rows = std::mem::take(&mut content.source_rows);
    free_later(content);
    steps.time("links", || files.resolve_links(&base))?;
    let left_out = steps.time("offline", || offline_files(&manifest, templates, &mut files))?;
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

/// The problems of the outputs as a whole: static files that clash with built files, URLs two
/// outputs claim, pages at paths no page may take.
fn check_outputs(
    statics: &load::statics::StaticFiles,
    reserved: Vec<ContentError>,
    made: &[Written],
) -> Result<(), BuildError> {
    documents::statics::check_clashes(made, statics)?;
    // A page at a path no page may take says so, rather than that it collides with what is there
    // (`reserved`: the content pages at such paths).
    let mut collisions = reserved;
    collisions.extend(write::collisions::check(made.iter().filter(|w| w.group != Group::Statics)));
    if !collisions.is_empty() {
        collisions.sort_by(|a, b| (&a.file, a.line).cmp(&(&b.file, b.line)));
        collisions.dedup_by(|a, b| a.file == b.file && a.line == b.line);
        return Err(BuildError::Content(collisions));
    }
    Ok(())
}

/// The files of the site as a whole, not pages, that show its records or the build time: the
/// status, llms.txt, the feed and the datasets (whose `updatedAt` defaults to the build time).
pub fn site_files(content: &Content, model: &Model, generated_at: DateTime) -> Result<Vec<OutFile>, BuildError> {
    let mut files = documents::discovery::site_files(content, model, generated_at)?;
    files.push(documents::feed::file(content, model, generated_at)?);
    files.extend(documents::data::files(content, generated_at)?);
    files.extend(documents::cms::files(content, model)?);
    Ok(files.into_iter().map(|f| f.in_group(Group::Site)).collect())
}

/// The files of the site as a whole, not pages, made of its settings alone: discovery documents,
/// places and the mail templates of the actions.
pub fn theme_files(content: &Content, templates: Option<&std::path::Path>) -> Result<Vec<OutFile>, BuildError> {
    let mut files = documents::discovery::theme_files(content)?;
    files.extend(documents::spatial::files(content)?);
    files.extend(documents::ogc::files(content)?);
    files.extend(documents::actions::files(templates)?);
    Ok(files.into_iter().map(|f| f.in_group(Group::Theme)).collect())
}

/// The warnings of a build: those of `loaded` and those about the site's settings.
pub fn site_warnings(content: &Content, root: &std::path::Path, loaded: Vec<ContentError>) -> Vec<ContentError> {
    let mut warnings = loaded;
    warnings.extend(pages::map::warnings(content));
    if content.site.base_url.trim().is_empty() {
        warnings.push(missing_base_url(root));
    } else if content.site.base() == crate::init::EXAMPLE_BASE_URL {
        warnings.push(example_base_url(root));
    }
    warnings.sort();
    warnings
}

/// The manifest head of a build of `routes` URLs.
pub fn manifest_head(
    content: &Content,
    model: &Model,
    intros: &pages::intro::Intros,
    generated_at: DateTime,
    routes: usize,
) -> Manifest {
    Manifest {
        format: MANIFEST_FORMAT,
        generated_at: generated_at.rfc3339(),
        site: content.site.clone(),
        strings: content.strings.clone(),
        navigation: pages::navigation::main_menu(content, model),
        header_sets: documents::discovery::header_sets(&content.site),
        not_found_page: Some(pages::NOT_FOUND_FILE.to_string()),
        route_shards: shard_count(routes),
        intros: intros.per_request(),
        help: intros.help.clone(),
    }
}

/// The service worker and the listings' record lists, made from every file written so far (see
/// [`offline::layout_files`]); the warning naming what the budget left out, if anything was.
fn offline_files(
    manifest: &Manifest,
    templates: Option<&std::path::Path>,
    files: &mut Outputs,
) -> Result<Option<ContentError>, BuildError> {
    let built: Vec<offline::precache::Built> = files
        .made()
        .iter()
        .filter(|w| offline::may_matter(&w.file))
        .map(|w| offline::precache::Built {
            file: w.file.clone(),
            len: w.len,
            tag: w.etag(),
            collection: match w.group {
                Group::Collection(name) => Some(name.to_string()),
                _ => None,
            },
        })
        .collect();
    let worker = crate::theme::service_worker(templates)?;
    let (made, precache) = offline::layout_files(&manifest.site, manifest.help.as_ref(), &built, &worker)?;
    files.extend(made.into_iter().map(|f| f.in_group(Group::Layout)));
    Ok(offline::left_out_warning(&manifest.site, &precache))
}

/// `_headers`, the nginx snippet (over the files that may need rules of their own: not those of
/// records, see `Group::record_scale`) and the shards of the route index, made from the files
/// written (a batch of shards at a time).
fn layout_files(manifest: &Manifest, files: &mut Outputs) -> Result<(), BuildError> {
    let made = files.made();
    let own: Routes =
        made.iter().filter(|w| !w.group.record_scale()).filter_map(|w| Some((w.route.clone()?, w.asset()))).collect();
    let site = [hosting::cdn::headers_file(manifest, &own), hosting::nginx::snippet(manifest, &own)];
    let shards = manifest.route_shards.max(1);
    let mut members: Vec<Vec<usize>> = vec![Vec::new(); shards as usize];
    for (i, w) in made.iter().enumerate() {
        if let Some(route) = &w.route {
            members[shard_of(route, shards) as usize].push(i);
        }
    }
    files.extend(site.into_iter().map(|f| f.in_group(Group::Layout)));
    for (batch, chunk) in members.chunks(64).enumerate() {
        let made = files.made();
        let shard_files: Vec<OutFile> = chunk
            .par_iter()
            .enumerate()
            .map(|(n, members)| {
                let mut routes = Routes::new();
                for w in members.iter().map(|&i| &made[i]) {
                    let route = w.route.clone().unwrap_or_default();
                    if let Some(previous) = routes.insert(route.clone(), w.asset()) {
                        anyhow::bail!(
                            "two outputs claim the URL {route} (one is {}); rename one of the records",
                            previous.file
                        );
                    }
                }
                let n = (batch * 64 + n) as u32;
                Ok(OutFile::internal(shard_file(n), serde_json::to_vec(&routes)?).in_group(Group::Layout))
            })
            .collect::<anyhow::Result<_>>()?;
        files.extend(shard_files);
    }
    Ok(())
}

/// The warning for a site without `base_url`: sitemap, feed and canonical links can only be
/// site-relative then.
/// The `base_url` of a site made by `portal init` that still names the example address: its
/// feeds, sitemap, canonical links and offline copies would point at someone else's site.
fn example_base_url(content: &std::path::Path) -> ContentError {
    let file = content.join("site.yaml");
    let line = std::fs::read_to_string(&file)
        .ok()
        .and_then(|text| text.lines().position(|l| l.trim_start().starts_with("base_url:")))
        .map_or(1, |i| i + 1);
    ContentError::new(
        file.display().to_string(),
        line,
        format!(
            "`base_url` is still the example address of `portal init` ({}): set the address your site is \
             published at, which the sitemap, the news feed, canonical links and offline copies use",
            crate::init::EXAMPLE_BASE_URL
        ),
    )
}

fn missing_base_url(content: &std::path::Path) -> ContentError {
    let file = content.join("site.yaml");
    ContentError::new(
        file.display().to_string(),
        1,
        "`base_url` is not set: the sitemap, the news feed, canonical links and the API documents need the site's \
         public address (e.g. base_url: https://community.example, or --base-url); until then they use \
         site-relative links",
    )
}

/// Checks the content and everything the build would make, writing nothing (`portal check`).
pub fn check(options: &BuildOptions, progress: &Progress, strict: bool) -> Result<Rendered, BuildError> {
    render(options, progress, strict)
}

/// Runs a build: a rebuild when the output folder holds an earlier build whose state says what
/// can be kept (see [`rebuild`]), else a clean one. `strict` builds are always clean.
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
