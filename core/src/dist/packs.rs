//! Packs (docs/deploying.md#deploy-limits): the small files of a big build bundled into pack files, so that a Worker
//! deploy uploads a few thousand assets instead of four per record (Cloudflare takes at most
//! 20,000 files a version on the Free plan, 100,000 on Paid).
//!
//! The build writes every file loose, as always (for `portal serve`, nginx and offline copies), and
//! when the site is big also a pack of each run of small files, with `.assetsignore` leaving the
//! loose copies out of the upload. The Worker reads a file through [`PackReader`]: the index says
//! which pack holds it, the pack's header where inside. Every server answers the same bytes.
//!
//! Which files share a pack depends only on their paths: the packable files in path order, a new
//! pack starting at each file whose stable hash is a multiple of the index's spacing (or when a
//! pack would pass [`MAX_PACK_BYTES`]). An edit of one record changes one pack; adding or removing
//! a file moves at most one boundary. A pack is named after its first file, so its name stays as
//! long as that file does.
//!
//! A pack file is `PORTALPACK2\n`, a little-endian `u32` header length, the header (JSON: each
//! file's name, offset after the header, and length), then the files, each compressed: an LZ4
//! block preceded by its uncompressed length (a little-endian `u32`; `lz4_flex`'s
//! `compress_prepend_size`, Python's `lz4.block`). So a pack is not a second copy of the loose
//! files at their full size: it holds the bytes the build's spool already has, a little over half
//! as many on realistic content (docs/deploying.md#deploy-limits), and the Worker expands a file
//! as it reads it.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Mutex;

use bytes::Bytes;
use serde::{Deserialize, Serialize};

use crate::dist::parts::SERVED_BY_THE_CDN;
use crate::dist::stable_hash::fnv1a;
use crate::platform::PlatformError;

/// Where packs and their index live inside the build folder.
pub const PACKS_DIR: &str = "_portal/packs";

/// The index of the packs.
pub const PACK_INDEX: &str = "_portal/packs/index.json";

/// Files larger than this stay loose: they are worth an asset of their own.
pub const MAX_PACKED_FILE: usize = 256 * 1024;

/// A pack grows no larger than this (the Worker reads a pack whole; Cloudflare takes 25 MiB).
pub const MAX_PACK_BYTES: usize = 4 * 1024 * 1024;

/// At least this many files per pack on average (a power of two).
pub const MIN_SPACING: u32 = 64;

/// A site is packed into at most about this many packs: the spacing grows with the site so that
/// even a site of a million records (four million files) fits the Free plan's 20,000 assets.
pub const TARGET_PACKS: usize = 15_000;

/// A build is packed when a deploy would otherwise upload more than this many files (the
/// default of `portal build --pack-over`), leaving room under the Free plan's 20,000.
pub const PACK_OVER: usize = 15_000;

const MAGIC: &[u8] = b"PORTALPACK2\n";

/// Whether `file` (of `len` bytes) goes into a pack when a build is packed: small files the Worker
/// reads through its assets binding; never the build's own files under `_portal/`, the theme's
/// assets the CDN serves itself, or files over [`MAX_PACKED_FILE`].
pub fn packable(file: &str, len: usize) -> bool {
    len <= MAX_PACKED_FILE
        && !file.starts_with("_portal/")
        && !file.starts_with(SERVED_BY_THE_CDN)
        && !matches!(file, "_headers" | ".assetsignore" | "_redirects")
}

/// The spacing of pack boundaries for `files` packable files: a power of two, so a growing site
/// reshuffles its packs only when it doubles.
pub fn spacing(files: usize) -> u32 {
    let wanted = files.div_ceil(TARGET_PACKS).max(MIN_SPACING as usize);
    u32::try_from(wanted.next_power_of_two()).unwrap_or(u32::MAX)
}

/// Whether `file` starts a new pack at `spacing`.
pub fn starts_pack(file: &str, spacing: u32) -> bool {
    fnv1a(file.as_bytes()).is_multiple_of(u64::from(spacing.max(1)))
}

/// The packs of `files` (packable files in path order, with their sizes): index ranges into
/// `files`. It takes them one at a time, so a big build need not gather them first.
pub fn plan<'a>(files: impl IntoIterator<Item = (&'a str, usize)>, spacing: u32) -> Vec<std::ops::Range<usize>> {
    let mut packs = Vec::new();
    let (mut start, mut bytes, mut count) = (0, 0, 0);
    for (i, (file, len)) in files.into_iter().enumerate() {
        let boundary = i > start && (starts_pack(file, spacing) || bytes + len > MAX_PACK_BYTES);
        if boundary {
            packs.push(start..i);
            (start, bytes) = (i, 0);
        }
        bytes += len;
        count = i + 1;
    }
    if start < count {
        packs.push(start..count);
    }
    packs
}

/// The file of the pack whose first file is `first`.
pub fn pack_file(first: &str) -> String {
    format!("{PACKS_DIR}/{:016x}.pack", fnv1a(first.as_bytes()))
}

/// How a pack of `files` (name, stored length: see [`compress`]), in order, is laid out: the bytes
/// before its first file (signature, header length, header), and where each file starts from the
/// pack's beginning. A clean build writes a pack from this alone, copying each file's compressed
/// bytes in at their place as it reads them in the order they were written (`portal build`'s
/// `Outputs::assemble`).
pub fn layout(files: &[(&str, usize)]) -> (Vec<u8>, Vec<usize>) {
    let mut offset = 0;
    let header: Vec<(&str, usize, usize)> = files
        .iter()
        .map(|(name, len)| {
            let entry = (*name, offset, *len);
            offset += len;
            entry
        })
        .collect();
    let header_json = serde_json::to_vec(&header).unwrap_or_default();
    let mut head = Vec::with_capacity(MAGIC.len() + 4 + header_json.len());
    head.extend_from_slice(MAGIC);
    head.extend_from_slice(&(header_json.len() as u32).to_le_bytes());
    head.extend_from_slice(&header_json);
    let starts = header.iter().map(|(_, offset, _)| head.len() + offset).collect();
    (head, starts)
}

/// The bytes of a pack of `files` (name, bytes as written), in order.
pub fn encode(files: &[(&str, &[u8])]) -> Vec<u8> {
    let stored: Vec<(&str, Vec<u8>)> = files.iter().map(|(name, bytes)| (*name, compress(bytes))).collect();
    let lengths: Vec<(&str, usize)> = stored.iter().map(|(name, bytes)| (*name, bytes.len())).collect();
    let (mut out, _) = layout(&lengths);
    out.reserve(lengths.iter().map(|(_, len)| len).sum());
    for (_, bytes) in &stored {
        out.extend_from_slice(bytes);
    }
    out
}

/// A file as a pack stores it: an LZ4 block after its uncompressed length (the same bytes as the
/// copy a clean build sets aside in its spool, so packs are filled from those as they are).
pub fn compress(bytes: &[u8]) -> Vec<u8> {
    lz4_flex::compress_prepend_size(bytes)
}

/// A file stored in a pack, as written; an error when it does not expand to the length it
/// says it has (LZ4 has no checksum: a damaged file is caught here or by its block's own checks).
pub fn expand(stored: &[u8]) -> Result<Vec<u8>, PackError> {
    let damaged = |why: String| PackError(format!("not a pack: a damaged file: {why}"));
    let (said, block) = lz4_flex::block::uncompressed_size(stored).map_err(|e| damaged(e.to_string()))?;
    let bytes = lz4_flex::block::decompress(block, said).map_err(|e| damaged(e.to_string()))?;
    if bytes.len() != said {
        return Err(damaged(format!("{} bytes where it says {said}", bytes.len())));
    }
    Ok(bytes)
}

/// The files of a pack as written, in path order.
pub fn members(pack: &[u8]) -> Result<Vec<(String, Vec<u8>)>, PackError> {
    decode(pack)?.into_iter().map(|(name, (offset, len))| Ok((name, expand(&pack[offset..offset + len])?))).collect()
}

/// The files of a pack: name to (offset from the start of the pack, stored length).
pub fn decode(pack: &[u8]) -> Result<Header, PackError> {
    let damaged = |why: &str| PackError(format!("not a pack: {why}"));
    let rest = pack.strip_prefix(MAGIC).ok_or_else(|| damaged("no pack signature"))?;
    let length: [u8; 4] = rest.get(..4).and_then(|b| b.try_into().ok()).ok_or_else(|| damaged("truncated"))?;
    let length = u32::from_le_bytes(length) as usize;
    let header = rest.get(4..4 + length).ok_or_else(|| damaged("truncated header"))?;
    let entries: Vec<(String, usize, usize)> =
        serde_json::from_slice(header).map_err(|e| damaged(&format!("header: {e}")))?;
    let body = MAGIC.len() + 4 + length;
    let mut files = BTreeMap::new();
    for (name, offset, len) in entries {
        if body + offset + len > pack.len() {
            return Err(damaged(&format!("{name} lies past the end")));
        }
        files.insert(name, (body + offset, len));
    }
    Ok(files)
}

/// A pack that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PackError(pub String);

impl std::fmt::Display for PackError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for PackError {}

/// The index of a packed build: where each pack starts, and the packable-by-path files that were
/// too big for one.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PackIndex {
    /// The spacing the packs were planned with.
    pub spacing: u32,
    /// Each pack's first file and the pack's file, in path order.
    pub packs: Vec<(String, String)>,
    /// Files that would be packable by path but are loose (too big).
    pub loose: BTreeSet<String>,
}

impl PackIndex {
    /// The pack that holds `file`, if the build packed it.
    pub fn locate(&self, file: &str) -> Option<&str> {
        if !packable(file, 0) || self.loose.contains(file) {
            return None;
        }
        let after = self.packs.partition_point(|(first, _)| first.as_str() <= file);
        after.checked_sub(1).map(|i| self.packs[i].1.as_str())
    }
}

/// Where each file of a pack lies in it: offset from the start of the pack, and stored length.
pub type Header = BTreeMap<String, (usize, usize)>;

/// A pack read, with its decoded header.
type Held = (String, Bytes, Header);

/// Packs the Worker keeps in memory, at most this many bytes of them.
const CACHE_BYTES: usize = 16 * 1024 * 1024;

/// Reads files out of packs, keeping the packs read most recently (a Worker isolate holds one).
#[derive(Debug, Default)]
pub struct PackReader {
    index: PackIndex,
    /// Packs read, most recent last, with their decoded headers.
    cache: Mutex<Vec<Held>>,
}

impl PackReader {
    /// A reader over the index bytes of a build (`_portal/packs/index.json`).
    pub fn new(index: &[u8]) -> Result<Self, PackError> {
        let index = serde_json::from_slice(index).map_err(|e| PackError(format!("{PACK_INDEX}: {e}")))?;
        Ok(PackReader { index, cache: Mutex::default() })
    }

    /// The pack file holding `file`, or `None` when it is loose.
    pub fn locate(&self, file: &str) -> Option<&str> {
        self.index.locate(file)
    }

    /// `file` out of `pack` if the pack was read before (`None`: read it and call [`extract`]).
    ///
    /// [`extract`]: PackReader::extract
    pub fn cached(&self, pack: &str, file: &str) -> Option<Result<Option<Bytes>, PackError>> {
        let mut cache = self.cache.lock().ok()?;
        let at = cache.iter().position(|(name, _, _)| name == pack)?;
        let entry = cache.remove(at);
        let found = slice(&entry.1, &entry.2, file);
        cache.push(entry);
        Some(found)
    }

    /// `file` out of the bytes of `pack`, keeping the pack for the next reads. `Ok(None)` when the
    /// pack does not hold it.
    pub fn extract(&self, pack: &str, bytes: Bytes, file: &str) -> Result<Option<Bytes>, PackError> {
        let header = decode(&bytes).map_err(|e| PackError(format!("{pack}: {e}")))?;
        let found = slice(&bytes, &header, file).map_err(|e| PackError(format!("{pack}: {e}")))?;
        if let Ok(mut cache) = self.cache.lock() {
            cache.retain(|(name, _, _)| name != pack);
            cache.push((pack.to_string(), bytes, header));
            let mut total: usize = cache.iter().map(|(_, b, _)| b.len()).sum();
            while total > CACHE_BYTES && cache.len() > 1 {
                total -= cache.remove(0).1.len();
            }
        }
        Ok(found)
    }
}

/// Where a platform that reads packs gets the files of the build as they were uploaded (the
/// Worker: its assets binding).
#[allow(async_fn_in_trait)]
pub trait LooseFiles {
    /// The uploaded file `file` (a pack, or a file left loose); `Ok(None)` when there is none.
    async fn read_loose(&self, file: &str) -> Result<Option<Bytes>, PlatformError>;
}

/// `file` of the build: out of its pack when `reader` (the build's pack index, if it was packed)
/// says it is packed, else as uploaded.
pub async fn read<L: LooseFiles + ?Sized>(
    loose: &L,
    reader: Option<&PackReader>,
    file: &str,
) -> Result<Option<Bytes>, PlatformError> {
    if let Some((reader, pack)) = reader.and_then(|r| r.locate(file).map(|pack| (r, pack))) {
        let found = match reader.cached(pack, file) {
            Some(found) => found.map_err(|e| PlatformError(format!("{pack}: {e}")))?,
            None => match loose.read_loose(pack).await? {
                Some(bytes) => reader.extract(pack, bytes, file).map_err(|e| PlatformError(e.to_string()))?,
                None => None,
            },
        };
        if found.is_some() {
            return Ok(found);
        }
    }
    loose.read_loose(file).await
}

/// `file` out of `pack`, expanded; `Ok(None)` when the pack does not hold it.
fn slice(pack: &Bytes, header: &Header, file: &str) -> Result<Option<Bytes>, PackError> {
    header.get(file).map(|(offset, len)| expand(&pack[*offset..*offset + *len]).map(Bytes::from)).transpose()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pack_holds_its_files_and_says_where() {
        let pack = encode(&[("a.html", b"<p>a</p>"), ("b/c.json", b"{}"), ("empty.md", b"")]);
        let header = decode(&pack).expect("decodes");
        let bytes = Bytes::from(pack);
        let get = |file| slice(&bytes, &header, file).expect("expands");
        assert_eq!(get("a.html").as_deref(), Some(&b"<p>a</p>"[..]));
        assert_eq!(get("b/c.json").as_deref(), Some(&b"{}"[..]));
        assert_eq!(get("empty.md").as_deref(), Some(&b""[..]));
        assert!(get("d").is_none());
        assert!(decode(b"PORTALPACK2\n\x05\x00\x00\x00[]").is_err(), "truncated");
        assert!(decode(b"PORTALPACK1\n\x02\x00\x00\x00[]").is_err(), "an older format");
        assert!(decode(b"not a pack").is_err());
    }

    #[test]
    fn a_pack_stores_its_files_compressed_and_expands_them() {
        let page = "<li><a href=\"/news/x\">A record of the news</a></li>\n".repeat(200);
        let pack = encode(&[("news.html", page.as_bytes()), ("tiny.json", b"{}")]);
        assert!(pack.len() < page.len() / 4, "{} bytes for a page of {}", pack.len(), page.len());
        assert_eq!(
            members(&pack).expect("members"),
            vec![("news.html".into(), page.into_bytes()), ("tiny.json".into(), b"{}".to_vec())]
        );
        let header = decode(&pack).expect("decodes");
        let (offset, len) = header["tiny.json"];
        assert_eq!(&pack[offset..offset + len], compress(b"{}").as_slice(), "the spool's copy, as it is");
        let mut damaged = pack.clone();
        damaged[offset] = 0xff;
        assert!(members(&damaged).is_err(), "a damaged file is an error, not other bytes");
    }

    #[test]
    fn a_pack_laid_out_then_filled_is_the_pack_encoded() {
        let files: [(&str, &[u8]); 3] = [("a.html", b"<p>a</p>"), ("b/c.json", b"{}"), ("d.md", b"# d")];
        let stored: Vec<Vec<u8>> = files.iter().map(|(_, bytes)| compress(bytes)).collect();
        let lengths: Vec<(&str, usize)> = files.iter().zip(&stored).map(|((name, _), s)| (*name, s.len())).collect();
        let (mut pack, starts) = layout(&lengths);
        pack.resize(starts[2] + stored[2].len(), 0);
        for (bytes, start) in stored.iter().zip(&starts).rev() {
            pack[*start..*start + bytes.len()].copy_from_slice(bytes);
        }
        assert_eq!(pack, encode(&files));
    }

    #[test]
    fn boundaries_depend_on_paths_so_an_insert_moves_at_most_one() {
        let names: Vec<String> = (0..5000).map(|i| format!("news/record-{i:05}.html")).collect();
        let files: Vec<(&str, usize)> = names.iter().map(|n| (n.as_str(), 5000)).collect();
        let before = plan(files.iter().copied(), 64);
        assert!(before.len() > 40 && before.len() < 120, "{} packs", before.len());
        let mut more = files.clone();
        more.insert(2500, ("news/record-02499a.html", 5000));
        let after = plan(more.iter().copied(), 64);
        let firsts = |plan: &[std::ops::Range<usize>], files: &[(&str, usize)]| -> BTreeSet<String> {
            plan.iter().map(|r| files[r.start].0.to_string()).collect()
        };
        let (a, b) = (firsts(&before, &files), firsts(&after, &more));
        assert!(a.symmetric_difference(&b).count() <= 1, "one insert moves at most one boundary");
        let big: Vec<(&str, usize)> = names.iter().take(10).map(|n| (n.as_str(), MAX_PACK_BYTES / 3)).collect();
        assert!(plan(big.iter().copied(), 1 << 20).iter().all(|r| r.len() <= 3), "the size cap splits packs");
    }

    #[test]
    fn the_index_locates_files_between_firsts_and_leaves_others_loose() {
        let index = PackIndex {
            spacing: 64,
            packs: vec![("a".into(), "p1".into()), ("m".into(), "p2".into())],
            loose: BTreeSet::from(["n/big.json".to_string()]),
        };
        assert_eq!(index.locate("a"), Some("p1"));
        assert_eq!(index.locate("l/z.html"), Some("p1"));
        assert_eq!(index.locate("m"), Some("p2"));
        assert_eq!(index.locate("z.md"), Some("p2"));
        assert_eq!(index.locate("n/big.json"), None);
        assert_eq!(index.locate("_portal/manifest.json"), None);
        assert_eq!(index.locate("assets/style.css"), None);
        assert_eq!(PackIndex { packs: vec![("b".into(), "p".into())], ..index }.locate("a"), None);
    }

    #[test]
    fn the_reader_keeps_recent_packs_and_finds_files_again() {
        let index = PackIndex { spacing: 64, packs: vec![("a".into(), "p".into())], loose: BTreeSet::new() };
        let reader = PackReader::new(&serde_json::to_vec(&index).expect("json")).expect("reader");
        let pack = Bytes::from(encode(&[("a", b"1"), ("b", b"22")]));
        assert_eq!(reader.locate("b"), Some("p"));
        assert!(reader.cached("p", "b").is_none(), "not read yet");
        assert_eq!(reader.extract("p", pack, "b").expect("pack").as_deref(), Some(&b"22"[..]));
        assert_eq!(reader.cached("p", "a"), Some(Ok(Some(Bytes::from_static(b"1")))));
        assert_eq!(reader.cached("p", "c"), Some(Ok(None)));
    }

    struct Uploaded(BTreeMap<String, Bytes>, std::cell::Cell<usize>);

    impl LooseFiles for Uploaded {
        async fn read_loose(&self, file: &str) -> Result<Option<Bytes>, PlatformError> {
            self.1.set(self.1.get() + 1);
            Ok(self.0.get(file).cloned())
        }
    }

    #[test]
    fn files_are_read_out_of_their_pack_once_it_is_read() {
        let index = PackIndex { spacing: 64, packs: vec![("a".into(), "p.pack".into())], loose: BTreeSet::new() };
        let reader = PackReader::new(&serde_json::to_vec(&index).expect("json")).expect("reader");
        let pack = Bytes::from(encode(&[("a.html", b"A"), ("b.html", b"B")]));
        let uploaded = Uploaded(
            BTreeMap::from([("p.pack".to_string(), pack), ("_portal/x.json".to_string(), Bytes::from_static(b"X"))]),
            std::cell::Cell::new(0),
        );
        let read = |file: &str| crate::testing::block_on(super::read(&uploaded, Some(&reader), file)).expect("read");
        assert_eq!(read("a.html").as_deref(), Some(&b"A"[..]));
        assert_eq!(read("b.html").as_deref(), Some(&b"B"[..]));
        assert_eq!(uploaded.1.get(), 1, "the pack was fetched once");
        assert_eq!(read("_portal/x.json").as_deref(), Some(&b"X"[..]));
        assert_eq!(read("c.html"), None);
        let unpacked = crate::testing::block_on(super::read(&uploaded, None, "_portal/x.json")).expect("read");
        assert_eq!(unpacked.as_deref(), Some(&b"X"[..]));
    }

    #[test]
    fn spacing_grows_with_the_site_in_powers_of_two() {
        assert_eq!(spacing(10), MIN_SPACING);
        assert_eq!(spacing(400_000), 64);
        assert_eq!(spacing(4_000_000), 512);
        assert!(4_000_000 / spacing(4_000_000) as usize <= TARGET_PACKS);
    }
}
