//! Discovery documents (docs/spec/api-spec.md#discovery): the OpenAPI description, the API catalog,
//! the status and deprecation-policy documents, the MCP server card, the agent-skills index with its
//! skills, and `llms.txt`. Each is derived from the core's tables and the loaded content.

use std::collections::{BTreeMap, BTreeSet};

use anyhow::Result;

use portal_core::agents::mcp::{server, tools, version, SERVER_CARD};
use portal_core::agents::openapi::{self, Facts};
use portal_core::agents::webmcp;
use portal_core::content::collections::{description, COLLECTIONS};
use portal_core::content::time::DateTime;
use portal_core::content::SiteConfig;
use portal_core::http::deprecation::{DEPRECATIONS, MINIMUM_NOTICE};
use portal_core::http::envelope::success;
use portal_core::http::headers::{static_security, HTML_LINKS, STATIC_FILES, STATIC_SANDBOXED};
use portal_core::routing::pages;
use portal_core::{API_VERSION, SUPPORTED_API_VERSIONS};
use serde_json::{json, Value};
use sha2::{Digest, Sha256};

use crate::build::model::Model;
use crate::build::write::file::{Group, OutFile};
use crate::load::Content;

const JSON: &str = "application/json";

/// Named header sets the manifest refers to.
pub fn header_sets(site: &SiteConfig) -> BTreeMap<String, Vec<(String, String)>> {
    let mut sets = BTreeMap::new();
    let mut page = vec![("link".to_string(), HTML_LINKS.to_string())];
    page.extend(portal_core::http::headers::page_security(&site.markdown.iframe_hosts));
    sets.insert("html".to_string(), page);
    for (set, sandboxed) in [(STATIC_FILES, false), (STATIC_SANDBOXED, true)] {
        sets.insert(set.to_string(), static_security(&site.markdown.iframe_hosts, sandboxed));
    }
    sets.insert(
        "api-catalog".to_string(),
        vec![("link".to_string(), "</.well-known/api-catalog>; rel=\"api-catalog\"".to_string())],
    );
    if let Some(cms) = &site.cms {
        sets.insert(portal_core::http::headers::CMS_ADMIN.to_string(), portal_core::http::headers::cms_security(cms));
    }
    for deprecation in DEPRECATIONS {
        sets.insert(format!("deprecated:{}", deprecation.path), deprecation.headers());
    }
    sets
}

/// Spatial categories, zones and registers found in `content/spatial/*.geojson`, for the enums.
fn spatial_facts(content: &Content) -> (Vec<String>, Vec<String>, Vec<String>) {
    let (mut categories, mut zones, mut protocols) = (BTreeSet::new(), BTreeSet::new(), BTreeSet::new());
    let files = std::fs::read_dir(content.root.join("spatial")).into_iter().flatten().flatten();
    for path in files.map(|e| e.path()).filter(|p| p.extension().is_some_and(|e| e == "geojson")) {
        let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        let Ok(text) = std::fs::read_to_string(&path) else { continue };
        let Ok(doc) = serde_json::from_str::<Value>(&text) else { continue };
        for feature in doc["features"].as_array().into_iter().flatten() {
            let property = |name: &str| feature["properties"][name].as_str().map(str::to_string);
            categories.extend(property("category"));
            zones.extend(property("zone"));
            protocols.insert(property("protocol").unwrap_or_else(|| stem.clone()));
        }
    }
    (categories.into_iter().collect(), zones.into_iter().collect(), protocols.into_iter().collect())
}

/// The OpenAPI document.
pub fn openapi_document(content: &Content) -> Value {
    let (spatial_categories, spatial_zones, spatial_protocols) = spatial_facts(content);
    let facts =
        Facts { booking: content.site.booking_lists().clone(), spatial_categories, spatial_zones, spatial_protocols };
    openapi::document(&content.site, &facts)
}

fn links(base: &str) -> Value {
    json!({
        "openapi": format!("{base}/api/openapi.json"),
        "docs": format!("{base}/api-docs"),
        "catalog": format!("{base}/.well-known/api-catalog"),
        "llms": format!("{base}/llms.txt"),
        "deprecationPolicy": format!("{base}/api/deprecation-policy"),
        "search": format!("{base}/api/search"),
        "encyclopedia": format!("{base}/api/encyclopedia"),
        "mcp": format!("{base}/mcp"),
        "rss": format!("{base}/api/rss"),
    })
}

fn status(content: &Content, model: &Model, generated_at: DateTime) -> Value {
    let counts: serde_json::Map<String, Value> =
        model.collections.iter().map(|(name, cards)| (name.to_string(), json!(cards.len()))).collect();
    json!({
        "status": "ok",
        "apiVersion": API_VERSION,
        "version": env!("CARGO_PKG_VERSION"),
        "generatedAt": generated_at.rfc3339(),
        "collections": counts,
        "encyclopedia": model.entries.len(),
        "links": links(content.site.base()),
    })
}

fn api_catalog(site: &SiteConfig) -> Value {
    let base = site.base();
    let mut items = vec![json!({"href": format!("{base}/api")})];
    items.extend(COLLECTIONS.iter().map(|c| json!({"href": format!("{base}/api/{c}"), "title": description(c)})));
    items.push(json!({"href": format!("{base}/api/encyclopedia"), "title": "sourced encyclopedia entries"}));
    items.push(json!({"href": format!("{base}/mcp"), "title": "read-only MCP server"}));
    // OGC API - Features (docs/spec/api-spec.md#ogc).
    items.push(json!({"href": format!("{base}/api/ogc"), "title": "places as OGC API - Features"}));
    // The services as Open Referral HSDS 3.0 (docs/standards.md#hsds).
    items.push(json!({"href": format!("{base}/api/hsds"), "title": "services as Open Referral HSDS 3.0"}));
    items.push(json!({"href": format!("{base}/events.ics"), "title": "published events as iCalendar (RFC 5545)"}));
    let mut linkset = vec![
        json!({"anchor": format!("{base}/.well-known/api-catalog"), "item": items}),
        json!({
            "anchor": format!("{base}/api"),
            "service-desc": [{"href": format!("{base}/api/openapi.json"), "type": "application/openapi+json"}],
            "service-doc": [{"href": format!("{base}/api-docs"), "type": "text/html"}],
            "status": [{"href": format!("{base}/api/status"), "type": JSON}],
            "describedby": [{"href": format!("{base}/llms.txt"), "type": "text/plain"}],
            "deprecation": [{"href": format!("{base}/api/deprecation-policy"), "type": JSON}],
        }),
    ];
    linkset.push(json!({
        "anchor": format!("{base}/api/ogc"),
        "service-desc": [{"href": format!("{base}/api/openapi.json"), "type": "application/openapi+json"}],
        "http://www.opengis.net/def/rel/ogc/1.0/conformance": [{"href": format!("{base}/api/ogc/conformance"), "type": JSON}],
    }));
    // Each collection is described by the JSON Schema of its records.
    linkset.extend(COLLECTIONS.iter().map(|c| {
        json!({
            "anchor": format!("{base}/api/{c}"),
            "describedby": [{"href": format!("{base}/api/schemas/{c}.json"), "type": portal_core::content::record_schema::MEDIA_TYPE}],
        })
    }));
    json!({"linkset": linkset})
}

/// `GET /api`: the API's front door (the API catalog's anchor), linking every part of it.
fn api_root(content: &Content) -> Value {
    let base = content.site.base();
    let collections: serde_json::Map<String, Value> =
        COLLECTIONS.iter().map(|c| (c.to_string(), json!(format!("{base}/api/{c}")))).collect();
    success(json!({
        "apiVersion": API_VERSION,
        "title": content.site.title,
        "links": {
            "openapi": format!("{base}/api/openapi.json"),
            "catalog": format!("{base}/.well-known/api-catalog"),
            "docs": format!("{base}/api-docs"),
            "status": format!("{base}/api/status"),
            "search": format!("{base}/api/search"),
            "encyclopedia": format!("{base}/api/encyclopedia"),
            "mcp": format!("{base}/mcp"),
            "hsds": format!("{base}/api/hsds"),
            "deprecationPolicy": format!("{base}/api/deprecation-policy"),
        },
        "collections": collections,
    }))
}

fn deprecation_policy() -> Value {
    success(json!({
        "currentVersion": API_VERSION,
        "supportedVersions": SUPPORTED_API_VERSIONS,
        "policy": {
            "versioning": "Semantic versioning. Breaking changes ship under a new major version; a request may pin a version with the API-Version header.",
            "minimumNotice": MINIMUM_NOTICE,
            "announcement": "A deprecated endpoint answers with Deprecation (RFC 9745) and Sunset (RFC 8594) headers and a Link with rel=\"deprecation\" to this document (and rel=\"successor-version\" where a replacement exists), at least six months before removal.",
        },
        "deprecations": DEPRECATIONS.iter().map(|d| json!({
            "path": d.path,
            "deprecatedAt": DateTime::from_unix(d.deprecated_at).rfc3339(),
            "sunset": DateTime::from_unix(d.sunset_at).rfc3339(),
            "successor": d.successor,
            "reason": d.reason,
        })).collect::<Vec<_>>(),
    }))
}

fn server_card(site: &SiteConfig) -> Value {
    let base = site.base();
    let mut card = json!({
        "name": site.title,
        "description": site.description,
        "version": env!("CARGO_PKG_VERSION"),
        "serverInfo": server::info(site, version::LATEST),
        "transport": {"type": "streamable-http", "endpoint": format!("{base}/mcp")},
        "endpoints": {"mcp": format!("{base}/mcp"), "wellKnown": format!("{base}/.well-known/mcp")},
        "authentication": {"required": false, "schemes": []},
        "tools": tools::definitions(),
        "browserTools": webmcp::tools_json(),
        "rateLimit": {"limit": 60, "windowSeconds": 60, "sharedWithRestApi": true},
        "links": links(base),
    });
    if let (Value::Object(card), Value::Object(protocol)) = (&mut card, server::protocol_fields()) {
        card.extend(protocol);
    }
    card
}

fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}

fn skills(content: &Content) -> Result<Vec<OutFile>> {
    let base = content.site.base();
    let mut files = Vec::new();
    let mut index = Vec::new();
    for skill in &content.skills {
        let route = format!("/.well-known/agent-skills/{}/SKILL.md", skill.name);
        index.push(json!({
            "name": skill.name,
            "type": "skill-md",
            "description": skill.description,
            "url": format!("{base}{route}"),
            "digest": format!("sha256:{}", sha256_hex(skill.text.as_bytes())),
        }));
        files.push(OutFile::at(&route, skill.text.clone().into_bytes())?);
    }
    let index = json!({"$schema": "https://schemas.agentskills.io/discovery/0.2.0/schema.json", "skills": index});
    files.push(OutFile::at("/.well-known/agent-skills/index.json", index.to_string().into_bytes())?);
    Ok(files)
}

fn llms_txt(content: &Content, model: &Model) -> String {
    let site = &content.site;
    let base = site.base();
    let limits = portal_core::http::ratelimit::RateLimit::default();
    let mut out = format!("# {}\n\n> {}\n\n", site.title, site.description.trim());
    out.push_str(&format!(
        "A public, read-only content and data API (no key needed; {limit} requests per {window} seconds per address). \
         Every collection is JSON at `{base}/api/<collection>`, one record at `{base}/api/<collection>/<slug>`; errors \
         are RFC 9457 problem documents. Every HTML page also answers in markdown for `Accept: text/markdown`.\n\n## API\n\n",
        limit = limits.limit,
        window = limits.window_ms / 1000,
    ));
    let mcp_note = format!(
        "Streamable HTTP, protocols {}, {} read-only tools, every record as a resource, agent skills as prompts",
        version::supported_names().join(", "),
        tools::definitions().len()
    );
    for (title, path, note) in [
        ("OpenAPI description", "/api/openapi.json", "every endpoint, parameter and response"),
        ("API documentation", "/api-docs", "for people, with every error code"),
        ("API catalog", "/.well-known/api-catalog", "RFC 9727 linkset"),
        ("Status", "/api/status", "version, build time and record counts"),
        ("Search", "/api/search?q=water", "every collection at once; `collections=entries` for the encyclopedia"),
        ("Encyclopedia", "/api/encyclopedia", "sourced entries with filters, suggestions, facets and JSON-LD"),
        ("MCP server", "/mcp", &mcp_note),
        (
            "HSDS 3.0",
            "/api/hsds/services",
            "the services as Open Referral HSDS 3.0: `/api/hsds/<kind>` and `/<kind>/<id>`",
        ),
        ("Deprecation policy", "/api/deprecation-policy", "versions and endpoints scheduled for retirement"),
    ] {
        out.push_str(&format!("- [{title}]({base}{path}): {note}\n"));
    }
    out.push_str(&format!(
        "- [OGC API - Features]({base}/api/ogc): places, one collection per register, for GIS tools (QGIS, OWSLib)\n"
    ));
    out.push_str("\n## Collections\n\n");
    for (name, cards) in &model.collections {
        out.push_str(&format!("- [{name}]({base}/api/{name}): {} ({} records)\n", description(name), cards.len()));
    }
    if !content.datasets.is_empty() {
        // Data snapshots: their JSON and the page that draws them (docs/content.md#data-pages).
        out.push_str("\n## Data\n\n");
        for name in content.datasets.keys() {
            let page = if name == "alerts" { pages::ALERTS.to_string() } else { format!("{}/{name}", pages::DATA) };
            let json = crate::load::data::json_url(name);
            out.push_str(&format!("- [{name}]({base}{json}): a data snapshot as JSON; as a page at {base}{page}\n"));
        }
    }
    if !content.skills.is_empty() {
        out.push_str("\n## Agent skills\n\n");
        for skill in &content.skills {
            out.push_str(&format!(
                "- [{}]({base}/.well-known/agent-skills/{}/SKILL.md): {}\n",
                skill.name, skill.name, skill.description
            ));
        }
    }
    out.push_str(&format!(
        "\n## Optional\n\n- [Search index]({base}/api/search-index.json): every record as slug, title, url, summary, tags, date\n\
         - [News feed]({base}/api/rss): RSS 2.0\n\
         - [Events calendar]({base}/events.ics): iCalendar (RFC 5545) of every published event; one event at \
         `{base}/events/<slug>.ics`\n- [Places]({base}/api/v1/spatial.json): GeoJSON{license}\n",
        license = if site.license.is_empty() { String::new() } else { format!(" ({})", site.license) }
    ));
    out.push_str(&people_pages(content));
    out
}

/// The pages for people that show data (the map of places, the weather), when the site has them:
/// an agent pointing a person somewhere links these rather than the JSON.
fn people_pages(content: &Content) -> String {
    let base = content.site.base();
    let mut out = String::new();
    if !content.features.is_empty() {
        out.push_str(&format!(
            "- [Map]({base}/map): every place drawn, by category (`/map/category/<c>`, `/map/zone/<z>`); one place at \
             `{base}/places/<id>` with a `geo:` link\n"
        ));
    }
    if crate::build::pages::sitemap::rendered_pages(content).contains(&portal_core::routing::pages::WEATHER) {
        out.push_str(&format!("- [Weather]({base}/weather): the forecast and the weather alerts as a page\n"));
    }
    out
}

/// The discovery documents that count the records or carry the build time: the status and
/// llms.txt.
pub fn site_files(content: &Content, model: &Model, generated_at: DateTime) -> Result<Vec<OutFile>> {
    let files = vec![
        OutFile::at("/api/status", status(content, model, generated_at).to_string().into_bytes())?,
        OutFile::at("/llms.txt", llms_txt(content, model).into_bytes())?,
    ];
    Ok(files.into_iter().map(|f| f.in_group(Group::Site)).collect())
}

/// The discovery documents made of the settings and the core's tables alone.
pub fn theme_files(content: &Content) -> Result<Vec<OutFile>> {
    let site = &content.site;
    let card = server_card(site).to_string().into_bytes();
    let mut catalog = OutFile::at("/.well-known/api-catalog", api_catalog(site).to_string().into_bytes())?;
    catalog.headers = Some("api-catalog".into());
    let mut files = vec![
        OutFile::at("/api/openapi.json", openapi_document(content).to_string().into_bytes())?,
        OutFile::at("/api", api_root(content).to_string().into_bytes())?,
        OutFile::at("/api/deprecation-policy", deprecation_policy().to_string().into_bytes())?,
        OutFile::at(SERVER_CARD, card.clone())?,
        OutFile::at("/mcp/server-card", card)?,
        OutFile::at(format!("/{}", webmcp::TOOLS_FILE), webmcp::tools_json().to_string().into_bytes())?,
        catalog,
    ];
    files.extend(skills(content)?);
    Ok(files.into_iter().map(|f| f.in_group(Group::Theme)).collect())
}
