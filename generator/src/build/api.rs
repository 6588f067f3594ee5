//! The collection endpoints as files: `GET /api/<collection>` (spec 2.3 envelope) and
//! `GET /api/<collection>/<slug>` (D2 detail with `html`).

use portal_core::content::Record;
use portal_core::envelope;
use rayon::prelude::*;
use serde_json::Value;

use super::output::OutFile;
use crate::load::Content;

const JSON: &str = "application/json";

/// The listing envelope of a collection.
pub fn listing(name: &str, records: &[Record]) -> Value {
    Value::Object(envelope::listing(name, records.iter().map(Record::to_json).collect(), records.len()))
}

/// The detail envelope of one record.
pub fn detail(record: &Record) -> Value {
    envelope::detail(&record.collection, record.to_detail_json())
}

/// Every collection's listing and every record's detail file.
pub fn files(content: &Content) -> Vec<OutFile> {
    content
        .collections
        .par_iter()
        .flat_map_iter(|(name, records)| {
            let listing = OutFile::served(
                format!("/api/{name}"),
                format!("api/{name}.json"),
                JSON,
                listing(name, records).to_string().into_bytes(),
            );
            let details = records.iter().map(move |record| {
                OutFile::served(
                    format!("/api/{name}/{}", record.slug),
                    format!("api/{name}/{}.json", record.slug),
                    JSON,
                    detail(record).to_string().into_bytes(),
                )
            });
            std::iter::once(listing).chain(details).collect::<Vec<_>>()
        })
        .collect()
}
