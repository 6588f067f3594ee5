//! What a Worker deploy of the build folder uploads (docs/deploying.md#deploy-limits). Cloudflare
//! takes at most 25 MiB a file and 20,000 files a version on the Free plan (100,000 on Paid). Files
//! over the size limit go up in parts (`portal_core::dist::parts`); past `pack_over` files, the small
//! ones go up in packs (`portal_core::dist::packs`); `.assetsignore`, written here, leaves out what those
//! stand in for, and the build cache. Every file also stays in the folder as it is, for `portal
//! serve`, nginx and offline copies, so one folder serves both ways with the same bytes.

use std::collections::BTreeSet;

use portal_core::dist::packs::{self, PackIndex, PACK_INDEX};
use portal_core::dist::parts::{self, SERVED_BY_THE_CDN};

use anyhow::Result;

use crate::build::write::file::{Group, OutFile};
use crate::build::write::sink::{Assembly, Outputs};
use crate::build::write::written::Written;

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

/// What a Worker upload of a build is made of, beside its loose files.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Upload {
    /// Whether small files were packed.
    pub packed: bool,
    /// Files written, in all (packs, parts and `.assetsignore` included).
    pub files: usize,
    /// Files inside packs.
    pub in_packs: usize,
    /// Files uploaded in parts instead of whole.
    pub split: BTreeSet<String>,
    /// Files a packed build uploads loose although packable by path (too big for a pack).
    pub big: BTreeSet<String>,
    /// Files written that wrangler never uploads (`_headers`, `.assetsignore`).
    pub never: usize,
}

impl Upload {
    /// How many files a Worker deploy uploads: all but those in packs, those in parts, and the
    /// files wrangler never uploads.
    pub fn uploaded(&self) -> usize {
        self.files - self.in_packs - self.split.len() - self.never
    }
}

/// A pack a clean build writes: its file and its members, as indices into the build's files. It is
/// laid out from its members' names and stored sizes and filled from the members' compressed
/// copies in the spool ([`PlannedPack::assembly`]), so the build never holds a second copy of
/// every small file, and never writes one at full size.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlannedPack {
    /// The pack's file.
    pub file: String,
    /// Its members, in order.
    pub members: Vec<usize>,
}

impl PlannedPack {
    /// How the pack is made from its members among `files`, the files written.
    pub fn assembly(&self, files: &Outputs) -> Result<Assembly> {
        let made = files.made();
        let lengths: Vec<(&str, usize)> =
            self.members.iter().map(|&i| Ok((made[i].file(), files.stored_len(i)? as usize))).collect::<Result<_>>()?;
        let (head, starts) = packs::layout(&lengths);
        let len = (head.len() + lengths.iter().map(|(_, len)| len).sum::<usize>()) as u64;
        let pieces = self.members.iter().zip(starts).map(|(&i, start)| (i, start as u64)).collect();
        Ok(Assembly { file: OutFile::internal(self.file.clone(), head).in_group(Group::Layout), len, pieces })
    }
}

/// Writes among `files` the parts of files over the size limit, the packs and their index when
/// the site is big, and `.assetsignore`; says what the upload is made of.
pub fn prepare(files: &mut Outputs, layout: Layout) -> Result<Upload> {
    let split = add_parts(files, layout.split_over)?;
    let loose: usize = files.made().iter().filter(|f| uploaded(f.file()) && !split.contains(f.file())).count();
    let mut upload = Upload { split, ..Upload::default() };
    if loose > layout.pack_over {
        // In path order, the order of the packs: then planning them takes an index per file.
        files.finish()?;
        let (in_packs, big, planned, index) = plan_packs(files.made(), &upload.split);
        files.assemble(planned, |files, pack| pack.assembly(files))?;
        files.push(index);
        upload = Upload { packed: true, in_packs, big, ..upload };
    }
    files.push(OutFile::internal(ASSETS_IGNORE, assets_ignore(&upload).into_bytes()).in_group(Group::Layout));
    upload.files = files.len();
    upload.never = files.made().iter().filter(|f| !uploaded(f.file())).count();
    Ok(upload)
}

/// `.assetsignore` (gitignore syntax, which wrangler applies with the `ignore` package): the files
/// uploaded in parts; and when the build is packed, everything but the build's
/// own folder, the theme's assets and the files too big for a pack.
pub fn assets_ignore(upload: &Upload) -> String {
    let mut out = String::from("# Written by `portal build`: what `wrangler deploy` leaves out of the upload.\n");
    if upload.packed {
        out.push_str("/*\n!/_portal/\n");
    }
    for file in &upload.split {
        if !upload.packed || file.starts_with("_portal/") {
            out.push_str(&format!("/{}\n", escape(file)));
        }
    }
    if upload.packed {
        out.push_str(&format!("!/{SERVED_BY_THE_CDN}\n"));
        let mut opened = BTreeSet::new();
        for file in upload.big.iter().filter(|f| !upload.split.contains(*f)) {
            let parts: Vec<&str> = file.split('/').collect();
            for depth in 1..parts.len() {
                let folder = parts[..depth].iter().map(|p| escape(p)).collect::<Vec<_>>().join("/");
                if opened.insert(folder.clone()) {
                    out.push_str(&format!("!/{folder}/\n/{folder}/*\n"));
                }
            }
            out.push_str(&format!("!/{}\n", escape(file)));
        }
    }
    out
}

fn uploaded(file: &str) -> bool {
    !NEVER_UPLOADED.contains(&file)
}

/// Writes each file over `split_over` in parts too (read back as written); returns the files split.
/// A file wrangler never uploads (`_headers`, which a large site's rules can make big) is never
/// split: nothing reads its parts, and it would be counted out of the upload twice.
fn add_parts(files: &mut Outputs, split_over: usize) -> Result<BTreeSet<String>> {
    let part_bytes = split_over.clamp(1, parts::PART_BYTES);
    let whole: Vec<(String, usize)> = files
        .made()
        .iter()
        .filter(|f| uploaded(f.file()) && parts::splits(f.file(), f.len as usize, split_over))
        .map(|f| (f.file().to_string(), f.len as usize))
        .collect();
    // A part at a time: the largest of these (the HSDS file) is some 300 MB at a million records.
    for (file, len) in &whole {
        let (ranges, (index, index_bytes)) = parts::layout(file, *len, part_bytes);
        for (part, range) in ranges {
            let bytes = files.read_range(file, range)?;
            files.push(OutFile::internal(part, bytes).in_group(Group::Layout));
        }
        files.push(OutFile::internal(index, index_bytes).in_group(Group::Layout));
    }
    Ok(whole.into_iter().map(|(file, _)| file).collect())
}

/// Plans the packs of the packable files among `files`, sorted by name (not those uploaded in
/// parts); returns how many files go into packs, the packable ones too big for one, the packs and
/// their index.
fn plan_packs(files: &[Written], split: &BTreeSet<String>) -> (usize, BTreeSet<String>, Vec<PlannedPack>, OutFile) {
    let packable = |f: &Written| packs::packable(f.file(), 0) && !split.contains(f.file());
    let (small, big): (Vec<usize>, Vec<usize>) = (0..files.len())
        .filter(|&i| packable(&files[i]))
        .partition(|&i| packs::packable(files[i].file(), files[i].len as usize));
    let spacing = packs::spacing(small.len());
    let big: BTreeSet<String> = big.iter().map(|&i| files[i].file().to_string()).collect();
    // The index names every packable-by-path file a pack does not hold, so the Worker reads it
    // loose (or from its parts) at once.
    let split_packable = split.iter().filter(|f| packs::packable(f, 0)).cloned();
    let loose = big.iter().cloned().chain(split_packable).collect();
    let mut index = PackIndex { spacing, packs: Vec::new(), loose };
    let mut planned = Vec::new();
    let sizes = small.iter().map(|&i| (files[i].file(), files[i].len as usize));
    for range in packs::plan(sizes, spacing) {
        let first = files[small[range.start]].file().to_string();
        let name = packs::pack_file(&first);
        planned.push(PlannedPack { file: name.clone(), members: small[range].to_vec() });
        index.packs.push((first, name));
    }
    let index = OutFile::internal(PACK_INDEX, serde_json::to_vec(&index).unwrap_or_default()).in_group(Group::Layout);
    (small.len(), big, planned, index)
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
    use portal_core::http::media::HTML;

    fn file(name: &str, len: usize) -> OutFile {
        OutFile::internal(name, vec![b'x'; len])
    }

    fn ignore_text(files: Vec<OutFile>, layout: Layout) -> (usize, String, Vec<String>) {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut outputs = Outputs::new(Some(dir.path().to_path_buf())).expect("outputs");
        outputs.extend(files);
        let upload = prepare(&mut outputs, layout).expect("prepared");
        let text = std::fs::read_to_string(dir.path().join(ASSETS_IGNORE)).unwrap_or_default();
        let names = outputs.made().iter().map(|f| f.file().to_string()).collect();
        (upload.uploaded(), text, names)
    }

    #[test]
    fn a_small_site_leaves_out_only_the_split_files() {
        let files = vec![file("index.html", 10), file("api/news.json", 100), file("_portal/manifest.json", 5)];
        let (count, text, names) = ignore_text(files, Layout { split_over: 50, pack_over: 1000 });
        assert!(text.ends_with("upload.\n/api/news.json\n"), "{text}");
        assert_eq!(count, 5, "index, manifest, two parts and their index");
        assert!(names.iter().any(|f| f == "_portal/parts/api/news.json/0"));
    }

    #[test]
    fn a_big_site_uploads_packs_and_what_they_cannot_hold() {
        let mut files: Vec<OutFile> = (0..300).map(|i| file(&format!("news/r-{i}.html"), 10)).collect();
        files.push(file("api/news.json", packs::MAX_PACKED_FILE + 1));
        files.push(file("assets/style.css", 10));
        files.push(file("_portal/manifest.json", 10));
        let (count, text, names) = ignore_text(files, Layout { split_over: usize::MAX, pack_over: 10 });
        let packs = names.iter().filter(|f| f.ends_with(".pack")).count();
        assert!(packs > 1, "{packs} packs");
        assert_eq!(count, packs + 4, "packs, their index, the big listing, the stylesheet, the manifest");
        assert!(text.contains("/*\n!/_portal/\n!/assets/\n!/api/\n/api/*\n!/api/news.json\n"), "{text}");
    }

    #[test]
    fn a_big_file_is_written_again_in_parts_that_join_to_it() {
        let bytes: Vec<u8> = (0..125u32).map(|i| (i % 251) as u8).collect();
        let dir = tempfile::tempdir().expect("temp dir");
        let mut outputs = Outputs::new(Some(dir.path().to_path_buf())).expect("outputs");
        outputs.extend([OutFile::internal("api/news.json", bytes.clone())]);
        prepare(&mut outputs, Layout { split_over: 50, pack_over: 1000 }).expect("prepared");
        let index: parts::PartsIndex =
            serde_json::from_slice(&outputs.read(&parts::index_file("api/news.json")).expect("index")).expect("json");
        assert_eq!((index.bytes, index.parts.len()), (125, 3));
        let joined: Vec<u8> = index.parts.iter().flat_map(|part| outputs.read(part).expect("part")).collect();
        assert_eq!(joined, bytes);
    }

    /// The packs of `files` as written, by name, made with or without the spool.
    fn packs_made(files: &[OutFile], spooled: bool) -> Vec<(String, Vec<u8>)> {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut outputs = Outputs::new(Some(dir.path().join("out"))).expect("outputs");
        if spooled {
            outputs = outputs.spooled_in(&dir.path().join("cache")).expect("spool");
        }
        outputs.extend(files.iter().cloned());
        outputs.resolve_links("https://example.org").expect("links");
        for page in outputs.made().iter().filter(|w| w.route().is_some()) {
            let written = outputs.read(page.file()).expect("every page is written");
            assert_eq!(written.len() as u64, page.len, "{}", page.file());
        }
        prepare(&mut outputs, Layout { split_over: usize::MAX, pack_over: 10 }).expect("prepared");
        let made = outputs.made().iter().filter(|w| w.file().ends_with(".pack"));
        made.map(|w| (w.file().to_string(), outputs.read(w.file()).expect("pack"))).collect()
    }

    #[test]
    fn packs_hold_their_members_whether_copied_from_the_spool_or_the_files() {
        // Made in an order unlike the path order, of many sizes, an empty one among them.
        let files: Vec<OutFile> = (0..400)
            .rev()
            .map(|i| {
                OutFile::internal(format!("news/r-{i:03}.html"), format!("<p>{}</p>", "é".repeat(i % 37)).into_bytes())
            })
            .chain([file("api/empty.json", 0)])
            .collect();
        // Pages whose links are rewritten once every URL is known: one packed, one too big to be.
        let page = |route: &str, len: usize| {
            let body = format!("<a href=\"/news/r-001\">r</a><a href=\"/elsewhere\">x</a>{}", " ".repeat(len));
            OutFile::served(route, format!("{}.html", &route[1..]), HTML, body.into_bytes())
        };
        let pages = [page("/news/page/2", 10), page("/tags/big", packs::MAX_PACKED_FILE)];
        let routed = |f: &OutFile| {
            OutFile::served(format!("/{}", &f.file[..f.file.len() - 5]), f.file.clone(), HTML, f.bytes.clone())
        };
        let files: Vec<OutFile> =
            files.iter().map(|f| if f.file.ends_with(".html") { routed(f) } else { f.clone() }).chain(pages).collect();
        let from_spool = packs_made(&files, true);
        assert_eq!(from_spool, packs_made(&files, false));
        assert!(from_spool.len() > 1, "{} packs", from_spool.len());
        let mut members = Vec::new();
        for (_, pack) in &from_spool {
            members.extend(packs::members(pack).expect("a pack"));
        }
        members.sort();
        let listing = members.iter().find(|(name, _)| name == "news/page/2.html").expect("the listing is packed");
        let text = String::from_utf8_lossy(&listing.1);
        assert!(
            text.starts_with("<a href=\"../r-001.html\">r</a><a href=\"https://example.org/elsewhere\">"),
            "{text}"
        );
        assert!(!members.iter().any(|(name, _)| name == "tags/big.html"), "too big for a pack");
        let names: Vec<&str> = members.iter().map(|(name, _)| name.as_str()).collect();
        let mut expected: Vec<&str> = files.iter().map(|f| f.file.as_str()).filter(|f| *f != "tags/big.html").collect();
        expected.sort();
        assert_eq!(names, expected);
        for (name, bytes) in &members {
            if let Some(f) = files.iter().find(|f| &f.file == name && !f.file.contains("page/")) {
                assert_eq!(bytes, &f.bytes, "{name}");
            }
        }
    }

    #[test]
    fn gitignore_wildcards_in_names_are_literal() {
        assert_eq!(escape("a*b[1].txt"), "a\\*b\\[1\\].txt");
        assert_eq!(escape("#x"), "\\#x");
        assert_eq!(escape("x "), "x\\ ");
    }
}
