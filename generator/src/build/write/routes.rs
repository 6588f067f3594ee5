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
    let members = members(files.made().iter().map(|w| w.route()), count);
    for (batch, chunk) in members.chunks(BATCH).enumerate() {
        let made = files.made();
        let shards: Vec<OutFile> = chunk
            .par_iter()
            .enumerate()
            .map(|(n, members)| {
                let routes =
                    members.iter().map(|&i| (made[i].route().unwrap_or_default().to_string(), made[i].asset()));
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
pub fn of<'a>(files: impl IntoIterator<Item = &'a OutFile>) -> Result<Routes> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use portal_core::dist::manifest::shard_count;

    fn asset(file: &str) -> Asset {
        Asset { file: file.into(), content_type: "text/html".into(), etag: "e".into(), headers: None, markdown: None }
    }

    /// `count` pages under `/news/`, as a rebuild holds them.
    fn news(count: usize) -> Routes {
        (0..count).map(|i| (format!("/news/r-{i}"), asset(&format!("news/r-{i}.html")))).collect()
    }

    #[test]
    fn a_url_two_outputs_claim_is_refused_naming_both() {
        let twice =
            [("/news/a".to_string(), asset("news/a.html")), ("/news/a".to_string(), asset("news/a/index.html"))];
        let error = shard(0, twice).expect_err("a URL claimed twice").to_string();
        assert!(error.contains("/news/a") && error.contains("news/a.html"), "{error}");
    }

    #[test]
    fn members_leave_out_what_is_served_at_no_url() {
        let members = members([Some("/a"), None, Some("/b")], 1);
        assert_eq!(members, [vec![0, 2]]);
    }

    /// A clean build's shards, made from the files it wrote, are the ones a rebuild makes from
    /// the same URLs: both go through [`members`] and [`shard`].
    #[test]
    fn a_clean_build_and_a_rebuild_make_the_same_shards() {
        let routes = news(5000);
        let count = shard_count(routes.len());
        assert!(count > 1, "the test needs several shards");
        let dir = tempfile::tempdir().expect("a temporary folder");
        let mut files = Outputs::new(Some(dir.path().to_path_buf())).expect("outputs");
        files.extend(routes.iter().map(|(route, a)| OutFile::served(route, &a.file, "text/html", Vec::new())));
        files.extend([OutFile::internal("_portal/unserved.json", Vec::new())]);
        put(&mut files, count).expect("the shards");
        files.finish().expect("written");
        let rebuilt = all(routes, count).expect("the shards");
        assert_eq!(rebuilt.len(), count as usize);
        for file in rebuilt {
            let written = std::fs::read(dir.path().join(&file.file)).expect("a shard the clean build wrote");
            let written: Routes = serde_json::from_slice(&written).expect("a shard");
            let made: Routes = serde_json::from_slice(&file.bytes).expect("a shard");
            let files = |routes: &Routes| routes.iter().map(|(r, a)| (r.clone(), a.file.clone())).collect::<Vec<_>>();
            assert_eq!(files(&written), files(&made), "{}", file.file);
        }
    }

    #[test]
    fn a_clean_build_refuses_a_url_two_files_claim() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let mut files = Outputs::new(Some(dir.path().to_path_buf())).expect("outputs");
        files.extend([
            OutFile::served("/news/a", "news/a.html", "text/html", Vec::new()),
            OutFile::served("/news/a", "news/a/index.html", "text/html", Vec::new()),
        ]);
        let error = put(&mut files, 1).expect_err("a URL claimed twice").to_string();
        assert!(error.contains("two outputs claim the URL /news/a"), "{error}");
    }
}
