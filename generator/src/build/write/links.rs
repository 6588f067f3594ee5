//! Relative links in the built HTML pages, so an unpacked copy of `dist/` reads in a browser from
//! the file system as well as on the web.
//!
//! Templates and markdown bodies write site links as root-relative URLs (`/services/clinic`). Once
//! every URL of the build is known (see `build::write::sink`), a link to a URL the build writes becomes the relative path of that file
//! from the page (`../services/clinic.html`; each candidate of an image's `srcset` likewise, and
//! names that need it percent-encoded); the servers answer those file paths too (see
//! `portal_core::app`). A form's action on a dynamic endpoint (search) becomes relative to the page
//! (`../api/search`), so it works on the site and under `portal serve` alike, and is simply absent
//! from an offline copy. Any other link to what the build does not write becomes absolute on the
//! site's base URL: live features need the live site, and an offline copy still points at it.

use std::collections::HashMap;

use rayon::prelude::*;

use crate::build::pages::HTML;
use crate::build::write::file::OutFile;
use crate::images::encode_path;

/// The attributes whose root-relative URLs are rewritten (`srcset`: each of its candidates).
const ATTRIBUTES: [&str; 4] = ["href", "src", "action", "srcset"];

/// Rewrites the links of every served HTML page among `files` (the 404 page keeps root-relative
/// links: it is sent at any depth), with the files of the build's URLs as `resolve` knows them.
pub fn apply_with<R: Resolve + Sync>(files: &mut [OutFile], resolve: &R, base_url: &str) {
    files.par_iter_mut().filter(|f| f.route.is_some() && f.content_type == HTML).for_each(|f| {
        if let Ok(html) = std::str::from_utf8(&f.bytes) {
            f.bytes = relativize(html, &f.file, resolve, base_url).into_bytes();
        }
    });
}

/// Where the build writes the file of a URL path.
pub trait Resolve {
    /// The file served at `route`, if the build serves it.
    fn file_of(&self, route: &str) -> Option<String>;
}

impl Resolve for HashMap<&str, &str> {
    fn file_of(&self, route: &str) -> Option<String> {
        self.get(route).map(|file| file.to_string())
    }
}

/// The URL paths the root-relative links of `html` name, decoded, without query or fragment (the
/// keys a link is resolved by): a page whose links name a URL that comes or goes is made again.
pub fn targets(html: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = html;
    while let Some(at) = rest.find("=\"/") {
        let (before, after) = rest.split_at(at + 2);
        let end = after.find('"').unwrap_or(after.len());
        let url = &after[..end];
        if link_attribute(before).is_some() && !url.starts_with("//") {
            for candidate in url.split(", ") {
                let path = candidate.split(' ').next().unwrap_or(candidate);
                let path = &path[..path.find(['?', '#']).unwrap_or(path.len())];
                let trimmed = path.trim_end_matches('/');
                let key = if trimmed.is_empty() { "/" } else { trimmed };
                out.push(percent_encoding::percent_decode_str(key).decode_utf8_lossy().into_owned());
            }
        }
        rest = &after[end..];
    }
    out.sort();
    out.dedup();
    out
}

/// Rewrites the root-relative links of `html`, a page stored at `page_file`. `files` maps every
/// URL path the build serves to its file.
pub fn relativize<R: Resolve + ?Sized>(html: &str, page_file: &str, files: &R, base_url: &str) -> String {
    // Links written with the site's own address (`https://site.example/news`) are links to the
    // site too: made root-relative first, they become file links like the rest.
    let base = base_url.trim_end_matches('/');
    let html = if base.is_empty() {
        html.to_string()
    } else {
        html.replace(&format!("href=\"{base}/"), "href=\"/").replace(&format!("href=\"{base}\""), "href=\"/\"")
    };
    let mut out = String::with_capacity(html.len() + html.len() / 16);
    let mut rest = html.as_str();
    while let Some(at) = rest.find("=\"/") {
        let (before, after) = rest.split_at(at + 2);
        out.push_str(before);
        let value_end = after.find('"').unwrap_or(after.len());
        let (url, tail) = after.split_at(value_end);
        if let Some("srcset") = link_attribute(before) {
            let candidates: Vec<String> = url
                .split(", ")
                .map(|candidate| match candidate.split_once(' ') {
                    Some((u, width)) if u.starts_with('/') && !u.starts_with("//") => {
                        format!("{} {width}", rewrite(u, "src", page_file, files, base_url))
                    }
                    _ => candidate.to_string(),
                })
                .collect();
            out.push_str(&candidates.join(", "));
        } else if let Some(attribute) = link_attribute(before).filter(|_| !url.starts_with("//")) {
            out.push_str(&rewrite(url, attribute, page_file, files, base_url));
        } else {
            out.push_str(url);
        }
        rest = tail;
    }
    out.push_str(rest);
    out
}

/// The attribute of [`ATTRIBUTES`] whose value starts after `before_value` (which ends with `="`).
fn link_attribute(before_value: &str) -> Option<&'static str> {
    let name_end = before_value.len() - 2;
    let name_start = before_value[..name_end].rfind(|c: char| c.is_ascii_whitespace()).map_or(0, |i| i + 1);
    let name = &before_value[name_start..name_end];
    ATTRIBUTES.into_iter().find(|a| a.eq_ignore_ascii_case(name))
}

/// One root-relative URL (query and fragment kept) of `attribute`, as seen from `page_file`.
fn rewrite<R: Resolve + ?Sized>(url: &str, attribute: &str, page_file: &str, files: &R, base_url: &str) -> String {
    let split = url.find(['?', '#']).unwrap_or(url.len());
    let (path, suffix) = url.split_at(split);
    let trimmed = path.trim_end_matches('/');
    let key = if trimmed.is_empty() { "/" } else { trimmed };
    // Built routes are decoded paths; a link may spell one percent-encoded (`/media/a%20b.jpg`).
    let decoded = percent_encoding::percent_decode_str(key).decode_utf8_lossy();
    match files.file_of(key).or_else(|| files.file_of(decoded.as_ref())) {
        Some(file) => format!("{}{suffix}", encode_path(&relative_path(page_file, &file))),
        None if attribute == "action" && key != "/" => {
            format!("{}{suffix}", relative_path(page_file, key.trim_start_matches('/')))
        }
        None => format!("{}{url}", base_url.trim_end_matches('/')),
    }
}

/// The path of `to` relative to the folder of `from`, both relative to the build folder.
pub fn relative_path(from: &str, to: &str) -> String {
    let from_dirs: Vec<&str> = from.split('/').collect();
    let from_dirs = &from_dirs[..from_dirs.len() - 1];
    let to_parts: Vec<&str> = to.split('/').collect();
    let common = from_dirs.iter().zip(&to_parts[..to_parts.len() - 1]).take_while(|(a, b)| a == b).count();
    let mut path = "../".repeat(from_dirs.len() - common);
    path.push_str(&to_parts[common..].join("/"));
    path
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files() -> HashMap<&'static str, &'static str> {
        HashMap::from([
            ("/", "index.html"),
            ("/services", "services.html"),
            ("/services/clinic", "services/clinic.html"),
            ("/docs/api/start", "docs/api/start.html"),
            ("/api/services", "api/services.json"),
            ("/assets/style.css", "assets/style.css"),
            ("/media/well photo.jpg", "media/well photo.jpg"),
            ("/_img/480/media/well photo.jpg", "_img/480/media/well photo.jpg"),
        ])
    }

    #[test]
    fn paths_are_relative_to_the_page_folder() {
        assert_eq!(relative_path("index.html", "services/clinic.html"), "services/clinic.html");
        assert_eq!(relative_path("services/clinic.html", "services.html"), "../services.html");
        assert_eq!(relative_path("services/clinic.html", "services/food.html"), "food.html");
        assert_eq!(relative_path("docs/api/start.html", "index.html"), "../../index.html");
        assert_eq!(relative_path("docs/api/start.html", "docs/intro.html"), "../intro.html");
    }

    #[test]
    fn served_urls_become_files_and_the_rest_the_live_site() {
        let html = r##"<a href="/">Home</a><link href="/assets/style.css"><a class="x" href="/services/clinic#map">
            <form action="/api/search" method="get"><a href="/api/services?limit=1">JSON</a>
            <a href="//cdn.example/x">cdn</a><a href="#content">skip</a><a href="https://e.org/">e</a>
            <a href="https://site.example/services/clinic">own</a><a href="https://site.example">home</a>
            <link rel="canonical" href='https://site.example/docs/api/start'>
            <img alt="/services" data-href="/services">"##;
        let out = relativize(html, "docs/api/start.html", &files(), "https://site.example/");
        assert!(out.contains(r#"href="../../index.html""#));
        assert!(out.contains(r#"href="../../assets/style.css""#));
        assert!(out.contains(r#"href="../../services/clinic.html#map""#));
        assert!(out.contains(r#"action="../../api/search""#));
        assert!(out.contains(r#"href="../../api/services.json?limit=1""#));
        assert!(out.contains(r#"href="//cdn.example/x""#));
        assert!(out.contains(r##"href="#content""##));
        assert!(out.contains(r#"alt="/services" data-href="/services""#));
        assert!(out.contains(r#"href="../../services/clinic.html">own"#));
        assert!(out.contains(r#"href="../../index.html">home"#));
        assert!(out.contains("href='https://site.example/docs/api/start'"));
    }

    #[test]
    fn images_and_their_srcset_candidates_become_relative() {
        let html = r#"<img src="/media/well%20photo.jpg" srcset="/_img/480/media/well%20photo.jpg 480w, /media/well%20photo.jpg 1200w" alt="w">"#;
        let out = relativize(html, "news/x.html", &files(), "https://site.example");
        assert!(out.contains(r#"src="../media/well%20photo.jpg""#), "{out}");
        assert!(
            out.contains(r#"srcset="../_img/480/media/well%20photo.jpg 480w, ../media/well%20photo.jpg 1200w""#),
            "{out}"
        );
    }
}
