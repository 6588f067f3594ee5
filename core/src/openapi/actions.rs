//! The `actions` section: export, skills matching, community voices and bookings.

use serde_json::{json, Value};

use super::describe::{
    choice, content, envelope, json_content, nullable, object, text_field, Description, BODY_ERRORS,
};
use super::schemas::schema;
use super::Facts;
use crate::handlers::{bookings, match_category, voices};
use crate::validate::Use;

/// `GET /api/export`.
pub fn describe_export(_: &Facts) -> Description {
    Description::ok(object("Method, body schema, options and supported collections.", "application/json"))
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
    Description::ok(content("Whether published profiles exist in the category.", "application/json", answer))
        .body(
            json!({"type": "object", "required": ["category"], "properties": {
                "category": text_field(match_category::MAX_CATEGORY, Use::Body, "A skills category, e.g. `tailoring`.")}}),
            true,
        )
        .errors(&BODY_ERRORS)
}

/// `POST /api/submit-voice`.
pub fn submit_voice(_: &Facts) -> Description {
    let answer = envelope(
        &["id", "receivedAt", "message"],
        json!({"id": {"type": "string"}, "receivedAt": {"type": "string", "format": "date-time"}, "message": {"type": "string"}}),
    );
    Description::default()
        .respond("202", content("Stored for review; the editors are notified.", "application/json", answer))
        .body(
            json!({"type": "object", "required": ["title", "author", "content"], "properties": {
                "title": text_field(voices::MAX_TITLE, Use::Header, "No line breaks."),
                "author": text_field(voices::MAX_AUTHOR, Use::Header, "No line breaks."),
                "content": text_field(voices::MAX_CONTENT, Use::Body, "The story; line breaks allowed.")}}),
            true,
        )
        .errors(&BODY_ERRORS)
}

/// `POST /api/send-booking-confirmation`.
pub fn booking(facts: &Facts) -> Description {
    let b = &facts.booking;
    let answer = envelope(
        &["reference", "message", "booking"],
        json!({"reference": {"type": "string"}, "message": {"type": "string"}, "booking": {"type": "object"}}),
    );
    Description::default()
        .respond("202", content("Stored; the confirmation is sent to the visitor and the site.", "application/json", answer))
        .body(
            json!({"type": "object", "required": ["name", "email", "visitDate", "visitTime", "groupSize", "tourType"], "properties": {
                "name": text_field(bookings::MAX_NAME, Use::Header, "No line breaks."),
                "email": {"type": "string", "format": "email", "maxLength": crate::validate::MAX_EMAIL},
                "visitDate": {"type": "string", "format": "date", "description": "YYYY-MM-DD, today or later."},
                "visitTime": {"type": "string", "pattern": "^([01][0-9]|2[0-3]):[0-5][0-9]$"},
                "groupSize": choice(&b.group_size), "tourType": choice(&b.tour_type),
                "meetingPoint": nullable(choice(&b.meeting_point)), "paymentMethod": nullable(choice(&b.payment_method))}}),
            true,
        )
        .errors(&BODY_ERRORS)
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
