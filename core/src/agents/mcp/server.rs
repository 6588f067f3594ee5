//! Who the server is and what it offers: the identity, capabilities and instructions that
//! `initialize` (legacy), `server/discover` (modern), the discovery document and the server card
//! share, and the members every modern result carries.

use serde_json::{json, Map, Value};

use super::tools;
use super::version::{self, Revision};
use crate::content::SiteConfig;

/// The `_meta` key naming the server in modern results.
pub const META_SERVER_INFO: &str = "io.modelcontextprotocol/serverInfo";

/// The server's icon: a speech bubble, as an SVG `data:` URI so it needs no file of the site's.
pub const ICON: &str = "data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciIHZpZXdCb3g9IjAgMCA2NCA2NCI+PHJlY3Qgd2lkdGg9IjY0IiBoZWlnaHQ9IjY0IiByeD0iMTQiIGZpbGw9IiMxZDRlODkiLz48cGF0aCBkPSJNMTQgMThoMzZ2MjJIMzBsLTEwIDh2LThoLTZ6IiBmaWxsPSIjZmZmIi8+PC9zdmc+";

/// The site's name, or `portal`.
pub fn title(site: &SiteConfig) -> String {
    if site.title.is_empty() {
        "portal".to_string()
    } else {
        site.title.clone()
    }
}

/// The implementation description (`serverInfo`) as `revision` has it.
pub fn info(site: &SiteConfig, revision: Revision) -> Value {
    let mut info = json!({"name": "portal", "version": env!("CARGO_PKG_VERSION")});
    if revision.has_structured_output() {
        info["title"] = json!(title(site));
    }
    if revision.has_icons() {
        info["icons"] = json!([{"src": ICON, "mimeType": "image/svg+xml", "sizes": ["any"]}]);
        if !site.base().is_empty() {
            info["websiteUrl"] = json!(site.base());
        }
    }
    info
}

/// What the server offers: tools, resources (records and encyclopedia entries), prompts (the
/// site's agent skills) and completion of collection names and slugs. Nothing changes while a
/// build is served, so nothing is announced as changing.
pub fn capabilities() -> Value {
    json!({
        "tools": {"listChanged": false},
        "resources": {"listChanged": false},
        "prompts": {"listChanged": false},
        "completions": {},
    })
}

/// Guidance for the model.
pub fn instructions(site: &SiteConfig) -> String {
    format!(
        "Read-only access to {}: {} Use search_portal to find services, events, jobs, news and rights guidance; \
         list_portal_collection to page through one collection (with filter, sort and fields); \
         search_portal_encyclopedia and get_portal_encyclopedia_entry for sourced background articles. Every record \
         and encyclopedia entry is also a resource (its page URL; JSON with a markdown variant), and the site's agent \
         skills are prompts. Cite record URLs (relative to {}).",
        title(site),
        site.description,
        site.base()
    )
}

/// The `initialize` result: the revision the client asked for when it is a legacy one this server
/// speaks, else the newest legacy revision (the client decides whether it can use it).
pub fn initialize(site: &SiteConfig, params: &Value) -> (Revision, Value) {
    let requested = params.get("protocolVersion").and_then(Value::as_str).and_then(Revision::parse);
    let revision = requested.filter(|r| !r.is_stateless()).unwrap_or(version::LATEST_LEGACY);
    let result = json!({
        "protocolVersion": revision.as_str(),
        "capabilities": capabilities(),
        "serverInfo": info(site, revision),
        "instructions": instructions(site),
    });
    (revision, result)
}

/// The `server/discover` result.
pub fn discover(site: &SiteConfig) -> Value {
    json!({
        "supportedVersions": version::supported_names(),
        "capabilities": capabilities(),
        "instructions": instructions(site),
    })
}

/// The members a modern result carries: `resultType`, the server's identity in `_meta`, and for
/// results a client may keep (lists, reads, discovery) how long: the site's `cache.max_age`, the
/// freshness the HTTP answers of the same data have, shareable by any cache (`public`).
pub fn decorate(result: &mut Value, site: &SiteConfig, method: &str) {
    let Value::Object(members) = result else { return };
    members.insert("resultType".into(), json!("complete"));
    let meta = members.entry("_meta").or_insert_with(|| Value::Object(Map::new()));
    if let Value::Object(meta) = meta {
        meta.insert(META_SERVER_INFO.into(), info(site, version::LATEST));
    }
    let cacheable = matches!(
        method,
        "server/discover"
            | "tools/list"
            | "prompts/list"
            | "resources/list"
            | "resources/read"
            | "resources/templates/list"
    );
    if cacheable {
        members.insert("ttlMs".into(), json!(u64::from(site.cache.max_age) * 1000));
        members.insert("cacheScope".into(), json!("public"));
    }
}

/// The discovery document's and server card's description of the protocol: the newest revision
/// and every revision spoken.
pub fn protocol_fields() -> Value {
    json!({
        "protocolVersion": version::LATEST.as_str(),
        "protocolVersions": version::supported_names(),
        "capabilities": capabilities(),
        "toolCount": tools::definitions().len(),
    })
}
