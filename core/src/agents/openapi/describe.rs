//! How an operation is described: its parameters, request body, success responses and the error
//! codes it may answer, with the builders every tag's module uses. Each operation of the route
//! table is described by the function its `operationId` names in the document's table of
//! describers ([`super::document`]).

use crate::http::media;
use serde_json::{json, Value};

use super::schemas::schema;
use super::Facts;
use crate::forms::validate::Use;
use crate::http::problem::ErrorCode;

/// A function describing one operation, given what the build knows.
pub type Describe = fn(&Facts) -> Description;

/// What one operation takes and answers (besides 400 for a bad `API-Version` and 500, which every
/// operation may answer).
#[derive(Debug, Clone, Default)]
pub struct Description {
    /// Query, path and header parameters.
    pub parameters: Vec<Value>,
    /// The request body, if the operation takes one.
    pub request_body: Option<Value>,
    /// Success responses by status.
    pub responses: Vec<(&'static str, Value)>,
    /// The error codes it may answer.
    pub errors: Vec<ErrorCode>,
}

impl Description {
    /// An operation answering `response` with 200.
    pub fn ok(response: Value) -> Self {
        Description::default().respond("200", response)
    }

    /// Adds a success (or special) response.
    pub fn respond(mut self, status: &'static str, response: Value) -> Self {
        self.responses.push((status, response));
        self
    }

    /// Adds parameters.
    pub fn params(mut self, parameters: impl IntoIterator<Item = Value>) -> Self {
        self.parameters.extend(parameters);
        self
    }

    /// Sets the request body.
    pub fn body(mut self, schema_value: Value, required: bool) -> Self {
        self.request_body = Some(json!({"required": required, "content": {media::JSON: {"schema": schema_value}}}));
        self
    }

    /// Adds error codes.
    pub fn errors(mut self, codes: &[ErrorCode]) -> Self {
        self.errors.extend_from_slice(codes);
        self
    }
}

/// The codes every action body may fail with (besides its own).
pub const BODY_ERRORS: [ErrorCode; 4] =
    [ErrorCode::InvalidBody, ErrorCode::PayloadTooLarge, ErrorCode::UnsupportedMediaType, ErrorCode::RateLimited];

/// A response with a body of `media` matching `body_schema`.
pub fn content(description: &str, media: &str, body_schema: Value) -> Value {
    json!({"description": description, "content": {media: {"schema": body_schema}}})
}

/// A JSON response whose schema is the component `name`.
pub fn json_content(description: &str, name: &str) -> Value {
    content(description, media::JSON, schema(name))
}

/// A text response of `media`.
pub fn text(description: &str, media: &str) -> Value {
    content(description, media, json!({"type": "string"}))
}

/// A JSON object response whose shape is documented elsewhere (a discovery document).
pub fn object(description: &str, media: &str) -> Value {
    content(description, media, json!({"type": "object"}))
}

/// A query parameter.
pub fn query(name: &str, description: &str, schema_value: Value, required: bool) -> Value {
    json!({"name": name, "in": "query", "required": required, "description": description, "schema": schema_value})
}

/// The `Idempotency-Key` header of the submission POSTs (docs/spec/api-spec.md#idempotency), and the
/// codes a key adds.
pub fn idempotency_key() -> Value {
    use crate::forms::idempotency::{MAX_KEY_CHARS, REMEMBER_MS};
    json!({"name": "Idempotency-Key", "in": "header", "required": false,
        "description": format!(
            "A key unique to this submission (a UUID), so that sending it again stores and mails it once: the same key \
             with the same body within {} hours answers the first answer again, with `Idempotent-Replayed: true`; with \
             another body, 422 idempotency_key_reused; while the first request is still being processed, 409 \
             idempotency_key_in_use. 1 to {MAX_KEY_CHARS} printable ASCII characters, bare or as a quoted string.",
            REMEMBER_MS / 3_600_000
        ),
        // No pattern: HTTP drops a header value's outer spaces, and a server never sees the bytes
        // of one it cannot read, so a pattern would promise a refusal no server can make.
        "schema": {"type": "string", "minLength": 1, "maxLength": MAX_KEY_CHARS}})
}

/// The codes a request with an [`idempotency_key`] may add.
pub const KEY_ERRORS: [ErrorCode; 2] = [ErrorCode::IdempotencyKeyInUse, ErrorCode::IdempotencyKeyReused];

/// A path parameter.
pub fn path(name: &str, description: &str, schema_value: Value) -> Value {
    json!({"name": name, "in": "path", "required": true, "description": description, "schema": schema_value})
}

/// The `{collection}` path parameter.
pub fn collection() -> Value {
    path("collection", "The collection.", schema("CollectionName"))
}

/// The `{slug}` path parameter of records (nested slugs contain `/`).
pub fn slug() -> Value {
    path(
        "slug",
        "The record's slug; nested slugs contain `/` (send it percent-encoded as %2F or as path segments).",
        json!({"type": "string", "pattern": "^[a-z0-9][a-z0-9-]*(/[a-z0-9][a-z0-9-]*)*$"}),
    )
}

/// The characters `validate::check_text` refuses in any text: control characters but tab and line
/// breaks (as regular-expression escapes).
const CONTROL: &str = "\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F";

/// A text field of an action body as `validate::Fields::text` accepts it: at most `max`
/// characters, at least one that is not white space, no control characters, and no line break
/// where the value ends up in a mail header.
pub fn text_field(max: usize, usage: Use, description: &str) -> Value {
    let refused = match usage {
        Use::Body => CONTROL.to_string(),
        Use::Header => format!("{CONTROL}\\u000A\\u000D"),
    };
    json!({"type": "string", "minLength": 1, "maxLength": max, "description": description,
           "pattern": format!("^[^{refused}]*[^\\s{refused}][^{refused}]*$")})
}

/// An optional body field: leaving it out and sending `null` mean the same.
pub fn nullable(schema_value: Value) -> Value {
    json!({"anyOf": [schema_value, {"type": "null"}]})
}

/// A string schema limited to the values the build found, or any string when it found none.
pub fn one_of(values: &[String]) -> Value {
    if values.is_empty() {
        json!({"type": "string"})
    } else {
        json!({"type": "string", "enum": values})
    }
}

/// A body's choice field: one of the values `site.yaml` lists, or, when it lists none, the short
/// text `validate::Fields::choice` then accepts.
pub fn choice(values: &[String]) -> Value {
    if values.is_empty() {
        text_field(crate::forms::validate::MAX_CHOICE, Use::Body, "Any short text: the site lists no choices.")
    } else {
        one_of(values)
    }
}

/// A success envelope object with `required` members and `properties` besides `status`.
pub fn envelope(required: &[&str], mut properties: Value) -> Value {
    properties["status"] = json!({"type": "string", "enum": [crate::http::envelope::SUCCESS]});
    let required: Vec<&str> = std::iter::once("status").chain(required.iter().copied()).collect();
    json!({"type": "object", "required": required, "properties": properties})
}
