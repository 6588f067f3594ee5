//! Sources read from a URL (docs/content.md#remote-sources): fetched at every build with a timeout
//! and kept in the build cache with the validators the server gave (`ETag`, `Last-Modified`), so
//! the next build asks only whether it changed. When the URL cannot be reached, the cached copy is
//! used with a warning naming the source; with no copy the build fails naming it, so a collection
//! is never published empty because a server was down. `--offline` builds from the cache alone.

use std::path::{Path, PathBuf};

use portal_core::content::limits::{MAX_REMOTE_SOURCE_BYTES, REMOTE_SOURCE_TIMEOUT_S};
use serde::{Deserialize, Serialize};

/// How a build reads sources at URLs.
#[derive(Debug, Clone, Default)]
pub struct Remote {
    /// The folder keeping fetched copies (`sources/` in the build cache); `None`: beside the
    /// content folder, where the build cache is by default.
    pub cache: Option<PathBuf>,
    /// Whether to use the cached copies only, fetching nothing.
    pub offline: bool,
}

/// A copy of a source ready to read: its file, and a warning when it is not fresh from the URL.
#[derive(Debug)]
pub struct Copy {
    /// The cached file.
    pub path: PathBuf,
    /// Why the copy may be old, naming the source.
    pub warning: Option<String>,
}

/// What the cache keeps beside a copy.
#[derive(Debug, Default, Serialize, Deserialize)]
struct Meta {
    url: String,
    etag: Option<String>,
    last_modified: Option<String>,
    /// When the copy was fetched (RFC 3339), for the warning that uses it.
    fetched: String,
}

/// Whether `from` names a URL rather than a file.
pub fn is_url(from: &str) -> bool {
    from.starts_with("http://") || from.starts_with("https://")
}

/// The part of a URL that names its file (for the format): the path, without query or fragment.
pub fn file_part(url: &str) -> &str {
    let end = url.find(['?', '#']).unwrap_or(url.len());
    &url[..end]
}

/// The build cache of the content folder `content` when no other is named: `.portal/cache/`
/// beside it, like the state folder of `portal serve` (docs/deploying.md#rebuilds-and-the-build-cache).
pub fn cache_beside(content: &Path) -> PathBuf {
    let content = std::fs::canonicalize(content)
        .or_else(|_| std::path::absolute(content))
        .unwrap_or_else(|_| content.to_path_buf());
    content.parent().unwrap_or(Path::new(".")).join(".portal").join("cache")
}

/// The folder of the build cache keeping the copies of sources at URLs.
pub fn copies_in(cache: &Path) -> PathBuf {
    cache.join("sources")
}

impl Remote {
    /// The folder of cached copies for a content folder `root`.
    fn folder(&self, root: &Path) -> PathBuf {
        self.cache.clone().unwrap_or_else(|| copies_in(&cache_beside(root)))
    }

    /// A readable copy of the source at `url`, fetched now unless offline.
    pub fn copy(&self, root: &Path, url: &str) -> Result<Copy, String> {
        let folder = self.folder(root);
        let (data, meta_file) = names(&folder, url);
        let meta: Option<Meta> = std::fs::read(&meta_file).ok().and_then(|b| serde_json::from_slice(&b).ok());
        let cached = meta.filter(|_| data.is_file());
        if self.offline {
            return match cached {
                Some(_) => Ok(Copy { path: data, warning: None }),
                None => Err(format!(
                    "source `{url}`: --offline, and the build cache holds no copy of it (build once online first)"
                )),
            };
        }
        match fetch(url, cached.as_ref()) {
            Ok(Fetched::Unchanged) => Ok(Copy { path: data, warning: None }),
            Ok(Fetched::New { body, etag, last_modified }) => {
                let meta = Meta { url: url.to_string(), etag, last_modified, fetched: now() };
                store(&folder, &data, &meta_file, &body, &meta).map_err(|e| {
                    format!("source `{url}`: cannot keep it in the build cache {}: {e}", folder.display())
                })?;
                Ok(Copy { path: data, warning: None })
            }
            Err(problem) => match cached {
                Some(meta) => Ok(Copy {
                    path: data,
                    warning: Some(format!(
                        "source `{url}` could not be fetched ({problem}); using the copy fetched {}",
                        meta.fetched
                    )),
                }),
                None => Err(format!(
                    "source `{url}` could not be fetched ({problem}), and the build cache holds no copy of it"
                )),
            },
        }
    }
}

/// The cache's file names for `url`: its copy and its validators.
fn names(folder: &Path, url: &str) -> (PathBuf, PathBuf) {
    use sha2::{Digest, Sha256};
    let digest = Sha256::digest(url.as_bytes());
    let name: String = digest.iter().take(12).map(|b| format!("{b:02x}")).collect();
    (folder.join(format!("{name}.data")), folder.join(format!("{name}.json")))
}

/// Writes a copy and its validators, each replacing the old one whole (a build stopped halfway
/// never leaves half a file that the next build would trust).
fn store(folder: &Path, data: &Path, meta_file: &Path, body: &[u8], meta: &Meta) -> std::io::Result<()> {
    std::fs::create_dir_all(folder)?;
    let replace = |path: &Path, bytes: &[u8]| -> std::io::Result<()> {
        let mut file = tempfile::NamedTempFile::new_in(folder)?;
        std::io::Write::write_all(&mut file, bytes)?;
        file.persist(path).map(|_| ()).map_err(|e| e.error)
    };
    replace(data, body)?;
    replace(meta_file, &serde_json::to_vec_pretty(meta).unwrap_or_default())
}

fn now() -> String {
    let unix = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    portal_core::content::time::DateTime::from_unix(i64::try_from(unix).unwrap_or(i64::MAX)).rfc3339()
}

/// What asking the URL gave (never made without the `serve` feature, whose client asks).
#[cfg_attr(not(feature = "serve"), allow(dead_code))]
enum Fetched {
    /// The server says the cached copy is current (304).
    Unchanged,
    /// A new body, with the validators to ask with next time.
    New { body: Vec<u8>, etag: Option<String>, last_modified: Option<String> },
}

#[cfg(feature = "serve")]
fn fetch(url: &str, cached: Option<&Meta>) -> Result<Fetched, String> {
    use std::io::Read;
    use std::time::Duration;
    // No redirect is followed (SECURITY.md#sources-at-urls): what is published comes from the
    // address site.yaml names, and where a source moved is for `from:` to say.
    let client = reqwest::blocking::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .timeout(Duration::from_secs(REMOTE_SOURCE_TIMEOUT_S))
        .connect_timeout(Duration::from_secs(REMOTE_SOURCE_TIMEOUT_S.min(15)))
        .user_agent(concat!("portal/", env!("CARGO_PKG_VERSION"), " (sources)"))
        .build()
        .map_err(|e| e.to_string())?;
    let mut request = client.get(url);
    if let Some(meta) = cached {
        if let Some(etag) = &meta.etag {
            request = request.header(reqwest::header::IF_NONE_MATCH, etag);
        }
        if let Some(modified) = &meta.last_modified {
            request = request.header(reqwest::header::IF_MODIFIED_SINCE, modified);
        }
    }
    let response = request.header(reqwest::header::ACCEPT, "*/*").send().map_err(without_url)?;
    let status = response.status();
    if status == reqwest::StatusCode::NOT_MODIFIED && cached.is_some() {
        return Ok(Fetched::Unchanged);
    }
    if status.is_redirection() {
        let to = response.headers().get(reqwest::header::LOCATION).and_then(|l| l.to_str().ok());
        let to = to.map(|l| format!(" to {l}; set `from:` to where it moved")).unwrap_or_default();
        return Err(format!("answered {status}{to} (redirects are not followed)"));
    }
    if !status.is_success() {
        return Err(format!("answered {status}"));
    }
    let header = |name: reqwest::header::HeaderName| {
        response.headers().get(name).and_then(|v| v.to_str().ok()).map(str::to_string)
    };
    let (etag, last_modified) = (header(reqwest::header::ETAG), header(reqwest::header::LAST_MODIFIED));
    let mut body = Vec::new();
    response.take(MAX_REMOTE_SOURCE_BYTES + 1).read_to_end(&mut body).map_err(|e| e.to_string())?;
    if body.len() as u64 > MAX_REMOTE_SOURCE_BYTES {
        return Err(format!("it is larger than {} MiB", MAX_REMOTE_SOURCE_BYTES >> 20));
    }
    Ok(Fetched::New { body, etag, last_modified })
}

/// A fetch error without the URL, which the message around it already names.
#[cfg(feature = "serve")]
fn without_url(error: reqwest::Error) -> String {
    let error = error.without_url();
    let mut text = error.to_string();
    let mut source = std::error::Error::source(&error);
    while let Some(inner) = source {
        text = format!("{text}: {inner}");
        source = inner.source();
    }
    text
}

#[cfg(not(feature = "serve"))]
fn fetch(_url: &str, _cached: Option<&Meta>) -> Result<Fetched, String> {
    let _ = (MAX_REMOTE_SOURCE_BYTES, REMOTE_SOURCE_TIMEOUT_S);
    Err("this portal was built without the network (the `serve` feature)".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_url_names_its_file_without_query_or_fragment() {
        assert_eq!(file_part("https://example.org/data/dump.csv?token=1#x"), "https://example.org/data/dump.csv");
        assert!(is_url("https://a/b.csv") && is_url("http://a") && !is_url("sources/a.csv"));
    }

    #[test]
    fn offline_without_a_copy_names_the_source_and_with_one_uses_it() {
        let dir = tempfile::tempdir().expect("temp dir");
        let remote = Remote { cache: Some(dir.path().to_path_buf()), offline: true };
        let url = "https://example.org/services.csv";
        let error = remote.copy(dir.path(), url).expect_err("no copy yet");
        assert!(error.contains(url) && error.contains("--offline"), "{error}");
        let (data, meta) = names(dir.path(), url);
        let kept = Meta { url: url.into(), fetched: now(), ..Meta::default() };
        store(dir.path(), &data, &meta, b"title\nA\n", &kept).expect("store");
        let copy = remote.copy(dir.path(), url).expect("the cached copy");
        assert_eq!(std::fs::read(copy.path).expect("read"), b"title\nA\n");
    }
}
