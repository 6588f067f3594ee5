//! Request bodies: the size limit, the JSON media type and the "must be an object" rule that every
//! POST endpoint shares (docs/spec/api-spec.md#actions, #limits).

use serde_json::{Map, Value};

use crate::http::problem::{ErrorCode, FieldError, Problem};
use crate::http::{Request, MAX_BODY_BYTES};

/// Whether a `Content-Type` value is JSON (`application/json`, parameters allowed).
pub fn is_json_media_type(value: &str) -> bool {
    value.split(';').next().map(str::trim).is_some_and(|t| t.eq_ignore_ascii_case("application/json"))
}

/// What stopped a request before or while an adapter handed it to [`crate::app::App::handle`]:
/// adapters report what happened, core decides the answer ([`Interrupted::problem`]), so
/// `portal serve` and the Worker answer the same.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Interrupted {
    /// The body is (or is declared) larger than [`MAX_BODY_BYTES`].
    BodyTooLarge,
    /// The client stopped sending the body before the body deadline.
    BodyTimedOut,
    /// The whole request took longer than the request deadline.
    RequestTimedOut,
    /// The body could not be read for another reason (the connection broke, a malformed chunk).
    BodyUnreadable,
    /// An HTTP/1.1 request without a `Host` header or with more than one ([`check_host`]).
    HostNotSingle,
}

impl Interrupted {
    /// The problem document that answers it.
    pub fn problem(self) -> Problem {
        match self {
            Interrupted::BodyTooLarge => Problem::new(
                ErrorCode::PayloadTooLarge,
                format!("The request body is larger than {MAX_BODY_BYTES} bytes."),
            ),
            Interrupted::BodyTimedOut => {
                Problem::new(ErrorCode::RequestTimeout, "The request body did not arrive in time.")
            }
            Interrupted::RequestTimedOut => {
                Problem::new(ErrorCode::RequestTimeout, "The request took too long to complete.")
            }
            Interrupted::BodyUnreadable => Problem::bad_request("The request body could not be read."),
            Interrupted::HostNotSingle => {
                Problem::bad_request("An HTTP/1.1 request must carry exactly one Host header (RFC 9112, section 3.2).")
            }
        }
    }
}

/// Checks a request's declared `Content-Length` before its body is read, so an oversized upload
/// is refused without reading it. An absent or unparsable value is left to the reader's limit.
pub fn check_declared_length(content_length: Option<&str>) -> Result<(), Interrupted> {
    match content_length.and_then(|value| value.trim().parse::<u64>().ok()) {
        Some(length) if length > MAX_BODY_BYTES as u64 => Err(Interrupted::BodyTooLarge),
        _ => Ok(()),
    }
}

/// Checks that an HTTP/1.1 request carries exactly one `Host` header (`hosts` is how many it
/// carries): RFC 9112 asks a server to refuse the others with 400, since two hops reading two
/// different hosts from one request can be played against each other. HTTP/2 names the host in
/// `:authority` instead, so adapters check only HTTP/1.1.
pub fn check_host(hosts: usize) -> Result<(), Interrupted> {
    if hosts == 1 {
        Ok(())
    } else {
        Err(Interrupted::HostNotSingle)
    }
}

/// The JSON object of a POST body. `Ok(None)` for an empty body (allowed where every field is optional).
///
/// Checks, in order: size (413), media type (415), JSON syntax and object shape (400 `invalid_body`
/// with `errors: [{field: "body", ...}]`).
pub fn json_object(request: &Request) -> Result<Option<Map<String, Value>>, Problem> {
    if request.body.len() > MAX_BODY_BYTES {
        return Err(Interrupted::BodyTooLarge.problem());
    }
    if request.body.iter().all(u8::is_ascii_whitespace) {
        return Ok(None);
    }
    match request.header("content-type") {
        Some(value) if is_json_media_type(value) => {}
        Some(value) => {
            return Err(Problem::new(
                ErrorCode::UnsupportedMediaType,
                format!("Content-Type `{value}` is not supported: send the body as application/json."),
            ))
        }
        None => {
            return Err(Problem::new(
                ErrorCode::UnsupportedMediaType,
                "The request has a body but no Content-Type: send it as application/json.",
            ))
        }
    }
    match serde_json::from_slice::<Value>(&request.body) {
        Ok(Value::Object(map)) => Ok(Some(map)),
        Ok(other) => Err(Problem::invalid_body(vec![FieldError::new(
            "body",
            format!("The body must be a JSON object, not {}.", json_kind(&other)),
        )])),
        Err(e) => {
            Err(Problem::invalid_body(vec![FieldError::new("body", format!("The body is not valid JSON: {e}."))]))
        }
    }
}

/// Why a JSON body could not be read: an HTTP-level problem (413, 415), or text that is not JSON.
#[derive(Debug, Clone, PartialEq)]
pub enum BodyError {
    /// Too large, or not sent as JSON.
    Problem(Problem),
    /// Not valid JSON (the parser's message).
    NotJson(String),
}

/// The JSON value of a body of any shape (for JSON-RPC, where the shape is checked later).
pub fn json_value(request: &Request) -> Result<Value, BodyError> {
    if request.body.len() > MAX_BODY_BYTES {
        return Err(BodyError::Problem(Interrupted::BodyTooLarge.problem()));
    }
    if let Some(value) = request.header("content-type").filter(|v| !is_json_media_type(v)) {
        return Err(BodyError::Problem(Problem::new(
            ErrorCode::UnsupportedMediaType,
            format!("Content-Type `{value}` is not supported: send the body as application/json."),
        )));
    }
    serde_json::from_slice(&request.body).map_err(|e| BodyError::NotJson(format!("The body is not valid JSON: {e}.")))
}

/// "a string", "an array"... for messages about JSON values.
pub fn json_kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::http::Method;

    #[test]
    fn declared_lengths_over_the_limit_are_refused_before_reading() {
        assert_eq!(check_declared_length(Some("65537")), Err(Interrupted::BodyTooLarge));
        assert_eq!(check_declared_length(Some(" 65536 ")), Ok(()));
        assert_eq!(check_declared_length(Some("99999999999999999999999")), Ok(()), "left to the reader's limit");
        assert_eq!(check_declared_length(None), Ok(()));
    }

    #[test]
    fn an_http_1_1_request_carries_exactly_one_host() {
        assert_eq!(check_host(1), Ok(()));
        assert_eq!(check_host(0), Err(Interrupted::HostNotSingle));
        assert_eq!(check_host(2), Err(Interrupted::HostNotSingle));
        assert_eq!(Interrupted::HostNotSingle.problem().code.status(), 400);
    }

    #[test]
    fn each_interruption_has_its_own_answer() {
        let codes: Vec<(u16, &str)> = [
            Interrupted::BodyTooLarge,
            Interrupted::BodyTimedOut,
            Interrupted::RequestTimedOut,
            Interrupted::BodyUnreadable,
        ]
        .into_iter()
        .map(|what| (what.problem().code.status(), what.problem().code.as_str()))
        .collect();
        assert_eq!(
            codes,
            [(413, "payload_too_large"), (408, "request_timeout"), (408, "request_timeout"), (400, "bad_request")]
        );
    }

    fn post(body: &str, content_type: Option<&str>) -> Request {
        let r = Request::new(Method::Post, "/api/news").with_body(body.to_string());
        match content_type {
            Some(ct) => r.with_header("content-type", ct),
            None => r,
        }
    }

    #[test]
    fn empty_bodies_are_allowed() {
        assert_eq!(json_object(&post("", None)), Ok(None));
        assert_eq!(json_object(&post("  \n", Some("text/plain"))), Ok(None));
    }

    #[test]
    fn each_rule_has_its_code() {
        let code = |r: Request| json_object(&r).err().map(|p| p.code);
        assert_eq!(code(post("{}", Some("text/plain"))), Some(ErrorCode::UnsupportedMediaType));
        assert_eq!(code(post("{", Some("application/json"))), Some(ErrorCode::InvalidBody));
        assert_eq!(code(post("[]", Some("application/json; charset=utf-8"))), Some(ErrorCode::InvalidBody));
        assert_eq!(
            code(post(&"x".repeat(MAX_BODY_BYTES + 1), Some("application/json"))),
            Some(ErrorCode::PayloadTooLarge)
        );
        assert!(json_object(&post("{\"a\":1}", Some("Application/JSON"))).is_ok());
    }
}
