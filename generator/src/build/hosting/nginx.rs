//! `_portal/nginx.conf`: what a plain nginx needs to serve the static endpoints of a build with the
//! content types and headers `portal serve` sends, for sites hosted without Cloudflare or `portal
//! serve`. Include it inside a `server` block whose `root` is the build folder.
//!
//! Two generic locations cover almost every URL (`/api/<x>` from `api/<x>.json`, a page `/<x>` from
//! `<x>.html`); each URL whose file or media type does not follow them gets an exact location,
//! so the snippet stays small at 100k records. The dynamic endpoints (search, encyclopedia
//! queries, actions, MCP, proxies) are not files: proxy them to `portal serve` if you need them.

use std::fmt::Write;

use portal_core::dist::manifest::{Asset, Manifest, Routes, MANIFEST_FILE};
use portal_core::http::cache_control::NO_STORE;
use portal_core::http::headers::common;
use portal_core::http::media::{HTML, JSON};
use portal_core::http::problem::Problem;
use portal_core::routing::is_api_path;

use super::{file_patterns, rewrite};
use crate::build::pages::NOT_FOUND_FILE;
use crate::build::write::file::OutFile;
use portal_core::routing::page_file;

/// Where the snippet is written.
pub const NGINX_FILE: &str = "_portal/nginx.conf";

/// The problem document nginx answers for an unknown `/api/` path: the core's `not_found`, without
/// `instance` (nginx cannot put the path into JSON safely), quoted for nginx's single quotes.
fn api_not_found(base_url: &str) -> String {
    let mut document = Problem::not_found("Nothing is published at this address.").document(base_url, "");
    if let Some(members) = document.as_object_mut() {
        members.remove("instance");
    }
    document.to_string().replace('\'', "\\u0027")
}

/// The nginx snippet for `manifest`. `routes` are the URLs that may need a location of their own:
/// every URL but those of records, entries, listings and tags (see `Group::record_scale`), which
/// the generic locations serve (pages, API JSON, schemas, JSON-LD).
pub fn snippet(manifest: &Manifest, routes: &Routes) -> OutFile {
    let common = format!("{}{}", common_headers(), headers(&[cache_control(manifest.site.cache.for_file(""))]));
    let no_store = format!("{}{}", common_headers(), headers(&[cache_control(NO_STORE.to_string())]));
    let html_headers = headers(manifest.header_sets.get("html").map(Vec::as_slice).unwrap_or(&[]));
    let server_headers = common.replace(" add_header", "\nadd_header");
    let mut out = format!(
        "# Written by `portal build` ({MANIFEST_FILE} is the source). Serves the static endpoints of this\n\
         # build like `portal serve`. Use inside a server block:\n\
         #     root /path/to/dist;\n\
         #     include /path/to/dist/{NGINX_FILE};\n\
         # Markdown twins are at <page>.md (no Accept negotiation); dynamic endpoints need `portal serve`.\n\
         index index.html;{server_headers}\n\
         error_page 404 /{NOT_FOUND_FILE};\n\
         location = /{NOT_FOUND_FILE} {{ internal; types {{ }} default_type \"text/html; charset=utf-8\";{no_store} }}\n\
         location ^~ /_portal/ {{ return 404; }}\n\
         location = /_headers {{ return 404; }}\n\
         location / {{\n    types {{ }} default_type \"text/html; charset=utf-8\";{common}{html_headers}\n    \
         try_files $uri.html $uri $uri/ =404;\n}}\n\
         location ~ \\.md$ {{ types {{ }} default_type \"text/markdown; charset=utf-8\"; }}\n\
         location /api/ {{\n    types {{ }} default_type application/json;\n    \
         try_files $uri.json $uri =404;\n    error_page 404 = @api_not_found;\n}}\n\
         location @api_not_found {{\n    types {{ }} default_type application/problem+json;{no_store}\n    \
         return 404 '{not_found}';\n}}\n",
        not_found = api_not_found(manifest.site.base()),
    );
    out.push_str(&pattern_locations(routes));
    let usual = manifest.site.cache.for_file("");
    for (route, asset) in routes {
        // Kept otherwise than usual: fingerprinted files for ever, the service worker not without asking.
        let cache = manifest.site.cache.for_file(&asset.file);
        let own_cache = cache != usual;
        if !own_cache && follows_generic_rule(route, asset) {
            continue;
        }
        let extra = match manifest.headers_of(asset) {
            set if own_cache => format!("{}{}{}", common_headers(), headers(set), headers(&[cache_control(cache)])),
            [] => String::new(),
            set => format!("{common}{}", headers(set)),
        };
        let body =
            format!("types {{ }} default_type {};{extra} try_files /{} =404;", quoted(&asset.content_type), asset.file);
        let _ = writeln!(out, "location = {route} {{ {body} }}");
        if format!("/{}", asset.file) != *route {
            let _ = writeln!(out, "location = /{} {{ {body} }}", asset.file);
        }
    }
    OutFile::internal(NGINX_FILE, out.into_bytes())
}

/// Whether one of the two generic locations already serves `route` right.
fn follows_generic_rule(route: &str, asset: &Asset) -> bool {
    let headers = asset.headers.as_deref();
    generic(route, &asset.file, &asset.content_type) && headers == if is_api_path(route) { None } else { Some("html") }
}

/// Whether a generic location gives `route` its file and type: `/api/<x>` `api/<x>.json` as
/// JSON, a page `/<x>` `<x>.html` as HTML.
fn generic(route: &str, file: &str, content_type: &str) -> bool {
    if is_api_path(route) {
        route.starts_with("/api/") && file == format!("{}.json", &route[1..]) && content_type == JSON
    } else {
        file == page_file(route) && content_type == HTML
    }
}

/// Locations by pattern for the routes of the table whose files the generic locations would
/// send with another type (the schemas, JSON-LD, calendars): derived from the routes' file
/// rules, so the files of records and entries, which get no location each, are typed as
/// `portal serve` types them. A route without placeholders gets exact locations, unless it is
/// one of `routes`, which get their own below.
fn pattern_locations(routes: &Routes) -> String {
    let mut out = String::new();
    for pattern in file_patterns().iter().filter(|p| !generic(p.url, &p.file, p.content_type)) {
        let (url, file) = (pattern.url, format!("/{}", pattern.file));
        let literal = !url.contains('{');
        if literal && routes.contains_key(url) {
            continue;
        }
        let mut body = format!("types {{ }} default_type {};", quoted(pattern.content_type));
        if is_api_path(url) {
            body.push_str(" error_page 404 = @api_not_found;");
        }
        if literal {
            let _ = writeln!(out, "location = {url} {{ {body} try_files {file} =404; }}");
        } else {
            let _ = writeln!(out, "location ~ {} {{ {body} try_files {} =404; }}", regex(url), numbered(&file));
        }
        // The file at its own path too, as every built file answers (docs/spec/api-spec.md#conventions).
        if file != url {
            let at = if literal { format!("= {file}") } else { format!("~ {}", regex(&file)) };
            let _ = writeln!(out, "location {at} {{ {body} try_files $uri =404; }}");
        }
    }
    out
}

/// A route pattern as an anchored nginx regular expression: a `{slug+}` one or more segments,
/// another placeholder one segment, each captured in order.
fn regex(pattern: &str) -> String {
    let captured = |name: &str, _| if name.ends_with('+') { "(.+)" } else { "([^/]+)" }.to_string();
    format!("^{}$", rewrite(pattern, |text| text.replace('.', "\\."), captured))
}

/// A file pattern with its placeholders as the captures of [`regex`]: `$1`, `$2`, in order.
fn numbered(pattern: &str) -> String {
    rewrite(pattern, str::to_string, |_, n| format!("${n}"))
}

/// The headers every response carries: set for the server, and repeated in a location that adds
/// its own (nginx inherits `add_header` only into locations that set none).
fn common_headers() -> String {
    let pairs: Vec<(String, String)> = common().iter().map(|(n, v)| (n.to_string(), v.to_string())).collect();
    headers(&pairs)
}

fn headers(pairs: &[(String, String)]) -> String {
    pairs.iter().map(|(name, value)| format!(" add_header {name} {} always;", quoted(value))).collect()
}

fn cache_control(value: String) -> (String, String) {
    ("cache-control".to_string(), value)
}

/// An nginx string literal.
fn quoted(value: &str) -> String {
    format!("\"{}\"", value.replace('\\', "\\\\").replace('"', "\\\""))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn asset(file: &str, content_type: &str, headers: Option<&str>) -> Asset {
        Asset {
            file: file.into(),
            content_type: content_type.into(),
            etag: "\"x\"".into(),
            headers: headers.map(str::to_string),
            markdown: None,
        }
    }

    #[test]
    fn only_urls_off_the_generic_rules_get_their_own_location() {
        let manifest = Manifest::default();
        let mut routes = Routes::new();
        routes.insert("/api/news".into(), asset("api/news.json", "application/json", None));
        routes.insert("/news".into(), asset("news.html", "text/html; charset=utf-8", Some("html")));
        routes.insert("/api/rss".into(), asset("api/rss.xml", "application/rss+xml; charset=utf-8", None));
        let text = String::from_utf8(snippet(&manifest, &routes).bytes).unwrap_or_default();
        assert!(!text.contains("location = /api/news "));
        assert!(!text.contains("location = /news "));
        assert!(text.contains(
            "location = /api/rss { types { } default_type \"application/rss+xml; charset=utf-8\"; try_files"
        ));
        assert!(text.contains("location = /api/rss.xml {"));
        assert!(text.contains("try_files /api/rss.xml =404;"));
    }

    #[test]
    fn the_files_of_records_get_their_type_by_the_routes_file_rules() {
        let mut routes = Routes::new();
        routes.insert("/api/rss".into(), asset("api/rss.xml", "application/rss+xml; charset=utf-8", None));
        let text = String::from_utf8(snippet(&Manifest::default(), &routes).bytes).unwrap_or_default();
        for expected in [
            "location ~ ^/api/encyclopedia/([^/]+)/jsonld$ { types { } default_type \"application/ld+json\"; \
             error_page 404 = @api_not_found; try_files /api/encyclopedia/$1.jsonld =404; }",
            "location ~ ^/api/encyclopedia/([^/]+)\\.jsonld$ { types { } default_type \"application/ld+json\"; \
             error_page 404 = @api_not_found; try_files $uri =404; }",
            "location ~ ^/api/schemas/([^/]+)$ { types { } default_type \"application/schema+json\"; \
             error_page 404 = @api_not_found; try_files /api/schemas/$1 =404; }",
            "location = /events.ics { types { } default_type \"text/calendar; charset=utf-8\"; try_files /events.ics =404; }",
            "location ~ ^/events/(.+)\\.ics$ { types { } default_type \"text/calendar; charset=utf-8\"; \
             try_files /events/$1.ics =404; }",
        ] {
            assert!(text.contains(expected), "{expected}\n{text}");
        }
        for pattern in file_patterns().iter().filter(|p| !generic(p.url, &p.file, p.content_type)) {
            let exact = format!("location = {} ", pattern.url);
            let matched = format!("location ~ {} ", regex(pattern.url));
            assert_eq!(text.matches(&exact).count() + text.matches(&matched).count(), 1, "{}\n{text}", pattern.url);
        }
        assert_eq!(text.matches("location = /api/rss.xml {").count(), 1, "a URL of the build gets its own, once");
        assert_eq!(numbered("a/{name}/b/{slug+}.x"), "a/$1/b/$2.x");
    }

    #[test]
    fn the_service_worker_is_revalidated_on_every_visit() {
        let mut routes = Routes::new();
        routes.insert("/sw.js".into(), asset("sw.js", "text/javascript; charset=utf-8", None));
        let text = String::from_utf8(snippet(&Manifest::default(), &routes).bytes).unwrap_or_default();
        let location = text.lines().find(|l| l.starts_with("location = /sw.js ")).unwrap_or_default();
        assert!(location.contains("add_header cache-control \"no-cache\" always;"), "{location}");
    }

    #[test]
    fn quotes_are_escaped() {
        assert_eq!(quoted(r#"<a>; rel="x""#), r#""<a>; rel=\"x\"""#);
    }
}
