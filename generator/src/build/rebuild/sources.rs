//! The record and entry files of a content folder, with the size and modification time a rebuild
//! compares with the last build's to tell what changed (a file whose size and time are the same is
//! not read again). Listed by the loader's own functions, so both name files alike.

use std::collections::BTreeMap;
use std::path::Path;

use portal_core::collections::ENCYCLOPEDIA;
use rayon::prelude::*;

use super::state::Source;
use crate::load::{self, encyclopedia};

/// One record or entry file found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    /// Its collection (`entries` for the encyclopedia).
    pub collection: &'static str,
    /// Its size in bytes.
    pub size: u64,
    /// Its modification time, in nanoseconds since the epoch.
    pub modified: u128,
}

/// Every record and entry file of `root`, by the name the loader gives it; `None` when listing
/// found a problem (a stray file, an unknown folder), which only a clean build reports.
pub fn scan(root: &Path) -> Option<BTreeMap<String, Found>> {
    let mut errors = Vec::new();
    let mut files: Vec<(&'static str, std::path::PathBuf)> = load::collect_files(root, &mut errors).ok()?;
    let entries = encyclopedia::entry_files(&root.join(encyclopedia::FOLDER), &mut errors);
    files.extend(entries.into_iter().map(|path| (ENCYCLOPEDIA, path)));
    if !errors.is_empty() {
        return None;
    }
    files
        .par_iter()
        .map(|(collection, path)| {
            let meta = std::fs::metadata(path).ok()?;
            let modified = meta.modified().ok()?.duration_since(std::time::UNIX_EPOCH).ok()?.as_nanos();
            Some((path.display().to_string(), Found { collection, size: meta.len(), modified }))
        })
        .collect()
}

/// Whether `found` is the file the last build read as `source`.
pub fn unchanged(found: &Found, source: &Source) -> bool {
    found.size == source.size && found.modified == source.modified
}
