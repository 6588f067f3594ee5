//! `portal build`: load the content, render every static endpoint, write `dist/` and its manifest.
//!
//! A sequence of named steps; each later issue adds its renderer as one more step.

pub mod actions;
pub mod api;
pub mod cache;
pub mod cdn;
pub mod collisions;
pub mod data;
pub mod discovery;
pub mod encyclopedia;
pub mod feed;
pub mod links;
pub mod model;
pub mod nginx;
pub mod output;
pub mod pages;
pub mod search;
pub mod spatial;
pub mod statics;
pub mod upload;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use portal_core::content::ContentError;
use portal_core::manifest::{shard_count, Manifest, Routes, MANIFEST_FORMAT};
use portal_core::time::DateTime;

use self::model::Model;
use self::output::OutFile;
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
    pub layout: upload::Layout,
}

/// What a build did.
#[derive(Debug, Clone)]
pub struct BuildReport {
    /// Published records per collection.
    pub collections: Vec<(&'static str, usize)>,
    /// Published encyclopedia entries.
    pub entries: usize,
    /// What writing changed.
    pub write: output::WriteStats,
    /// Problems that did not stop the build.
    pub warnings: Vec<ContentError>,
    /// Wall time.
    pub elapsed: Duration,
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

/// How long each step of a build took, printed to stderr when `PORTAL_TIMINGS` is set (for
/// profiling builds; see BENCHMARKS.md).
#[derive(Debug, Default)]
struct Steps(Vec<(&'static str, Duration)>);

impl Steps {
    fn time<T>(&mut self, name: &'static str, step: impl FnOnce() -> T) -> T {
        let started = Instant::now();
        let result = step();
        self.0.push((name, started.elapsed()));
        result
    }

    fn report(&self) {
        if std::env::var_os("PORTAL_TIMINGS").is_some() {
            let parts: Vec<String> = self.0.iter().map(|(name, d)| format!("{name} {} ms", d.as_millis())).collect();
            eprintln!("portal: timings: {}", parts.join(", "));
        }
    }
}

/// Everything a build makes, before anything is written.
pub struct Rendered {
    /// The content it was made from.
    pub content: Content,
    /// Every output file, sorted by file.
    pub files: Vec<OutFile>,
    /// The manifest head of the files.
    pub manifest: Manifest,
    /// Every URL the build serves (written as the shards of the route index).
    pub routes: Routes,
    /// Problems that do not stop the build.
    pub warnings: Vec<ContentError>,
}

/// Loads the content and renders every output in memory: what `build` writes and what `check`
/// verifies, so `check` finds every problem `build` would (URL collisions included). With
/// `strict`, warnings are errors.
pub fn render(options: &BuildOptions, progress: &Progress, strict: bool) -> Result<Rendered, BuildError> {
    render_with(options, progress, strict, None)
}

/// [`render`], reusing what the build cache kept from an earlier build (see [`cache`]).
fn render_with(
    options: &BuildOptions,
    progress: &Progress,
    strict: bool,
    cache: Option<&cache::PageCache>,
) -> Result<Rendered, BuildError> {
    let mut steps = Steps::default();
    let mut content = steps.time("load", || load::load_with(&options.content, progress, options.drafts))?;
    if let Some(base_url) = &options.base_url {
        content.site.base_url = base_url.clone();
    }
    let mut warnings = content.warnings.clone();
    if content.site.base_url.trim().is_empty() {
        warnings.push(missing_base_url(&options.content));
    }
    if strict && !warnings.is_empty() {
        return Err(BuildError::Content(
            warnings
                .into_iter()
                .map(|w| ContentError::new(w.file, w.line, format!("{} (--strict)", w.message)))
                .collect(),
        ));
    }
    let generated_at = build_time();
    let model = steps.time("cards", || Model::of(&content));
    let mut files = steps.time("api", || api::files(&content))?;
    files.extend(steps.time("search", || search::files(&content, &model))?);
    files.extend(steps.time("encyclopedia", || encyclopedia::files(&content, &model))?);
    files.extend(discovery::files(&content, &model, generated_at)?);
    files.push(feed::file(&content, &model, generated_at)?);
    files.extend(data::files(&content, generated_at)?);
    files.extend(spatial::files(&content)?);
    let templates = options.templates.as_deref();
    files.extend(steps.time("pages", || pages::files(&content, &model, templates, generated_at, cache))?);
    files.extend(actions::files(options.templates.as_deref())?);
    let published = steps.time("static", || statics::files(&content.statics))?;
    statics::check_clashes(&published, &files, &content.statics)?;
    let collisions = collisions::check(&files);
    if !collisions.is_empty() {
        return Err(BuildError::Content(collisions));
    }
    steps.time("links", || links::apply(&mut files, &published, content.site.base()));
    files.extend(published);
    let routes = steps.time("manifest", || output::routes(&files))?;
    let manifest = Manifest {
        format: MANIFEST_FORMAT,
        generated_at: generated_at.rfc3339(),
        site: content.site.clone(),
        strings: content.strings.clone(),
        navigation: pages::navigation::main_menu(&content, &model),
        header_sets: discovery::header_sets(&content.site),
        not_found_page: Some(pages::NOT_FOUND_FILE.to_string()),
        route_shards: shard_count(routes.len()),
    };
    let own_routes = output::routes(files.iter().filter(|f| !f.group.record_scale()))?;
    files.push(cdn::headers_file(&manifest, &own_routes));
    files.push(nginx::snippet(&manifest, &own_routes));
    files.extend(output::route_shard_files(&routes, manifest.route_shards)?);
    files.sort_by(|a, b| a.file.cmp(&b.file));
    steps.report();
    Ok(Rendered { content, files, manifest, routes, warnings })
}

/// The warning for a site without `base_url`: sitemap, feed and canonical links can only be
/// site-relative then.
fn missing_base_url(content: &std::path::Path) -> ContentError {
    let file = content.join("site.yaml");
    ContentError::new(
        file.display().to_string(),
        1,
        "`base_url` is not set: the sitemap, the news feed, canonical links and the API documents need the site's \
         public address (e.g. base_url: https://portal.example.org, or --base-url); until then they use \
         site-relative links",
    )
}

/// Checks the content and everything the build would make, writing nothing (`portal check`).
pub fn check(options: &BuildOptions, progress: &Progress, strict: bool) -> Result<Rendered, BuildError> {
    render(options, progress, strict)
}

/// Runs a full build.
pub fn build(options: &BuildOptions, progress: &Progress, strict: bool) -> Result<BuildReport, BuildError> {
    let started = Instant::now();
    let cache = cache::PageCache::open(&options.out);
    let Rendered { content, files, manifest, warnings, .. } = render_with(options, progress, strict, Some(&cache))?;
    let mut steps = Steps::default();
    let write = steps.time("write", || output::write(&options.out, files, &manifest, options.layout))?;
    steps.time("cache", || cache.save())?;
    steps.report();
    Ok(BuildReport {
        collections: content.collections.iter().map(|(name, records)| (*name, records.len())).collect(),
        entries: content.entries.len(),
        write,
        warnings,
        elapsed: started.elapsed(),
    })
}
