//! The `data` section: dashboard snapshots, weather, alerts, geolocation and the deprecated counter.

use crate::http::media;
use serde_json::{json, Value};

use super::describe::{content, envelope, json_content, path, Description};
use super::Facts;
use crate::http::problem::ErrorCode::*;

/// `GET /api/alerts`, `/api/population`, `/api/finance`, `/api/charts`.
pub fn dataset(_: &Facts) -> Description {
    Description::ok(json_content("The dataset.", "Snapshot")).errors(&[NotFound])
}

/// `GET /api/data/{name}`: a snapshot with no endpoint of its own (docs/spec/api-spec.md#snapshots).
pub fn site_dataset(_: &Facts) -> Description {
    Description::ok(json_content("The dataset.", "Snapshot"))
        .params([path(
            "name",
            "The snapshot's name: the stem of its file in content/data/.",
            json!({"type": "string"}),
        )])
        .errors(&[NotFound])
}

/// `GET /api/weather`.
pub fn weather(_: &Facts) -> Description {
    let answer = envelope(&["source"], json!({"source": {"type": "string", "enum": ["upstream", "fallback"]}}));
    Description::ok(content(
        "Current weather and forecast; `source` says upstream or seasonal fallback.",
        media::JSON,
        answer,
    ))
    .errors(&[NotFound, UpstreamUnavailable])
}

/// `GET /api/weather-alerts`.
pub fn weather_alerts(_: &Facts) -> Description {
    let answer = envelope(
        &["source", "data"],
        json!({"source": {"type": "string", "enum": ["upstream", "none"]}, "updatedAt": {"type": "string"}, "data": {"type": "object"}}),
    );
    Description::ok(content("Alerts from the upstream CAP feed (empty when none is configured).", media::JSON, answer))
        .errors(&[UpstreamUnavailable])
}

/// `GET /api/geolocation`.
pub fn geolocation(_: &Facts) -> Description {
    let answer = envelope(
        &["source", "data"],
        json!({"source": {"type": "string", "enum": ["edge", "upstream"]}, "data": {"type": "object"}}),
    );
    Description::ok(content(
        "Coarse location of the client; `Cache-Control: private, no-store`, so no shared cache keeps it.",
        media::JSON,
        answer,
    ))
    .errors(&[UpstreamUnavailable])
}

/// `GET /api/analytics/pageviews` (deprecated).
pub fn pageviews(_: &Facts) -> Description {
    let answer = envelope(
        &["data"],
        json!({"data": {"type": "object", "properties": {"pageviews": {"type": "integer", "enum": [0]}}}}),
    );
    Description::ok(content("Always zero.", media::JSON, answer))
}

/// The schema of the dashboard datasets (named `Snapshot`, as the spec calls these endpoints).
pub fn schemas() -> Value {
    json!({
        "Snapshot": envelope(&["updatedAt", "data"], json!({
            "updatedAt": {"type": "string"}, "data": {"description": "The authored content of the snapshot."},
        })),
    })
}
