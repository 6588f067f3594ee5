//! The route index of a build as a server holds it: the manifest's shards (see
//! [`crate::dist::manifest`]), each read through the platform the first time one of its URLs is asked
//! for, then kept for the life of the app. A Worker isolate that answers a handful of URLs reads a
//! handful of shards, never the whole site.

use std::sync::{Arc, OnceLock};

use crate::dist::manifest::{shard_file, shard_of, split_routes, Asset, Routes};
use crate::platform::{Platform, PlatformError};

/// The shards of one build's route index, loaded on first use.
#[derive(Debug, Clone)]
pub struct RouteIndex {
    shards: Vec<Arc<OnceLock<Routes>>>,
}

impl RouteIndex {
    /// An index of `shards` shards, none read yet.
    pub fn lazy(shards: u32) -> Self {
        RouteIndex { shards: (0..shards.max(1)).map(|_| Arc::new(OnceLock::new())).collect() }
    }

    /// An index holding `routes` already (tests, and tools that have every route at hand).
    pub fn loaded(routes: &Routes) -> Self {
        let index = RouteIndex::lazy(crate::dist::manifest::shard_count(routes.len()));
        let count = index.shards.len() as u32;
        for (cell, shard) in index.shards.iter().zip(split_routes(routes, count)) {
            let _ = cell.set(shard);
        }
        index
    }

    /// How many shards the index has.
    pub fn shard_count(&self) -> u32 {
        self.shards.len() as u32
    }

    /// The asset served at `route`, reading its shard first if no request has yet. `Err` when the
    /// shard cannot be read or parsed: the build is damaged.
    pub async fn get<P: Platform + ?Sized>(&self, platform: &P, route: &str) -> Result<Option<&Asset>, PlatformError> {
        let shard = shard_of(route, self.shard_count());
        let cell = &self.shards[shard as usize];
        if cell.get().is_none() {
            let file = shard_file(shard);
            let bytes = platform
                .read_file(&file)
                .await?
                .ok_or_else(|| PlatformError(format!("{file} is missing from the build")))?;
            let routes: Routes = serde_json::from_slice(&bytes).map_err(|e| PlatformError(format!("{file}: {e}")))?;
            let _ = cell.set(routes);
        }
        Ok(cell.get().and_then(|routes| routes.get(route)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dist::manifest::shard_count;
    use crate::testing::{block_on, FakePlatform};

    fn asset(file: &str) -> Asset {
        Asset {
            file: file.into(),
            content_type: "text/html".into(),
            etag: "\"e\"".into(),
            headers: None,
            markdown: None,
        }
    }

    #[test]
    fn shards_are_read_once_when_first_asked() {
        let routes: Routes = (0..3000).map(|i| (format!("/news/r-{i}"), asset(&format!("news/r-{i}.html")))).collect();
        let count = shard_count(routes.len());
        let mut platform = FakePlatform::default();
        for (n, shard) in split_routes(&routes, count).iter().enumerate() {
            platform = platform.with_file(&shard_file(n as u32), serde_json::to_vec(shard).expect("json"));
        }
        let index = RouteIndex::lazy(count);
        let found = block_on(index.get(&platform, "/news/r-7")).expect("read");
        assert_eq!(found.map(|a| a.file.as_str()), Some("news/r-7.html"));
        assert!(block_on(index.get(&platform, "/news/none")).expect("read").is_none());
        platform.files.borrow_mut().clear();
        let again = block_on(index.get(&platform, "/news/r-7")).expect("kept");
        assert!(again.is_some(), "a shard read once is kept");
        let loaded = RouteIndex::loaded(&routes);
        assert!(block_on(loaded.get(&FakePlatform::default(), "/news/r-2999")).expect("in memory").is_some());
    }

    #[test]
    fn a_missing_shard_is_an_error() {
        let index = RouteIndex::lazy(2);
        assert!(block_on(index.get(&FakePlatform::default(), "/x")).is_err());
    }
}
