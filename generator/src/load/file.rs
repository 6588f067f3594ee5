//! Reading a content file as text: bounded in size (docs/content.md#limits), UTF-8, and without
//! the control characters no content text keeps (`portal_core::content::text`).

use std::fs::File;
use std::io::Read;
use std::path::Path;

use portal_core::content::limits::{too_big, MAX_OTHER_FILE_BYTES, MAX_RECORD_BYTES};
use portal_core::content::text;
use portal_core::content::ContentError;

/// Reads a record or encyclopedia file (at most [`MAX_RECORD_BYTES`]).
pub fn read_text(path: &Path) -> Result<String, ContentError> {
    read_text_within(path, MAX_RECORD_BYTES)
}

/// Reads any other content file read as text (at most [`MAX_OTHER_FILE_BYTES`]).
pub fn read_other(path: &Path) -> Result<String, ContentError> {
    read_text_within(path, MAX_OTHER_FILE_BYTES)
}

/// Reads `path` as text, refusing it when it holds more than `limit` bytes: the size is checked
/// before anything is read, and the read stops past the limit should the file grow meanwhile, so
/// a huge file never reaches memory. A file that is not UTF-8 says so and how to fix it.
pub fn read_text_within(path: &Path, limit: u64) -> Result<String, ContentError> {
    let file = path.display().to_string();
    let cannot = |e: std::io::Error| ContentError::new(&file, 1, format!("cannot read: {e}"));
    let opened = File::open(path).map_err(cannot)?;
    let declared = opened.metadata().map_err(cannot)?.len();
    if let Some(message) = too_big(declared, limit) {
        return Err(ContentError::new(&file, 1, message));
    }
    let mut bytes = Vec::with_capacity(usize::try_from(declared).unwrap_or(0));
    opened.take(limit + 1).read_to_end(&mut bytes).map_err(cannot)?;
    if let Some(message) = too_big(bytes.len() as u64, limit) {
        return Err(ContentError::new(&file, 1, message));
    }
    let text = String::from_utf8(bytes).map_err(|e| {
        let offset = e.utf8_error().valid_up_to();
        let line = e.as_bytes()[..offset].iter().filter(|b| **b == b'\n').count() + 1;
        ContentError::new(
            &file,
            line,
            "the file is not UTF-8 text: save it as UTF-8 (in most editors: \"Save with encoding\" or \"Save as\", then UTF-8)",
        )
    })?;
    // Line feeds stay, so every line number said of the file is still right.
    Ok(text::clean(&text).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_over_its_limit_is_refused_unread_and_one_within_is_cleaned() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("big.md");
        // Sparse: 450 MiB on paper, nothing on disk, and never read.
        File::create(&path).and_then(|f| f.set_len(450 * 1024 * 1024)).expect("sparse file");
        let error = read_text(&path).expect_err("too big");
        assert_eq!(error.line, 1);
        assert!(error.to_string().starts_with(&format!("{}:1: the file is 450 MiB", path.display())), "{error}");

        std::fs::write(&path, "---\r\ntitle: A\u{0B}B\u{7}\r\n---\r\n").expect("write");
        assert_eq!(read_text(&path).expect("small"), "---\r\ntitle: A B\r\n---\r\n");
        let error = read_text_within(&path, 10).expect_err("over a small limit");
        assert!(error.message.contains("(23 bytes), more than the"), "{}", error.message);
    }

    #[test]
    fn a_file_that_is_not_utf8_names_its_line() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("latin1.md");
        std::fs::write(&path, b"---\ntitle: Caf\xe9\n---\n").expect("write");
        let error = read_text(&path).expect_err("not UTF-8");
        assert_eq!(error.line, 2);
        assert!(error.message.contains("not UTF-8"));
    }
}
