//! Finding the route of a path fast: [`crate::routing::ROUTES`] compiled once into patterns split
//! into segments, with, for each first segment a path can have, the routes that can match it in
//! table order. Servers run this on every request and the build on every file it writes; walking
//! all sixty patterns as text was a tenth of a server's time on a page.
//!
//! Choosing candidates by first segment must not change the answer: a test compares it with the
//! whole table walked in order, on every pattern's own paths and on odd ones. It owns no route of
//! its own.

use std::collections::HashMap;
use std::sync::OnceLock;

use crate::content::collections::is_collection;
use crate::routing::{is_api_path, Params, Route, ROUTES};

/// A segment of a pattern.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Segment {
    /// Text that must equal the path's segment.
    Literal(&'static str),
    /// `{collection}`: one of the collection names.
    Collection,
    /// `{name}`: any one segment.
    Name,
    /// `{slug+}` as the last segment: the rest of the path, one or more segments.
    Rest,
    /// `{slug+}.<extension>` as the last segment (`/events/{slug+}.ics`): the rest of the path
    /// ending in `.<extension>`, the slug without it.
    RestWith(&'static str),
}

/// A route with its pattern split.
#[derive(Debug)]
struct Compiled {
    route: &'static Route,
    /// The segments after the leading `/` (none for `/`).
    segments: Vec<Segment>,
}

/// The compiled table.
#[derive(Debug)]
struct Table {
    routes: Vec<Compiled>,
    /// For each literal first segment of some pattern: every route that can match a path starting
    /// with it (those starting with that literal, and those starting with a placeholder), in
    /// table order.
    by_first: HashMap<&'static str, Vec<usize>>,
    /// The routes starting with a placeholder, in table order: the candidates of any other path.
    open: Vec<usize>,
    /// The routes of `/`.
    root: Vec<usize>,
}

fn segments(pattern: &'static str) -> Vec<Segment> {
    if pattern == "/" {
        return Vec::new();
    }
    let parts: Vec<&'static str> = pattern.split('/').skip(1).collect();
    let last = parts.len().saturating_sub(1);
    parts
        .iter()
        .enumerate()
        .map(|(i, part)| match *part {
            "{collection}" => Segment::Collection,
            "{name}" => Segment::Name,
            "{slug+}" if i == last => Segment::Rest,
            part if i == last && part.starts_with("{slug+}.") => Segment::RestWith(&part["{slug+}".len()..]),
            literal => Segment::Literal(literal),
        })
        .collect()
}

fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(|| {
        let routes: Vec<Compiled> =
            ROUTES.iter().map(|route| Compiled { route, segments: segments(route.pattern) }).collect();
        let root = (0..routes.len()).filter(|&i| routes[i].segments.is_empty()).collect();
        let first = |i: usize| routes[i].segments.first().copied();
        let open: Vec<usize> =
            (0..routes.len()).filter(|&i| first(i).is_some_and(|s| !matches!(s, Segment::Literal(_)))).collect();
        let mut by_first: HashMap<&'static str, Vec<usize>> = HashMap::new();
        for i in 0..routes.len() {
            if let Some(Segment::Literal(literal)) = first(i) {
                by_first.entry(literal).or_default().push(i);
            }
        }
        for candidates in by_first.values_mut() {
            candidates.extend(&open);
            candidates.sort_unstable();
        }
        Table { routes, by_first, open, root }
    })
}

/// The first route whose pattern matches `path` (decoded, no trailing slash), with its parameters;
/// routes of pages never match a path of the API.
pub(crate) fn find(path: &str) -> Option<(&'static Route, Params)> {
    let table = table();
    let rest = path.strip_prefix('/')?;
    let candidates: &[usize] = if rest.is_empty() {
        &table.root
    } else {
        let first = rest.split('/').next().unwrap_or(rest);
        table.by_first.get(first).map_or(&table.open, Vec::as_slice)
    };
    let is_api = is_api_path(path);
    candidates
        .iter()
        .map(|&i| &table.routes[i])
        .filter(|compiled| !is_api || compiled.route.tag != "pages")
        .find_map(|compiled| matches(&compiled.segments, rest).map(|params| (compiled.route, params)))
}

/// Matches `path` (decoded, no trailing slash) against one `pattern` of the table's syntax.
#[cfg(test)]
pub(crate) fn match_pattern(pattern: &'static str, path: &str) -> Option<Params> {
    matches(&segments(pattern), path.strip_prefix('/')?)
}

/// Matches the path after its leading `/` against a pattern's segments.
fn matches(segments: &[Segment], path: &str) -> Option<Params> {
    if segments.is_empty() || path.is_empty() {
        return (segments.is_empty() && path.is_empty()).then(Params::default);
    }
    let mut params = Params::default();
    let mut rest = Some(path);
    for segment in segments {
        let remaining = rest?;
        let (is_rest, suffix) = match segment {
            Segment::Rest => (true, ""),
            Segment::RestWith(suffix) => (true, *suffix),
            _ => (false, ""),
        };
        if is_rest {
            let slug = remaining.strip_suffix(suffix)?;
            if slug.split('/').any(str::is_empty) {
                return None;
            }
            params.slug = Some(slug.to_string());
            return Some(params);
        }
        let (head, tail) = match remaining.split_once('/') {
            Some((head, tail)) => (head, Some(tail)),
            None => (remaining, None),
        };
        if head.is_empty() {
            return None;
        }
        match segment {
            Segment::Collection if is_collection(head) => params.collection = Some(head.to_string()),
            Segment::Name => params.name = Some(head.to_string()),
            Segment::Literal(literal) if *literal == head => {}
            _ => return None,
        }
        rest = tail;
    }
    rest.is_none().then_some(params)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The route table walked in order, every pattern tried: what `find`, which tries only the
    /// candidates of the path's first segment, must agree with.
    fn walked(path: &str) -> Option<(&'static str, Params)> {
        let is_api = is_api_path(path);
        ROUTES
            .iter()
            .filter(|route| !is_api || route.tag != "pages")
            .find_map(|route| match_pattern(route.pattern, path).map(|params| (route.pattern, params)))
    }

    /// Paths of every pattern with each placeholder filled in several ways, and odd paths.
    fn paths() -> Vec<String> {
        let fillers = ["news", "docs", "pages", "water", "page", "api", "2", "a.b", ""];
        let mut out: Vec<String> =
            ["", "/", "//", "/api", "/api/", "/news//x", "/x/y/z", "api/news", "/mcp", "/_portal/x"]
                .iter()
                .map(|p| p.to_string())
                .collect();
        for route in ROUTES {
            for fill in fillers {
                let path = route
                    .pattern
                    .replace("{collection}", fill)
                    .replace("{name}", fill)
                    .replace("{slug+}", &format!("{fill}/deeper"));
                out.push(path.clone());
                out.push(format!("{path}/more"));
                out.push(route.pattern.replace("{slug+}", fill).replace("{collection}", "services"));
            }
        }
        out
    }

    #[test]
    fn the_candidates_of_a_first_segment_answer_what_the_whole_table_answers() {
        for path in paths() {
            let compiled = find(&path).map(|(route, params)| (route.pattern, params));
            assert_eq!(compiled, walked(&path), "{path:?}");
        }
    }
}
