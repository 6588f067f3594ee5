//! The OpenAPI 3.1 document, generated from the route table and the error codes (never written by
//! hand), with enums filled from the build (booking choices, spatial categories and zones).
//!
//! HTML pages are left out: they are documented on `/api-docs`, and their catch-all path cannot be
//! expressed as an OpenAPI path template.

pub mod actions;
pub mod calendar;
pub mod cms;
pub mod collections;
pub mod data;
pub mod describe;
pub mod discovery;
pub mod encyclopedia;
pub mod hsds;
pub mod mcp;
pub mod ogc;
mod schemas;
pub mod search;
pub mod spatial;

use serde_json::{json, Map, Value};

use crate::content::{Booking, SiteConfig};
use crate::http::deprecation;
use crate::http::problem::ErrorCode;
use crate::http::ratelimit::RateLimit;
use crate::routing::{Operation, Route, ROUTES};
use crate::{API_VERSION, SUPPORTED_API_VERSIONS};

use self::describe::{Describe, Description};
use self::schemas::{response, response_name};

/// What the build knows that the document's enums need.
#[derive(Debug, Clone, Default)]
pub struct Facts {
    /// The booking form's choices.
    pub booking: Booking,
    /// Spatial feature categories.
    pub spatial_categories: Vec<String>,
    /// Spatial zones.
    pub spatial_zones: Vec<String>,
    /// Spatial registers.
    pub spatial_protocols: Vec<String>,
}

/// An OpenAPI path for a route pattern: `{slug+}` becomes `{slug}`, `{name}` stays.
pub fn openapi_path(pattern: &str) -> String {
    let path = pattern.replace("{slug+}", "{slug}");
    if path.starts_with("/api/encyclopedia/{name}") {
        path.replace("{name}", "{slug}")
    } else {
        path
    }
}

/// The whole document.
pub fn document(site: &SiteConfig, facts: &Facts) -> Value {
    json!({
        "openapi": "3.1.0",
        "jsonSchemaDialect": "https://spec.openapis.org/oas/3.1/dialect/base",
        "info": info(site),
        "servers": [{"url": if site.base().is_empty() { "/" } else { site.base() }}],
        // A public API: no operation needs credentials.
        "security": [],
        "tags": TAGS.iter().map(|(name, description)| json!({"name": name, "description": description})).collect::<Vec<_>>(),
        "paths": paths(site, facts),
        "components": components(),
    })
}

fn info(site: &SiteConfig) -> Value {
    let limits = RateLimit::default();
    let mut info = json!({
        "title": format!("{} API", if site.title.is_empty() { "portal" } else { &site.title }),
        "version": API_VERSION,
        "description": format!(
            "{}\n\nPublic, read-mostly content and data API. No authentication. Errors are RFC 9457 problem documents \
             whose `type` is `{base}/api-docs#error-<code>`. Rate limit: {limit} requests per {window} s per client address on \
             collection, search, encyclopedia query, action and MCP endpoints. Request bodies: at most {kib} KiB of JSON. \
             Every built file also answers at its own file path (`/api/news.json` like `/api/news`), the form the \
             HTML pages link to so that they read the same from an unpacked copy.",
            site.description,
            base = site.base(),
            limit = limits.limit,
            window = limits.window_ms / 1000,
            kib = crate::http::MAX_BODY_BYTES / 1024,
        ),
        "contact": {"email": site.contact.email, "url": site.contact.url},
    });
    if let Some(license) = crate::content::license::parse(&site.license) {
        info["license"] = match (license.spdx, license.url) {
            (Some(spdx), _) => json!({"name": license.name, "identifier": spdx}),
            (None, Some(url)) => json!({"name": license.name, "url": url}),
            (None, None) => json!({"name": license.name}),
        };
    }
    info
}

/// Every API route with its described operations; the booking request only on a site that takes
/// bookings (docs/content.md#booking: without `booking:` it answers 404, so it is not offered).
fn paths(site: &SiteConfig, facts: &Facts) -> Map<String, Value> {
    let mut paths = Map::new();
    let offered = |route: &&Route| site.booking.is_some() || !route.operations.iter().any(is_booking);
    for route in ROUTES.iter().filter(|r| r.tag != "pages").filter(offered) {
        let mut item = Map::new();
        for op in route.operations {
            if let Some(describe) = describer(op.operation_id) {
                item.insert(op.method.to_ascii_lowercase(), operation(route, op, describe(facts)));
            }
        }
        if route.pattern == "/api/{collection}" {
            item.insert("options".into(), preflight());
        }
        paths.insert(openapi_path(route.pattern), Value::Object(item));
    }
    paths
}

/// The function that describes each operation of the API, by its `operationId` in the route
/// table: the table names no describer, so that routing stays below the document that reads it.
/// HTML pages have none (`/api-docs` documents them).
const DESCRIBERS: &[(&str, Describe)] = &[
    ("getApiRoot", discovery::document),
    ("searchPortal", search::search),
    ("getSearchIndex", search::index),
    ("getNewsFeed", search::feed),
    ("listEncyclopediaEntries", encyclopedia::list),
    ("suggestEncyclopediaEntries", encyclopedia::suggest),
    ("getEncyclopediaFacets", encyclopedia::facets),
    ("getEncyclopediaEntryJsonLd", encyclopedia::json_ld),
    ("getEncyclopediaEntry", encyclopedia::entry),
    ("describeExport", actions::describe_export),
    ("exportCollections", actions::export),
    ("matchCategory", actions::match_category),
    ("submitVoice", actions::submit_voice),
    ("sendBookingConfirmation", actions::booking),
    ("getAlerts", data::dataset),
    ("getPopulation", data::dataset),
    ("getFinance", data::dataset),
    ("getCharts", data::dataset),
    ("getDataSnapshot", data::site_dataset),
    ("getWeather", data::weather),
    ("getWeatherAlerts", data::weather_alerts),
    ("getGeolocation", data::geolocation),
    ("getPageviews", data::pageviews),
    ("getSpatialGeoJson", spatial::geojson),
    ("getSpatialCsv", spatial::csv),
    ("getOgcLandingPage", ogc::landing),
    ("getOgcConformance", ogc::conformance),
    ("getOgcOpenApi", ogc::openapi),
    ("getOgcCollections", ogc::collections),
    ("getOgcCollection", ogc::collection),
    ("getOgcItems", ogc::items),
    ("getOgcItem", ogc::item),
    ("getHsdsRoot", hsds::root),
    ("listHsdsServices", hsds::services),
    ("getHsdsService", hsds::item),
    ("listHsdsOrganizations", hsds::organizations),
    ("getHsdsOrganization", hsds::item),
    ("listHsdsServiceAtLocations", hsds::service_at_locations),
    ("getHsdsServiceAtLocation", hsds::item),
    ("listHsdsTaxonomies", hsds::taxonomies),
    ("getHsdsTaxonomy", hsds::item),
    ("listHsdsTaxonomyTerms", hsds::taxonomy_terms),
    ("getHsdsTaxonomyTerm", hsds::item),
    ("startCmsSignIn", cms::auth),
    ("finishCmsSignIn", cms::callback),
    ("getOpenApi", discovery::openapi),
    ("getDeprecationPolicy", discovery::document),
    ("getStatus", discovery::document),
    ("listCollection", collections::list),
    ("queryCollection", collections::query_options),
    ("getCollectionListingPage", collections::page),
    ("getCollectionSchema", collections::record_schema),
    ("getRecord", collections::record),
    ("getMcpDiscovery", mcp::discovery),
    ("callMcp", mcp::call),
    ("getWellKnownMcpDiscovery", mcp::discovery),
    ("callWellKnownMcp", mcp::call),
    ("getMcpServerCardAlias", discovery::document),
    ("getMcpServerCard", discovery::document),
    ("getApiCatalog", discovery::api_catalog),
    ("getAgentSkills", discovery::document),
    ("getAgentSkill", discovery::agent_skill),
    ("getLlmsTxt", discovery::llms_txt),
    ("getEventsCalendar", calendar::feed),
    ("getEventCalendar", calendar::event),
];

/// The describer of the operation `operation_id`, if it is part of the API.
fn describer(operation_id: &str) -> Option<Describe> {
    DESCRIBERS.iter().find(|(id, _)| *id == operation_id).map(|(_, describe)| *describe)
}

/// Whether `op` is the booking request.
fn is_booking(op: &Operation) -> bool {
    matches!(op.serve, crate::routing::Serve::Handler(crate::routing::Handler::Booking))
}

/// One operation object.
fn operation(route: &Route, op: &Operation, description: Description) -> Value {
    let Description { mut parameters, request_body, responses: ok, errors } = description;
    parameters.push(json!({"$ref": "#/components/parameters/ApiVersion"}));
    let mut responses = Map::new();
    for (status, response) in ok {
        responses.insert(status.to_string(), with_common_headers(response, op.rate_limited, route.pattern));
    }
    for (status, reference) in error_refs(&errors) {
        responses.entry(status).or_insert(reference);
    }
    let mut operation = json!({
        "operationId": op.operation_id,
        "summary": op.summary,
        "tags": [route.tag],
        "parameters": parameters,
        "responses": responses,
    });
    if let Some(body) = request_body {
        operation["requestBody"] = body;
    }
    if op.rate_limited {
        let limits = RateLimit::default();
        operation["description"] = json!(format!(
            "Counts against the client's budget of {} requests per {} seconds.",
            limits.limit,
            limits.window_ms / 1000
        ));
    }
    if deprecation::find(route.pattern).is_some() {
        operation["deprecated"] = json!(true);
    }
    operation
}

/// The error responses of an operation as `(status, $ref)`, merging codes that share a status.
fn error_refs(codes: &[ErrorCode]) -> Vec<(String, Value)> {
    let mut out: Vec<(String, Value)> = Vec::new();
    // Every operation may answer a bad `API-Version` (400), a request past its deadline (408) and 500.
    for code in codes.iter().chain(&[ErrorCode::BadRequest, ErrorCode::RequestTimeout, ErrorCode::InternalError]) {
        let status = code.status().to_string();
        if out.iter().any(|(s, _)| *s == status) {
            continue;
        }
        out.push((status, response(&response_name(*code))));
    }
    out
}

fn components() -> Value {
    let mut headers = schemas::headers();
    if let Value::Object(map) = &mut headers {
        for (_, header) in map.iter_mut() {
            header["required"] = json!(false);
        }
    }
    json!({
        "schemas": schemas::schemas(),
        "responses": schemas::error_responses(),
        "headers": headers,
        "parameters": {"ApiVersion": {
            "name": "API-Version", "in": "header", "required": false,
            "description": format!(
                "Pin the API version; {} select {API_VERSION}. Any other value is 400 bad_request.",
                SUPPORTED_API_VERSIONS.iter().map(|v| format!("`{v}`")).collect::<Vec<_>>().join(", ")
            ),
            "schema": {"type": "string", "enum": SUPPORTED_API_VERSIONS},
        }},
    })
}

/// The document's sections, in reading order.
const TAGS: [(&str, &str); 11] = [
    (
        "collections",
        "The 19 content collections: listings with filters, sorting, fields and static pages, records, schemas.",
    ),
    ("search", "Full-text search over every collection and the encyclopedia."),
    ("encyclopedia", "Sourced encyclopedia entries: queries, suggestions, facets, JSON-LD."),
    ("actions", "Export, skills matching, community voices and visit bookings."),
    ("data", "Dashboard datasets, live weather and alerts, geolocation, deprecated analytics."),
    ("spatial", "Places as GeoJSON and CSV, and as OGC API - Features."),
    ("hsds", "The services as Open Referral HSDS 3.0: services, organizations, places, taxonomies."),
    ("calendar", "The events as iCalendar feeds, for calendar applications."),
    ("cms", "The sign-in of the site's editors to a git-based CMS (GitHub OAuth), when the operator configures it."),
    ("discovery", "The documents that describe the API: OpenAPI, API catalog, status, llms.txt, agent skills."),
    ("mcp", "The Model Context Protocol server for AI agents (its revisions: GET /mcp)."),
];

fn preflight() -> Value {
    let cors = json!({
        "description": format!(
            "CORS preflight: Access-Control-Allow-* headers (the request headers a browser may send: {}) and \
             Access-Control-Max-Age.",
            crate::http::headers::ALLOW_HEADERS
        )
    });
    json!({
        "operationId": "preflightCollection",
        "summary": "CORS preflight (any /api path answers it).",
        "tags": ["collections"],
        "parameters": [collections::preflight_parameter()],
        "responses": {"204": cors},
    })
}

/// Adds the version header, and the rate-limit headers where they apply, to a success response.
fn with_common_headers(mut response: Value, limited: bool, pattern: &str) -> Value {
    let mut names = vec!["API-Version"];
    if limited {
        names.extend([
            "RateLimit-Limit",
            "RateLimit-Remaining",
            "RateLimit-Reset",
            "RateLimit-Policy",
            "X-RateLimit-Limit",
            "X-RateLimit-Remaining",
            "X-RateLimit-Reset",
        ]);
    }
    if deprecation::find(pattern).is_some() {
        names.extend(["Deprecation", "Sunset", "Link"]);
    }
    let headers: Map<String, Value> =
        names.iter().map(|n| (n.to_string(), json!({"$ref": format!("#/components/headers/{n}")}))).collect();
    response["headers"] = Value::Object(headers);
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    fn taking_bookings() -> SiteConfig {
        SiteConfig { booking: Some(Booking::default()), ..SiteConfig::default() }
    }

    #[test]
    fn every_api_operation_is_described_once() {
        let doc = document(&taking_bookings(), &Facts::default());
        let mut ids = Vec::new();
        for route in ROUTES.iter().filter(|r| r.tag != "pages") {
            for op in route.operations {
                assert!(describer(op.operation_id).is_some(), "add {} to DESCRIBERS", op.operation_id);
                let path = &doc["paths"][openapi_path(route.pattern)];
                assert_eq!(path[op.method.to_ascii_lowercase()]["operationId"], op.operation_id);
                ids.push(op.operation_id);
            }
        }
        let count = ids.len();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), count, "operationIds are unique");
    }

    #[test]
    fn every_describer_names_one_operation_of_the_api() {
        let api: Vec<&str> = ROUTES
            .iter()
            .filter(|r| r.tag != "pages")
            .flat_map(|r| r.operations.iter().map(|op| op.operation_id))
            .collect();
        for (id, _) in DESCRIBERS {
            assert!(api.contains(id), "{id} is no operation of the API: drop it from DESCRIBERS");
            assert_eq!(DESCRIBERS.iter().filter(|(other, _)| other == id).count(), 1, "{id} is described twice");
        }
        assert_eq!(DESCRIBERS.len(), api.len());
    }

    #[test]
    fn the_booking_request_is_offered_only_by_a_site_taking_bookings() {
        let path = openapi_path("/api/send-booking-confirmation");
        assert!(document(&taking_bookings(), &Facts::default())["paths"][&path].is_object());
        let without = document(&SiteConfig::default(), &Facts::default());
        assert!(without["paths"].get(&path).is_none(), "a site without `booking:` answers it 404");
    }

    #[test]
    fn every_error_code_has_a_response() {
        let doc = document(&SiteConfig::default(), &Facts::default());
        for code in ErrorCode::ALL {
            assert!(doc["components"]["responses"][schemas::response_name(code)].is_object(), "{code:?}");
        }
    }
}
