//! Content pages at the URL of a page the site generates (docs/content.md#pages-at-generated-urls):
//! `pages/services.md` introduces the services listing, `pages/visit.md` the booking form. The
//! generated page takes the content page's title, summary and body above what it shows; the content
//! page has no page of its own and is not listed under `/pages`. A page at a file's or the API's
//! path is a content error.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::sync::Mutex;

use portal_core::content::collections::PAGES;
use portal_core::content::help::{marks_help, HELP_URL};
use portal_core::content::{ContentError, HelpPage, Intro, Record};
use portal_core::routing::{page_at, PageAt};

use super::body;
use crate::load::records::key_line;
use crate::load::Content;

/// A content page at a URL the site may generate.
#[derive(Debug, Clone)]
pub struct Candidate {
    /// What the generated page shows of it.
    pub intro: Intro,
    /// Rendered per request (the search page, the forms), so it goes into the manifest.
    pub per_request: bool,
    /// The site generates a page there whatever its content (see `PageAt::Introduces`).
    pub always: bool,
}

/// The pages of `content` at the URLs of generated pages, by URL, and an error for each page at
/// a file's or the API's path.
pub fn candidates(content: &Content) -> anyhow::Result<(BTreeMap<String, Candidate>, Vec<ContentError>)> {
    let mut found = BTreeMap::new();
    let mut errors = Vec::new();
    content.each_batch(PAGES, crate::build::write::sink::BATCH, |batch| {
        for record in batch {
            visit(record, content, &mut found, &mut errors);
        }
        Ok(())
    })?;
    Ok((found, errors))
}

/// Notes `record` (of `pages`) as a candidate or an error, by where it is published.
fn visit(record: &Record, content: &Content, found: &mut BTreeMap<String, Candidate>, errors: &mut Vec<ContentError>) {
    match page_at(&record.url) {
        PageAt::Own => {}
        PageAt::Introduces { per_request, always } => {
            let intro = intro_of(record, content);
            found.insert(record.url.clone(), Candidate { intro, per_request, always });
        }
        PageAt::Reserved(what) => errors.push(ContentError::new(
            &record.file,
            key_line(Path::new(&record.file), "slug"),
            format!(
                "this page would be published at {}, which is {what}; rename the file (or set `slug:`)",
                record.url
            ),
        )),
    }
}

fn intro_of(record: &Record, content: &Content) -> Intro {
    Intro {
        title: record.title.clone(),
        summary: record.summary.clone(),
        html: body::prepare(record.html.as_deref().unwrap_or(""), &content.strings, &content.statics),
        markdown: crate::sanitize::twin_body(&content.site.markdown, record.body.as_deref().unwrap_or_default()),
    }
}

/// The site's help page (docs/content.md#the-help-page): the first page that says `help: true`,
/// else the page at [`HELP_URL`].
pub fn help_page(content: &Content) -> anyhow::Result<Option<HelpPage>> {
    let (mut marked, mut at_url) = (None, None);
    content.each_batch(PAGES, crate::build::write::sink::BATCH, |batch| {
        for record in batch.iter().filter(|r| !r.draft) {
            if marked.is_none() && marks_help(record) {
                marked = Some(HelpPage::of(record));
            } else if at_url.is_none() && record.url == HELP_URL {
                at_url = Some(HelpPage::of(record));
            }
        }
        Ok(())
    })?;
    Ok(marked.or(at_url))
}

/// The candidates of a build, and which of them a generated page took.
#[derive(Debug, Default)]
pub struct Intros {
    by_url: BTreeMap<String, Candidate>,
    used: Mutex<BTreeSet<String>>,
    /// The site's help page, for the manifest (see [`help_page`]).
    pub help: Option<HelpPage>,
}

impl Intros {
    /// The intros of `content`'s pages (errors are reported by the build's check).
    pub fn of(content: &Content) -> anyhow::Result<Self> {
        Ok(Intros::new(candidates(content)?.0).with_help(help_page(content)?))
    }

    /// The intros of `found` (the first part of [`candidates`]).
    pub fn new(found: BTreeMap<String, Candidate>) -> Self {
        Intros { by_url: found, used: Mutex::default(), help: None }
    }

    /// The same, with the site's help page.
    pub fn with_help(self, help: Option<HelpPage>) -> Self {
        Intros { help, ..self }
    }

    /// The intros of the pages rendered per request, for the manifest.
    pub fn per_request(&self) -> BTreeMap<String, Intro> {
        let found = self.by_url.iter().filter(|(_, c)| c.per_request);
        found.map(|(url, c)| (url.clone(), c.intro.clone())).collect()
    }

    /// The intro of the generated page at `url`, if a content page is there; remembered as taken.
    pub fn take(&self, url: &str) -> Option<&Intro> {
        let candidate = self.by_url.get(url)?;
        if let Ok(mut used) = self.used.lock() {
            used.insert(url.to_string());
        }
        Some(&candidate.intro)
    }

    /// Whether the content page at `url` introduces a generated page rather than having its own:
    /// always for pages generated whatever the content, else once such a page took it.
    pub fn introduces(&self, url: &str) -> bool {
        self.by_url
            .get(url)
            .is_some_and(|c| c.per_request || c.always || self.used.lock().is_ok_and(|used| used.contains(url)))
    }
}
