//! What a build leaves for the next one (see [`super::state`]): after a clean build, everything;
//! after a rebuild, what it changed.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use anyhow::Result;
use portal_core::content::collections::ENCYCLOPEDIA;
use portal_core::content::ContentError;
use portal_core::dist::manifest::Routes;
use portal_core::http::media::HTML;

use super::sources::Found;
use super::state::{self, Head, Output, Source, FORMAT};
use crate::build::hosting::upload::Upload;
use crate::build::model::Model;
use crate::build::pages::sitemap;
use crate::build::write::file::{Group, OutFile};
use crate::build::write::written::Written;
use crate::build::Rendered;

/// Saves the state of a clean build. `found` is what listing the content saw before loading it
/// (`None` when listing found a problem: then no state is kept, and the next build is clean too).
pub fn clean(
    state_dir: &Path,
    out: &Path,
    rendered: &Rendered,
    found: Option<BTreeMap<String, Found>>,
    inputs: [u8; 32],
    upload: Upload,
    bytes: u64,
) -> Result<()> {
    let Some(found) = found else { return Ok(()) };
    state::claim(state_dir, out)?;
    let (sources, site_warnings) = sources(found, &rendered.warnings);
    let model = &rendered.model;
    for (group, cards) in card_groups(model) {
        state::save_cards(state_dir, &group, cards)?;
    }
    let mut kept: BTreeSet<String> = card_groups(model).map(|(group, _)| group).collect();
    let made = rendered.files.made();
    // A group's table at a time: together they are a copy of what is kept of every file.
    for (group, members) in tables(made) {
        let table: Vec<Output> = members.into_iter().map(|i| made[i].output()).collect();
        state::save_outputs(state_dir, &group, &table)?;
        kept.insert(group);
    }
    state::prune(state_dir, &kept);
    let drafts: BTreeSet<&str> = model.all().filter(|card| card.draft).map(|card| card.url.as_str()).collect();
    let head = Head {
        format: FORMAT,
        inputs,
        now: rendered.generated_at,
        sources,
        flat_ranges: rendered.flat_ranges.clone(),
        sitemap: sitemap::sections(sitemap_pages(rendered.files.made(), &drafts)),
        routes: rendered.routes,
        bytes,
        site_warnings,
        upload,
        stamp: state::stamp(out),
    };
    state::save_head(state_dir, &head, &state::Changed { sources: None, sitemap: true }, card_group)
}

/// Warnings as the state keeps them: (file, line, message).
pub type Kept = Vec<(String, usize, String)>;

/// The sources as the state keeps them, each with its warnings; and the warnings about no source.
pub fn sources(found: BTreeMap<String, Found>, warnings: &[ContentError]) -> (BTreeMap<String, Source>, Kept) {
    let mut sources: BTreeMap<String, Source> = found
        .into_iter()
        .map(|(file, f)| {
            let source = Source {
                collection: f.collection.to_string(),
                size: f.size,
                modified: f.modified,
                warnings: Vec::new(),
            };
            (file, source)
        })
        .collect();
    let mut others = Vec::new();
    for warning in warnings {
        match sources.get_mut(&warning.file) {
            Some(source) => source.warnings.push((warning.line, warning.message.clone())),
            None => others.push((warning.file.clone(), warning.line, warning.message.clone())),
        }
    }
    (sources, others)
}

/// The state's name for the cards of each collection and of the encyclopedia, with the cards.
pub fn card_groups(model: &Model) -> impl Iterator<Item = (String, &[crate::build::model::Card])> {
    let collections = model.collections.iter().map(|(name, cards)| (Group::collection(name).name(), cards.as_slice()));
    collections.chain([(Group::Encyclopedia.name(), model.entries.as_slice())])
}

/// The name of the card group of `collection` (`entries` for the encyclopedia).
pub fn card_group(collection: &str) -> String {
    if collection == ENCYCLOPEDIA {
        Group::Encyclopedia.name()
    } else {
        Group::collection(collection).name()
    }
}

/// The files of each group's table of outputs, as indices into `files` (the layout's files aside:
/// a rebuild makes them again).
pub fn tables(files: &[Written]) -> BTreeMap<String, Vec<usize>> {
    let mut tables: BTreeMap<String, Vec<usize>> = Group::tabled().map(|group| (group.name(), Vec::new())).collect();
    for (i, f) in files.iter().enumerate().filter(|(_, f)| f.group != Group::Layout) {
        tables.entry(f.group.name()).or_default().push(i);
    }
    tables
}

/// A file as an output table keeps it.
pub fn output_of(f: &OutFile, routes: &Routes) -> Output {
    let asset = f.route.as_ref().and_then(|route| routes.get(route));
    Output {
        file: f.file.clone(),
        route: f.route.clone(),
        content_type: f.content_type.clone(),
        headers: f.headers.clone(),
        markdown: f.markdown.clone(),
        etag: asset.map(|a| a.etag.clone()).unwrap_or_default(),
        len: f.bytes.len() as u64,
        source: f.source.clone(),
        key: f.key,
    }
}

/// The pages the sitemap lists: every HTML page of the build but static files and drafts.
fn sitemap_pages<'a>(files: &'a [Written], drafts: &'a BTreeSet<&'a str>) -> impl Iterator<Item = &'a str> {
    files
        .iter()
        .filter(|f| f.group != Group::Statics && f.content_type() == HTML)
        // The CMS's page is no page for readers (noindex), as a clean build's sitemap says.
        .filter(|f| f.headers() != Some(portal_core::http::headers::CMS_ADMIN))
        .filter_map(|f| f.route())
        .filter(|route| !drafts.contains(route))
}
