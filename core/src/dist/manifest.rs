//! The build manifest: for every URL path, which file of `dist/` to send, its media type and its
//! extra headers. `portal build` writes it; every server reads it. It also carries the site settings
//! the dynamic handlers need, because the dynamic side reads `dist/`, never `content/`.
//!
//! It comes in two parts (docs/deploying.md#deploy-limits), so that a server never parses the whole site to answer one
//! URL: the head ([`Manifest`], at [`MANIFEST_FILE`]) with the settings, and the route index in
//! shards of about [`ROUTES_PER_SHARD`] URLs each ([`Routes`], at [`shard_file`]), a URL's shard
//! chosen by a stable hash of it ([`shard_of`]). The Worker reads the head when an isolate starts
//! and a shard the first time it needs one; a 100,000-record site has about 400,000 URLs.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::content::i18n::Strings;
use crate::content::{MenuItem, SiteConfig};
use crate::dist::stable_hash::fnv1a;

/// Where the manifest lives inside the build folder.
pub const MANIFEST_FILE: &str = "_portal/manifest.json";

/// The largest file a build may write: Cloudflare's limit for one static asset (25 MiB). An
/// output over it is a content error naming what made it.
pub const MAX_FILE_BYTES: usize = 25 * 1024 * 1024;

/// The manifest format version; bumped on incompatible changes (2: the routes in shards).
pub const MANIFEST_FORMAT: u32 = 2;

/// Where the shards of the route index live inside the build folder.
pub const ROUTES_DIR: &str = "_portal/routes";

/// How many URLs a shard of the route index holds, about: small enough that the Worker reads one
/// in a millisecond or two (about 200 KB of JSON), large enough that a big site has few files.
pub const ROUTES_PER_SHARD: usize = 2048;

/// Every URL path the build serves, with its file (one shard of them, or all).
pub type Routes = BTreeMap<String, Asset>;

/// How many shards a build of `routes` URLs writes: a power of two, so that a growing site
/// reshuffles its shards only when it doubles.
pub fn shard_count(routes: usize) -> u32 {
    let wanted = routes.div_ceil(ROUTES_PER_SHARD).max(1);
    u32::try_from(wanted.next_power_of_two()).unwrap_or(u32::MAX)
}

/// The shard that holds `route` among `shards`.
pub fn shard_of(route: &str, shards: u32) -> u32 {
    (fnv1a(route.as_bytes()) % u64::from(shards.max(1))) as u32
}

/// The file of shard `shard`, relative to the build folder.
pub fn shard_file(shard: u32) -> String {
    format!("{ROUTES_DIR}/{shard}.json")
}

/// `routes` divided into `shards` shards, in shard order.
pub fn split_routes(routes: &Routes, shards: u32) -> Vec<Routes> {
    let mut out = vec![Routes::new(); shards.max(1) as usize];
    for (route, asset) in routes {
        out[shard_of(route, shards) as usize].insert(route.clone(), asset.clone());
    }
    out
}

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
    /// How many shards the route index has (see [`shard_count`]).
    pub route_shards: u32,
    /// The HTML page sent with 404 for unknown paths outside `/api/` (file relative to the build).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub not_found_page: Option<String>,
    /// The content pages introducing the pages rendered per request (the search page, the
    /// forms), by URL (see `routes::page_at`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub intros: BTreeMap<String, crate::content::Intro>,
    /// The site's help page (docs/content.md#the-help-page), for the search page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub help: Option<crate::content::HelpPage>,
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
    /// The extra headers of `asset`.
    pub fn headers_of(&self, asset: &Asset) -> &[(String, String)] {
        asset.headers.as_ref().and_then(|name| self.header_sets.get(name)).map(Vec::as_slice).unwrap_or(&[])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_double_with_the_site_and_every_route_has_one() {
        assert_eq!(shard_count(0), 1);
        assert_eq!(shard_count(ROUTES_PER_SHARD), 1);
        assert_eq!(shard_count(ROUTES_PER_SHARD + 1), 2);
        assert_eq!(shard_count(400_000), 256);
        let asset =
            Asset { file: "a".into(), content_type: "t".into(), etag: "e".into(), headers: None, markdown: None };
        let routes: Routes = (0..5000).map(|i| (format!("/news/r-{i}"), asset.clone())).collect();
        let shards = split_routes(&routes, shard_count(routes.len()));
        assert_eq!(shards.len(), 4);
        assert_eq!(shards.iter().map(BTreeMap::len).sum::<usize>(), 5000);
        assert!(shards.iter().all(|s| s.len() > 1000), "a stable hash spreads URLs evenly");
        for (n, shard) in shards.iter().enumerate() {
            assert!(shard.keys().all(|route| shard_of(route, 4) as usize == n));
        }
    }
}
