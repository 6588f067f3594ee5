//! A record's page: its image, summary, facts (front-matter values with translated labels, dates
//! in the site's language), body, linked tags and category, and its translations.
//!
//! A record's `language` sets `lang` on its content (and `dir` when its direction differs from the
//! site's). Records that share a `translation_key` link each other: `<link rel="alternate"
//! hreflang>` in the head and a visible list of the other languages, each named in itself.

use std::collections::HashMap;

use anyhow::Result;
use portal_core::content::collections::PAGES;
use portal_core::content::i18n::direction;
use portal_core::content::taxonomy::{slug, Taxonomy};
use portal_core::content::text::escape as html_escape;
use portal_core::content::Record;
use serde_json::{json, Value};
use tera::Context;

use super::navigation::collection_label;
use super::{body, facts, figure, page, Renderer};
use crate::build::documents::calendar;
use crate::build::model::Model;
use crate::build::write::file::OutFile;
use crate::sanitize::markdown::{escape, link};
use crate::sanitize::twin_body;

/// Front-matter keys the page shows in its own way (or not at all) rather than as facts.
const NOT_FACTS: &[&str] = &[
    "title",
    "summary",
    "slug",
    "id",
    "draft",
    "weight",
    "tags",
    "category",
    "image",
    "image_alt",
    "alt",
    "language",
    "translation_key",
];

/// Languages by their own names, for the list of a page's translations.
const AUTONYMS: &[(&str, &str)] = &[
    ("am", "አማርኛ"),
    ("ar", "العربية"),
    ("en", "English"),
    ("es", "Español"),
    ("fa", "فارسی"),
    ("fr", "Français"),
    ("ln", "Lingála"),
    ("lg", "Luganda"),
    ("om", "Afaan Oromoo"),
    ("pt", "Português"),
    ("rw", "Kinyarwanda"),
    ("so", "Soomaali"),
    ("sw", "Kiswahili"),
    ("ti", "ትግርኛ"),
];

/// A language's own name (its tag when the table has none).
pub fn autonym(language: &str) -> String {
    let primary = language.split(['-', '_']).next().unwrap_or(language).to_ascii_lowercase();
    AUTONYMS
        .iter()
        .find(|(code, _)| *code == primary)
        .map_or_else(|| language.to_string(), |(_, name)| name.to_string())
}

/// The language a record is written in: its `language`, else the site's.
pub fn language_of<'a>(record: &'a Record, site_language: &'a str) -> &'a str {
    record.fields.get("language").and_then(Value::as_str).filter(|l| !l.trim().is_empty()).unwrap_or(site_language)
}

/// `lang` and `dir` for content in `language` on a site in `site_language`: `lang` when they differ,
/// `dir` when the direction does.
pub fn lang_attributes(language: &str, site_language: &str) -> Value {
    let lang = (language != site_language).then_some(language);
    let dir = (direction(language) != direction(site_language)).then(|| direction(language));
    json!({"lang": lang, "dir": dir})
}

/// Records and entries grouped by `translation_key`: (language, URL, title) of each.
pub struct Translations(HashMap<String, Vec<(String, String, String)>>);

impl Translations {
    /// Every group among the cards of `model`.
    pub fn of(model: &Model) -> Self {
        let mut groups: HashMap<String, Vec<(String, String, String)>> = HashMap::new();
        for card in model.all() {
            if let Some(key) = &card.translation_key {
                groups.entry(key.clone()).or_default().push((
                    card.language.clone(),
                    card.url.clone(),
                    card.title.clone(),
                ));
            }
        }
        groups.values_mut().for_each(|group| group.sort());
        Translations(groups)
    }

    /// The translations of `record` (itself included, as `hreflang` sets are), none when it has no
    /// other language.
    pub fn of_record(&self, record: &Record) -> Vec<Value> {
        let key = record.fields.get("translation_key").and_then(Value::as_str);
        let group = key.and_then(|k| self.0.get(k)).map(Vec::as_slice).unwrap_or(&[]);
        if group.len() < 2 {
            return Vec::new();
        }
        group
            .iter()
            .map(|(lang, url, title)| {
                json!({"lang": lang, "url": url, "title": title, "name": autonym(lang), "current": *url == record.url})
            })
            .collect()
    }
}

/// The facts of `record` by the rules of [`facts`].
fn facts(r: &Renderer, record: &Record) -> Vec<Value> {
    let defaults: Vec<String>;
    let hidden = match &r.content.site.hidden_fields {
        Some(hidden) => hidden.as_slice(),
        None => {
            defaults = facts::DEFAULT_HIDDEN.iter().map(|s| s.to_string()).collect();
            &defaults
        }
    };
    let rules = facts::Rules {
        strings: r.strings(),
        site: &r.content.site,
        hidden,
        statics: &r.content.statics,
        model: r.model,
    };
    let mut shown: Vec<Value> = rules.of(record, NOT_FACTS).iter().map(facts::Fact::to_json).collect();
    shown.extend(place_fact(r, record));
    shown
}

/// Where a record with a `spatial_id` or a `location` is: a link to its place's page and to the
/// map (docs/content.md#places-and-the-map).
fn place_fact(r: &Renderer, record: &Record) -> Option<Value> {
    let place = super::map::place_of(record, r.places())?;
    let strings = r.strings();
    let url = format!("/places/{}", place.id);
    let html = format!(
        "<a href=\"{}\">{}</a> · <a href=\"{}\">{}</a>",
        html_escape(&url),
        html_escape(&place.name),
        super::map::MAP,
        html_escape(strings.get("map.title"))
    );
    let markdown = format!("{} · {}", link(&place.name, &url), link(strings.get("map.title"), super::map::MAP));
    Some(facts::Fact { label: strings.get("map.at").to_string(), html, markdown }.to_json())
}

/// The tags and category of a record as links to their pages (terms without a slug are left out).
pub fn terms(record: &Record) -> (Vec<Value>, Option<Value>) {
    let link = |taxonomy: Taxonomy, name: &str| {
        let term = slug(name);
        (!term.is_empty()).then(|| json!({"name": name, "url": taxonomy.term_url(&term)}))
    };
    let tags = record.tags.iter().filter_map(|t| link(Taxonomy::Tags, t)).collect();
    (tags, record.category.as_deref().and_then(|c| link(Taxonomy::Categories, c)))
}

/// The twin of a record's page. Every value from content is escaped for markdown, term links go
/// through the URL policy, and the body is cleaned like the page's HTML (crate::sanitize).
fn markdown(r: &Renderer, record: &Record, facts: &[Value], api_url: &str) -> String {
    let base = r.content.site.base();
    let strings = r.strings();
    let text = |value: &Value| escape(value.as_str().unwrap_or(""));
    let term_link = |term: &Value| link(term["name"].as_str().unwrap_or(""), term["url"].as_str().unwrap_or(""));
    let mut md = format!("# {}\n\n", escape(&record.title));
    if record.draft {
        md.push_str(&format!("> **{}**\n\n", strings.get("record.draft")));
    }
    if let Some(summary) = &record.summary {
        md.push_str(&format!("> {}\n\n", escape(summary)));
    }
    if let Some(image) = figure::markdown(record, &r.content.statics, base) {
        md.push_str(&format!("{image}\n\n"));
    }
    for fact in facts {
        // A fact's value is markdown already, escaped and linked by the rules of `facts`.
        md.push_str(&format!("- **{}**: {}\n", text(&fact["label"]), fact["value"].as_str().unwrap_or_default()));
    }
    let (tags, category) = terms(record);
    if let Some(category) = category {
        md.push_str(&format!("- **{}**: {}\n", strings.get("record.category"), term_link(&category)));
    }
    if !tags.is_empty() {
        let links: Vec<String> = tags.iter().map(term_link).collect();
        md.push_str(&format!("- **{}**: {}\n", strings.get("record.tags"), links.join(", ")));
    }
    if let Some(body) = &record.body {
        md.push_str(&format!("\n{}\n", twin_body(&r.content.site.markdown, body)));
    }
    md.push_str(&format!("\n---\n\nSource: <{base}{}> · JSON: <{base}{api_url}>\n", record.url));
    md
}

/// The files of `record`'s page and twin (rendered now or kept by the build cache).
pub fn files(record: &Record, (html, markdown): (String, String)) -> [OutFile; 2] {
    page(&record.url, html, markdown).map(|f| f.with_source(&record.file))
}

/// The page of `record` and its twin, as text.
pub fn render(r: &Renderer, record: &Record, translations: &Translations) -> Result<(String, String)> {
    let strings = r.strings();
    let site_language = &r.content.site.language;
    let api_url = format!("/api/{}/{}", record.collection, record.slug);
    let (parent_url, parent_label) = if record.collection == PAGES {
        ("/".to_string(), strings.get("nav.home").to_string())
    } else {
        (format!("/{}", record.collection), collection_label(strings, &record.collection))
    };
    let facts = facts(r, record);
    let (tags, category) = terms(record);
    let mut context = Context::new();
    context.insert("record", &record.to_json());
    context.insert("draft", &record.draft);
    context.insert("facts", &facts);
    context.insert("tags", &tags);
    context.insert("category", &category);
    context.insert("image", &figure::image(record, &r.content.statics, figure::PAGE_SIZES));
    context.insert("translations", &translations.of_record(record));
    context.insert("content_lang", &lang_attributes(language_of(record, site_language), site_language));
    context.insert("body", &body::prepare(record.html.as_deref().unwrap_or(""), strings, &r.content.statics));
    context.insert("api_url", &api_url);
    context.insert("parent_url", &parent_url);
    context.insert("parent_label", &parent_label);
    context.insert("jsonld", &calendar::json_ld_script(r.content, record));
    context.insert("ics_url", &calendar::has_file(record).then(|| calendar::event_url(record)));
    let html = r.render("record.html", Some(&record.url), context)?;
    Ok((html, markdown(r, record, &facts, &api_url)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn languages_are_named_in_themselves() {
        assert_eq!(autonym("sw"), "Kiswahili");
        assert_eq!(autonym("fr-CA"), "Français");
        assert_eq!(autonym("xx"), "xx");
    }

    #[test]
    fn lang_and_dir_only_where_they_differ() {
        assert_eq!(lang_attributes("en", "en"), json!({"lang": null, "dir": null}));
        assert_eq!(lang_attributes("sw", "en"), json!({"lang": "sw", "dir": null}));
        assert_eq!(lang_attributes("ar", "en"), json!({"lang": "ar", "dir": "rtl"}));
        assert_eq!(lang_attributes("en", "ar"), json!({"lang": "en", "dir": "ltr"}));
    }
}
