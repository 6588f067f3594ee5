//! The inputs every page depends on, hashed: when any of them changes, a rebuild cannot keep
//! anything and the build is a clean one. They are the binary itself (its build id, see
//! `build.rs`), `site.yaml`, the templates folder, the interface text (`content/i18n/`), the
//! datasets, places and skills (the API description lists their values), the files of the
//! site's `sources:`, the static files (by
//! name, size and modification time: pages show their sizes and variants), and the build's own
//! options.

use std::path::Path;

use anyhow::{Context, Result};
use sha2::{Digest, Sha256};

use crate::build::BuildOptions;
use crate::load::{data, i18n, skills, spatial, statics};

/// The binary's build id (see `build.rs`).
pub const BUILD_ID: &str = env!("PORTAL_BUILD_ID");

/// A hash of every input that shapes every page.
pub fn hash(options: &BuildOptions) -> Result<[u8; 32]> {
    let mut hasher = Sha256::new();
    let mut part = |bytes: &[u8]| {
        hasher.update((bytes.len() as u64).to_le_bytes());
        hasher.update(bytes);
    };
    part(BUILD_ID.as_bytes());
    part(format!("{:?} {} {:?}", options.base_url, options.drafts, options.layout).as_bytes());
    let site = options.content.join("site.yaml");
    part(&std::fs::read(&site).unwrap_or_default());
    if let Some(templates) = &options.templates {
        tree(templates, true, &mut part)?;
    }
    for folder in [i18n::FOLDER, data::FOLDER, spatial::FOLDER, skills::FOLDER] {
        tree(&options.content.join(folder), true, &mut part)?;
    }
    tree(&options.content.join(statics::FOLDER), false, &mut part)?;
    // A source's rows are records: any change to one builds clean (docs/content.md#sources).
    if let Ok(site) = crate::load::site::load(&options.content) {
        for file in crate::load::sources::files(&options.content, &site) {
            part(file.to_string_lossy().as_bytes());
            part(&std::fs::read(&file).unwrap_or_default());
        }
        // One read from an address (an HSDS API) may change with nothing here changing: every
        // build reads it again, clean.
        if site.sources.iter().any(|s| s.from.starts_with("http://") || s.from.starts_with("https://")) {
            let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
            part(&now.as_nanos().to_le_bytes());
        }
    }
    Ok(hasher.finalize().into())
}

/// Feeds every file under `dir` (its path and, with `bytes`, its content, else its size and
/// modification time) to `part`, in path order. A missing folder feeds nothing.
fn tree(dir: &Path, bytes: bool, part: &mut impl FnMut(&[u8])) -> Result<()> {
    if !dir.is_dir() {
        return Ok(());
    }
    for entry in walkdir::WalkDir::new(dir).sort_by_file_name() {
        let entry = entry.with_context(|| format!("reading {}", dir.display()))?;
        if !entry.file_type().is_file() {
            continue;
        }
        part(entry.path().to_string_lossy().as_bytes());
        let meta = entry.metadata().with_context(|| format!("reading {}", entry.path().display()))?;
        // A file too big to load is never read whole here either: the load refuses it by name.
        if bytes && meta.len() <= portal_core::content::limits::MAX_OTHER_FILE_BYTES {
            part(&std::fs::read(entry.path()).with_context(|| format!("reading {}", entry.path().display()))?);
        } else {
            part(format!("{} {:?}", meta.len(), meta.modified().ok()).as_bytes());
        }
    }
    Ok(())
}
