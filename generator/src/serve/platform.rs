//! The native [`Platform`]: built files from the `dist/` folder (cached in memory, bounded),
//! rate-limit windows in a bounded in-memory store, the system clock, submissions in the SQLite
//! outbox.

use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, Mutex};

use bytes::Bytes;
use portal_core::forms::{idempotency, mail_quota};
use portal_core::http::ratelimit::{Decision, MemoryStore};
use portal_core::platform::{Platform, PlatformError, Submission, UpstreamRequest, UpstreamResponse};

use super::cache::TtlCache;
use super::outbox::Outbox;

/// Files larger than this are read from disk every time instead of being cached: a collection's
/// full listing at 100,000 records (7 MB) stays in memory, and is sent from there without a copy.
const CACHE_FILE_LIMIT: usize = 32 << 20;
/// The cache's total budget in bytes.
const CACHE_BUDGET: usize = 512 << 20;

/// The platform of `portal serve` over one build folder.
#[derive(Debug)]
pub struct NativePlatform {
    dist: PathBuf,
    /// The files of a snapshot archive, when serving one (`portal serve --dist FILE`).
    archive: Option<Arc<HashMap<String, Bytes>>>,
    limiter: Arc<Mutex<MemoryStore>>,
    outbox: Arc<Outbox>,
    cache: Mutex<FileCache>,
    answers: Arc<Mutex<TtlCache>>,
    http: Result<reqwest::Client, PlatformError>,
}

/// Cached answers (search, upstreams): at most this many...
const ANSWER_ENTRIES: usize = 10_000;
/// ...and this many bytes.
const ANSWER_BYTES: usize = 64 << 20;

/// The client of upstream fetches. It follows no redirect: a 3xx reaches core as it came, and core
/// counts it as a failed upstream (docs/spec/api-spec.md#upstreams). The URL a site configures is
/// the operator's choice; where an answer points is the upstream's, and following it could reach
/// a loopback or private address and hand what it says to a visitor. Without a client (its TLS
/// backend did not start) every fetch fails, rather than falling back to one that follows.
fn upstream_client() -> Result<reqwest::Client, PlatformError> {
    let client = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build();
    client.map_err(|e| PlatformError(format!("the upstream client: {e}")))
}

/// A fresh answer cache for [`NativePlatform::new`].
pub fn answer_cache() -> Arc<Mutex<TtlCache>> {
    Arc::new(Mutex::new(TtlCache::new(ANSWER_ENTRIES, ANSWER_BYTES)))
}

#[derive(Debug, Default)]
struct FileCache {
    files: HashMap<String, Bytes>,
    bytes: usize,
}

impl NativePlatform {
    /// A platform over `dist`, sharing `limiter` and `outbox` (which outlive rebuilds under
    /// `--watch`), with a fresh answer cache (answers of an older build must not outlive it).
    pub fn new(dist: impl Into<PathBuf>, limiter: Arc<Mutex<MemoryStore>>, outbox: Arc<Outbox>) -> Self {
        NativePlatform {
            dist: dist.into(),
            archive: None,
            limiter,
            outbox,
            cache: Mutex::new(FileCache::default()),
            answers: answer_cache(),
            http: upstream_client(),
        }
    }

    /// Serves the files of a verified snapshot archive instead of a folder.
    pub fn with_archive(mut self, files: Arc<HashMap<String, Bytes>>) -> Self {
        self.archive = Some(files);
        self
    }

    /// Reads `file` of the build folder from disk, in one blocking task: a read of a small file is
    /// mostly the hand-off to the blocking pool, and the search page reads one record per hit.
    async fn read_from_disk(&self, file: &str) -> Result<Option<Bytes>, PlatformError> {
        let (root, paths) = (self.dist.clone(), vec![self.dist.join(file)]);
        let read = tokio::task::spawn_blocking(move || read_all_inside(&root, &paths)).await;
        match read.map_err(|e| PlatformError(format!("reading {file}: {e}")))?.pop() {
            Some(Ok(data)) => Ok(data.map(Bytes::from)),
            Some(Err(e)) => Err(PlatformError(format!("reading {file}: {e}"))),
            None => Ok(None),
        }
    }

    /// The build folder.
    pub fn dist(&self) -> &Path {
        &self.dist
    }

    /// `file` when it needs no read from disk: nothing for a name outside the build folder, the
    /// archive's file when serving one, the cached bytes; `None` when it must be read.
    fn at_hand(&self, file: &str) -> Option<Option<Bytes>> {
        if !is_contained(file) {
            return Some(None);
        }
        if let Some(archive) = &self.archive {
            return Some(archive.get(file).cloned());
        }
        self.cached(file).map(Some)
    }

    fn cached(&self, file: &str) -> Option<Bytes> {
        self.cache.lock().ok()?.files.get(file).cloned()
    }

    fn remember(&self, file: &str, bytes: &Bytes) {
        if bytes.len() > CACHE_FILE_LIMIT {
            return;
        }
        if let Ok(mut cache) = self.cache.lock() {
            if cache.bytes + bytes.len() > CACHE_BUDGET {
                cache.files.clear();
                cache.bytes = 0;
            }
            cache.bytes += bytes.len();
            cache.files.insert(file.to_string(), bytes.clone());
        }
    }
}

/// How many files one blocking thread reads of a [`Platform::read_files`] call.
const FILES_PER_READER: usize = 8;

/// The bytes of each of `paths` when it is a file inside `root` with every symbolic link resolved
/// (a link in `dist/` pointing elsewhere must not expose the rest of the machine); `None` when
/// there is no such file. `root` is resolved once for all of them, and each folder once: the
/// files of a search page's hits share a few folders.
fn read_all_inside(root: &Path, paths: &[PathBuf]) -> Vec<std::io::Result<Option<Vec<u8>>>> {
    let root = std::fs::canonicalize(root).ok();
    let mut folders = HashMap::new();
    paths.iter().map(|path| read_inside(root.as_deref(), path, &mut folders)).collect()
}

fn read_inside(
    root: Option<&Path>,
    path: &Path,
    folders: &mut HashMap<PathBuf, bool>,
) -> std::io::Result<Option<Vec<u8>>> {
    if root.is_some_and(|root| !inside(root, path, folders)) {
        return Ok(None);
    }
    match std::fs::read(path) {
        Ok(data) => Ok(Some(data)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e),
    }
}

/// Whether `path`, every symbolic link resolved, is inside `root` (resolved): its folder resolved
/// once (remembered in `folders`), the file itself only when it is a link. A path that cannot be
/// resolved counts as inside: reading it fails the same way.
fn inside(root: &Path, path: &Path, folders: &mut HashMap<PathBuf, bool>) -> bool {
    let within = |resolved: std::io::Result<PathBuf>| resolved.map_or(true, |target| target.starts_with(root));
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => within(std::fs::canonicalize(path)),
        Ok(_) => match path.parent() {
            Some(folder) => {
                *folders.entry(folder.to_path_buf()).or_insert_with(|| within(std::fs::canonicalize(folder)))
            }
            None => false,
        },
        Err(_) => true,
    }
}

/// Whether a manifest file name stays inside the build folder (no `..`, no absolute path).
pub fn is_contained(file: &str) -> bool {
    !file.contains('\\') && Path::new(file).components().all(|c| matches!(c, Component::Normal(_)))
}

impl Platform for NativePlatform {
    async fn read_asset(&self, file: &str) -> Result<Option<Bytes>, PlatformError> {
        if let Some(at_hand) = self.at_hand(file) {
            return Ok(at_hand);
        }
        let bytes = self.read_from_disk(file).await?;
        if let Some(bytes) = &bytes {
            self.remember(file, bytes);
        }
        Ok(bytes)
    }

    async fn read_files(&self, files: &[String]) -> Vec<Result<Option<Bytes>, PlatformError>> {
        let mut read: Vec<_> = files.iter().map(|file| self.at_hand(file).map(Ok)).collect();
        let wanted: Vec<usize> = (0..files.len()).filter(|&i| read[i].is_none()).collect();
        let paths: Vec<PathBuf> = wanted.iter().map(|&i| self.dist.join(&files[i])).collect();
        // A few reads at a time on the blocking threads: the files of a search page's hits are
        // often not in the system's cache, and the disk answers reads in parallel faster than one
        // after another.
        let tasks: Vec<_> = paths
            .chunks(FILES_PER_READER)
            .map(|chunk| {
                let (root, chunk) = (self.dist.clone(), chunk.to_vec());
                tokio::task::spawn_blocking(move || read_all_inside(&root, &chunk))
            })
            .collect();
        let mut from_disk = Vec::with_capacity(paths.len());
        for (task, chunk) in tasks.into_iter().zip(paths.chunks(FILES_PER_READER)) {
            match task.await {
                Ok(read) => from_disk.extend(read),
                Err(_) => from_disk.extend(chunk.iter().map(|_| Err(std::io::Error::other("the reading task failed")))),
            }
        }
        for (i, data) in wanted.into_iter().zip(from_disk) {
            read[i] = Some(match data {
                Ok(Some(data)) => {
                    let bytes = Bytes::from(data);
                    self.remember(&files[i], &bytes);
                    Ok(Some(bytes))
                }
                // Perhaps a file kept as parts.
                Ok(None) => self.read_file(&files[i]).await,
                Err(e) => Err(PlatformError(format!("reading {}: {e}", files[i]))),
            });
        }
        read.into_iter()
            .map(|r| r.unwrap_or_else(|| Err(PlatformError("reading files: the task failed".into()))))
            .collect()
    }

    async fn rate_limit(&self, client: &str, now_ms: u64, cost: u32) -> Result<Decision, PlatformError> {
        let mut store = self.limiter.lock().map_err(|_| PlatformError("rate-limit store poisoned".into()))?;
        Ok(store.check(client, now_ms, cost))
    }

    fn now_ms(&self) -> u64 {
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64)
    }

    async fn fetch(&self, request: UpstreamRequest) -> Result<UpstreamResponse, PlatformError> {
        let failed = |e: reqwest::Error| PlatformError(format!("fetching {}: {e}", request.url));
        let http = self.http.as_ref().map_err(Clone::clone)?;
        let outgoing = match &request.body {
            Some(body) => http.post(&request.url).body(body.clone()),
            None => http.get(&request.url),
        };
        let mut outgoing = outgoing.timeout(std::time::Duration::from_millis(request.timeout_ms));
        for (name, value) in &request.headers {
            outgoing = outgoing.header(name, value);
        }
        let mut response = outgoing.send().await.map_err(failed)?;
        let status = response.status().as_u16();
        let headers = response
            .headers()
            .iter()
            .filter_map(|(n, v)| v.to_str().ok().map(|v| (n.as_str().to_string(), v.to_string())))
            .collect();
        let mut body = Vec::new();
        let declared_over = response.content_length().is_some_and(|length| length > request.max_bytes as u64);
        // Core refuses a body past the cap: read one byte past it at most, and none of one
        // declared longer.
        while !declared_over && body.len() <= request.max_bytes {
            match response.chunk().await.map_err(failed)? {
                Some(chunk) => body.extend_from_slice(&chunk),
                None => break,
            }
        }
        body.truncate(request.max_bytes + 1);
        Ok(UpstreamResponse { status, headers, body: Bytes::from(body) })
    }

    /// An environment variable of the process (`portal serve`'s environment).
    fn setting(&self, name: &str) -> Option<String> {
        std::env::var(name).ok().filter(|value| !value.trim().is_empty())
    }

    fn random(&self) -> Result<[u8; 16], PlatformError> {
        let mut bytes = [0u8; 16];
        getrandom::fill(&mut bytes).map_err(|e| PlatformError(format!("the random source: {e}")))?;
        Ok(bytes)
    }

    async fn cache_get(&self, key: &str) -> Option<Bytes> {
        let now = self.now_ms();
        self.answers.lock().ok()?.get(key, now)
    }

    async fn cache_put(&self, key: &str, value: Bytes, ttl_secs: u64) {
        let now = self.now_ms();
        if let Ok(mut answers) = self.answers.lock() {
            answers.put(key, value, now, ttl_secs.saturating_mul(1000));
        }
    }

    async fn count_mail(&self, ask: &mail_quota::Ask) -> Result<mail_quota::Verdict, PlatformError> {
        self.outbox.count_mail(ask).await.map_err(|e| PlatformError(format!("counting mail: {e:#}")))
    }

    async fn store_submission(&self, submission: &Submission) -> Result<(), PlatformError> {
        self.outbox.submit(submission).await.map_err(|e| PlatformError(format!("submission {}: {e:#}", submission.id)))
    }

    async fn idempotency(&self, step: &idempotency::Step) -> Result<Option<idempotency::Record>, PlatformError> {
        self.outbox.idempotency(step).await.map_err(|e| PlatformError(format!("idempotency key: {e:#}")))
    }

    fn report(&self, context: &str, cause: &dyn std::fmt::Display) {
        eprintln!("portal: error {context}: {cause}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_plain_relative_names_are_read() {
        assert!(is_contained("api/news.json"));
        assert!(!is_contained("../etc/passwd"));
        assert!(!is_contained("/etc/passwd"));
        assert!(!is_contained("api\\..\\x"));
    }

    /// A one-connection HTTP server on loopback answering `answer` to whatever it is asked; its
    /// URL and a flag set when anyone connects.
    fn one_answer(answer: String) -> (String, Arc<std::sync::atomic::AtomicBool>) {
        use std::io::{Read, Write};
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        let url = format!("http://{}", listener.local_addr().expect("address"));
        let asked = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let seen = Arc::clone(&asked);
        std::thread::spawn(move || {
            if let Ok((mut stream, _)) = listener.accept() {
                seen.store(true, std::sync::atomic::Ordering::SeqCst);
                let _ = stream.read(&mut [0u8; 4096]);
                let _ = stream.write_all(answer.as_bytes());
            }
        });
        (url, asked)
    }

    #[tokio::test]
    async fn an_upstream_redirect_is_handed_back_not_followed() {
        let (secret, secret_asked) = one_answer("HTTP/1.1 200 OK\r\ncontent-length: 6\r\n\r\nsecret".into());
        let (upstream, _) =
            one_answer(format!("HTTP/1.1 302 Found\r\nlocation: {secret}/internal\r\ncontent-length: 0\r\n\r\n"));
        let client = upstream_client().expect("a client");
        let response = client.get(format!("{upstream}/weather")).send().await.expect("an answer");
        assert_eq!(response.status().as_u16(), 302);
        assert!(!secret_asked.load(std::sync::atomic::Ordering::SeqCst), "the redirect's target was asked");
    }

    #[test]
    fn links_out_of_the_build_are_not_followed_whether_file_or_folder() {
        let dir = tempfile::tempdir().expect("temp dir");
        let (dist, outside) = (dir.path().join("dist"), dir.path().join("outside"));
        for folder in [dist.join("api/news"), outside.clone()] {
            std::fs::create_dir_all(folder).expect("folders");
        }
        std::fs::write(outside.join("secret.json"), "secret").expect("secret");
        std::fs::write(dist.join("api/news/a.json"), "a").expect("record");
        std::os::unix::fs::symlink(outside.join("secret.json"), dist.join("api/news/b.json")).expect("file link");
        std::os::unix::fs::symlink(&outside, dist.join("api/events")).expect("folder link");
        std::os::unix::fs::symlink(dist.join("api/news/a.json"), dist.join("api/news/c.json")).expect("inner link");
        let names =
            ["api/news/a.json", "api/news/b.json", "api/events/secret.json", "api/news/c.json", "api/news/z.json"];
        let paths: Vec<PathBuf> = names.iter().map(|name| dist.join(name)).collect();
        let read: Vec<Option<Vec<u8>>> = read_all_inside(&dist, &paths).into_iter().map(|r| r.expect("read")).collect();
        assert_eq!(read, [Some(b"a".to_vec()), None, None, Some(b"a".to_vec()), None]);
    }
}
