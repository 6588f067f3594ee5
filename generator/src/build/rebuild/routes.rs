//! The route index as a rebuild sees it: the last build's shards, read from the build folder as
//! needed, under this build's changes. It resolves the links of the pages made again, finds URLs
//! two outputs would claim, and writes the shards that changed.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use anyhow::{Context, Result};
use portal_core::dist::manifest::{shard_count, shard_file, shard_of, Asset, Routes};

use crate::build::write::file::OutFile;
use crate::build::write::links::Resolve;
use crate::build::write::routes;

/// The last build's routes with this build's changes over them.
#[derive(Debug)]
pub struct RouteView {
    out: PathBuf,
    shards: u32,
    read: Mutex<HashMap<u32, Arc<Routes>>>,
    /// This build's changes: a URL's new asset, or `None` for a URL gone.
    pub changes: BTreeMap<String, Option<Asset>>,
}

impl RouteView {
    /// The routes of the build in `out`, written in `shards` shards.
    pub fn new(out: &Path, shards: u32) -> Self {
        RouteView { out: out.to_path_buf(), shards, read: Mutex::default(), changes: BTreeMap::new() }
    }

    fn shard(&self, n: u32) -> Result<Arc<Routes>> {
        if let Some(routes) = self.read.lock().ok().and_then(|read| read.get(&n).cloned()) {
            return Ok(routes);
        }
        let file = self.out.join(shard_file(n));
        let bytes = std::fs::read(&file).with_context(|| format!("reading {}", file.display()))?;
        let routes: Routes = serde_json::from_slice(&bytes).with_context(|| format!("reading {}", file.display()))?;
        let routes = Arc::new(routes);
        if let Ok(mut read) = self.read.lock() {
            read.insert(n, Arc::clone(&routes));
        }
        Ok(routes)
    }

    /// The asset the last build served at `route`.
    pub fn last(&self, route: &str) -> Result<Option<Asset>> {
        Ok(self.shard(shard_of(route, self.shards))?.get(route).cloned())
    }

    /// The asset this build serves at `route`.
    pub fn now(&self, route: &str) -> Result<Option<Asset>> {
        match self.changes.get(route) {
            Some(change) => Ok(change.clone()),
            None => self.last(route),
        }
    }

    /// The shards to write for `total` URLs: those holding a changed URL, or all of them when
    /// the site grew or shrank past a power of two.
    pub fn shard_files(&self, total: usize) -> Result<Vec<OutFile>> {
        let count = shard_count(total);
        if count != self.shards {
            let mut all = Routes::new();
            for n in 0..self.shards {
                all.extend(self.shard(n)?.iter().map(|(route, asset)| (route.clone(), asset.clone())));
            }
            apply(&mut all, &self.changes);
            return routes::all(all, count);
        }
        let touched: BTreeSet<u32> = self.changes.keys().map(|route| shard_of(route, count)).collect();
        touched
            .into_iter()
            .map(|n| {
                let mut shard = Routes::clone(&*self.shard(n)?);
                apply(&mut shard, &self.changes);
                routes::shard(n, shard.into_iter().filter(|(route, _)| shard_of(route, count) == n))
            })
            .collect()
    }
}

fn apply(routes: &mut Routes, changes: &BTreeMap<String, Option<Asset>>) {
    for (route, change) in changes {
        match change {
            Some(asset) => routes.insert(route.clone(), asset.clone()),
            None => routes.remove(route),
        };
    }
}

impl Resolve for RouteView {
    fn file_of(&self, route: &str) -> Option<String> {
        self.now(route).ok().flatten().map(|asset| asset.file)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn asset(file: &str) -> Asset {
        Asset { file: file.into(), content_type: "text/html".into(), etag: "e".into(), headers: None, markdown: None }
    }

    /// The shards a rebuild writes for its changes are those of the whole new route index, whether
    /// it rewrites the shards its changes touch or all of them (the count changed).
    #[test]
    fn a_rebuilds_shards_are_those_of_all_its_routes() {
        let last: Routes = (0..3000).map(|i| (format!("/news/r-{i}"), asset(&format!("news/r-{i}.html")))).collect();
        let dir = tempfile::tempdir().expect("a temporary folder");
        let count = shard_count(last.len());
        for file in routes::all(last.clone(), count).expect("the last build's shards") {
            let path = dir.path().join(&file.file);
            std::fs::create_dir_all(path.parent().expect("a folder")).expect("a folder");
            std::fs::write(path, &file.bytes).expect("a shard");
        }
        for total in [3000, 9000] {
            let mut view = RouteView::new(dir.path(), count);
            view.changes.insert("/news/r-1".into(), None);
            view.changes.insert("/news/new".into(), Some(asset("news/new.html")));
            let mut now = last.clone();
            apply(&mut now, &view.changes);
            let whole = routes::all(now, shard_count(total)).expect("the shards");
            let written = view.shard_files(total).expect("the shards");
            assert!(!written.is_empty());
            for file in written {
                let same = whole.iter().find(|w| w.file == file.file).expect("a shard of the index");
                assert_eq!(same.bytes, file.bytes, "{} with {total} URLs", file.file);
            }
        }
    }
}
