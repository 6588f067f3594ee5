//! `completion/complete`: collection names and slugs for the resource templates, so a client can
//! offer them as someone types. Prompts take no arguments, so they complete to nothing.

use serde_json::{json, Value};

use super::jsonrpc::{RpcError, INTERNAL_ERROR, INVALID_PARAMS};
use super::resources;
use crate::content::collections::{is_collection, COLLECTIONS};
use crate::handlers::files::read_json;
use crate::handlers::Ctx;
use crate::platform::Platform;

/// At most this many values in one answer (the protocol's limit).
const MAX_VALUES: usize = 100;

/// Answers `completion/complete` for `params` (`ref`, `argument`, `context`).
pub async fn complete<P: Platform>(ctx: &Ctx<'_, P>, params: &Value) -> Result<Value, RpcError> {
    let invalid = |what: &str| RpcError::new(INVALID_PARAMS, what.to_string());
    let reference = params.get("ref").ok_or_else(|| invalid("completion/complete needs `ref`."))?;
    let argument = params.get("argument").and_then(|a| a.get("name")).and_then(Value::as_str);
    let argument = argument.ok_or_else(|| invalid("completion/complete needs `argument.name`."))?;
    let prefix = params["argument"]["value"].as_str().unwrap_or("").to_lowercase();
    let candidates = match reference["type"].as_str() {
        Some("ref/prompt") => Vec::new(),
        Some("ref/resource") => {
            let uri = reference["uri"].as_str().unwrap_or("");
            let base = resources::base(ctx);
            let template = uri.strip_prefix(base.as_str()).unwrap_or(uri);
            let context = params.pointer("/context/arguments/collection").and_then(Value::as_str);
            match (template, argument) {
                ("/{collection}/{slug}", "collection") => COLLECTIONS.iter().map(|c| c.to_string()).collect(),
                ("/{collection}/{slug}", "slug") => match context.filter(|c| is_collection(c)) {
                    Some(collection) => slugs(ctx, collection).await?,
                    None => Vec::new(),
                },
                ("/encyclopedia/{slug}", "slug") => {
                    let catalog =
                        ctx.state.catalog(ctx.platform).await.map_err(|p| RpcError::new(INTERNAL_ERROR, p.detail))?;
                    catalog.entries.iter().map(|e| e.slug.clone()).collect()
                }
                _ => return Err(invalid(&format!("No resource template `{uri}` has an argument `{argument}`."))),
            }
        }
        _ => return Err(invalid("`ref.type` must be `ref/resource` or `ref/prompt`.")),
    };
    let matches: Vec<String> = candidates.into_iter().filter(|c| c.to_lowercase().starts_with(&prefix)).collect();
    let total = matches.len();
    let values: Vec<String> = matches.into_iter().take(MAX_VALUES).collect();
    Ok(json!({"completion": {"values": values, "total": total, "hasMore": total > MAX_VALUES}}))
}

/// The slugs of a collection's published records, in listing order.
async fn slugs<P: Platform>(ctx: &Ctx<'_, P>, collection: &str) -> Result<Vec<String>, RpcError> {
    let listing = read_json(ctx.state, ctx.platform, &format!("/api/{collection}"))
        .await
        .map_err(|p| RpcError::new(INTERNAL_ERROR, p.detail))?;
    let records = listing.as_ref().and_then(|l| l["data"][collection].as_array()).cloned().unwrap_or_default();
    Ok(records.iter().filter_map(|r| r["slug"].as_str().map(str::to_string)).collect())
}
