//! What a Worker deploy of the build folder uploads (issue 19). Cloudflare takes at most 25 MiB a
//! file and 20,000 files a version on the Free plan (100,000 on Paid). Files over the size limit
//! go up in parts (`portal_core::parts`); past `pack_over` files, the small ones go up in packs
//! (`portal_core::packs`); `.assetsignore`, written here, leaves out what those stand in for, and
//! the build cache. Every file also stays in the folder as it is, for `portal serve`, nginx and
//! offline copies, so one folder serves both ways with the same bytes.

use std::collections::{BTreeMap, BTreeSet};

use portal_core::manifest::CACHE_DIR;
use portal_core::packs::{self, PackIndex, PACK_INDEX};
use portal_core::parts;

use super::output::OutFile;

/// How the upload is laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Layout {
    /// Files larger than this are also written in parts.
    pub split_over: usize,
    /// A build is packed when a deploy would otherwise upload more files than this.
    pub pack_over: usize,
}

impl Default for Layout {
    fn default() -> Self {
        Layout { split_over: parts::SPLIT_OVER, pack_over: packs::PACK_OVER }
    }
}

/// The name wrangler reads beside the assets.
pub const ASSETS_IGNORE: &str = ".assetsignore";

/// Files wrangler never uploads, whatever `.assetsignore` says.
const NEVER_UPLOADED: &[&str] = &[ASSETS_IGNORE, "_headers", "_redirects"];

/// Adds to `files` the parts of files over the size limit, the packs when the site is big, and
/// `.assetsignore`. Returns how many files a deploy uploads.
pub fn prepare(files: &mut Vec<OutFile>, layout: Layout) -> usize {
    let whole = add_parts(files, layout.split_over);
    let loose: usize = files.iter().filter(|f| uploaded(&f.file) && !whole.contains(&f.file)).count();
    let packed = if loose > layout.pack_over { add_packs(files) } else { BTreeSet::new() };
    let skipped = |file: &str| whole.contains(file) || packed.contains(file);
    let mut tree = Tree::default();
    for f in files.iter() {
        tree.add(&f.file, uploaded(&f.file) && !skipped(&f.file));
    }
    tree.add(&format!("{CACHE_DIR}/"), false);
    let count = files.iter().filter(|f| uploaded(&f.file) && !skipped(&f.file)).count();
    files.push(OutFile::internal(ASSETS_IGNORE, assets_ignore(&tree).into_bytes()));
    count
}

fn uploaded(file: &str) -> bool {
    !NEVER_UPLOADED.contains(&file)
}

/// Writes each file over `split_over` in parts too; returns the files split.
fn add_parts(files: &mut Vec<OutFile>, split_over: usize) -> BTreeSet<String> {
    let part_bytes = split_over.clamp(1, parts::PART_BYTES);
    let mut whole = BTreeSet::new();
    let mut pieces = Vec::new();
    for f in files.iter().filter(|f| parts::splits(&f.file, f.bytes.len(), split_over)) {
        whole.insert(f.file.clone());
        let split = parts::split(&f.file, &f.bytes, part_bytes);
        pieces.extend(split.into_iter().map(|(file, bytes)| OutFile::internal(file, bytes)));
    }
    files.extend(pieces);
    whole
}

/// Packs the packable files among `files` and writes the pack index; returns the files packed.
fn add_packs(files: &mut Vec<OutFile>) -> BTreeSet<String> {
    let mut candidates: Vec<&OutFile> = files.iter().filter(|f| packs::packable(&f.file, 0)).collect();
    candidates.sort_by(|a, b| a.file.cmp(&b.file));
    let (small, big): (Vec<&OutFile>, Vec<&OutFile>) =
        candidates.into_iter().partition(|f| packs::packable(&f.file, f.bytes.len()));
    let sizes: Vec<(&str, usize)> = small.iter().map(|f| (f.file.as_str(), f.bytes.len())).collect();
    let spacing = packs::spacing(small.len());
    let mut index = PackIndex { spacing, packs: Vec::new(), loose: big.iter().map(|f| f.file.clone()).collect() };
    let mut made = Vec::new();
    for range in packs::plan(&sizes, spacing) {
        let members: Vec<(&str, &[u8])> = small[range].iter().map(|f| (f.file.as_str(), f.bytes.as_slice())).collect();
        let first = members[0].0.to_string();
        let name = packs::pack_file(&first);
        made.push(OutFile::internal(name.clone(), packs::encode(&members)));
        index.packs.push((first, name));
    }
    let packed = small.iter().map(|f| f.file.clone()).collect();
    made.push(OutFile::internal(PACK_INDEX, serde_json::to_vec(&index).unwrap_or_default()));
    files.extend(made);
    packed
}

/// The build folder as a tree: for each entry, whether it (everything under it) is uploaded.
#[derive(Debug, Default)]
struct Tree {
    folder: bool,
    kept: usize,
    skipped: usize,
    children: BTreeMap<String, Tree>,
}

impl Tree {
    /// Adds `path` (a file, or a folder when it ends with `/`), uploaded or not.
    fn add(&mut self, path: &str, kept: bool) {
        let mut node = self;
        for segment in path.split('/').filter(|s| !s.is_empty()) {
            node.count(kept);
            node.folder = true;
            node = node.children.entry(segment.to_string()).or_default();
        }
        node.count(kept);
        node.folder |= path.ends_with('/');
    }

    fn count(&mut self, kept: bool) {
        if kept {
            self.kept += 1;
        } else {
            self.skipped += 1;
        }
    }
}

/// `.assetsignore` (gitignore syntax, which wrangler applies with the `ignore` package) leaving out
/// exactly the entries of `tree` not uploaded, in few lines: each folder is described by the
/// shorter of "everything but" (ignore the folder's entries, then re-include the uploaded ones)
/// and "nothing but" (ignore only the entries not uploaded). A folder partly uploaded is described
/// the same way inside.
fn assets_ignore(tree: &Tree) -> String {
    let mut out = String::from("# Written by `portal build`: what `wrangler deploy` leaves out of the upload.\n");
    describe(tree, "/", false, &mut out);
    out
}

/// Lines for the entries of `folder` (`prefix` ends with `/`). `ignored` says whether an earlier
/// line ignores the folder's entries (they must be re-included to be uploaded).
fn describe(folder: &Tree, prefix: &str, ignored: bool, out: &mut String) {
    let partial = |c: &Tree| c.kept > 0 && c.skipped > 0;
    let wanted = folder.children.values().filter(|c| c.kept > 0).count();
    let unwanted = folder.children.values().filter(|c| c.skipped > 0).count();
    // "everything but" pays one line to ignore all entries, then one per entry uploaded.
    let ignore_all = !ignored && wanted + 1 < unwanted;
    if ignore_all {
        out.push_str(&format!("{prefix}*\n"));
    }
    let all_ignored = ignored || ignore_all;
    for (name, child) in &folder.children {
        let path = format!("{prefix}{}", escape(name));
        let slash = if child.folder { "/" } else { "" };
        match (all_ignored, child.kept > 0, child.skipped > 0) {
            (true, true, false) => out.push_str(&format!("!{path}{slash}\n")),
            (false, false, true) => out.push_str(&format!("{path}{slash}\n")),
            _ if partial(child) => {
                if all_ignored {
                    out.push_str(&format!("!{path}/\n"));
                }
                describe(child, &format!("{path}/"), false, out);
            }
            _ => {}
        }
    }
}

/// A name as a literal in gitignore syntax: its wildcards and leading `#` or `!` escaped.
fn escape(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for (i, c) in name.chars().enumerate() {
        if matches!(c, '*' | '?' | '[' | ']' | '\\') || (i == 0 && matches!(c, '#' | '!')) {
            out.push('\\');
        }
        out.push(c);
    }
    if out.ends_with(' ') {
        out.pop();
        out.push_str("\\ ");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(name: &str, len: usize) -> OutFile {
        OutFile::internal(name, vec![b'x'; len])
    }

    fn ignore_text(files: &mut Vec<OutFile>, layout: Layout) -> (usize, String) {
        let count = prepare(files, layout);
        let text = files.iter().find(|f| f.file == ASSETS_IGNORE).map(|f| f.bytes.clone()).unwrap_or_default();
        (count, String::from_utf8(text).unwrap_or_default())
    }

    #[test]
    fn a_small_site_leaves_out_only_the_cache_and_split_files() {
        let mut files = vec![file("index.html", 10), file("api/news.json", 100), file("_portal/manifest.json", 5)];
        let (count, text) = ignore_text(&mut files, Layout { split_over: 50, pack_over: 1000 });
        assert!(text.contains("/api/\n") && text.contains("/_portal/cache/\n"), "{text}");
        assert_eq!(count, 5, "index, manifest, two parts and their index");
        assert!(files.iter().any(|f| f.file == "_portal/parts/api/news.json/0"));
    }

    #[test]
    fn a_big_site_uploads_packs_and_what_they_cannot_hold() {
        let mut files: Vec<OutFile> = (0..300).map(|i| file(&format!("news/r-{i}.html"), 10)).collect();
        files.push(file("api/news.json", packs::MAX_PACKED_FILE + 1));
        files.push(file("assets/style.css", 10));
        files.push(file("_portal/manifest.json", 10));
        let (count, text) = ignore_text(&mut files, Layout { split_over: usize::MAX, pack_over: 10 });
        let packs = files.iter().filter(|f| f.file.ends_with(".pack")).count();
        assert!(packs > 1, "{packs} packs");
        assert_eq!(count, packs + 4, "packs, their index, the big listing, the stylesheet, the manifest");
        assert!(text.ends_with("\n/_portal/cache/\n/news/\n"), "few entries: named one by one\n{text}");
    }
}
