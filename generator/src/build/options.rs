//! What a build is asked to do: where it reads and writes, and how it lays out its upload.

use std::path::PathBuf;

use crate::build::hosting::upload;
use crate::load;

/// Where to read and write.
#[derive(Debug, Clone)]
pub struct BuildOptions {
    /// The content folder.
    pub content: PathBuf,
    /// A folder of templates overriding the built-in theme.
    pub templates: Option<PathBuf>,
    /// The output folder.
    pub out: PathBuf,
    /// Overrides `base_url` of `site.yaml`.
    pub base_url: Option<String>,
    /// Keeps drafts, marked as such (a private preview: `portal serve --drafts`).
    pub drafts: bool,
    /// How a Worker deploy of the output is laid out: files over the size limit in parts, small
    /// files in packs past a number of files (see [`upload`]).
    pub layout: upload::Layout,
    /// The build cache (`--cache-dir`); `None`: `.portal/cache/` beside the content folder (see
    /// [`BuildOptions::state_dir`]).
    pub cache_dir: Option<PathBuf>,
    /// Reads sources at URLs from the build cache only (`--offline`).
    pub offline: bool,
}

impl BuildOptions {
    /// The build cache's folder: `--cache-dir`, else `.portal/cache/` beside the content folder,
    /// like the state folder of `portal serve`. Never inside the output folder, which holds only
    /// what may be published: the cache keeps every record's card, drafts included.
    pub fn cache_root(&self) -> PathBuf {
        self.cache_dir.clone().unwrap_or_else(|| load::sources::remote::cache_beside(&self.content))
    }

    /// How the content is read: drafts or not, and sources at URLs through the build cache.
    pub fn reading(&self) -> load::Reading {
        let remote = load::sources::Remote {
            cache: Some(load::sources::remote::copies_in(&self.cache_root())),
            offline: self.offline,
        };
        load::Reading { drafts: self.drafts, remote }
    }

    /// The state a build into `out` keeps for the next one: a folder of the cache named by a
    /// hash of the output folder's absolute path, so builds of one content folder into several
    /// output folders keep apart.
    pub fn state_dir(&self) -> PathBuf {
        use sha2::{Digest, Sha256};
        let out = std::path::absolute(&self.out).unwrap_or_else(|_| self.out.clone());
        let digest = Sha256::digest(out.as_os_str().as_encoded_bytes());
        let name: String = digest.iter().take(8).map(|b| format!("{b:02x}")).collect();
        self.cache_root().join(name)
    }
}
