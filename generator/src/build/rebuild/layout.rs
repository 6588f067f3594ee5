//! The upload layout after a rebuild (see `upload`): parts for the files written now that pass
//! the size limit (and none left for those that no longer do), the packs holding a file that
//! changed, came or went planned again from their natural boundaries, and `.assetsignore`. The
//! same plans as a clean build's, so the same bytes.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use anyhow::{Context, Result};
use portal_core::dist::packs::{self, PackIndex, PACK_INDEX};
use portal_core::dist::parts;

use crate::build::hosting::upload::{self, Layout, Upload, ASSETS_IGNORE};
use crate::build::write::file::{Group, OutFile};

/// What the layout changes: files to write and files to remove.
#[derive(Debug, Default)]
pub struct Patch {
    /// Files to write (parts, packs, the pack index, `.assetsignore`).
    pub write: Vec<OutFile>,
    /// Files to remove (parts of files no longer split, packs no longer planned).
    pub remove: Vec<String>,
}

/// The parts the last build split `file` into, by its index in `out` (none when unreadable).
fn last_parts(out: &Path, file: &str) -> Vec<String> {
    let index = std::fs::read(out.join(parts::index_file(file))).unwrap_or_default();
    serde_json::from_slice::<parts::PartsIndex>(&index).map(|index| index.parts).unwrap_or_default()
}

/// The layout after `written` (files whose bytes are new, with those bytes) and `removed` (files
/// gone), updating `upload`. `None` when the change is too large for a patch (the build's
/// packing or pack spacing would change): then only a clean build will do.
pub fn patch(
    out: &Path,
    layout: Layout,
    upload: &mut Upload,
    written: &[&OutFile],
    removed: &BTreeSet<String>,
) -> Result<Option<Patch>> {
    let mut patch = Patch::default();
    let mut split = upload.split.clone();
    for file in written {
        let old_parts = split.remove(&file.file);
        if parts::splits(&file.file, file.bytes.len(), layout.split_over) {
            let part_bytes = layout.split_over.clamp(1, parts::PART_BYTES);
            let new_parts = parts::split(&file.file, &file.bytes, part_bytes);
            if old_parts {
                // A file that shrank leaves fewer parts: the last build's others go.
                let names: BTreeSet<&str> = new_parts.iter().map(|(name, _)| name.as_str()).collect();
                patch.remove.extend(last_parts(out, &file.file).into_iter().filter(|p| !names.contains(p.as_str())));
            }
            for (name, bytes) in new_parts {
                patch.write.push(OutFile::internal(name, bytes).in_group(Group::Layout));
            }
            split.insert(file.file.clone());
        } else if old_parts {
            patch.remove.push(format!("{}/{}", parts::PARTS_DIR, file.file));
        }
    }
    for file in removed {
        if split.remove(file) {
            patch.remove.push(format!("{}/{}", parts::PARTS_DIR, file));
        }
    }
    upload.split = split;
    if upload.packed {
        match repack(out, upload, written, removed)? {
            Some((files, gone)) => {
                patch.write.extend(files);
                patch.remove.extend(gone);
            }
            None => return Ok(None),
        }
    }
    let ignore = upload::assets_ignore(upload);
    patch.write.push(OutFile::internal(ASSETS_IGNORE, ignore.into_bytes()).in_group(Group::Layout));
    Ok(Some(patch))
}

/// Packs planned again: a run of the index's entries (start, end) and the entries replacing it.
type Replaced = (usize, usize, Vec<(String, String)>);

/// The packs holding a file of `written` or `removed`, planned again; their files and the packs
/// that go. `None` when the spacing of the packs would change.
fn repack(
    out: &Path,
    upload: &mut Upload,
    written: &[&OutFile],
    removed: &BTreeSet<String>,
) -> Result<Option<(Vec<OutFile>, Vec<String>)>> {
    let index_file = out.join(PACK_INDEX);
    let bytes = std::fs::read(&index_file).with_context(|| format!("reading {}", index_file.display()))?;
    let mut index: PackIndex =
        serde_json::from_slice(&bytes).with_context(|| format!("reading {}", index_file.display()))?;
    // Every file packable by its path that changed or went leaves its pack; those written small
    // (and not in parts) join the packs again, the others are loose.
    let touched: BTreeSet<&str> = written
        .iter()
        .map(|f| f.file.as_str())
        .chain(removed.iter().map(String::as_str))
        .filter(|f| packs::packable(f, 0))
        .collect();
    if touched.is_empty() {
        return Ok(Some((Vec::new(), Vec::new())));
    }
    let mut fresh: BTreeMap<&str, &[u8]> = BTreeMap::new();
    for file in written.iter().filter(|f| touched.contains(f.file.as_str())) {
        index.loose.remove(&file.file);
        if upload.split.contains(&file.file) || !packs::packable(&file.file, file.bytes.len()) {
            index.loose.insert(file.file.clone());
        } else {
            fresh.insert(file.file.as_str(), file.bytes.as_slice());
        }
    }
    for file in removed {
        index.loose.remove(file);
    }
    let (mut files, mut gone, mut in_packs) = (Vec::new(), Vec::new(), upload.in_packs);
    let mut replaced: Vec<Replaced> = Vec::new();
    for (start, end) in regions(&index, &touched) {
        let mut members: BTreeMap<String, Vec<u8>> = BTreeMap::new();
        for (_, pack) in &index.packs[start..end] {
            members.extend(read_pack(out, pack)?);
            gone.push(pack.clone());
        }
        in_packs -= members.len();
        let high = index.packs.get(end).map(|(first, _)| first.as_str());
        let low = index.packs.get(start).map(|(first, _)| first.as_str()).filter(|_| start > 0);
        let in_region = |file: &str| low.is_none_or(|l| file >= l) && high.is_none_or(|h| file < h);
        for file in touched.iter().filter(|f| in_region(f)) {
            members.remove(*file);
            if let Some(bytes) = fresh.get(file) {
                members.insert(file.to_string(), bytes.to_vec());
            }
        }
        in_packs += members.len();
        let (made, listed) = plan(&members, index.spacing);
        files.extend(made);
        replaced.push((start, end, listed));
    }
    for (start, end, listed) in replaced.into_iter().rev() {
        index.packs.splice(start..end, listed);
    }
    if packs::spacing(in_packs) != index.spacing {
        return Ok(None);
    }
    upload.in_packs = in_packs;
    upload.big = index.loose.iter().filter(|f| !upload.split.contains(*f)).cloned().collect();
    let made: BTreeSet<String> = files.iter().map(|f: &OutFile| f.file.clone()).collect();
    gone.retain(|pack| !made.contains(pack));
    files.push(OutFile::internal(PACK_INDEX, serde_json::to_vec(&index)?).in_group(Group::Layout));
    Ok(Some((files, gone)))
}

/// The runs of packs (index ranges) to plan again for `touched` files: from the last pack that
/// starts at a natural boundary before a file to the next one after it, merged.
fn regions(index: &PackIndex, touched: &BTreeSet<&str>) -> Vec<(usize, usize)> {
    let natural = |i: usize| i == 0 || packs::starts_pack(&index.packs[i].0, index.spacing);
    let mut regions: Vec<(usize, usize)> = Vec::new();
    for file in touched {
        let before = index.packs.partition_point(|(first, _)| first.as_str() < *file);
        let mut start = before.saturating_sub(1);
        while !natural(start) {
            start -= 1;
        }
        let mut end = index.packs.partition_point(|(first, _)| first.as_str() <= *file);
        while end < index.packs.len() && !natural(end) {
            end += 1;
        }
        match regions.last_mut() {
            Some(last) if start <= last.1 => last.1 = last.1.max(end),
            _ => regions.push((start, end)),
        }
    }
    regions
}

/// The members of the pack file `pack`.
fn read_pack(out: &Path, pack: &str) -> Result<Vec<(String, Vec<u8>)>> {
    let path = out.join(pack);
    let bytes = std::fs::read(&path).with_context(|| format!("reading {}", path.display()))?;
    packs::members(&bytes).with_context(|| format!("reading {}", path.display()))
}

/// Packs of `members` (a run starting at a natural boundary, all small): the pack files and
/// their index entries.
fn plan(members: &BTreeMap<String, Vec<u8>>, spacing: u32) -> (Vec<OutFile>, Vec<(String, String)>) {
    let small: Vec<(&String, &Vec<u8>)> = members.iter().collect();
    let mut files = Vec::new();
    let mut listed = Vec::new();
    for range in packs::plan(small.iter().map(|(f, b)| (f.as_str(), b.len())), spacing) {
        let members: Vec<(&str, &[u8])> = small[range].iter().map(|(f, b)| (f.as_str(), b.as_slice())).collect();
        let name = packs::pack_file(members[0].0);
        files.push(OutFile::internal(name.clone(), packs::encode(&members)).in_group(Group::Layout));
        listed.push((members[0].0.to_string(), name));
    }
    (files, listed)
}
