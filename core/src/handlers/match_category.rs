//! `POST /api/match-category` (docs/spec/api-spec.md#match-category): how many published
//! skills-exchange profiles are in a category, compared case-insensitively, from the built
//! `/api/profiles` listing.

use serde_json::{json, Value};

use crate::forms::validate::{require_object, Fields, Use};
use crate::handlers::collections::records;
use crate::handlers::Ctx;
use crate::http::body::json_object;
use crate::http::envelope::success;
use crate::http::problem::Problem;
use crate::http::Response;
use crate::platform::Platform;

/// The longest accepted category name.
pub const MAX_CATEGORY: usize = 100;

/// How many of `profiles` have `category` (case-insensitive).
pub fn count_in_category(profiles: &[Value], category: &str) -> usize {
    let wanted = category.to_lowercase();
    profiles
        .iter()
        .filter_map(|p| p.get("category").and_then(Value::as_str))
        .filter(|c| c.trim().to_lowercase() == wanted)
        .count()
}

/// Answers the match.
pub async fn handle<P: Platform>(ctx: &Ctx<'_, P>) -> Result<Response, Problem> {
    let body = require_object(json_object(ctx.request)?)?;
    let mut fields = Fields::new(&body);
    let category = fields.text("category", true, MAX_CATEGORY, Use::Body);
    fields.finish()?;
    let category = category.unwrap_or_default();
    let profiles = records(ctx, "profiles").await?;
    let count = count_in_category(&profiles, &category);
    Ok(Response::json(&success(json!({
        "category": category,
        "matched": count > 0,
        "profiles": count,
    }))))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn categories_match_case_insensitively() {
        let profiles = vec![json!({"category": "Tailoring"}), json!({"category": "tailoring "}), json!({"title": "x"})];
        assert_eq!(count_in_category(&profiles, "TAILORING"), 2);
        assert_eq!(count_in_category(&profiles, "welding"), 0);
    }
}
