//! What the hosts that serve a build need besides its files: `_headers` for a CDN (`cdn`), the
//! nginx snippet (`nginx`) and the layout of a Worker deploy's upload ([`upload`]).

pub(crate) mod cdn;
pub(crate) mod nginx;
pub mod upload;

use portal_core::dist::manifest::{Manifest, Routes};
use portal_core::routing::ROUTES;

use crate::build::write::file::{Group, OutFile};

/// `_headers` and the nginx snippet over `own`, the URLs that may need rules of their own (not
/// those of records, see `Group::record_scale`): made alike by clean builds and rebuilds.
pub fn files(manifest: &Manifest, own: &Routes) -> [OutFile; 2] {
    [cdn::headers_file(manifest, own), nginx::snippet(manifest, own)].map(|f| f.in_group(Group::Layout))
}

/// The files of one route of the table, as patterns: what a host needs to give every file of a
/// route its media type without a rule per URL (the URLs of records are too many for one each).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct FilePattern {
    /// The route's pattern, e.g. `/api/encyclopedia/{name}/jsonld`.
    pub url: &'static str,
    /// The pattern of its files, by the route's file rule: `api/encyclopedia/{name}.jsonld`.
    pub file: String,
    /// Their media type.
    pub content_type: &'static str,
}

/// Every route answered from a built file, with its files' pattern (`routing::output` over the
/// route's pattern, placeholders kept): the one source of the hosts' rules by pattern.
pub(crate) fn file_patterns() -> Vec<FilePattern> {
    let served = ROUTES.iter().filter_map(|route| Some((route, route.operation("GET")?)));
    served
        .filter_map(|(route, op)| {
            let (file, media) = op.serve.file_rule()?.apply(route.pattern);
            Some(FilePattern { url: route.pattern, file, content_type: media.unwrap_or(op.content_type) })
        })
        .collect()
}

/// `pattern` (a route's or its files' pattern) with the text between placeholders passed through
/// `text` and each placeholder (`{name}`, `{slug+}`) replaced by `placeholder(name, n)`, `n`
/// counting them from 1: the one walk the hosts' patterns (`_headers` splats, nginx regular
/// expressions and their captures) are written with.
pub(crate) fn rewrite(
    pattern: &str,
    text: impl Fn(&str) -> String,
    placeholder: impl Fn(&str, usize) -> String,
) -> String {
    let mut out = String::with_capacity(pattern.len());
    let mut rest = pattern;
    let mut n = 0;
    while let Some((before, after)) = rest.split_once('{') {
        n += 1;
        out.push_str(&text(before));
        let (name, tail) = after.split_once('}').unwrap_or((after, ""));
        out.push_str(&placeholder(name, n));
        rest = tail;
    }
    out.push_str(&text(rest));
    out
}
