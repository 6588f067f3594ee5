//! The `discovery` section: this document, the API catalog, status, policies, skills and llms.txt.

use crate::http::media;
use serde_json::json;

use super::describe::{object, path, text, Description};
use super::Facts;
use crate::http::problem::ErrorCode::*;

/// `GET /api/openapi.json`.
pub fn openapi(_: &Facts) -> Description {
    Description::ok(object("This document.", media::OPENAPI))
}

/// A JSON discovery document (status, deprecation policy, server card, skills index).
pub fn document(_: &Facts) -> Description {
    Description::ok(object("The document.", media::JSON)).errors(&[NotFound])
}

/// `GET /.well-known/api-catalog`.
pub fn api_catalog(_: &Facts) -> Description {
    Description::ok(object("RFC 9727 API catalog.", media::API_CATALOG)).errors(&[NotFound])
}

/// `GET /.well-known/agent-skills/{name}/SKILL.md`.
pub fn agent_skill(_: &Facts) -> Description {
    Description::ok(text("The skill (SKILL.md).", media::MARKDOWN))
        .params([path("name", "The skill's name.", json!({"type": "string"}))])
        .errors(&[NotFound])
}

/// `GET /llms.txt`.
pub fn llms_txt(_: &Facts) -> Description {
    Description::ok(text("Summary for language models.", media::TEXT)).errors(&[NotFound])
}
