//! The encyclopedia as files (docs/spec/api-spec.md#encyclopedia): each entry's detail and its JSON-LD (a schema.org
//! `Article` citing its sources), plus the catalog the list, facets and suggestions read.

use portal_core::content::{Entry, SiteConfig};
use portal_core::http::envelope::success;
use portal_core::queries::encyclopedia::CATALOG_FILE;
use serde_json::{json, Value};

use super::model::{json_array, Model};
use super::output::{Group, OutFile};
use super::outputs::Outputs;
use crate::load::Content;

/// The media type of JSON-LD.
pub const JSON_LD: &str = "application/ld+json";

/// An entry as the list shows it: the record without its body.
pub fn list_item(entry: &Entry) -> Value {
    let mut item = entry.record.to_json();
    if let Value::Object(map) = &mut item {
        map.remove("body");
    }
    item
}

/// The schema.org `Article` of an entry, with absolute URLs under the site's base URL.
pub fn json_ld(entry: &Entry, site: &SiteConfig) -> Value {
    let record = &entry.record;
    let url = format!("{}{}", site.base(), record.url);
    let mut article = json!({
        "@context": "https://schema.org",
        "@type": "Article",
        "@id": url,
        "url": url,
        "headline": record.title,
        "name": record.title,
        "inLanguage": entry.language.clone().unwrap_or_else(|| site.language.clone()),
        "citation": entry.sources.iter().map(|source| {
            let mut work = json!({"@type": "CreativeWork", "name": source.title, "url": source.url});
            if let Some(publisher) = &source.publisher {
                work["publisher"] = json!({"@type": "Organization", "name": publisher});
            }
            if let Some(date) = &source.date {
                work["datePublished"] = json!(date);
            }
            work
        }).collect::<Vec<_>>(),
        "isPartOf": {"@type": "WebSite", "name": site.title, "url": site.base()},
    });
    let extra = [
        ("description", record.summary.clone().map(Value::from)),
        ("dateModified", record.updated.or(record.date).map(|d| Value::from(d.date()))),
        ("about", record.category.clone().map(|c| json!({"@type": "Thing", "name": c}))),
        ("keywords", (!record.tags.is_empty()).then(|| json!(record.tags))),
        ("alternateName", (!entry.aliases.is_empty()).then(|| json!(entry.aliases))),
        ("license", portal_core::content::license::parse(&site.license).and_then(|l| l.url).map(Value::from)),
    ];
    for (key, value) in extra {
        if let Some(value) = value {
            article[key] = value;
        }
    }
    article
}

/// Every entry's detail and JSON-LD (a batch at a time), and the catalog (`{"entries": [...]}`,
/// from the cards), handed to `files` as they are made.
pub fn put(content: &Content, model: &Model, files: &mut Outputs) -> anyhow::Result<()> {
    let entries: Vec<&Entry> = content.entries.iter().collect();
    files.batches(&entries, |entry| Ok(Vec::from(entry_files(entry, &content.site)?)))?;
    files.push(catalog(model));
    Ok(())
}

/// An entry's detail and JSON-LD files.
pub fn entry_files(entry: &Entry, site: &SiteConfig) -> anyhow::Result<[OutFile; 2]> {
    let slug = &entry.record.slug;
    let detail = success(json!({"data": {"entry": entry.record.to_detail_json()}}));
    let source = &entry.record.file;
    let files = [
        OutFile::at(format!("/api/encyclopedia/{slug}"), detail.to_string().into_bytes())?.from_source(source),
        OutFile::at(format!("/api/encyclopedia/{slug}/jsonld"), json_ld(entry, site).to_string().into_bytes())?
            .from_source(source),
    ];
    Ok(files.map(|f| f.in_group(Group::Encyclopedia)))
}

/// The catalog the list, facets and suggestions read, from the entries' cards.
pub fn catalog(model: &Model) -> OutFile {
    let entries = json_array(model.entries.iter().filter_map(|card| card.entry.as_ref()).map(|e| e.catalog.as_str()));
    OutFile::internal(CATALOG_FILE, format!("{{\"entries\":{entries}}}").into_bytes()).in_group(Group::Encyclopedia)
}
