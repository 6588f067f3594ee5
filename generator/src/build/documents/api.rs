//! The collection endpoints as files: `GET /api/<collection>` (docs/spec/api-spec.md#envelopes), its static pages
//! `GET /api/<collection>/_page/<n>` (for plain CDNs and offline copies), `GET
//! /api/<collection>/<slug>` (the detail, with `html`) and the collection's JSON Schema
//! `GET /api/schemas/<collection>.json`.

use anyhow::Result;
use portal_core::content::record_schema;
use portal_core::content::{Record, SiteConfig};
use portal_core::http::envelope;
use rayon::prelude::*;
use serde_json::Value;

use crate::build::documents::calendar;
use crate::build::write::file::{Group, OutFile};
use crate::build::write::sink::{Outputs, BATCH};
use crate::load::Content;

/// The URL of page `n` of a collection's static listing.
pub fn page_url(name: &str, n: usize) -> String {
    format!("/api/{name}/_page/{n}")
}

/// The static pages of a listing (`items` in order), page 1 even when it is empty, each handed to
/// `emit` as it is made.
fn pages(name: &str, items: Vec<Value>, page_size: usize, emit: &mut dyn FnMut(OutFile)) -> Result<()> {
    let page_size = page_size.max(1);
    let total = items.len();
    let mut rest = items.into_iter();
    for n in 1.. {
        let chunk: Vec<Value> = rest.by_ref().take(page_size).collect();
        if chunk.is_empty() && n > 1 {
            break;
        }
        let body = envelope::page(name, chunk, total, (n, page_size), |p| page_url(name, p));
        emit(OutFile::at(page_url(name, n), serde_json::to_vec(&body)?)?);
    }
    Ok(())
}

/// The JSON Schema of a collection's records.
fn schema(name: &str, items: &[Value], base_url: &str) -> Result<OutFile> {
    let path = format!("/api/schemas/{name}.json");
    let body = record_schema::derive(name, &format!("{base_url}{path}"), items);
    OutFile::at(path, serde_json::to_vec(&body)?)
}

/// The detail envelope of one record.
pub fn detail(record: &Record) -> Value {
    envelope::detail(&record.collection, record.to_detail_json())
}

/// Every collection's listing (a collection at a time: a listing holds all its records' JSON) and
/// every record's detail file and, for events, its calendar, handed to `files` as they are made:
/// each batch of records is read once for both.
pub fn put(content: &Content, files: &mut Outputs) -> Result<()> {
    for name in content.collections.keys() {
        let mut items: Vec<Value> = Vec::new();
        content.each_batch(name, BATCH, |batch| {
            items.par_extend(batch.par_iter().map(Record::to_json));
            files.batches(batch, |record| {
                let mut out = vec![detail_file(record)?];
                out.extend(calendar::event_file(content, record)?);
                Ok(out)
            })
        })?;
        if *name == calendar::EVENTS {
            files.push(calendar::feed(content, &items)?);
        }
        listing(name, items, &content.site, &mut |file| files.push(file))?;
    }
    Ok(())
}

/// A collection's listing, its static pages and its schema, from its records' JSON in API order;
/// for `services`, the HSDS API's files too, which are made from every service, so they belong to
/// the collection's group and a rebuild makes them again whenever a service changes. Each file is
/// handed to `emit` as it is made: at a million records a listing is some 70 MB, and its pages as
/// much again.
pub fn listing(name: &str, items: Vec<Value>, site: &SiteConfig, emit: &mut dyn FnMut(OutFile)) -> Result<()> {
    let group = Group::collection(name);
    let mut emit = |file: OutFile| emit(file.in_group(group));
    if name == "services" {
        crate::build::documents::hsds::files(&items, site)?.into_iter().for_each(&mut emit);
    }
    emit(schema(name, &items, site.base())?);
    let total = items.len();
    let mut listing = Value::Object(envelope::listing(name, items, total));
    emit(OutFile::at(format!("/api/{name}"), serde_json::to_vec(&listing)?)?);
    let items = match listing["data"][name].take() {
        Value::Array(items) => items,
        _ => Vec::new(),
    };
    drop(listing);
    pages(name, items, site.api.page_size, &mut emit)
}

/// A record's detail file.
pub fn detail_file(record: &Record) -> Result<OutFile> {
    let detail = detail(record).to_string().into_bytes();
    let file = OutFile::at(format!("/api/{}/{}", record.collection, record.slug), detail)?;
    Ok(file.with_source(&record.file).in_group(Group::collection(&record.collection)))
}
