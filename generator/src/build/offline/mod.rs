//! Reading offline (docs/offline.md): what a build adds so that a phone keeps the site when the
//! network drops. With the theme's pages: the web app manifest, its icons and the offline page.
//! Once every file is written (their sizes known): the service worker, carrying its precache list
//! within the site's budget, and each listing's list of record pages for "Save for offline".
//! The names of the files are core's (`portal_core::content::offline`).

mod icons;
pub mod precache;

use std::path::Path;

use anyhow::Result;
use portal_core::content::offline::{self as names, OfflineSettings};
use portal_core::content::HelpPage;
use portal_core::content::SiteConfig;
use portal_core::dist::manifest::Manifest;
use portal_core::routing::page_file;
use serde_json::json;
use sha2::{Digest, Sha256};
use tera::Context;

use super::pages::{preview, Renderer, HTML};
use crate::build::write::file::{Group, OutFile};
use crate::build::write::sink::Outputs;
use crate::load::statics::Reference;
use precache::{Built, Precache};

/// The manifest, the install icons and the offline page, when the site reads offline.
pub fn theme_files(r: &Renderer) -> Result<Vec<OutFile>> {
    let content = r.content;
    if !content.site.offline.enabled {
        return Ok(Vec::new());
    }
    let mut files = vec![OutFile::at(format!("/{}", names::WEB_MANIFEST), web_manifest(content).into_bytes())?];
    let favicon = favicon_bytes(content)?;
    for size in names::ICON_SIZES {
        files.push(OutFile::at(format!("/{}", names::icon_file(size)), icons::png(&favicon, size)?)?);
    }
    let mut context = Context::new();
    context.insert("help", &r.intros.help);
    let html = r.render("offline.html", Some(names::OFFLINE_PAGE), context)?;
    let mut page = OutFile::served(names::OFFLINE_PAGE, page_file(names::OFFLINE_PAGE), HTML, html.into_bytes());
    page.headers = Some("html".into());
    files.push(page);
    Ok(files)
}

/// The web app manifest (W3C Web Application Manifest), its URLs relative to itself so that a
/// copy served under another root installs as well.
fn web_manifest(content: &crate::load::Content) -> String {
    let site = &content.site;
    let OfflineSettings { short_name, background_color, .. } = &site.offline;
    let mut icons: Vec<_> = names::ICON_SIZES
        .iter()
        .map(|size| json!({"src": names::icon_file(*size), "sizes": format!("{size}x{size}"), "type": "image/png"}))
        .collect();
    let icon = preview::icon(content);
    if icon.ends_with(".svg") && !icon.contains("://") {
        icons.push(json!({"src": icon.trim_start_matches('/'), "sizes": "any", "type": "image/svg+xml"}));
    }
    let manifest = json!({
        "name": site.title,
        "short_name": short_name.clone().unwrap_or_else(|| site.title.clone()),
        "description": site.description,
        "lang": site.language,
        "start_url": ".",
        "scope": ".",
        "display": "standalone",
        "theme_color": preview::theme_colour(content),
        "background_color": background_color.clone().unwrap_or_else(|| "#ffffff".to_string()),
        "icons": icons,
    });
    serde_json::to_string_pretty(&manifest).unwrap_or_default()
}

/// The favicon's bytes: the site's own file in `static/`, else the icon of its initial.
fn favicon_bytes(content: &crate::load::Content) -> Result<Vec<u8>> {
    if let Some(favicon) = &content.site.favicon {
        if let Reference::Local(_, file) = content.statics.resolve(favicon) {
            return std::fs::read(&file.path).map_err(|e| anyhow::anyhow!("reading {}: {e}", file.path.display()));
        }
    }
    Ok(preview::initial_icon(content).into_bytes())
}

/// The service worker with its precache list, and each listing's list of record pages, made from
/// every file of the build; with what the budget left out. Nothing when the site is not read offline.
pub fn layout_files(
    site: &SiteConfig,
    help: Option<&HelpPage>,
    built: &[Built],
    worker: &str,
) -> Result<(Vec<OutFile>, Precache)> {
    if !site.offline.enabled {
        return Ok((Vec::new(), Precache::default()));
    }
    let lists = listings(built);
    let firsts: Vec<String> = lists.iter().map(|(collection, _)| format!("{collection}.html")).collect();
    let offline_page = page_file(names::OFFLINE_PAGE);
    let pages = precache::pages(&offline_page, help.map(|h| page_file(&h.url)).as_deref(), &firsts);
    let shell: Vec<String> =
        names::ICON_SIZES.iter().map(|s| names::icon_file(*s)).chain([names::WEB_MANIFEST.to_string()]).collect();
    let precache = precache::within(site.offline.budget, built, |f| precache::is_shell(f, &shell), &pages);
    let mut files = vec![OutFile::at(format!("/{}", names::SERVICE_WORKER), service_worker(&precache, worker))?];
    for (collection, records) in &lists {
        let list = json!({
            "count": records.len(),
            "bytes": records.iter().map(|r| r.len).sum::<u64>(),
            "pages": records.iter().map(|r| &r.file).collect::<Vec<_>>(),
        });
        files.push(OutFile::at(format!("/{}", names::listing_file(collection)), list.to_string().into_bytes())?);
    }
    Ok((files, precache))
}

/// Puts the service worker and the listings' record lists, made from every file written so far
/// (see [`layout_files`]), into `files`; the warning naming what the budget left out, if anything
/// was.
pub(crate) fn put(
    manifest: &Manifest,
    templates: Option<&Path>,
    files: &mut Outputs,
) -> Result<Option<portal_core::content::ContentError>> {
    let built: Vec<Built> = files
        .made()
        .iter()
        .filter(|w| may_matter(w.file()))
        .map(|w| Built {
            file: w.file().into(),
            len: w.len,
            tag: w.etag().into(),
            collection: match w.group {
                Group::Collection(name) => Some(name),
                _ => None,
            },
        })
        .collect();
    let worker = crate::theme::service_worker(templates)?;
    let (made, precache) = layout_files(&manifest.site, manifest.help.as_ref(), &built, &worker)?;
    files.extend(made.into_iter().map(|f| f.in_group(Group::Layout)));
    Ok(left_out_warning(&manifest.site, &precache))
}

/// Whether a built file may matter offline (pages, the theme's assets, the manifest): the others
/// need not be listed for [`layout_files`].
pub fn may_matter(file: &str) -> bool {
    file.ends_with(".html") || file.starts_with("assets/") || file == names::WEB_MANIFEST
}

/// The warning naming what the budget left out (docs/offline.md#the-budget), if anything was.
pub fn left_out_warning(site: &SiteConfig, precache: &Precache) -> Option<portal_core::content::ContentError> {
    if precache.left_out.is_empty() {
        return None;
    }
    let left: Vec<String> =
        precache.left_out.iter().map(|i| format!("{} ({})", i.url, names::format_size(i.bytes))).collect();
    let message = format!(
        "offline: the install's budget of {} leaves out {}; raise `offline: {{budget: ...}}` to precache them",
        names::format_size(site.offline.budget),
        left.join(", ")
    );
    Some(portal_core::content::ContentError::new("site.yaml", 1, message))
}

/// The record pages of each collection that has a listing page and records, by collection.
fn listings<'a>(built: &'a [Built<'a>]) -> Vec<(String, Vec<&'a Built<'a>>)> {
    let mut lists: std::collections::BTreeMap<&str, Vec<&Built>> = Default::default();
    let firsts: std::collections::HashSet<&str> =
        built.iter().filter_map(|b| b.collection.filter(|c| b.file.strip_suffix(".html") == Some(c))).collect();
    for b in built {
        let Some(collection) = b.collection.filter(|c| firsts.contains(c)) else {
            continue;
        };
        let in_it = b.file.strip_prefix(collection).and_then(|rest| rest.strip_prefix('/'));
        if in_it.is_some_and(|rest| rest.ends_with(".html") && !rest.starts_with("page/")) {
            lists.entry(collection).or_default().push(b);
        }
    }
    // In file order: a clean build and a rebuild meet the files in different orders.
    lists.values_mut().for_each(|records| records.sort_by(|a, b| a.file.cmp(&b.file)));
    lists.into_iter().filter(|(_, records)| !records.is_empty()).map(|(c, records)| (c.to_string(), records)).collect()
}

/// The worker: its settings (the precache list, and a version that changes with any of its
/// files, which names its cache), then the theme's code.
fn service_worker(precache: &Precache, worker: &str) -> Vec<u8> {
    let mut hasher = Sha256::new();
    for item in &precache.files {
        hasher.update(item.url.as_bytes());
        hasher.update(item.tag.as_bytes());
    }
    hasher.update(worker.as_bytes());
    let version: String = hasher.finalize().iter().take(6).map(|b| format!("{b:02x}")).collect();
    let settings = json!({
        "version": version,
        "precache": precache.files,
        "offline": page_file(names::OFFLINE_PAGE),
        "search": "search.html",
        "find": format!("{}/", portal_core::search::offline::DIR),
        "keep": names::KEPT_PAGES,
    });
    format!("// Written by `portal build` (docs/offline.md).\nself.PORTAL_OFFLINE = {settings};\n{worker}").into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn built(file: &'static str, collection: Option<&'static str>) -> Built<'static> {
        Built { file: file.into(), len: 1000, tag: "\"t\"".into(), collection }
    }

    #[test]
    fn a_listing_lists_its_record_pages_but_not_its_further_pages() {
        let files = [
            built("news.html", Some("news")),
            built("news/a.html", Some("news")),
            built("news/page/2.html", Some("news")),
            built("news/a.md", Some("news")),
            built("about.html", Some("pages")),
        ];
        let lists = listings(&files);
        let files: Vec<(&str, Vec<&str>)> =
            lists.iter().map(|(c, r)| (c.as_str(), r.iter().map(|b| &*b.file).collect())).collect();
        assert_eq!(files, [("news", vec!["news/a.html"])], "pages has no listing page");
    }

    #[test]
    fn what_the_budget_leaves_out_is_named_in_a_warning_on_site_yaml() {
        let mut site = SiteConfig::default();
        site.offline.budget = 1000;
        let files = [built("offline.html", None), built("index.html", None), built("map.html", None)];
        let (_, precache) = layout_files(&site, None, &files, "").unwrap_or_default();
        let warning = left_out_warning(&site, &precache).map(|w| (w.file, w.message)).unwrap_or_default();
        assert_eq!(warning.0, "site.yaml");
        assert!(warning.1.contains("budget of 1 KB leaves out index.html (1 KB), map.html (1 KB)"), "{}", warning.1);
        site.offline.budget = 3000;
        let (_, precache) = layout_files(&site, None, &files, "").unwrap_or_default();
        assert!(left_out_warning(&site, &precache).is_none());
    }

    #[test]
    fn the_worker_names_a_new_version_when_a_precached_file_changes() {
        let site = SiteConfig::default();
        let one = [built("index.html", None), built("offline.html", None)];
        let mut two = one.clone();
        two[0].tag = "\"u\"".into();
        let worker = |b: &[Built]| {
            let (files, _) = layout_files(&site, None, b, "/* code */").unwrap_or_default();
            String::from_utf8(files[0].bytes.clone()).unwrap_or_default()
        };
        let (a, b) = (worker(&one), worker(&two));
        assert!(a.contains("\"url\":\"offline.html\"") && a.ends_with("/* code */"));
        assert_ne!(a, b);
        let off =
            SiteConfig { offline: OfflineSettings { enabled: false, ..Default::default() }, ..Default::default() };
        assert!(layout_files(&off, None, &one, "").map(|(f, _)| f.is_empty()).unwrap_or(false));
    }
}
