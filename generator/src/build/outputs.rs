//! Where a clean build's outputs go as they are made (docs/deploying.md#how-a-build-is-written):
//! each file is written into the staging folder at once (see [`super::staging`]) and only what the
//! manifest, the upload layout and the build cache need of it is kept ([`Written`]), so memory does
//! not grow with the bytes of the site.
//!
//! Steps hand their files over as before (`files.extend(step(...)?)`, `OutFile::at`); what they
//! make of one file per record goes a batch at a time ([`Outputs::batches`]). A served HTML page
//! has its links rewritten to files (see [`super::links`]), which needs every URL of the build:
//! the pages of records and entries, made last, are rewritten as they are made (their URLs follow
//! from the content, [`Outputs::stream`]); the few pages made before them are written as rendered
//! and rewritten from the staging folder once everything is made ([`Outputs::resolve_links`]).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use portal_core::dist::manifest::Asset;
use portal_core::http::media::HTML;
use rayon::prelude::*;
use sha2::{Digest, Sha256};

use super::links;
use super::output::{Group, OutFile};
use super::rebuild::state::Output;

/// Records (or entries) made, rendered and written together: enough to keep both cores busy, few
/// enough that a batch's pages are a few tens of megabytes.
pub const BATCH: usize = 2048;

/// Threads that create files in parallel: creating files is bound by the file system, not the
/// CPU, so more threads than cores keep the disk busy.
const WRITE_THREADS: usize = 8;

/// A file of the build once written: everything the build still needs of it, but its bytes.
#[derive(Debug, Clone)]
pub struct Written {
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
    /// The content file it is made from.
    pub source: Option<String>,
    /// Which part of the build makes it.
    pub group: Group,
    /// What a rebuild tells an unchanged page by (see `OutFile::key`).
    pub key: Option<[u8; 32]>,
    /// Its size in bytes.
    pub len: u64,
    /// The SHA-256 of its bytes (its entity tag is the start of it).
    pub hash: [u8; 32],
}

impl Written {
    /// What is kept of `file` (hashing its bytes).
    pub fn of(file: &OutFile) -> Written {
        Written::kept(file.clone(), Sha256::digest(&file.bytes).into())
    }

    /// `file` with the hash of its bytes, the bytes dropped.
    fn kept(file: OutFile, hash: [u8; 32]) -> Written {
        Written {
            route: file.route,
            file: file.file,
            content_type: file.content_type,
            headers: file.headers,
            markdown: file.markdown,
            source: file.source,
            group: file.group,
            key: file.key,
            len: file.bytes.len() as u64,
            hash,
        }
    }

    /// Its entity tag, the one `output::etag` makes of its bytes.
    pub fn etag(&self) -> String {
        super::output::etag_of_digest(&self.hash)
    }

    /// What the route index says of it.
    pub fn asset(&self) -> Asset {
        Asset {
            file: self.file.clone(),
            content_type: self.content_type.clone(),
            etag: self.etag(),
            headers: self.headers.clone(),
            markdown: self.markdown.clone(),
        }
    }

    /// It as a group's table in the build cache keeps it.
    pub fn output(&self) -> Output {
        Output {
            file: self.file.clone(),
            route: self.route.clone(),
            content_type: self.content_type.clone(),
            headers: self.headers.clone(),
            markdown: self.markdown.clone(),
            etag: if self.route.is_some() { self.etag() } else { String::new() },
            len: self.len,
            source: self.source.clone(),
            key: self.key,
        }
    }
}

/// Whether `file` is a page whose links are rewritten to files (a served HTML page that is not a
/// static file, which is published as it is).
fn has_links(file: &OutFile) -> bool {
    file.route.is_some() && file.content_type == HTML && file.group != Group::Statics
}

/// The outputs of a build, written as they are handed over.
pub struct Outputs {
    /// The staging folder; `None` when nothing is written (`portal check`).
    folder: Option<PathBuf>,
    /// Every file handed over, in that order.
    made: Vec<Written>,
    /// Pages written before every URL was known, whose links are still to be rewritten.
    raw: Vec<usize>,
    /// The first error of a hand-over (reported by [`Outputs::finish`]).
    error: Option<anyhow::Error>,
    pool: rayon::ThreadPool,
}

impl Outputs {
    /// Outputs written into `folder` (none when `None`).
    pub fn new(folder: Option<PathBuf>) -> Result<Self> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(WRITE_THREADS.max(rayon::current_num_threads()))
            .build()
            .context("starting the writer threads")?;
        Ok(Outputs { folder, made: Vec::new(), raw: Vec::new(), error: None, pool })
    }

    /// The staging folder, when the outputs are written.
    pub fn folder(&self) -> Option<&Path> {
        self.folder.as_deref()
    }

    /// The writer threads.
    pub fn pool(&self) -> &rayon::ThreadPool {
        &self.pool
    }

    /// Every file handed over.
    pub fn made(&self) -> &[Written] {
        &self.made
    }

    /// How many files were handed over.
    pub fn len(&self) -> usize {
        self.made.len()
    }

    /// Whether none was.
    pub fn is_empty(&self) -> bool {
        self.made.is_empty()
    }

    /// Hands over one file.
    pub fn push(&mut self, file: OutFile) {
        self.extend([file]);
    }

    /// Hands over `files`: each is written now and its bytes dropped. A failure is kept and
    /// reported by [`Outputs::finish`] (nothing more is written after it).
    pub fn extend(&mut self, files: impl IntoIterator<Item = OutFile>) {
        if self.error.is_some() {
            return;
        }
        let files: Vec<OutFile> = files.into_iter().collect();
        let none: Option<(&HashMap<&str, &str>, &str)> = None;
        match write_all(&self.pool, self.folder.as_deref(), files, none) {
            Ok(written) => {
                for (file, raw) in written {
                    if raw {
                        self.raw.push(self.made.len());
                    }
                    self.made.push(file);
                }
            }
            Err(e) => self.error = Some(e),
        }
    }

    /// Makes the files of `items` a batch at a time ([`BATCH`], in parallel) and hands each batch
    /// over as it is made: a step of a file or two per record never holds all of them.
    pub fn batches<T: Sync>(&mut self, items: &[T], make: impl Fn(&T) -> Result<Vec<OutFile>> + Sync) -> Result<()> {
        for chunk in items.chunks(BATCH) {
            let made: Vec<Vec<OutFile>> = chunk.par_iter().map(&make).collect::<Result<_>>()?;
            self.extend(made.into_iter().flatten());
        }
        self.take_error()
    }

    /// Makes pages a batch of `items` at a time with `make`, rewrites their links and writes them.
    /// `routes` are the URLs of every page this makes: with those made before, every URL of the
    /// build, so each page's links are resolved as it is made.
    pub fn stream<T: Sync>(
        &mut self,
        items: impl IntoIterator<Item = T>,
        routes: &[String],
        base_url: &str,
        make: impl Fn(&[T]) -> Result<Vec<OutFile>>,
    ) -> Result<()> {
        self.take_error()?;
        // Room for every file made here (a page and its twin per item), taken now: grown at the
        // end instead, the table of a big site would be held three times over for a moment.
        let expected = routes.len() * 2;
        self.made.reserve(expected);
        let made = std::mem::take(&mut self.made);
        let files: Vec<(&str, String)> =
            routes.iter().map(|r| (r.as_str(), portal_core::routing::page_file(r))).collect();
        let mut resolve = by_route(&made);
        resolve.extend(files.iter().map(|(route, file)| (*route, file.as_str())));
        let mut more = Vec::with_capacity(expected);
        let mut result = Ok(());
        let mut items = items.into_iter();
        loop {
            // Each batch is dropped once its pages are written.
            let chunk: Vec<T> = items.by_ref().take(BATCH).collect();
            if chunk.is_empty() {
                break;
            }
            let written = make(&chunk)
                .and_then(|files| write_all(&self.pool, self.folder.as_deref(), files, Some((&resolve, base_url))));
            match written {
                Ok(written) => more.extend(written.into_iter().map(|(file, _)| file)),
                Err(e) => {
                    result = Err(e);
                    break;
                }
            }
        }
        drop(resolve);
        self.made = made;
        self.made.extend(more);
        result
    }

    /// Rewrites the links of the pages written before every URL was known, reading each back from
    /// the staging folder.
    pub fn resolve_links(&mut self, base_url: &str) -> Result<()> {
        self.take_error()?;
        let raw = std::mem::take(&mut self.raw);
        let Some(folder) = self.folder.as_deref() else { return Ok(()) };
        let resolve = by_route(&self.made);
        let made = &self.made;
        let fixed: Vec<(usize, u64, [u8; 32])> = self.pool.install(|| {
            raw.par_iter()
                .map(|&i| {
                    let page = &made[i];
                    let path = folder.join(&page.file);
                    let bytes = std::fs::read(&path).with_context(|| format!("reading {}", path.display()))?;
                    let bytes = match std::str::from_utf8(&bytes) {
                        Ok(html) => links::relativize(html, &page.file, &resolve, base_url).into_bytes(),
                        Err(_) => bytes,
                    };
                    std::fs::write(&path, &bytes).with_context(|| format!("writing {}", path.display()))?;
                    Ok((i, bytes.len() as u64, Sha256::digest(&bytes).into()))
                })
                .collect::<Result<_>>()
        })?;
        drop(resolve);
        for (i, len, hash) in fixed {
            self.made[i].len = len;
            self.made[i].hash = hash;
        }
        Ok(())
    }

    /// The bytes of a file written (read back from the staging folder).
    pub fn read(&self, file: &str) -> Result<Vec<u8>> {
        let folder = self.folder.as_deref().context("the outputs of `portal check` are not written")?;
        let path = folder.join(file);
        std::fs::read(&path).with_context(|| format!("reading {}", path.display()))
    }

    /// Writes files made from the files written (packs) in the writer threads, a few at a time:
    /// `make` gives each its bytes.
    pub fn derive<T: Sync>(
        &mut self,
        items: &[T],
        make: impl Fn(&Outputs, &T) -> Result<OutFile> + Sync,
    ) -> Result<()> {
        for chunk in items.chunks(self.pool.current_num_threads()) {
            let this = &*self;
            let files: Vec<OutFile> =
                this.pool.install(|| chunk.par_iter().map(|item| make(this, item)).collect::<Result<_>>())?;
            self.extend(files);
        }
        self.take_error()
    }

    /// The files written, sorted by file; the first failure of a hand-over, if any.
    pub fn finish(&mut self) -> Result<()> {
        self.take_error()?;
        self.made.par_sort_unstable_by(|a, b| a.file.cmp(&b.file));
        Ok(())
    }

    fn take_error(&mut self) -> Result<()> {
        match self.error.take() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }
}

/// The file of every URL among `made`.
fn by_route(made: &[Written]) -> HashMap<&str, &str> {
    made.iter().filter_map(|w| Some((w.route.as_deref()?, w.file.as_str()))).collect()
}

/// Writes `files` into `folder` in the writer threads, links rewritten with `resolve` when given;
/// says of each page with links whether they are still to be rewritten.
fn write_all(
    pool: &rayon::ThreadPool,
    folder: Option<&Path>,
    files: Vec<OutFile>,
    resolve: Option<(&HashMap<&str, &str>, &str)>,
) -> Result<Vec<(Written, bool)>> {
    pool.install(|| {
        files
            .into_par_iter()
            .map(|mut file| {
                let Some(folder) = folder else { return Ok((Written::kept(file, [0; 32]), false)) };
                let mut raw = has_links(&file);
                if let (true, Some((resolve, base_url))) = (raw, resolve) {
                    if let Ok(html) = std::str::from_utf8(&file.bytes) {
                        file.bytes = links::relativize(html, &file.file, resolve, base_url).into_bytes();
                    }
                    raw = false;
                }
                put(&folder.join(&file.file), &file.bytes)?;
                let hash = if raw { [0; 32] } else { Sha256::digest(&file.bytes).into() };
                Ok((Written::kept(file, hash), raw))
            })
            .collect()
    })
}

/// Writes a new file, making its folder when it has none yet.
pub fn put(path: &Path, bytes: &[u8]) -> Result<()> {
    match std::fs::write(path, bytes) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent).with_context(|| format!("creating {}", parent.display()))?;
            }
            std::fs::write(path, bytes).with_context(|| format!("writing {}", path.display()))
        }
        other => other.with_context(|| format!("writing {}", path.display())),
    }
}
