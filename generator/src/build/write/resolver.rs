//! The file of each URL of a build, for rewriting the links of its pages as they are written
//! ([`super::links`]): an index into the files written, a few bytes a URL where a map of strings
//! would hold a copy of both (a million-record build has some three million URLs), and the URLs
//! of the pages still to be made, whose files follow from them.

use std::collections::HashSet;

use crate::build::write::claims::Claims;
use crate::build::write::links::Resolve;
use crate::build::write::written::Written;

/// Which of the files written serves each URL (the last handed over, when two claim one; the build
/// reports that as an error later, see [`super::collisions`]).
pub struct RouteIndex(Claims);

impl RouteIndex {
    /// The index of `made`, the files written so far.
    pub fn of(made: &[Written]) -> RouteIndex {
        let mut claims = Claims::new();
        for (i, _) in (0..=u32::MAX).zip(made) {
            claims.claim(made, i, Written::route);
        }
        RouteIndex(claims)
    }

    /// What resolves URLs among `made` (the files the index was made of, and any written since)
    /// and the pages `coming`, which take precedence.
    pub fn view<'a>(&'a self, made: &'a [Written], coming: Option<&'a HashSet<&'a str>>) -> View<'a> {
        View { index: self, made, coming }
    }
}

/// A [`RouteIndex`] with the files it points into.
pub struct View<'a> {
    index: &'a RouteIndex,
    made: &'a [Written],
    coming: Option<&'a HashSet<&'a str>>,
}

impl Resolve for View<'_> {
    fn file_of(&self, route: &str) -> Option<String> {
        if self.coming.is_some_and(|coming| coming.contains(route)) {
            return Some(portal_core::routing::page_file(route));
        }
        self.index.0.find(self.made, route, Written::route).map(|file| file.file().to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::build::write::file::OutFile;

    fn written(route: &str, file: &str) -> Written {
        Written::of(&OutFile::served(route, file, "text/html; charset=utf-8", Vec::new()))
    }

    #[test]
    fn a_url_resolves_to_the_last_file_handed_over_for_it_and_coming_pages_first() {
        let made = vec![written("/a", "a-1.html"), written("/b", "b.html"), written("/a", "a-2.html")];
        let index = RouteIndex::of(&made);
        let view = index.view(&made, None);
        assert_eq!(view.file_of("/a").as_deref(), Some("a-2.html"));
        assert_eq!(view.file_of("/b").as_deref(), Some("b.html"));
        assert_eq!(view.file_of("/c"), None);
        let coming: HashSet<&str> = ["/b", "/news/x"].into_iter().collect();
        let view = index.view(&made, Some(&coming));
        assert_eq!(view.file_of("/b"), Some(portal_core::routing::page_file("/b")));
        assert_eq!(view.file_of("/news/x"), Some(portal_core::routing::page_file("/news/x")));
        assert_eq!(view.file_of("/a").as_deref(), Some("a-2.html"));
    }
}
