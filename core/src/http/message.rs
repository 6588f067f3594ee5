//! Platform-neutral HTTP request and response types.
//!
//! Adapters (axum natively, `worker` on the edge) convert to and from these at the boundary, so
//! handlers never see a framework type.

use bytes::Bytes;
use serde::{Deserialize, Serialize};

/// The largest accepted request body: 64 KiB (docs/spec/api-spec.md#limits).
pub const MAX_BODY_BYTES: usize = 64 * 1024;

/// A client location as the edge platform knows it from the request (coarse only: docs/spec/api-spec.md#geolocation).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Location {
    /// Country name or code.
    pub country: Option<String>,
    /// Region.
    pub region: Option<String>,
    /// City.
    pub city: Option<String>,
    /// Latitude in degrees.
    pub latitude: Option<f64>,
    /// Longitude in degrees.
    pub longitude: Option<f64>,
}

/// An HTTP method. Methods the API never serves are kept as text so a 405 can still answer them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Method {
    /// GET
    Get,
    /// HEAD: answered like GET without a body.
    Head,
    /// POST
    Post,
    /// OPTIONS: CORS preflight.
    Options,
    /// Anything else (PUT, DELETE, PATCH...).
    Other(String),
}

impl Method {
    /// Parses a method name (case-sensitive, as HTTP methods are).
    pub fn parse(name: &str) -> Method {
        match name {
            "GET" => Method::Get,
            "HEAD" => Method::Head,
            "POST" => Method::Post,
            "OPTIONS" => Method::Options,
            other => Method::Other(other.to_string()),
        }
    }

    /// The method's name.
    pub fn as_str(&self) -> &str {
        match self {
            Method::Get => "GET",
            Method::Head => "HEAD",
            Method::Post => "POST",
            Method::Options => "OPTIONS",
            Method::Other(name) => name,
        }
    }
}

/// A request as core sees it.
#[derive(Debug, Clone)]
pub struct Request {
    /// The method.
    pub method: Method,
    /// The path as sent (still percent-encoded), always starting with `/`.
    pub path: String,
    /// The raw query string without `?`, if any.
    pub query: Option<String>,
    /// Header names lower-cased; values as sent.
    pub headers: Vec<(String, String)>,
    /// The body; adapters enforce the size limit while reading it.
    pub body: Bytes,
    /// The address of the connection's peer, when the platform knows it.
    pub peer: Option<String>,
    /// Whether the peer is a proxy whose forwarded headers are believed (see [`crate::http::client_identity`]).
    pub trusted_peer: bool,
    /// The client's coarse location, when the platform knows it from the request (the edge).
    pub location: Option<Location>,
}

impl Request {
    /// A request with no headers, body or peer; handy in tests and adapters.
    pub fn new(method: Method, target: &str) -> Self {
        let (path, query) = match target.split_once('?') {
            Some((path, query)) => (path.to_string(), Some(query.to_string())),
            None => (target.to_string(), None),
        };
        Request {
            method,
            path,
            query,
            headers: Vec::new(),
            body: Bytes::new(),
            peer: None,
            trusted_peer: false,
            location: None,
        }
    }

    /// Adds a header (name lower-cased).
    pub fn with_header(mut self, name: &str, value: &str) -> Self {
        self.headers.push((name.to_ascii_lowercase(), value.to_string()));
        self
    }

    /// Sets the body.
    pub fn with_body(mut self, body: impl Into<Bytes>) -> Self {
        self.body = body.into();
        self
    }

    /// The first value of a header, by case-insensitive name.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }
}

/// A response as core builds it.
#[derive(Debug, Clone, PartialEq)]
pub struct Response {
    /// The status code.
    pub status: u16,
    /// Headers in the order they are sent.
    pub headers: Vec<(String, String)>,
    /// The body (empty for 204, 304 and HEAD).
    pub body: Bytes,
    /// A built file's whole answer (`handlers::files::serve`), which depends on the request only
    /// through its path and the headers listed in `handlers::files::VARIES_ON`, so an adapter may
    /// keep it and give it again (`portal serve`'s ready answers).
    pub built_file: bool,
}

impl Response {
    /// An empty response with `status`.
    pub fn new(status: u16) -> Self {
        Response { status, headers: Vec::new(), body: Bytes::new(), built_file: false }
    }

    /// A redirect to `location`, a URL of this site. A backslash is percent-encoded: browsers read
    /// `/\\host` as `//host`, another site, so a path sent with a backslash must never lead there
    /// (SECURITY.md).
    pub fn redirect(status: u16, location: &str) -> Self {
        Response::new(status).with_header("location", location.replace('\\', "%5C"))
    }

    /// A 200 JSON response.
    pub fn json(value: &serde_json::Value) -> Self {
        Response::new(200).with_body(crate::http::media::JSON, value.to_string())
    }

    /// Sets the body and its `Content-Type`.
    pub fn with_body(mut self, content_type: &str, body: impl Into<Bytes>) -> Self {
        self.set_header("content-type", content_type);
        self.body = body.into();
        self
    }

    /// Sets the status.
    pub fn with_status(mut self, status: u16) -> Self {
        self.status = status;
        self
    }

    /// Adds a header, replacing one of the same name.
    pub fn with_header(mut self, name: &str, value: impl Into<String>) -> Self {
        self.set_header(name, value);
        self
    }

    /// Sets a header, replacing one of the same name.
    pub fn set_header(&mut self, name: &str, value: impl Into<String>) {
        let value = value.into();
        match self.headers.iter_mut().find(|(n, _)| n.eq_ignore_ascii_case(name)) {
            Some(slot) => slot.1 = value,
            None => self.headers.push((name.to_ascii_lowercase(), value)),
        }
    }

    /// The value of a header, by case-insensitive name.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_redirect_percent_encodes_every_backslash() {
        let response = Response::redirect(301, "/\\evil.example/a\\b?q=\\");
        assert_eq!(response.header("location"), Some("/%5Cevil.example/a%5Cb?q=%5C"));
        assert_eq!(Response::redirect(303, "/sent?id=1").header("location"), Some("/sent?id=1"));
    }
}
