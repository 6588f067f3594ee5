//! Every media type the API and the site send, defined once: the types of the route table's
//! answers, and those of the files a site publishes as they are (`content/static/**`, image
//! variants), chosen by file extension. The build writes them into the manifest, so every server
//! sends the same `Content-Type`; the CDN rules and the nginx snippet derive theirs from it too.

/// JSON answers and files.
pub const JSON: &str = "application/json";
/// Problem documents (RFC 9457).
pub const PROBLEM_JSON: &str = "application/problem+json";
/// HTML pages.
pub const HTML: &str = "text/html; charset=utf-8";
/// Markdown twins of pages and agent skills.
pub const MARKDOWN: &str = "text/markdown; charset=utf-8";
/// Plain text (`llms.txt`, `robots.txt`).
pub const TEXT: &str = "text/plain; charset=utf-8";
/// The news feed.
pub const RSS: &str = "application/rss+xml; charset=utf-8";
/// Spatial data (RFC 7946).
pub const GEOJSON: &str = "application/geo+json";
/// Spatial data as rows.
pub const CSV: &str = "text/csv; charset=utf-8";
/// Encyclopedia entries as schema.org JSON-LD.
pub const JSON_LD: &str = "application/ld+json";
/// Events as iCalendar (RFC 5545): `/events.ics` and `/events/<slug>.ics`.
pub const CALENDAR: &str = "text/calendar; charset=utf-8";
/// The OpenAPI document.
pub const OPENAPI: &str = "application/openapi+json";
/// The OpenAPI 3.0 document of OGC API - Features: the type OGC API clients (OWSLib, GDAL) look for
/// on the landing page's `service-desc` link.
pub const OPENAPI_30: &str = "application/vnd.oai.openapi+json;version=3.0";
/// The API catalog: a linkset (RFC 9264) with the profile of RFC 9727.
pub const API_CATALOG: &str = "application/linkset+json; profile=\"https://www.rfc-editor.org/info/rfc9727\"";
/// JSON Schemas of records.
pub const SCHEMA_JSON: &str = "application/schema+json";
/// The sitemap.
pub const XML: &str = "application/xml";
/// SVG images (sandboxed when served on their own: see [`crate::http::headers::STATIC_SANDBOXED`]).
pub const SVG: &str = "image/svg+xml";

/// A media type without its parameters (`text/markdown` of `text/markdown; charset=utf-8`), as
/// `Accept` headers name it.
pub fn essence(media: &str) -> &str {
    media.split(';').next().unwrap_or(media).trim()
}

/// YAML (RFC 9512), such as the CMS's configuration (docs/editing.md).
pub const YAML: &str = "application/yaml; charset=utf-8";

/// The media type sent for an extension nobody knows: browsers download such files.
pub const UNKNOWN: &str = "application/octet-stream";

/// The media types of the files a build makes (those of static files are in [`BY_EXTENSION`]).
pub const KNOWN: &[&str] = &[
    JSON,
    PROBLEM_JSON,
    HTML,
    MARKDOWN,
    TEXT,
    RSS,
    GEOJSON,
    CSV,
    JSON_LD,
    CALENDAR,
    OPENAPI,
    OPENAPI_30,
    API_CATALOG,
    SCHEMA_JSON,
    XML,
    SVG,
    YAML,
    UNKNOWN,
];

/// (extension, media type): every extension the site's static files may have with a known type.
/// Text types say their charset, as the rest of the site does.
pub const BY_EXTENSION: &[(&str, &str)] = &[
    ("avif", "image/avif"),
    ("bmp", "image/bmp"),
    ("css", "text/css; charset=utf-8"),
    ("csv", "text/csv; charset=utf-8"),
    ("epub", "application/epub+zip"),
    ("geojson", "application/geo+json"),
    ("gif", "image/gif"),
    ("gpx", "application/gpx+xml"),
    ("htm", "text/html; charset=utf-8"),
    ("html", "text/html; charset=utf-8"),
    ("ico", "image/x-icon"),
    ("ics", CALENDAR),
    ("jpeg", "image/jpeg"),
    ("jpg", "image/jpeg"),
    ("js", "text/javascript; charset=utf-8"),
    ("json", "application/json"),
    ("kml", "application/vnd.google-earth.kml+xml"),
    ("m4a", "audio/mp4"),
    ("md", "text/markdown; charset=utf-8"),
    ("mjs", "text/javascript; charset=utf-8"),
    ("mp3", "audio/mpeg"),
    ("mp4", "video/mp4"),
    ("oga", "audio/ogg"),
    ("ogg", "audio/ogg"),
    ("ogv", "video/ogg"),
    ("opus", "audio/ogg"),
    ("otf", "font/otf"),
    ("pdf", "application/pdf"),
    ("png", "image/png"),
    ("svg", SVG),
    ("ttf", "font/ttf"),
    ("txt", "text/plain; charset=utf-8"),
    ("vtt", "text/vtt; charset=utf-8"),
    ("wasm", "application/wasm"),
    ("wav", "audio/wav"),
    ("weba", "audio/webm"),
    ("webm", "video/webm"),
    ("webmanifest", "application/manifest+json"),
    ("webp", "image/webp"),
    ("woff", "font/woff"),
    ("woff2", "font/woff2"),
    ("xml", "application/xml"),
    ("yaml", YAML),
    ("yml", YAML),
    ("zip", "application/zip"),
];

/// The media type of a file by the extension of its name (case-insensitive), else [`UNKNOWN`].
pub fn of_file(name: &str) -> &'static str {
    let file_name = name.rsplit('/').next().unwrap_or(name);
    let Some((_, extension)) = file_name.rsplit_once('.') else { return UNKNOWN };
    let extension = extension.to_ascii_lowercase();
    BY_EXTENSION.iter().find(|(e, _)| *e == extension).map_or(UNKNOWN, |(_, media)| media)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn types_follow_the_extension_whatever_its_case() {
        assert_eq!(of_file("media/well.jpg"), "image/jpeg");
        assert_eq!(of_file("media/Well.JPEG"), "image/jpeg");
        assert_eq!(of_file("docs/guide.pdf"), "application/pdf");
        assert_eq!(of_file("notes.txt"), "text/plain; charset=utf-8");
        assert_eq!(of_file("README"), UNKNOWN);
        assert_eq!(of_file("a.b/README"), UNKNOWN);
        assert_eq!(of_file("archive.tar.xz"), UNKNOWN);
    }

    #[test]
    fn the_table_is_sorted_and_has_no_duplicates() {
        let extensions: Vec<&str> = BY_EXTENSION.iter().map(|(e, _)| *e).collect();
        let mut sorted = extensions.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(extensions, sorted);
    }
}
