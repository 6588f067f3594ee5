//! Where a clean build's outputs go as they are made (docs/deploying.md#how-a-build-is-written):
//! each file is written into the staging folder at once (see [`crate::build::write::staging`]) and only what the
//! manifest, the upload layout and the build cache need of it is kept ([`Written`]), so memory does
//! not grow with the bytes of the site.
//!
//! Steps hand their files over as before (`files.extend(step(...)?)`, `OutFile::at`); what they
//! make of one file per record goes a batch at a time ([`Outputs::batches`]). A served HTML page
//! has its links rewritten to files (see [`crate::build::write::links`]), which needs every URL of the build:
//! the pages of records and entries, made last, are rewritten as they are made (their URLs follow
//! from the content, [`Outputs::stream`]); the few pages made before them wait in the spool as
//! rendered, and are written once everything is made ([`Outputs::resolve_links`]).
//! The packs of a big build are made last, laid out from their files' names and sizes and filled
//! from compressed copies set aside as the files were written ([`Outputs::assemble`], [`crate::build::write::spool`]).

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use portal_core::dist::packs;
use portal_core::http::media::HTML;
use rayon::prelude::*;

use crate::build::write::file::{Group, OutFile};
use crate::build::write::links;
use crate::build::write::resolver::{RouteIndex, View};
use crate::build::write::spool::Spool;
use crate::build::write::written::{digest, Digest16, Written};
use crate::load::shelf::Place;

/// Records (or entries) made, rendered and written together: enough to keep both cores busy, few
/// enough that a batch's pages are a few tens of megabytes.
pub const BATCH: usize = 2048;

/// Threads that create files in parallel: creating files is bound by the file system, not the
/// CPU, so more threads than cores keep the disk busy.
const WRITE_THREADS: usize = 8;

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
    /// Copies of the files a pack may hold, when they are set aside.
    spool: Option<Spool>,
}

impl Outputs {
    /// Outputs written into `folder` (none when `None`).
    pub fn new(folder: Option<PathBuf>) -> Result<Self> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(WRITE_THREADS.max(rayon::current_num_threads()))
            .build()
            .context("starting the writer threads")?;
        Ok(Outputs { folder, made: Vec::new(), raw: Vec::new(), error: None, pool, spool: None })
    }

    /// Outputs that also set aside a compressed copy of each file a pack may hold, in a file of
    /// `dir`, so that the packs are made without reading the loose files back (see [`crate::build::write::spool`]).
    pub fn spooled_in(mut self, dir: &Path) -> Result<Self> {
        if self.folder.is_some() {
            self.spool = Some(Spool::new(dir)?);
        }
        Ok(self)
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
        match write_all(self.writer(), files, None) {
            Ok(written) => {
                for (file, raw) in written {
                    if raw {
                        self.raw.push(self.made.len());
                    }
                    append(&mut self.made, file);
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
        // Room for every file made here (a page and its twin per item), taken now: grown as they
        // come instead, the table of a big site would be copied a few times over.
        self.made.reserve(routes.len() * 2);
        let index = RouteIndex::of(&self.made);
        let coming: HashSet<&str> = routes.iter().map(String::as_str).collect();
        let mut items = items.into_iter();
        loop {
            // Each batch is dropped once its pages are written.
            let chunk: Vec<T> = items.by_ref().take(BATCH).collect();
            if chunk.is_empty() {
                return Ok(());
            }
            let view = index.view(&self.made, Some(&coming));
            let written = make(&chunk).and_then(|files| write_all(self.writer(), files, Some((&view, base_url))))?;
            for (file, _) in written {
                append(&mut self.made, file);
            }
        }
    }

    /// Writes the pages made before every URL was known, their links rewritten: each is read
    /// back from the spool (or, without one, from the staging folder), and its rewritten copy
    /// spooled in turn when a pack may hold it.
    pub fn resolve_links(&mut self, base_url: &str) -> Result<()> {
        self.take_error()?;
        let raw = std::mem::take(&mut self.raw);
        let Some(folder) = self.folder.as_deref() else { return Ok(()) };
        let index = RouteIndex::of(&self.made);
        let resolve = index.view(&self.made, None);
        let (made, spool) = (&self.made, self.spool.as_ref());
        let fixed: Vec<(usize, u64, Digest16, Option<Place>)> = self.pool.install(|| {
            raw.par_iter()
                .map(|&i| {
                    let page = &made[i];
                    let path = folder.join(page.file());
                    let bytes = match (spool, page.spooled) {
                        (Some(spool), Some(place)) => spool.get(place)?,
                        _ => read_file(&path)?,
                    };
                    let bytes = match std::str::from_utf8(&bytes) {
                        Ok(html) => links::relativize(html, page.file(), &resolve, base_url).into_bytes(),
                        Err(_) => bytes,
                    };
                    put(&path, &bytes)?;
                    let spooled = keep_if_packable(spool, page.file(), &bytes)?;
                    Ok((i, bytes.len() as u64, digest(&bytes), spooled))
                })
                .collect::<Result<_>>()
        })?;
        for (i, len, hash, spooled) in fixed {
            let page = &mut self.made[i];
            (page.len, page.hash, page.spooled) = (len, hash, spooled);
        }
        Ok(())
    }

    /// How many bytes a pack stores the `i`th file written in ([`packs::compress`]): its copy's
    /// in the spool, or (without one) its file's, compressed.
    pub fn stored_len(&self, i: usize) -> Result<u64> {
        if let (Some(_), Some(place)) = (&self.spool, self.made[i].spooled) {
            return Ok(place.bytes());
        }
        Ok(Sources { folder: self.staging()?, made: &self.made, spool: None }.stored(i)?.len() as u64)
    }

    /// The staging folder, for reading back what was written there.
    fn staging(&self) -> Result<&Path> {
        self.folder.as_deref().context("the outputs of `portal check` are not written")
    }

    /// The bytes of a file written (read back from the staging folder).
    pub fn read(&self, file: &str) -> Result<Vec<u8>> {
        read_file(&self.staging()?.join(file))
    }

    /// The bytes in `range` of a file written (read back from the staging folder).
    pub fn read_range(&self, file: &str, range: std::ops::Range<usize>) -> Result<Vec<u8>> {
        let path = self.staging()?.join(file);
        let opened = std::fs::File::open(&path).with_context(|| format!("reading {}", path.display()))?;
        let mut bytes = vec![0; range.len()];
        crate::positioned::read_at(&opened, &mut bytes, range.start as u64)
            .with_context(|| format!("reading {}", path.display()))?;
        Ok(bytes)
    }

    /// Writes files made of a head and of copies of files written as a pack stores them (packs:
    /// [`packs::compress`]), one made of each of `planned` by `make`: each is laid out at once and
    /// its head dropped, then each file written is copied in at its place, read from the spool in
    /// the order the copies lie there (at a million records the output is larger than the memory
    /// that caches it, and reading the loose files back would cost a disk read each). Files
    /// without a copy (pages whose links were rewritten afterwards, or no spool) are read from the
    /// staging folder, newest first, the order in which the system is likeliest still to hold
    /// them. No file made here is held whole, nor every head at once.
    pub fn assemble<P: Sync>(
        &mut self,
        planned: Vec<P>,
        make: impl Fn(&Outputs, &P) -> Result<Assembly> + Sync,
    ) -> Result<()> {
        self.take_error()?;
        let Some(folder) = self.folder.clone() else {
            for plan in &planned {
                let assembly = make(self, plan)?;
                self.made.push(Written::kept(assembly.file, Digest16::default()));
            }
            return Ok(());
        };
        let (mut laid, mut targets, mut pieces) = (Vec::new(), Vec::new(), Vec::new());
        for chunk in planned.chunks(BATCH) {
            let made: Vec<(PathBuf, Assembly)> = self.pool.install(|| {
                chunk
                    .par_iter()
                    .map(|plan| {
                        let mut assembly = make(self, plan)?;
                        let path = folder.join(&assembly.file.file);
                        lay_out(&path, &assembly.file.bytes, assembly.len)?;
                        assembly.file.bytes = Vec::new();
                        Ok((path, assembly))
                    })
                    .collect::<Result<_>>()
            })?;
            for (path, assembly) in made {
                let target = targets.len();
                pieces.extend(assembly.pieces.iter().map(|&(made, at)| Piece { made, target, at }));
                targets.push(path);
                laid.push((assembly.file, assembly.len));
            }
        }
        drop(planned);
        // Copies from the spool in the order they lie there; the others newest first.
        pieces.sort_unstable_by_key(|p| (self.made[p.made].spooled, std::cmp::Reverse(p.made)));
        let from = Sources { folder: &folder, made: &self.made, spool: self.spool.as_ref() };
        self.pool.install(|| pieces.par_chunks(PIECES).try_for_each(|chunk| copy_in(from, &targets, chunk)))?;
        drop(pieces);
        let hashes: Vec<Digest16> =
            self.pool.install(|| targets.par_iter().map(|path| hash_file(path)).collect::<Result<_>>())?;
        for ((file, len), hash) in laid.into_iter().zip(hashes) {
            let mut written = Written::kept(file, hash);
            written.len = len;
            self.made.push(written);
        }
        Ok(())
    }

    /// The files written, sorted by file; the first failure of a hand-over, if any.
    pub fn finish(&mut self) -> Result<()> {
        self.take_error()?;
        self.made.par_sort_unstable_by(|a, b| a.file().cmp(b.file()));
        Ok(())
    }

    fn writer(&self) -> Writer<'_> {
        Writer { pool: &self.pool, folder: self.folder.as_deref(), spool: self.spool.as_ref() }
    }

    fn take_error(&mut self) -> Result<()> {
        match self.error.take() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }
}

/// A file made of a head and of copies of files written, as a pack stores them ([`Outputs::assemble`]).
pub struct Assembly {
    /// Its name, type and group; its bytes are the head, what comes before the first copy.
    pub file: OutFile,
    /// Its length in all.
    pub len: u64,
    /// The files copied in: each one's index among the files written, and where it starts.
    pub pieces: Vec<(usize, u64)>,
}

/// One file copied into an assembly.
struct Piece {
    made: usize,
    target: usize,
    at: u64,
}

/// Files read back together by one writer thread before they are copied in: a few megabytes.
const PIECES: usize = 512;

/// Makes `path` with `head` and room for the rest, `len` bytes in all.
fn lay_out(path: &Path, head: &[u8], len: u64) -> Result<()> {
    put(path, head)?;
    open_to_write(path)?.set_len(len).with_context(|| format!("writing {}", path.display()))
}

/// Where the files copied into assemblies are read from.
#[derive(Clone, Copy)]
struct Sources<'a> {
    folder: &'a Path,
    made: &'a [Written],
    spool: Option<&'a Spool>,
}

impl Sources<'_> {
    /// The `i`th file written as a pack stores it: its copy in the spool as it lies there, or the
    /// file compressed.
    fn stored(&self, i: usize) -> Result<Vec<u8>> {
        let written = &self.made[i];
        if let (Some(spool), Some(place)) = (self.spool, written.spooled) {
            return spool.stored(place);
        }
        let path = self.folder.join(written.file());
        Ok(packs::compress(&read_file(&path)?))
    }
}

/// Reads the files of `pieces` in the order given, then copies each into its assembly, one
/// assembly open at a time.
fn copy_in(from: Sources<'_>, targets: &[PathBuf], pieces: &[Piece]) -> Result<()> {
    let mut read: Vec<(&Piece, Vec<u8>)> = Vec::with_capacity(pieces.len());
    for piece in pieces {
        read.push((piece, from.stored(piece.made)?));
    }
    read.sort_unstable_by_key(|(piece, _)| (piece.target, piece.at));
    for group in read.chunk_by(|(a, _), (b, _)| a.target == b.target) {
        let path = &targets[group[0].0.target];
        let file = open_to_write(path)?;
        for (piece, bytes) in group {
            crate::positioned::write_at(&file, bytes, piece.at)
                .with_context(|| format!("writing {}", path.display()))?;
        }
    }
    Ok(())
}

/// The [`Digest16`] of a file's bytes.
fn hash_file(path: &Path) -> Result<Digest16> {
    Ok(digest(&read_file(path)?))
}

/// The bytes of a file of the build.
fn read_file(path: &Path) -> Result<Vec<u8>> {
    std::fs::read(path).with_context(|| format!("reading {}", path.display()))
}

/// A file of the build opened to write into its places.
fn open_to_write(path: &Path) -> Result<std::fs::File> {
    std::fs::OpenOptions::new().write(true).open(path).with_context(|| format!("opening {}", path.display()))
}

/// Adds `file` to `list`, sharing its content file's name with the file before it.
fn append(list: &mut Vec<Written>, mut file: Written) {
    file.share_source(list.last());
    list.push(file);
}

/// Where files are written: the writer threads, the staging folder (none for `portal check`) and
/// the spool, if any.
#[derive(Clone, Copy)]
struct Writer<'a> {
    pool: &'a rayon::ThreadPool,
    folder: Option<&'a Path>,
    spool: Option<&'a Spool>,
}

/// Writes `files` in the writer threads, links rewritten with `resolve` when given; says of each
/// page with links whether they are still to be rewritten.
fn write_all(
    writer: Writer<'_>,
    files: Vec<OutFile>,
    resolve: Option<(&View<'_>, &str)>,
) -> Result<Vec<(Written, bool)>> {
    writer.pool.install(|| {
        files
            .into_par_iter()
            .map(|mut file| {
                let Some(folder) = writer.folder else { return Ok((Written::kept(file, Digest16::default()), false)) };
                let mut raw = has_links(&file);
                if let (true, Some((resolve, base_url))) = (raw, resolve) {
                    if let Ok(html) = std::str::from_utf8(&file.bytes) {
                        file.bytes = links::relativize(html, &file.file, resolve, base_url).into_bytes();
                    }
                    raw = false;
                }
                // A page whose links are still to be rewritten waits in the spool, and its file is
                // written once they are (without a spool, it is written now and read back then).
                let spooled = match writer.spool {
                    Some(spool) if raw => Some(spool.keep(&file.bytes)?),
                    spool => {
                        put(&folder.join(&file.file), &file.bytes)?;
                        keep_if_packable(spool, &file.file, &file.bytes)?
                    }
                };
                let hash = if raw { Digest16::default() } else { digest(&file.bytes) };
                let mut written = Written::kept(file, hash);
                written.spooled = spooled;
                Ok((written, raw))
            })
            .collect()
    })
}

/// Sets aside in `spool` a copy of the bytes of `file`, a file written, when a pack may hold it.
fn keep_if_packable(spool: Option<&Spool>, file: &str, bytes: &[u8]) -> Result<Option<Place>> {
    match spool {
        Some(spool) if packs::packable(file, bytes.len()) => Ok(Some(spool.keep(bytes)?)),
        _ => Ok(None),
    }
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
