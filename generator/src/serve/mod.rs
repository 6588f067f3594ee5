//! `portal serve`: the core's handlers over `dist/`, natively, on one port.
//!
//! [`router`] is the whole HTTP surface (used by `main` and by tests); [`serve`] runs it until stopped,
//! letting requests in flight finish (`main` adds the build and `--watch`).

pub mod cache;
mod connections;
pub mod listener;
pub mod outbox;
mod platform;
pub mod ready;
pub mod store;
pub mod watch;

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, RwLock};

use anyhow::{Context, Result};
use axum::body::Body;
use axum::extract::{ConnectInfo, State};
use axum::Router;
use portal_core::app::App;
use portal_core::http::body::{check_declared_length, check_host, Interrupted};
use portal_core::http::client_identity::TrustedProxies;
use portal_core::http::ratelimit::{MemoryStore, RateLimit};
use portal_core::http::MAX_BODY_BYTES;
use portal_core::http::{Method, Request, Response};
use tower_http::compression::predicate::{NotForContentType, Predicate};
use tower_http::compression::{CompressionLayer, CompressionLevel};

use outbox::{Outbox, Transport};
pub use platform::{is_contained, NativePlatform};
use store::Store;

/// How many client windows the rate limiter keeps at most.
pub const MAX_RATE_LIMIT_ENTRIES: usize = 100_000;

/// One build being served: the app and the platform over its folder.
pub struct Site {
    /// The core app over the build's manifest.
    pub app: App,
    /// The platform over the build's folder.
    pub platform: NativePlatform,
    /// The built files' answers given so far (`ready.rs`).
    pub ready: ready::Ready,
}

/// The server's state: the current build (swapped by `--watch`) and the rate limiter (kept).
pub struct ServerState {
    dist: PathBuf,
    archive: Option<Arc<std::collections::HashMap<String, bytes::Bytes>>>,
    limiter: Arc<Mutex<MemoryStore>>,
    outbox: Arc<Outbox>,
    /// The peers whose forwarded headers name the client (`--trusted-proxies`).
    trusted: TrustedProxies,
    site: RwLock<Arc<Site>>,
}

impl ServerState {
    /// Loads the build in `dist` (a build folder, or a snapshot archive made by `portal snapshot`),
    /// opens the store in `state` and starts delivering its outbox (to `PORTAL_SMTP_URL`, else
    /// `.eml` files under `<state>/mail/`).
    pub async fn open(dist: PathBuf, state: &Path, limits: RateLimit, trusted: TrustedProxies) -> Result<Arc<Self>> {
        let limiter = Arc::new(Mutex::new(MemoryStore::new(limits, MAX_RATE_LIMIT_ENTRIES)));
        let archive = if dist.is_file() {
            let snapshot = crate::snapshot::open(&dist)?;
            eprintln!("portal: serving the snapshot {} (built {})", dist.display(), snapshot.manifest.generated_at);
            Some(Arc::new(snapshot.files))
        } else {
            None
        };
        let transport = Transport::from_env(state)?;
        let store = Store::open(state)?;
        eprintln!("portal: submissions in {}, mail to {}", state.join(store::DB_FILE).display(), transport.describe());
        let outbox = Outbox::start(store, transport);
        let site = load_site(&dist, archive.clone(), &limiter, &outbox).await?;
        Ok(Arc::new(ServerState { dist, archive, limiter, outbox, trusted, site: RwLock::new(Arc::new(site)) }))
    }

    /// Re-reads the build after a rebuild; requests in flight finish on the old one.
    pub async fn reload(&self) -> Result<()> {
        let site = Arc::new(load_site(&self.dist, self.archive.clone(), &self.limiter, &self.outbox).await?);
        // A panic elsewhere while holding the lock cannot leave a half-written `Arc`: the value is
        // always a whole build, so a poisoned lock is still safe to use.
        *self.site.write().unwrap_or_else(std::sync::PoisonError::into_inner) = site;
        Ok(())
    }

    /// What to tell the operator about links when the build names another address than the one
    /// served (`http://127.0.0.1:8787`): pages and the OGC API follow the served address, other
    /// JSON documents keep the build's (docs/spec/api-spec.md#ogc).
    pub fn address_note(&self, served: &str) -> Option<String> {
        let site = self.current();
        let base = site.app.manifest().site.base().to_string();
        (!base.is_empty() && base != served).then(|| {
            format!(
                "portal: this build names {base} as its address: pages and the OGC API link to {served} here, other \
                 JSON documents (the site's OpenAPI, HSDS, MCP) keep {base}; `portal build --base-url {served}` makes a \
                 build whose every link is local"
            )
        })
    }

    /// The build being served now.
    pub fn current(&self) -> Arc<Site> {
        Arc::clone(&self.site.read().unwrap_or_else(std::sync::PoisonError::into_inner))
    }
}

async fn load_site(
    dist: &Path,
    archive: Option<Arc<std::collections::HashMap<String, bytes::Bytes>>>,
    limiter: &Arc<Mutex<MemoryStore>>,
    outbox: &Arc<Outbox>,
) -> Result<Site> {
    let mut platform = NativePlatform::new(dist, Arc::clone(limiter), Arc::clone(outbox));
    if let Some(files) = archive {
        platform = platform.with_archive(files);
    }
    let app = App::load(&platform).await.with_context(|| format!("opening the build in {}", dist.display()))?;
    // Open the search index now rather than on the first search.
    if app.search_index(&platform).await.is_err() {
        eprintln!("portal: the build in {} has no readable search index; /api/search will fail", dist.display());
    }
    Ok(Site { app, platform, ready: ready::Ready::default() })
}

/// The HTTP surface: every path goes to the core app; responses are compressed when asked.
pub fn router(state: Arc<ServerState>) -> Router {
    // The fastest level: most answers are small JSON built per request, where level 6 costs more
    // time than the bytes it saves on a local network or a CDN hop.
    let compression = CompressionLayer::new().quality(CompressionLevel::Fastest).compress_when(LikeGet);
    Router::new().fallback(handle).with_state(state).layer(compression)
}

/// What is compressed: tower-http's default rule (not gRPC, images or event streams; at least 32
/// bytes), with the size read from `Content-Length` before the body. Core answers HEAD with no
/// body but GET's `Content-Length`, so a HEAD answer is judged like its GET and carries the same
/// `Vary` and `Content-Encoding` (hyper sends no body with it).
#[derive(Debug, Clone, Copy)]
struct LikeGet;

impl Predicate for LikeGet {
    fn should_compress<B: axum::body::HttpBody>(&self, response: &axum::http::Response<B>) -> bool {
        const MIN_BYTES: u64 = 32;
        let declared = response.headers().get(axum::http::header::CONTENT_LENGTH).and_then(|v| v.to_str().ok());
        let size = declared.and_then(|v| v.trim().parse::<u64>().ok()).or_else(|| response.body().size_hint().exact());
        let types = NotForContentType::GRPC.and(NotForContentType::IMAGES).and(NotForContentType::SSE);
        size.is_none_or(|size| size >= MIN_BYTES) && types.should_compress(response)
    }
}

async fn handle(
    State(state): State<Arc<ServerState>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    request: axum::extract::Request,
) -> axum::response::Response {
    let site = state.current();
    let (parts, body) = request.into_parts();
    let path = parts.uri.path().to_string();
    if parts.version == axum::http::Version::HTTP_11 {
        if let Err(what) = check_host(parts.headers.get_all(axum::http::header::HOST).iter().count()) {
            return into_axum(site.app.interrupted(what, &path));
        }
    }
    let declared = parts.headers.get(axum::http::header::CONTENT_LENGTH).and_then(|v| v.to_str().ok());
    if let Err(what) = check_declared_length(declared) {
        return into_axum(site.app.interrupted(what, &path));
    }
    let body = match axum::body::to_bytes(body, MAX_BODY_BYTES).await {
        Ok(body) => body,
        Err(e) => return into_axum(site.app.interrupted(body_error(&e), &path)),
    };
    let core_request = Request {
        method: Method::parse(parts.method.as_str()),
        path,
        query: parts.uri.query().map(str::to_string),
        headers: parts
            .headers
            .iter()
            .filter_map(|(name, value)| value.to_str().ok().map(|v| (name.as_str().to_string(), v.to_string())))
            .collect(),
        body,
        peer: Some(peer.ip().to_string()),
        trusted_peer: state.trusted.trusts(&peer.ip().to_string()),
        location: None,
    };
    into_axum(site.app.handle(&site.platform, core_request).await)
}

/// What stopped reading a body: the size limit, the body deadline, or anything else.
fn body_error(error: &axum::Error) -> Interrupted {
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(error);
    while let Some(current) = source {
        if current.is::<http_body_util::LengthLimitError>() {
            return Interrupted::BodyTooLarge;
        }
        if current.is::<tower_http::timeout::TimeoutError>() {
            return Interrupted::BodyTimedOut;
        }
        source = current.source();
    }
    Interrupted::BodyUnreadable
}

/// The axum response of a core response (a 500 should core ever name a header or status HTTP
/// cannot carry). Header values are moved, not copied: this runs for every request.
pub(crate) fn into_axum(response: Response) -> axum::response::Response {
    use axum::http::{HeaderName, HeaderValue, StatusCode};
    let failed = || {
        let mut fallback = axum::response::Response::new(Body::empty());
        *fallback.status_mut() = StatusCode::INTERNAL_SERVER_ERROR;
        fallback
    };
    let Ok(status) = StatusCode::from_u16(response.status) else { return failed() };
    let built_file = response.built_file.then_some(ready::BuiltFile(response.body.len()));
    let mut out = axum::response::Response::new(Body::from(response.body));
    if let Some(mark) = built_file {
        out.extensions_mut().insert(mark);
    }
    *out.status_mut() = status;
    let headers = out.headers_mut();
    headers.reserve(response.headers.len());
    for (name, value) in response.headers {
        match (HeaderName::from_bytes(name.as_bytes()), HeaderValue::try_from(value)) {
            (Ok(name), Ok(value)) => {
                headers.append(name, value);
            }
            _ => return failed(),
        }
    }
    out
}

/// Serves `state` on `listener` until SIGINT or SIGTERM, letting requests in flight finish, then
/// lets the outbox record the mail it is sending.
pub async fn serve(listener: tokio::net::TcpListener, state: Arc<ServerState>) -> Result<()> {
    let limits = listener::Limits::from_env();
    let trusted = state.trusted.clone();
    let outbox = Arc::clone(&state.outbox);
    let served = listener::run(
        listener,
        listener::with_timeouts(router(Arc::clone(&state)), limits, Arc::clone(&state)),
        limits,
        trusted,
        state,
        shutdown_signal(),
    )
    .await;
    outbox.stop().await;
    served
}

async fn shutdown_signal() {
    let interrupt = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = interrupt => {},
        () = terminate => {},
    }
    eprintln!("portal: shutting down, finishing requests in flight");
}
