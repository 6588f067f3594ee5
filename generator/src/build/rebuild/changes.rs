//! What changed since the last build, and the model after it: the cards of the files that did not
//! change, as the last build kept them, and new cards for the files read again.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use portal_core::content::collections::ENCYCLOPEDIA;
use portal_core::content::taxonomy::{slug, Taxonomy};
use portal_core::search::schema::fold;
use rayon::prelude::*;

use super::save::card_group;
use super::sources::{unchanged, Found};
use super::state::{self, Head};
use crate::build::model::{sort_cards, Card, Model};
use crate::load::{Content, Loaded, One};

/// The record and entry files to read again, and those gone.
#[derive(Debug, Default)]
pub struct Changes {
    /// Files new or changed since the last build: (collection, path).
    pub read: Vec<(&'static str, PathBuf)>,
    /// Files gone: (file, collection).
    pub removed: Vec<(String, String)>,
}

impl Changes {
    /// What `found` has that differs from what the last build read.
    pub fn between(head: &Head, found: &BTreeMap<String, Found>) -> Changes {
        let read = found
            .iter()
            .filter(|(file, f)| head.sources.get(*file).is_none_or(|source| !unchanged(f, source)))
            .map(|(file, f)| (f.collection, PathBuf::from(file)))
            .collect();
        let removed = head
            .sources
            .iter()
            .filter(|(file, _)| !found.contains_key(*file))
            .map(|(file, source)| (file.clone(), source.collection.clone()))
            .collect();
        Changes { read, removed }
    }

    /// Whether nothing changed.
    pub fn is_empty(&self) -> bool {
        self.read.is_empty() && self.removed.is_empty()
    }

    /// The collections (and `entries`) of the files that changed or went.
    pub fn collections(&self) -> BTreeSet<String> {
        let read = self.read.iter().map(|(c, _)| c.to_string());
        read.chain(self.removed.iter().map(|(_, c)| c.clone())).collect()
    }
}

/// The cards of the last build, every group read in parallel; `None` if one cannot be read.
pub fn last_model(state: &Path) -> Option<Model> {
    let names: Vec<&'static str> = portal_core::content::collections::COLLECTIONS.to_vec();
    let groups: Vec<(&'static str, Vec<Card>)> = names
        .into_par_iter()
        .chain([ENCYCLOPEDIA])
        .map(|name| state::cards(state, &card_group(name)).ok().map(|cards| (name, cards)))
        .collect::<Option<_>>()?;
    let mut model = Model::default();
    for (name, cards) in groups {
        if name == ENCYCLOPEDIA {
            model.entries = cards;
        } else {
            model.collections.insert(name, cards);
        }
    }
    Some(model)
}

/// The model after the changes: the cards of `changes`' files replaced by those of `loaded` (the
/// files read again; drafts have none). Returns the cards replaced or removed, by file.
pub fn apply(model: &mut Model, changes: &Changes, loaded: &[One], content: &Content) -> BTreeMap<String, Card> {
    let gone: BTreeSet<&str> = changes
        .read
        .iter()
        .map(|(_, p)| p.to_str().unwrap_or_default())
        .chain(changes.removed.iter().map(|(f, _)| f.as_str()))
        .collect();
    let mut old = BTreeMap::new();
    let touched = changes.collections();
    let mut take = |cards: &mut Vec<Card>| {
        let (out, keep): (Vec<Card>, Vec<Card>) =
            std::mem::take(cards).into_iter().partition(|c| gone.contains(c.file.as_str()));
        *cards = keep;
        out.into_iter().for_each(|card| {
            old.insert(card.file.clone(), card);
        });
    };
    for (name, cards) in model.collections.iter_mut().filter(|(name, _)| touched.contains(**name)) {
        let _ = name;
        take(cards);
    }
    if touched.contains(ENCYCLOPEDIA) {
        take(&mut model.entries);
    }
    for one in loaded {
        match &one.loaded {
            Some(Loaded::Record(record)) => model
                .collections
                .entry(collection_name(&record.collection))
                .or_default()
                .push(Card::of(record, content)),
            Some(Loaded::Entry(entry)) => model.entries.push(Card::of_entry(entry, content)),
            None => {}
        }
    }
    for (name, cards) in model.collections.iter_mut() {
        if touched.contains(*name) {
            sort_cards(cards);
        }
    }
    model.entries.sort_by_cached_key(|card| (fold(&card.title), card.slug.clone()));
    old
}

fn collection_name(name: &str) -> &'static str {
    portal_core::content::collections::COLLECTIONS.iter().copied().find(|c| *c == name).unwrap_or("pages")
}

/// Whether the model holds together in the collections `touched`: no slug twice in a collection
/// or in the encyclopedia, and every `related` entry published. When it does not, a clean build
/// reports the problems as it always does.
pub fn holds(model: &Model, touched: &BTreeSet<String>) -> bool {
    let unique = |cards: &[Card]| {
        let mut seen = BTreeSet::new();
        cards.iter().all(|card| seen.insert(card.slug.as_str()))
    };
    let collections =
        model.collections.iter().filter(|(name, _)| touched.contains(**name)).all(|(_, cards)| unique(cards));
    let slugs: BTreeSet<&str> = model.entries.iter().map(|card| card.slug.as_str()).collect();
    let related = model
        .entries
        .iter()
        .filter_map(|card| card.entry.as_ref())
        .all(|entry| entry.related.iter().all(|r| slugs.contains(r.as_str())));
    collections && unique(&model.entries) && related
}

/// The terms (taxonomy name, term slug) a card carries.
pub fn terms_of(card: &Card) -> impl Iterator<Item = (String, String)> + '_ {
    let tags = card.tags.iter().map(|t| (Taxonomy::Tags, slug(t)));
    let category = card.category.iter().map(|c| (Taxonomy::Categories, slug(c)));
    tags.chain(category).filter(|(_, term)| !term.is_empty()).map(|(t, term)| (t.name().to_string(), term))
}
