//! A value loaded once by asynchronous work and then kept, where every caller that asks while the
//! work is under way waits for it instead of starting it again.
//!
//! The search index is such a value: in the Worker, loading it is a fetch of every segment file, and
//! an isolate starts loading it in the background after its first request (see `edge/`), so a
//! search that arrives meanwhile must join that load rather than fetch the same bytes a second
//! time. Runtime-agnostic (a mutex and wakers), so the same code runs under tokio and in wasm.

use std::collections::HashMap;
use std::convert::Infallible;
use std::future::Future;
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError};
use std::task::{Poll, Waker};

/// A value of type `T`, loaded by the first caller of [`SingleFlight::get_or_try_load`].
#[derive(Debug)]
pub struct SingleFlight<T> {
    value: OnceLock<T>,
    /// `Some` while a caller is loading the value: the wakers of the callers waiting for it.
    loading: Mutex<Option<Vec<Waker>>>,
}

impl<T> Default for SingleFlight<T> {
    fn default() -> Self {
        SingleFlight { value: OnceLock::new(), loading: Mutex::new(None) }
    }
}

impl<T> SingleFlight<T> {
    /// The value: loaded already, or by the load under way (waiting for it), or else by `load`,
    /// now. A load that fails is not kept: the callers that waited for it try again, one loading
    /// and the others waiting. A caller dropped in the middle of its load lets the next one load.
    pub async fn get_or_try_load<E, F, Fut>(&self, load: F) -> Result<&T, E>
    where
        F: FnOnce() -> Fut,
        Fut: Future<Output = Result<T, E>>,
    {
        loop {
            if let Some(value) = self.value.get() {
                return Ok(value);
            }
            if self.claim() {
                break;
            }
            self.wait().await;
        }
        let done = Release(self);
        // A load that ended between the first look and the claim has set the value already.
        if let Some(value) = self.value.get() {
            return Ok(value);
        }
        let loaded = load().await;
        let value = loaded.map(|value| self.value.get_or_init(|| value));
        drop(done);
        value
    }

    fn lock(&self) -> MutexGuard<'_, Option<Vec<Waker>>> {
        self.loading.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Becomes the loader when nobody is loading.
    fn claim(&self) -> bool {
        let mut loading = self.lock();
        if loading.is_some() {
            return false;
        }
        *loading = Some(Vec::new());
        true
    }

    /// Waits until nobody is loading (the load under way ended, either way).
    fn wait(&self) -> impl Future<Output = ()> + '_ {
        std::future::poll_fn(move |cx| match self.lock().as_mut() {
            None => Poll::Ready(()),
            Some(wakers) => {
                if !wakers.iter().any(|waker| waker.will_wake(cx.waker())) {
                    wakers.push(cx.waker().clone());
                }
                Poll::Pending
            }
        })
    }
}

/// Work named by a key that callers asking at the same time share: the first caller with a key
/// does it, those that ask while it is under way wait for its outcome (success or failure), and
/// once it has ended the key is free again. Nothing is kept: remembering outcomes is a cache's job.
/// Upstream fetches are such work: requests for one URL at the same time make one fetch.
#[derive(Debug)]
pub struct Shared<T> {
    flights: Mutex<HashMap<String, Arc<SingleFlight<T>>>>,
}

impl<T> Default for Shared<T> {
    fn default() -> Self {
        Shared { flights: Mutex::new(HashMap::new()) }
    }
}

impl<T: Clone> Shared<T> {
    /// The outcome of the work under way for `key`, or else of `work`, done now.
    pub async fn run<F, Fut>(&self, key: &str, work: F) -> T
    where
        F: FnOnce() -> Fut,
        Fut: Future<Output = T>,
    {
        let flight = Arc::clone(self.lock().entry(key.to_string()).or_default());
        let done = flight.get_or_try_load(|| async { Ok::<T, Infallible>(work().await) }).await;
        let outcome = match done {
            Ok(outcome) => outcome.clone(),
            Err(never) => match never {},
        };
        let mut flights = self.lock();
        if flights.get(key).is_some_and(|current| Arc::ptr_eq(current, &flight)) {
            flights.remove(key);
        }
        outcome
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<String, Arc<SingleFlight<T>>>> {
        self.flights.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Ends a load (finished, failed or dropped): nobody is loading any more, and whoever waited is woken.
struct Release<'a, T>(&'a SingleFlight<T>);

impl<T> Drop for Release<'_, T> {
    fn drop(&mut self) {
        let waiting = self.0.lock().take();
        waiting.into_iter().flatten().for_each(Waker::wake);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::block_on;
    use std::cell::Cell;
    use std::pin::pin;

    /// Both futures' outputs, polling them in turn until both are ready.
    async fn join<A: Future, B: Future>(a: A, b: B) -> (A::Output, B::Output) {
        let (mut a, mut b) = (pin!(a), pin!(b));
        let (mut first, mut second) = (None, None);
        std::future::poll_fn(|cx| {
            if first.is_none() {
                first = ready(a.as_mut().poll(cx));
            }
            if second.is_none() {
                second = ready(b.as_mut().poll(cx));
            }
            match (first.take(), second.take()) {
                (Some(a), Some(b)) => Poll::Ready((a, b)),
                (a, b) => {
                    (first, second) = (a, b);
                    Poll::Pending
                }
            }
        })
        .await
    }

    fn ready<T>(poll: Poll<T>) -> Option<T> {
        match poll {
            Poll::Ready(output) => Some(output),
            Poll::Pending => None,
        }
    }

    /// A future that is pending once before it is ready, so that others run meanwhile.
    async fn yield_once() {
        let mut yielded = false;
        std::future::poll_fn(|cx| {
            if yielded {
                Poll::Ready(())
            } else {
                yielded = true;
                cx.waker().wake_by_ref();
                Poll::Pending
            }
        })
        .await
    }

    #[test]
    fn callers_asking_during_a_load_wait_for_it_and_nothing_loads_twice() {
        let flight = SingleFlight::default();
        let loads = Cell::new(0);
        let load = || async {
            loads.set(loads.get() + 1);
            yield_once().await;
            yield_once().await;
            Ok::<_, ()>(42)
        };
        let (first, second) = block_on(join(flight.get_or_try_load(load), flight.get_or_try_load(load)));
        assert_eq!((first, second), (Ok(&42), Ok(&42)));
        assert_eq!(loads.get(), 1);
        assert_eq!(block_on(flight.get_or_try_load(load)), Ok(&42));
        assert_eq!(loads.get(), 1, "a loaded value is kept");
    }

    #[test]
    fn a_failed_load_is_not_kept_and_the_waiting_caller_loads_again() {
        let flight = SingleFlight::default();
        let loads = Cell::new(0);
        let load = || async {
            loads.set(loads.get() + 1);
            yield_once().await;
            if loads.get() == 1 {
                Err("the first load fails")
            } else {
                Ok(7)
            }
        };
        let (first, second) = block_on(join(flight.get_or_try_load(load), flight.get_or_try_load(load)));
        assert_eq!((first, second), (Err("the first load fails"), Ok(&7)));
        assert_eq!(loads.get(), 2);
    }

    #[test]
    fn shared_work_is_done_once_for_callers_at_the_same_time_and_again_afterwards() {
        let shared = Shared::default();
        let runs = Cell::new(0);
        let work = || async {
            runs.set(runs.get() + 1);
            yield_once().await;
            Err::<u8, _>("down")
        };
        let (first, second) = block_on(join(shared.run("a", work), shared.run("a", work)));
        assert_eq!((first, second, runs.get()), (Err("down"), Err("down"), 1), "a failure is shared too");
        assert_eq!(block_on(shared.run("a", work)), Err("down"));
        assert_eq!(runs.get(), 2, "an ended run is not kept");
        let (a, b) = block_on(join(shared.run("a", work), shared.run("b", work)));
        assert_eq!((a, b, runs.get()), (Err("down"), Err("down"), 4), "other keys run on their own");
    }

    #[test]
    fn a_load_dropped_half_way_lets_the_next_caller_load() {
        let flight = SingleFlight::default();
        let never = || std::future::pending::<Result<u8, ()>>();
        let mut abandoned = Box::pin(flight.get_or_try_load(never));
        assert!(abandoned.as_mut().poll(&mut std::task::Context::from_waker(Waker::noop())).is_pending());
        drop(abandoned);
        assert_eq!(block_on(flight.get_or_try_load(|| async { Ok::<_, ()>(1) })), Ok(&1));
    }
}
