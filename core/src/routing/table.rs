//! The route table: every route of the spec and the decisions, defined once.
//!
//! Dispatch ([`crate::app`]), the 405 `Allow` header, rate limiting, the OpenAPI document and the
//! docs page all read this table; nothing else lists paths. A pattern is a `/`-separated list of
//! literal segments and placeholders: `{collection}` (one of the 19 names), `{name}` (any one
//! segment) and `{slug+}` (one or more segments, for nested slugs).

use crate::standards::hsds::Kind;

use super::files::FileRule;
use super::pages::{ALERTS, BOOKING_FORM, DATA, ENCYCLOPEDIA, MAP, SEARCH, VOICE_FORM, WEATHER};

/// Which handler answers a dynamic operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Handler {
    /// GET `/api/<collection>` with `limit`/`offset`, or POST with options.
    Collection,
    /// GET `/api/search`.
    Search,
    /// GET `/api/encyclopedia` (query, filters, pagination).
    EncyclopediaList,
    /// GET `/api/encyclopedia/suggest`.
    EncyclopediaSuggest,
    /// GET `/api/encyclopedia/facets`.
    EncyclopediaFacets,
    /// POST `/api/export`.
    Export,
    /// POST `/api/match-category`.
    MatchCategory,
    /// POST `/api/submit-voice`.
    SubmitVoice,
    /// POST `/api/send-booking-confirmation`.
    Booking,
    /// GET `/api/weather`.
    Weather,
    /// GET `/api/weather-alerts`.
    WeatherAlerts,
    /// GET `/api/geolocation`.
    Geolocation,
    /// GET `/api/v1/spatial.json` with filters.
    SpatialJson,
    /// GET `/api/v1/spatial.csv` with filters.
    SpatialCsv,
    /// GET of a built OGC API - Features document with a query: its parameters checked.
    OgcDocument,
    /// GET `/api/ogc/collections/<id>/items` with a query (OGC API - Features).
    OgcItems,
    /// GET `/api/ogc/collections/<id>/items/<featureId>`.
    OgcItem,
    /// GET or POST on the MCP endpoint.
    Mcp,
    /// GET `/api/hsds/<kind>` with paging or filters.
    HsdsList(Kind),
    /// GET `/api/hsds/<kind>/<id>`.
    HsdsItem(Kind),
    /// GET `/api/cms/auth`: the CMS sign-in's redirect to the provider.
    CmsAuth,
    /// GET `/api/cms/callback`: the CMS sign-in's end, handing the token to the CMS.
    CmsCallback,
    /// `/pages/<slug>`: a permanent redirect to `/<slug>`.
    PageRedirect,
    /// GET `/search`: search results as a page.
    SearchPage,
    /// GET or POST `/community-voices/new`: the story form.
    VoiceForm,
    /// GET `/community-voices/new/sent`: its confirmation.
    VoiceSent,
    /// GET or POST `/visit`: the booking form.
    BookingForm,
    /// GET `/visit/sent`: its confirmation.
    BookingSent,
    /// GET `/weather`: the weather and the alerts as a page.
    WeatherPage,
}

/// Where an operation's answer comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Serve {
    /// The file the build wrote for this exact path (through the manifest), named by the rule.
    File(FileRule),
    /// The built file, unless the query carries one of these parameters; then the handler.
    FileUnlessQuery(FileRule, &'static [&'static str], Handler),
    /// The built file, unless the query carries any parameter; then the handler (which refuses
    /// the parameters it does not know instead of answering as if they were not there).
    FileUnlessAnyQuery(FileRule, Handler),
    /// Always the handler.
    Handler(Handler),
}

/// One method on one route.
#[derive(Debug, Clone, Copy)]
pub struct Operation {
    /// `GET` or `POST` (HEAD follows GET; OPTIONS is answered for every API path).
    pub method: &'static str,
    /// The unique OpenAPI `operationId`.
    pub operation_id: &'static str,
    /// One line for the docs.
    pub summary: &'static str,
    /// Whether the per-client budget of docs/spec/api-spec.md#rate-limit applies.
    pub rate_limited: bool,
    /// Where the answer comes from.
    pub serve: Serve,
    /// The media type of a successful answer.
    pub content_type: &'static str,
    /// Whether a content record's page answers (a record, an entry, a page at the site's root),
    /// rather than a page the site generates (a listing, a form, the search page).
    pub content: bool,
}

/// A path pattern and the operations it supports.
#[derive(Debug, Clone, Copy)]
pub struct Route {
    /// The pattern, e.g. `/api/{collection}/{slug+}`.
    pub pattern: &'static str,
    /// The docs section it belongs to.
    pub tag: &'static str,
    /// Its operations.
    pub operations: &'static [Operation],
}

use crate::http::media::{
    API_CATALOG, CALENDAR, CSV, GEOJSON, HTML, JSON, JSON_LD, MARKDOWN, OPENAPI, OPENAPI_30, RSS, SCHEMA_JSON, TEXT,
};

/// A JSON file at `<path>.json`.
const JSON_FILE: Serve = Serve::File(FileRule::Extension("json"));
/// A file at the path itself.
const AS_IS: Serve = Serve::File(FileRule::AsIs);

const fn get(operation_id: &'static str, summary: &'static str, serve: Serve, content_type: &'static str) -> Operation {
    Operation { method: "GET", operation_id, summary, rate_limited: false, serve, content_type, content: false }
}

const fn limited(mut op: Operation) -> Operation {
    op.rate_limited = true;
    op
}

const fn post(operation_id: &'static str, summary: &'static str, handler: Handler) -> Operation {
    Operation {
        method: "POST",
        operation_id,
        summary,
        rate_limited: true,
        serve: Serve::Handler(handler),
        content_type: JSON,
        content: false,
    }
}

/// A page a handler renders per request.
const fn dynamic_page(operation_id: &'static str, summary: &'static str, handler: Handler) -> Operation {
    get(operation_id, summary, Serve::Handler(handler), HTML)
}

/// A form page's POST (rate limited, answered with a page).
const fn form_post(operation_id: &'static str, summary: &'static str, handler: Handler) -> Operation {
    let mut op = post(operation_id, summary, handler);
    op.content_type = HTML;
    op
}

const fn page(operation_id: &'static str, summary: &'static str) -> Operation {
    get(operation_id, summary, Serve::File(FileRule::Page), HTML)
}

/// The page of a content record (see [`Operation::content`]).
const fn content_page(mut op: Operation) -> Operation {
    op.content = true;
    op
}

macro_rules! route {
    ($pattern:expr, $tag:expr, [$($op:expr),+ $(,)?]) => {
        Route { pattern: $pattern, tag: $tag, operations: &[$($op),+] }
    };
}

/// A list of the HSDS API: its first page is a built file; any query goes to the handler, which
/// pages, filters and refuses a parameter the list does not take.
/// `limited` puts it under the rate limit (the services, whose `search` runs the search engine).
macro_rules! hsds_list {
    ($kind:ident, $id:expr, $summary:expr) => {
        route!(concat!("/api/hsds/", hsds_segment!($kind)), "hsds", [hsds_list_op!($kind, $id, $summary)])
    };
    (limited $kind:ident, $id:expr, $summary:expr) => {
        route!(concat!("/api/hsds/", hsds_segment!($kind)), "hsds", [limited(hsds_list_op!($kind, $id, $summary))])
    };
}

/// The GET of an HSDS list (see [`hsds_list`]).
macro_rules! hsds_list_op {
    ($kind:ident, $id:expr, $summary:expr) => {
        get($id, $summary, Serve::FileUnlessAnyQuery(FileRule::Extension("json"), Handler::HsdsList(Kind::$kind)), JSON)
    };
}

/// One item of the HSDS API by id.
macro_rules! hsds_item {
    ($kind:ident, $id:expr, $summary:expr) => {
        route!(
            concat!("/api/hsds/", hsds_segment!($kind), "/{name}"),
            "hsds",
            [get($id, $summary, Serve::Handler(Handler::HsdsItem(Kind::$kind)), JSON)]
        )
    };
}

/// The path segment of an HSDS kind, as a literal for patterns (`Kind::name` says it at run time).
macro_rules! hsds_segment {
    (Services) => {
        "services"
    };
    (Organizations) => {
        "organizations"
    };
    (ServiceAtLocations) => {
        "service_at_locations"
    };
    (Taxonomies) => {
        "taxonomies"
    };
    (TaxonomyTerms) => {
        "taxonomy_terms"
    };
}

/// A built OGC API - Features document: a query goes to the handler, which refuses a parameter
/// the document does not take (docs/spec/api-spec.md#ogc).
const OGC_DOCUMENT: Serve = Serve::FileUnlessAnyQuery(FileRule::Extension("json"), Handler::OgcDocument);

/// Every route, most specific first: the first pattern that matches a path owns it.
pub const ROUTES: &[Route] = &[
    route!("/api", "discovery", [get("getApiRoot", "Where everything of the API is.", JSON_FILE, JSON)]),
    route!(
        "/api/search",
        "search",
        [limited(get(
            "searchPortal",
            "Search every collection (and the encyclopedia).",
            Serve::Handler(Handler::Search),
            JSON
        ))]
    ),
    route!("/api/search-index.json", "search", [get("getSearchIndex", "The flat public search index.", AS_IS, JSON)]),
    route!(
        "/api/rss",
        "search",
        [get("getNewsFeed", "RSS 2.0 feed of the latest news.", Serve::File(FileRule::Extension("xml")), RSS)]
    ),
    route!(
        "/api/encyclopedia",
        "encyclopedia",
        [limited(get(
            "listEncyclopediaEntries",
            "Query encyclopedia entries with filters and pagination.",
            Serve::Handler(Handler::EncyclopediaList),
            JSON
        ))]
    ),
    route!(
        "/api/encyclopedia/suggest",
        "encyclopedia",
        [limited(get(
            "suggestEncyclopediaEntries",
            "Title and alias suggestions by prefix.",
            Serve::Handler(Handler::EncyclopediaSuggest),
            JSON
        ))]
    ),
    route!(
        "/api/encyclopedia/facets",
        "encyclopedia",
        [limited(get(
            "getEncyclopediaFacets",
            "Category, tag and letter counts under the list filters.",
            Serve::Handler(Handler::EncyclopediaFacets),
            JSON
        ))]
    ),
    route!(
        "/api/encyclopedia/{name}/jsonld",
        "encyclopedia",
        [get(
            "getEncyclopediaEntryJsonLd",
            "An entry as a schema.org Article in JSON-LD.",
            Serve::File(FileRule::ReplaceLast("jsonld")),
            JSON_LD
        )]
    ),
    route!(
        "/api/encyclopedia/{name}",
        "encyclopedia",
        [get("getEncyclopediaEntry", "One encyclopedia entry with its sources.", JSON_FILE, JSON)]
    ),
    route!(
        "/api/export",
        "actions",
        [
            get("describeExport", "Describe the export endpoint and its collections.", JSON_FILE, JSON),
            post("exportCollections", "Export several collections at once.", Handler::Export),
        ]
    ),
    route!(
        "/api/match-category",
        "actions",
        [post("matchCategory", "Confirm a skills-exchange category match.", Handler::MatchCategory)]
    ),
    route!(
        "/api/submit-voice",
        "actions",
        [post("submitVoice", "Submit a community story for review.", Handler::SubmitVoice)]
    ),
    route!(
        "/api/send-booking-confirmation",
        "actions",
        [post("sendBookingConfirmation", "Request a visit booking and its confirmation email.", Handler::Booking)]
    ),
    route!("/api/alerts", "data", [get("getAlerts", "Curated high-priority alerts.", JSON_FILE, JSON)]),
    route!("/api/population", "data", [get("getPopulation", "Population totals and breakdowns.", JSON_FILE, JSON)]),
    route!("/api/finance", "data", [get("getFinance", "Funding figures.", JSON_FILE, JSON)]),
    route!("/api/charts", "data", [get("getCharts", "Prepared chart series.", JSON_FILE, JSON)]),
    route!(
        "/api/data/{name}",
        "data",
        [get(
            "getDataSnapshot",
            "A snapshot of the site's own (data/<name>), as the data pages show it.",
            JSON_FILE,
            JSON
        )]
    ),
    route!(
        "/api/weather",
        "data",
        [get(
            "getWeather",
            "Current weather and forecast, with seasonal fallback.",
            Serve::Handler(Handler::Weather),
            JSON
        )]
    ),
    route!(
        "/api/weather-alerts",
        "data",
        [get(
            "getWeatherAlerts",
            "Weather alerts from the upstream CAP feed.",
            Serve::Handler(Handler::WeatherAlerts),
            JSON
        )]
    ),
    route!(
        "/api/geolocation",
        "data",
        [get("getGeolocation", "Coarse location of the client.", Serve::Handler(Handler::Geolocation), JSON)]
    ),
    route!("/api/analytics/pageviews", "data", [get("getPageviews", "Deprecated: always zero.", JSON_FILE, JSON)]),
    route!(
        "/api/v1/spatial.json",
        "spatial",
        [get(
            "getSpatialGeoJson",
            "Published places as a GeoJSON FeatureCollection.",
            Serve::FileUnlessQuery(FileRule::AsIs, &["category", "zone", "protocol", "format"], Handler::SpatialJson),
            GEOJSON
        )]
    ),
    route!(
        "/api/v1/spatial.csv",
        "spatial",
        [get(
            "getSpatialCsv",
            "Published places as CSV.",
            Serve::FileUnlessQuery(FileRule::AsIs, &["category", "zone"], Handler::SpatialCsv),
            CSV
        )]
    ),
    // OGC API - Features (docs/spec/api-spec.md#ogc): built files, the handler for a query.
    route!("/api/ogc", "spatial", [get("getOgcLandingPage", "OGC API - Features landing page.", OGC_DOCUMENT, JSON)]),
    route!(
        "/api/ogc/conformance",
        "spatial",
        [get("getOgcConformance", "OGC API - Features conformance classes.", OGC_DOCUMENT, JSON)]
    ),
    route!(
        "/api/ogc/openapi",
        "spatial",
        [get("getOgcOpenApi", "The OGC API's own OpenAPI 3.0 document.", OGC_DOCUMENT, OPENAPI_30)]
    ),
    route!(
        "/api/ogc/collections",
        "spatial",
        [get("getOgcCollections", "The feature collections, one per register.", OGC_DOCUMENT, JSON)]
    ),
    route!(
        "/api/ogc/collections/{name}",
        "spatial",
        [get("getOgcCollection", "One feature collection.", OGC_DOCUMENT, JSON)]
    ),
    route!(
        "/api/ogc/collections/{name}/items",
        "spatial",
        [get(
            "getOgcItems",
            "A collection's features, paged, by bbox and properties.",
            Serve::FileUnlessAnyQuery(FileRule::Extension("json"), Handler::OgcItems),
            GEOJSON
        )]
    ),
    route!(
        "/api/ogc/collections/{name}/items/{slug+}",
        "spatial",
        [get("getOgcItem", "One feature.", Serve::Handler(Handler::OgcItem), GEOJSON)]
    ),
    // The Open Referral HSDS 3.0 API (docs/spec/api-spec.md#hsds).
    route!("/api/hsds", "hsds", [get("getHsdsRoot", "HSDS version, profile and OpenAPI.", JSON_FILE, JSON)]),
    // Rate limited like every entry that searches (docs/spec/api-spec.md#rate-limit): `search`
    // runs the search engine. The built first page counts too, as a collection listing's does.
    hsds_list!(limited Services, "listHsdsServices", "HSDS services, paged and filtered."),
    hsds_item!(Services, "getHsdsService", "One HSDS service, fully nested."),
    hsds_list!(Organizations, "listHsdsOrganizations", "HSDS organizations, paged."),
    hsds_item!(Organizations, "getHsdsOrganization", "One HSDS organization with its services."),
    hsds_list!(ServiceAtLocations, "listHsdsServiceAtLocations", "HSDS services at locations."),
    hsds_item!(ServiceAtLocations, "getHsdsServiceAtLocation", "One HSDS service at a location, nested."),
    hsds_list!(Taxonomies, "listHsdsTaxonomies", "HSDS taxonomies (tags and categories)."),
    hsds_item!(Taxonomies, "getHsdsTaxonomy", "One HSDS taxonomy."),
    hsds_list!(TaxonomyTerms, "listHsdsTaxonomyTerms", "HSDS taxonomy terms, paged."),
    hsds_item!(TaxonomyTerms, "getHsdsTaxonomyTerm", "One HSDS taxonomy term."),
    // The CMS sign-in (docs/spec/api-spec.md#cms-sign-in): 404 until the operator configures it.
    route!(
        "/api/cms/auth",
        "cms",
        [limited(get(
            "startCmsSignIn",
            "Start an editor's GitHub sign-in for the CMS (a redirect).",
            Serve::Handler(Handler::CmsAuth),
            HTML
        ))]
    ),
    route!(
        "/api/cms/callback",
        "cms",
        [limited(get(
            "finishCmsSignIn",
            "Finish the sign-in: a page handing the token to the CMS.",
            Serve::Handler(Handler::CmsCallback),
            HTML
        ))]
    ),
    route!(
        "/api/openapi.json",
        "discovery",
        [get("getOpenApi", "This API's OpenAPI 3.1 description.", AS_IS, OPENAPI)]
    ),
    route!(
        "/api/deprecation-policy",
        "discovery",
        [get("getDeprecationPolicy", "Versioning and deprecation policy.", JSON_FILE, JSON)]
    ),
    route!("/api/status", "discovery", [get("getStatus", "Health and discovery status.", JSON_FILE, JSON)]),
    route!(
        "/api/{collection}",
        "collections",
        [
            limited(get(
                "listCollection",
                "All published records of a collection.",
                Serve::FileUnlessQuery(
                    FileRule::Extension("json"),
                    &["limit", "offset", "filter", "sort", "fields"],
                    Handler::Collection
                ),
                JSON
            )),
            post("queryCollection", "A collection with optional metadata and stats.", Handler::Collection),
        ]
    ),
    route!(
        "/api/{collection}/_page/{name}",
        "collections",
        [get("getCollectionListingPage", "One static page of a collection's listing.", JSON_FILE, JSON)]
    ),
    route!(
        "/api/schemas/{name}",
        "collections",
        [get("getCollectionSchema", "The JSON Schema of a collection's records.", AS_IS, SCHEMA_JSON)]
    ),
    route!(
        "/api/{collection}/{slug+}",
        "collections",
        [get("getRecord", "One record with its rendered HTML.", JSON_FILE, JSON)]
    ),
    route!(
        "/mcp",
        "mcp",
        [
            get("getMcpDiscovery", "MCP discovery document.", Serve::Handler(Handler::Mcp), JSON),
            post("callMcp", "MCP JSON-RPC over Streamable HTTP.", Handler::Mcp),
        ]
    ),
    route!(
        "/.well-known/mcp",
        "mcp",
        [
            get("getWellKnownMcpDiscovery", "MCP discovery document.", Serve::Handler(Handler::Mcp), JSON),
            post("callWellKnownMcp", "MCP JSON-RPC over Streamable HTTP.", Handler::Mcp),
        ]
    ),
    route!("/mcp/server-card", "discovery", [get("getMcpServerCardAlias", "The MCP server card.", JSON_FILE, JSON)]),
    route!(
        "/.well-known/mcp/server-card.json",
        "discovery",
        [get("getMcpServerCard", "The MCP server card.", AS_IS, JSON)]
    ),
    route!(
        "/.well-known/api-catalog",
        "discovery",
        [get("getApiCatalog", "API catalog (RFC 9727 linkset).", JSON_FILE, API_CATALOG)]
    ),
    route!(
        "/.well-known/agent-skills/index.json",
        "discovery",
        [get("getAgentSkills", "Index of published agent skills.", AS_IS, JSON)]
    ),
    route!(
        "/.well-known/agent-skills/{name}/SKILL.md",
        "discovery",
        [get("getAgentSkill", "One agent skill.", AS_IS, MARKDOWN)]
    ),
    route!("/llms.txt", "discovery", [get("getLlmsTxt", "Plain-text summary for language models.", AS_IS, TEXT)]),
    // iCalendar feeds of the events (docs/spec/api-spec.md#calendar), before the pages' patterns.
    route!(
        "/events.ics",
        "calendar",
        [get("getEventsCalendar", "Every published event as iCalendar.", AS_IS, CALENDAR)]
    ),
    route!("/events/{slug+}.ics", "calendar", [get("getEventCalendar", "One event as iCalendar.", AS_IS, CALENDAR)]),
    route!("/", "pages", [page("getHomePage", "The home page.")]),
    route!("/api-docs", "pages", [page("getApiDocsPage", "The API documentation page.")]),
    route!(
        SEARCH,
        "pages",
        [limited(dynamic_page(
            "getSearchPage",
            "Search results as a page, grouped by collection.",
            Handler::SearchPage
        ))]
    ),
    route!(
        "/community-voices/new/sent",
        "pages",
        [dynamic_page("getVoiceSentPage", "The confirmation of a story sent with the form.", Handler::VoiceSent)]
    ),
    route!(
        VOICE_FORM,
        "pages",
        [
            dynamic_page("getVoiceFormPage", "The form to send a community story.", Handler::VoiceForm),
            form_post("postVoiceForm", "Send a community story from the form (urlencoded).", Handler::VoiceForm),
        ]
    ),
    route!(
        "/visit/sent",
        "pages",
        [dynamic_page("getVisitSentPage", "The confirmation of a visit booked with the form.", Handler::BookingSent)]
    ),
    route!(
        BOOKING_FORM,
        "pages",
        [
            dynamic_page("getVisitFormPage", "The form to book a visit.", Handler::BookingForm),
            form_post("postVisitForm", "Book a visit from the form (urlencoded).", Handler::BookingForm),
        ]
    ),
    route!(
        WEATHER,
        "pages",
        [dynamic_page(
            "getWeatherPage",
            "Today's weather, the forecast and the weather alerts as a page.",
            Handler::WeatherPage
        )]
    ),
    route!(MAP, "pages", [page("getMapPage", "A map of every published place, with the places by category.")]),
    route!("/map/category/{name}", "pages", [page("getMapCategoryPage", "The map of one category's places.")]),
    route!("/map/zone/{name}", "pages", [page("getMapZonePage", "The map of one zone's places.")]),
    route!("/places/{name}", "pages", [page("getPlacePage", "One place: its properties and a small map.")]),
    route!(ENCYCLOPEDIA, "pages", [page("getEncyclopediaPage", "The encyclopedia index page.")]),
    route!(
        "/encyclopedia/{name}",
        "pages",
        [content_page(page("getEncyclopediaEntryPage", "An encyclopedia entry's page."))]
    ),
    route!("/tags", "pages", [page("getTagsPage", "Every tag with how many records carry it.")]),
    route!("/tags/{name}", "pages", [page("getTagPage", "The records carrying one tag, across collections.")]),
    route!("/tags/{name}/page/{name}", "pages", [page("getTagPageNumber", "A further page of a tag's records.")]),
    route!("/categories", "pages", [page("getCategoriesPage", "Every category with how many records it has.")]),
    route!(
        "/categories/{name}",
        "pages",
        [page("getCategoryPage", "The records of one category, across collections.")]
    ),
    route!(
        "/categories/{name}/page/{name}",
        "pages",
        [page("getCategoryPageNumber", "A further page of a category's records.")]
    ),
    route!(DATA, "pages", [page("getDataPage", "The data pages: each snapshot with its headline figures.")]),
    route!(
        "/data/{name}",
        "pages",
        [page("getDataSnapshotPage", "A snapshot's charts, with their numbers in tables.")]
    ),
    route!(ALERTS, "pages", [page("getAlertsPage", "The curated alerts, current ones first.")]),
    route!(
        "/{collection}/page/{name}",
        "pages",
        [page(
            "getCollectionPageNumber",
            "A further page of a collection's listing (past pagination.page_size items)."
        )]
    ),
    route!(
        "/pages/{slug+}",
        "pages",
        [get(
            "redirectPage",
            "Permanent redirect to the page's canonical URL.",
            Serve::Handler(Handler::PageRedirect),
            HTML
        )]
    ),
    route!("/{collection}", "pages", [page("getCollectionPage", "A collection's listing page.")]),
    route!("/{collection}/{slug+}", "pages", [content_page(page("getRecordPage", "A record's page."))]),
    route!(
        "/{slug+}",
        "pages",
        [content_page(get(
            "getPage",
            "A markdown reference page or another built file.",
            Serve::File(FileRule::PageOrAsIs),
            HTML
        ))]
    ),
];

/// The values a pattern's placeholders took on a path.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Params {
    /// `{collection}`
    pub collection: Option<String>,
    /// `{name}`
    pub name: Option<String>,
    /// `{slug+}`, segments joined with `/`.
    pub slug: Option<String>,
}

/// Where the machine-facing API lives: paths under these are never pages (no page route matches
/// them, and their errors are problem documents, never the site's 404 page).
pub const API_PREFIXES: &[&str] = &["/api", "/.well-known", "/mcp", "/_portal"];

/// Whether `path` belongs to the machine-facing API (see [`API_PREFIXES`]).
pub fn is_api_path(path: &str) -> bool {
    API_PREFIXES.iter().any(|p| path.strip_prefix(p).is_some_and(|rest| rest.is_empty() || rest.starts_with('/')))
}

/// The first route whose pattern matches `path`, with its parameters (routes of pages never
/// match a path of the API); the table compiled for speed in `routing::matcher`.
pub fn find(path: &str) -> Option<(&'static Route, Params)> {
    crate::routing::matcher::find(path)
}

impl Route {
    /// The operation for `method` (HEAD is served by GET).
    pub fn operation(&self, method: &str) -> Option<&'static Operation> {
        let method = if method == "HEAD" { "GET" } else { method };
        self.operations.iter().find(|op| op.method == method)
    }

    /// The `Allow` header value: the route's methods, HEAD with GET, and OPTIONS (answered everywhere).
    pub fn allow(&self) -> String {
        let mut methods: Vec<&str> = Vec::new();
        for op in self.operations {
            methods.push(op.method);
            if op.method == "GET" {
                methods.push("HEAD");
            }
        }
        methods.push("OPTIONS");
        methods.join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::http::media;
    use crate::routing::*;

    fn pattern_of(path: &str) -> Option<&'static str> {
        find(path).map(|(route, _)| route.pattern)
    }

    #[test]
    fn a_page_introduces_the_generated_page_at_its_url() {
        let built = |always| PageAt::Introduces { per_request: false, always };
        let handled = PageAt::Introduces { per_request: true, always: true };
        for (url, expected) in [
            ("/visit", handled.clone()),
            ("/search", handled.clone()),
            ("/community-voices/new", handled.clone()),
            ("/services", built(true)),
            ("/pages", built(true)),
            ("/tags", built(true)),
            ("/categories", built(true)),
            ("/encyclopedia", built(true)),
            ("/weather", handled.clone()),
            ("/map", built(false)),
            ("/data", built(false)),
            ("/alerts", built(false)),
            ("/data/population", built(false)),
            ("/map/category/water", built(false)),
            ("/places/bh-1", built(false)),
            ("/api-docs", built(true)),
            ("/tags/water", built(false)),
            ("/news/page/2", built(false)),
            ("/about", PageAt::Own),
            ("/about/team", PageAt::Own),
            ("/news/clinic", PageAt::Own),
            ("/encyclopedia/asylum", PageAt::Own),
        ] {
            assert_eq!(page_at(url), expected, "{url}");
        }
        for url in ["/api/x", "/api", "/assets/site.css", "/.well-known/x", "/llms.txt", "/mcp", "/pages/x", "/a.b"] {
            assert!(matches!(page_at(url), PageAt::Reserved(_)), "{url}: {:?}", page_at(url));
        }
    }

    #[test]
    fn specific_routes_win_over_placeholders() {
        assert_eq!(pattern_of("/api/search"), Some("/api/search"));
        assert_eq!(pattern_of("/api/services"), Some("/api/{collection}"));
        assert_eq!(pattern_of("/api/docs/api/getting-started"), Some("/api/{collection}/{slug+}"));
        assert_eq!(pattern_of("/api/encyclopedia/suggest"), Some("/api/encyclopedia/suggest"));
        assert_eq!(pattern_of("/api/encyclopedia/water/jsonld"), Some("/api/encyclopedia/{name}/jsonld"));
        assert_eq!(pattern_of("/api/nonsense"), None);
        assert_eq!(pattern_of("/about/team"), Some("/{slug+}"));
        assert_eq!(pattern_of("/news/x"), Some("/{collection}/{slug+}"));
        assert_eq!(pattern_of("/events/market-day.ics"), Some("/events/{slug+}.ics"));
        assert_eq!(pattern_of("/events/.ics"), Some("/{collection}/{slug+}"), "a slug is not empty");
        assert_eq!(pattern_of("/"), Some("/"));
        assert_eq!(pattern_of("/api/news/a//b"), None);
        assert_eq!(pattern_of("/news/page/2"), Some("/{collection}/page/{name}"));
        assert_eq!(pattern_of("/pages/page/2"), Some("/{collection}/page/{name}"), "before the page redirect");
        assert_eq!(pattern_of("/tags/water/page/2"), Some("/tags/{name}/page/{name}"));
        assert_eq!(pattern_of("/categories/health"), Some("/categories/{name}"));
        assert!(crate::routing::matcher::match_pattern("/api/status", "/api/status/").is_none());
        assert!(crate::routing::matcher::match_pattern("/api/{collection}", "/api/news/x").is_none());
        let params =
            crate::routing::matcher::match_pattern("/api/{collection}/{slug+}", "/api/docs/a/b").unwrap_or_default();
        assert_eq!((params.collection.as_deref(), params.slug.as_deref()), (Some("docs"), Some("a/b")));
    }

    #[test]
    fn the_route_table_names_the_file_and_type_of_every_built_path() {
        let cases = [
            ("/api/news", "api/news.json", media::JSON),
            ("/api/docs/a/b", "api/docs/a/b.json", media::JSON),
            ("/api/rss", "api/rss.xml", media::RSS),
            ("/api/encyclopedia/water/jsonld", "api/encyclopedia/water.jsonld", media::JSON_LD),
            ("/api/openapi.json", "api/openapi.json", media::OPENAPI),
            ("/.well-known/api-catalog", ".well-known/api-catalog.json", media::API_CATALOG),
            ("/llms.txt", "llms.txt", media::TEXT),
            ("/", "index.html", media::HTML),
            ("/news/page/2", "news/page/2.html", media::HTML),
            ("/about/team", "about/team.html", media::HTML),
            ("/media/well.jpg", "media/well.jpg", "image/jpeg"),
            ("/sitemap.xml", "sitemap.xml", media::XML),
            ("/events.ics", "events.ics", media::CALENDAR),
            ("/events/a/b.ics", "events/a/b.ics", media::CALENDAR),
        ];
        for (path, file, media) in cases {
            assert_eq!(output(path), Some((file.to_string(), media)), "{path}");
        }
        assert_eq!(output("/search"), None, "a handler answers it");
        for (path, file, _) in cases {
            let found = routes_of_file(file).contains(&path.to_string()) || format!("/{file}") == path;
            assert!(found, "{file} leads back to {path}");
        }
        assert!(routes_of_file("README").is_empty());
        assert!(routes_of_file(".hidden").is_empty());
    }

    #[test]
    fn api_paths_are_never_pages() {
        for path in ["/api", "/api/x", "/.well-known/x", "/mcp/x", "/_portal/manifest.json"] {
            assert!(is_api_path(path), "{path}");
            assert!(find(path).is_none_or(|(route, _)| route.tag != "pages"), "{path}");
        }
        assert!(!is_api_path("/apis") && !is_api_path("/mcpx"));
    }

    #[test]
    fn nested_slugs_are_captured_whole() {
        let (_, params) = find("/api/docs/a/b").expect("route");
        assert_eq!(params.collection.as_deref(), Some("docs"));
        assert_eq!(params.slug.as_deref(), Some("a/b"));
    }

    #[test]
    fn operation_ids_are_unique() {
        let mut ids: Vec<&str> = ROUTES.iter().flat_map(|r| r.operations.iter().map(|o| o.operation_id)).collect();
        let before = ids.len();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), before);
    }

    #[test]
    fn allow_lists_head_and_options() {
        let (route, _) = find("/api/services").expect("route");
        assert_eq!(route.allow(), "GET, HEAD, POST, OPTIONS");
    }
}
