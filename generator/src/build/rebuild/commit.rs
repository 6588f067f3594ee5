//! Writing a rebuild: the files that differ from the last build's, the layout patched, the files
//! no longer made removed, the manifest head last, then the state for the next rebuild.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::time::Instant;

use anyhow::{Context, Result};
use portal_core::content::time::DateTime;
use portal_core::dist::manifest::{Manifest, MANIFEST_FILE};
use rayon::prelude::*;

use super::layout;
use super::save::card_group;
use super::state::{self, Head, Output, Source};
use super::write::Redo;
use super::Work;
use crate::build::documents::search::FlatRanges;
use crate::build::write::file::{Group, OutFile, WriteStats};
use crate::build::{BuildError, BuildReport};

/// What a rebuild has made, to be written and kept.
pub struct State {
    /// The pages of each sitemap section.
    pub sections: BTreeMap<String, Vec<String>>,
    /// The new table of each group made again.
    pub tables: BTreeMap<Group, Vec<Output>>,
    /// The manifest head.
    pub manifest: Manifest,
    /// URLs served, in all.
    pub total: usize,
    /// The build time.
    pub now: DateTime,
    /// Each collection's range in the flat index.
    pub flat_ranges: FlatRanges,
}

/// How the folder changed: files created and removed, bytes more or fewer, files written.
#[derive(Debug, Default)]
struct Tally {
    created: usize,
    removed: usize,
    written: usize,
    bytes: i64,
}

/// Writes the rebuild; `None` (having written nothing) when the layout cannot be patched.
pub fn commit(
    work: Work,
    redo: &Redo,
    files: Vec<OutFile>,
    layout_files: Vec<OutFile>,
    made: State,
    started: Instant,
) -> Result<Option<BuildReport>, BuildError> {
    let out = work.options.out.clone();
    let mut files: Vec<OutFile> = files.into_iter().chain(layout_files).collect();
    let manifest = serde_json::to_vec(&made.manifest).context("serialising the manifest")?;
    files.push(OutFile::internal(MANIFEST_FILE, manifest).in_group(Group::Layout));
    let differing: Vec<bool> = files.par_iter().map(|f| differs(&out.join(&f.file), &f.bytes)).collect();
    let written: Vec<&OutFile> = files.iter().zip(&differing).filter(|(_, d)| **d).map(|(f, _)| f).collect();
    let gone = gone(redo, &made.tables);
    let mut upload = work.head.upload.clone();
    let Some(patch) = layout::patch(&out, work.options.layout, &mut upload, &written, &gone)? else {
        return Ok(None);
    };
    let mut tally = Tally::default();
    let (head_file, site): (Vec<&OutFile>, Vec<&OutFile>) = written.into_iter().partition(|f| f.file == MANIFEST_FILE);
    let layout: Vec<&OutFile> = patch.write.iter().filter(|f| differs(&out.join(&f.file), &f.bytes)).collect();
    for file in site.iter().chain(&layout) {
        write(&out, file, &mut tally)?;
    }
    for file in gone.iter().chain(&patch.remove) {
        remove(&out, file, &mut tally)?;
    }
    for file in head_file {
        write(&out, file, &mut tally)?;
    }
    upload.files = (upload.files + tally.created).saturating_sub(tally.removed);
    let report = keep(work, made, upload, &tally, started)?;
    Ok(Some(report))
}

/// Whether `bytes` differ from the file at `path` (a missing file differs).
fn differs(path: &Path, bytes: &[u8]) -> bool {
    match std::fs::metadata(path) {
        Ok(meta) if meta.len() == bytes.len() as u64 => std::fs::read(path).map_or(true, |old| old != bytes),
        _ => true,
    }
}

/// Files of the groups made again that the last build wrote and this one does not.
fn gone(redo: &Redo, tables: &BTreeMap<Group, Vec<Output>>) -> BTreeSet<String> {
    let now: BTreeSet<&str> = tables.values().flatten().map(|o| o.file.as_str()).collect();
    redo.old.values().flatten().map(|o| o.file.as_str()).filter(|f| !now.contains(f)).map(str::to_string).collect()
}

fn write(out: &Path, file: &OutFile, tally: &mut Tally) -> Result<()> {
    let path = out.join(&file.file);
    let before = std::fs::metadata(&path).ok().map(|m| m.len());
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).with_context(|| format!("creating {}", parent.display()))?;
    }
    let temporary = path.with_extension("portal-tmp");
    std::fs::write(&temporary, &file.bytes).with_context(|| format!("writing {}", temporary.display()))?;
    std::fs::rename(&temporary, &path).with_context(|| format!("writing {}", path.display()))?;
    tally.written += 1;
    tally.created += usize::from(before.is_none());
    tally.bytes += file.bytes.len() as i64 - before.unwrap_or(0) as i64;
    Ok(())
}

/// Removes a file of the build, or a folder of parts, and the folders it leaves empty.
fn remove(out: &Path, file: &str, tally: &mut Tally) -> Result<()> {
    let path = out.join(file);
    let Ok(meta) = std::fs::symlink_metadata(&path) else { return Ok(()) };
    if meta.is_dir() {
        for entry in walkdir::WalkDir::new(&path).into_iter().filter_map(Result::ok).filter(|e| e.file_type().is_file())
        {
            tally.removed += 1;
            tally.bytes -= entry.metadata().map_or(0, |m| m.len() as i64);
        }
        std::fs::remove_dir_all(&path).with_context(|| format!("removing {}", path.display()))?;
    } else {
        std::fs::remove_file(&path).with_context(|| format!("removing {}", path.display()))?;
        tally.removed += 1;
        tally.bytes -= meta.len() as i64;
    }
    let mut parent = path.parent();
    while let Some(folder) = parent.filter(|p| *p != out) {
        if std::fs::remove_dir(folder).is_err() {
            break;
        }
        parent = folder.parent();
    }
    Ok(())
}

/// Keeps the state for the next rebuild and says what the build did.
fn keep(
    work: Work,
    made: State,
    upload: crate::build::hosting::upload::Upload,
    tally: &Tally,
    started: Instant,
) -> Result<BuildReport> {
    let state = work.state.as_path();
    let touched: BTreeSet<String> = work
        .old
        .values()
        .map(|card| card.collection.clone())
        .chain(work.model.all().filter(|c| work.read.contains(&c.file)).map(|c| c.collection.clone()))
        .collect();
    let saved = save_groups(&work, &made, &touched);
    let mut sources = work.head.sources.clone();
    sources.retain(|file, _| work.found.contains_key(file));
    let warnings: BTreeMap<&str, Vec<(usize, String)>> = work
        .loaded_warnings
        .iter()
        .map(|(file, w)| (file.as_str(), w.iter().map(|e| (e.line, e.message.clone())).collect()))
        .collect();
    for file in &work.read {
        if let Some(found) = work.found.get(file) {
            let warnings = warnings.get(file.as_str()).cloned().unwrap_or_default();
            let source = Source {
                collection: found.collection.to_string(),
                size: found.size,
                modified: found.modified,
                warnings,
            };
            sources.insert(file.clone(), source);
        }
    }
    let report_warnings = all_warnings(&sources, &work.head.site_warnings);
    let bytes = (work.head.bytes as i64 + tally.bytes).max(0) as u64;
    let stats = WriteStats {
        files: upload.files,
        bytes,
        written: tally.written,
        removed: tally.removed,
        uploaded: upload.uploaded(),
    };
    let gone = work.head.sources.iter().filter(|(file, _)| !work.found.contains_key(*file));
    let read = work.read.iter().filter_map(|file| work.found.get(file)).map(|f| card_group(f.collection));
    let changed = state::Changed {
        sources: Some(gone.map(|(_, source)| card_group(&source.collection)).chain(read).collect()),
        sitemap: made.sections != work.head.sitemap,
    };
    let head = Head {
        sources,
        now: made.now,
        flat_ranges: made.flat_ranges,
        sitemap: made.sections,
        routes: made.total,
        bytes,
        upload,
        stamp: state::stamp(&work.options.out),
        ..work.head
    };
    // The output is written: a cache that cannot be kept only makes the next build a clean one.
    if let Err(e) = saved.and_then(|()| state::save_head(state, &head, &changed, card_group)) {
        crate::build::cache_warning(state, &e);
    }
    let report = BuildReport {
        collections: work.model.collections.iter().map(|(name, cards)| (*name, cards.len())).collect(),
        entries: work.model.entries.len(),
        write: stats,
        warnings: report_warnings,
        elapsed: started.elapsed(),
        rebuilt: true,
    };
    crate::build::free_later((work.model, work.content));
    Ok(report)
}

/// Keeps the cards of the `touched` collections and the tables of the groups made again.
fn save_groups(work: &Work, made: &State, touched: &BTreeSet<String>) -> Result<()> {
    for name in touched {
        let group = card_group(name);
        let cards = if name == portal_core::content::collections::ENCYCLOPEDIA {
            &work.model.entries[..]
        } else {
            work.model.cards(name)
        };
        state::save_cards(&work.state, &group, cards)?;
    }
    for (group, table) in &made.tables {
        state::save_outputs(&work.state, &group.name(), table)?;
    }
    Ok(())
}

/// Every warning of the build, sorted as a clean build reports them.
fn all_warnings(
    sources: &BTreeMap<String, Source>,
    site: &[(String, usize, String)],
) -> Vec<portal_core::content::ContentError> {
    let mut warnings: Vec<portal_core::content::ContentError> =
        sources.iter().flat_map(|(file, source)| state::warnings_of(file, source)).collect();
    warnings.extend(
        site.iter().map(|(file, line, message)| portal_core::content::ContentError::new(file, *line, message.clone())),
    );
    warnings.sort();
    warnings
}
