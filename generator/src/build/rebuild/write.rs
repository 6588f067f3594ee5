//! The second half of a rebuild: making the groups again, resolving their links, and writing
//! what differs from the last build.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::time::Instant;

use anyhow::Context as _;
use portal_core::content::collections::{COLLECTIONS, ENCYCLOPEDIA};
use portal_core::content::time::DateTime;
use portal_core::dist::manifest::{Asset, Manifest, Routes, MANIFEST_FILE};
use portal_core::http::media::HTML;
use portal_core::search::pack::{PackManifest, INDEX_MANIFEST};
use serde_json::Value;

use super::changes::Changes;
use super::groups::{self, Made};
use super::routes::RouteView;
use super::save::output_of;
use super::state::{self, Output};
use super::{commit, dirty, Work};
use crate::build::documents::search::{self, flat_index, FlatRanges};
use crate::build::documents::site_files;
use crate::build::pages::{self, sitemap, Renderer};
use crate::build::write::file::{Group, OutFile};
use crate::build::write::manifest;
use crate::build::write::written::Written;
use crate::build::write::{collisions, links};
use crate::build::{build_time, BuildError, BuildReport, Steps};
use crate::load::Loaded;

/// The groups a rebuild makes again, and each one's table from the last build.
#[derive(Debug, Default)]
pub struct Redo {
    /// What each group makes now.
    pub made: BTreeMap<Group, Made>,
    /// The last build's table of each of those groups.
    pub old: BTreeMap<Group, Vec<Output>>,
}

impl Redo {
    /// Routes the group `group` serves now (files made now and outputs kept).
    fn routes_now(&self, group: Group) -> BTreeSet<&str> {
        let Some(made) = self.made.get(&group) else { return BTreeSet::new() };
        let files = made.files.iter().filter_map(|f| f.route.as_deref());
        files.chain(made.kept.iter().filter_map(|o| o.route.as_deref())).collect()
    }

    /// Routes the group served in the last build.
    fn routes_before(&self, group: Group) -> BTreeSet<&str> {
        self.old.get(&group).into_iter().flatten().filter_map(|o| o.route.as_deref()).collect()
    }

    /// What the last build served at each URL of the groups made again.
    fn assets_before(&self) -> std::collections::HashMap<&str, Asset> {
        let old = self.old.values().flatten();
        old.filter_map(|o| {
            let asset = Asset {
                file: o.file.clone(),
                content_type: o.content_type.clone(),
                etag: o.etag.clone(),
                headers: o.headers.clone(),
                markdown: o.markdown.clone(),
            };
            Some((o.route.as_deref()?, asset))
        })
        .collect()
    }

    /// URLs that came or went in the groups made again.
    fn delta(&self) -> BTreeSet<String> {
        let mut delta = BTreeSet::new();
        for group in self.made.keys() {
            let (now, before) = (self.routes_now(*group), self.routes_before(*group));
            delta.extend(now.symmetric_difference(&before).map(|r| r.to_string()));
        }
        delta
    }
}

/// Makes the groups again and writes the difference; `None` when only a clean build will do.
pub fn finish(
    work: Work,
    changes: &Changes,
    mut steps: Steps,
    started: Instant,
) -> Result<Option<BuildReport>, BuildError> {
    let now = build_time();
    let out = work.options.out.clone();
    let content = &work.content;
    let r = steps.time("templates", || {
        let intros = crate::build::pages::intro::Intros::of(content)?;
        Renderer::new(content, &work.model, work.options.templates.as_deref(), now, intros)
    })?;
    let mut redo = steps.time("groups", || make_groups(&r, &work, changes, now))?;
    let Some(()) = steps.time("linking", || add_linking(&r, &work, &mut redo))? else { return Ok(None) };
    let sections = sitemap_sections(&work, &redo);
    let mut flat_ranges = work.head.flat_ranges.clone();
    if !changes.is_empty() {
        let head = manifest::head(content, &work.model, &r.intros, now, 0);
        let Some((made, ranges)) = steps.time("search", || search_group(&work, &redo, changes, &head))? else {
            return Ok(None);
        };
        flat_ranges = ranges;
        redo.made.insert(Group::Search, made);
        redo.old.insert(Group::Search, state::outputs(&work.state, &Group::Search.name())?);
    }
    redo.made.insert(Group::Site, steps.time("site", || site_group(&r, &sections, now))?);
    redo.old.insert(Group::Site, state::outputs(&work.state, &Group::Site.name())?);
    let view = RouteView::new(&out, head_shards(&out)?);
    let Some(mut view) = steps.time("settle", || settle(view, &redo))? else { return Ok(None) };
    let mut files: Vec<OutFile> = redo.made.values_mut().flat_map(|made| std::mem::take(&mut made.files)).collect();
    let own: Vec<Output> = [Group::Theme, Group::Statics]
        .iter()
        .map(|g| state::outputs(&work.state, &g.name()))
        .collect::<anyhow::Result<Vec<_>>>()?
        .into_iter()
        .flatten()
        .collect();
    let resolver = Resolver::new(&view, &work.model, &redo, &own);
    steps.time("links", || links::apply_with(&mut files, &resolver, content.site.base()));
    let routes = steps.time("etags", || crate::build::write::routes::of(&files))?;
    let before = redo.assets_before();
    for (route, asset) in &routes {
        if before.get(route.as_str()) != Some(asset) {
            view.changes.insert(route.clone(), Some(asset.clone()));
        } else {
            view.changes.remove(route);
        }
    }
    let tables = tables(&redo, &files, &routes);
    let added = view.changes.iter().filter(|(route, change)| change.is_some() && !before.contains_key(route.as_str()));
    let total = work.head.routes + added.count() - view.changes.values().filter(|c| c.is_none()).count();
    let manifest = manifest::head(content, &work.model, &r.intros, now, total);
    let offline = steps.time("offline", || offline_files(&work, &manifest, &tables))?;
    for (route, asset) in crate::build::write::routes::of(&offline)? {
        // A URL the last build did not serve changes the route count: only a clean build will do.
        if !view.changes.contains_key(&route) && view.last(&route)?.is_none() {
            return Ok(None);
        }
        view.changes.insert(route, Some(asset));
    }
    let mut layout = steps.time("shards", || layout_files(&work.state, &manifest, &tables, &view, &offline, total))?;
    layout.extend(offline);
    let state = commit::State { sections, tables, manifest, total, now, flat_ranges };
    drop(r);
    let report = steps.time("write", || commit::commit(work, &redo, files, layout, state, started));
    steps.report();
    report
}

/// Where the links of the pages made again lead: this build's changes, the page of every card,
/// and the rest from the last build's route index.
struct Resolver<'a> {
    view: &'a RouteView,
    /// Pages of cards: their files follow from their URLs.
    pages: std::collections::HashSet<&'a str>,
    /// Files of the outputs the groups made again keep.
    kept: std::collections::HashMap<&'a str, &'a str>,
}

impl<'a> Resolver<'a> {
    /// The resolver of a rebuild: `own` are tables of groups not made again that pages link to
    /// (the theme's and the static files').
    fn new(view: &'a RouteView, model: &'a crate::build::model::Model, redo: &'a Redo, own: &'a [Output]) -> Self {
        // A record's page is a file, except a page introducing one rendered per request (`/visit`).
        let per_request = |card: &crate::build::model::Card| {
            matches!(
                super::dirty::page_kind(card),
                Some(portal_core::routing::PageAt::Introduces { per_request: true, .. })
            )
        };
        let mut pages: std::collections::HashSet<&str> =
            model.all().filter(|card| !per_request(card)).map(|card| card.url.as_str()).collect();
        // The navigation links the listing of every collection with records.
        let listings = model.collections.iter().filter(|(_, cards)| !cards.is_empty());
        pages.extend(
            listings.filter_map(|(_, cards)| cards.first().and_then(|card| listing_url(&card.url, &card.slug))),
        );
        let made = redo.made.values().flat_map(|m| &m.kept);
        let kept = made.chain(own).filter_map(|o| Some((o.route.as_deref()?, o.file.as_str()))).collect();
        Resolver { view, pages, kept }
    }
}

/// The listing page a record's page belongs to (`/news` for `/news/x`); none for a page at the
/// root.
fn listing_url<'u>(url: &'u str, slug: &str) -> Option<&'u str> {
    let listing = url.strip_suffix(slug)?.strip_suffix('/')?;
    (!listing.is_empty()).then_some(listing)
}

impl links::Resolve for Resolver<'_> {
    fn file_of(&self, route: &str) -> Option<String> {
        if let Some(change) = self.view.changes.get(route) {
            return change.as_ref().map(|asset| asset.file.clone());
        }
        if self.pages.contains(route) {
            return Some(portal_core::routing::page_file(route));
        }
        if let Some(file) = self.kept.get(route) {
            return Some(file.to_string());
        }
        self.view.file_of(route)
    }
}

/// The route-index shard count of the last build.
fn head_shards(out: &Path) -> Result<u32, BuildError> {
    let file = out.join(MANIFEST_FILE);
    let bytes = std::fs::read(&file).with_context(|| format!("reading {}", file.display()))?;
    let head: Manifest = serde_json::from_slice(&bytes).with_context(|| format!("reading {}", file.display()))?;
    Ok(head.route_shards)
}

/// Every group a rebuild makes again but search and the site: the collections and the
/// encyclopedia with records read or rendered again, and tags when a term changed.
fn make_groups(r: &Renderer, work: &Work, changes: &Changes, now: DateTime) -> Result<Redo, BuildError> {
    let out = work.options.out.as_path();
    let touched = changes.collections();
    let gone: BTreeSet<String> = work.old.keys().cloned().collect();
    let mut redo = Redo::default();
    for name in COLLECTIONS.iter().copied() {
        let records: Vec<_> = r.content.records(name).iter().collect();
        let changed = touched.contains(name) || (name == pages::listing::EVENTS && work.head.now != now);
        if !changed && records.is_empty() {
            continue;
        }
        let group = Group::collection(name);
        let old = state::outputs(&work.state, &group.name())?;
        redo.made.insert(group, groups::collection(r, name, &old, &records, changed, &gone, out)?);
        redo.old.insert(group, old);
    }
    let entries: Vec<_> = r.content.entries.iter().collect();
    if touched.contains(ENCYCLOPEDIA) || !entries.is_empty() {
        let old = state::outputs(&work.state, &Group::Encyclopedia.name())?;
        let changed = touched.contains(ENCYCLOPEDIA);
        redo.made.insert(Group::Encyclopedia, groups::encyclopedia(r, &old, &entries, changed, &gone)?);
        redo.old.insert(Group::Encyclopedia, old);
    }
    let terms = dirty::terms(&work.model, &work.old, &work.read);
    if !terms.is_empty() {
        let old = state::outputs(&work.state, &Group::Taxonomy.name())?;
        redo.made.insert(Group::Taxonomy, groups::taxonomy(r, &old, &terms)?);
        redo.old.insert(Group::Taxonomy, old);
    }
    Ok(redo)
}

/// Makes again the pages of records and entries whose body links name a URL that came or went
/// (their links resolve differently now). `None` when one of them cannot be read.
fn add_linking(r: &Renderer, work: &Work, redo: &mut Redo) -> Result<Option<()>, BuildError> {
    let done: BTreeSet<String> =
        redo.made.values().flat_map(|m| m.files.iter().filter_map(|f| f.source.clone())).collect();
    let linking = dirty::linking(&work.model, &redo.delta(), &done);
    if linking.is_empty() {
        return Ok(Some(()));
    }
    let Some(loaded) = work.load(&linking) else { return Ok(None) };
    for one in loaded {
        let (group, files) = match &one {
            Loaded::Record(record) => {
                let mut files = vec![crate::build::documents::api::detail_file(record)?];
                files.extend(pages::record_pages(r, &[record], &pages::record::Translations::of(r.model))?);
                (Group::collection(&record.collection), files)
            }
            Loaded::Entry(entry) => {
                let mut files = crate::build::documents::encyclopedia::entry_files(entry, &r.content.site)?.to_vec();
                let translations = pages::record::Translations::of(r.model);
                files.extend(
                    pages::entry::pages(r, &[entry], &translations)?.into_iter().filter(|f| f.source.is_some()),
                );
                (Group::Encyclopedia, files)
            }
        };
        if !redo.old.contains_key(&group) {
            let old = state::outputs(&work.state, &group.name())?;
            redo.made.insert(group, Made { files: Vec::new(), kept: old.clone(), items: None });
            redo.old.insert(group, old);
        }
        if let Some(made) = redo.made.get_mut(&group) {
            let file = files.first().and_then(|f| f.source.clone());
            made.kept.retain(|o| o.source != file);
            made.files.extend(files);
        }
    }
    Ok(Some(()))
}

/// The pages each sitemap section lists after the groups made again: the last build's, less the
/// pages gone from those groups, with the pages new to them (drafts aside).
fn sitemap_sections(work: &Work, redo: &Redo) -> BTreeMap<String, Vec<String>> {
    let mut sections: BTreeMap<String, BTreeSet<String>> =
        work.head.sitemap.iter().map(|(name, pages)| (name.clone(), pages.iter().cloned().collect())).collect();
    let drafts: BTreeSet<&str> = work.model.all().filter(|card| card.draft).map(|card| card.url.as_str()).collect();
    for (group, made) in redo.made.iter().filter(|(g, _)| !matches!(g, Group::Statics | Group::Site)) {
        let old = redo.old.get(group).into_iter().flatten().filter(|o| o.content_type == HTML);
        let before: BTreeSet<&str> = old.filter_map(|o| o.route.as_deref()).collect();
        let files = made.files.iter().filter(|f| f.content_type == HTML).filter_map(|f| f.route.as_deref());
        let kept = made.kept.iter().filter(|o| o.content_type == HTML).filter_map(|o| o.route.as_deref());
        let now: BTreeSet<&str> = files.chain(kept).filter(|route| !drafts.contains(route)).collect();
        for route in before.difference(&now) {
            if let Some(pages) = sections.get_mut(sitemap::section(route)) {
                pages.remove(*route);
            }
        }
        for route in now.difference(&before) {
            sections.entry(sitemap::section(route).to_string()).or_default().insert(route.to_string());
        }
    }
    sections
        .into_iter()
        .filter(|(_, pages)| !pages.is_empty())
        .map(|(name, pages)| (name, pages.into_iter().collect()))
        .collect()
}

/// The site made again, whole: the status, llms.txt, the feed, the datasets, the home page and the
/// sitemap (the theme, made of the settings alone, stands).
fn site_group(r: &Renderer, sections: &BTreeMap<String, Vec<String>>, now: DateTime) -> Result<Made, BuildError> {
    let mut files = site_files(r.content, r.model, now)?;
    files.extend(pages::site_pages(r)?);
    files.extend(sitemap::files_of_sections(
        r.content.site.base(),
        sections,
        &sitemap::rendered_pages(r.content),
        sitemap::MAX_URLS,
        &sitemap::LastMod::of(r.model),
    )?);
    Ok(Made { files, kept: Vec::new(), items: None })
}

/// Search made again: the segments of the index that hold a changed record (see [`super::search`])
/// and the flat index, each collection's block copied from the last build's file unless the
/// collection changed. `None` when the last build's index cannot be matched.
fn search_group(
    work: &Work,
    redo: &Redo,
    changes: &Changes,
    head: &Manifest,
) -> Result<Option<(Made, FlatRanges)>, BuildError> {
    let made_now: BTreeMap<&str, &[u8]> =
        redo.made.values().flat_map(|m| m.files.iter()).map(|f| (f.file.as_str(), f.bytes.as_slice())).collect();
    let items: BTreeMap<&str, &[Value]> = redo
        .made
        .iter()
        .filter_map(|(group, made)| match (group, &made.items) {
            (Group::Collection(name), Some(items)) => Some((*name, items.as_slice())),
            _ => None,
        })
        .collect();
    let old = state::outputs(&work.state, &Group::Search.name())?;
    let Some(mut made) = super::search::index(work, &made_now, &items, &old)? else { return Ok(None) };
    let (flat, ranges) = flat_file(work, changes)?;
    let find = find_files(work, &made, &flat.bytes, head)?;
    made.files.push(flat);
    made.files.extend(find);
    Ok(Some((made, ranges)))
}

/// The static search made again from the index as it now is: its segments made now, or the last
/// build's kept ones read back (see `search::find_files`).
fn find_files(work: &Work, made: &Made, flat: &[u8], head: &Manifest) -> Result<Vec<OutFile>, BuildError> {
    let now: BTreeMap<&str, &[u8]> = made.files.iter().map(|f| (f.file.as_str(), f.bytes.as_slice())).collect();
    let index = now.get(INDEX_MANIFEST).context("the search index's manifest was not made")?;
    let pack: PackManifest = serde_json::from_slice(index).context("reading the search index's manifest")?;
    let mut segments = Vec::with_capacity(pack.segments.len());
    for meta in &pack.segments {
        let file = meta.file();
        segments.push(match now.get(file.as_str()) {
            Some(bytes) => bytes.to_vec(),
            None => {
                let path = work.options.out.join(&file);
                std::fs::read(&path).with_context(|| format!("reading {}", path.display()))?
            }
        });
    }
    let written = search::Written { metas: pack.segments, segments, flat: flat.to_vec() };
    Ok(search::find_files(written, head)?)
}

/// `/api/search-index.json`, copying the blocks of unchanged collections from the last build's.
fn flat_file(work: &Work, changes: &Changes) -> Result<(OutFile, FlatRanges), BuildError> {
    let touched = changes.collections();
    let path = work.options.out.join("api/search-index.json");
    let last = std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    let blocks = search::blocks(&work.model).map(|(name, cards)| {
        let kept = work.head.flat_ranges.get(&name).filter(|_| !touched.contains(&name));
        match kept.and_then(|(start, end)| last.get(*start..*end)) {
            Some(slice) => (name, slice.to_string()),
            None => (name, search::block(cards)),
        }
    });
    let (flat, ranges) = flat_index(blocks);
    Ok((OutFile::at("/api/search-index.json", flat.into_bytes())?.in_group(Group::Search), ranges))
}

/// The changes of the route index: URLs gone, and those made now (their files, for resolving
/// links; entity tags follow). `None` on a URL two files would claim.
fn settle(mut view: RouteView, redo: &Redo) -> Result<Option<RouteView>, BuildError> {
    let made: Vec<&OutFile> = redo.made.values().flat_map(|m| m.files.iter()).collect();
    let owned: Vec<Written> =
        made.iter().map(|f| Written::of(&OutFile { bytes: Vec::new(), ..(*f).clone() })).collect();
    if !collisions::check(&owned).is_empty() {
        return Ok(None);
    }
    for group in redo.made.keys() {
        for route in redo.routes_before(*group).difference(&redo.routes_now(*group)) {
            view.changes.insert(route.to_string(), None);
        }
    }
    for group in redo.made.keys() {
        for route in redo.routes_now(*group).difference(&redo.routes_before(*group)) {
            let taken =
                view.changes.get(*route).map_or_else(|| view.last(route).map(|a| a.is_some()), |c| Ok(c.is_some()))?;
            if taken {
                return Ok(None);
            }
        }
    }
    for file in made {
        if let Some(route) = &file.route {
            let asset = Asset {
                file: file.file.clone(),
                content_type: file.content_type.clone(),
                etag: String::new(),
                headers: None,
                markdown: None,
            };
            view.changes.insert(route.clone(), Some(asset));
        }
    }
    Ok(Some(view))
}

/// The new table of each group made again: its kept outputs and the files made now.
fn tables(redo: &Redo, files: &[OutFile], routes: &Routes) -> BTreeMap<Group, Vec<Output>> {
    let mut tables: BTreeMap<Group, Vec<Output>> =
        redo.made.iter().map(|(group, made)| (*group, made.kept.clone())).collect();
    for file in files {
        tables.entry(file.group).or_default().push(output_of(file, routes));
    }
    tables.values_mut().for_each(|table| table.sort_by(|a, b| a.file.cmp(&b.file)));
    tables
}

/// The service worker and the listings' record lists (see `crate::build::offline`), made from the
/// new table of each group made again and the last build's of the others.
fn offline_files(
    work: &Work,
    manifest: &Manifest,
    tables: &BTreeMap<Group, Vec<Output>>,
) -> anyhow::Result<Vec<OutFile>> {
    if !manifest.site.offline.enabled {
        return Ok(Vec::new());
    }
    let mut built = Vec::new();
    for group in Group::tabled() {
        let table = match tables.get(&group) {
            Some(table) => table.clone(),
            None => state::outputs(&work.state, &group.name()).unwrap_or_default(),
        };
        let collection = match group {
            Group::Collection(name) => Some(name),
            _ => None,
        };
        built.extend(table.into_iter().filter(|o| crate::build::offline::may_matter(&o.file)).map(|o| {
            crate::build::offline::precache::Built { file: o.file.into(), len: o.len, tag: o.etag.into(), collection }
        }));
    }
    let worker = crate::theme::service_worker(work.options.templates.as_deref())?;
    let (files, _) = crate::build::offline::layout_files(&manifest.site, manifest.help.as_ref(), &built, &worker)?;
    Ok(files.into_iter().map(|f| f.in_group(Group::Layout)).collect())
}

/// `_headers`, the nginx snippet (over the site's own URLs: the site's, search's and the static
/// files', and the `offline` files) and the route shards that changed.
fn layout_files(
    state: &Path,
    manifest: &Manifest,
    tables: &BTreeMap<Group, Vec<Output>>,
    view: &RouteView,
    offline: &[OutFile],
    total: usize,
) -> Result<Vec<OutFile>, BuildError> {
    let mut own_tables = Vec::new();
    for group in [Group::Site, Group::Theme, Group::Search, Group::Statics] {
        own_tables.push(match tables.get(&group) {
            Some(table) => table.clone(),
            None => state::outputs(state, &group.name())?,
        });
    }
    let mut own: Routes = own_tables
        .iter()
        .flatten()
        .filter_map(|o| {
            let asset = view.now(o.route.as_deref()?).ok()??;
            Some((o.route.clone()?, asset))
        })
        .collect();
    own.extend(crate::build::write::routes::of(offline)?);
    let mut files = Vec::from(crate::build::hosting::files(manifest, &own));
    files.extend(view.shard_files(total)?);
    Ok(files)
}
