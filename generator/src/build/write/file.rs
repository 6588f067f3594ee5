//! The build's output: files with their URL paths, written into the output folder together with the
//! manifest that tells every server what to send for each path.
//!
//! A clean build writes each file as it is made into a staging folder ([`super::sink`], [`super::staging`]); into an earlier build, only files whose bytes changed are rewritten, and
//! files the build no longer produces are removed, so `dist/` never holds a stale record and
//! uploads stay small.

use std::path::Path;

use anyhow::{bail, Context, Result};
use portal_core::dist::manifest::{Manifest, MANIFEST_FILE};
use sha2::{Digest, Sha256};

use crate::build::hosting::upload::{self, Layout, Upload};
use crate::build::write::sink::Outputs;

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

    /// Every group but the layout: those a build keeps a table of outputs for, in order (each
    /// collection, then the others).
    pub fn tabled() -> impl Iterator<Item = Group> {
        let collections = portal_core::content::collections::COLLECTIONS.iter().map(|c| Group::Collection(c));
        collections.chain([
            Group::Encyclopedia,
            Group::Taxonomy,
            Group::Search,
            Group::Statics,
            Group::Site,
            Group::Theme,
        ])
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
    pub fn with_source(mut self, source: &str) -> Self {
        if !source.is_empty() {
            self.source = Some(source.to_string());
        }
        self
    }
}

/// A strong entity tag of some bytes.
pub fn etag(bytes: &[u8]) -> String {
    etag_of_digest(&Sha256::digest(bytes))
}

/// The entity tag of bytes whose SHA-256 is `digest`: the start of it, in hex and quotes.
pub fn etag_of_digest(digest: &[u8]) -> String {
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

/// Finishes a clean build in `staging`: the manifest, what a Worker upload needs besides (see
/// [`upload`]), then the switch of the output folder to the staged build (see [`crate::build::write::staging`]).
pub fn write(
    staging: crate::build::write::staging::Staging,
    files: &mut Outputs,
    manifest: &Manifest,
    layout: Layout,
) -> Result<(WriteStats, Upload)> {
    let manifest_bytes = serde_json::to_vec(manifest).context("serialising the manifest")?;
    files.push(OutFile::internal(MANIFEST_FILE, manifest_bytes).in_group(Group::Layout));
    let upload = upload::prepare(files, layout)?;
    files.finish()?;
    let made = files.made();
    for pair in made.windows(2) {
        if pair[0].file() == pair[1].file() {
            bail!("two outputs would be written to {}; rename one of the records", pair[0].file());
        }
    }
    let switched = staging.switch(made, files.pool())?;
    let bytes = made.iter().map(|w| w.len).sum();
    let stats = WriteStats {
        files: made.len(),
        bytes,
        written: switched.written,
        removed: switched.removed,
        uploaded: upload.uploaded(),
    };
    Ok((stats, upload))
}

/// Refuses to write into a non-empty folder that is not a previous build (it would be pruned).
pub fn guard_output_folder(out: &Path) -> Result<()> {
    let Ok(mut entries) = std::fs::read_dir(out) else { return Ok(()) };
    if entries.next().is_some() && !out.join(MANIFEST_FILE).exists() {
        bail!(
            "{} is not empty and was not written by `portal build` (no {MANIFEST_FILE}); \
             choose another --out folder or empty this one",
            out.display()
        );
    }
    Ok(())
}
