//! How a file too large for one static asset is read back from its parts: the layout the build
//! writes them in ([`crate::dist::parts`] splits a file) and the joining
//! [`Platform::read_file`](super::Platform::read_file) does when the platform lacks the whole.
//! The layout is here, below the build's format, because every read of a file goes through it.

use bytes::Bytes;
use serde::{Deserialize, Serialize};

use super::{Platform, PlatformError};

/// Where the parts of a file live: `_portal/parts/<file>/<n>`, with the list in `index.json`.
pub const PARTS_DIR: &str = "_portal/parts";

/// The index of `file`'s parts.
pub fn index_file(file: &str) -> String {
    format!("{PARTS_DIR}/{file}/index.json")
}

/// What the index of a file's parts says (JSON, at [`index_file`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PartsIndex {
    /// The whole file's path in the build.
    pub file: String,
    /// The whole file's length.
    pub bytes: usize,
    /// The parts' paths in the build, in order.
    pub parts: Vec<String>,
}

/// `file` of the build: as the platform has it, else joined from its parts.
pub(super) async fn join<P: Platform + ?Sized>(platform: &P, file: &str) -> Result<Option<Bytes>, PlatformError> {
    if let Some(bytes) = platform.read_asset(file).await? {
        return Ok(Some(bytes));
    }
    let Some(index) = platform.read_asset(&index_file(file)).await? else { return Ok(None) };
    let index: PartsIndex =
        serde_json::from_slice(&index).map_err(|e| PlatformError(format!("{}: {e}", index_file(file))))?;
    let mut whole = Vec::with_capacity(index.bytes);
    for part in &index.parts {
        let bytes = platform.read_asset(part).await?.ok_or_else(|| PlatformError(format!("{part} is missing")))?;
        whole.extend_from_slice(&bytes);
    }
    Ok(Some(Bytes::from(whole)))
}
