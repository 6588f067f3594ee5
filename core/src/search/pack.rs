//! Carrying an index through `dist/`: the index files packed into chunk files of at most 20 MiB plus
//! a small manifest, and a read-only tantivy `Directory` over the unpacked blob that serves every
//! file as a slice of it (no copies), so the same bytes open natively and in the Worker.

use std::collections::HashMap;
use std::io;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use tantivy::directory::error::{DeleteError, LockError, OpenReadError, OpenWriteError};
use tantivy::directory::{
    Directory, DirectoryLock, FileHandle, Lock, OwnedBytes, WatchCallback, WatchHandle, WritePtr,
};

/// Where the packed index lives inside the build folder.
pub const INDEX_DIR: &str = "_portal/search";

/// The manifest of the packed index.
pub const INDEX_MANIFEST: &str = "_portal/search/index.json";

/// The largest chunk file (static assets are limited to 25 MiB per file on Cloudflare).
pub const MAX_CHUNK_BYTES: usize = 20 << 20;

/// Which index file sits where in the concatenated chunks.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PackManifest {
    /// The chunk files, in order, relative to the build folder.
    pub chunks: Vec<String>,
    /// Total bytes over all chunks.
    pub total_bytes: usize,
    /// Each index file's byte range in the concatenation.
    pub files: Vec<(String, Range<usize>)>,
}

/// Packs named files into chunks: returns the manifest and the chunk bytes (name, bytes).
pub fn pack(files: &[(String, Vec<u8>)]) -> (PackManifest, Vec<(String, Vec<u8>)>) {
    let mut manifest = PackManifest::default();
    let mut blob = Vec::with_capacity(files.iter().map(|(_, b)| b.len()).sum());
    for (name, bytes) in files {
        let start = blob.len();
        blob.extend_from_slice(bytes);
        manifest.files.push((name.clone(), start..blob.len()));
    }
    manifest.total_bytes = blob.len();
    let chunks: Vec<(String, Vec<u8>)> = blob
        .chunks(MAX_CHUNK_BYTES)
        .enumerate()
        .map(|(i, chunk)| (format!("{INDEX_DIR}/chunk-{i:03}.bin"), chunk.to_vec()))
        .collect();
    manifest.chunks = chunks.iter().map(|(name, _)| name.clone()).collect();
    (manifest, chunks)
}

/// A read-only directory over one blob.
#[derive(Clone)]
pub struct BlobDirectory {
    blob: OwnedBytes,
    files: Arc<HashMap<PathBuf, Range<usize>>>,
}

impl std::fmt::Debug for BlobDirectory {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "BlobDirectory({} files, {} bytes)", self.files.len(), self.blob.len())
    }
}

/// Why packed chunks cannot be opened as an index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PackError {
    /// The chunks add up to another size than the manifest says (a chunk is missing or truncated).
    Size {
        /// Bytes read.
        found: usize,
        /// Bytes the manifest promises.
        expected: usize,
    },
    /// A file of the manifest lies outside the chunks.
    OutOfRange(String),
}

impl std::fmt::Display for PackError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PackError::Size { found, expected } => {
                write!(f, "the search index has {found} bytes, its manifest says {expected}")
            }
            PackError::OutOfRange(name) => write!(f, "the search index manifest puts {name} outside the index"),
        }
    }
}

impl std::error::Error for PackError {}

impl BlobDirectory {
    /// A directory over the concatenated chunks `blob`, laid out as `manifest` says.
    pub fn new(manifest: &PackManifest, blob: Vec<u8>) -> Result<Self, PackError> {
        if blob.len() != manifest.total_bytes {
            return Err(PackError::Size { found: blob.len(), expected: manifest.total_bytes });
        }
        if let Some((name, _)) =
            manifest.files.iter().find(|(_, range)| range.end > blob.len() || range.start > range.end)
        {
            return Err(PackError::OutOfRange(name.clone()));
        }
        let files = manifest.files.iter().map(|(name, range)| (PathBuf::from(name), range.clone())).collect();
        Ok(BlobDirectory { blob: OwnedBytes::new(blob), files: Arc::new(files) })
    }

    fn range(&self, path: &Path) -> Result<&Range<usize>, OpenReadError> {
        self.files.get(path).ok_or_else(|| OpenReadError::FileDoesNotExist(path.to_path_buf()))
    }
}

fn read_only() -> io::Error {
    io::Error::new(io::ErrorKind::PermissionDenied, "the packed search index is read-only")
}

impl Directory for BlobDirectory {
    fn get_file_handle(&self, path: &Path) -> Result<Arc<dyn FileHandle>, OpenReadError> {
        let range = self.range(path)?.clone();
        Ok(Arc::new(self.blob.slice(range)))
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
        let range = self.range(path)?.clone();
        Ok(self.blob.as_slice()[range].to_vec())
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
