//! The route index (`portal_core::dist::manifest`): every URL the build serves with the asset it
//! serves there, written in shards the servers read as they need them. Clean builds and rebuilds
//! make each shard with [`shard`], which refuses a URL two outputs claim, over the URLs
//! [`members`] gives it; a clean build makes every shard ([`put`]), a rebuild those its changes
//! touch, or all again when the count of shards changes.

use anyhow::{bail, Result};
use portal_core::dist::manifest::{shard_file, shard_of, Asset, Routes};
use rayon::prelude::*;

use crate::build::write::file::{etag, Group, OutFile};
use crate::build::write::sink::Outputs;

/// How many shards a clean build makes at a time: their routes are held only while they are made.
const BATCH: usize = 64;

/// Which of `count` shards each URL of `routes` falls in: for each shard, the positions in
/// `routes` of its URLs (`None`: an output served at no URL).
pub fn members<'a>(routes: impl IntoIterator<Item = Option<&'a str>>, count: u32) -> Vec<Vec<usize>> {
    let mut members = vec![Vec::new(); count.max(1) as usize];
    for (i, route) in routes.into_iter().enumerate() {
        if let Some(route) = route {
            members[shard_of(route, count) as usize].push(i);
        }
    }
    members
}

/// The file of shard `n`, of the URLs and assets in `routes`; an error naming the URL when two
/// outputs claim one.
pub fn shard(n: u32, routes: impl IntoIterator<Item = (String, Asset)>) -> Result<OutFile> {
    let mut shard = Routes::new();
    for (route, asset) in routes {
        claim(&mut shard, route, asset)?;
    }
    Ok(OutFile::internal(shard_file(n), serde_json::to_vec(&shard)?).in_group(Group::Layout))
}

/// Every shard of a clean build, `count` of them, made from every file written (a batch of shards
/// at a time, so a big site's routes are never all held at once).
pub fn put(files: &mut Outputs, count: u32) -> Result<()> {
    let members = members(files.made().iter().map(|w| w.route.as_deref()), count);
    for (batch, chunk) in members.chunks(BATCH).enumerate() {
        let made = files.made();
        let shards: Vec<OutFile> = chunk
            .par_iter()
            .enumerate()
            .map(|(n, members)| {
                let routes = members.iter().map(|&i| (made[i].route.clone().unwrap_or_default(), made[i].asset()));
                shard((batch * BATCH + n) as u32, routes)
            })
            .collect::<Result<_>>()?;
        files.extend(shards);
    }
    Ok(())
}

/// Every shard of `count`, made from `routes`: what a rebuild writes when the count changes.
pub fn all(routes: Routes, count: u32) -> Result<Vec<OutFile>> {
    let routes: Vec<(String, Asset)> = routes.into_iter().collect();
    let members = members(routes.iter().map(|(route, _)| Some(route.as_str())), count);
    (0..).zip(&members).map(|(n, members)| shard(n, members.iter().map(|&i| routes[i].clone()))).collect()
}

/// Every served file among `files` as the route index holds it; an error naming the URL when two
/// of them claim one.
pub fn routes<'a>(files: impl IntoIterator<Item = &'a OutFile>) -> Result<Routes> {
    let files: Vec<&OutFile> = files.into_iter().collect();
    let assets: Vec<(String, Asset)> = files
        .par_iter()
        .filter_map(|f| {
            f.route.as_ref().map(|route| {
                let asset = Asset {
                    file: f.file.clone(),
                    content_type: f.content_type.clone(),
                    etag: etag(&f.bytes),
                    headers: f.headers.clone(),
                    markdown: f.markdown.clone(),
                };
                (route.clone(), asset)
            })
        })
        .collect();
    let mut routes = Routes::new();
    for (route, asset) in assets {
        claim(&mut routes, route, asset)?;
    }
    Ok(routes)
}

/// Adds `route` and its asset to `routes`, unless another output claims it already: the one check
/// of a URL claimed twice as the route index is made.
fn claim(routes: &mut Routes, route: String, asset: Asset) -> Result<()> {
    if let Some(previous) = routes.get(&route) {
        bail!("two outputs claim the URL {route} (one is {}); rename one of the records", previous.file);
    }
    routes.insert(route, asset);
    Ok(())
}
