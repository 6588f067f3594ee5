//! The build cache (issue 19): work a build into a folder that holds a previous build may reuse.
//!
//! Exact by construction: an entry is found only by a key that hashes everything that shapes the
//! output (the binary's build id, the templates, site.yaml, the interface text, the navigation, the
//! theme assets, the static files, the drafts flag, and the record itself), so a cached output is
//! byte for byte what rendering would make; when in doubt a key differs and the work is redone.
//! Today it keeps rendered pages (the largest step of a build: records, entries, listings, tag and
//! category pages), keyed by the template, the page's own context and the inputs every page
//! shares; entries live under [`CACHE_DIR`]`/pages/`, and those a build did not use are removed
//! after it.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use anyhow::{Context, Result};
use portal_core::manifest::CACHE_DIR;
use sha2::{Digest, Sha256};

/// The binary's build id (see `build.rs`).
pub const BUILD_ID: &str = env!("PORTAL_BUILD_ID");

/// A key: the SHA-256 of an output's inputs.
pub type Key = [u8; 32];

/// Keys from parts, each length-prefixed so two different splits never collide.
pub fn key(parts: &[&[u8]]) -> Key {
    let mut hasher = Sha256::new();
    for part in parts {
        hasher.update((part.len() as u64).to_le_bytes());
        hasher.update(part);
    }
    hasher.finalize().into()
}

/// Where the entry of `key` lives: `<dir>/<first two hex digits>/<the rest>`.
fn entry_path(dir: &Path, key: &Key) -> PathBuf {
    let name = hex(key);
    dir.join(&name[..2]).join(&name[2..])
}

fn hex(key: &Key) -> String {
    key.iter().map(|b| format!("{b:02x}")).collect()
}

/// A rendered page, as the cache keeps it.
pub type Page = String;

/// The page cache of one build.
#[derive(Debug)]
pub struct PageCache {
    dir: PathBuf,
    used: Mutex<HashSet<Key>>,
    fresh: Mutex<Vec<(Key, Page)>>,
}

impl PageCache {
    /// The cache of the build folder `out` (which may not exist yet).
    pub fn open(out: &Path) -> Self {
        PageCache { dir: out.join(CACHE_DIR).join("pages"), used: Mutex::default(), fresh: Mutex::default() }
    }

    fn path(&self, key: &Key) -> PathBuf {
        entry_path(&self.dir, key)
    }

    /// The page rendered from `key`'s inputs, by an earlier build.
    pub fn get(&self, key: &Key) -> Option<Page> {
        let page = String::from_utf8(std::fs::read(self.path(key)).ok()?).ok()?;
        self.mark_used(key);
        Some(page)
    }

    /// Keeps a page rendered in this build, to be saved by [`PageCache::save`].
    pub fn put(&self, key: Key, page: Page) {
        self.mark_used(&key);
        if let Ok(mut fresh) = self.fresh.lock() {
            fresh.push((key, page));
        }
    }

    fn mark_used(&self, key: &Key) {
        if let Ok(mut used) = self.used.lock() {
            used.insert(*key);
        }
    }

    /// Writes the pages rendered in this build and removes the entries it did not use; called
    /// after the build's output is written, so a failed build leaves the cache as it was.
    pub fn save(self) -> Result<usize> {
        let fresh = self.fresh.into_inner().unwrap_or_default();
        for (key, page) in &fresh {
            let file = entry_path(&self.dir, key);
            if let Some(folder) = file.parent() {
                std::fs::create_dir_all(folder).with_context(|| format!("creating {}", folder.display()))?;
            }
            std::fs::write(&file, page).with_context(|| format!("writing {}", file.display()))?;
        }
        let used = self.used.into_inner().unwrap_or_default();
        let keep: HashSet<String> = used.iter().map(hex).collect();
        for entry in walkdir::WalkDir::new(&self.dir).min_depth(2).max_depth(2).into_iter().filter_map(Result::ok) {
            let name = format!(
                "{}{}",
                entry.path().parent().and_then(Path::file_name).map(|n| n.to_string_lossy()).unwrap_or_default(),
                entry.file_name().to_string_lossy()
            );
            if entry.file_type().is_file() && !keep.contains(&name) {
                let _ = std::fs::remove_file(entry.path());
            }
        }
        Ok(fresh.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_round_trip_and_unused_entries_go() {
        let dir = tempfile::tempdir().expect("temp dir");
        let cache = PageCache::open(dir.path());
        let (a, b) = (key(&[b"a"]), key(&[b"b"]));
        assert_ne!(key(&[b"ab", b"c"]), key(&[b"a", b"bc"]));
        cache.put(a, "<p>é</p>".into());
        cache.put(b, "".into());
        assert_eq!(cache.save().expect("saved"), 2);
        let next = PageCache::open(dir.path());
        assert_eq!(next.get(&a), Some("<p>é</p>".to_string()));
        next.save().expect("saved");
        let last = PageCache::open(dir.path());
        assert!(last.get(&a).is_some() && last.get(&b).is_none());
    }
}
