//! The site's page URLs: the pages core and the build link to by name (the forms, weather, search,
//! the map, the data and alerts pages), and what a content page at a URL is. Every other module
//! takes a page's URL from here; the route table serves them.

use super::files::FileRule;
use super::{find, is_api_path, Handler, Serve};

/// The search page.
pub const SEARCH: &str = "/search";
/// The weather page.
pub const WEATHER: &str = "/weather";
/// The map of places.
pub const MAP: &str = "/map";
/// The encyclopedia's index.
pub const ENCYCLOPEDIA: &str = "/encyclopedia";
/// The data pages' index (each snapshot at `/data/<name>`).
pub const DATA: &str = "/data";
/// The curated alerts.
pub const ALERTS: &str = "/alerts";

/// The story form's page.
pub const VOICE_FORM: &str = "/community-voices/new";
/// The booking form's page.
pub const BOOKING_FORM: &str = "/visit";
/// The pages of the forms, which pages link and the sitemap lists.
pub const FORM_PAGES: [&str; 2] = [VOICE_FORM, BOOKING_FORM];

/// What a page of the `pages` collection is at its URL (see
/// docs/content.md#pages-at-generated-urls): a page site authors write at `/services` or `/visit`
/// introduces the page the site generates there, rather than breaking the build; only a path that
/// is a file or the API's is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PageAt {
    /// A page of its own (the catch-all), or the URL of another record (two records claiming one
    /// URL are caught where outputs are compared).
    Own,
    /// The URL of a page the site generates: the content page becomes its introduction.
    Introduces {
        /// The page is rendered per request by a handler (search, forms), not by the build.
        per_request: bool,
        /// The site generates the page whatever its content (a collection's listing, `/tags`),
        /// not only when a term or a further page exists (`/tags/<name>`, `/news/page/2`).
        always: bool,
    },
    /// A path no page may take (a file, the API, a redirect): what it is.
    Reserved(String),
}

/// Where the theme's assets live: no page may be published under it.
pub const ASSETS_PREFIX: &str = "/assets/";

/// What a content page at `url` is (see [`PageAt`]).
pub fn page_at(url: &str) -> PageAt {
    let reserved = |what: &str| PageAt::Reserved(what.to_string());
    if is_api_path(url) {
        return reserved("a path of the API");
    }
    if url.starts_with(ASSETS_PREFIX) {
        return reserved("where the theme's files are published");
    }
    let Some((route, _)) = find(url) else { return reserved("not a path any page can be served at") };
    let Some(operation) = route.operation("GET").filter(|_| route.tag == "pages") else {
        return reserved(&format!("`{}`", route.pattern));
    };
    match operation.serve {
        Serve::File(FileRule::PageOrAsIs) if FileRule::PageOrAsIs.apply(url).1.is_some() => {
            reserved("the path of a file (its last part has an extension)")
        }
        _ if operation.content => PageAt::Own,
        Serve::Handler(Handler::PageRedirect) => reserved("redirected to the page at the site's root"),
        Serve::Handler(_) => PageAt::Introduces { per_request: true, always: true },
        _ => PageAt::Introduces {
            per_request: false,
            always: !route.pattern.contains("{name}") && !GENERATED_FOR_SOME_SITES.contains(&route.pattern),
        },
    }
}

/// Built pages the site generates only when it has what they show: `/data` for data snapshots,
/// `/alerts` for alerts, `/map` for places. Without that, a content page at the same URL (a
/// privacy page `pages/data.md`) is a page of its own rather than the introduction of an empty one
/// (docs/content.md#pages-at-generated-urls).
pub const GENERATED_FOR_SOME_SITES: &[&str] = &[DATA, ALERTS, MAP];
