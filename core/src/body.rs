//! Request bodies: the size limit, the JSON media type and the "must be an object" rule that every
//! POST endpoint shares (spec 4.4, decisions D2, D3, D6).

use serde_json::{Map, Value};

use crate::http::Request;
use crate::problem::{ErrorCode, FieldError, Problem};

/// The largest accepted request body: 64 KiB (decision D3).
pub const MAX_BODY_BYTES: usize = 64 * 1024;

/// Whether a `Content-Type` value is JSON (`application/json`, parameters allowed).
pub fn is_json_media_type(value: &str) -> bool {
    value.split(';').next().map(str::trim).is_some_and(|t| t.eq_ignore_ascii_case("application/json"))
}

/// The 413 for a body over [`MAX_BODY_BYTES`]; adapters use it when they stop reading early.
pub fn too_large() -> Problem {
    Problem::new(ErrorCode::PayloadTooLarge, format!("The request body is larger than {MAX_BODY_BYTES} bytes."))
}

/// The JSON object of a POST body. `Ok(None)` for an empty body (allowed where every field is optional).
///
/// Checks, in order: size (413), media type (415), JSON syntax and object shape (400 `invalid_body`
/// with `errors: [{field: "body", ...}]`).
pub fn json_object(request: &Request) -> Result<Option<Map<String, Value>>, Problem> {
    if request.body.len() > MAX_BODY_BYTES {
        return Err(too_large());
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
        return Err(BodyError::Problem(too_large()));
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
