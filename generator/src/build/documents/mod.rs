//! Every output of the build that is not an HTML page: the collections' API documents, the
//! standards formats (iCalendar, JSON-LD, HSDS, OGC, GeoJSON), the discovery documents, the
//! encyclopedia's documents, the datasets, the search indexes, the mail templates of the actions,
//! the CMS configuration and the static files copied from `content/static/`.

pub mod actions;
pub mod api;
pub mod calendar;
pub mod cms;
pub mod data;
pub mod discovery;
pub mod encyclopedia;
pub mod feed;
pub mod hsds;
pub mod ogc;
pub mod search;
pub mod spatial;
pub mod statics;

use std::path::Path;

use portal_core::content::time::DateTime;

use crate::build::model::Model;
use crate::build::write::file::{Group, OutFile};
use crate::build::BuildError;
use crate::load::Content;

/// The files of the site as a whole, not pages, that show its records or the build time: the
/// status, llms.txt, the feed and the datasets (whose `updatedAt` defaults to the build time).
pub fn site_files(content: &Content, model: &Model, generated_at: DateTime) -> Result<Vec<OutFile>, BuildError> {
    let mut files = discovery::site_files(content, model, generated_at)?;
    files.push(feed::file(content, model, generated_at)?);
    files.extend(data::files(content, generated_at)?);
    files.extend(cms::files(content, model)?);
    Ok(files.into_iter().map(|f| f.in_group(Group::Site)).collect())
}

/// The files of the site as a whole, not pages, made of its settings alone: discovery documents,
/// places and the mail templates of the actions.
pub fn theme_files(content: &Content, templates: Option<&Path>) -> Result<Vec<OutFile>, BuildError> {
    let mut files = discovery::theme_files(content)?;
    files.extend(spatial::files(content)?);
    files.extend(ogc::files(content)?);
    files.extend(actions::files(templates)?);
    Ok(files.into_iter().map(|f| f.in_group(Group::Theme)).collect())
}
