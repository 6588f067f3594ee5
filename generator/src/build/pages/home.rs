//! The home page: the current alerts of a high level first, the site's description, a search
//! form, the collections that have records (empty ones are not advertised), the encyclopedia, the
//! most used tags and the latest news.

use anyhow::Result;
use portal_core::content::collections::COLLECTIONS;
use portal_core::content::taxonomy::Taxonomy;
use serde_json::{json, Value};
use tera::Context;

use super::navigation::{collection_description, collection_label};
use super::{page, taxonomy, Renderer};
use crate::build::write::file::OutFile;

/// How many tags the home page names.
const TOP_TAGS: usize = 12;

/// The home page and its twin.
pub fn render(r: &Renderer) -> Result<[OutFile; 2]> {
    let (content, model) = (r.content, r.model);
    let strings = r.strings();
    let collections: Vec<Value> = COLLECTIONS
        .iter()
        .filter(|name| !model.cards(name).is_empty())
        .map(|name| {
            json!({
                "name": name,
                "url": format!("/{name}"),
                "label": collection_label(strings, name),
                "count": model.cards(name).len(),
                "description": collection_description(strings, name),
            })
        })
        .collect();
    let latest: Vec<Value> = model
        .cards("news")
        .iter()
        .take(5)
        .map(|n| json!({"title": n.title, "url": n.url, "date": n.date.map(|d| d.date())}))
        .collect();
    let mut tags: Vec<&taxonomy::Term> = r.terms(Taxonomy::Tags).iter().collect();
    tags.sort_by_key(|t| std::cmp::Reverse(t.records.len()));
    let tags: Vec<Value> = tags
        .iter()
        .take(TOP_TAGS)
        .map(|t| json!({"name": t.name, "url": Taxonomy::Tags.term_url(&t.slug), "count": t.records.len()}))
        .collect();
    // Current alerts of a high level come above everything else (docs/content.md#alerts).
    let alerts: Vec<_> = super::data::site_alerts(r).into_iter().filter(|a| a.high && !a.ended).collect();
    let mut context = Context::new();
    context.insert("alerts", &alerts.iter().map(|a| super::data::alert_value(r, a)).collect::<Vec<_>>());
    context.insert("collections", &collections);
    context.insert("latest", &latest);
    context.insert("entries", &model.entries.len());
    context.insert("tags", &tags);
    let html = r.render("home.html", Some("/"), context)?;
    let site = &content.site;
    let mut md = format!("# {}\n\n", site.title);
    if !alerts.is_empty() {
        md.push_str(&format!("## {}\n\n", strings.get("alerts.title")));
        alerts.iter().for_each(|a| md.push_str(&super::data::alert_markdown(r, a)));
        md.push('\n');
    }
    md.push_str(&format!("> {}\n\n## {}\n\n", site.description, strings.get("home.collections")));
    for c in &collections {
        md.push_str(&format!(
            "- [{}]({}): {} ({})\n",
            c["label"].as_str().unwrap_or(""),
            c["url"].as_str().unwrap_or(""),
            c["description"].as_str().unwrap_or(""),
            c["count"]
        ));
    }
    if !model.entries.is_empty() {
        md.push_str(&format!(
            "- [{}](/encyclopedia): {} ({})\n",
            strings.get("encyclopedia.title"),
            strings.get("home.entries"),
            model.entries.len()
        ));
    }
    md.push_str(&format!(
        "- [{}](/tags) · [{}](/categories)\n\nAPI: <{}/api-docs> · OpenAPI: <{}/api/openapi.json>\n",
        strings.get("taxonomy.tags"),
        strings.get("taxonomy.categories"),
        site.base(),
        site.base()
    ));
    Ok(page("/", html, md))
}
