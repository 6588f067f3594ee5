//! Outputs the build must not write: two that claim one URL or one file, a record's page at a URL
//! the route table gives to a handler (a community voice with the slug `new`), so that it would
//! never be served, and a file over Cloudflare's 25 MiB limit for one asset. Each is a content
//! error naming the content file at fault and what it collides with; `check` and `build` find them
//! alike, because both render everything. (A page of the `pages` collection at such a URL never
//! gets here: it introduces the page there, see `pages::intro`.)

use std::path::Path;

use portal_core::content::ContentError;
use portal_core::dist::manifest::MAX_FILE_BYTES;
use portal_core::routing::{self, Serve};

use crate::build::documents::statics;
use crate::build::write::claims::Claims;
use crate::build::write::file::Group;
use crate::build::write::written::Written;
use crate::build::BuildError;
use crate::load::records::key_line;
use crate::load::statics::StaticFiles;

/// How an output is named in a message: its content file, else the build's own file.
fn describe(file: &Written) -> String {
    match file.source() {
        Some(source) => source.to_string(),
        None => format!("the build's {}", file.file()),
    }
}

/// Where an error about `file` is reported: its content file at its `slug:` line (else line 1), or
/// `other`'s when `file` has none.
fn at(file: &Written, other: Option<&Written>, message: String) -> ContentError {
    let source = file.source().or_else(|| other.and_then(|o| o.source()));
    match source {
        Some(source) => ContentError::new(source, key_line(Path::new(source), "slug"), message),
        None => ContentError::new(file.file(), 1, message),
    }
}

/// Every collision among `files`: one error per content file at fault (a page and its markdown
/// twin collide together).
pub fn check<'a>(files: impl IntoIterator<Item = &'a Written>) -> Vec<ContentError> {
    let files: Vec<&Written> = files.into_iter().collect();
    let mut errors = Vec::new();
    let (mut routes, mut paths) = (Claims::new(), Claims::new());
    let mut big = Vec::new();
    for (i, &file) in (0..=u32::MAX).zip(&files) {
        let route = file.route();
        let before = |j: u32| files[j as usize];
        let claimed = routes.claim(&files, i, route_of).and_then(|j| Some((route?, before(j))));
        let written = paths.claim(&files, i, file_of).map(before);
        if let Some((route, first)) = claimed {
            let message = format!("{} both claim the URL {route}; rename one (or set `slug:`)", pair(file, first));
            errors.push(at(file, Some(first), message));
        } else if let Some(first) = written {
            let message = format!("{} would both be written to {}; rename one", pair(file, first), file.file());
            errors.push(at(file, Some(first), message));
        } else if let Some(owner) = route.and_then(handler_of) {
            let message = format!(
                "{} would be published at {}, which is {owner}; rename it (or set `slug:`)",
                subject(file),
                route.unwrap_or_default()
            );
            errors.push(at(file, None, message));
        }
        // One record's output over the limit is the record's to fix; an output made of many
        // records (a listing, the flat search index) is written in parts for hosts with the limit
        // instead (`portal_core::dist::parts`).
        if file.source().is_some() && file.len > MAX_FILE_BYTES as u64 {
            big.push(file);
        }
    }
    errors.extend(big.into_iter().map(|f| {
        let mib = f.len as f64 / (1024.0 * 1024.0);
        let message = format!(
            "{} makes {}, {mib:.1} MiB: over the 25 MiB a host like Cloudflare serves as one file; make it smaller \
             (or split it)",
            subject(f),
            f.file()
        );
        at(f, None, message)
    }));
    errors.sort();
    errors.dedup_by(|a, b| a.file == b.file && a.line == b.line);
    errors
}

/// The URL a file claims, if it is served at one.
fn route_of<'a>(file: &'a &Written) -> Option<&'a str> {
    file.route()
}

/// The path a file claims in the output folder.
fn file_of<'a>(file: &'a &Written) -> Option<&'a str> {
    Some(file.file())
}

/// Two colliding outputs, the one whose content file the error names first ("this file and ...").
fn pair(file: &Written, other: &Written) -> String {
    match (file.source(), other.source()) {
        (None, Some(_)) => format!("this file and {}", describe(file)),
        _ => format!("{} and {}", subject(file), describe(other)),
    }
}

/// How the output an error is reported at is named in it: "this file" when the error names its
/// content file, else what [`describe`] says.
fn subject(file: &Written) -> String {
    if file.source().is_some() {
        "this file".to_string()
    } else {
        describe(file)
    }
}

/// The problems of a clean build's outputs as a whole: static files that clash with built files,
/// URLs two outputs claim, pages at paths no page may take (`reserved`, found before the pages were
/// made).
pub(crate) fn check_outputs(
    statics: &StaticFiles,
    reserved: Vec<ContentError>,
    made: &[Written],
) -> Result<(), BuildError> {
    statics::check_clashes(made, statics)?;
    // A page at a path no page may take says so, rather than that it collides with what is there
    // (`reserved`: the content pages at such paths).
    let mut collisions = reserved;
    collisions.extend(check(made.iter().filter(|w| w.group != Group::Statics)));
    if !collisions.is_empty() {
        collisions.sort_by(|a, b| (&a.file, a.line).cmp(&(&b.file, b.line)));
        collisions.dedup_by(|a, b| a.file == b.file && a.line == b.line);
        return Err(BuildError::Content(collisions));
    }
    Ok(())
}

/// What answers `route` when a handler of the route table does (a page built there would never
/// be served).
pub fn handler_of(route: &str) -> Option<String> {
    let (found, _) = routing::find(route)?;
    let operation = found.operation("GET")?;
    matches!(operation.serve, Serve::Handler(_))
        .then(|| format!("`{}`: {}", found.pattern, operation.summary.trim_end_matches('.')))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::build::write::file::OutFile;

    fn page(route: &str, file: &str, source: Option<&str>) -> Written {
        let mut out = OutFile::served(route, file, "text/html; charset=utf-8", Vec::new());
        out.source = source.map(str::to_string);
        Written::of(&out)
    }

    #[test]
    fn a_page_against_a_listing_names_the_file() {
        let errors = check(&[page("/news", "news.html", None), page("/news", "news-page.html", Some("pages/news.md"))]);
        assert_eq!(errors.len(), 1);
        assert_eq!(errors[0].file, "pages/news.md");
        assert!(errors[0].message.contains("the build's news.html"), "{}", errors[0].message);
    }

    #[test]
    fn a_file_over_25_mib_is_an_error_naming_its_record() {
        let mut big = page("/news/huge", "news/huge.html", Some("news/huge.md"));
        big.len = MAX_FILE_BYTES as u64 + 1;
        let errors = check(&[big]);
        assert_eq!(errors.len(), 1);
        assert!(errors[0].file == "news/huge.md" && errors[0].message.contains("25 MiB"), "{errors:?}");
        let mut listing = page("/news", "news.html", None);
        listing.len = MAX_FILE_BYTES as u64 + 1;
        assert!(check(&[listing]).is_empty(), "an output of many records is written in parts instead");
    }

    #[test]
    fn a_record_where_a_handler_answers_is_a_collision() {
        let errors =
            check(&[page("/community-voices/new", "community-voices/new.html", Some("community-voices/new.md"))]);
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert!(errors[0].message.contains("`/community-voices/new`"), "{}", errors[0].message);
        assert!(check(&[page("/news/new", "news/new.html", Some("news/new.md"))]).is_empty());
    }
}
