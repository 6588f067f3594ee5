//! Built files: the manifest lookup, entity tags and 304s, and markdown twins of HTML pages.

use crate::http::media;
use serde_json::Value;

use crate::dist::manifest::Asset;
use crate::handlers::Ctx;
use crate::http::problem::Problem;
use crate::http::{Request, Response};
use crate::platform::{internal, Platform};
use crate::routing;
use crate::state::State;

/// The media type of markdown twins (docs/spec/api-spec.md#markdown-twins).
pub use crate::http::media::MARKDOWN;

/// The request headers a built file's answer depends on, besides its path: `Accept` chooses the
/// markdown twin, `Host` the links of the OGC API's pages (`app::local_ogc_links`). A request with
/// a query, a body, `If-None-Match` or another conditional header, `Range` or `API-Version` is
/// answered by the core each time. Whoever makes the answer read another header adds it here.
pub const VARIES_ON: [&str; 2] = ["accept", "host"];

/// Request headers under which a built file's answer is computed each time (see `VARIES_ON`).
pub const ANSWERED_EACH_TIME: [&str; 9] = [
    "if-none-match",
    "if-modified-since",
    "if-match",
    "if-unmodified-since",
    "if-range",
    "range",
    "api-version",
    "content-length",
    "transfer-encoding",
];

/// Serves the built file of `path`, or 404 `not_found`.
pub async fn serve<P: Platform>(app: &State, platform: &P, request: &Request, path: &str) -> Result<Response, Problem> {
    let manifest = app.manifest();
    let Some(asset) = app.asset(platform, path).await? else {
        return not_found_page(app, platform, path).await;
    };
    let wants_markdown = asset.markdown.is_some() && prefers_markdown(request.header("accept"));
    let (file, content_type) = match (&asset.markdown, wants_markdown) {
        (Some(markdown), true) => (markdown.as_str(), MARKDOWN),
        _ => (asset.file.as_str(), asset.content_type.as_str()),
    };
    let etag = if wants_markdown { format!("\"md-{}", asset.etag.trim_start_matches('"')) } else { asset.etag.clone() };
    let mut response = Response::new(200);
    for (name, value) in manifest.headers_of(asset) {
        response.set_header(name, value.clone());
    }
    response.set_header("etag", etag.clone());
    response.set_header("cache-control", manifest.site.cache.for_file(file));
    if asset.markdown.is_some() {
        response.set_header("vary", "Accept");
    }
    if matches_etag(request.header("if-none-match"), &etag) {
        return Ok(response.with_status(304));
    }
    let body = read(platform, asset, file).await?;
    if wants_markdown {
        let chars = String::from_utf8_lossy(&body).chars().count();
        response.set_header("x-markdown-tokens", chars.div_ceil(4).to_string());
    }
    let mut response = response.with_body(content_type, body);
    response.built_file = true;
    Ok(response)
}

/// 404 for `path`: the site's HTML page for people, a problem document for the API.
pub async fn not_found_page<P: Platform>(app: &State, platform: &P, path: &str) -> Result<Response, Problem> {
    let problem = || Problem::not_found(format!("Nothing is published at {path}."));
    // The site's 404 page answers paths of pages; a file of another route (an event's calendar)
    // answers the problem document its OpenAPI description promises.
    let page = routing::find(path).map_or(!routing::is_api_path(path), |(route, _)| route.tag == "pages");
    let Some(file) = app.manifest().not_found_page.as_deref().filter(|_| page) else {
        return Err(problem());
    };
    match platform.read_file(file).await {
        Ok(Some(body)) => {
            let mut response = Response::new(404).with_body(media::HTML, body);
            if let Some(links) = app.manifest().header_sets.get("html") {
                for (name, value) in links {
                    response.set_header(name, value.clone());
                }
            }
            Ok(response)
        }
        _ => Err(problem()),
    }
}

async fn read<P: Platform>(platform: &P, asset: &Asset, file: &str) -> Result<bytes::Bytes, Problem> {
    match platform.read_file(file).await {
        Ok(Some(bytes)) => Ok(bytes),
        Ok(None) => Err(Problem::not_found(format!("The built file for {} is missing.", asset.file))),
        Err(e) => Err(internal(platform, file)(e)),
    }
}

/// Reads and parses a built JSON file by URL path (the dynamic side reads what the build wrote).
pub async fn read_json<P: Platform>(app: &State, platform: &P, path: &str) -> Result<Option<Value>, Problem> {
    let Some(bytes) = read_bytes(app, platform, path).await? else {
        return Ok(None);
    };
    serde_json::from_slice(&bytes).map(Some).map_err(internal(platform, path))
}

/// Reads a built file by URL path, for a caller that parses only the part it needs.
pub async fn read_bytes<P: Platform>(app: &State, platform: &P, path: &str) -> Result<Option<bytes::Bytes>, Problem> {
    let Some(asset) = app.asset(platform, path).await? else {
        return Ok(None);
    };
    read(platform, asset, &asset.file).await.map(Some)
}

/// Reads and parses an internal JSON file of the build (`_portal/...`) by its file name.
pub async fn read_json_file<P: Platform>(platform: &P, file: &str) -> Result<Option<Value>, Problem> {
    match platform.read_file(file).await {
        Ok(Some(bytes)) => serde_json::from_slice(&bytes).map(Some).map_err(internal(platform, file)),
        Ok(None) => Ok(None),
        Err(e) => Err(internal(platform, file)(e)),
    }
}

/// `/pages/<slug>` answers 301 to the page's canonical URL `/<slug>` (docs/spec/api-spec.md#collection-endpoints).
pub async fn redirect_page<P: Platform>(ctx: &Ctx<'_, P>) -> Result<Response, Problem> {
    let slug = ctx.params.slug.clone().unwrap_or_default();
    if ctx.state.asset(ctx.platform, &format!("/api/pages/{slug}")).await?.is_none() {
        return Err(Problem::not_found(format!("There is no page `{slug}`.")));
    }
    Ok(Response::redirect(301, &format!("/{slug}")))
}

fn matches_etag(if_none_match: Option<&str>, etag: &str) -> bool {
    if_none_match
        .is_some_and(|value| value.split(',').map(|t| t.trim().trim_start_matches("W/")).any(|t| t == "*" || t == etag))
}

/// Whether an `Accept` header asks for `text/markdown` at least as much as for HTML (HTML is the default).
pub fn prefers_markdown(accept: Option<&str>) -> bool {
    let Some(accept) = accept else { return false };
    let quality = |wanted: &str| -> f32 {
        accept
            .split(',')
            .filter_map(|part| {
                let mut pieces = part.split(';').map(str::trim);
                let media = pieces.next()?;
                if !media.eq_ignore_ascii_case(wanted) {
                    return None;
                }
                let q = pieces.find_map(|p| p.strip_prefix("q=")).and_then(|q| q.parse().ok()).unwrap_or(1.0);
                Some(q)
            })
            .fold(-1.0, f32::max)
    };
    let markdown = quality(media::essence(media::MARKDOWN));
    markdown > 0.0 && markdown >= quality(media::essence(media::HTML))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_is_negotiated() {
        assert!(prefers_markdown(Some("text/markdown")));
        assert!(prefers_markdown(Some("text/markdown, text/html;q=0.5")));
        assert!(!prefers_markdown(Some("text/html, text/markdown;q=0.5")));
        assert!(!prefers_markdown(Some("text/markdown;q=0")));
        assert!(!prefers_markdown(Some("*/*")));
        assert!(!prefers_markdown(None));
    }

    #[test]
    fn etags_match_lists_and_weak_forms() {
        assert!(matches_etag(Some("\"a\", \"b\""), "\"b\""));
        assert!(matches_etag(Some("W/\"b\""), "\"b\""));
        assert!(matches_etag(Some("*"), "\"b\""));
        assert!(!matches_etag(Some("\"c\""), "\"b\""));
    }
}
