//! Connections: how `portal serve` accepts them, bounds them and lets them go. A public,
//! unauthenticated server is attacked from day one, so every connection has limits: a cap on how
//! many are open at once, a deadline for sending headers, a deadline for the body and for the whole
//! request, and on SIGINT/SIGTERM a graceful close that lets requests in flight finish.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Result;
use axum::extract::ConnectInfo;
use axum::middleware::Next;
use axum::Router;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto::Builder;
use hyper_util::server::graceful::GracefulShutdown;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;
use tower::ServiceExt;

use super::{into_axum, ServerState};
use portal_core::body::Interrupted;

/// The limits on connections and requests.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Connections open at once; further ones wait in the kernel's backlog.
    pub max_connections: usize,
    /// Time a client has to send a request's headers.
    pub header_timeout: Duration,
    /// Time a client has to send a request's body (408 after it).
    pub body_timeout: Duration,
    /// Time a request may take in all (408 after it).
    pub request_timeout: Duration,
    /// How long shutdown waits for requests in flight.
    pub drain_timeout: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_connections: 1024,
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(10),
            request_timeout: Duration::from_secs(30),
            drain_timeout: Duration::from_secs(30),
        }
    }
}

impl Limits {
    /// The defaults, overridden by `PORTAL_MAX_CONNECTIONS`, `PORTAL_HEADER_TIMEOUT_MS`,
    /// `PORTAL_BODY_TIMEOUT_MS` and `PORTAL_REQUEST_TIMEOUT_MS` where set (operators tune them;
    /// tests shorten them).
    pub fn from_env() -> Self {
        let number =
            |name: &str| std::env::var(name).ok().and_then(|v| v.trim().parse::<u64>().ok()).filter(|n| *n > 0);
        let millis = |name: &str, default: Duration| number(name).map_or(default, Duration::from_millis);
        let defaults = Limits::default();
        Limits {
            max_connections: number("PORTAL_MAX_CONNECTIONS").map_or(defaults.max_connections, |n| n as usize),
            header_timeout: millis("PORTAL_HEADER_TIMEOUT_MS", defaults.header_timeout),
            body_timeout: millis("PORTAL_BODY_TIMEOUT_MS", defaults.body_timeout),
            request_timeout: millis("PORTAL_REQUEST_TIMEOUT_MS", defaults.request_timeout),
            drain_timeout: defaults.drain_timeout,
        }
    }
}

/// The body and whole-request deadlines, as layers around the router. A request past its deadline
/// gets the core's 408 (a problem document with the shared headers), like every other answer.
pub fn with_timeouts(router: Router, limits: Limits, state: Arc<ServerState>) -> Router {
    let deadline = limits.request_timeout;
    let request_deadline = move |request: axum::extract::Request, next: Next| {
        let state = Arc::clone(&state);
        async move {
            let path = request.uri().path().to_string();
            match tokio::time::timeout(deadline, next.run(request)).await {
                Ok(response) => response,
                Err(_) => into_axum(state.current().app.interrupted(Interrupted::RequestTimedOut, &path)),
            }
        }
    };
    router
        .layer(tower_http::timeout::RequestBodyTimeoutLayer::new(limits.body_timeout))
        .layer(axum::middleware::from_fn(request_deadline))
}

/// Accepts connections on `listener` for `router` until `shutdown` resolves, then drains.
pub async fn run(
    listener: TcpListener,
    router: Router,
    limits: Limits,
    shutdown: impl std::future::Future<Output = ()>,
) -> Result<()> {
    let permits = Arc::new(Semaphore::new(limits.max_connections));
    let graceful = GracefulShutdown::new();
    let mut builder = Builder::new(TokioExecutor::new());
    builder.http1().timer(TokioTimer::new()).header_read_timeout(limits.header_timeout);
    let builder = Arc::new(builder);
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let permit = tokio::select! {
            permit = Arc::clone(&permits).acquire_owned() => permit?,
            () = &mut shutdown => break,
        };
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                // Out of file descriptors and the like: back off briefly instead of spinning.
                Err(_) => { tokio::time::sleep(Duration::from_millis(50)).await; continue }
            },
            () = &mut shutdown => break,
        };
        let router = router.clone();
        let service = hyper::service::service_fn(move |mut request: hyper::Request<hyper::body::Incoming>| {
            request.extensions_mut().insert(ConnectInfo::<SocketAddr>(peer));
            router.clone().oneshot(request.map(axum::body::Body::new))
        });
        let connection = builder.serve_connection_with_upgrades(TokioIo::new(stream), service).into_owned();
        let connection = graceful.watch(connection);
        tokio::spawn(async move {
            let _ = connection.await;
            drop(permit);
        });
    }
    drop(listener);
    if tokio::time::timeout(limits.drain_timeout, graceful.shutdown()).await.is_err() {
        eprintln!("portal: some connections were still open after {:?}; closing them", limits.drain_timeout);
    }
    Ok(())
}
