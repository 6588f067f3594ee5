//! The groups a rebuild makes again (see `write::file::Group`), each from the model and the last
//! build's table of the group: what it renders now, and which of the last build's outputs stand.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use anyhow::{Context, Result};
use portal_core::content::taxonomy::Taxonomy;
use portal_core::content::{Entry, Record};
use serde_json::Value;

use super::state::Output;
use crate::build::documents::{api, calendar, encyclopedia};
use crate::build::pages::{self, entry, listing, record::Translations, taxonomy, Key, Paged, Renderer};
use crate::build::write::file::OutFile;

/// A group made again: the files rendered now, and the last build's outputs that stand.
#[derive(Debug, Default)]
pub struct Made {
    /// Files rendered now.
    pub files: Vec<OutFile>,
    /// Outputs of the last build kept as they are.
    pub kept: Vec<Output>,
    /// A collection's records as JSON, in API order, when its listing was made again (search
    /// reads its documents from them).
    pub items: Option<Vec<Value>>,
}

/// The keep test of keyed pages: the last build's page at the URL was made from the same inputs.
pub fn keeper(old: &[Output]) -> impl Fn(&str, &Key) -> bool + Sync + '_ {
    let keys: BTreeMap<&str, [u8; 32]> = old.iter().filter_map(|o| Some((o.route.as_deref()?, o.key?))).collect();
    move |url: &str, key: &Key| keys.get(url) == Some(key)
}

/// Adds pages to `made`: the rendered ones' files, the kept ones' last outputs (the page and its
/// twin).
fn add_pages(made: &mut Made, paged: Vec<Paged>, old: &[Output]) {
    let by_route: BTreeMap<&str, &Output> = old.iter().filter_map(|o| Some((o.route.as_deref()?, o))).collect();
    let by_file: BTreeMap<&str, &Output> = old.iter().map(|o| (o.file.as_str(), o)).collect();
    for page in paged {
        match page {
            Paged::Rendered(files) => made.files.extend(*files),
            Paged::Kept(url) => {
                let Some(page) = by_route.get(url.as_str()) else { continue };
                let twin = page.markdown.as_deref().and_then(|twin| by_file.get(twin));
                made.kept.extend(std::iter::once(*page).chain(twin.copied()).cloned());
            }
        }
    }
}

/// The outputs of `old` that stand: those of records neither `rendered` now nor `gone`, and
/// the group's own (listings, catalog) unless its records `changed`.
fn standing(old: &[Output], rendered: &BTreeSet<&str>, changed: bool, gone: &BTreeSet<String>) -> Vec<Output> {
    old.iter()
        .filter(|o| match &o.source {
            Some(source) => !rendered.contains(source.as_str()) && !gone.contains(source),
            None => !changed,
        })
        .cloned()
        .collect()
}

/// A collection made again. `records` are its records to render (full), `changed` whether any of
/// its records changed, came or went (then its listings are made again too), `gone` the files
/// whose outputs go.
pub fn collection(
    r: &Renderer,
    name: &'static str,
    old: &[Output],
    records: &[&Record],
    changed: bool,
    gone: &BTreeSet<String>,
    out: &Path,
) -> Result<Made> {
    let rendered: BTreeSet<&str> = records.iter().map(|record| record.file.as_str()).collect();
    let mut made = Made { kept: standing(old, &rendered, changed, gone), ..Made::default() };
    for record in records {
        made.files.push(api::detail_file(record)?);
        made.files.extend(calendar::event_file(r.content, record)?);
    }
    made.files.extend(pages::record_pages(r, records, &Translations::of(r.model))?);
    if changed {
        let items = items(r, name, records, out)?;
        if name == calendar::EVENTS {
            made.files.push(calendar::feed(r.content, &items)?);
        }
        api::listing(name, items.clone(), &r.content.site, &mut |file| made.files.push(file))?;
        made.items = Some(items);
        let keep = keeper(old);
        add_pages(&mut made, listing::collection(r, name, &keep)?, old);
    }
    Ok(made)
}

/// The JSON of every record of collection `name`, in the model's order: the last build's listing
/// for records not read again, `records` for those that were.
fn items(r: &Renderer, name: &str, records: &[&Record], out: &Path) -> Result<Vec<Value>> {
    let mut fresh: BTreeMap<&str, Value> = records.iter().map(|rec| (rec.url.as_str(), rec.to_json())).collect();
    let file = out.join("api").join(format!("{name}.json"));
    let last: Value = match std::fs::read(&file) {
        Ok(bytes) => serde_json::from_slice(&bytes).with_context(|| format!("reading {}", file.display()))?,
        Err(_) => Value::Null,
    };
    let mut last = last;
    let mut known: BTreeMap<String, Value> = BTreeMap::new();
    if let Value::Array(items) = last["data"][name].take() {
        for item in items {
            if let Some(url) = item["url"].as_str() {
                known.insert(url.to_string(), item);
            }
        }
    }
    r.model
        .cards(name)
        .iter()
        .map(|card| {
            fresh
                .remove(card.url.as_str())
                .or_else(|| known.remove(&card.url))
                .with_context(|| format!("the last build's {} has no {}", file.display(), card.url))
        })
        .collect()
}

/// The encyclopedia made again: `entries` rendered (full), its catalog and index when `changed`.
pub fn encyclopedia(
    r: &Renderer,
    old: &[Output],
    entries: &[&Entry],
    changed: bool,
    gone: &BTreeSet<String>,
) -> Result<Made> {
    let rendered: BTreeSet<&str> = entries.iter().map(|e| e.record.file.as_str()).collect();
    let mut made = Made { kept: standing(old, &rendered, changed, gone), ..Made::default() };
    for entry in entries {
        made.files.extend(encyclopedia::entry_files(entry, &r.content.site)?);
    }
    let pages = entry::pages(r, entries, &Translations::of(r.model))?;
    // The index is made again only when the entries changed; otherwise it stands.
    made.files.extend(pages.into_iter().filter(|f| changed || f.source.is_some()));
    if changed {
        made.files.push(encyclopedia::catalog(r.model));
    }
    Ok(made)
}

/// Tags and categories made again: the index pages, and the pages of the terms `touched`.
pub fn taxonomy(r: &Renderer, old: &[Output], touched: &BTreeSet<(String, String)>) -> Result<Made> {
    let redone = |o: &Output| o.route.as_deref().is_some_and(|route| redone_route(route, touched));
    let twins: BTreeSet<&str> = old.iter().filter(|o| redone(o)).filter_map(|o| o.markdown.as_deref()).collect();
    let kept = old.iter().filter(|o| !redone(o) && !twins.contains(o.file.as_str())).cloned().collect();
    let mut made = Made { kept, ..Made::default() };
    let keep = keeper(old);
    let mut pages = Vec::new();
    taxonomy::pages(r, taxonomy::Which::Only(touched), &keep, &mut |more| {
        pages.extend(more);
        Ok(())
    })?;
    add_pages(&mut made, pages, old);
    Ok(made)
}

/// Whether the page at `route` is one of those made again: an index page, or a touched term's.
fn redone_route(route: &str, touched: &BTreeSet<(String, String)>) -> bool {
    Taxonomy::ALL.iter().any(|taxonomy| {
        let index = taxonomy.index_url();
        let Some(rest) = route.strip_prefix(&format!("{index}/")) else { return route == index };
        let term = rest.split('/').next().unwrap_or(rest);
        touched.contains(&(taxonomy.name().to_string(), term.to_string()))
    })
}
