//! The 19 content collections (docs/spec/api-spec.md#collections): their names, defined once, and
//! the lookup helpers that the loader, the route table and the error messages share.

/// Every collection name, in the order of docs/spec/api-spec.md#collections. This is the only list; everything
/// else derives from it.
pub const COLLECTIONS: [&str; 19] = [
    "services",
    "resources",
    "events",
    "photos",
    "jobs",
    "news",
    "courses",
    "community-voices",
    "profiles",
    "talents",
    "marketplace",
    "stores",
    "rights",
    "artists",
    "artworks",
    "poets",
    "dancers",
    "docs",
    "pages",
];

/// What each collection holds (docs/spec/api-spec.md#collections), in [`COLLECTIONS`] order, for
/// docs and discovery files.
pub const DESCRIPTIONS: [&str; 19] = [
    "published service organisations and support listings",
    "published resources, documents, downloads",
    "published community events and activity listings",
    "photo gallery items and metadata",
    "published job listings and opportunity notices",
    "published news articles and updates",
    "published e-learning course records and learning resources",
    "already-published community stories",
    "published skills exchange profiles",
    "talent directory records",
    "published marketplace product and service listings",
    "published marketplace stores and vendor storefronts",
    "published rights and legal guidance entries",
    "published artist profiles",
    "published artwork records",
    "published poet profiles and creative directory entries",
    "published dancer and dance crew profiles",
    "documentation pages from the docs content collection",
    "published markdown reference pages served through the catch-all page route",
];

/// The description of a collection.
pub fn description(name: &str) -> &'static str {
    COLLECTIONS.iter().position(|c| *c == name).map_or("", |i| DESCRIPTIONS[i])
}

/// The encyclopedia's name where a collection name is expected (search scopes, listings).
pub const ENCYCLOPEDIA: &str = "entries";

/// The collection whose records are served through the catch-all page route `/<slug>`.
pub const PAGES: &str = "pages";

/// Whether `name` is one of the 19 collections.
pub fn is_collection(name: &str) -> bool {
    COLLECTIONS.contains(&name)
}

/// The site-relative URL of a record's HTML page (docs/spec/api-spec.md#records: pages live at `/<slug>`, encyclopedia
/// entries at `/encyclopedia/<slug>`).
pub fn record_url(collection: &str, slug: &str) -> String {
    match collection {
        PAGES => format!("/{slug}"),
        ENCYCLOPEDIA => format!("/encyclopedia/{slug}"),
        _ => format!("/{collection}/{slug}"),
    }
}

/// The collection (or [`ENCYCLOPEDIA`]) and slug of the record whose page is at `url`: the
/// inverse of [`record_url`].
pub fn record_at(url: &str) -> Option<(&'static str, String)> {
    let path = url.strip_prefix('/').filter(|p| !p.is_empty())?;
    if let Some(slug) = path.strip_prefix("encyclopedia/").filter(|s| !s.is_empty()) {
        return Some((ENCYCLOPEDIA, slug.to_string()));
    }
    if let Some((first, slug)) = path.split_once('/').filter(|(_, slug)| !slug.is_empty()) {
        if let Some(collection) = COLLECTIONS.iter().find(|c| **c == first) {
            return Some((*collection, slug.to_string()));
        }
    }
    Some((PAGES, path.to_string()))
}

/// The URL path of a record's JSON (`/api/<collection>/<slug>`, `/api/encyclopedia/<slug>`).
pub fn record_api_path(collection: &str, slug: &str) -> String {
    let collection = if collection == ENCYCLOPEDIA { "encyclopedia" } else { collection };
    format!("/api/{collection}/{slug}")
}

/// The collection name closest to `name`, if one is close enough to be a plausible typo.
///
/// Used for the "did you mean" hint of 404 `collection_not_found`.
pub fn nearest_collection(name: &str) -> Option<&'static str> {
    crate::content::did_you_mean::nearest(name, COLLECTIONS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_typo_suggests_the_nearest_collection() {
        assert_eq!(nearest_collection("servces"), Some("services"));
        assert_eq!(nearest_collection("Event"), Some("events"));
        assert_eq!(nearest_collection("community-voice"), Some("community-voices"));
    }

    #[test]
    fn a_page_url_names_its_record() {
        for (collection, slug) in
            [("services", "clinic"), (PAGES, "about/team"), (ENCYCLOPEDIA, "asylum"), ("docs", "api/x")]
        {
            assert_eq!(record_at(&record_url(collection, slug)), Some((collection, slug.to_string())));
        }
        assert_eq!(record_at("/"), None);
        assert_eq!(record_api_path(ENCYCLOPEDIA, "asylum"), "/api/encyclopedia/asylum");
    }

    #[test]
    fn an_unrelated_name_suggests_nothing() {
        assert_eq!(nearest_collection("zzzzzzzzzz"), None);
    }

    #[test]
    fn pages_live_at_the_root() {
        assert_eq!(record_url("pages", "about/team"), "/about/team");
        assert_eq!(record_url("news", "x"), "/news/x");
        assert_eq!(record_url("entries", "asylum"), "/encyclopedia/asylum");
    }
}
