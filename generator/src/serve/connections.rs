//! The connections `portal serve` holds open, and which of them go when every place is taken.
//!
//! A few addresses, each under its own cap, can still open enough sockets that send nothing (or
//! half a request head) to take every place, and open them again as soon as the header deadline
//! closes them. So a connection that finds no place does not wait for one: connections with no
//! request in flight (idle between requests, or whose request head is not finished) are closed to
//! make room, those of the client holding the most connections first and the oldest first among
//! them ([`victims`]), the way nginx reuses idle connections when its connections run out. A
//! connection answering a request is never cut: it finishes its answer and closes after. The rule
//! and its tests: SECURITY.md, "Connection floods".

use std::cmp::Reverse;
use std::collections::HashMap;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::task::{Context, Poll};
use std::time::Instant;

use hyper::body::{Body, Frame, SizeHint};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::sync::{AcquireError, Notify, OwnedSemaphorePermit, Semaphore};

/// Places are freed up to this many at a time: the next newcomers of a flood find a place at once,
/// and the search over every connection runs once a batch rather than once a connection (nginx
/// frees up to 32 the same way).
const MOST_FREED: usize = 32;

/// How many places to free at once for a server of `max_connections`: [`MOST_FREED`], or a
/// quarter of the places on a server with few. A server capped low by its open files frees as many
/// as a large one: a flood queues as many connections ahead of a visitor either way, and each
/// round of freeing waits for the closed connections' tasks.
pub fn batch(max_connections: usize) -> usize {
    (max_connections / 4).clamp(1, MOST_FREED)
}

/// The open connections and the per-client counts, shared by the accept loop, every connection's
/// task and its requests.
pub struct Registry {
    epoch: Instant,
    inner: Mutex<Inner>,
    /// Woken when a connection may have become one to close: its answer ended.
    changed: Notify,
}

#[derive(Default)]
struct Inner {
    next_id: u64,
    open: HashMap<u64, Arc<Tracked>>,
    per_client: HashMap<String, usize>,
}

/// What is known of one connection.
pub struct Tracked {
    client: String,
    /// Requests (HTTP/2 streams) being answered.
    in_flight: AtomicUsize,
    /// Microseconds from the registry's epoch to when the connection last had nothing in flight:
    /// its accept, or the end of its last answer.
    idle_since: AtomicU64,
    head_seen: AtomicBool,
    /// Whether the socket refused the last write: the client has not read all of an answer yet.
    write_blocked: AtomicBool,
    asked: AtomicBool,
    close: Notify,
}

impl Tracked {
    /// Whether a request head has arrived on the connection.
    pub fn head_seen(&self) -> bool {
        self.head_seen.load(Ordering::Relaxed)
    }

    /// Whether nothing is being answered or waiting to be sent: closing now loses nothing.
    pub fn is_quiet(&self) -> bool {
        self.in_flight.load(Ordering::Acquire) == 0 && !self.write_blocked.load(Ordering::Acquire)
    }

    /// Resolves when the connection is asked to free its place.
    pub async fn asked_to_close(&self) {
        self.close.notified().await;
    }
}

/// One connection counted against its client; uncounted when dropped.
pub struct Held {
    registry: Arc<Registry>,
    client: String,
}

/// A connection's place: registered while it lives, its place and count given back when dropped.
pub struct Slot {
    handle: Handle,
    id: u64,
    // Dropped after the registry entry is gone (field order), so that whoever gets the place next
    // no longer sees this connection.
    _held: Held,
    _permit: OwnedSemaphorePermit,
}

/// A connection as its requests see it.
#[derive(Clone)]
pub struct Handle {
    registry: Arc<Registry>,
    tracked: Arc<Tracked>,
}

impl Default for Registry {
    fn default() -> Self {
        Registry { epoch: Instant::now(), inner: Mutex::default(), changed: Notify::new() }
    }
}

impl Registry {
    fn lock(&self) -> MutexGuard<'_, Inner> {
        // Every critical section leaves the maps whole, so a poisoned lock is still consistent.
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn now(&self) -> u64 {
        u64::try_from(self.epoch.elapsed().as_micros()).unwrap_or(u64::MAX)
    }

    /// Counts a new connection of `client`, unless it already holds `cap` (no cap: a trusted proxy,
    /// counted only to choose whom to close).
    pub fn admit(self: &Arc<Self>, client: String, cap: Option<usize>) -> Option<Held> {
        let mut inner = self.lock();
        let count = inner.per_client.entry(client.clone()).or_insert(0);
        if cap.is_some_and(|cap| *count >= cap) {
            return None;
        }
        *count += 1;
        Some(Held { registry: Arc::clone(self), client })
    }

    /// A place from `permits`; when none is free, asks up to `batch` connections with nothing in
    /// flight to close (see [`victims`]) and waits for the first place they free. With every
    /// connection busy it waits for one to finish.
    pub async fn place(&self, permits: &Arc<Semaphore>, batch: usize) -> Result<OwnedSemaphorePermit, AcquireError> {
        loop {
            if let Ok(permit) = Arc::clone(permits).try_acquire_owned() {
                return Ok(permit);
            }
            self.shed(batch);
            tokio::select! {
                permit = Arc::clone(permits).acquire_owned() => return permit,
                () = self.changed.notified() => {}
            }
        }
    }

    /// Asks up to `batch` connections chosen by [`victims`] to close.
    pub fn shed(&self, batch: usize) {
        let inner = self.lock();
        let open: Vec<&Arc<Tracked>> = inner.open.values().collect();
        let views: Vec<View> = open
            .iter()
            .map(|tracked| View {
                held_by_client: inner.per_client.get(&tracked.client).copied().unwrap_or(0),
                busy: !tracked.is_quiet(),
                asked: tracked.asked.load(Ordering::Relaxed),
                since: tracked.idle_since.load(Ordering::Relaxed),
            })
            .collect();
        for index in victims(&views, batch) {
            open[index].asked.store(true, Ordering::Relaxed);
            open[index].close.notify_one();
        }
    }

    /// Registers the admitted connection `held` in its place `permit`.
    pub fn register(self: &Arc<Self>, held: Held, permit: OwnedSemaphorePermit) -> Slot {
        let tracked = Arc::new(Tracked {
            client: held.client.clone(),
            in_flight: AtomicUsize::new(0),
            idle_since: AtomicU64::new(self.now()),
            head_seen: AtomicBool::new(false),
            write_blocked: AtomicBool::new(false),
            asked: AtomicBool::new(false),
            close: Notify::new(),
        });
        let mut inner = self.lock();
        let id = inner.next_id;
        inner.next_id += 1;
        inner.open.insert(id, Arc::clone(&tracked));
        drop(inner);
        Slot { handle: Handle { registry: Arc::clone(self), tracked }, id, _held: held, _permit: permit }
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        let mut inner = self.registry.lock();
        if let Some(count) = inner.per_client.get_mut(&self.client) {
            *count -= 1;
            if *count == 0 {
                inner.per_client.remove(&self.client);
            }
        }
    }
}

impl Slot {
    /// The connection, for its task and its requests.
    pub fn handle(&self) -> &Handle {
        &self.handle
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.handle.registry.lock().open.remove(&self.id);
    }
}

impl Handle {
    /// What is known of the connection.
    pub fn tracked(&self) -> &Tracked {
        &self.tracked
    }

    /// Notes that a request head has arrived; the request counts as in flight until the returned
    /// guard is dropped (with the answer's body, once hyper has taken all of it).
    pub fn request_started(&self) -> InFlight {
        self.tracked.head_seen.store(true, Ordering::Relaxed);
        self.tracked.in_flight.fetch_add(1, Ordering::AcqRel);
        InFlight(self.clone())
    }

    /// `io` with its refused writes noted on this connection.
    pub fn watch<T>(&self, io: T) -> Watched<T> {
        Watched { io, tracked: Arc::clone(&self.tracked) }
    }
}

/// A request being answered (see [`Handle::request_started`]).
pub struct InFlight(Handle);

impl Drop for InFlight {
    fn drop(&mut self) {
        let Handle { registry, tracked } = &self.0;
        if tracked.in_flight.fetch_sub(1, Ordering::AcqRel) == 1 {
            tracked.idle_since.store(registry.now(), Ordering::Relaxed);
            registry.changed.notify_one();
        }
    }
}

/// An answer's body holding its request [`InFlight`] until hyper has taken all of it.
pub struct Counted<B> {
    body: B,
    _in_flight: InFlight,
}

impl<B> Counted<B> {
    /// `body`, counting `in_flight` until it is dropped.
    pub fn new(body: B, in_flight: InFlight) -> Self {
        Counted { body, _in_flight: in_flight }
    }
}

impl<B: Body + Unpin> Body for Counted<B> {
    type Data = B::Data;
    type Error = B::Error;

    fn poll_frame(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Result<Frame<Self::Data>, Self::Error>>> {
        Pin::new(&mut self.get_mut().body).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}

/// A socket noting whether its last write was refused: hyper has taken an answer's whole body but
/// the client has not read all of it yet, so the connection is not quiet.
pub struct Watched<T> {
    io: T,
    tracked: Arc<Tracked>,
}

impl<T> Watched<T> {
    fn note<R>(&self, poll: Poll<R>) -> Poll<R> {
        self.tracked.write_blocked.store(poll.is_pending(), Ordering::Release);
        poll
    }
}

impl<T: AsyncRead + Unpin> AsyncRead for Watched<T> {
    fn poll_read(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.get_mut().io).poll_read(cx, buf)
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for Watched<T> {
    fn poll_write(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<std::io::Result<usize>> {
        let this = self.get_mut();
        let poll = Pin::new(&mut this.io).poll_write(cx, buf);
        this.note(poll)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> Poll<std::io::Result<usize>> {
        let this = self.get_mut();
        let poll = Pin::new(&mut this.io).poll_write_vectored(cx, bufs);
        this.note(poll)
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.get_mut().io).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.get_mut().io).poll_shutdown(cx)
    }
}

/// One open connection as [`victims`] weighs it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct View {
    /// How many connections its client holds open.
    pub held_by_client: usize,
    /// Whether a request is in flight or an answer is still being sent.
    pub busy: bool,
    /// Whether it was asked to close already.
    pub asked: bool,
    /// When it last had nothing in flight (any clock: only the order counts).
    pub since: u64,
}

/// Which of `open` to close so that `batch` places come free: only connections with nothing in
/// flight, those of the client holding the most connections first, the oldest first among equals;
/// fewer as many as asked before are still on their way out (they free their places in a moment).
pub fn victims(open: &[View], batch: usize) -> Vec<usize> {
    let closing = open.iter().filter(|c| c.asked && !c.busy).count();
    let mut chosen: Vec<usize> = (0..open.len()).filter(|&i| !open[i].busy && !open[i].asked).collect();
    chosen.sort_unstable_by_key(|&i| (Reverse(open[i].held_by_client), open[i].since));
    chosen.truncate(batch.saturating_sub(closing));
    chosen
}

#[cfg(test)]
mod tests {
    use super::*;

    fn idle(held_by_client: usize, since: u64) -> View {
        View { held_by_client, busy: false, asked: false, since }
    }

    #[test]
    fn the_oldest_connections_of_the_client_holding_the_most_go_first() {
        let open = [idle(1, 0), idle(3, 5), idle(3, 2), idle(2, 1), idle(3, 9)];
        assert_eq!(victims(&open, 2), vec![2, 1]);
        assert_eq!(victims(&open, 4), vec![2, 1, 4, 3]);
        assert_eq!(victims(&open, 10), vec![2, 1, 4, 3, 0], "the lone visitor goes last");
    }

    #[test]
    fn a_connection_with_a_request_in_flight_is_never_chosen() {
        let busy = View { busy: true, ..idle(50, 0) };
        assert_eq!(victims(&[busy, busy], 2), Vec::<usize>::new());
        assert_eq!(victims(&[busy, idle(1, 7), busy], 2), vec![1]);
    }

    #[test]
    fn connections_already_asked_are_not_asked_again_and_count_against_the_batch() {
        let asked = View { asked: true, ..idle(9, 0) };
        assert_eq!(victims(&[asked, idle(1, 3), idle(1, 4)], 2), vec![1]);
        assert_eq!(victims(&[asked, asked, idle(1, 3)], 2), Vec::<usize>::new(), "two are on their way out");
        let finishing = View { busy: true, ..asked };
        assert_eq!(victims(&[finishing, idle(1, 3)], 1), vec![1], "one still answering frees nothing soon");
    }

    #[test]
    fn a_thirty_second_of_the_places_is_freed_at_once() {
        assert_eq!(batch(1024), 32);
        assert_eq!(batch(384), 32, "a server capped by its open files frees as many");
        assert_eq!(batch(16), 4);
        assert_eq!(batch(4), 1);
        assert_eq!(batch(1), 1);
    }

    #[test]
    fn a_client_holds_at_most_its_cap_and_a_closed_connection_frees_its_place() {
        let registry = Arc::new(Registry::default());
        let held: Vec<_> = (0..3).filter_map(|_| registry.admit("198.51.100.7".into(), Some(3))).collect();
        assert_eq!(held.len(), 3);
        assert!(registry.admit("198.51.100.7".into(), Some(3)).is_none(), "a fourth is refused");
        assert!(registry.admit("198.51.100.8".into(), Some(3)).is_some(), "another client is not");
        assert!(registry.admit("198.51.100.7".into(), None).is_some(), "nor a trusted proxy");
        drop(held);
        assert!(registry.admit("198.51.100.7".into(), Some(3)).is_some());
        assert!(registry.lock().per_client.is_empty(), "no count is left behind");
    }

    #[tokio::test]
    async fn a_full_server_asks_an_idle_connection_to_close_and_never_a_busy_one() {
        let registry = Arc::new(Registry::default());
        let permits = Arc::new(Semaphore::new(2));
        let place = |client: &str| {
            let held = registry.admit(client.into(), Some(64)).expect("under the cap");
            registry.register(held, Arc::clone(&permits).try_acquire_owned().expect("a free place"))
        };
        let (busy, idle) = (place("192.0.2.1"), place("192.0.2.2"));
        let _answering = busy.handle().request_started();
        registry.shed(2);
        assert!(idle.handle().tracked().asked.load(Ordering::Relaxed), "the idle one is asked");
        assert!(!busy.handle().tracked().asked.load(Ordering::Relaxed), "the busy one is not");
        let waiting = tokio::spawn({
            let (registry, permits) = (Arc::clone(&registry), Arc::clone(&permits));
            async move { registry.place(&permits, 2).await.is_ok() }
        });
        drop(idle);
        assert!(waiting.await.expect("no panic"), "the place it freed goes to the newcomer");
    }
}
