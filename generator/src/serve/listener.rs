//! Connections: how `portal serve` accepts them, bounds them and lets them go. A public,
//! unauthenticated server is attacked from day one, so every connection has limits: a cap on how
//! many are open at once and on how many one client address holds, a deadline for sending headers
//! (counted from accept, so a silent socket is closed too), a deadline for the body and for the
//! whole request, and on SIGINT/SIGTERM a graceful close that lets requests in flight finish.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
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
use portal_core::http::body::Interrupted;
use portal_core::http::client_identity::{network_key, TrustedProxies, MAX_CONNECTIONS_PER_CLIENT};

/// The limits on connections and requests.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Connections open at once; further ones wait in the kernel's backlog.
    pub max_connections: usize,
    /// Connections one client address (an IPv6 /64) that is not a trusted proxy may hold open;
    /// further ones are closed at once.
    pub max_per_client: usize,
    /// Time a client has to send a request's headers, from accept for the first request.
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
            max_per_client: MAX_CONNECTIONS_PER_CLIENT,
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(10),
            request_timeout: Duration::from_secs(30),
            drain_timeout: Duration::from_secs(30),
        }
    }
}

impl Limits {
    /// The defaults, overridden by `PORTAL_MAX_CONNECTIONS`, `PORTAL_MAX_CONNECTIONS_PER_CLIENT`,
    /// `PORTAL_HEADER_TIMEOUT_MS`, `PORTAL_BODY_TIMEOUT_MS` and `PORTAL_REQUEST_TIMEOUT_MS` where set
    /// (operators tune them; tests shorten them).
    pub fn from_env() -> Self {
        let number =
            |name: &str| std::env::var(name).ok().and_then(|v| v.trim().parse::<u64>().ok()).filter(|n| *n > 0);
        let millis = |name: &str, default: Duration| number(name).map_or(default, Duration::from_millis);
        let defaults = Limits::default();
        Limits {
            max_connections: number("PORTAL_MAX_CONNECTIONS").map_or(defaults.max_connections, |n| n as usize),
            max_per_client: number("PORTAL_MAX_CONNECTIONS_PER_CLIENT").map_or(defaults.max_per_client, |n| n as usize),
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

/// Accepts connections on `listener` for `router` until `shutdown` resolves, then drains. Peers in
/// `trusted` are exempt from the per-client cap: a proxy carries many clients.
pub async fn run(
    listener: TcpListener,
    router: Router,
    limits: Limits,
    trusted: TrustedProxies,
    shutdown: impl std::future::Future<Output = ()>,
) -> Result<()> {
    let permits = Arc::new(Semaphore::new(limits.max_connections));
    let open = Arc::new(OpenPerClient::default());
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
        let held = if trusted.trusts(&peer.ip().to_string()) {
            None
        } else {
            // Over its cap, the connection is dropped here, which closes it.
            let Some(held) = open.admit(network_key(peer.ip()), limits.max_per_client) else { continue };
            Some(held)
        };
        let head_seen = Arc::new(AtomicBool::new(false));
        let service = service(router.clone(), peer, Arc::clone(&head_seen));
        let connection = builder.serve_connection_with_upgrades(TokioIo::new(stream), service).into_owned();
        let connection = graceful.watch(connection);
        tokio::spawn(async move {
            close_if_silent(connection, limits.header_timeout, &head_seen).await;
            drop((permit, held));
        });
    }
    drop(listener);
    if tokio::time::timeout(limits.drain_timeout, graceful.shutdown()).await.is_err() {
        eprintln!("portal: some connections were still open after {:?}; closing them", limits.drain_timeout);
    }
    Ok(())
}

/// The router as a hyper service for one connection from `peer`, noting when a request head has
/// arrived (`head_seen`).
fn service(
    router: Router,
    peer: SocketAddr,
    head_seen: Arc<AtomicBool>,
) -> impl hyper::service::Service<
    hyper::Request<hyper::body::Incoming>,
    Response = axum::response::Response,
    Error = std::convert::Infallible,
    Future = tower::util::Oneshot<Router, axum::extract::Request>,
> + Clone {
    hyper::service::service_fn(move |mut request: hyper::Request<hyper::body::Incoming>| {
        head_seen.store(true, Ordering::Relaxed);
        request.extensions_mut().insert(ConnectInfo::<SocketAddr>(peer));
        router.clone().oneshot(request.map(axum::body::Body::new))
    })
}

/// Runs `connection`, closing it (by dropping it) if no request head has arrived `deadline` after
/// accept. hyper's own header deadline starts only at a request's first byte, and the protocol
/// detection before it waits for bytes forever, so a socket that never speaks would otherwise hold
/// its place until the client leaves.
async fn close_if_silent(connection: impl std::future::Future, deadline: Duration, head_seen: &AtomicBool) {
    let mut connection = std::pin::pin!(connection);
    tokio::select! {
        _ = &mut connection => return,
        () = tokio::time::sleep(deadline) => {}
    }
    if head_seen.load(Ordering::Relaxed) {
        connection.await;
    }
}

/// How many connections each client key (see [`network_key`]) holds open.
#[derive(Default)]
struct OpenPerClient(Mutex<HashMap<String, usize>>);

/// One connection counted against its client; uncounted when dropped.
struct Held {
    table: Arc<OpenPerClient>,
    key: String,
}

impl OpenPerClient {
    /// Counts a new connection of `key`, unless it already holds `cap`.
    fn admit(self: &Arc<Self>, key: String, cap: usize) -> Option<Held> {
        let mut open = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        let count = open.entry(key.clone()).or_insert(0);
        if *count >= cap {
            return None;
        }
        *count += 1;
        Some(Held { table: Arc::clone(self), key })
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        let mut open = self.table.0.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(count) = open.get_mut(&self.key) {
            *count -= 1;
            if *count == 0 {
                open.remove(&self.key);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_client_holds_at_most_its_cap_and_a_closed_connection_frees_its_place() {
        let open = Arc::new(OpenPerClient::default());
        let held: Vec<_> = (0..3).filter_map(|_| open.admit("198.51.100.7".into(), 3)).collect();
        assert_eq!(held.len(), 3);
        assert!(open.admit("198.51.100.7".into(), 3).is_none(), "a fourth is refused");
        assert!(open.admit("198.51.100.8".into(), 3).is_some(), "another client is not");
        drop(held);
        assert!(open.admit("198.51.100.7".into(), 3).is_some());
        assert!(open.0.lock().expect("unpoisoned").get("198.51.100.8").is_none(), "no count is left behind");
    }
}
