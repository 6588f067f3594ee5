//! `sitemap.xml`: every page's URL. The sitemaps protocol takes at most 50,000 URLs (and 50 MB) a
//! file, so a bigger site gets a sitemap index at `/sitemap.xml` naming one sitemap per section (a
//! collection, the encyclopedia, tags, categories, the rest), each in files of at most 50,000 URLs
//! at `/sitemaps/<section>-<n>.xml`. A section's files change only when its pages come or go.

use std::collections::{BTreeMap, HashMap};

use anyhow::Result;
use portal_core::routing;

use crate::build::write::file::OutFile;
use crate::images::encode_path;

/// The most URLs one sitemap file may hold (sitemaps.org).
pub const MAX_URLS: usize = 50_000;

const HEAD: &str = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
const XMLNS: &str = "xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"";

/// When each page last changed, for `<lastmod>`: a record's or an entry's `updated`, else its
/// `date`, in the W3C datetime form the sitemaps protocol asks for (`2026-10-14` for a date,
/// `2026-10-14T06:30:00Z` for a time). Pages without one (listings, tags) get none.
#[derive(Debug, Default)]
pub struct LastMod(HashMap<String, String>);

impl LastMod {
    /// The dates of every card of `model`.
    pub fn of(model: &crate::build::model::Model) -> Self {
        let dated = model.all().filter_map(|card| Some((card.url.clone(), w3c(card.updated.or(card.date)?))));
        LastMod(dated.collect())
    }

    fn get(&self, page: &str) -> Option<&str> {
        self.0.get(page).map(String::as_str)
    }
}

/// A moment in W3C datetime form: the date alone at midnight UTC (a date as written), else the
/// time in UTC.
fn w3c(at: portal_core::content::time::DateTime) -> String {
    let full = at.rfc3339();
    match full.strip_suffix("T00:00:00Z") {
        Some(date) => date.to_string(),
        None => full,
    }
}

/// The sitemap files of `pages` (URL paths) on the site at `base`, at most `max_urls` URLs a file.
pub fn files(base: &str, pages: &[&str], rendered: &[&str], max_urls: usize, dates: &LastMod) -> Result<Vec<OutFile>> {
    files_of_sections(base, &sections(pages.iter().copied()), rendered, max_urls, dates)
}

/// The pages a server renders per request that the sitemap lists (they have no file to be found
/// by): the forms (the booking form when the site takes bookings), and the weather page when the site has weather to show (an upstream or a
/// seasonal fallback).
pub fn rendered_pages(content: &crate::load::Content) -> Vec<&'static str> {
    let mut pages = portal_core::routing::FORM_PAGES.to_vec();
    if content.site.booking.is_none() {
        pages.retain(|page| *page != portal_core::routing::BOOKING_FORM);
    }
    if content.site.upstreams.weather.is_some() || content.weather_fallback.is_some() {
        pages.push(portal_core::routing::pages::WEATHER);
    }
    pages
}

/// `pages` by section, each sorted; pages given as owned strings are kept as they are, not copied.
pub fn sections<P: AsRef<str> + Into<String>>(pages: impl IntoIterator<Item = P>) -> BTreeMap<String, Vec<String>> {
    let mut sections: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for page in pages {
        let key = section(page.as_ref());
        match sections.get_mut(key) {
            Some(pages) => pages.push(page.into()),
            None => {
                sections.insert(key.to_string(), vec![page.into()]);
            }
        }
    }
    sections.values_mut().for_each(|pages| pages.sort());
    sections
}

/// The sitemap files of pages by section (each sorted; see [`sections`]), with the pages a
/// server renders (`rendered`, see [`rendered_pages`]).
pub fn files_of_sections(
    base: &str,
    sections: &BTreeMap<String, Vec<String>>,
    rendered: &[&str],
    max_urls: usize,
    dates: &LastMod,
) -> Result<Vec<OutFile>> {
    let mut sections = sections.clone();
    for form in rendered.iter().copied() {
        let pages = sections.entry(section(form).to_string()).or_default();
        if !pages.iter().any(|page| page == form) {
            pages.push(form.to_string());
            pages.sort();
        }
    }
    let sections = &sections;
    let total: usize = sections.values().map(Vec::len).sum();
    if total <= max_urls {
        let mut all: Vec<&str> = sections.values().flatten().map(String::as_str).collect();
        all.sort_unstable();
        return Ok(vec![OutFile::at("/sitemap.xml", urlset(base, &all, dates).into_bytes())?]);
    }
    let mut files = Vec::new();
    let mut index = format!("{HEAD}<sitemapindex {XMLNS}>\n");
    for (name, pages) in sections {
        let pages: Vec<&str> = pages.iter().map(String::as_str).collect();
        for (n, chunk) in pages.chunks(max_urls.max(1)).enumerate() {
            let url = format!("/sitemaps/{name}-{}.xml", n + 1);
            index.push_str(&format!("  <sitemap><loc>{base}{url}</loc></sitemap>\n"));
            files.push(OutFile::at(url, urlset(base, chunk, dates).into_bytes())?);
        }
    }
    index.push_str("</sitemapindex>\n");
    files.push(OutFile::at("/sitemap.xml", index.into_bytes())?);
    Ok(files)
}

fn urlset(base: &str, pages: &[&str], dates: &LastMod) -> String {
    let mut xml = format!("{HEAD}<urlset {XMLNS}>\n");
    for page in pages {
        let escaped = encode_path(page).replace('&', "&amp;");
        match dates.get(page) {
            Some(date) => xml.push_str(&format!("  <url><loc>{base}{escaped}</loc><lastmod>{date}</lastmod></url>\n")),
            None => xml.push_str(&format!("  <url><loc>{base}{escaped}</loc></url>\n")),
        }
    }
    xml.push_str("</urlset>\n");
    xml
}

/// The section of a page: its collection, else the encyclopedia, tags, categories or the rest.
pub fn section(page: &str) -> &'static str {
    if let Some((route, params)) = routing::find(page) {
        if let Some(collection) = params.collection.as_deref() {
            return portal_core::content::collections::COLLECTIONS
                .iter()
                .copied()
                .find(|c| *c == collection)
                .unwrap_or("site");
        }
        if route.pattern == "/{slug+}" {
            return portal_core::content::collections::PAGES;
        }
    }
    match page.trim_start_matches('/').split('/').next() {
        Some("encyclopedia") => "encyclopedia",
        Some("tags") => "tags",
        Some("categories") => "categories",
        _ => "site",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(file: &OutFile) -> String {
        String::from_utf8_lossy(&file.bytes).into_owned()
    }

    #[test]
    fn a_small_site_has_one_sitemap() {
        let dates = LastMod(HashMap::from([
            ("/news/a b".to_string(), w3c(portal_core::content::time::DateTime { unix: 1_790_000_000 })),
            ("/".to_string(), w3c(portal_core::content::time::DateTime { unix: 1_789_948_800 })),
        ]));
        let files = files("https://s.example", &["/", "/news/a b"], &["/weather"], 10, &dates).expect("files");
        assert_eq!(files.len(), 1);
        assert!(
            text(&files[0]).contains("<loc>https://s.example/news/a%20b</loc><lastmod>2026-09-21T14:13:20Z</lastmod>")
        );
        assert!(text(&files[0]).contains("<loc>https://s.example/</loc><lastmod>2026-09-21</lastmod>"), "a date alone");
        assert!(text(&files[0]).contains("<loc>https://s.example/weather</loc>"), "pages a server renders too");
    }

    #[test]
    fn a_big_site_has_an_index_of_sections_in_files_of_at_most_the_limit() {
        let pages: Vec<String> =
            (0..5).map(|i| format!("/news/r-{i}")).chain(["/tags/x".into(), "/about".into()]).collect();
        let pages: Vec<&str> = pages.iter().map(String::as_str).collect();
        let files = files("https://s.example", &pages, &portal_core::routing::FORM_PAGES, 2, &LastMod::default())
            .expect("files");
        let names: Vec<&str> = files.iter().map(|f| f.file.as_str()).collect();
        assert_eq!(
            names,
            [
                "sitemaps/news-1.xml",
                "sitemaps/news-2.xml",
                "sitemaps/news-3.xml",
                "sitemaps/pages-1.xml",
                "sitemaps/site-1.xml",
                "sitemaps/tags-1.xml",
                "sitemap.xml"
            ]
        );
        let index = text(&files[6]);
        assert!(index.contains("<sitemapindex") && index.contains("<loc>https://s.example/sitemaps/news-3.xml</loc>"));
    }
}
