//! What a build keeps of each file once it is written ([`Written`]): everything the manifest, the
//! upload layout and the build cache need, but its bytes (docs/deploying.md#how-a-build-is-written).
//!
//! A million-record build writes four million files and holds this of each until it ends, so it is
//! kept small: the file's names share one allocation ([`Names`]), its media type is the core's
//! table's own string, the content file it is made from is shared with the file handed over before
//! it when both come from one record ([`Written::share_source`]), and the key a rebuild compares,
//! which only listings have, is boxed.

use std::collections::HashSet;
use std::sync::{Arc, Mutex, OnceLock};

use portal_core::http::media;
use sha2::{Digest, Sha256};

use crate::build::rebuild::state::Output;
use crate::build::write::file::{Group, OutFile};
use crate::load::shelf::Place;
use portal_core::dist::manifest::Asset;

/// The first half of a SHA-256: plenty to tell a file's bytes from others' and to make its entity
/// tag (`file::etag`, 10 bytes), at half the memory for each of a big build's millions of files.
pub type Digest16 = [u8; 16];

/// The [`Digest16`] of `bytes`.
pub fn digest(bytes: &[u8]) -> Digest16 {
    let full: [u8; 32] = Sha256::digest(bytes).into();
    let mut half = [0; 16];
    half.copy_from_slice(&full[..16]);
    half
}

/// A file of the build once written: everything the build still needs of it, but its bytes.
#[derive(Debug, Clone)]
pub struct Written {
    names: Names,
    /// The content file it is made from.
    source: Option<Arc<str>>,
    content_type: &'static str,
    /// What a rebuild tells an unchanged page by (see `OutFile::key`).
    key: Option<Box<[u8; 32]>>,
    /// Which part of the build makes it.
    pub group: Group,
    /// Its size in bytes.
    pub len: u64,
    /// What tells its bytes from others' ([`digest`]; its entity tag is the start of it).
    pub hash: Digest16,
    /// Where its copy lies in the build's spool, when one was set aside for the packs.
    pub spooled: Option<Place>,
}

impl Written {
    /// What is kept of `file` (hashing its bytes).
    pub fn of(file: &OutFile) -> Written {
        Written::kept(file.clone(), digest(&file.bytes))
    }

    /// `file` with the hash of its bytes, the bytes dropped.
    pub fn kept(file: OutFile, hash: Digest16) -> Written {
        Written {
            names: Names::new(&file.file, [file.route.as_deref(), file.markdown.as_deref(), file.headers.as_deref()]),
            source: file.source.map(Arc::from),
            content_type: media_type(&file.content_type),
            key: file.key.map(Box::new),
            group: file.group,
            len: file.bytes.len() as u64,
            hash,
            spooled: None,
        }
    }

    /// Its path relative to the output folder.
    pub fn file(&self) -> &str {
        self.names.part(0).unwrap_or_default()
    }

    /// The URL path it is served at, if it is served directly.
    pub fn route(&self) -> Option<&str> {
        self.names.part(1)
    }

    /// The markdown twin's file, for HTML pages.
    pub fn markdown(&self) -> Option<&str> {
        self.names.part(2)
    }

    /// A header set of the manifest to send with it.
    pub fn headers(&self) -> Option<&str> {
        self.names.part(3)
    }

    /// Its media type.
    pub fn content_type(&self) -> &'static str {
        self.content_type
    }

    /// The content file it is made from.
    pub fn source(&self) -> Option<&str> {
        self.source.as_deref()
    }

    /// What a rebuild tells an unchanged page by.
    pub fn key(&self) -> Option<[u8; 32]> {
        self.key.as_deref().copied()
    }

    /// Shares the content file's name with `before` (the file handed over before this one) when
    /// both are made from the same file, as a record's page and its twin are.
    pub fn share_source(&mut self, before: Option<&Written>) {
        if let (Some(before), Some(mine)) = (before.and_then(|b| b.source.as_ref()), &self.source) {
            if before == mine {
                self.source = Some(Arc::clone(before));
            }
        }
    }

    /// Its entity tag, the one `file::etag` makes of its bytes.
    pub fn etag(&self) -> String {
        crate::build::write::file::etag_of_digest(&self.hash)
    }

    /// What the route index says of it.
    pub fn asset(&self) -> Asset {
        Asset {
            file: self.file().to_string(),
            content_type: self.content_type.to_string(),
            etag: self.etag(),
            headers: self.headers().map(str::to_string),
            markdown: self.markdown().map(str::to_string),
        }
    }

    /// It as a group's table in the build cache keeps it.
    pub fn output(&self) -> Output {
        Output {
            file: self.file().to_string(),
            route: self.route().map(str::to_string),
            content_type: self.content_type.to_string(),
            headers: self.headers().map(str::to_string),
            markdown: self.markdown().map(str::to_string),
            etag: if self.route().is_some() { self.etag() } else { String::new() },
            len: self.len,
            source: self.source().map(str::to_string),
            key: self.key(),
        }
    }
}

/// A file's path and up to three more names (route, markdown twin, header set) in one string:
/// one allocation instead of four, each of which would round up to the allocator's next size.
#[derive(Debug, Clone)]
struct Names {
    text: Box<str>,
    /// Where the path, the route and the twin end in `text` (the header set ends with it).
    ends: [u32; 3],
    /// Which of the three optional names are there (bit 0: the route).
    present: u8,
}

impl Names {
    fn new(file: &str, optional: [Option<&str>; 3]) -> Names {
        let mut text = String::with_capacity(file.len() + optional.iter().flatten().map(|s| s.len()).sum::<usize>());
        text.push_str(file);
        let mut ends = [offset(text.len()); 3];
        let mut present = 0;
        for (i, name) in optional.iter().enumerate() {
            if let Some(name) = name {
                present |= 1 << i;
                text.push_str(name);
            }
            if let Some(end) = ends.get_mut(i + 1) {
                *end = offset(text.len());
            }
        }
        Names { text: text.into_boxed_str(), ends, present }
    }

    /// Name `i`: 0 the path (always there), 1 the route, 2 the twin, 3 the header set.
    fn part(&self, i: usize) -> Option<&str> {
        if i > 0 && self.present & (1 << (i - 1)) == 0 {
            return None;
        }
        let at = |k: usize| self.ends.get(k).map_or(self.text.len(), |&e| e as usize);
        let start = if i == 0 { 0 } else { at(i - 1) };
        self.text.get(start..at(i))
    }
}

/// A length as `Names` keeps it (no file name comes near four gigabytes).
fn offset(len: usize) -> u32 {
    u32::try_from(len).unwrap_or(u32::MAX)
}

/// `media` as the core's table has it; a type the table lacks (a site's own static file may have
/// one) is kept once for the life of the process, so a million files never each hold a copy.
fn media_type(media: &str) -> &'static str {
    let known = || media::KNOWN.iter().copied().chain(media::BY_EXTENSION.iter().map(|(_, m)| *m));
    if let Some(found) = known().find(|k| *k == media) {
        return found;
    }
    static OTHERS: OnceLock<Mutex<HashSet<&'static str>>> = OnceLock::new();
    let mut others = OTHERS.get_or_init(Mutex::default).lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    match others.get(media) {
        Some(kept) => kept,
        None => {
            let kept: &'static str = Box::leak(media.into());
            others.insert(kept);
            kept
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(route: Option<&str>, markdown: Option<&str>, headers: Option<&str>) -> OutFile {
        OutFile {
            route: route.map(Into::into),
            file: "news/a.html".into(),
            content_type: "text/x-own; charset=utf-8".into(),
            headers: headers.map(Into::into),
            markdown: markdown.map(Into::into),
            bytes: b"page".to_vec(),
            source: Some("content/news/a.md".into()),
            group: Group::Site,
            key: None,
        }
    }

    #[test]
    fn every_name_reads_back_whichever_are_there() {
        for route in [None, Some("/news/a"), Some("")] {
            for markdown in [None, Some("news/a.md")] {
                for headers in [None, Some("page"), Some("")] {
                    let w = Written::of(&file(route, markdown, headers));
                    assert_eq!(
                        (w.file(), w.route(), w.markdown(), w.headers()),
                        ("news/a.html", route, markdown, headers)
                    );
                }
            }
        }
    }

    #[test]
    fn a_media_type_outside_the_table_is_kept_once() {
        let (a, b) = (Written::of(&file(None, None, None)), Written::of(&file(None, None, None)));
        assert_eq!(a.content_type(), "text/x-own; charset=utf-8");
        assert!(std::ptr::eq(a.content_type(), b.content_type()));
    }

    #[test]
    fn a_source_is_shared_with_the_file_before_only_when_it_is_the_same() {
        let first = Written::of(&file(None, None, None));
        let mut twin = Written::of(&file(None, None, None));
        twin.share_source(Some(&first));
        assert!(Arc::ptr_eq(first.source.as_ref().expect("source"), twin.source.as_ref().expect("source")));
        let mut other = Written::of(&OutFile { source: Some("content/news/b.md".into()), ..file(None, None, None) });
        other.share_source(Some(&first));
        assert_eq!(other.source(), Some("content/news/b.md"));
        assert!(!Arc::ptr_eq(first.source.as_ref().expect("source"), other.source.as_ref().expect("source")));
    }

    #[test]
    fn what_is_kept_of_a_file_is_small() {
        // Four million of these at a million records (bench/NOTES.md, *A million records*); 248
        // bytes when each name was a `String` of its own.
        assert!(std::mem::size_of::<Written>() <= 144, "{}", std::mem::size_of::<Written>());
    }
}
