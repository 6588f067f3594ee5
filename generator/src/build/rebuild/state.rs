//! What a build keeps for the next one, in its state folder of the build cache (outside the output
//! folder: see `BuildOptions::state_dir`, and docs/deploying.md#rebuilds-and-the-build-cache): a
//! small head read by every rebuild, the cards of each collection (the model every aggregate is
//! made from), and each group's table of outputs, read only when the group has something to redo.
//! Written with `bincode`, a compact binary form that reads back in milliseconds.
//!
//! Everything is written after the build's output, so a build that fails leaves the state of the
//! last good one; a state that cannot be read (another version, a damaged file) just means a
//! clean build.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use portal_core::content::time::DateTime;
use portal_core::content::ContentError;
use portal_core::dist::manifest::MANIFEST_FILE;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::build::hosting::upload::Upload;
use crate::build::model::Card;

/// Bumped whenever anything kept here changes shape.
pub const FORMAT: u32 = 2;

/// One record or entry file as the last build saw it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Source {
    /// Its collection (`entries` for the encyclopedia).
    pub collection: String,
    /// Its size in bytes.
    pub size: u64,
    /// Its modification time, in nanoseconds since the epoch.
    pub modified: u128,
    /// The warnings it gave, as `(line, message)`.
    pub warnings: Vec<(usize, String)>,
}

/// The head of the state: read by every build into a folder that has one.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Head {
    /// [`FORMAT`].
    pub format: u32,
    /// A hash of every input that shapes every page (see `rebuild::inputs`).
    pub inputs: [u8; 32],
    /// The build time.
    pub now: DateTime,
    /// Record and entry files, by the name the loader gives them (kept in a file per collection,
    /// see [`save_head`]).
    #[serde(skip)]
    pub sources: BTreeMap<String, Source>,
    /// Each collection's byte range in `/api/search-index.json` (collections in name order, then
    /// `entries`), so a rebuild copies the ranges of collections that did not change.
    pub flat_ranges: BTreeMap<String, (usize, usize)>,
    /// The page URLs of each sitemap section (see `pages::sitemap`; kept in a file of its own).
    #[serde(skip)]
    pub sitemap: BTreeMap<String, Vec<String>>,
    /// URLs the build serves, in all.
    pub routes: usize,
    /// Bytes of every file written, in all.
    pub bytes: u64,
    /// Warnings of the last build not about a record or entry file (site settings, `base_url`).
    pub site_warnings: Vec<(String, usize, String)>,
    /// The upload layout.
    pub upload: Upload,
    /// The size and time of the output folder's manifest this state was saved with: a folder
    /// whose manifest is another (removed, copied over, built by another cache) is built clean.
    pub stamp: Stamp,
}

/// The size and modification time (nanoseconds since the epoch) of a build's manifest.
pub type Stamp = Option<(u64, u128)>;

/// The stamp of the build in `out` now.
pub fn stamp(out: &Path) -> Stamp {
    let meta = std::fs::metadata(out.join(MANIFEST_FILE)).ok()?;
    let modified = meta.modified().ok()?.duration_since(std::time::UNIX_EPOCH).ok()?;
    Some((meta.len(), modified.as_nanos()))
}

/// One output file as a group's table keeps it: what the manifest says of it, and what made it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Output {
    /// The file, relative to the build folder.
    pub file: String,
    /// The URL it is served at, if any.
    pub route: Option<String>,
    /// Its media type.
    pub content_type: String,
    /// Its header set.
    pub headers: Option<String>,
    /// Its markdown twin.
    pub markdown: Option<String>,
    /// Its entity tag (a hash of its bytes).
    pub etag: String,
    /// Its size in bytes.
    pub len: u64,
    /// The content file it was made from, if one.
    pub source: Option<String>,
    /// A hash of what it was rendered from, when a rebuild can tell unchanged pages by it.
    pub key: Option<[u8; 32]>,
}

fn head_file(state: &Path) -> PathBuf {
    state.join("head.bin")
}

fn cards_file(state: &Path, group: &str) -> PathBuf {
    state.join("cards").join(format!("{group}.bin"))
}

fn outputs_file(state: &Path, group: &str) -> PathBuf {
    state.join("outputs").join(format!("{group}.bin"))
}

fn read<T: DeserializeOwned>(path: &Path) -> Result<T> {
    let bytes = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
    bincode::deserialize(&bytes).with_context(|| format!("reading {}", path.display()))
}

fn write<T: Serialize>(path: &Path, value: &T) -> Result<()> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).with_context(|| format!("creating {}", parent.display()))?;
    }
    let bytes = bincode::serialize(value).with_context(|| format!("writing {}", path.display()))?;
    let temporary = path.with_extension("tmp");
    std::fs::write(&temporary, bytes).with_context(|| format!("writing {}", temporary.display()))?;
    std::fs::rename(&temporary, path).with_context(|| format!("writing {}", path.display()))
}

fn sources_file(state: &Path, group: &str) -> PathBuf {
    state.join("sources").join(format!("{group}.bin"))
}

fn sitemap_file(state: &Path) -> PathBuf {
    state.join("sitemap.bin")
}

/// The head of the last build into `out`, if it left one this version can read, with its sources
/// (read from their files in parallel) and sitemap.
pub fn head(state: &Path) -> Option<Head> {
    use rayon::prelude::*;
    let mut head = read::<Head>(&head_file(state)).ok().filter(|head| head.format == FORMAT)?;
    let listed = std::fs::read_dir(state.join("sources")).into_iter().flatten().flatten();
    let files: Vec<PathBuf> = listed.map(|e| e.path()).filter(|p| p.extension().is_some_and(|e| e == "bin")).collect();
    let parts: Vec<BTreeMap<String, Source>> = files.par_iter().map(|path| read(path).ok()).collect::<Option<_>>()?;
    head.sources = parts.into_iter().flatten().collect();
    head.sitemap = read(&sitemap_file(state)).ok()?;
    Some(head)
}

/// What of the head changed since the state was read, to be written again.
#[derive(Debug, Clone, Default)]
pub struct Changed {
    /// The groups (see `save::card_group`) whose sources changed; `None`: all of them.
    pub sources: Option<BTreeSet<String>>,
    /// Whether the sitemap changed.
    pub sitemap: bool,
}

/// Writes the head: the sources of the groups and the sitemap that `changed`, then the head itself
/// (last: it vouches for the cards and tables written before it).
pub fn save_head(state: &Path, head: &Head, changed: &Changed, group_of: impl Fn(&str) -> String) -> Result<()> {
    let mut groups: BTreeMap<String, BTreeMap<&String, &Source>> = BTreeMap::new();
    if let Some(only) = &changed.sources {
        for group in only {
            groups.insert(group.clone(), BTreeMap::new());
        }
    }
    for (file, source) in &head.sources {
        let group = group_of(&source.collection);
        if changed.sources.as_ref().is_none_or(|only| only.contains(&group)) {
            groups.entry(group).or_default().insert(file, source);
        }
    }
    if changed.sources.is_none() {
        let _ = std::fs::remove_dir_all(state.join("sources"));
    }
    for (group, sources) in &groups {
        write(&sources_file(state, group), sources)?;
    }
    if changed.sitemap {
        write(&sitemap_file(state), &head.sitemap)?;
    }
    write(&head_file(state), head)
}

/// Notes which output folder `state` belongs to, and removes the states beside it whose output
/// folders are gone (builds into temporary folders would otherwise pile up in the cache).
pub fn claim(state: &Path, out: &Path) -> Result<()> {
    std::fs::create_dir_all(state).with_context(|| format!("creating {}", state.display()))?;
    let out = std::path::absolute(out).unwrap_or_else(|_| out.to_path_buf());
    std::fs::write(state.join(OUTPUT_FILE), out.as_os_str().as_encoded_bytes())
        .with_context(|| format!("writing {}", state.display()))?;
    let siblings = state.parent().and_then(|root| std::fs::read_dir(root).ok()).into_iter().flatten().flatten();
    for sibling in siblings.map(|e| e.path()).filter(|p| p != state) {
        let Ok(output) = std::fs::read(sibling.join(OUTPUT_FILE)) else { continue };
        if !Path::new(&*String::from_utf8_lossy(&output)).join(MANIFEST_FILE).exists() {
            let _ = std::fs::remove_dir_all(&sibling);
        }
    }
    Ok(())
}

/// The file of a state naming its output folder.
const OUTPUT_FILE: &str = "output";

/// Forgets the state (before a build that will not save one: a clean one that fails half way).
pub fn forget(state: &Path) {
    let _ = std::fs::remove_file(head_file(state));
}

/// The cards of `group` (a collection's name, or `entries`).
pub fn cards(state: &Path, group: &str) -> Result<Vec<Card>> {
    read(&cards_file(state, group))
}

/// Keeps the cards of `group`.
pub fn save_cards(state: &Path, group: &str, cards: &[Card]) -> Result<()> {
    write(&cards_file(state, group), &cards)
}

/// The output table of `group`.
pub fn outputs(state: &Path, group: &str) -> Result<Vec<Output>> {
    read(&outputs_file(state, group))
}

/// Keeps the output table of `group`.
pub fn save_outputs(state: &Path, group: &str, outputs: &[Output]) -> Result<()> {
    write(&outputs_file(state, group), &outputs)
}

/// Removes the cards and table of groups not in `keep` (a collection that became empty keeps an
/// empty table; anything else found is from an older layout).
pub fn prune(state: &Path, keep: &BTreeSet<String>) {
    for kind in ["cards", "outputs"] {
        let Ok(entries) = std::fs::read_dir(state.join(kind)) else { continue };
        for entry in entries.flatten() {
            let name = entry.path().file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
            if !keep.contains(&name) {
                let _ = std::fs::remove_file(entry.path());
            }
        }
    }
}

/// The warnings of a source, as the build reports them.
pub fn warnings_of(file: &str, source: &Source) -> Vec<ContentError> {
    source.warnings.iter().map(|(line, message)| ContentError::new(file, *line, message.clone())).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_head_round_trips_and_another_format_is_no_state() {
        let dir = tempfile::tempdir().expect("temp dir");
        assert!(head(dir.path()).is_none());
        let mut kept = Head {
            format: FORMAT,
            inputs: [7; 32],
            now: DateTime::from_unix(1_790_000_000),
            sources: BTreeMap::new(),
            flat_ranges: BTreeMap::new(),
            sitemap: BTreeMap::new(),
            routes: 3,
            bytes: 0,
            site_warnings: Vec::new(),
            upload: Upload::default(),
            stamp: None,
        };
        let all = Changed { sources: None, sitemap: true };
        save_head(dir.path(), &kept, &all, str::to_string).expect("saved");
        assert_eq!(head(dir.path()).map(|h| h.routes), Some(3));
        kept.format = FORMAT + 1;
        save_head(dir.path(), &kept, &all, str::to_string).expect("saved");
        assert!(head(dir.path()).is_none());
    }
}
