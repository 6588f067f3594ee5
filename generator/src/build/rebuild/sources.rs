//! The record and entry files of a content folder, with the size and modification time a rebuild
//! compares with the last build's to tell what changed (a file whose size and time are the same is
//! not read again). Listed by the loader's own functions, so both name files alike.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use portal_core::content::collections::{COLLECTIONS, ENCYCLOPEDIA};
use rayon::prelude::*;

use super::state::Source;
use crate::load::records::{self, Format};
use crate::load::{self, encyclopedia};

/// One record or entry file found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    /// Its collection (`entries` for the encyclopedia).
    pub collection: &'static str,
    /// Its size in bytes.
    pub size: u64,
    /// Its modification time, in nanoseconds since the epoch; for a row of a source, the row's
    /// digest.
    pub modified: u128,
}

/// Every record and entry file of `root`, by the name the loader gives it; `None` when listing
/// found a problem (a stray file, an unknown folder, a folder it cannot read), which only a clean
/// build reports. Lists the same files as the loader (hidden files skipped, nested folders of
/// collections walked, links not followed), reading each folder once and each file's size and
/// time relative to its folder, the collections in parallel.
pub fn scan(root: &Path) -> Option<BTreeMap<String, Found>> {
    let mut folders: Vec<(&'static str, PathBuf)> = Vec::new();
    for entry in std::fs::read_dir(root).ok()? {
        let entry = entry.ok()?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') || !entry.file_type().ok()?.is_dir() {
            continue;
        }
        if let Some(collection) = COLLECTIONS.iter().find(|c| **c == name) {
            folders.push((collection, root.join(collection)));
        } else if name == encyclopedia::FOLDER {
            folders.push((ENCYCLOPEDIA, root.join(encyclopedia::FOLDER)));
        } else if !load::OTHER_FOLDERS.contains(&name.as_str()) {
            return None;
        }
    }
    let lists: Vec<Vec<(String, Found)>> = folders
        .par_iter()
        .map(|(collection, dir)| walk(collection, dir, *collection == ENCYCLOPEDIA))
        .collect::<Option<_>>()?;
    Some(lists.into_iter().flatten().collect())
}

/// The record files under `dir` (only directly in it when `flat`: entries are not nested).
fn walk(collection: &'static str, dir: &Path, flat: bool) -> Option<Vec<(String, Found)>> {
    let accepted: &[Format] = if flat { &[Format::Markdown] } else { &[Format::Markdown, Format::Yaml, Format::Json] };
    let mut out = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(folder) = pending.pop() {
        for entry in std::fs::read_dir(&folder).ok()? {
            let entry = entry.ok()?;
            if entry.file_name().to_string_lossy().starts_with('.') {
                continue;
            }
            let path = entry.path();
            // The encyclopedia's loader follows links (a linked file is an entry); collections' do not.
            let kind = if flat { std::fs::metadata(&path).ok()?.file_type() } else { entry.file_type().ok()? };
            if kind.is_dir() {
                if flat {
                    return None;
                }
                pending.push(path);
            } else if kind.is_file() {
                if records::stray_file(&path, accepted).is_some() {
                    return None;
                }
                let meta = if flat { std::fs::metadata(&path).ok()? } else { entry.metadata().ok()? };
                let modified = meta.modified().ok()?.duration_since(std::time::UNIX_EPOCH).ok()?.as_nanos();
                out.push((path.display().to_string(), Found { collection, size: meta.len(), modified }));
            }
        }
    }
    Some(out)
}

/// `found` with the rows of the site's sources (place, collection, digest): each row is compared
/// with the last build's like a file, its digest standing for its size and time, so a changed row
/// is read again and nothing else (docs/content.md#sources).
pub fn with_rows(
    mut found: BTreeMap<String, Found>,
    rows: impl IntoIterator<Item = crate::load::SourceRow>,
) -> BTreeMap<String, Found> {
    found.extend(
        rows.into_iter().map(|(place, collection, digest)| (place, Found { collection, size: 0, modified: digest })),
    );
    found
}

/// Whether `found` is the file the last build read as `source`.
pub fn unchanged(found: &Found, source: &Source) -> bool {
    found.size == source.size && found.modified == source.modified
}
