//! `content/static/`: files the site publishes as they are (`static/media/well.jpg` is served at
//! `/media/well.jpg`), and how a record names one of them.
//!
//! Hidden files and folders are skipped. A file under a folder the build owns (`api/`, `_portal/`,
//! `_img/`, `mcp/`) or whose name cannot be a plain URL path (`?`, `#`, `%`, `\`, control
//! characters) is a content error. The pixel size of every JPEG and PNG is read from its header
//! (in parallel) so pages can give `width`/`height` and offer resized variants.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use portal_core::content::ContentError;
use rayon::prelude::*;

use crate::images::{self, Size};

/// The content folder of static files.
pub const FOLDER: &str = "static";

/// First path segments a static file may not use: the build writes there.
pub const RESERVED: &[&str] = &["api", "_portal", images::VARIANTS_FOLDER, "mcp"];

/// One static file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StaticFile {
    /// Where it is on disk.
    pub path: PathBuf,
    /// Its pixel size, for JPEG and PNG images.
    pub size: Option<Size>,
}

/// Every static file, by its path relative to `static/` (`/`-separated).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StaticFiles(pub BTreeMap<String, StaticFile>);

/// What an image reference of a record (front matter `image`, or a markdown image) points at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reference<'a> {
    /// Another site's address (`https://...`, `//...`, `data:`): used as written.
    Remote,
    /// A file of `static/`, by its path there.
    Local(&'a str, &'a StaticFile),
    /// A local path naming no static file (a warning): the path it was looked up as.
    Missing(String),
}

impl StaticFiles {
    /// Resolves `src` as written in content. A local path is relative to `static/`, with or without
    /// a leading `/`; leading `./` and `../` segments and a `static/` segment are dropped, so a
    /// path an editor's preview understands (`../static/media/well.jpg`) works too. A query or
    /// fragment is ignored.
    pub fn resolve(&self, src: &str) -> Reference<'_> {
        let src = src.trim();
        if src.starts_with("//") || src.split_once(':').is_some_and(|(scheme, _)| is_scheme(scheme)) {
            return Reference::Remote;
        }
        let path = src.split(['?', '#']).next().unwrap_or("");
        let decoded = percent_encoding::percent_decode_str(path).decode_utf8_lossy();
        let mut segments: Vec<&str> = decoded.split('/').filter(|s| !s.is_empty() && *s != "." && *s != "..").collect();
        let rel = segments.join("/");
        if let Some((key, file)) = self.0.get_key_value(&rel) {
            return Reference::Local(key, file);
        }
        if segments.first() == Some(&FOLDER) {
            segments.remove(0);
            if let Some((key, file)) = self.0.get_key_value(&segments.join("/")) {
                return Reference::Local(key, file);
            }
        }
        Reference::Missing(rel)
    }
}

/// Whether `text` (before a `:`) is a URL scheme such as `https` or `data`.
fn is_scheme(text: &str) -> bool {
    let mut chars = text.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
}

/// Lists `content/static/`, pushing every problem into `errors`.
pub fn load(root: &Path, errors: &mut Vec<ContentError>) -> StaticFiles {
    let dir = root.join(FOLDER);
    if !dir.is_dir() {
        return StaticFiles::default();
    }
    let mut found: Vec<(String, PathBuf)> = Vec::new();
    let walker = walkdir::WalkDir::new(&dir).sort_by_file_name().into_iter();
    for entry in walker.filter_entry(|e| e.depth() == 0 || !e.file_name().to_string_lossy().starts_with('.')) {
        let entry = match entry {
            Ok(entry) => entry,
            Err(e) => {
                errors.push(ContentError::new(dir.display().to_string(), 1, format!("cannot read: {e}")));
                continue;
            }
        };
        if !entry.file_type().is_file() {
            continue;
        }
        let relative = entry.path().strip_prefix(&dir).unwrap_or(entry.path());
        let rel: Vec<String> = relative.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
        let rel = rel.join("/");
        match problem(&rel) {
            Some(message) => errors.push(ContentError::new(entry.path().display().to_string(), 1, message)),
            None => found.push((rel, entry.into_path())),
        }
    }
    let files = found
        .into_par_iter()
        .map(|(rel, path)| {
            let size = images::size_of(&path);
            (rel, StaticFile { path, size })
        })
        .collect();
    StaticFiles(files)
}

/// Why the static file at `rel` cannot be published, if it cannot.
fn problem(rel: &str) -> Option<String> {
    let first = rel.split('/').next().unwrap_or("");
    if RESERVED.contains(&first) {
        return Some(format!(
            "static files may not live under `{first}/`: the build writes there ({} are reserved); move the file",
            RESERVED.iter().map(|r| format!("`{r}/`")).collect::<Vec<_>>().join(", ")
        ));
    }
    if rel.chars().any(|c| matches!(c, '?' | '#' | '%' | '\\') || c.is_control()) {
        return Some(format!(
            "`{rel}` cannot be a web address: rename it without `?`, `#`, `%`, `\\` or control characters"
        ));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files() -> StaticFiles {
        let file = StaticFile { path: PathBuf::from("content/static/media/well.jpg"), size: None };
        StaticFiles(BTreeMap::from([("media/well.jpg".to_string(), file)]))
    }

    #[test]
    fn local_paths_resolve_with_or_without_slash_or_static_folder() {
        let files = files();
        for src in [
            "/media/well.jpg",
            "media/well.jpg",
            "../static/media/well.jpg",
            "static/media/well.jpg",
            "./media/well.jpg?v=2",
            "/media/well.jpg#top",
        ] {
            assert!(matches!(files.resolve(src), Reference::Local("media/well.jpg", _)), "{src}");
        }
        assert_eq!(files.resolve("/media/pump.jpg"), Reference::Missing("media/pump.jpg".into()));
    }

    #[test]
    fn addresses_of_other_sites_are_remote() {
        let files = files();
        for src in ["https://example.org/a.jpg", "http://x/y.png", "//cdn.example/z.png", "data:image/png;base64,AA"] {
            assert_eq!(files.resolve(src), Reference::Remote, "{src}");
        }
    }

    #[test]
    fn reserved_folders_and_unaddressable_names_are_errors() {
        assert!(problem("api/x.json").is_some());
        assert!(problem("_img/480/a.jpg").is_some());
        assert!(problem("media/a?.jpg").is_some());
        assert!(problem("media/100%.jpg").is_some());
        assert!(problem("media/well photo.jpg").is_none());
        assert!(problem("apiary/bees.jpg").is_none());
    }

    #[test]
    fn hidden_files_are_skipped_and_images_measured() {
        let dir = tempfile::tempdir().expect("temp dir");
        let media = dir.path().join("static/media");
        std::fs::create_dir_all(&media).expect("folders");
        image::RgbImage::new(40, 30).save(media.join("dot.png")).expect("png");
        std::fs::write(media.join(".DS_Store"), "x").expect("hidden");
        std::fs::write(dir.path().join("static/notes.txt"), "hello").expect("text");
        let mut errors = Vec::new();
        let files = load(dir.path(), &mut errors);
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(files.0.keys().collect::<Vec<_>>(), ["media/dot.png", "notes.txt"]);
        assert_eq!(files.0["media/dot.png"].size, Some(Size { width: 40, height: 30 }));
        assert_eq!(files.0["notes.txt"].size, None);
    }
}
