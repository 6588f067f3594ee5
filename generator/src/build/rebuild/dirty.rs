//! What a rebuild makes again beside the records and entries it read: the pages of records whose
//! translations changed, of entries whose related entries changed, and of records whose body
//! links name a URL that came or went; the terms whose pages change.

use std::collections::{BTreeMap, BTreeSet};

use portal_core::content::collections::PAGES;
use portal_core::content::help::HELP_URL;
use portal_core::routing::{page_at, PageAt};

use super::changes::terms_of;
use crate::build::model::{Card, Model};

/// Files of unchanged records and entries whose pages must be made again because of `old` (the
/// cards replaced or removed, by file) and `model` (the cards now): their translation groups, and
/// the entries relating to a changed entry.
pub fn dependents(model: &Model, old: &BTreeMap<String, Card>, read: &BTreeSet<String>) -> BTreeSet<String> {
    let new: Vec<&Card> = model.all().filter(|card| read.contains(&card.file)).collect();
    let changed = || old.values().chain(new.iter().copied());
    let keys: BTreeSet<&str> = changed().filter_map(|card| card.translation_key.as_deref()).collect();
    let slugs: BTreeSet<&str> = changed().filter(|card| card.entry.is_some()).map(|card| card.slug.as_str()).collect();
    let relates =
        |card: &Card| card.entry.as_ref().is_some_and(|e| e.related.iter().any(|r| slugs.contains(r.as_str())));
    model
        .all()
        .filter(|card| !read.contains(&card.file))
        .filter(|card| card.translation_key.as_deref().is_some_and(|key| keys.contains(key)) || relates(card))
        .map(|card| card.file.clone())
        .collect()
}

/// Files of records and entries (not in `done`) whose body links name one of `urls`.
pub fn linking(model: &Model, urls: &BTreeSet<String>, done: &BTreeSet<String>) -> BTreeSet<String> {
    if urls.is_empty() {
        return BTreeSet::new();
    }
    model
        .all()
        .filter(|card| !done.contains(&card.file) && card.links.iter().any(|link| urls.contains(link)))
        .map(|card| card.file.clone())
        .collect()
}

/// The terms whose pages change: those the old and the new cards carry.
pub fn terms(model: &Model, old: &BTreeMap<String, Card>, read: &BTreeSet<String>) -> BTreeSet<(String, String)> {
    let new = model.all().filter(|card| read.contains(&card.file));
    old.values().chain(new).flat_map(terms_of).collect()
}

/// What a content page at `card`'s URL is, for pages (see `pages::intro`).
pub fn page_kind(card: &Card) -> Option<PageAt> {
    (card.collection == PAGES).then(|| page_at(&card.url))
}

/// Whether a rebuild can keep the introductions of generated pages as they are: no page that
/// introduces (or is refused at) a generated URL changed, and none sits where a page is generated
/// only for some content (a term's page), which any change may make or unmake. Otherwise the
/// build is a clean one.
pub fn intros_hold(model: &Model, old: &BTreeMap<String, Card>, read: &BTreeSet<String>) -> bool {
    let new = model.all().filter(|card| read.contains(&card.file));
    let changed_intro = old.values().chain(new).any(|card| page_kind(card).is_some_and(|kind| kind != PageAt::Own));
    let conditional =
        model.cards(PAGES).iter().any(|card| matches!(page_at(&card.url), PageAt::Introduces { always: false, .. }));
    !changed_intro && !conditional
}

/// Files of the pages introducing generated pages, and of the pages that may be the help page (a
/// `help` key, or the page at [`HELP_URL`]): read again by every rebuild, since the pages they
/// introduce and the manifest show them.
pub fn intro_files(model: &Model) -> BTreeSet<String> {
    model
        .cards(PAGES)
        .iter()
        .filter(|card| {
            matches!(page_kind(card), Some(PageAt::Introduces { .. }))
                || card.url == HELP_URL
                || card.shapes.iter().any(|(key, _)| key == "help")
        })
        .map(|card| card.file.clone())
        .collect()
}
