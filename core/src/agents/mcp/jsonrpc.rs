//! JSON-RPC 2.0 framing for the MCP endpoint: what a message is, and the error codes.

use serde_json::{json, Value};

/// The body is not JSON.
pub const PARSE_ERROR: i64 = -32700;
/// The JSON is not a valid request object (or is a batch where the revision has none).
pub const INVALID_REQUEST: i64 = -32600;
/// No such method.
pub const METHOD_NOT_FOUND: i64 = -32601;
/// The params do not fit the method.
pub const INVALID_PARAMS: i64 = -32602;
/// The server failed.
pub const INTERNAL_ERROR: i64 = -32603;
/// A resource that does not exist (until 2025-11-25; see [`super::version::Revision::resource_not_found`]).
pub const RESOURCE_NOT_FOUND: i64 = -32002;
/// The `MCP-Protocol-Version`, `Mcp-Method` or `Mcp-Name` header is missing or differs from the body.
pub const HEADER_MISMATCH: i64 = -32020;
/// The request names a revision this server does not speak; `data` lists the ones it does.
pub const UNSUPPORTED_PROTOCOL_VERSION: i64 = -32022;

/// A JSON-RPC error, before it is given the request's id.
#[derive(Debug, Clone, PartialEq)]
pub struct RpcError {
    /// The error code.
    pub code: i64,
    /// One sentence for people.
    pub message: String,
    /// What a client can act on (e.g. the supported versions).
    pub data: Option<Value>,
}

impl RpcError {
    /// An error without data.
    pub fn new(code: i64, message: impl Into<String>) -> Self {
        RpcError { code, message: message.into(), data: None }
    }

    /// The same error with `data`.
    pub fn with_data(mut self, data: Value) -> Self {
        self.data = Some(data);
        self
    }

    /// The error response to the request `id`.
    pub fn response(&self, id: Value) -> Value {
        let mut response = error(id, self.code, &self.message);
        if let Some(data) = &self.data {
            response["error"]["data"] = data.clone();
        }
        response
    }
}

/// What a POSTed message is.
#[derive(Debug, Clone, PartialEq)]
pub enum Message {
    /// A request: it gets a response.
    Request {
        /// Its id (string or number).
        id: Value,
        /// The method.
        method: String,
        /// The params (an object, or null when absent).
        params: Value,
    },
    /// A notification: accepted with 202 and no body once its headers agree with it.
    Notification {
        /// The method.
        method: String,
    },
    /// A client's response to us: accepted with 202 and no body.
    Accepted,
}

/// Classifies a parsed JSON value; `Err` is the JSON-RPC error response to send (HTTP 400).
pub fn classify(value: Value) -> Result<Message, Value> {
    let Value::Object(map) = value else {
        return Err(error(
            Value::Null,
            INVALID_REQUEST,
            "A JSON-RPC message must be one object (batches are JSON-RPC arrays of such objects, for MCP 2025-03-26 and earlier).",
        ));
    };
    let id = map.get("id").cloned();
    // An error echoes the request's id only when it is a valid one; otherwise null (JSON-RPC 2.0).
    let echo = || id.clone().filter(is_valid_id).unwrap_or(Value::Null);
    if map.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return Err(error(echo(), INVALID_REQUEST, "`jsonrpc` must be \"2.0\"."));
    }
    // JSON-RPC 2.0: `params`, when present, is structured (an explicit null is not); this holds for
    // notifications too, which are otherwise accepted unread.
    let params = match map.get("params") {
        None => Value::Null,
        Some(params) if params.is_object() => params.clone(),
        Some(_) if map.contains_key("method") => {
            return Err(error(echo(), INVALID_REQUEST, "`params` must be an object when present."))
        }
        Some(_) => Value::Null,
    };
    match (map.get("method"), &id) {
        (Some(Value::String(method)), Some(request_id)) if is_valid_id(request_id) => {
            Ok(Message::Request { id: request_id.clone(), method: method.clone(), params })
        }
        (Some(Value::String(_)), Some(_)) => {
            Err(error(echo(), INVALID_REQUEST, "`id` must be a string or an integer."))
        }
        (Some(Value::String(method)), None) => Ok(Message::Notification { method: method.clone() }),
        (None, Some(_)) if map.contains_key("result") || map.contains_key("error") => Ok(Message::Accepted),
        _ => Err(error(echo(), INVALID_REQUEST, "A request needs a string `method`.")),
    }
}

/// A string or an integer; JSON has one number type, so `7.0` is the integer 7 too.
fn is_valid_id(id: &Value) -> bool {
    id.is_string() || id.is_i64() || id.is_u64() || id.as_f64().is_some_and(|n| n.is_finite() && n.fract() == 0.0)
}

/// A success response.
pub fn result(id: Value, result: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "result": result})
}

/// An error response.
pub fn error(id: Value, code: i64, message: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_are_classified() {
        let request = classify(json!({"jsonrpc": "2.0", "id": 1, "method": "ping"}));
        assert!(matches!(request, Ok(Message::Request { .. })));
        assert_eq!(
            classify(json!({"jsonrpc": "2.0", "method": "notifications/initialized"})),
            Ok(Message::Notification { method: "notifications/initialized".into() })
        );
        assert_eq!(classify(json!({"jsonrpc": "2.0", "id": 1, "result": {}})), Ok(Message::Accepted));
        for bad in [
            json!([]),
            json!({"id": 1, "method": "x"}),
            json!({"jsonrpc": "2.0", "id": 1}),
            json!({"jsonrpc": "2.0", "id": 1.5, "method": "x"}),
            json!({"jsonrpc": "2.0", "method": "notifications/x", "params": null}),
            json!({"jsonrpc": "2.0", "method": "notifications/x", "params": [1]}),
        ] {
            let err = classify(bad).expect_err("invalid");
            assert_eq!(err["error"]["code"], INVALID_REQUEST);
        }
    }

    // Found by Schemathesis: errors echoed ids that are not ids, and refused integral floats.
    #[test]
    fn only_valid_ids_are_echoed_and_null_params_are_refused() {
        for bad in [
            json!({"jsonrpc": "1.0", "id": {"a": 1}, "method": "x"}),
            json!({"jsonrpc": "2.0", "id": [1], "method": "x"}),
            json!({"jsonrpc": "2.0", "id": {}, "result": 1, "x": 2, "method": 3}),
        ] {
            assert_eq!(classify(bad).expect_err("invalid")["id"], Value::Null);
        }
        let null_params = classify(json!({"jsonrpc": "2.0", "id": 7, "method": "x", "params": null}));
        assert_eq!(null_params.expect_err("invalid")["id"], 7);
        let float_id = classify(json!({"jsonrpc": "2.0", "id": -8388608.0, "method": "ping"}));
        assert!(matches!(float_id, Ok(Message::Request { .. })));
    }
}
