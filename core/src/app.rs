//! The request pipeline every platform runs: preflight, version pin, route lookup, method check,
//! rate limit, then a built file or a handler; finally the headers every response shares.
//!
//! [`App`] is the pipeline over a [`State`]: what the build wrote and nothing that changes per
//! request, so adapters build it once and share it.

use std::sync::Arc;

use bytes::Bytes;

use crate::agents::mcp;
use crate::content::collections::nearest_collection;
use crate::dist::manifest::{Manifest, Routes};
use crate::handlers::{self, Ctx};
use crate::http::body::Interrupted;
use crate::http::cache_control;
use crate::http::client_identity;
use crate::http::headers::{apply_common, apply_rate_limit, check_api_version, CORS_MAX_AGE};
use crate::http::problem::{ErrorCode, Problem};
use crate::http::query::Query;
use crate::http::ratelimit::Decision;
use crate::http::{Method, Request, Response};
use crate::platform::{internal, Platform, PlatformError};
use crate::routing::normalize_path;
use crate::routing::{self, Handler, Serve};
use crate::search::SearchIndex;
use crate::state::State;

/// Makes the links of an HTML page to `base` (`href="https://site.example/visit"`) root-relative
/// (`href="/visit"`): after the build's own relative links, these are the links to what the
/// build does not write, the pages answered per request (forms, search, weather). The build
/// writes them on the base URL so that a copy of `dist/` opened from files still reaches the live
/// site; a server answers them itself, so a preview (`portal serve`, `wrangler dev`) on another
/// address stays on it. Canonical and alternate links (written with single quotes) keep naming
/// the site.
fn local_links(response: &mut Response, base: &str) {
    let html = response.header("content-type").is_some_and(|t| t.starts_with("text/html"));
    if base.is_empty() || !html {
        return;
    }
    // One pass for the links of both kinds: the base URL is rare in a page, `href="` is not.
    let link = |before: &[u8], _: &[u8]| before.ends_with(b"href=") || before.ends_with(b"action=");
    replace_in_body(response, &format!("\"{base}/"), "\"/", link);
}

/// Replaces in `response`'s body each `from` for which `keep` (the bytes before it, those after
/// it) holds with `to`, leaving the body as it is when there is none. Every HTML page a server
/// sends is looked through ([`local_links`]): the search is `memmem`'s, vectorised, on the bytes
/// (an ASCII needle never matches inside a UTF-8 character, so a UTF-8 page stays one);
/// `str::replace` after checking the page was UTF-8 took a tenth of `portal serve`'s CPU on a
/// static page (BENCHMARKS.md, *Serving*).
fn replace_in_body(response: &mut Response, from: &str, to: &str, keep: impl Fn(&[u8], &[u8]) -> bool) {
    if let Some(body) = replaced(&response.body, from, to, keep) {
        response.body = Bytes::from(body);
    }
}

/// `body` with each `from` (non-overlapping, left to right) that `keep` accepts replaced by `to`,
/// or `None` when `keep` accepts none.
fn replaced(body: &[u8], from: &str, to: &str, keep: impl Fn(&[u8], &[u8]) -> bool) -> Option<Vec<u8>> {
    let mut out: Option<Vec<u8>> = None;
    let mut at = 0;
    for hit in memchr::memmem::find_iter(body, from.as_bytes()) {
        if !keep(&body[..hit], &body[hit + from.len()..]) {
            continue;
        }
        let out = out.get_or_insert_with(|| Vec::with_capacity(body.len()));
        out.extend_from_slice(&body[at..hit]);
        out.extend_from_slice(to.as_bytes());
        at = hit + from.len();
    }
    let mut out = out?;
    out.extend_from_slice(&body[at..]);
    Some(out)
}

/// The address a request was sent to when it is this machine (`127.0.0.1:8787`, `localhost`,
/// `[::1]`), as an origin: a local preview. Only these names, and a port of digits, are taken, so
/// the result can go into a document as it is.
fn local_origin(request: &Request) -> Option<String> {
    let host = request.header("host")?.trim();
    let name = match host.rsplit_once(':') {
        Some((name, port)) if !port.is_empty() && port.bytes().all(|b| b.is_ascii_digit()) => name,
        _ => host,
    };
    let loopback =
        name == "localhost" || name == "[::1]" || name.parse::<std::net::Ipv4Addr>().is_ok_and(|ip| ip.is_loopback());
    loopback.then(|| format!("http://{host}"))
}

/// Makes the links of the OGC API's JSON documents follow a local preview: a GIS client (GDAL,
/// QGIS) follows the `href`s of the landing page, the collections and the pages of items, which
/// the build writes on the base URL, so `portal serve` or `wrangler dev` of a production build
/// would send it to the production host (docs/spec/api-spec.md#ogc). Only answers to this machine
/// change; the site's own host keeps the built bytes.
fn local_ogc_links(response: &mut Response, base: &str, request: &Request, path: &str) {
    let ogc = path == crate::standards::ogc::ROOT || path.starts_with(&format!("{}/", crate::standards::ogc::ROOT));
    let json = response.header("content-type").is_some_and(|t| t.starts_with("application/") && t.contains("json"));
    if base.is_empty() || !ogc || !json {
        return;
    }
    let Some(origin) = local_origin(request) else { return };
    // A link under the base URL, or the base URL itself (a server's `url`).
    let whole = |_: &[u8], after: &[u8]| matches!(after.first(), Some(b'/' | b'"'));
    replace_in_body(response, &format!("\"{base}"), &format!("\"{origin}"), whole);
}

/// The API over one build.
#[derive(Debug)]
pub struct App {
    state: State,
}

impl App {
    /// An app over a manifest head and every route it serves, in memory (tests and tools).
    pub fn new(manifest: Manifest, routes: &Routes) -> Self {
        App { state: State::new(manifest, routes) }
    }

    /// Reads the manifest head of the build through the platform (its route shards are read as
    /// URLs of each are asked for).
    pub async fn load<P: Platform>(platform: &P) -> Result<Self, PlatformError> {
        Ok(App { state: State::load(platform).await? })
    }

    /// What the app holds of the build.
    pub fn state(&self) -> &State {
        &self.state
    }

    /// The build's manifest.
    pub fn manifest(&self) -> &Manifest {
        self.state.manifest()
    }

    /// The build's search index, read on first use (see [`State::search_index`]).
    pub async fn search_index<P: Platform>(&self, platform: &P) -> Result<Arc<SearchIndex>, Problem> {
        self.state.search_index(platform).await
    }

    /// Answers one request. Never fails: every error becomes a problem document.
    pub async fn handle<P: Platform>(&self, platform: &P, request: Request) -> Response {
        let path = normalize_path(&request.path);
        let mut decision = None;
        let mut response = match self.route(platform, &request, &path, &mut decision).await {
            Ok(response) => response,
            Err(problem) if for_people(&request, &path) => {
                handlers::page::problem(&self.state, platform, problem).await
            }
            Err(problem) => problem.into_response(self.state.manifest().site.base(), &path),
        };
        if let Some(decision) = decision {
            apply_rate_limit(&mut response, &decision);
            // Counted against the client's limit, so answered anew each time.
            response.built_file = false;
        }
        apply_common(&mut response);
        cache_control::apply(&mut response, &request.method);
        local_links(&mut response, self.state.manifest().site.base());
        local_ogc_links(&mut response, self.state.manifest().site.base(), &request, &path);
        if request.method == Method::Head {
            response.set_header("content-length", response.body.len().to_string());
            response.body = Bytes::new();
        }
        response
    }

    /// The answer to a request an adapter could not hand over whole (a body over the limit, a
    /// deadline passed), with the same shared headers as every other answer.
    pub fn interrupted(&self, what: Interrupted, path: &str) -> Response {
        let mut response = what.problem().into_response(self.state.manifest().site.base(), &normalize_path(path));
        apply_common(&mut response);
        response.set_header("cache-control", cache_control::NO_STORE);
        response
    }

    async fn route<P: Platform>(
        &self,
        platform: &P,
        request: &Request,
        path: &str,
        decision: &mut Option<Decision>,
    ) -> Result<Response, Problem> {
        if request.method == Method::Options {
            return Ok(Response::new(204).with_header("access-control-max-age", CORS_MAX_AGE));
        }
        check_api_version(request.header("api-version")).map_err(Problem::bad_request)?;
        if let Some(location) = page_without_slash(request, path) {
            return Ok(Response::redirect(301, &location));
        }
        let alias = self.route_of_file(platform, path).await?;
        let path = alias.as_deref().unwrap_or(path);
        let Some((route, params)) = routing::find(path) else {
            return Err(unknown_path(path));
        };
        let Some(operation) = route.operation(request.method.as_str()) else {
            return Err(Problem::new(
                ErrorCode::MethodNotAllowed,
                format!("{} is not supported on {path}; use {}.", request.method.as_str(), route.allow()),
            )
            .with_header("allow", route.allow()));
        };
        let now_ms = platform.now_ms();
        if operation.rate_limited {
            let cost = match operation.serve {
                Serve::Handler(Handler::Mcp) => mcp::transport::cost(request),
                _ => 1,
            };
            let verdict = platform
                .rate_limit(&client_identity::rate_key(request), now_ms, cost)
                .await
                .map_err(internal(platform, "rate limiting"))?;
            *decision = Some(verdict);
            if !verdict.allowed {
                return Err(rate_limited(&verdict, cost));
            }
        }
        let query = Query::parse(request.query.as_deref());
        let handler = match operation.serve {
            Serve::File(_) => None,
            Serve::FileUnlessQuery(_, names, handler) => names.iter().any(|n| query.has(n)).then_some(handler),
            Serve::FileUnlessAnyQuery(_, handler) => query.pairs().next().is_some().then_some(handler),
            Serve::Handler(handler) => Some(handler),
        };
        match handler {
            None => handlers::files::serve(&self.state, platform, request, path).await,
            Some(handler) => {
                let ctx = Ctx { state: &self.state, platform, request, params: &params, query, now_ms };
                run(handler, &ctx).await
            }
        }
    }
}

impl App {
    /// Every built file is also answered at its own path (`/services/clinic.html`,
    /// `/api/services.json`), so the relative links of the pages (see the build's `links`) work on
    /// the web exactly as in an unpacked copy of `dist/`: the route whose file `path` names, when
    /// `path` is not a route of its own (a real route always wins).
    async fn route_of_file<P: Platform>(&self, platform: &P, path: &str) -> Result<Option<String>, Problem> {
        let file = path.trim_start_matches('/');
        let candidates = routing::routes_of_file(file);
        if candidates.is_empty() || self.state.asset(platform, path).await?.is_some() {
            return Ok(None);
        }
        for candidate in candidates {
            if self.state.asset(platform, &candidate).await?.is_some_and(|asset| asset.file == file) {
                return Ok(Some(candidate));
            }
        }
        Ok(None)
    }
}

/// Runs the handler the route table names.
async fn run<P: Platform>(handler: Handler, ctx: &Ctx<'_, P>) -> Result<Response, Problem> {
    use handlers::*;
    match handler {
        Handler::Collection => collections::handle(ctx).await,
        Handler::PageRedirect => files::redirect_page(ctx).await,
        Handler::SearchPage => search_page::handle(ctx).await,
        Handler::VoiceForm => submit::once(ctx, form_pages::voice).await,
        Handler::VoiceSent => form_pages::voice_sent(ctx).await,
        Handler::BookingForm | Handler::BookingSent | Handler::Booking
            if ctx.state.manifest().site.booking.is_none() =>
        {
            Err(Problem::new(
                ErrorCode::NotFound,
                "this site takes no bookings: its site.yaml has no `booking:` settings (docs/content.md#site-yaml)",
            ))
        }
        Handler::BookingForm => submit::once(ctx, form_pages::booking).await,
        Handler::BookingSent => form_pages::booking_sent(ctx).await,
        Handler::Search => search::handle(ctx).await,
        Handler::EncyclopediaList => encyclopedia::list(ctx).await,
        Handler::EncyclopediaSuggest => encyclopedia::suggestions(ctx).await,
        Handler::EncyclopediaFacets => encyclopedia::facet_counts(ctx).await,
        Handler::Mcp => mcp::handle(ctx).await,
        Handler::Export => export::handle(ctx).await,
        Handler::MatchCategory => match_category::handle(ctx).await,
        Handler::SubmitVoice => submit::once(ctx, voices::handle).await,
        Handler::Booking => submit::once(ctx, bookings::handle).await,
        Handler::Weather => weather::handle(ctx).await,
        Handler::WeatherPage => weather_page::handle(ctx).await,
        Handler::WeatherAlerts => weather_alerts::handle(ctx).await,
        Handler::Geolocation => geolocation::handle(ctx).await,
        Handler::SpatialJson => spatial::geojson(ctx).await,
        Handler::SpatialCsv => spatial::csv(ctx).await,
        Handler::OgcDocument => ogc::document(ctx).await,
        Handler::OgcItems => ogc::items(ctx).await,
        Handler::OgcItem => ogc::item(ctx).await,
        Handler::HsdsList(kind) => hsds::list(ctx, kind).await,
        Handler::HsdsItem(kind) => hsds::item(ctx, kind).await,
        Handler::CmsAuth => cms_auth::auth(ctx).await,
        Handler::CmsCallback => cms_auth::callback(ctx).await,
    }
}

/// Whether an error on `path` is told as a page: on the site's pages (not the API, discovery or
/// MCP routes) unless the client asks for JSON rather than HTML.
fn for_people(request: &Request, path: &str) -> bool {
    let page = match routing::find(path) {
        Some((route, _)) => route.tag == "pages",
        None => !routing::is_api_path(path),
    };
    if !page {
        return false;
    }
    let accept = request.header("accept").unwrap_or("").to_ascii_lowercase();
    accept.contains("text/html") || !accept.contains("json")
}

/// A page asked for with a trailing slash (`/services/`) is redirected to its URL (`/services`):
/// its relative links resolve from the folder the URL names. The API keeps answering both forms.
fn page_without_slash(request: &Request, path: &str) -> Option<String> {
    let raw = request.path.as_str();
    let trimmed = raw.trim_end_matches('/');
    let is_read = matches!(request.method, Method::Get | Method::Head);
    if !is_read || trimmed.is_empty() || trimmed == raw || trimmed.starts_with("//") || routing::is_api_path(path) {
        return None;
    }
    Some(match &request.query {
        Some(query) => format!("{trimmed}?{query}"),
        None => trimmed.to_string(),
    })
}

/// `/api/<one segment>` is `collection_not_found` (with a suggestion); anything else `not_found`
/// (docs/spec/api-spec.md#error-codes).
fn unknown_path(path: &str) -> Problem {
    let rest = path.strip_prefix("/api/").unwrap_or("");
    if !rest.is_empty() && !rest.contains('/') {
        let hint = match nearest_collection(rest) {
            Some(name) => format!(" Did you mean `{name}` (/api/{name})?"),
            None => String::new(),
        };
        return Problem::new(
            ErrorCode::CollectionNotFound,
            format!("There is no collection named `{rest}`.{hint} The API catalog lists every collection."),
        );
    }
    Problem::not_found(format!("Nothing is published at {path}."))
}

/// The 429 of a request refused by its client's window; a request costing several (an MCP batch)
/// says what it cost and what remained, since it took nothing.
fn rate_limited(decision: &Decision, cost: u32) -> Problem {
    let resets = format!("the window resets in {} seconds", decision.reset_secs);
    let detail = if cost > 1 {
        format!(
            "This batch of {cost} messages costs {cost} requests and this client has {} of its {} left; nothing was run and {resets}.",
            decision.remaining, decision.limit
        )
    } else {
        format!("This client has used its {} requests for this window; {resets}.", decision.limit)
    };
    Problem::new(ErrorCode::RateLimited, detail).with_extension("retryAfter", serde_json::json!(decision.reset_secs))
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::dist::manifest::Asset;
    use crate::search::pack::INDEX_MANIFEST;
    use crate::testing::{block_on, FakePlatform};

    fn app() -> App {
        let asset = Asset {
            file: "api/news.json".into(),
            content_type: "application/json".into(),
            etag: "\"e\"".into(),
            headers: None,
            markdown: None,
        };
        App::new(Manifest::default(), &Routes::from([("/api/news".to_string(), asset)]))
    }

    #[test]
    fn a_page_links_the_per_request_pages_on_the_server_answering_it() {
        let page = "<a href=\"https://site.example/visit\">Book</a> <form action=\"https://site.example/search\">\
                    <link rel=\"canonical\" href='https://site.example/news'> <a href=\"https://site.example.net/x\">";
        let mut response = Response::new(200);
        response.set_header("content-type", "text/html; charset=utf-8");
        response.body = Bytes::from(page);
        local_links(&mut response, "https://site.example");
        let body = String::from_utf8_lossy(&response.body);
        assert!(body.contains("<a href=\"/visit\">") && body.contains("action=\"/search\""), "{body}");
        assert!(body.contains("href='https://site.example/news'"), "the canonical link names the site: {body}");
        assert!(body.contains("https://site.example.net/x"), "another host stays: {body}");
        let mut json = Response::new(200);
        json.set_header("content-type", "application/json");
        json.body = Bytes::from("{\"url\": \"href=\\\"https://site.example/visit\"}");
        local_links(&mut json, "https://site.example");
        assert!(String::from_utf8_lossy(&json.body).contains("https://site.example/visit"));
    }

    #[test]
    fn replacing_in_a_body_is_str_replace_on_its_bytes() {
        let all = |_: &[u8], _: &[u8]| true;
        for (body, from, to) in [
            ("a xx b xx", "xx", "y"),
            ("xxx", "xx", "-"),
            ("none here", "xx", "y"),
            ("xx", "xx", ""),
            ("é xx ü xx", "xx", "ï"),
        ] {
            let expected = body.contains(from).then(|| body.replace(from, to).into_bytes());
            assert_eq!(replaced(body.as_bytes(), from, to, all), expected, "{body:?}");
        }
        // Only where `keep` says so; a page that is not UTF-8 has its links rewritten too.
        let link = |before: &[u8], _: &[u8]| before.ends_with(b"href=");
        let page = b"\xe9 <a href=\"h/x\"> <img src=\"h/y\">";
        assert_eq!(
            replaced(page, "\"h/", "\"/", link).as_deref(),
            Some(&b"\xe9 <a href=\"/x\"> <img src=\"h/y\">"[..])
        );
        assert_eq!(replaced(b"src=\"h/y\"", "\"h/", "\"/", link), None);
    }

    #[test]
    fn ogc_documents_link_a_local_preview_to_itself_and_nothing_else_changes() {
        let body = r#"{"links":[{"href":"https://site.example/api/ogc/collections"}],"servers":[{"url":"https://site.example"}]}"#;
        let answer = |host: &str, path: &str, media: &str| {
            let mut request = Request::new(Method::Get, path);
            request.headers.push(("host".into(), host.into()));
            let mut response = Response::new(200).with_body(media, body.to_string());
            local_ogc_links(&mut response, "https://site.example", &request, path);
            String::from_utf8_lossy(&response.body).into_owned()
        };
        let local = answer("127.0.0.1:8787", "/api/ogc", "application/json");
        assert!(local.contains(r#""href":"http://127.0.0.1:8787/api/ogc/collections""#), "{local}");
        assert!(local.contains(r#""url":"http://127.0.0.1:8787""#), "{local}");
        assert!(answer("localhost", "/api/ogc/openapi", "application/vnd.oai.openapi+json;version=3.0")
            .contains("http://localhost/"));
        assert!(answer("[::1]:80", "/api/ogc/collections/a/items", "application/geo+json").contains("http://[::1]:80/"));
        for (host, path) in [
            ("site.example", "/api/ogc"),
            ("127.0.0.1:8787\"x", "/api/ogc"),
            ("evil.example:8787", "/api/ogc"),
            ("127.0.0.1:8787", "/api/news"),
            ("127.0.0.1:8787", "/api/ogcx"),
        ] {
            assert_eq!(answer(host, path, "application/json"), body, "{host} {path}");
        }
    }

    #[test]
    fn the_pipeline_serves_files_limits_and_counts_down() {
        let platform = FakePlatform::default()
            .with_file("api/news.json", r#"{"status":"success","count":0,"total":0,"data":{"news":[]}}"#);
        let app = app();
        let first = block_on(app.handle(&platform, Request::new(Method::Get, "/api/news")));
        assert_eq!(first.status, 200);
        assert_eq!(first.header("ratelimit-remaining"), Some("59"));
        assert_eq!(first.header("api-version"), Some("1.0.0"));
        for _ in 0..59 {
            block_on(app.handle(&platform, Request::new(Method::Get, "/api/news?limit=1")));
        }
        let refused = block_on(app.handle(&platform, Request::new(Method::Get, "/api/news")));
        assert_eq!(refused.status, 429);
        assert_eq!(refused.header("retry-after"), Some("60"));
        platform.advance(60_000);
        assert_eq!(block_on(app.handle(&platform, Request::new(Method::Get, "/api/news"))).status, 200);
    }

    fn batch(messages: usize) -> Request {
        let message = r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;
        let body = format!("[{}]", vec![message; messages].join(","));
        Request::new(Method::Post, "/mcp").with_header("content-type", "application/json").with_body(body)
    }

    #[test]
    fn an_mcp_batch_costs_one_request_per_message_and_one_too_big_is_refused_whole() {
        let platform = FakePlatform::default();
        let app = app();
        let first = block_on(app.handle(&platform, batch(10)));
        assert_eq!(first.status, 200);
        assert_eq!(first.header("ratelimit-remaining"), Some("50"));
        let refused = block_on(app.handle(&platform, batch(51)));
        assert_eq!(refused.status, 429);
        assert!(refused.header("retry-after").is_some());
        assert!(String::from_utf8_lossy(&refused.body).contains("batch of 51"));
        assert_eq!(refused.header("ratelimit-remaining"), Some("50"), "a refused batch takes nothing");
        assert_eq!(block_on(app.handle(&platform, batch(50))).header("ratelimit-remaining"), Some("0"));
    }

    #[test]
    fn a_missing_search_index_is_a_500_whose_cause_the_operator_hears() {
        let platform = FakePlatform::default();
        let response = block_on(app().handle(&platform, Request::new(Method::Get, "/api/search?q=water")));
        assert_eq!(response.status, 500);
        assert!(!String::from_utf8_lossy(&response.body).contains("missing"));
        let reports = platform.reports.borrow();
        assert_eq!(reports.len(), 1, "{reports:?}");
        assert!(reports[0].contains(INDEX_MANIFEST) && reports[0].contains("missing"), "{reports:?}");
    }

    #[test]
    fn a_backslash_never_reaches_a_location_raw() {
        let platform = FakePlatform::default();
        for target in ["/\\evil.example/", "/\\evil.example/?a=\\b", "/x/\\y/"] {
            let response = block_on(app().handle(&platform, Request::new(Method::Get, target)));
            let location = response.header("location").unwrap_or_default();
            assert!(!location.contains('\\') && !location.starts_with("//"), "{target}: {location}");
        }
        let redirected = block_on(app().handle(&platform, Request::new(Method::Get, "/\\evil.example/")));
        assert_eq!((redirected.status, redirected.header("location")), (301, Some("/%5Cevil.example")));
    }

    #[test]
    fn paths_are_decoded_and_trimmed() {
        assert_eq!(normalize_path("/api/%73ervices/"), "/api/services");
        assert_eq!(normalize_path("/"), "/");
        assert_eq!(normalize_path("//"), "/");
    }

    #[test]
    fn one_unknown_segment_is_a_missing_collection() {
        assert_eq!(unknown_path("/api/servics").code, ErrorCode::CollectionNotFound);
        assert!(unknown_path("/api/servics").detail.contains("services"));
        assert_eq!(unknown_path("/api/a/b").code, ErrorCode::NotFound);
    }
}
