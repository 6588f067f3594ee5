//! File rules: where the build writes the file of a URL path, and which route a built file
//! answers for. The build, both servers, the CDN's `_headers` and the nginx snippet follow them.

use super::{find, Serve};
use crate::http::media;

/// Where the build writes the file of a URL path: the one rule the build, the servers and the
/// nginx snippet follow.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileRule {
    /// The path with an extension: `/api/news` is `api/news.json`.
    Extension(&'static str),
    /// The path itself: `/llms.txt` is `llms.txt`.
    AsIs,
    /// A page: `/` is `index.html`, `/a/b` is `a/b.html` (a file named after its URL, so relative
    /// links resolve alike on the web and in an unpacked copy).
    Page,
    /// The path without a last segment, with an extension: `/api/encyclopedia/water/jsonld` is
    /// `api/encyclopedia/water.jsonld`.
    ReplaceLast(&'static str),
    /// A file published as it is when its last segment has an extension (`/media/well.jpg`,
    /// typed by it), else a page.
    PageOrAsIs,
}

impl FileRule {
    /// The file of `path` (a route's path, starting with `/`), and its media type when the rule
    /// rather than the route decides it (a file published as it is).
    pub fn apply(self, path: &str) -> (String, Option<&'static str>) {
        let trimmed = path.trim_start_matches('/');
        match self {
            FileRule::Extension(extension) => (format!("{trimmed}.{extension}"), None),
            FileRule::AsIs => (trimmed.to_string(), None),
            FileRule::Page => (page_file(path), None),
            FileRule::ReplaceLast(extension) => {
                let parent = trimmed.rsplit_once('/').map_or(trimmed, |(parent, _)| parent);
                (format!("{parent}.{extension}"), None)
            }
            FileRule::PageOrAsIs => {
                let last = trimmed.rsplit('/').next().unwrap_or(trimmed);
                if last.contains('.') {
                    (trimmed.to_string(), Some(media::of_file(last)))
                } else {
                    (page_file(path), None)
                }
            }
        }
    }
}

impl Serve {
    /// The rule naming the built file an operation answers from, unless a handler always answers.
    pub fn file_rule(self) -> Option<FileRule> {
        match self {
            Serve::File(rule) | Serve::FileUnlessQuery(rule, ..) | Serve::FileUnlessAnyQuery(rule, _) => Some(rule),
            Serve::Handler(_) => None,
        }
    }
}

/// The routes whose file [`FileRule::apply`] could name `file` (`services/clinic.html` is the
/// file of `/services/clinic`, `api/encyclopedia/water.jsonld` of `/api/encyclopedia/water/jsonld`):
/// candidates, for answering a built file at its own path too. A file with no extension is only
/// ever its own route, so it has none.
pub fn routes_of_file(file: &str) -> Vec<String> {
    if file == "index.html" {
        return vec!["/".to_string()];
    }
    let last = file.rsplit('/').next().unwrap_or(file);
    let Some((stem, extension)) = last.rsplit_once('.').filter(|(stem, _)| !stem.is_empty()) else {
        return Vec::new();
    };
    let parent = &file[..file.len() - last.len()];
    vec![format!("/{parent}{stem}"), format!("/{parent}{stem}/{extension}")]
}

/// The file of the HTML page served at `route`: `/` is `index.html`, `/a/b` is `a/b.html`.
pub fn page_file(route: &str) -> String {
    match route.trim_matches('/') {
        "" => "index.html".to_string(),
        path => format!("{path}.html"),
    }
}

/// The file and media type of what the build writes for `path`, by the route table: `None` when
/// no route serves `path` from a file.
pub fn output(path: &str) -> Option<(String, &'static str)> {
    let (route, _) = find(path)?;
    let operation = route.operation("GET")?;
    let (file, media) = operation.serve.file_rule()?.apply(path);
    Some((file, media.unwrap_or(operation.content_type)))
}
