//! How big one record may be (docs/content.md#limits): past these a file is a content error
//! naming it, reported with every other problem, rather than a build that runs out of memory or
//! writes a page for each of a hundred thousand tags.

/// The most bytes a record or encyclopedia file may hold: 8 MiB. Its JSON (body and rendered
/// HTML) and its page stay below the 25 MiB a file may have on Cloudflare's static assets, and
/// the loader never reads a bigger file into memory.
pub const MAX_RECORD_BYTES: u64 = 8 * 1024 * 1024;

/// The most bytes any other content file read as text may hold (`site.yaml`, datasets, spatial
/// registers, interface text, skills): 64 MiB, room for a large GeoJSON register.
pub const MAX_OTHER_FILE_BYTES: u64 = 64 * 1024 * 1024;

/// The most `tags` one record may carry: each tag is a page and a JSON listing of its own.
pub const MAX_TAGS: usize = 100;

/// The most characters a tag or a category may have: its slug is a file name, which most file
/// systems cap at 255 bytes.
pub const MAX_TERM_CHARS: usize = 100;

/// `bytes` as people read a file's size (`8 MiB`, `450.3 MiB`, `12 KiB`).
pub fn size(bytes: u64) -> String {
    const MIB: u64 = 1024 * 1024;
    if bytes >= MIB {
        let tenths = bytes * 10 / MIB;
        if tenths.is_multiple_of(10) {
            format!("{} MiB", tenths / 10)
        } else {
            format!("{}.{} MiB", tenths / 10, tenths % 10)
        }
    } else {
        format!("{} KiB", bytes.div_ceil(1024))
    }
}

/// The problem of a file of `bytes` where at most `limit` are allowed, `None` within it.
pub fn too_big(bytes: u64, limit: u64) -> Option<String> {
    (bytes > limit).then(|| {
        format!(
            "the file is {} ({bytes} bytes), more than the {} a content file of this kind may hold: split it \
             into several (docs/content.md#limits)",
            size(bytes),
            size(limit)
        )
    })
}

/// The most bytes a source fetched from a URL may hold (docs/content.md#remote-sources): 512 MiB,
/// room for a directory of a million rows, and a cap on what a wrong URL can make a build download.
pub const MAX_REMOTE_SOURCE_BYTES: u64 = 512 * 1024 * 1024;

/// How long a build waits for a source's URL to answer in full, in seconds, before it uses the
/// copy in the build cache (docs/content.md#remote-sources).
pub const REMOTE_SOURCE_TIMEOUT_S: u64 = 60;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_as_people_say_them() {
        assert_eq!(size(MAX_RECORD_BYTES), "8 MiB");
        assert_eq!(size(450 * 1024 * 1024 + 300 * 1024), "450.2 MiB");
        assert_eq!(size(1500), "2 KiB");
    }

    #[test]
    fn only_a_file_over_its_limit_is_too_big() {
        assert_eq!(too_big(MAX_RECORD_BYTES, MAX_RECORD_BYTES), None);
        let message = too_big(MAX_RECORD_BYTES + 1, MAX_RECORD_BYTES).unwrap_or_default();
        assert!(message.starts_with("the file is 8 MiB (8388609 bytes), more than the 8 MiB"), "{message}");
    }
}
