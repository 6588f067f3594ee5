//! The build's output: files with their URL paths, written incrementally into the output folder
//! together with the manifest that tells every server what to send for each path.
//!
//! Only files whose bytes changed are rewritten, and files the build no longer produces are
//! removed, so `dist/` never holds a stale record and uploads stay small.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use portal_core::dist::manifest::{shard_file, split_routes, Asset, Manifest, Routes, MANIFEST_FILE};
use rayon::prelude::*;
use sha2::{Digest, Sha256};

use super::upload::{self, Layout, Upload};

/// One file of the build.
#[derive(Debug, Clone)]
pub struct OutFile {
    /// The URL path it is served at, if it is served directly.
    pub route: Option<String>,
    /// Its path relative to the output folder.
    pub file: String,
    /// Its media type.
    pub content_type: String,
    /// A header set of the manifest to send with it.
    pub headers: Option<String>,
    /// The markdown twin's file, for HTML pages.
    pub markdown: Option<String>,
    /// Its bytes.
    pub bytes: Vec<u8>,
    /// The content file it is made from, for errors that concern it (a URL two outputs claim).
    pub source: Option<String>,
    /// Which part of the build makes it (what a rebuild redoes together).
    pub group: Group,
    /// For a page a rebuild keeps when what it is made from did not change: a hash of that.
    pub key: Option<[u8; 32]>,
}

/// The parts of a build a rebuild redoes or keeps as a whole: each collection (its records'
/// files and its listings), the encyclopedia, tags and categories, search, the static files, the
/// rest of the site; and the layout (manifest, packs, parts), always made from all of them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Group {
    /// A collection's records and listings.
    Collection(&'static str),
    /// The encyclopedia's entries, catalog and index.
    Encyclopedia,
    /// Tag and category pages.
    Taxonomy,
    /// The search index and the flat index.
    Search,
    /// `content/static/` and its image variants.
    Statics,
    /// What the site as a whole shows of its records or of the build time: the status, llms.txt,
    /// the feed, the datasets (their `updatedAt`), the home page and the sitemap.
    Site,
    /// What depends only on the inputs every page depends on (settings, templates, datasets,
    /// places, skills): the API description and catalogs, places, mail templates, the docs, 404
    /// and shell pages, robots.txt and the theme's assets. A rebuild keeps them as they are.
    Theme,
    /// The manifest, route shards, packs, parts, `_headers`, the nginx snippet, `.assetsignore`.
    Layout,
}

impl Group {
    /// The group of collection `name`.
    pub fn collection(name: &str) -> Group {
        let name =
            portal_core::content::collections::COLLECTIONS.iter().copied().find(|c| *c == name).unwrap_or("pages");
        Group::Collection(name)
    }

    /// Its name in the build cache.
    pub fn name(self) -> String {
        match self {
            Group::Collection(name) => format!("c-{name}"),
            Group::Encyclopedia => "encyclopedia".into(),
            Group::Taxonomy => "taxonomy".into(),
            Group::Search => "search".into(),
            Group::Statics => "statics".into(),
            Group::Site => "site".into(),
            Group::Theme => "theme".into(),
            Group::Layout => "layout".into(),
        }
    }

    /// Whether the group is made of many records, with generic rules for its files in `_headers`
    /// and the nginx snippet (so those never list them one by one).
    pub fn record_scale(self) -> bool {
        matches!(self, Group::Collection(_) | Group::Encyclopedia | Group::Taxonomy)
    }
}

impl OutFile {
    /// The file the route table says `route` is served from (its path and media type), with
    /// `bytes`: the build never names a file or a type of its own. `Err` when no route serves
    /// `route` from a file (a bug, caught by the build's tests).
    pub fn at(route: impl Into<String>, bytes: Vec<u8>) -> Result<Self> {
        let route = route.into();
        let Some((file, media)) = portal_core::routing::output(&route) else {
            bail!("no route of the route table serves {route} from a built file");
        };
        Ok(OutFile::served(route, file, media, bytes))
    }

    /// A file served at `route`.
    pub fn served(route: impl Into<String>, file: impl Into<String>, content_type: &str, bytes: Vec<u8>) -> Self {
        OutFile {
            route: Some(route.into()),
            file: file.into(),
            content_type: content_type.to_string(),
            headers: None,
            markdown: None,
            bytes,
            source: None,
            group: Group::Site,
            key: None,
        }
    }

    /// A file that is only read by servers (not addressed by a URL of its own).
    pub fn internal(file: impl Into<String>, bytes: Vec<u8>) -> Self {
        OutFile {
            route: None,
            file: file.into(),
            content_type: String::new(),
            headers: None,
            markdown: None,
            bytes,
            source: None,
            group: Group::Site,
            key: None,
        }
    }

    /// The same file, in `group`.
    pub fn in_group(mut self, group: Group) -> Self {
        self.group = group;
        self
    }

    /// The same file, made from the content file `source`.
    pub fn from_source(mut self, source: &str) -> Self {
        if !source.is_empty() {
            self.source = Some(source.to_string());
        }
        self
    }
}

/// A strong entity tag of some bytes.
pub fn etag(bytes: &[u8]) -> String {
    let digest = Sha256::digest(bytes);
    let hex: String = digest.iter().take(10).map(|b| format!("{b:02x}")).collect();
    format!("\"{hex}\"")
}

/// What writing changed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct WriteStats {
    /// Files the build produced (manifest included).
    pub files: usize,
    /// Their total size.
    pub bytes: u64,
    /// Files actually written (new or changed).
    pub written: usize,
    /// Stale files removed.
    pub removed: usize,
    /// Files a Worker deploy of the folder uploads (after `.assetsignore`).
    pub uploaded: usize,
}

/// Every served file among `files` as the route index holds it.
pub fn routes<'a>(files: impl IntoIterator<Item = &'a OutFile>) -> Result<Routes> {
    let files: Vec<&OutFile> = files.into_iter().collect();
    let assets: Vec<(String, Asset)> = files
        .par_iter()
        .filter_map(|f| {
            f.route.as_ref().map(|route| {
                let asset = Asset {
                    file: f.file.clone(),
                    content_type: f.content_type.clone(),
                    etag: etag(&f.bytes),
                    headers: f.headers.clone(),
                    markdown: f.markdown.clone(),
                };
                (route.clone(), asset)
            })
        })
        .collect();
    let mut routes = Routes::new();
    for (route, asset) in assets {
        if let Some(previous) = routes.insert(route.clone(), asset) {
            bail!("two outputs claim the URL {route} (one is {}); rename one of the records", previous.file);
        }
    }
    Ok(routes)
}

/// The shards of the route index (see `portal_core::dist::manifest`), `shards` of them.
pub fn route_shard_files(routes: &Routes, shards: u32) -> Result<Vec<OutFile>> {
    split_routes(routes, shards)
        .iter()
        .enumerate()
        .map(|(n, shard)| Ok(OutFile::internal(shard_file(n as u32), serde_json::to_vec(shard)?)))
        .collect()
}

/// Threads that create files in parallel.
const WRITE_THREADS: usize = 8;

/// Writes `files` (with what a Worker upload needs besides, see [`upload`]) and the manifest into
/// `out`, rewriting only what changed and removing the rest.
pub fn write(
    out: &Path,
    files: &mut Vec<OutFile>,
    manifest: &Manifest,
    layout: Layout,
) -> Result<(WriteStats, Upload)> {
    let fresh = guard_output_folder(out)?;
    let manifest_bytes = serde_json::to_vec(manifest).context("serialising the manifest")?;
    files.push(OutFile::internal(MANIFEST_FILE, manifest_bytes).in_group(Group::Layout));
    let (upload, packs) = upload::prepare(files, layout);
    let names: Vec<&str> = files.iter().map(|f| f.file.as_str()).chain(packs.iter().map(|p| p.file.as_str())).collect();
    let mut seen = HashSet::new();
    for name in &names {
        if !seen.insert(*name) {
            bail!("two outputs would be written to {name}; rename one of the records");
        }
    }
    // Folders first, once each, rather than a create_dir_all per file.
    let folders: std::collections::BTreeSet<&Path> =
        names.iter().filter_map(|f| Path::new(f).parent()).filter(|p| !p.as_os_str().is_empty()).collect();
    for folder in folders {
        let path = out.join(folder);
        std::fs::create_dir_all(&path).with_context(|| format!("creating {}", path.display()))?;
    }
    let put = |file: &str, bytes: &[u8]| -> Result<(bool, u64)> {
        let path = out.join(file);
        let written = if fresh { write_new(&path, bytes)? } else { write_if_changed(&path, bytes)? };
        Ok((written, bytes.len() as u64))
    };
    // Creating files is bound by the file system, not the CPU: more threads than cores keep the
    // disk busy. Packs are made as they are written, one at a time per thread. The manifest goes
    // last, so a server never reads a manifest ahead of its files.
    let head = files.iter().position(|f| f.file == MANIFEST_FILE).context("a build always has a manifest")?;
    let jobs: Vec<Job> =
        (0..files.len()).filter(|i| *i != head).map(Job::File).chain(packs.iter().map(Job::Pack)).collect();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(WRITE_THREADS.max(rayon::current_num_threads()))
        .build()
        .context("starting the writer threads")?;
    let done: Vec<(bool, u64)> = pool.install(|| {
        jobs.par_iter()
            .map(|job| match job {
                Job::File(i) => put(&files[*i].file, &files[*i].bytes),
                Job::Pack(pack) => put(&pack.file, &pack.bytes(files)),
            })
            .collect::<Result<_>>()
    })?;
    let last = put(&files[head].file, &files[head].bytes)?;
    let written = done.iter().chain([&last]).filter(|(written, _)| *written).count();
    let bytes = done.iter().chain([&last]).map(|(_, len)| len).sum();
    let removed = if fresh { 0 } else { remove_stale(out, &names.iter().map(|f| out.join(f)).collect())? };
    let stats = WriteStats { files: names.len(), bytes, written, removed, uploaded: upload.uploaded() };
    Ok((stats, upload))
}

/// One file the writer threads write: a file of the build, or a pack made of some.
enum Job<'a> {
    File(usize),
    Pack(&'a upload::PlannedPack),
}

/// Refuses to write into a non-empty folder that is not a previous build (it would be pruned).
/// Whether the folder is new or empty: then nothing in it needs comparing or pruning.
fn guard_output_folder(out: &Path) -> Result<bool> {
    if !out.exists() {
        std::fs::create_dir_all(out).with_context(|| format!("creating {}", out.display()))?;
        return Ok(true);
    }
    let empty = std::fs::read_dir(out).with_context(|| format!("reading {}", out.display()))?.next().is_none();
    if !empty && !out.join(MANIFEST_FILE).exists() {
        bail!(
            "{} is not empty and was not written by `portal build` (no {MANIFEST_FILE}); \
             choose another --out folder or empty this one",
            out.display()
        );
    }
    Ok(empty)
}

/// Writes a file into a folder that was empty when the build began.
fn write_new(path: &Path, bytes: &[u8]) -> Result<bool> {
    std::fs::write(path, bytes).with_context(|| format!("writing {}", path.display()))?;
    Ok(true)
}

fn write_if_changed(path: &Path, bytes: &[u8]) -> Result<bool> {
    let Ok(meta) = std::fs::metadata(path) else {
        // A new file: no server knows its name until the manifest naming it is written.
        std::fs::write(path, bytes).with_context(|| format!("writing {}", path.display()))?;
        return Ok(true);
    };
    if meta.len() == bytes.len() as u64 && std::fs::read(path).is_ok_and(|old| old == bytes) {
        return Ok(false);
    }
    // A changed file is replaced whole (written aside, then renamed), so a server reading it
    // meanwhile sees the old bytes or the new ones, never half of each.
    let temporary = path.with_extension(format!(
        "{}.tmp",
        path.extension().map(|e| e.to_string_lossy().into_owned()).unwrap_or_default()
    ));
    std::fs::write(&temporary, bytes).with_context(|| format!("writing {}", temporary.display()))?;
    std::fs::rename(&temporary, path).with_context(|| format!("writing {}", path.display()))?;
    Ok(true)
}

fn remove_stale(out: &Path, keep: &HashSet<PathBuf>) -> Result<usize> {
    let mut removed = 0;
    let mut dirs = Vec::new();
    // Everything not made now goes, a build cache an older version kept here included: the
    // output folder holds only what may be published.
    for entry in walkdir::WalkDir::new(out).min_depth(1) {
        let entry = entry.with_context(|| format!("reading {}", out.display()))?;
        let path = entry.path();
        if entry.file_type().is_dir() {
            dirs.push((entry.depth(), path.to_path_buf()));
        } else if !keep.contains(path) {
            std::fs::remove_file(path).with_context(|| format!("removing stale {}", path.display()))?;
            removed += 1;
        }
    }
    dirs.sort_by_key(|(depth, _)| std::cmp::Reverse(*depth));
    for (_, dir) in &dirs {
        // Only empty folders go; a non-empty one simply stays.
        let _ = std::fs::remove_dir(dir);
    }
    Ok(removed)
}
