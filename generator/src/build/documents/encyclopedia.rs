//! The encyclopedia as files (docs/spec/api-spec.md#encyclopedia): each entry's detail and its JSON-LD (a schema.org
//! `Article` citing its sources), plus the catalog the list, facets and suggestions read.

use portal_core::content::{Entry, SiteConfig};
use portal_core::http::envelope::success;
use portal_core::queries::encyclopedia::CATALOG_FILE;
use portal_core::standards::json_ld;
use serde_json::{json, Value};

use crate::build::model::{json_array, Model};
use crate::build::write::file::{Group, OutFile};
use crate::build::write::sink::Outputs;
use crate::load::Content;

/// An entry as the list shows it: the record without its body.
pub fn list_item(entry: &Entry) -> Value {
    let mut item = entry.record.to_json();
    if let Value::Object(map) = &mut item {
        map.remove("body");
    }
    item
}

/// Every entry's detail and JSON-LD (a batch at a time), and the catalog (`{"entries": [...]}`,
/// from the cards), handed to `files` as they are made.
pub fn put(content: &Content, model: &Model, files: &mut Outputs) -> anyhow::Result<()> {
    content.each_entry_batch(crate::build::write::sink::BATCH, |batch| {
        files.batches(batch, |entry| Ok(Vec::from(entry_files(entry, &content.site)?)))
    })?;
    files.push(catalog(model));
    Ok(())
}

/// An entry's detail and JSON-LD files.
pub fn entry_files(entry: &Entry, site: &SiteConfig) -> anyhow::Result<[OutFile; 2]> {
    let slug = &entry.record.slug;
    let detail = success(json!({"data": {"entry": entry.record.to_detail_json()}}));
    let source = &entry.record.file;
    let files = [
        OutFile::at(format!("/api/encyclopedia/{slug}"), detail.to_string().into_bytes())?.with_source(source),
        OutFile::at(
            format!("/api/encyclopedia/{slug}/jsonld"),
            json_ld::article(entry, site).to_string().into_bytes(),
        )?
        .with_source(source),
    ];
    Ok(files.map(|f| f.in_group(Group::Encyclopedia)))
}

/// The catalog the list, facets and suggestions read, from the entries' cards.
pub fn catalog(model: &Model) -> OutFile {
    let entries = json_array(model.entries.iter().filter_map(|card| card.entry.as_ref()).map(|e| e.catalog.as_str()));
    OutFile::internal(CATALOG_FILE, format!("{{\"entries\":{entries}}}").into_bytes()).in_group(Group::Encyclopedia)
}
