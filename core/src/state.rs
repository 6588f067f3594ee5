//! What a server holds of one build, shared by every request and changed by none: the manifest
//! head and its route index (read shard by shard), the encyclopedia catalog and the search index
//! (each read on first use and kept), and the upstream fetches under way. The request pipeline
//! ([`crate::app`]) composes it; handlers read it through their context.

use std::sync::{Arc, OnceLock};

use bytes::Bytes;

use crate::dist::manifest::{MANIFEST_FILE, MANIFEST_FORMAT};
use crate::dist::{Asset, Manifest, RouteIndex, Routes};
use crate::http::problem::Problem;
use crate::http::upstream::Failure;
use crate::platform::{internal, Platform, PlatformError};
use crate::queries::encyclopedia::{Catalog, CATALOG_FILE};
use crate::search::pack::{PackManifest, INDEX_MANIFEST};
use crate::search::SearchIndex;
use crate::single_flight::{Shared, SingleFlight};
use crate::standards::hsds::{self, Dataset};

/// The build a server answers from.
#[derive(Debug)]
pub struct State {
    manifest: Manifest,
    /// Every URL the build serves, shard by shard.
    routes: RouteIndex,
    /// The search index, opened on first use (natively at start, in the Worker in the background
    /// after an isolate's first request) and kept; a search asked while it opens waits for it.
    search: SingleFlight<Arc<SearchIndex>>,
    /// The encyclopedia catalog, read on first use and kept.
    catalog: OnceLock<Arc<Catalog>>,
    /// Every HSDS item, read on first use and kept.
    hsds: OnceLock<Arc<Dataset>>,
    /// Upstream fetches under way, by URL, which requests asking meanwhile join.
    upstream_fetches: Shared<Result<Bytes, Failure>>,
}

impl State {
    /// The state of a manifest head and every route it serves, in memory (tests and tools).
    pub fn new(manifest: Manifest, routes: &Routes) -> Self {
        State::with_index(manifest, RouteIndex::loaded(routes))
    }

    fn with_index(manifest: Manifest, routes: RouteIndex) -> Self {
        State {
            manifest,
            routes,
            search: SingleFlight::default(),
            catalog: OnceLock::new(),
            hsds: OnceLock::new(),
            upstream_fetches: Shared::default(),
        }
    }

    /// The asset served at `route`, reading its shard of the route index on first use; a shard
    /// that cannot be read is a damaged build (500, reported).
    pub async fn asset<P: Platform>(&self, platform: &P, route: &str) -> Result<Option<&Asset>, Problem> {
        self.routes.get(platform, route).await.map_err(internal(platform, "reading the route index"))
    }

    /// The encyclopedia catalog of the build, read on first use and kept.
    pub async fn catalog<P: Platform>(&self, platform: &P) -> Result<Arc<Catalog>, Problem> {
        if let Some(catalog) = self.catalog.get() {
            return Ok(Arc::clone(catalog));
        }
        let catalog: Catalog = match platform.read_file(CATALOG_FILE).await.map_err(internal(platform, CATALOG_FILE))? {
            Some(bytes) => serde_json::from_slice(&bytes).map_err(internal(platform, CATALOG_FILE))?,
            None => Catalog::default(),
        };
        Ok(Arc::clone(self.catalog.get_or_init(|| Arc::new(catalog))))
    }

    /// Every HSDS item of the build (docs/standards.md#hsds), read on first use and kept.
    pub async fn hsds<P: Platform>(&self, platform: &P) -> Result<Arc<Dataset>, Problem> {
        if let Some(data) = self.hsds.get() {
            return Ok(Arc::clone(data));
        }
        let file = hsds::DATA_FILE;
        let data: Dataset = match platform.read_file(file).await.map_err(internal(platform, file))? {
            Some(bytes) => serde_json::from_slice(&bytes).map_err(internal(platform, file))?,
            None => Dataset::default(),
        };
        Ok(Arc::clone(self.hsds.get_or_init(|| Arc::new(data))))
    }

    /// The build's search index: read through the platform on first use (the manifest, then every
    /// segment file at once), then kept for the life of the app. Callers that ask while it is being
    /// read wait for that read.
    pub async fn search_index<P: Platform>(&self, platform: &P) -> Result<Arc<SearchIndex>, Problem> {
        let index = self.search.get_or_try_load(|| open_search_index(platform)).await?;
        Ok(Arc::clone(index))
    }

    /// Reads the manifest head of the build through the platform (its route shards are read as
    /// URLs of each are asked for).
    pub async fn load<P: Platform>(platform: &P) -> Result<Self, PlatformError> {
        let bytes = platform.read_file(MANIFEST_FILE).await?.ok_or_else(|| {
            PlatformError(format!("{MANIFEST_FILE} is missing: is this a folder written by `portal build`?"))
        })?;
        let manifest: Manifest =
            serde_json::from_slice(&bytes).map_err(|e| PlatformError(format!("{MANIFEST_FILE}: {e}")))?;
        if manifest.format != MANIFEST_FORMAT {
            return Err(PlatformError(format!(
                "{MANIFEST_FILE} is format {}, this server reads format {MANIFEST_FORMAT}: build again with this version",
                manifest.format
            )));
        }
        let routes = RouteIndex::lazy(manifest.route_shards);
        Ok(State::with_index(manifest, routes))
    }

    /// The upstream fetches under way, shared by the requests that ask for the same URL.
    pub fn upstream_fetches(&self) -> &Shared<Result<Bytes, Failure>> {
        &self.upstream_fetches
    }

    /// The build's manifest.
    pub fn manifest(&self) -> &Manifest {
        &self.manifest
    }
}

/// Reads the search index of the build: its manifest, then every segment file at once.
async fn open_search_index<P: Platform>(platform: &P) -> Result<Arc<SearchIndex>, Problem> {
    const CONTEXT: &str = "opening the search index";
    let manifest_bytes = required_asset(platform, INDEX_MANIFEST).await?;
    let manifest: PackManifest = serde_json::from_slice(&manifest_bytes).map_err(internal(platform, CONTEXT))?;
    let read = |file: String| async move { required_asset(platform, &file).await };
    let segments = crate::search::pack::read_segments(&manifest, read).await?;
    Ok(Arc::new(SearchIndex::open(&manifest, segments).map_err(internal(platform, CONTEXT))?))
}

/// A file the build always writes; its absence is a damaged build (500, reported).
async fn required_asset<P: Platform>(platform: &P, file: &str) -> Result<Bytes, Problem> {
    match platform.read_file(file).await {
        Ok(Some(bytes)) => Ok(bytes),
        Ok(None) => Err(internal(platform, file)("the file is missing from the build")),
        Err(e) => Err(internal(platform, file)(e)),
    }
}
