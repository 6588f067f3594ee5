//! Encyclopedia pages: each entry (with its JSON-LD embedded, its sources, related entries, image
//! and translations) and the index of every entry by letter.

use std::collections::BTreeMap;

use anyhow::Result;
use portal_core::content::Entry;
use portal_core::queries::encyclopedia::letter_of;
use rayon::prelude::*;
use serde_json::{json, Value};
use tera::Context;

use super::record::{lang_attributes, terms, Translations};
use super::{body, figure, page, Renderer};
use crate::build::model::Card;
use crate::build::write::file::{Group, OutFile};
use crate::sanitize::markdown::{escape, link};
use crate::sanitize::twin_body;
use portal_core::standards::json_ld;

/// The pages of `entries` and the index, in the encyclopedia's group.
pub fn pages(r: &Renderer, entries: &[&Entry], translations: &Translations) -> Result<Vec<OutFile>> {
    let mut pages = own_pages(r, entries, translations)?;
    pages.extend(index_page(r)?);
    Ok(pages)
}

/// The pages of `entries` (each with its twin), without the index.
pub fn own_pages(r: &Renderer, entries: &[&Entry], translations: &Translations) -> Result<Vec<OutFile>> {
    let by_slug: BTreeMap<&str, &Card> = r.model.entries.iter().map(|card| (card.slug.as_str(), card)).collect();
    let pages: Vec<[OutFile; 2]> =
        entries.par_iter().map(|e| entry_page(r, e, &by_slug, translations)).collect::<Result<_>>()?;
    Ok(pages.into_iter().flatten().map(|f| f.in_group(Group::Encyclopedia)).collect())
}

/// The encyclopedia's index page and its twin.
pub fn index_page(r: &Renderer) -> Result<[OutFile; 2]> {
    Ok(index(r)?.map(|f| f.in_group(Group::Encyclopedia)))
}

fn entry_page(
    r: &Renderer,
    entry: &Entry,
    by_slug: &BTreeMap<&str, &Card>,
    translations: &Translations,
) -> Result<[OutFile; 2]> {
    let record = &entry.record;
    let site_language = &r.content.site.language;
    let related: Vec<Value> = entry
        .related
        .iter()
        .filter_map(|slug| by_slug.get(slug.as_str()))
        .map(|card| json!({"title": card.title, "url": card.url}))
        .collect();
    let mut item = record.to_json();
    item["aliases"] = json!(entry.aliases);
    item["sources"] = json!(entry.sources);
    item["language"] = json!(entry.language);
    let (tags, category) = terms(record);
    let mut context = Context::new();
    context.insert("entry", &item);
    context.insert("draft", &record.draft);
    context.insert("tags", &tags);
    context.insert("category", &category);
    context.insert("image", &figure::image(record, &r.content.statics, figure::PAGE_SIZES));
    context.insert("translations", &translations.of_record(record));
    context.insert("content_lang", &lang_attributes(entry.language.as_deref().unwrap_or(site_language), site_language));
    context.insert("body", &body::prepare(record.html.as_deref().unwrap_or(""), r.strings(), &r.content.statics));
    context.insert("related", &related);
    context.insert("updated", &record.updated.or(record.date).map(|d| d.date()));
    context.insert("jsonld", &json_ld::script(&json_ld::article(entry, &r.content.site)));
    let html = r.render("entry.html", Some(&record.url), context)?;
    let mut md = format!("# {}\n\n", escape(&record.title));
    if let Some(summary) = &record.summary {
        md.push_str(&format!("> {}\n\n", escape(summary)));
    }
    if let Some(image) = figure::markdown(record, &r.content.statics, r.content.site.base()) {
        md.push_str(&format!("{image}\n\n"));
    }
    if let Some(body) = &record.body {
        md.push_str(&format!("{}\n\n", twin_body(&r.content.site.markdown, body)));
    }
    md.push_str(&format!("## {}\n\n", r.strings().get("encyclopedia.sources")));
    for (i, s) in entry.sources.iter().enumerate() {
        let publisher = s.publisher.as_ref().map(|p| format!(", {}", escape(p))).unwrap_or_default();
        md.push_str(&format!("{}. {}{publisher}\n", i + 1, link(&s.title, &s.url)));
    }
    Ok(page(&record.url, html, md).map(|f| f.with_source(&record.file)))
}

fn index(r: &Renderer) -> Result<[OutFile; 2]> {
    let mut letters: BTreeMap<String, Vec<Value>> = BTreeMap::new();
    for rec in &r.model.entries {
        letters
            .entry(letter_of(&rec.title))
            .or_default()
            .push(json!({"title": rec.title, "url": rec.url, "summary": rec.summary, "draft": rec.draft}));
    }
    let groups: Vec<Value> =
        letters.iter().map(|(letter, entries)| json!({"letter": letter, "entries": entries})).collect();
    let mut context = Context::new();
    context.insert("letters", &groups);
    let strings = r.strings();
    let mut md = format!("# {}\n\n{}\n", strings.get("encyclopedia.title"), strings.get("encyclopedia.lead"));
    for (letter, entries) in &letters {
        md.push_str(&format!("\n## {letter}\n\n"));
        for e in entries {
            md.push_str(&format!("- {}\n", link(e["title"].as_str().unwrap_or(""), e["url"].as_str().unwrap_or(""))));
        }
    }
    r.generated("encyclopedia.html", portal_core::routing::pages::ENCYCLOPEDIA, context, md)
}
