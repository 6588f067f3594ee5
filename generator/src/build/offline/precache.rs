//! What a phone downloads when the service worker installs (docs/offline.md#what-is-cached): the
//! files worth having offline, most needed first, taken in that order while they fit the site's
//! budget. A file that does not fit is left out (and named in a warning); smaller ones after it
//! may still fit.

use std::borrow::Cow;
use std::collections::HashMap;

use serde::Serialize;

/// A built file as the offline files need it: borrowed from the table of files written where it
/// can be (a million-record build has some two million pages).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Built<'a> {
    /// Its path in the build folder (`news.html`), which is also its URL path under the site's root.
    pub file: Cow<'a, str>,
    /// Its size in bytes.
    pub len: u64,
    /// What tells its bytes from others' (its entity tag).
    pub tag: Cow<'a, str>,
    /// The collection whose pages it is among, if any.
    pub collection: Option<&'static str>,
}

/// One file of the precache.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Item {
    /// Its path under the site's root, which is also the URL the worker fetches.
    pub url: String,
    /// Its size in bytes.
    pub bytes: u64,
    /// Its entity tag, so a new build's list differs when a file does.
    #[serde(skip)]
    pub tag: String,
}

/// The precache of a build and what the budget left out.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Precache {
    /// Precached on install, in priority order.
    pub files: Vec<Item>,
    /// Wanted but past the budget.
    pub left_out: Vec<Item>,
}

impl Precache {
    /// Bytes the install downloads.
    #[cfg(test)]
    fn bytes(&self) -> u64 {
        self.files.iter().map(|i| i.bytes).sum()
    }
}

/// The pages worth having offline besides the shell, as files, in priority order: the offline
/// page, the home page, the help page, the search page that works in the browser and its index's
/// manifest, each listing's first page, the map and the alerts.
pub fn pages(offline_page: &str, help: Option<&str>, listings: &[String]) -> Vec<String> {
    let mut files = vec![offline_page.to_string(), "index.html".to_string()];
    files.extend(help.map(str::to_string));
    files.extend(["search.html".to_string(), portal_core::search::offline::MANIFEST.to_string()]);
    files.extend(listings.iter().cloned());
    files.extend(["map.html".to_string(), "alerts.html".to_string()]);
    files
}

/// Whether `file` belongs to the shell every page needs: the theme's fingerprinted styles and
/// scripts, the install icons and the manifest.
pub fn is_shell(file: &str, shell_files: &[String]) -> bool {
    let fingerprinted = portal_core::http::cache_control::is_fingerprinted(file);
    (file.starts_with("assets/") && fingerprinted && (file.ends_with(".css") || file.ends_with(".js")))
        || shell_files.iter().any(|f| f == file)
}

/// The precache within `budget` bytes: the shell (files for which `is_shell` holds, in file order),
/// then `pages` in their order; wanted files the build did not write are skipped.
pub fn within(budget: u64, built: &[Built], is_shell: impl Fn(&str) -> bool, pages: &[String]) -> Precache {
    // The pages are few and the files built many: the first are looked for among the second.
    let mut by_file: HashMap<&str, Option<&Built>> = pages.iter().map(|p| (p.as_str(), None)).collect();
    for b in built {
        if let Some(found) = by_file.get_mut(&*b.file) {
            *found = Some(b);
        }
    }
    let mut shell: Vec<&Built> = built.iter().filter(|b| is_shell(&b.file)).collect();
    shell.sort_by(|a, b| a.file.cmp(&b.file));
    let wanted = shell.into_iter().chain(pages.iter().filter_map(|p| by_file.get(p.as_str()).copied().flatten()));
    let mut precache = Precache::default();
    let mut total = 0;
    for b in wanted {
        if precache.files.iter().any(|i| i.url == b.file) {
            continue;
        }
        let item = Item { url: b.file.to_string(), bytes: b.len, tag: b.tag.to_string() };
        if total + b.len <= budget {
            total += b.len;
            precache.files.push(item);
        } else {
            precache.left_out.push(item);
        }
    }
    precache
}

#[cfg(test)]
mod tests {
    use super::*;

    fn built(file: &str, len: u64) -> Built<'static> {
        Built { file: file.to_string().into(), len, tag: format!("\"{file}\"").into(), collection: None }
    }

    fn site() -> Vec<Built<'static>> {
        vec![
            built("assets/style.0123456789abcdef.css", 20_000),
            built("assets/style.css", 20_000),
            built("assets/offline.0123456789abcdef.js", 3_000),
            built("assets/icon-192.png", 5_000),
            built("manifest.webmanifest", 500),
            built("index.html", 30_000),
            built("offline.html", 4_000),
            built("urgent-help.html", 10_000),
            built("find/index.json", 2_000),
            built("find/t/0.json", 2_000),
            built("news.html", 40_000),
            built("services.html", 900_000),
            built("map.html", 60_000),
            built("news/a.html", 9_000),
        ]
    }

    fn urls(items: &[Item]) -> Vec<&str> {
        items.iter().map(|i| i.url.as_str()).collect()
    }

    #[test]
    fn the_shell_comes_first_then_the_pages_in_their_order() {
        let shell_files = ["assets/icon-192.png".to_string(), "manifest.webmanifest".to_string()];
        let pages = pages("offline.html", Some("urgent-help.html"), &["news.html".into(), "services.html".into()]);
        let precache = within(10_000_000, &site(), |f| is_shell(f, &shell_files), &pages);
        assert_eq!(
            urls(&precache.files),
            [
                "assets/icon-192.png",
                "assets/offline.0123456789abcdef.js",
                "assets/style.0123456789abcdef.css",
                "manifest.webmanifest",
                "offline.html",
                "index.html",
                "urgent-help.html",
                "find/index.json",
                "news.html",
                "services.html",
                "map.html",
            ],
            "not the unfingerprinted copy, nor a record, nor an index piece, nor pages the build did not write (search, alerts)"
        );
        assert!(precache.left_out.is_empty());
    }

    #[test]
    fn what_does_not_fit_the_budget_is_left_out_and_smaller_files_after_it_still_come() {
        let pages = pages("offline.html", Some("urgent-help.html"), &["news.html".into(), "services.html".into()]);
        let precache = within(200_000, &site(), |f| is_shell(f, &[]), &pages);
        assert_eq!(urls(&precache.left_out), ["services.html"]);
        assert!(urls(&precache.files).contains(&"map.html"));
        assert!(precache.bytes() <= 200_000);
        assert_eq!(precache.bytes(), 20_000 + 3_000 + 4_000 + 30_000 + 10_000 + 2_000 + 40_000 + 60_000);
    }

    #[test]
    fn a_budget_smaller_than_the_shell_precaches_what_fits_in_order() {
        let precache = within(21_000, &site(), |f| is_shell(f, &[]), &pages("offline.html", None, &[]));
        assert_eq!(urls(&precache.files), ["assets/offline.0123456789abcdef.js", "offline.html", "find/index.json"]);
        assert_eq!(urls(&precache.left_out), ["assets/style.0123456789abcdef.css", "index.html", "map.html"]);
    }
}
