//! The build manifest: for every URL path, which file of `dist/` to send, its media type and its
//! extra headers. `portal build` writes it; every server reads it. It also carries the site settings
//! the dynamic handlers need, because the dynamic side reads `dist/`, never `content/`.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::content::{MenuItem, SiteConfig};
use crate::i18n::Strings;

/// Where the manifest lives inside the build folder.
pub const MANIFEST_FILE: &str = "_portal/manifest.json";

/// Where `portal build` keeps work it may reuse in the next build into the same folder. Not a
/// part of the site: never in the manifest, a snapshot, the nginx snippet or a Worker upload
/// (`.assetsignore`); deleting it (or the whole build folder) makes the next build a cold one.
pub const CACHE_DIR: &str = "_portal/cache";

/// The largest file a build may write: Cloudflare's limit for one static asset (25 MiB). An
/// output over it is a content error naming what made it.
pub const MAX_FILE_BYTES: usize = 25 * 1024 * 1024;

/// The manifest format version; bumped on incompatible changes.
pub const MANIFEST_FORMAT: u32 = 1;

/// The build manifest.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Manifest {
    /// [`MANIFEST_FORMAT`] of the writer.
    pub format: u32,
    /// The build time (RFC 3339), `SOURCE_DATE_EPOCH` when set.
    pub generated_at: String,
    /// The site settings of `site.yaml`, with the base URL the build used.
    pub site: SiteConfig,
    /// The interface text in the site's language, for pages rendered per request.
    #[serde(default)]
    pub strings: Strings,
    /// The main navigation of every page (`site.yaml` `menu`, else the collections that have
    /// records), resolved by the build so pages rendered per request show the same links.
    #[serde(default)]
    pub navigation: Vec<MenuItem>,
    /// Named header sets, referred to by [`Asset::headers`] (e.g. the `Link` relations of HTML pages).
    #[serde(default)]
    pub header_sets: BTreeMap<String, Vec<(String, String)>>,
    /// Every URL path the build serves.
    pub routes: BTreeMap<String, Asset>,
    /// The HTML page sent with 404 for unknown paths outside `/api/` (file relative to the build).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub not_found_page: Option<String>,
}

/// One served file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Asset {
    /// The file, relative to the build folder.
    pub file: String,
    /// Its media type.
    #[serde(rename = "type")]
    pub content_type: String,
    /// A strong entity tag of its bytes, quotes included.
    pub etag: String,
    /// The name of a header set in [`Manifest::header_sets`] to send with it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub headers: Option<String>,
    /// The markdown twin of an HTML page (file relative to the build folder).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub markdown: Option<String>,
}

impl Manifest {
    /// The asset served at `path`.
    pub fn asset(&self, path: &str) -> Option<&Asset> {
        self.routes.get(path)
    }

    /// The extra headers of `asset`.
    pub fn headers_of(&self, asset: &Asset) -> &[(String, String)] {
        asset.headers.as_ref().and_then(|name| self.header_sets.get(name)).map(Vec::as_slice).unwrap_or(&[])
    }
}
