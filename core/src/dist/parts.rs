//! Files too large for one static asset (docs/deploying.md#deploy-limits). Cloudflare takes at most 25 MiB a file; a
//! build's aggregate outputs (the flat search index, a collection's listing, the manifest) pass that
//! on big sites. Such a file is written whole, for `portal serve`, nginx and snapshots, and also in
//! parts of [`PART_BYTES`] under [`PARTS_DIR`] with an index; `.assetsignore` keeps the whole file
//! out of a Worker upload. [`Platform::read_file`](crate::platform::Platform::read_file) answers a
//! file from its parts when the platform lacks the whole, so every server sends the same bytes.

use std::ops::Range;

use crate::dist::manifest::MAX_FILE_BYTES;
pub use crate::platform::{index_file, PartsIndex, PARTS_DIR};

/// The size of one part: well under the 25 MiB limit.
pub const PART_BYTES: usize = 16 * 1024 * 1024;

/// The size over which a build writes a file in parts too, unless told otherwise: the limit.
pub const SPLIT_OVER: usize = MAX_FILE_BYTES;

/// The folder a CDN serves straight from the upload, without the Worker (wrangler.toml's
/// `run_worker_first` leaves out `/assets/*`): its files are never left out of an upload, so they
/// are never split (the theme's stylesheet and scripts are small).
pub const SERVED_BY_THE_CDN: &str = "assets/";

/// Whether `file` of `len` bytes is also written in parts when files over `split_over` bytes are.
pub fn splits(file: &str, len: usize, split_over: usize) -> bool {
    len > split_over && !file.starts_with(SERVED_BY_THE_CDN)
}

/// A file of the build and its bytes.
pub type Named = (String, Vec<u8>);

/// A part's file and the range of the whole file's bytes it holds.
pub type Part = (String, Range<usize>);

/// The parts of a file of `len` bytes, `part_bytes` each: each part's file and the range of the
/// file's bytes it holds; then the file of their index and its bytes. A build writes a big file's
/// parts from this a part at a time, never holding the whole file.
pub fn layout(file: &str, len: usize, part_bytes: usize) -> (Vec<Part>, Named) {
    let step = part_bytes.max(1);
    let ranges: Vec<Part> = (0..len)
        .step_by(step)
        .enumerate()
        .map(|(n, start)| (format!("{PARTS_DIR}/{file}/{n}"), start..(start + step).min(len)))
        .collect();
    let parts = ranges.iter().map(|(name, _)| name.clone()).collect();
    let index = PartsIndex { file: file.to_string(), bytes: len, parts };
    // Strings and a number always serialize.
    (ranges, (index_file(file), serde_json::to_vec(&index).unwrap_or_default()))
}

/// The parts of `bytes` (the contents of `file`), `part_bytes` each, and their index: (file, bytes)
/// pairs to write.
pub fn split(file: &str, bytes: &[u8], part_bytes: usize) -> Vec<Named> {
    let (ranges, index) = layout(file, bytes.len(), part_bytes);
    let mut out: Vec<Named> = ranges.into_iter().map(|(name, range)| (name, bytes[range].to_vec())).collect();
    out.push(index);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::platform::Platform;
    use crate::testing::{block_on, FakePlatform};

    #[test]
    fn a_file_missing_whole_is_joined_from_its_parts() {
        let bytes: Vec<u8> = (0..PART_BYTES * 2 + 10).map(|i| (i % 251) as u8).collect();
        let mut platform = FakePlatform::default();
        let parts = split("api/search-index.json", &bytes, PART_BYTES);
        assert_eq!(parts.len(), 4);
        for (name, part) in parts {
            platform = platform.with_file(&name, part);
        }
        let joined = block_on(platform.read_file("api/search-index.json")).expect("read").expect("found");
        assert_eq!(joined.as_ref(), bytes.as_slice());
        assert!(block_on(platform.read_file("nothing.json")).expect("read").is_none());
    }

    #[test]
    fn the_layout_covers_every_byte_once() {
        for len in [0, 1, 9, 10, 11, 30] {
            let (ranges, (index, _)) = layout("a.json", len, 10);
            assert_eq!(ranges.len(), len.div_ceil(10), "{len}");
            let covered: Vec<usize> = ranges.iter().flat_map(|(_, r)| r.clone()).collect();
            assert_eq!(covered, (0..len).collect::<Vec<_>>(), "{len}");
            assert_eq!(index, index_file("a.json"));
        }
    }
}
