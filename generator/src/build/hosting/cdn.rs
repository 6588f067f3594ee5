//! `_headers`: what a CDN needs to send the same headers as our servers for files it serves
//! straight from `dist/` (Cloudflare's static assets, and assets the Worker reads through its
//! binding). The Worker itself sends headers from the manifest; this covers the rest.

use std::fmt::Write;

use portal_core::dist::manifest::{Manifest, Routes};
use portal_core::http::headers::{common, STATIC_FILES, STATIC_SANDBOXED};
use portal_core::http::media;

use super::{file_patterns, rewrite};
use crate::build::write::file::OutFile;

/// Cloudflare reads at most this many rules; we stay well below it.
const MAX_RULES: usize = 90;

/// The media type a CDN infers from a file's extension, when it is the one we would send: the
/// text types below, and the binary types of the site's static files (images, fonts, audio, video,
/// documents) where we send the usual type of the extension.
fn inferred(file: &str, content_type: &str) -> bool {
    let extension = file.rsplit('.').next().unwrap_or("");
    let base = content_type.split(';').next().unwrap_or("").trim();
    let usual_binary = content_type == media::of_file(file)
        && content_type != media::UNKNOWN
        && ["image/", "font/", "audio/", "video/", "application/pdf", "application/zip"]
            .iter()
            .any(|p| base.starts_with(p));
    usual_binary
        || matches!(
            (extension, base),
            ("json", "application/json")
                | ("html", "text/html")
                | ("txt", "text/plain")
                | ("xml", "application/xml")
                | ("css", "text/css")
                | ("js", "text/javascript")
                | ("md", "text/markdown")
                | ("csv", "text/csv")
        )
}

/// Header sets whose headers the `/*` rule already sends (it carries the pages' set, and static
/// files have the pages' security headers): their files need no rule for them.
const COVERED_BY_ALL: [&str; 2] = ["html", STATIC_FILES];

/// The rules by pattern: for every route of the table whose files' type a CDN would not infer
/// from their extension, the pattern of its files with that type (`/api/schemas/*`,
/// `/events/*.ics`). Derived from the routes' file rules, so the files of records and entries,
/// which get no rule each, are typed as the servers type them.
fn pattern_rules() -> Vec<(String, &'static str)> {
    let typed = file_patterns().into_iter().map(|p| (format!("/{}", splat(&p.file)), p.content_type));
    typed.filter(|(pattern, content_type)| !inferred(pattern, content_type)).collect()
}

/// A file pattern as `_headers` writes it: each placeholder (`{name}`, `{slug+}`) a splat.
fn splat(pattern: &str) -> String {
    rewrite(pattern, str::to_string, |_, _| "*".to_string())
}

/// Whether the `_headers` pattern `pattern` (a literal path, or one with a splat) matches `path`.
fn matches(pattern: &str, path: &str) -> bool {
    match pattern.split_once('*') {
        Some((head, tail)) => path.len() >= head.len() + tail.len() && path.starts_with(head) && path.ends_with(tail),
        None => pattern == path,
    }
}

/// The `_headers` file for `manifest`. `routes` are the URLs that may need a rule of their own:
/// every URL but those of records, entries, listings and tags, covered by the pattern rules.
pub fn headers_file(manifest: &Manifest, routes: &Routes) -> OutFile {
    let mut out = String::from("# Written by `portal build`: the headers `portal serve` and the Worker send.\n/*\n");
    for (name, value) in common() {
        let _ = writeln!(out, "  {name}: {value}");
    }
    let _ = writeln!(out, "  cache-control: {}", manifest.site.cache.for_file(""));
    // The headers of pages (discovery links, security policies) go on every file the CDN serves
    // itself: they are harmless on the others.
    for (name, value) in manifest.header_sets.get("html").into_iter().flatten() {
        let _ = writeln!(out, "  {name}: {value}");
    }
    let mut rules = 1;
    let patterns = pattern_rules();
    for (pattern, content_type) in &patterns {
        let _ = writeln!(out, "{pattern}\n  content-type: {content_type}");
        rules += 1;
    }
    // Files kept otherwise than the `/*` rule says: fingerprinted ones for ever, the service worker
    // not without asking (see core's `cache_control`).
    let usual = manifest.site.cache.for_file("");
    for asset in routes.values() {
        let cache = manifest.site.cache.for_file(&asset.file);
        if cache != usual {
            let _ = writeln!(out, "/{}\n  ! cache-control\n  cache-control: {cache}", asset.file);
            rules += 1;
        }
    }
    let everywhere: Vec<&str> =
        manifest.header_sets.get("html").into_iter().flatten().map(|(n, _)| n.as_str()).collect();
    // Sandboxed static documents first: past the cap a rule is left out, and theirs must not be.
    let (sandboxed, others): (Vec<_>, Vec<_>) =
        routes.values().partition(|asset| asset.headers.as_deref() == Some(STATIC_SANDBOXED));
    for asset in sandboxed.into_iter().chain(others) {
        let extra = manifest.headers_of(asset);
        let special = asset.headers.as_deref().is_some_and(|set| !COVERED_BY_ALL.contains(&set));
        let path = format!("/{}", asset.file);
        let by_pattern = patterns.iter().find(|(pattern, _)| matches(pattern, &path)).map(|(_, t)| *t);
        let typed = inferred(&asset.file, &asset.content_type) || by_pattern == Some(asset.content_type.as_str());
        if rules >= MAX_RULES || (!special && typed) {
            continue;
        }
        let _ = writeln!(out, "{path}");
        if by_pattern.is_some_and(|t| t != asset.content_type) {
            // Two rules' values of one header are joined: the pattern's type is replaced.
            let _ = writeln!(out, "  ! content-type");
        }
        let _ = writeln!(out, "  content-type: {}", asset.content_type);
        if special {
            for (name, value) in extra {
                // A header the `/*` rule sets is replaced, not joined to it (an SVG's sandboxed CSP).
                if everywhere.contains(&name.as_str()) {
                    let _ = writeln!(out, "  ! {name}");
                }
                let _ = writeln!(out, "  {name}: {value}");
            }
        }
        rules += 1;
    }
    OutFile::internal("_headers", out.into_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;
    use portal_core::dist::manifest::Asset;

    /// A path of `pattern` with its placeholders filled, as a request would ask.
    fn example(pattern: &str) -> String {
        pattern.replace("{collection}", "events").replace("{name}", "water").replace("{slug+}", "a/b")
    }

    #[test]
    fn every_file_a_route_serves_gets_its_type_from_the_cdn() {
        let text = String::from_utf8(headers_file(&Manifest::default(), &Routes::new()).bytes).unwrap_or_default();
        let rules: Vec<(&str, &str)> = text
            .split("\n/")
            .skip(1)
            .filter_map(|rule| {
                let (pattern, headers) = rule.split_once('\n')?;
                Some((pattern, headers.strip_prefix("  content-type: ")?.lines().next()?))
            })
            .collect();
        for route in file_patterns() {
            let url = example(route.url);
            let Some((file, content_type)) = portal_core::routing::output(&url) else { continue };
            let rule = rules.iter().find(|(pattern, _)| matches(&format!("/{pattern}"), &format!("/{file}")));
            match rule {
                Some((pattern, typed)) => assert_eq!(*typed, content_type, "/{pattern} for {url}"),
                None => assert!(inferred(&file, content_type), "no rule types /{file} ({url}) as {content_type}"),
            }
        }
        for rule in ["/api/schemas/*", "/api/encyclopedia/*.jsonld", "/events.ics", "/events/*.ics"] {
            assert!(rules.iter().any(|(pattern, _)| format!("/{pattern}") == rule), "{rule}: {text}");
        }
        assert!(rules.iter().all(|(pattern, _)| pattern.matches('*').count() <= 1), "one splat a rule: {text}");
    }

    #[test]
    fn a_file_a_pattern_types_needs_no_rule_of_its_own() {
        let asset = Asset {
            file: "api/schemas/news.json".into(),
            content_type: portal_core::http::media::SCHEMA_JSON.into(),
            etag: "\"x\"".into(),
            headers: None,
            markdown: None,
        };
        let routes = Routes::from([("/api/schemas/news.json".to_string(), asset)]);
        let text = String::from_utf8(headers_file(&Manifest::default(), &routes).bytes).unwrap_or_default();
        assert!(text.contains("/api/schemas/*\n") && !text.contains("/api/schemas/news.json"), "{text}");
        assert!(matches("/events/*.ics", "/events/a/b.ics") && !matches("/events/*.ics", "/events.ics"));
    }

    #[test]
    fn every_file_gets_cors_and_special_files_their_own_rule() {
        let mut manifest = Manifest::default();
        let mut routes = Routes::new();
        let asset = |file: &str, content_type: &str, headers: Option<&str>| Asset {
            file: file.into(),
            content_type: content_type.into(),
            etag: "\"x\"".into(),
            headers: headers.map(str::to_string),
            markdown: None,
        };
        routes.insert("/api/news".into(), asset("api/news.json", "application/json", None));
        routes.insert("/api/rss".into(), asset("api/rss.xml", "application/rss+xml; charset=utf-8", None));
        routes.insert("/old".into(), asset("old.json", "application/json", Some("old")));
        routes.insert("/sw.js".into(), asset("sw.js", "text/javascript; charset=utf-8", None));
        manifest.header_sets.insert("old".into(), vec![("sunset".into(), "Mon, 01 Mar 2027 00:00:00 GMT".into())]);
        let text = String::from_utf8(headers_file(&manifest, &routes).bytes).unwrap_or_default();
        assert!(text.contains("/*\n  access-control-allow-origin: *"));
        assert!(text.contains("/api/rss.xml\n  content-type: application/rss+xml; charset=utf-8"));
        assert!(text.contains("/old.json\n  content-type: application/json\n  sunset: Mon, 01 Mar 2027"));
        assert!(!text.contains("/api/news.json"));
        assert!(text.contains("/sw.js\n  ! cache-control\n  cache-control: no-cache\n"), "docs/offline.md#updates");
        assert!(inferred("media/well.jpg", "image/jpeg"));
        assert!(!inferred("media/notes", "application/octet-stream"));
    }

    #[test]
    fn a_sandboxed_static_file_replaces_the_page_policy_with_its_own_and_comes_first() {
        let mut manifest = Manifest::default();
        let csp = |value: &str| vec![("content-security-policy".to_string(), value.to_string())];
        manifest.header_sets.insert("html".into(), csp("default-src 'self'"));
        manifest.header_sets.insert(STATIC_FILES.into(), csp("default-src 'self'"));
        manifest.header_sets.insert(STATIC_SANDBOXED.into(), csp("default-src 'self'; sandbox"));
        let mut routes = Routes::new();
        for (file, content_type, set) in
            [("media/a.svg", "image/svg+xml", STATIC_SANDBOXED), ("media/b.jpg", "image/jpeg", STATIC_FILES)]
        {
            let asset = Asset {
                file: file.into(),
                content_type: content_type.into(),
                etag: "\"x\"".into(),
                headers: Some(set.into()),
                markdown: None,
            };
            routes.insert(format!("/{file}"), asset);
        }
        let text = String::from_utf8(headers_file(&manifest, &routes).bytes).unwrap_or_default();
        assert!(text.contains("/*\n") && text.contains("  content-security-policy: default-src 'self'\n"), "{text}");
        assert!(
            text.contains("/media/a.svg\n  content-type: image/svg+xml\n  ! content-security-policy\n  content-security-policy: default-src 'self'; sandbox\n"),
            "{text}"
        );
        assert!(!text.contains("/media/b.jpg"), "{text}");
        // More special files than rules: the sandboxed ones keep theirs.
        manifest.header_sets.insert("old".into(), vec![("sunset".into(), "Mon, 01 Mar 2027 00:00:00 GMT".into())]);
        for i in 0..MAX_RULES {
            let asset = Asset {
                file: format!("a/{i}.json"),
                content_type: "application/json".into(),
                etag: "\"x\"".into(),
                headers: Some("old".into()),
                markdown: None,
            };
            routes.insert(format!("/a/{i}"), asset);
        }
        let text = String::from_utf8(headers_file(&manifest, &routes).bytes).unwrap_or_default();
        assert!(text.contains("/media/a.svg\n"), "{text}");
        assert!(!text.contains(&format!("/a/{}.json", MAX_RULES - 1)), "the cap holds");
    }
}
