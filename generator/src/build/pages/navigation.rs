//! The main navigation of every page and the names of collections as readers see them.
//!
//! `site.yaml` `menu:` sets the navigation as written; without it, the collections that have
//! records (in the order of docs/spec/api-spec.md#collections), then the encyclopedia when it has
//! entries, the data pages when `data/` has snapshots, the alerts when it has alerts, the map when
//! there are places and the weather when there is weather to show. Collection names and descriptions come from the interface text
//! (`collections.<name>.label|description`), so a Kiswahili site says "Habari" rather than "news".

use portal_core::content::collections::COLLECTIONS;
use portal_core::content::i18n::Strings;
use portal_core::content::MenuItem;
use serde_json::Value;

use super::{data, label};
use crate::build::model::Model;
use crate::load::Content;

/// A collection's name for readers.
pub fn collection_label(strings: &Strings, name: &str) -> String {
    let key = format!("collections.{name}.label");
    strings.lookup(&key).and_then(Value::as_str).map_or_else(|| label(name), str::to_string)
}

/// What a collection holds, for readers.
pub fn collection_description(strings: &Strings, name: &str) -> String {
    let key = format!("collections.{name}.description");
    strings
        .lookup(&key)
        .and_then(Value::as_str)
        .unwrap_or(portal_core::content::collections::description(name))
        .to_string()
}

/// The main navigation of a site with `content`'s settings and `model`'s records.
pub fn main_menu(content: &Content, model: &Model) -> Vec<MenuItem> {
    if !content.site.menu.is_empty() {
        return content.site.menu.clone();
    }
    let strings = &content.strings;
    let mut items: Vec<MenuItem> = COLLECTIONS
        .iter()
        .filter(|name| !model.cards(name).is_empty())
        .map(|name| MenuItem { title: collection_label(strings, name), url: format!("/{name}") })
        .collect();
    if !model.entries.is_empty() {
        items.push(MenuItem {
            title: strings.get("nav.encyclopedia").to_string(),
            url: portal_core::routing::pages::ENCYCLOPEDIA.into(),
        });
    }
    if content.datasets.keys().any(|name| name != data::ALERTS) {
        items.push(MenuItem { title: strings.get("nav.data").to_string(), url: data::DATA_URL.into() });
    }
    if content.datasets.contains_key(data::ALERTS) {
        items.push(MenuItem { title: strings.get("nav.alerts").to_string(), url: data::ALERTS_URL.into() });
    }
    if !content.features.is_empty() {
        items.push(MenuItem { title: strings.get("map.title").to_string(), url: super::map::MAP.into() });
    }
    if super::sitemap::rendered_pages(content).contains(&portal_core::routing::pages::WEATHER) {
        let url = portal_core::routing::pages::WEATHER.into();
        items.push(MenuItem { title: strings.get("weather.title").to_string(), url });
    }
    items
}
