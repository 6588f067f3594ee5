//! Connections: how `portal serve` accepts them, bounds them and lets them go. A public,
//! unauthenticated server is attacked from day one, so every connection has limits: a cap on how
//! many are open at once (within the process's limit on open files) and on how many one client
//! address holds, a deadline for sending headers (counted from accept, so a silent socket is closed
//! too), a deadline for the body and for the whole request, and on SIGINT/SIGTERM a graceful close
//! that lets requests in flight finish. When every place is taken, idle and unfinished connections
//! make room for new ones (`connections.rs`).

use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Result;
use axum::extract::ConnectInfo;
use axum::middleware::Next;
use axum::Router;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto::Builder;
use tokio::net::TcpListener;
use tokio::sync::{watch, Semaphore};
use tower::ServiceExt;

use super::connections::{self, Counted, Handle, Registry, Tracked};
use super::ready::Ready;
use super::{into_axum, ServerState};
use portal_core::http::body::Interrupted;
use portal_core::http::client_identity::{network_key, TrustedProxies, MAX_CONNECTIONS_PER_CLIENT};

/// The limits on connections and requests.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Connections open at once. A connection beyond them takes the place of one with nothing in
    /// flight, or waits for one to finish when every connection is answering.
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

/// Open files left for what is not a connection (the build's files, the state store, the watcher,
/// sockets to upstreams) when the process's limit on open files caps the connections.
const FILES_FOR_OTHER_USES: u64 = 128;

impl Limits {
    /// These limits with no more connections than `open_files` (the process's limit on open files,
    /// when known) has room for beside `FILES_FOR_OTHER_USES`: past it, accepting fails and every
    /// place must be freed by closing another connection.
    pub fn within_open_files(self, open_files: Option<u64>) -> Self {
        let room = open_files.map_or(usize::MAX, |files| {
            usize::try_from(files.saturating_sub(FILES_FOR_OTHER_USES).max(16)).unwrap_or(usize::MAX)
        });
        Limits { max_connections: self.max_connections.min(room), ..self }
    }
}

/// This process's soft limit on open files (Linux; `None` elsewhere or when unlimited).
fn open_file_limit() -> Option<u64> {
    parse_open_file_limit(&std::fs::read_to_string("/proc/self/limits").ok()?)
}

/// The soft limit in the text of `/proc/self/limits`.
fn parse_open_file_limit(limits: &str) -> Option<u64> {
    let line = limits.lines().find_map(|line| line.strip_prefix("Max open files"))?;
    line.split_whitespace().next()?.parse().ok()
}

/// Connections the kernel may hold for `portal serve` before it accepts them. The standard
/// library's 128 (which tokio's `bind` uses) is less than a flood needs to overflow: once every
/// place is taken, each connection waits in this queue while one with nothing in flight is closed
/// to make room, and past the queue's end the kernel drops a visitor's SYN, which its client sends
/// again only a second later. The kernel caps it at `net.core.somaxconn` (4096 on Linux since 5.4).
pub const LISTEN_BACKLOG: u32 = 4096;

/// Listens on `host:port` (the first of its addresses that can be bound) with `LISTEN_BACKLOG`.
pub async fn bind(host: &str, port: u16) -> Result<TcpListener> {
    let mut last = None;
    for address in tokio::net::lookup_host((host, port)).await? {
        match listen_on(address) {
            Ok(listener) => return Ok(listener),
            Err(error) => last = Some(error),
        }
    }
    Err(last.map_or_else(|| anyhow::anyhow!("{host} has no address"), anyhow::Error::from))
}

/// A listening socket on `address`, reusable at once after a restart like tokio's own `bind`.
fn listen_on(address: SocketAddr) -> std::io::Result<TcpListener> {
    let socket = if address.is_ipv4() { tokio::net::TcpSocket::new_v4()? } else { tokio::net::TcpSocket::new_v6()? };
    socket.set_reuseaddr(true)?;
    socket.bind(address)?;
    socket.listen(LISTEN_BACKLOG)
}

/// Accepts connections on `listener` for `router` until `shutdown` resolves, then drains. Peers in
/// `trusted` are exempt from the per-client cap: a proxy carries many clients. When every place is
/// taken, connections with nothing in flight make room (`connections.rs`).
pub async fn run(
    listener: TcpListener,
    router: Router,
    limits: Limits,
    trusted: TrustedProxies,
    state: Arc<ServerState>,
    shutdown: impl std::future::Future<Output = ()>,
) -> Result<()> {
    let limits = capped_by_open_files(limits);
    let permits = Arc::new(Semaphore::new(limits.max_connections));
    let batch = connections::batch(limits.max_connections);
    let registry = Arc::new(Registry::default());
    let (stop, stopping) = watch::channel(false);
    let mut builder = Builder::new(TokioExecutor::new());
    builder.http1().timer(TokioTimer::new()).header_read_timeout(limits.header_timeout);
    let builder = Arc::new(builder);
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(error) => {
                    if out_of_descriptors(&error) {
                        registry.shed(batch);
                    }
                    // Back off briefly instead of spinning.
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let cap = (!trusted.trusts(&peer.ip().to_string())).then_some(limits.max_per_client);
        // Over its cap, the connection is dropped here, which closes it.
        let Some(held) = registry.admit(network_key(peer.ip()), cap) else { continue };
        let permit = tokio::select! {
            permit = registry.place(&permits, batch) => permit?,
            () = &mut shutdown => break,
        };
        let slot = registry.register(held, permit);
        let io = TokioIo::new(slot.handle().watch(stream));
        let service = service(router.clone(), Arc::clone(&state), peer, slot.handle().clone());
        let connection = builder.serve_connection_with_upgrades(io, service).into_owned();
        let stopping = stopping.clone();
        tokio::spawn(async move {
            drive(connection, |c| c.graceful_shutdown(), slot.handle().tracked(), limits.header_timeout, stopping)
                .await;
            drop(slot);
        });
    }
    drop(listener);
    let _ = stop.send(true);
    // Every place is back once every connection has ended.
    let all = u32::try_from(limits.max_connections).unwrap_or(u32::MAX);
    if tokio::time::timeout(limits.drain_timeout, permits.acquire_many(all)).await.is_err() {
        eprintln!("portal: some connections were still open after {:?}; closing them", limits.drain_timeout);
    }
    Ok(())
}

/// `limits` within this process's limit on open files, saying so when that lowers them.
fn capped_by_open_files(limits: Limits) -> Limits {
    let files = open_file_limit();
    let capped = limits.within_open_files(files);
    if capped.max_connections < limits.max_connections {
        eprintln!(
            "portal: the limit on open files ({}) leaves room for {} connections, not {}; raise it (`ulimit -n`, \
             systemd's LimitNOFILE=) to hold more",
            files.unwrap_or_default(),
            capped.max_connections,
            limits.max_connections
        );
    }
    capped
}

/// Whether accepting failed for want of file descriptors (EMFILE or ENFILE, the same numbers on
/// Linux, macOS and the BSDs): closing an idle connection gives one back.
fn out_of_descriptors(error: &std::io::Error) -> bool {
    matches!(error.raw_os_error(), Some(23 | 24))
}

/// The router as a hyper service for one connection from `peer`, counting each request as in
/// flight on `connection` until its answer's body is sent.
fn service(
    router: Router,
    state: Arc<ServerState>,
    peer: SocketAddr,
    connection: Handle,
) -> impl hyper::service::Service<
    hyper::Request<hyper::body::Incoming>,
    Response = axum::response::Response,
    Error = std::convert::Infallible,
    Future = impl std::future::Future<Output = Result<axum::response::Response, std::convert::Infallible>> + Send,
> + Clone {
    hyper::service::service_fn(move |mut request: hyper::Request<hyper::body::Incoming>| {
        let in_flight = connection.request_started();
        // A built file's answer given before is given again as it was (`ready.rs`); the build is
        // looked up only for a request whose answer may be one.
        let ready = Ready::key(&request).map(|key| (key, state.current()));
        let kept = ready.as_ref().and_then(|(key, site)| site.ready.answer(key));
        let router = router.clone();
        async move {
            let response = match kept {
                Some(kept) => kept,
                None => {
                    request.extensions_mut().insert(ConnectInfo::<SocketAddr>(peer));
                    let response = router.oneshot(request.map(axum::body::Body::new)).await?;
                    match ready {
                        Some((key, site)) => site.ready.keep(key, response).await,
                        None => response,
                    }
                }
            };
            Ok(response.map(|body| axum::body::Body::new(Counted::new(body, in_flight))))
        }
    })
}

/// Runs `connection` until it ends, or ends it:
/// * at once if no request head has arrived `header_deadline` after accept. hyper's own header
///   deadline starts only at a request's first byte, and the protocol detection before it waits
///   for bytes forever, so a socket that never speaks would otherwise hold its place;
/// * when asked to free its place: at once if nothing is in flight or unsent, else gracefully
///   (`graceful`: hyper finishes the answer, then closes);
/// * gracefully when the server stops.
async fn drive<C: std::future::Future>(
    connection: C,
    graceful: impl Fn(Pin<&mut C>),
    tracked: &Tracked,
    header_deadline: Duration,
    mut stopping: watch::Receiver<bool>,
) {
    let mut connection = std::pin::pin!(connection);
    let mut silent = std::pin::pin!(tokio::time::sleep(header_deadline));
    let (mut timing, mut running) = (true, true);
    loop {
        tokio::select! {
            _ = connection.as_mut() => return,
            () = silent.as_mut(), if timing => {
                timing = false;
                if !tracked.head_seen() {
                    return;
                }
            }
            () = tracked.asked_to_close() => {
                if tracked.is_quiet() {
                    return;
                }
                graceful(connection.as_mut());
            }
            _ = stopping.changed(), if running => {
                running = false;
                graceful(connection.as_mut());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIMITS: &str = "Limit                     Soft Limit           Hard Limit           Units     \n\
        Max processes             63704                63704                processes \n\
        Max open files            1024                 524288               files     \n";

    /// More connections than the standard library's backlog of 128 wait, unaccepted, without a
    /// dropped SYN: each connect completes at once instead of after a retransmit a second later.
    #[tokio::test]
    async fn connections_past_128_wait_in_the_queue_while_every_place_is_taken() {
        let listener = bind("127.0.0.1", 0).await.expect("a listener");
        let address = listener.local_addr().expect("its address");
        let waiting: Vec<_> = (0..300)
            .map(|n| {
                std::net::TcpStream::connect_timeout(&address, Duration::from_millis(500))
                    .unwrap_or_else(|e| panic!("connection {n} was not queued: {e}"))
            })
            .collect();
        assert_eq!(waiting.len(), 300);
        drop(listener);
    }

    #[test]
    fn the_soft_limit_on_open_files_is_read_from_proc() {
        assert_eq!(parse_open_file_limit(LIMITS), Some(1024));
        assert_eq!(parse_open_file_limit("Max open files  unlimited  unlimited  files"), None);
        assert_eq!(parse_open_file_limit(""), None);
    }

    #[test]
    fn connections_stay_within_the_limit_on_open_files() {
        let limits = Limits::default();
        assert_eq!(limits.within_open_files(Some(1024)).max_connections, 896, "128 files kept for the rest");
        assert_eq!(limits.within_open_files(Some(20_000)).max_connections, 1024);
        assert_eq!(limits.within_open_files(None).max_connections, 1024);
        assert_eq!(limits.within_open_files(Some(64)).max_connections, 16);
    }
}
