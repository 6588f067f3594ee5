//! Problem documents (RFC 9457, docs/spec/api-spec.md#errors): every error code, defined once.
//!
//! Handlers return a [`Problem`]; [`Problem::into_response`] is the one place it becomes HTTP.
//! The OpenAPI document and the `/api-docs` anchors are derived from [`ErrorCode::ALL`].

use serde_json::{json, Map, Value};

use crate::http::Response;

/// The media type of every error response.
pub use crate::http::media::PROBLEM_JSON;

/// A stable error code; clients branch on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorCode {
    /// 400: a query parameter or header is invalid.
    BadRequest,
    /// 400: the request body is not the JSON object the endpoint expects.
    InvalidBody,
    /// 404: no record or resource at this path.
    NotFound,
    /// 404: `/api/<name>` where `<name>` is no collection.
    CollectionNotFound,
    /// 405: the route exists but not with this method.
    MethodNotAllowed,
    /// 408: the client took too long to send its request.
    RequestTimeout,
    /// 413: the request body is over the limit.
    PayloadTooLarge,
    /// 415: a body sent with a content type other than JSON.
    UnsupportedMediaType,
    /// 409: a request with this idempotency key is still being processed.
    IdempotencyKeyInUse,
    /// 422: this idempotency key was first sent with another request.
    IdempotencyKeyReused,
    /// 429: the client's budget for this window is spent.
    RateLimited,
    /// 500: something failed on our side.
    InternalError,
    /// 503: an upstream dependency failed.
    UpstreamUnavailable,
}

impl ErrorCode {
    /// Every code, in the order the docs list them.
    pub const ALL: [ErrorCode; 13] = [
        ErrorCode::BadRequest,
        ErrorCode::InvalidBody,
        ErrorCode::NotFound,
        ErrorCode::CollectionNotFound,
        ErrorCode::MethodNotAllowed,
        ErrorCode::RequestTimeout,
        ErrorCode::PayloadTooLarge,
        ErrorCode::UnsupportedMediaType,
        ErrorCode::IdempotencyKeyInUse,
        ErrorCode::IdempotencyKeyReused,
        ErrorCode::RateLimited,
        ErrorCode::InternalError,
        ErrorCode::UpstreamUnavailable,
    ];

    /// The code as clients see it in the `code` member.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::BadRequest => "bad_request",
            ErrorCode::InvalidBody => "invalid_body",
            ErrorCode::NotFound => "not_found",
            ErrorCode::CollectionNotFound => "collection_not_found",
            ErrorCode::MethodNotAllowed => "method_not_allowed",
            ErrorCode::RequestTimeout => "request_timeout",
            ErrorCode::PayloadTooLarge => "payload_too_large",
            ErrorCode::UnsupportedMediaType => "unsupported_media_type",
            ErrorCode::IdempotencyKeyInUse => "idempotency_key_in_use",
            ErrorCode::IdempotencyKeyReused => "idempotency_key_reused",
            ErrorCode::RateLimited => "rate_limited",
            ErrorCode::InternalError => "internal_error",
            ErrorCode::UpstreamUnavailable => "upstream_unavailable",
        }
    }

    /// The HTTP status that goes with the code.
    pub fn status(self) -> u16 {
        match self {
            ErrorCode::BadRequest | ErrorCode::InvalidBody => 400,
            ErrorCode::NotFound | ErrorCode::CollectionNotFound => 404,
            ErrorCode::MethodNotAllowed => 405,
            ErrorCode::RequestTimeout => 408,
            ErrorCode::PayloadTooLarge => 413,
            ErrorCode::UnsupportedMediaType => 415,
            ErrorCode::IdempotencyKeyInUse => 409,
            ErrorCode::IdempotencyKeyReused => 422,
            ErrorCode::RateLimited => 429,
            ErrorCode::InternalError => 500,
            ErrorCode::UpstreamUnavailable => 503,
        }
    }

    /// A short human-readable title.
    pub fn title(self) -> &'static str {
        match self {
            ErrorCode::BadRequest => "Bad request",
            ErrorCode::InvalidBody => "Invalid request body",
            ErrorCode::NotFound => "Not found",
            ErrorCode::CollectionNotFound => "Collection not found",
            ErrorCode::MethodNotAllowed => "Method not allowed",
            ErrorCode::RequestTimeout => "Request timeout",
            ErrorCode::PayloadTooLarge => "Payload too large",
            ErrorCode::UnsupportedMediaType => "Unsupported media type",
            ErrorCode::IdempotencyKeyInUse => "Request in progress",
            ErrorCode::IdempotencyKeyReused => "Idempotency key reused",
            ErrorCode::RateLimited => "Too many requests",
            ErrorCode::InternalError => "Internal error",
            ErrorCode::UpstreamUnavailable => "Upstream unavailable",
        }
    }

    /// What a client can do about it (the `resolution` member, docs/spec/api-spec.md#error-codes).
    pub fn resolution(self) -> std::borrow::Cow<'static, str> {
        let text = match self {
            ErrorCode::BadRequest => {
                "Check the query parameters and headers against the OpenAPI document at /api/openapi.json."
            }
            ErrorCode::InvalidBody => "Send a JSON object matching the request schema in the OpenAPI document.",
            ErrorCode::NotFound => "Verify the identifier, or list the records from the collection endpoint.",
            ErrorCode::CollectionNotFound => {
                "Use the API catalog at /.well-known/api-catalog to find valid collection endpoints."
            }
            ErrorCode::MethodNotAllowed => "Use one of the methods in the Allow header.",
            ErrorCode::RequestTimeout => "Send the whole request promptly, then retry.",
            ErrorCode::PayloadTooLarge => {
                return format!("Send a request body of at most {} KiB.", crate::http::MAX_BODY_BYTES / 1024).into()
            }
            ErrorCode::UnsupportedMediaType => "Send the body as JSON with Content-Type: application/json.",
            ErrorCode::IdempotencyKeyInUse => "Wait a moment, then send the same request with the same key again.",
            ErrorCode::IdempotencyKeyReused => "Send a new Idempotency-Key with each new request.",
            ErrorCode::RateLimited => "Wait the number of seconds in Retry-After, then retry.",
            ErrorCode::InternalError => "Retry once; if it persists, report it via the contact page.",
            ErrorCode::UpstreamUnavailable => "Transient: retry with exponential backoff.",
        };
        text.into()
    }
}

/// One failing field of a request body, for the `errors` extension of `invalid_body` (docs/spec/api-spec.md#actions).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldError {
    /// The field's name (`body` when the body as a whole is wrong).
    pub field: String,
    /// What is wrong with it (English; the JSON `message`).
    pub message: String,
    /// The kind of failure, as a key of the interface text (`forms.errors.<reason>`), so a page
    /// can say it in the site's language.
    pub reason: &'static str,
    /// Values the translated message names (`{max}`...).
    pub params: Vec<(&'static str, String)>,
}

impl FieldError {
    /// A failing field with its message (reason `invalid`).
    pub fn new(field: impl Into<String>, message: impl Into<String>) -> Self {
        FieldError { field: field.into(), message: message.into(), reason: "invalid", params: Vec::new() }
    }

    /// The same failure with its reason and the values its translation needs.
    pub fn because(mut self, reason: &'static str, params: Vec<(&'static str, String)>) -> Self {
        self.reason = reason;
        self.params = params;
        self
    }
}

/// An error on its way to becoming a problem document.
#[derive(Debug, Clone, PartialEq)]
pub struct Problem {
    /// The stable code, which fixes status, title and resolution.
    pub code: ErrorCode,
    /// What went wrong with this request.
    pub detail: String,
    /// Extension members (`errors`, `retryAfter`, ...), added after the standard ones, in order.
    pub extensions: Vec<(String, Value)>,
    /// Extra response headers (`Allow`, `Retry-After`, ...).
    pub headers: Vec<(String, String)>,
}

impl Problem {
    /// A problem with `code` and a request-specific `detail`.
    pub fn new(code: ErrorCode, detail: impl Into<String>) -> Self {
        Problem { code, detail: detail.into(), extensions: Vec::new(), headers: Vec::new() }
    }

    /// 400 `bad_request`.
    pub fn bad_request(detail: impl Into<String>) -> Self {
        Problem::new(ErrorCode::BadRequest, detail)
    }

    /// 404 `not_found`.
    pub fn not_found(detail: impl Into<String>) -> Self {
        Problem::new(ErrorCode::NotFound, detail)
    }

    /// 500 `internal_error`; the detail never carries internals.
    pub fn internal() -> Self {
        Problem::new(ErrorCode::InternalError, "The server could not complete the request.")
    }

    /// 400 `invalid_body` listing every failing field (docs/spec/api-spec.md#actions).
    pub fn invalid_body(errors: Vec<FieldError>) -> Self {
        let detail = match errors.as_slice() {
            [one] if one.field == "body" => one.message.clone(),
            [one] => format!("{}: {}", one.field, one.message),
            many => format!(
                "{} fields are invalid: {}",
                many.len(),
                many.iter().map(|e| e.field.as_str()).collect::<Vec<_>>().join(", ")
            ),
        };
        let list = errors.iter().map(|e| json!({"field": e.field, "message": e.message})).collect();
        Problem::new(ErrorCode::InvalidBody, detail).with_extension("errors", Value::Array(list))
    }

    /// Adds an extension member.
    pub fn with_extension(mut self, name: &str, value: Value) -> Self {
        self.extensions.retain(|(n, _)| n != name);
        self.extensions.push((name.to_string(), value));
        self
    }

    /// Adds a response header.
    pub fn with_header(mut self, name: &str, value: impl Into<String>) -> Self {
        self.headers.push((name.to_string(), value.into()));
        self
    }

    /// The problem document as JSON. `base_url` anchors the `type` URI at the docs page.
    pub fn document(&self, base_url: &str, instance: &str) -> Value {
        let mut doc = Map::new();
        let code = self.code.as_str();
        doc.insert("type".into(), json!(format!("{}/api-docs#error-{code}", base_url.trim_end_matches('/'))));
        doc.insert("title".into(), json!(self.code.title()));
        doc.insert("status".into(), json!(self.code.status()));
        doc.insert("code".into(), json!(code));
        doc.insert("detail".into(), json!(self.detail));
        doc.insert("resolution".into(), json!(self.code.resolution()));
        doc.insert("instance".into(), json!(instance));
        for (name, value) in &self.extensions {
            doc.insert(name.clone(), value.clone());
        }
        Value::Object(doc)
    }

    /// The problem as an HTTP response (status, media type, headers and document).
    pub fn into_response(self, base_url: &str, instance: &str) -> Response {
        let body = self.document(base_url, instance).to_string();
        let mut response = Response::new(self.code.status()).with_body(PROBLEM_JSON, body);
        response.headers.extend(self.headers);
        response
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_problem_document_has_every_member_of_section_7() {
        let doc = Problem::not_found("No record `x`.").document("https://example.org/", "/api/news/x");
        assert_eq!(doc["type"], "https://example.org/api-docs#error-not_found");
        assert_eq!(doc["status"], 404);
        assert_eq!(doc["code"], "not_found");
        assert_eq!(doc["title"], "Not found");
        assert_eq!(doc["detail"], "No record `x`.");
        assert_eq!(doc["instance"], "/api/news/x");
        assert!(doc["resolution"].is_string());
    }

    #[test]
    fn invalid_body_lists_each_field() {
        let p = Problem::invalid_body(vec![
            FieldError::new("title", "is required"),
            FieldError::new("author", "is required"),
        ]);
        let doc = p.document("", "/");
        assert_eq!(doc["errors"][1]["field"], "author");
        assert_eq!(p.code.status(), 400);
    }
}
