//! The published site: an HTML page for the home, every collection (paged), record, doc and page,
//! every encyclopedia entry, tag and category, and `/api-docs`, each with a markdown twin
//! (docs/spec/api-spec.md#pages); a 404 page, the theme's assets, `sitemap.xml` and `robots.txt`. Templates are
//! compiled once and pages rendered in parallel.
//!
//! Each kind of page has its module; this one holds what they share: the renderer (the context
//! every template sees), page files and the site-wide files.

pub mod body;
pub mod data;
pub mod docs;
pub mod entry;
pub mod facts;
pub mod figure;
pub mod home;
pub mod intro;
pub mod listing;
pub mod map;
pub mod navigation;
pub mod preview;
pub mod record;
pub mod sitemap;
pub mod taxonomy;
pub mod words;

use std::collections::{BTreeMap, HashSet};

use anyhow::Result;
use portal_core::content::collections::PAGES;
use portal_core::content::i18n::{direction, Strings};
use portal_core::content::time::DateTime;
use portal_core::content::Record;
use portal_core::http::cache_control::fingerprinted;
use portal_core::routing::page_file;
use rayon::prelude::*;
use serde_json::Value;
use sha2::{Digest, Sha256};
use tera::{Context, Tera};

use super::model::Model;
use crate::build::write::file::{Group, OutFile};
use crate::build::write::sink::Outputs;
use crate::load::shelf::Place;
use crate::load::Content;
use crate::theme;

pub use portal_core::http::media::HTML;
/// Where the 404 page is written (served for unknown paths, never at a URL of its own).
pub const NOT_FOUND_FILE: &str = "404.html";

/// Where the search page of static hosts is written: a static host serves it for `/search`
/// (`/x` is `x.html` there); the live servers answer `/search` themselves.
pub const STATIC_SEARCH_PAGE: &str = "/search.html";

/// "community-voices" -> "Community voices" (for front-matter keys without a translated label).
pub fn label(name: &str) -> String {
    let spaced = name.replace(['-', '_'], " ");
    let mut chars = spaced.chars();
    chars.next().map(|c| c.to_uppercase().chain(chars).collect()).unwrap_or_default()
}

/// An HTML page and its markdown twin (`a/b.md` beside `a/b.html`), served at `route`; the file
/// is the route table's (`routes::page_file`).
pub fn page(route: &str, html: String, markdown: String) -> [OutFile; 2] {
    let file = page_file(route);
    let twin = format!("{}.md", file.trim_end_matches(".html"));
    let mut html_file = OutFile::served(route, file, HTML, html.into_bytes());
    html_file.headers = Some("html".into());
    html_file.markdown = Some(twin.clone());
    [html_file, OutFile::internal(twin, markdown.into_bytes())]
}

/// What every page is rendered with.
pub struct Renderer<'a> {
    tera: Tera,
    /// The loaded content: the site's settings, and the records whose own pages are rendered.
    pub content: &'a Content,
    /// The cards of every record, which listings and other pages of many records are made from.
    pub model: &'a Model,
    /// The build time (events are upcoming or past relative to it).
    pub now: DateTime,
    /// The folder of template overrides (for naming a template in an error).
    overrides: Option<&'a std::path::Path>,
    /// The theme's asset files, under both names.
    asset_files: Vec<OutFile>,
    /// What every page is given (the site, its language, the interface text, the navigation, the
    /// assets), converted once.
    base: Context,
    /// Copies of `base` not in use: a page's own keys are added to one for its rendering and taken
    /// out again after, so the base is copied once per thread rather than once per page (copying
    /// the interface text for every page was a tenth of a build).
    spare: std::sync::Mutex<Vec<Context>>,
    /// The terms of tags and categories, found once (the home page and the taxonomy pages use them).
    terms: std::sync::OnceLock<[Vec<taxonomy::Term<'a>>; 2]>,
    /// The content pages introducing generated pages.
    pub intros: intro::Intros,
    /// The places of `spatial/`, read once (the map's pages and the records at a place use them).
    places: std::sync::OnceLock<Vec<portal_core::pages::map::Place>>,
}

impl<'a> Renderer<'a> {
    /// The renderer of a site with `content`'s settings and `model`'s records, with templates
    /// overridden from `templates` where it has them. `now` is the build time.
    pub fn new(
        content: &'a Content,
        model: &'a Model,
        templates: Option<&'a std::path::Path>,
        now: DateTime,
        intros: intro::Intros,
    ) -> Result<Self> {
        let mut tera = theme::templates(templates)?;
        tera.register_filter("local_date", local_date(content.strings.clone()));
        tera.register_filter("text", text_filter);
        let (asset_files, assets) = theme_assets(templates)?;
        let site = serde_json::to_value(&content.site)?;
        let navigation = navigation::main_menu(content, model);
        let mut base = Context::new();
        base.insert("site", &site);
        base.insert("lang", &content.site.language);
        base.insert("dir", direction(&content.site.language));
        base.insert("t", &content.strings.0);
        base.insert("navigation", &navigation);
        base.insert("preview", &content.drafts);
        base.insert("assets", &assets);
        base.insert("intro", &Value::Null);
        base.insert("favicon", &preview::icon(content));
        base.insert("booking_in_footer", &content.site.booking_links().iter().any(|at| at == "footer"));
        base.insert("booking_link", &false);
        base.insert("theme_color", &preview::theme_colour(content));
        base.insert("offline", &content.site.offline.enabled);
        base.insert("manifest_url", &format!("/{}", portal_core::content::offline::WEB_MANIFEST));
        base.insert("touch_icon", &format!("/{}", portal_core::content::offline::icon_file(192)));
        Ok(Renderer {
            tera,
            content,
            model,
            now,
            overrides: templates,
            asset_files,
            base,
            spare: Default::default(),
            terms: Default::default(),
            intros,
            places: Default::default(),
        })
    }

    /// The terms of `taxonomy` over every card, in name order.
    pub fn terms(&self, kind: portal_core::content::taxonomy::Taxonomy) -> &[taxonomy::Term<'a>] {
        let all = self.terms.get_or_init(|| {
            [
                taxonomy::terms(self.model, portal_core::content::taxonomy::Taxonomy::Tags),
                taxonomy::terms(self.model, portal_core::content::taxonomy::Taxonomy::Categories),
            ]
        });
        match kind {
            portal_core::content::taxonomy::Taxonomy::Tags => &all[0],
            portal_core::content::taxonomy::Taxonomy::Categories => &all[1],
        }
    }

    /// The places of `spatial/`, in order.
    pub fn places(&self) -> &[portal_core::pages::map::Place] {
        self.places.get_or_init(|| map::places(self.content).0)
    }

    /// The interface text.
    pub fn strings(&self) -> &Strings {
        &self.content.strings
    }

    /// A page the site generates at `url` and its twin, introduced by the content page at `url`
    /// when there is one (see [`intro`]): `intro` in the template's context, and the twin's
    /// heading replaced by the intro's title and body.
    pub fn generated(&self, template: &str, url: &str, mut context: Context, markdown: String) -> Result<[OutFile; 2]> {
        let intro = self.intros.take(url);
        if let Some(intro) = intro {
            context.insert("intro", intro);
        }
        let html = self.render(template, Some(url), context)?;
        let markdown = match intro {
            Some(intro) => intro.introduce_markdown(&crate::sanitize::markdown::escape(&intro.title), &markdown),
            None => markdown,
        };
        Ok(page(url, html, markdown))
    }

    /// Renders a page served at `url` (`None` for pages with no URL of their own: the 404 page and
    /// the shell of pages rendered per request).
    pub fn render(&self, template: &str, url: Option<&str>, context: Context) -> Result<String> {
        // A tera context is always a JSON object.
        let own = match context.into_json() {
            Value::Object(own) => own,
            _ => serde_json::Map::new(),
        };
        let keys: Vec<String> = own.keys().cloned().chain(["url".to_string(), "booking_link".to_string()]).collect();
        let mut full = self.spare.lock().ok().and_then(|mut spare| spare.pop()).unwrap_or_else(|| self.base.clone());
        full.extend(Context::from_value(Value::Object(own))?);
        full.insert("url", &url);
        // The booking form is linked from the pages site.yaml names (`booking.link_from`).
        let linked = url.is_some_and(|url| self.content.site.booking_links().iter().any(|at| at == url));
        full.insert("booking_link", &linked);
        let rendered = self.tera.render(template, &full);
        let image = full.get("image").and_then(|i| i.get("src")).and_then(Value::as_str).map(str::to_string);
        // Back to the base alone: the page's keys out, a base value the page replaced restored.
        for key in &keys {
            match self.base.get(key) {
                Some(value) => full.insert(key.as_str(), value),
                None => drop(full.remove(key)),
            }
        }
        if let Ok(mut spare) = self.spare.lock() {
            spare.push(full);
        }
        let rendered = rendered.map_err(|e| anyhow::Error::new(theme::template_error(&e, self.overrides)))?;
        Ok(match url {
            Some(url) => preview::add(rendered, self.content, url, image.as_deref()),
            None => rendered,
        })
    }
}

/// The `local_date` filter of the templates: `2026-03-07` as the site's language writes it.
fn local_date(strings: Strings) -> impl tera::Filter {
    move |value: &Value, _: &std::collections::HashMap<String, Value>| -> tera::Result<Value> {
        Ok(Value::String(value.as_str().map_or_else(|| value.to_string(), |d| strings.date(d))))
    }
}

/// `{{ value | text | safe }}`: the value escaped, its codes (`B-12`) kept on one line
/// ([`words::keep_codes`]).
fn text_filter(value: &Value, _: &std::collections::HashMap<String, Value>) -> tera::Result<Value> {
    let text = value.as_str().map_or_else(|| value.to_string(), str::to_string);
    Ok(Value::String(words::keep_codes(&portal_core::content::text::escape(&text))))
}

/// `robots.txt`: everything may be crawled, except a drafts preview, which nothing may.
fn robots(content: &Content) -> Result<OutFile> {
    let rule = if content.drafts { "Disallow: /" } else { "Allow: /" };
    OutFile::at(
        "/robots.txt",
        format!("User-agent: *\n{rule}\nSitemap: {}/sitemap.xml\n", content.site.base()).into_bytes(),
    )
}

/// Every page, its twin, the 404 page, the assets, the sitemap and robots.txt, with templates
/// overridden from `templates` where it has them, handed to `files` as they are made. `now` is
/// the build time.
///
/// The records and entries held in `content` are taken out of it, and those on the build's shelf
/// read back, a batch at a time: each batch is freed once its pages are made, so the text of a big
/// site is never held whole (docs/deploying.md#memory).
pub fn files(
    content: &mut Content,
    model: &Model,
    intros: intro::Intros,
    templates: Option<&std::path::Path>,
    now: DateTime,
    files: &mut Outputs,
) -> Result<()> {
    let entries = std::mem::take(&mut content.entries);
    let collections = std::mem::take(&mut content.collections);
    let content = &*content;
    let renderer = Renderer::new(content, model, templates, now, intros)?;
    let translations = record::Translations::of(model);
    let start = files.len();
    // Generated pages first: a content page at the URL of one introduces it (see [`intro`]), and
    // is then neither rendered on its own nor listed under `/pages`.
    files.extend(entry::index_page(&renderer)?);
    files.extend(map::pages(&renderer)?);
    for name in portal_core::content::collections::COLLECTIONS.iter().filter(|name| **name != PAGES) {
        files.extend(listing::collection(&renderer, name, &|_, _| false)?.into_iter().flat_map(Paged::rendered));
    }
    taxonomy::pages(&renderer, taxonomy::Which::All, &|_, _| false, &mut |pages| {
        files.extend(pages.into_iter().flat_map(Paged::rendered));
        Ok(())
    })?;
    files.extend(site_pages(&renderer)?);
    files.extend(theme_pages(&renderer)?);
    files.extend(listing::collection(&renderer, PAGES, &|_, _| false)?.into_iter().flat_map(Paged::rendered));
    // The pages of entries and records last, a batch at a time: each page's URL is known before it
    // is made, so its links are rewritten as it is made (see `build::write::sink`).
    let own_page = |collection: &str, url: &str| collection != PAGES || !renderer.intros.introduces(url);
    let shelved = content.shelved.clone();
    let on_shelf = |name: &str| {
        let places = shelved.as_ref().and_then(|s| s.places.get(name)).map_or(&[][..], Vec::as_slice);
        model.cards(name).iter().zip(places).filter(|(card, _)| own_page(&card.collection, &card.url))
    };
    let shelved_entries = shelved.as_ref().map_or(&[][..], |s| s.entries.as_slice());
    let routes: Vec<String> = entries
        .iter()
        .map(|entry| entry.record.url.clone())
        .chain(model.entries.iter().zip(shelved_entries).map(|(card, _)| card.url.clone()))
        .chain(collections.iter().flat_map(|(name, records)| {
            let held = records.iter().filter(|rec| own_page(&rec.collection, &rec.url)).map(|rec| rec.url.clone());
            held.chain(on_shelf(name).map(|(card, _)| card.url.clone()))
        }))
        .collect();
    // Moved a batch at a time: each collection's records are freed as its pages are made.
    let own = entries.into_iter().map(Own::Entry).chain(shelved_entries.iter().map(|at| Own::ShelvedEntry(*at))).chain(
        collections.into_iter().flat_map(|(name, records)| {
            let held = records.into_iter().filter(|rec| own_page(&rec.collection, &rec.url)).map(Own::Record);
            held.chain(on_shelf(name).map(|(_, place)| Own::Shelved(*place)))
        }),
    );
    let drafts: HashSet<&str> = model.all().filter(|card| card.draft).map(|card| card.url.as_str()).collect();
    let made = files.made()[start..].iter().filter(|f| f.content_type() == HTML).filter_map(|f| f.route());
    let pages: Vec<&str> =
        made.chain(routes.iter().map(String::as_str)).filter(|route| !drafts.contains(route)).collect();
    let dates = sitemap::LastMod::of(model);
    let rendered = sitemap::rendered_pages(content);
    let sitemap = sitemap::files(content.site.base(), &pages, &rendered, sitemap::MAX_URLS, &dates)?;
    files.extend(sitemap);
    files.stream(own, &routes, content.site.base(), |batch| own_pages(&renderer, batch, &translations))
}

/// A page of its own: an encyclopedia entry's or a record's (held, or on the build's shelf).
enum Own {
    Entry(portal_core::content::Entry),
    Record(Record),
    Shelved(Place),
    ShelvedEntry(Place),
}

/// The pages of a batch of entries and records.
fn own_pages(r: &Renderer, batch: &[Own], translations: &record::Translations) -> Result<Vec<OutFile>> {
    let shelved_entries: Vec<portal_core::content::Entry> =
        from_shelf(r, batch, |p| if let Own::ShelvedEntry(at) = p { Some(*at) } else { None })?;
    let entries: Vec<&portal_core::content::Entry> = batch
        .iter()
        .filter_map(|p| if let Own::Entry(e) = p { Some(e) } else { None })
        .chain(shelved_entries.iter())
        .collect();
    let shelved: Vec<Record> = from_shelf(r, batch, |p| if let Own::Shelved(at) = p { Some(*at) } else { None })?;
    let records: Vec<&Record> = batch
        .iter()
        .filter_map(|p| if let Own::Record(r) = p { Some(r) } else { None })
        .chain(shelved.iter())
        .collect();
    let mut files = entry::own_pages(r, &entries, translations)?;
    files.extend(record_pages(r, &records, translations)?);
    Ok(files)
}

/// The records (or entries) of `batch` that `place` finds on the build's shelf, read back.
fn from_shelf<T: serde::de::DeserializeOwned + Send>(
    r: &Renderer,
    batch: &[Own],
    place: impl Fn(&Own) -> Option<Place>,
) -> Result<Vec<T>> {
    let places: Vec<Place> = batch.iter().filter_map(place).collect();
    match &r.content.shelved {
        _ if places.is_empty() => Ok(Vec::new()),
        Some(shelved) => shelved.shelf.get_all(&places),
        None => anyhow::bail!("shelved records without their shelf"),
    }
}

/// The pages of `records` (each with its twin), in their collection's group; a content page
/// introducing a generated page has none of its own.
pub fn record_pages(r: &Renderer, records: &[&Record], translations: &record::Translations) -> Result<Vec<OutFile>> {
    let pages: Vec<[OutFile; 2]> = records
        .par_iter()
        .filter(|rec| rec.collection != PAGES || !r.intros.introduces(&rec.url))
        .map(|rec| {
            let files = record::files(rec, record::render(r, rec, translations)?);
            Ok(files.map(|f| f.in_group(Group::collection(&rec.collection))))
        })
        .collect::<Result<_>>()?;
    Ok(pages.into_iter().flatten().collect())
}

/// The pages of the site as a whole that show its records or its data: the home page, the data
/// pages and the alerts (which end relative to the build time), the sitemap aside.
pub fn site_pages(r: &Renderer) -> Result<Vec<OutFile>> {
    let mut files: Vec<OutFile> = home::render(r)?.into_iter().collect();
    files.extend(data::pages(r)?);
    files.extend(map::place_pages(r)?);
    Ok(files.into_iter().map(|f| f.in_group(Group::Site)).collect())
}

/// The pages and files of the theme, made of the settings alone: the docs page, the 404 page, the
/// shell of pages rendered per request, robots.txt and the theme's assets.
pub fn theme_pages(r: &Renderer) -> Result<Vec<OutFile>> {
    let mut files: Vec<OutFile> = docs::render(r)?.into_iter().collect();
    files.push(robots(r.content)?);
    files.push(OutFile::internal(NOT_FOUND_FILE, r.render("404.html", None, Context::new())?.into_bytes()));
    // The shell of the pages rendered per request; its links stay root-relative (see core's `pages::shell`).
    let shell = r.render("dynamic.html", None, Context::new())?;
    files.push(OutFile::internal(portal_core::pages::shell::SHELL_FILE, shell.into_bytes()));
    // The search page of static hosts and offline copies (its script searches `find/`).
    // It carries the intro the site wrote for its search page (content at `/search`), as the
    // server's page does.
    let mut search = Context::new();
    if let Some(intro) = r.intros.take(STATIC_SEARCH_PAGE.trim_end_matches(".html")) {
        search.insert("intro", intro);
    }
    files.push(OutFile::at(STATIC_SEARCH_PAGE, r.render("find.html", None, search)?.into_bytes())?);
    files.extend(r.asset_files.iter().cloned());
    files.extend(crate::build::offline::theme_files(r)?);
    if r.content.site.favicon.is_none() {
        files.push(OutFile::at(preview::ICON, preview::initial_icon(r.content).into_bytes())?);
    }
    Ok(files.into_iter().map(|f| f.in_group(Group::Theme)).collect())
}

/// A page of a listing (a collection's, a tag's...): rendered with its twin, or kept from the last
/// build because what it is made from did not change (see [`listing::paged`]).
#[derive(Debug)]
pub enum Paged {
    /// Rendered now.
    Rendered(Box<[OutFile; 2]>),
    /// The last build's page at this URL stands.
    Kept(String),
}

impl Paged {
    /// The files of a rendered page (none for a kept one).
    pub fn rendered(self) -> Vec<OutFile> {
        match self {
            Paged::Rendered(files) => (*files).into(),
            Paged::Kept(_) => Vec::new(),
        }
    }
}

/// Whether the last build's page at a URL, made from inputs of a key, stands.
pub type Keep<'a> = &'a (dyn Fn(&str, &Key) -> bool + Sync);

/// What a keyed page is made from: a hash of its inputs.
pub type Key = [u8; 32];

/// The theme's assets, each at its own name (for templates of the user's that link it so) and at
/// a name carrying a hash of its bytes, which the theme links and caches keep for ever (see core's
/// `cache_control`); and the fingerprinted URL of each by name.
fn theme_assets(templates: Option<&std::path::Path>) -> Result<(Vec<OutFile>, BTreeMap<String, String>)> {
    let mut files = Vec::new();
    let mut urls = BTreeMap::new();
    for (name, bytes) in theme::assets(templates)? {
        let digest: String = Sha256::digest(&bytes).iter().map(|b| format!("{b:02x}")).collect();
        let url = format!("/assets/{}", fingerprinted(&name, &digest));
        files.push(OutFile::at(url.clone(), bytes.clone())?);
        files.push(OutFile::at(format!("/assets/{name}"), bytes)?);
        urls.insert(name, url);
    }
    Ok((files, urls))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_are_files_named_after_their_url() {
        assert_eq!(page_file("/"), "index.html");
        assert_eq!(page_file("/news/page/2"), "news/page/2.html");
        assert_eq!(label("community-voices"), "Community voices");
        assert_eq!(label("image_alt"), "Image alt");
    }
}
