//! Reading a big content folder whose files are not in the system's page cache (the first build
//! on a CI runner or after a reboot). Parsing runs on the build's worker threads, one file at a
//! time each: on a cold disk they spend most of their time waiting for it, two reads in flight
//! where the disk would serve dozens. So while the parse works through one chunk of files, a few
//! reader threads read the next chunks ahead of it, to warm the page cache; the parse then finds
//! its files there. Their bytes are dropped: the parse still reads each file itself, which on a
//! warm cache costs a copy. See docs/deploying.md#memory for what a million-record build needs.

use std::convert::Infallible;
use std::fs::File;
use std::io::{self, Read};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, PoisonError};

use rayon::prelude::*;

/// Files a chunk holds: a few seconds of parsing, tens of megabytes of corpus at most.
const CHUNK: usize = 2048;
/// Chunks the readers may run ahead of the one being parsed.
const AHEAD: usize = 2;
/// Reads in flight: the disk's queue, not the cores, sets this (the readers mostly wait).
const READERS: usize = 8;

/// `f` of every item, in parallel on the build's worker threads and in order, with the files
/// `path` names read ahead of it (see the module's comment).
pub fn par_map<T: Sync, R: Send>(items: &[T], path: impl Fn(&T) -> &Path + Sync, f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    match try_par_map(items, path, |item| Ok::<R, Infallible>(f(item))) {
        Ok(out) => out,
        Err(never) => match never {},
    }
}

/// [`par_map`] of a fallible `f`: the first error ends it, and the chunks after it are not read.
pub fn try_par_map<T: Sync, R: Send, E: Send>(
    items: &[T],
    path: impl Fn(&T) -> &Path + Sync,
    f: impl Fn(&T) -> Result<R, E> + Sync,
) -> Result<Vec<R>, E> {
    let mut out = Vec::with_capacity(items.len());
    in_chunks(items, path, |chunk| {
        out.extend(chunk.par_iter().map(&f).collect::<Result<Vec<R>, E>>()?);
        Ok(())
    })?;
    Ok(out)
}

/// Hands `items` to `each` a chunk at a time, in order, with the files `path` names read ahead of
/// it; stops at the first error `each` returns. A list of one chunk or less is handed over whole,
/// with no readers.
fn in_chunks<T: Sync, E>(
    items: &[T],
    path: impl Fn(&T) -> &Path + Sync,
    mut each: impl FnMut(&[T]) -> Result<(), E>,
) -> Result<(), E> {
    if items.len() <= CHUNK {
        return each(items);
    }
    let window = Window { limit: Mutex::new(Some(0)), moved: Condvar::new() };
    let next = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        // Closed however the parse ends (an error, a panic), so that no reader waits forever.
        let _closing = Closing(&window);
        for _ in 0..READERS {
            scope.spawn(|| read(items, &path, &next, &window));
        }
        items.chunks(CHUNK).enumerate().try_for_each(|(k, chunk)| {
            window.move_to((k + 1 + AHEAD) * CHUNK);
            each(chunk)
        })
    })
}

/// One reader: takes the next file, waits until it is within the window, reads it. A file that
/// cannot be read, or is bigger than a record may be, is left to the parse, which reports it.
fn read<T>(items: &[T], path: &impl Fn(&T) -> &Path, next: &AtomicUsize, window: &Window) {
    loop {
        let i = next.fetch_add(1, Ordering::Relaxed);
        if i >= items.len() || !window.wait_for(i) {
            return;
        }
        let limit = portal_core::content::limits::MAX_RECORD_BYTES;
        let _ = File::open(path(&items[i])).and_then(|file| io::copy(&mut file.take(limit), &mut io::sink()));
    }
}

/// How far the readers may go: files before `limit` (`None` once the parse is over).
struct Window {
    limit: Mutex<Option<usize>>,
    moved: Condvar,
}

impl Window {
    fn move_to(&self, limit: usize) {
        *self.limit.lock().unwrap_or_else(PoisonError::into_inner) = Some(limit);
        self.moved.notify_all();
    }

    fn close(&self) {
        *self.limit.lock().unwrap_or_else(PoisonError::into_inner) = None;
        self.moved.notify_all();
    }

    /// Whether file `i` may be read now, waiting until it may; false once the window is closed.
    fn wait_for(&self, i: usize) -> bool {
        let mut limit = self.limit.lock().unwrap_or_else(PoisonError::into_inner);
        loop {
            match *limit {
                None => return false,
                Some(end) if i < end => return true,
                Some(_) => limit = self.moved.wait(limit).unwrap_or_else(PoisonError::into_inner),
            }
        }
    }
}

struct Closing<'a>(&'a Window);

impl Drop for Closing<'_> {
    fn drop(&mut self) {
        self.0.close();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn files(dir: &Path, n: usize) -> Vec<PathBuf> {
        (0..n)
            .map(|i| {
                let path = dir.join(format!("{i}.md"));
                std::fs::write(&path, format!("file {i}\r\n")).expect("write");
                path
            })
            .collect()
    }

    #[test]
    fn every_item_is_handed_over_once_in_order() {
        let dir = tempfile::tempdir().expect("tempdir");
        let mut paths = files(dir.path(), CHUNK * 3 + 7);
        // A file that cannot be read is skipped by the readers and still handed over.
        paths.insert(5, dir.path().join("missing.md"));
        let mut seen = Vec::new();
        let mut chunks = 0;
        let done: Result<(), ()> = in_chunks(
            &paths,
            |p| p.as_path(),
            |chunk| {
                chunks += 1;
                assert!(chunk.len() <= CHUNK);
                seen.extend(chunk.iter().cloned());
                Ok(())
            },
        );
        assert_eq!(done, Ok(()));
        assert_eq!(seen, paths);
        assert_eq!(chunks, 4);
    }

    #[test]
    fn a_small_list_is_one_chunk_and_an_error_stops_the_rest() {
        let dir = tempfile::tempdir().expect("tempdir");
        let small = files(dir.path(), 3);
        let mut calls = 0;
        let _: Result<(), ()> = in_chunks(
            &small,
            |p| p.as_path(),
            |chunk| {
                calls += 1;
                assert_eq!(chunk.len(), 3);
                Ok(())
            },
        );
        assert_eq!(calls, 1);

        let big = files(dir.path(), CHUNK * 4);
        let mut calls = 0;
        let stopped = in_chunks(
            &big,
            |p| p.as_path(),
            |_| {
                calls += 1;
                if calls == 2 {
                    Err("bad file")
                } else {
                    Ok(())
                }
            },
        );
        assert_eq!(stopped, Err("bad file"));
        assert_eq!(calls, 2);
    }

    #[test]
    fn par_map_keeps_the_order() {
        let dir = tempfile::tempdir().expect("tempdir");
        let paths = files(dir.path(), CHUNK * 2 + 1);
        let read = par_map(&paths, |p| p.as_path(), |p| std::fs::read_to_string(p).expect("read"));
        let expected: Vec<String> = (0..paths.len()).map(|i| format!("file {i}\r\n")).collect();
        assert_eq!(read, expected);
    }

    #[test]
    fn try_par_map_ends_at_the_chunk_of_the_first_error() {
        let dir = tempfile::tempdir().expect("tempdir");
        let paths = files(dir.path(), CHUNK * 3);
        let calls = AtomicUsize::new(0);
        let mapped = try_par_map(
            &paths,
            |p| p.as_path(),
            |p| {
                calls.fetch_add(1, Ordering::Relaxed);
                if p.ends_with("7.md") {
                    Err(format!("bad {}", p.display()))
                } else {
                    Ok(())
                }
            },
        );
        assert!(mapped.is_err_and(|e| e.ends_with("7.md")));
        let calls = calls.load(Ordering::Relaxed);
        assert!((1..=CHUNK).contains(&calls), "{calls} calls: the chunks after the first are never mapped");
        let all = try_par_map(&paths, |p| p.as_path(), |_| Ok::<u8, ()>(1));
        assert_eq!(all.map(|v| v.len()), Ok(CHUNK * 3));
    }
}
