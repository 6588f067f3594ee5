//! Ready answers: a built file's whole answer (its headers and its body, compressed as asked),
//! kept after the first request for it, so that the same request again is answered before the
//! router, its layers and the core. A page asked for again and again is then mostly the kernel's
//! work (docs/cli.md, `portal serve`; SECURITY.md, *Bounded caches*).
//!
//! Only what the core marks a built file's answer is kept (`Response::built_file`: not a 304, not
//! one counted against a rate limit, not a handler's), keyed by everything it depends on: the
//! path, the headers the core reads for it (`portal_core::handlers::files::VARIES_ON`) and
//! `Accept-Encoding`, which the compression layer reads. A request with a query, a body, a
//! conditional header or `Range` (`ANSWERED_EACH_TIME`), another method than GET, or not one
//! `Host`, always goes the whole way. The table belongs to one build: a rebuild starts an empty one.

use std::collections::HashMap;
use std::sync::Mutex;

use axum::body::Body;
use axum::http::{HeaderMap, HeaderValue, Method, Request, StatusCode};
use bytes::Bytes;
use portal_core::handlers::files::{ANSWERED_EACH_TIME, VARIES_ON};

/// Answers kept at most; past it the table starts again empty.
const MAX_ANSWERS: usize = 4096;
/// Bytes of bodies kept at most; past it the table starts again empty.
const MAX_BYTES: usize = 64 * 1024 * 1024;
/// A file larger than this is read each time (its answer would crowd out many pages).
const MAX_KEPT_FILE_BYTES: usize = 1024 * 1024;

/// The mark `into_axum` puts on a built file's answer, with the file's length before compression.
#[derive(Debug, Clone, Copy)]
pub struct BuiltFile(pub usize);

/// What a kept answer is found by.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Key {
    path: String,
    /// The values of `VARIES_ON`, then `Accept-Encoding`, each as sent (or absent).
    headers: [Option<HeaderValue>; VARIES_ON.len() + 1],
}

/// A kept answer.
struct Answer {
    headers: HeaderMap,
    body: Bytes,
}

/// The ready answers of one build.
#[derive(Default)]
pub struct Ready {
    table: Mutex<Table>,
}

#[derive(Default)]
struct Table {
    answers: HashMap<Key, Answer>,
    bytes: usize,
}

impl Ready {
    /// The key of `request` if its answer may be a kept one.
    pub fn key<B>(request: &Request<B>) -> Option<Key> {
        let headers = request.headers();
        // The value of a header sent at most once (`None` when it is sent twice).
        let one = |name: &str| {
            let mut values = headers.get_all(name).iter();
            let first = values.next().cloned();
            values.next().is_none().then_some(first)
        };
        let eligible = request.method() == Method::GET
            && request.uri().query().is_none()
            && headers.get_all("host").iter().count() == 1
            && !ANSWERED_EACH_TIME.iter().any(|name| headers.contains_key(*name));
        if !eligible {
            return None;
        }
        let mut values: [Option<HeaderValue>; VARIES_ON.len() + 1] = Default::default();
        for (slot, name) in values.iter_mut().zip(VARIES_ON.iter().chain(["accept-encoding"].iter())) {
            *slot = one(name)?;
        }
        Some(Key { path: request.uri().path().to_string(), headers: values })
    }

    /// The kept answer of `key`, if there is one.
    pub fn answer(&self, key: &Key) -> Option<axum::response::Response> {
        let table = self.table.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let kept = table.answers.get(key)?;
        let mut response = axum::response::Response::new(Body::from(kept.body.clone()));
        *response.headers_mut() = kept.headers.clone();
        Some(response)
    }

    /// `response` (the whole way's answer to the request of `key`) as it is sent, kept when it is
    /// a built file's.
    pub async fn keep(&self, key: Key, response: axum::response::Response) -> axum::response::Response {
        let small = response.extensions().get::<BuiltFile>().is_some_and(|file| file.0 <= MAX_KEPT_FILE_BYTES);
        if response.status() != StatusCode::OK || !small {
            return response;
        }
        let (parts, body) = response.into_parts();
        // At most the file's length compressed, which is bounded above.
        let Ok(body) = axum::body::to_bytes(body, MAX_KEPT_FILE_BYTES * 2).await else {
            let mut failed = axum::response::Response::new(Body::empty());
            *failed.status_mut() = StatusCode::INTERNAL_SERVER_ERROR;
            return failed;
        };
        let mut table = self.table.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if table.answers.len() >= MAX_ANSWERS || table.bytes + body.len() > MAX_BYTES {
            *table = Table::default();
        }
        table.bytes += body.len();
        table.answers.insert(key, Answer { headers: parts.headers.clone(), body: body.clone() });
        drop(table);
        axum::response::Response::from_parts(parts, Body::from(body))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn get(path: &str, headers: &[(&str, &str)]) -> Request<()> {
        let mut request = Request::builder().uri(path).header("host", "example.org");
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        request.body(()).expect("a request")
    }

    fn answer(status: StatusCode, mark: Option<usize>) -> axum::response::Response {
        let mut response = axum::response::Response::new(Body::from("<p>page</p>"));
        *response.status_mut() = status;
        response.headers_mut().insert("etag", HeaderValue::from_static("\"a\""));
        if let Some(length) = mark {
            response.extensions_mut().insert(BuiltFile(length));
        }
        response
    }

    #[test]
    fn only_a_plain_get_has_a_key_and_its_varying_headers_are_part_of_it() {
        assert!(Ready::key(&get("/news", &[])).is_some());
        assert_ne!(Ready::key(&get("/news", &[])), Ready::key(&get("/news", &[("accept", "text/markdown")])));
        assert_ne!(Ready::key(&get("/news", &[])), Ready::key(&get("/news", &[("accept-encoding", "gzip")])));
        assert_ne!(Ready::key(&get("/news", &[])), Ready::key(&get("/jobs", &[])));
        for refused in [
            get("/news?page=2", &[]),
            get("/news", &[("if-none-match", "\"a\"")]),
            get("/news", &[("range", "bytes=0-9")]),
            get("/news", &[("api-version", "1")]),
            get("/news", &[("accept", "text/html"), ("accept", "text/markdown")]),
            get("/news", &[("host", "other.example.org")]),
        ] {
            assert!(Ready::key(&refused).is_none(), "{refused:?}");
        }
        let mut post = get("/news", &[]);
        *post.method_mut() = Method::POST;
        assert!(Ready::key(&post).is_none());
    }

    #[tokio::test]
    async fn a_built_files_answer_is_kept_and_given_again_and_nothing_else_is() {
        let ready = Ready::default();
        let key = |path: &str| Ready::key(&get(path, &[])).expect("a key");
        let first = ready.keep(key("/news"), answer(StatusCode::OK, Some(11))).await;
        let body = axum::body::to_bytes(first.into_body(), usize::MAX).await.expect("the body");
        let again = ready.answer(&key("/news")).expect("kept");
        assert_eq!(again.headers().get("etag").map(HeaderValue::as_bytes), Some(&b"\"a\""[..]));
        assert_eq!(axum::body::to_bytes(again.into_body(), usize::MAX).await.expect("the body"), body);
        ready.keep(key("/search"), answer(StatusCode::OK, None)).await;
        ready.keep(key("/gone"), answer(StatusCode::NOT_FOUND, Some(11))).await;
        ready.keep(key("/huge"), answer(StatusCode::OK, Some(MAX_KEPT_FILE_BYTES + 1))).await;
        for path in ["/search", "/gone", "/huge"] {
            assert!(ready.answer(&key(path)).is_none(), "{path} was kept");
        }
    }
}
