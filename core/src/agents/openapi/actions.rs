//! The `actions` section: export, skills matching, community voices and bookings.

use crate::http::media;
use serde_json::{json, Value};

use super::describe::{
    choice, content, envelope, idempotency_key, json_content, nullable, object, text_field, Description, BODY_ERRORS,
    KEY_ERRORS,
};
use super::schemas::schema;
use super::Facts;
use crate::forms::validate::{Use, MAX_EMAIL};
use crate::forms::{Form, Input, BOOKING, VOICE};
use crate::handlers::match_category;

/// `GET /api/export`.
pub fn describe_export(_: &Facts) -> Description {
    Description::ok(object("Method, body schema, options and supported collections.", media::JSON))
}

/// `POST /api/export`.
pub fn export(_: &Facts) -> Description {
    Description::ok(json_content("One array of records per collection.", "ExportResponse"))
        .body(
            json!({"type": "object", "required": ["collections"], "properties": {
                "collections": {"type": "array", "minItems": 1, "items": schema("CollectionName")},
                "options": nullable(schema("Options"))}}),
            true,
        )
        .errors(&BODY_ERRORS)
}

/// `POST /api/match-category`.
pub fn match_category(_: &Facts) -> Description {
    let answer = envelope(
        &["category", "matched", "profiles"],
        json!({"category": {"type": "string"}, "matched": {"type": "boolean"}, "profiles": {"type": "integer"}}),
    );
    Description::ok(content("Whether published profiles exist in the category.", media::JSON, answer))
        .body(
            json!({"type": "object", "required": ["category"], "properties": {
                "category": text_field(match_category::MAX_CATEGORY, Use::Body, "A skills category, e.g. `tailoring`.")}}),
            true,
        )
        .errors(&BODY_ERRORS)
}

/// The request schema of a form's JSON action, from the form's own field definitions.
fn form_schema(form: &Form, facts: &Facts) -> Value {
    let mut properties = serde_json::Map::new();
    for field in form.fields {
        let schema = match field.input {
            Input::Text { max, usage, .. } => text_field(max, usage, field.description),
            Input::Email => {
                json!({"type": "string", "format": "email", "maxLength": MAX_EMAIL, "description": field.description})
            }
            Input::FutureDate => json!({"type": "string", "format": "date", "description": field.description}),
            Input::Time => {
                json!({"type": "string", "pattern": "^([01][0-9]|2[0-3]):[0-5][0-9]$", "description": field.description})
            }
            Input::Choice(list) => choice(list.values(&facts.booking)),
        };
        properties.insert(field.name.to_string(), if field.required { schema } else { nullable(schema) });
    }
    let required: Vec<&str> = form.fields.iter().filter(|f| f.required).map(|f| f.name).collect();
    json!({"type": "object", "required": required, "properties": properties})
}

/// `POST /api/submit-voice`.
pub fn submit_voice(facts: &Facts) -> Description {
    let answer = envelope(
        &["id", "receivedAt", "message"],
        json!({"id": {"type": "string"}, "receivedAt": {"type": "string", "format": "date-time"}, "message": {"type": "string"}}),
    );
    Description::default()
        .respond("202", content("Stored for review; the editors are notified. The same answer again, with `Idempotent-Replayed: true`, for a request sent again with its `Idempotency-Key`.", media::JSON, answer))
        .body(form_schema(&VOICE, facts), true)
        .params([idempotency_key()])
        .errors(&BODY_ERRORS)
        .errors(&KEY_ERRORS)
}

/// `POST /api/send-booking-confirmation`.
pub fn booking(facts: &Facts) -> Description {
    let answer = envelope(
        &["reference", "message", "booking"],
        json!({"reference": {"type": "string"}, "message": {"type": "string"}, "booking": {"type": "object"}}),
    );
    Description::default()
        .respond(
            "202",
            content(
                "Stored; a confirmation to the visitor and a copy to the site are queued. One address (case, dots and a `+tag` ignored) is sent at most 3 confirmations per 24 hours: past that the booking is stored and answered the same, without a confirmation. Mails past the site's `mail.max_per_hour` wait in the outbox for the next hour; no quota refuses a booking.",
                media::JSON,
                answer,
            ),
        )
        .body(form_schema(&BOOKING, facts), true)
        .params([idempotency_key()])
        .errors(&BODY_ERRORS)
        .errors(&KEY_ERRORS)
}

/// The schema of the export answer.
pub fn schemas() -> Value {
    json!({
        "ExportResponse": envelope(&["data"], json!({
            "data": {"type": "object", "additionalProperties": {"type": "array", "items": schema("Record")}},
            "metadata": schema("ExportMetadata"), "stats": schema("ExportStats"),
        })),
    })
}
