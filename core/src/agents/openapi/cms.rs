//! The `cms` section: the editors' GitHub sign-in for a git-based CMS (docs/spec/api-spec.md#cms-sign-in).
//! Its answers are for a browser popup, not for programs: a redirect and small HTML pages.

use serde_json::{json, Value};

use super::describe::{query, text, Description};
use super::Facts;
use crate::http::media;
use crate::http::problem::ErrorCode::*;

/// What a page of the popup is, by status: HTML, or the problem document of a bad `API-Version`.
fn page_or_problem(description: &str) -> Value {
    json!({"description": description, "content": {
        media::HTML: {"schema": {"type": "string"}},
        media::PROBLEM_JSON: {"schema": {"$ref": "#/components/schemas/Problem"}},
    }})
}

/// `GET /api/cms/auth`.
pub fn auth(_: &Facts) -> Description {
    let redirect = json!({
        "description": "To the provider's authorize URL with `client_id`, `scope` and a random `state`, which \
            the `portal_cms_state` cookie (HttpOnly, SameSite=Lax, 10 minutes, path /api/cms) carries to the callback.",
        "headers": {
            "Location": {"description": "The provider's authorize URL.", "schema": {"type": "string"}},
            "Set-Cookie": {"description": "The state cookie.", "schema": {"type": "string"}},
        },
    });
    Description::default()
        .params([query(
            "provider",
            "The CMS backend; only `github` (the default) is served.",
            json!({"type": "string", "enum": ["github"]}),
            false,
        )])
        .respond("302", redirect)
        .respond("400", page_or_problem("A page saying the provider is not supported (or a bad API-Version)."))
        .errors(&[NotFound, RateLimited])
}

/// `GET /api/cms/callback`.
pub fn callback(_: &Facts) -> Description {
    let params = [
        query("code", "The provider's one-time code.", json!({"type": "string"}), false),
        query(
            "state",
            "The state the sign-in started with (checked against its cookie).",
            json!({"type": "string"}),
            false,
        ),
        query("error", "The provider's reason when the editor was not signed in.", json!({"type": "string"}), false),
    ];
    Description::default()
        .params(params)
        .respond(
            "200",
            text(
                "The page that posts `authorization:github:success:{\"token\":…,\"provider\":\"github\"}` to the \
                 CMS window of the site's origin that opened it; `Cache-Control: no-store`.",
                media::HTML,
            ),
        )
        .respond("400", page_or_problem("A page: the state does not match its cookie, or no code came back."))
        .respond("403", text("A page: the provider did not sign the editor in (`error=access_denied`).", media::HTML))
        .respond(
            "502",
            text("A page: the token endpoint failed, refused the code or answered unreadably.", media::HTML),
        )
        .errors(&[NotFound, RateLimited])
}
