//! Prompts: the site's agent skills (`content/skills/<name>.md`, published under
//! `/.well-known/agent-skills/`), offered to a client as prompts without arguments whose one
//! message is the skill's text.

use serde_json::{json, Value};

use super::jsonrpc::{RpcError, INTERNAL_ERROR, INVALID_PARAMS};
use crate::handlers::files::read_json;
use crate::handlers::Ctx;
use crate::platform::Platform;

/// The skills index the build writes.
const INDEX: &str = "/.well-known/agent-skills/index.json";

/// The route of a skill's text.
fn skill_route(name: &str) -> String {
    format!("/.well-known/agent-skills/{name}/SKILL.md")
}

async fn skills<P: Platform>(ctx: &Ctx<'_, P>) -> Result<Vec<Value>, RpcError> {
    let index = read_json(ctx.state, ctx.platform, INDEX).await.map_err(|p| RpcError::new(INTERNAL_ERROR, p.detail))?;
    Ok(match index.map(|mut index| index["skills"].take()) {
        Some(Value::Array(skills)) => skills,
        _ => Vec::new(),
    })
}

/// `finding-help` -> `Finding help`.
fn title(name: &str) -> String {
    let spaced = name.replace(['-', '_'], " ");
    let mut chars = spaced.chars();
    chars.next().map(|c| c.to_uppercase().chain(chars).collect()).unwrap_or_default()
}

/// `prompts/list`.
pub async fn list<P: Platform>(ctx: &Ctx<'_, P>) -> Result<Value, RpcError> {
    let prompts: Vec<Value> = skills(ctx)
        .await?
        .iter()
        .filter_map(|skill| {
            let name = skill["name"].as_str()?;
            Some(json!({"name": name, "title": title(name), "description": skill["description"], "arguments": []}))
        })
        .collect();
    Ok(json!({"prompts": prompts}))
}

/// `prompts/get`: the skill's text as one user message. Unknown names are Invalid Params.
pub async fn get<P: Platform>(ctx: &Ctx<'_, P>, name: &str) -> Result<Value, RpcError> {
    let skills = skills(ctx).await?;
    let unknown = || {
        let names: Vec<&str> = skills.iter().filter_map(|s| s["name"].as_str()).collect();
        RpcError::new(
            INVALID_PARAMS,
            format!("Unknown prompt `{name}`; prompts/list names them: {}.", names.join(", ")),
        )
    };
    let skill = skills.iter().find(|s| s["name"] == name).ok_or_else(unknown)?;
    let asset = ctx
        .state
        .asset(ctx.platform, &skill_route(name))
        .await
        .map_err(|problem| RpcError::new(INTERNAL_ERROR, problem.detail))?
        .ok_or_else(unknown)?;
    let text = ctx
        .platform
        .read_file(&asset.file)
        .await
        .map_err(|e| RpcError::new(INTERNAL_ERROR, crate::platform::internal(ctx.platform, &asset.file)(e).detail))?
        .ok_or_else(unknown)?;
    Ok(json!({
        "description": skill["description"],
        "messages": [{"role": "user", "content": {"type": "text", "text": String::from_utf8_lossy(&text)}}],
    }))
}
