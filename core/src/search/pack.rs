//! Carrying an index through `dist/`: one file per segment, `_portal/search/<segment id>.seg` (its
//! tantivy files concatenated), plus `_portal/search/index.json`, a small manifest that lists the
//! segments in order with each tantivy file's byte range and carries tantivy's `meta.json` for the
//! whole index. The manifest is made from the segments' metadata alone ([`index_manifest`]), so an
//! incremental build that rebuilt one segment rewrites it without reading the others, and gets the
//! bytes a clean build writes.
//!
//! Reading: a read-only tantivy `Directory` over the segment files' bytes that serves every
//! tantivy file as a slice of its segment's buffer (no copies), so the same bytes open natively
//! and in the Worker.

use std::collections::HashMap;
use std::future::Future;
use std::io;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::pin::Pin;
use std::sync::Arc;
use std::task::Poll;

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use tantivy::directory::error::{DeleteError, LockError, OpenReadError, OpenWriteError};
use tantivy::directory::{
    Directory, DirectoryLock, FileHandle, Lock, OwnedBytes, WatchCallback, WatchHandle, WritePtr,
};
use tantivy::IndexSettings;

use super::schema::schema;

/// Where the index lives inside the build folder.
pub const INDEX_DIR: &str = "_portal/search";

/// The manifest of the index.
pub const INDEX_MANIFEST: &str = "_portal/search/index.json";

/// The largest segment file: static assets are limited to 25 MiB per file on Cloudflare.
pub const MAX_SEGMENT_BYTES: usize = 20 << 20;

/// What the manifest says of one segment.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SegmentMeta {
    /// Its id (see [`super::writer::Segment::id`]).
    pub id: String,
    /// The collection of its documents.
    pub collection: String,
    /// How many documents it holds.
    pub docs: u32,
    /// Each tantivy file (`<id>.idx`...) and its byte range in the segment file, in order.
    pub files: Vec<(String, Range<usize>)>,
}

impl SegmentMeta {
    /// Its file, relative to the build folder: `_portal/search/<id>.seg`.
    pub fn file(&self) -> String {
        segment_file(&self.id)
    }

    /// The size of its file.
    pub fn bytes(&self) -> usize {
        self.files.iter().map(|(_, range)| range.end).max().unwrap_or(0)
    }
}

/// The file of the segment `id`, relative to the build folder.
pub fn segment_file(id: &str) -> String {
    format!("{INDEX_DIR}/{id}.seg")
}

/// `index.json`: the segments in order and tantivy's `meta.json` of the index they make.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PackManifest {
    /// The segments, in the order of the plan (by collection, then id).
    pub segments: Vec<SegmentMeta>,
    /// tantivy's `meta.json` for all the segments.
    pub meta: Value,
}

/// `8-4-4-4-12` form of a 32-digit hex id (how `meta.json` writes segment ids).
fn hyphenated(id: &str) -> String {
    let part = |range: Range<usize>| id.get(range).unwrap_or_default();
    format!("{}-{}-{}-{}-{}", part(0..8), part(8..12), part(12..16), part(16..20), part(20..32))
}

/// tantivy's `meta.json` for an index of `segments`, as tantivy writes it (default settings, the
/// schema, no deletes).
pub fn tantivy_meta(segments: &[SegmentMeta]) -> Value {
    let segments: Vec<Value> =
        segments.iter().map(|s| json!({"segment_id": hyphenated(&s.id), "max_doc": s.docs, "deletes": null})).collect();
    json!({
        "index_settings": IndexSettings::default(),
        "segments": segments,
        "schema": schema().0,
        "opstamp": 0,
    })
}

/// The bytes of `index.json` for `segments` (in plan order): a function of the metadata alone, so
/// a clean build and an incremental one that rebuilt some segments write the same bytes.
pub fn index_manifest(segments: &[SegmentMeta]) -> Vec<u8> {
    let manifest = PackManifest { segments: segments.to_vec(), meta: tantivy_meta(segments) };
    serde_json::to_vec(&manifest).unwrap_or_default()
}

/// Reads every segment file of `manifest` at once through `read` (a platform's file reader),
/// returning their bytes in manifest order, or the first error.
pub async fn read_segments<F, Fut, B, E>(manifest: &PackManifest, read: F) -> Result<Vec<Vec<u8>>, E>
where
    F: Fn(String) -> Fut,
    Fut: Future<Output = Result<B, E>>,
    B: Into<Vec<u8>>,
{
    let mut reads: Vec<Pin<Box<Fut>>> = manifest.segments.iter().map(|s| Box::pin(read(s.file()))).collect();
    let mut done: Vec<Option<Result<B, E>>> = reads.iter().map(|_| None).collect();
    std::future::poll_fn(|cx| {
        let mut pending = false;
        for (read, slot) in reads.iter_mut().zip(done.iter_mut()) {
            if slot.is_none() {
                match read.as_mut().poll(cx) {
                    Poll::Ready(result) => *slot = Some(result),
                    Poll::Pending => pending = true,
                }
            }
        }
        if pending {
            Poll::Pending
        } else {
            Poll::Ready(())
        }
    })
    .await;
    done.into_iter().flatten().map(|result| result.map(Into::into)).collect()
}

/// Why segment files do not open as their manifest says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PackError {
    /// Another number of segment files than the manifest lists.
    Count {
        /// Files given.
        found: usize,
        /// Segments in the manifest.
        expected: usize,
    },
    /// A segment file has another size than the manifest says (missing or truncated).
    Size {
        /// The segment file.
        file: String,
        /// Bytes read.
        found: usize,
        /// Bytes the manifest promises.
        expected: usize,
    },
    /// A file of the manifest lies outside its segment file.
    OutOfRange(String),
}

impl std::fmt::Display for PackError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PackError::Count { found, expected } => {
                write!(f, "the search index has {found} segment files, its manifest lists {expected}")
            }
            PackError::Size { file, found, expected } => {
                write!(f, "{file} has {found} bytes, the search index manifest says {expected}")
            }
            PackError::OutOfRange(name) => write!(f, "the search index manifest puts {name} outside its segment"),
        }
    }
}

impl std::error::Error for PackError {}

/// A read-only directory over the segment files and the manifest's `meta.json`.
#[derive(Clone)]
pub struct SegmentDirectory {
    files: Arc<HashMap<PathBuf, OwnedBytes>>,
}

impl std::fmt::Debug for SegmentDirectory {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "SegmentDirectory({} files)", self.files.len())
    }
}

impl SegmentDirectory {
    /// A directory over `segments`, the bytes of the manifest's segment files in its order.
    pub fn new(manifest: &PackManifest, segments: Vec<Vec<u8>>) -> Result<Self, PackError> {
        if segments.len() != manifest.segments.len() {
            return Err(PackError::Count { found: segments.len(), expected: manifest.segments.len() });
        }
        let mut files = HashMap::new();
        for (meta, bytes) in manifest.segments.iter().zip(segments) {
            if bytes.len() != meta.bytes() {
                return Err(PackError::Size { file: meta.file(), found: bytes.len(), expected: meta.bytes() });
            }
            let bytes = OwnedBytes::new(bytes);
            for (name, range) in &meta.files {
                if range.start > range.end || range.end > bytes.len() {
                    return Err(PackError::OutOfRange(name.clone()));
                }
                files.insert(PathBuf::from(name), bytes.slice(range.clone()));
            }
        }
        let meta = serde_json::to_vec(&manifest.meta).unwrap_or_default();
        files.insert(PathBuf::from("meta.json"), OwnedBytes::new(meta));
        Ok(SegmentDirectory { files: Arc::new(files) })
    }

    fn file(&self, path: &Path) -> Result<&OwnedBytes, OpenReadError> {
        self.files.get(path).ok_or_else(|| OpenReadError::FileDoesNotExist(path.to_path_buf()))
    }
}

fn read_only() -> io::Error {
    io::Error::new(io::ErrorKind::PermissionDenied, "the search index is read-only")
}

impl Directory for SegmentDirectory {
    fn get_file_handle(&self, path: &Path) -> Result<Arc<dyn FileHandle>, OpenReadError> {
        Ok(Arc::new(self.file(path)?.clone()))
    }

    fn delete(&self, _path: &Path) -> Result<(), DeleteError> {
        Ok(())
    }

    fn exists(&self, path: &Path) -> Result<bool, OpenReadError> {
        Ok(self.files.contains_key(path))
    }

    fn open_write(&self, path: &Path) -> Result<WritePtr, OpenWriteError> {
        Err(OpenWriteError::IoError { io_error: Arc::new(read_only()), filepath: path.to_path_buf() })
    }

    fn atomic_read(&self, path: &Path) -> Result<Vec<u8>, OpenReadError> {
        Ok(self.file(path)?.as_slice().to_vec())
    }

    fn atomic_write(&self, _path: &Path, _data: &[u8]) -> io::Result<()> {
        Err(read_only())
    }

    fn sync_directory(&self) -> io::Result<()> {
        Ok(())
    }

    /// Nothing writes here, so every lock is free; the default would try to write a lock file.
    fn acquire_lock(&self, _lock: &Lock) -> Result<DirectoryLock, LockError> {
        Ok(DirectoryLock::from(Box::new(())))
    }

    fn watch(&self, _callback: WatchCallback) -> tantivy::Result<WatchHandle> {
        Ok(WatchHandle::empty())
    }
}
