//! The map of places (docs/content.md#places-and-the-map): `/map` (every published place of
//! `spatial/`, drawn at build time, and the places by category), `/map/category/<c>` and
//! `/map/zone/<z>` (the same for one category or zone: plain links, no script) and a page per
//! place at `/places/<id>`. What is drawn and how ids are made is core's (`pages::map`); this
//! module gives the pages their context, templates (`map.html`, `place.html`) and twins.

use std::collections::BTreeMap;

use anyhow::Result;
use portal_core::content::taxonomy::slug;
use portal_core::content::{ContentError, Record};
use portal_core::pages::map::{self, Bounds, Drawn, Place, Projection};
use serde_json::Map;
use serde_json::{json, Value};
use tera::Context;

use super::facts::{Fact, Rules};
use super::Renderer;
use crate::build::write::file::{Group, OutFile};
use crate::load::{spatial, Content};
use crate::sanitize::markdown::{escape, link};

/// The map page's URL.
pub use portal_core::routing::pages::MAP;

/// The width of the map's drawing: it scales to the screen, so a narrow one keeps markers and
/// names large enough on a phone.
const WIDTH: f64 = 480.0;
/// The width of a place's own small map.
const SMALL_WIDTH: f64 = 320.0;
/// The least a place's own map spans, in degrees (about a kilometre).
const SMALL_SPAN: f64 = 0.01;

/// The places of `content`, and the warnings about features that cannot be drawn.
pub fn places(content: &Content) -> (Vec<Place>, Vec<ContentError>) {
    let files: Vec<String> = content
        .registers
        .iter()
        .map(|r| content.root.join(spatial::FOLDER).join(format!("{}.geojson", r.stem)).display().to_string())
        .collect();
    let registers: Vec<(&str, &str, &[Value])> = content
        .registers
        .iter()
        .zip(&files)
        .map(|(r, file)| (file.as_str(), r.stem.as_str(), content.features.get(r.features.clone()).unwrap_or(&[])))
        .collect();
    let (places, warnings) = map::places(&registers);
    (places, warnings.into_iter().map(|(file, message)| ContentError::new(file, 1, message)).collect())
}

/// The warnings of the map: features left off it (docs/content.md#places-and-the-map).
pub fn warnings(content: &Content) -> Vec<ContentError> {
    places(content).1
}

/// What the map pages share: the places, their categories' styles and labels.
struct Atlas<'a, 'r> {
    r: &'a Renderer<'r>,
    places: Vec<Place>,
    /// Category slug to (style number, label).
    categories: BTreeMap<String, (usize, String)>,
    /// Zone slug to label.
    zones: BTreeMap<String, String>,
    /// The style of places without a category: one no category has (never the health cross).
    other: usize,
}

impl<'a, 'r> Atlas<'a, 'r> {
    fn new(r: &'a Renderer<'r>) -> Atlas<'a, 'r> {
        let places = r.places().to_vec();
        let label = |slug: &str, written: &str| {
            r.content.site.label(slug, r.strings()).map_or_else(|| super::label(written), str::to_string)
        };
        let found = map::categories(&places);
        let slugs: Vec<&str> = found.keys().map(String::as_str).collect();
        // Shapes follow what a category is (health the cross) before the order of names.
        let styles = map::style_numbers(&slugs);
        let categories: BTreeMap<String, (usize, String)> =
            found.iter().zip(styles).map(|((slug, written), n)| (slug.clone(), (n, label(slug, written)))).collect();
        let zones =
            map::zones(&places).into_iter().map(|(slug, written)| (slug.clone(), label(&slug, &written))).collect();
        let taken: Vec<usize> = categories.values().map(|(n, _)| *n).collect();
        let other = (0..).find(|n| n % map::COLOURS != 4 && !taken.contains(n)).unwrap_or(0);
        Atlas { r, places, categories, zones, other }
    }

    /// The style number of a place (its category's; places without one share the last).
    fn style(&self, place: &Place) -> usize {
        let key = place.category.as_deref().map(slug).unwrap_or_default();
        self.categories.get(&key).map_or(self.other, |(n, _)| *n)
    }

    /// A place's category: (slug, label), or `None`.
    fn category(&self, place: &Place) -> Option<(String, String)> {
        let key = slug(place.category.as_deref()?);
        self.categories.get(&key).map(|(_, label)| (key, label.clone()))
    }

    /// A place's zone: (slug, label), or `None`.
    fn zone(&self, place: &Place) -> Option<(String, String)> {
        let key = slug(place.zone.as_deref()?);
        self.zones.get(&key).map(|label| (key, label.clone()))
    }
}

/// Every map page and place page with their twins; none for a site without places (a content
/// page at `/map` is then a page of its own).
pub fn pages(r: &Renderer) -> Result<Vec<OutFile>> {
    let atlas = Atlas::new(r);
    if atlas.places.is_empty() {
        return Ok(Vec::new());
    }
    let all: Vec<&Place> = atlas.places.iter().collect();
    let mut files: Vec<OutFile> = map_page(&atlas, MAP, None, &all)?.into();
    for (key, (_, label)) in &atlas.categories {
        let chosen: Vec<&Place> =
            all.iter().copied().filter(|p| atlas.category(p).is_some_and(|(k, _)| &k == key)).collect();
        let filter = Filter { kind: "category", slug: key, label };
        files.extend(map_page(&atlas, &format!("{MAP}/category/{key}"), Some(filter), &chosen)?);
    }
    for (key, label) in &atlas.zones {
        let chosen: Vec<&Place> =
            all.iter().copied().filter(|p| atlas.zone(p).is_some_and(|(k, _)| &k == key)).collect();
        let filter = Filter { kind: "zone", slug: key, label };
        files.extend(map_page(&atlas, &format!("{MAP}/zone/{key}"), Some(filter), &chosen)?);
    }
    Ok(files.into_iter().map(|f| f.in_group(Group::Theme)).collect())
}

/// Every place's page with its twin. A place's page lists the records at it, so these are of the
/// site's group, which a rebuild makes again when records change (see [`super::site_pages`]).
pub fn place_pages(r: &Renderer) -> Result<Vec<OutFile>> {
    let atlas = Atlas::new(r);
    let mut files = Vec::new();
    for place in &atlas.places {
        files.extend(place_page(&atlas, place)?.into_iter().map(|f| f.in_group(Group::Site)));
    }
    Ok(files)
}

/// What a filtered map page shows: one category's or one zone's places.
#[derive(Clone, Copy)]
struct Filter<'a> {
    kind: &'static str,
    slug: &'a str,
    label: &'a str,
}

/// The drawing of `places` (empty when none can be drawn).
fn drawing(atlas: &Atlas<'_, '_>, places: &[&Place], title: &str, id: &str) -> String {
    let Some(bounds) = Bounds::around(places.iter().flat_map(|p| &p.parts), 0.05, 0.002) else { return String::new() };
    let projection = Projection::new(bounds, WIDTH);
    let zones: Vec<Option<String>> = places.iter().map(|p| atlas.zone(p).map(|(_, label)| label)).collect();
    let drawn: Vec<Drawn> = places
        .iter()
        .zip(&zones)
        .map(|(p, zone)| Drawn { place: p, style: atlas.style(p), faint: false, zone_label: zone.as_deref() })
        .collect();
    map::svg(&drawn, &projection, title, atlas.r.strings().get("map.description"), id)
}

/// The legend: each category of `places`, its swatch, label, count and filter page.
fn legend(atlas: &Atlas<'_, '_>, places: &[&Place]) -> Vec<Value> {
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    for place in places {
        if let Some((key, _)) = atlas.category(place) {
            *counts.entry(key).or_default() += 1;
        }
    }
    atlas
        .categories
        .iter()
        .filter_map(|(key, (n, label))| {
            let count = counts.get(key)?;
            let swatch = map::swatch(*n, places.iter().copied().filter(|p| atlas.style(p) == *n));
            Some(json!({"label": label, "count": count, "swatch": swatch, "url": format!("{MAP}/category/{key}")}))
        })
        .collect()
}

/// The places grouped by category (the uncategorised last), each linking its page.
fn groups(atlas: &Atlas<'_, '_>, places: &[&Place]) -> Vec<Value> {
    let mut groups: BTreeMap<(usize, String), Vec<Value>> = BTreeMap::new();
    let other = atlas.r.strings().get("map.other").to_string();
    for place in places {
        let slug = atlas.category(place).map(|(key, _)| key).unwrap_or_default();
        let zone = atlas.zone(place).map(|(_, label)| label);
        let item = json!({"name": place.name, "url": format!("/places/{}", place.id), "zone": zone});
        groups.entry((atlas.style(place), slug)).or_default().push(item);
    }
    groups
        .into_iter()
        .map(|((n, slug), places)| {
            let label = atlas.categories.get(&slug).map_or(other.clone(), |(_, l)| l.clone());
            let id = if slug.is_empty() { "other".to_string() } else { format!("c-{slug}") };
            let swatch = map::swatch(n, atlas.places.iter().filter(|p| atlas.style(p) == n));
            json!({"id": id, "label": label, "swatch": swatch, "places": places})
        })
        .collect()
}

/// The OGC API items the page's places are (a collection per register), as alternates.
fn alternates(places: &[&Place], filter: Option<Filter>) -> Vec<Value> {
    let mut registers: Vec<&str> = places.iter().map(|p| p.register.as_str()).collect();
    registers.sort_unstable();
    registers.dedup();
    let query = filter.map(|f| format!("?{}={}", f.kind, crate::images::encode_path(f.slug))).unwrap_or_default();
    registers
        .into_iter()
        .map(|r| json!({"href": format!("/api/ogc/collections/{}/items{query}", crate::images::encode_path(r)), "title": r}))
        .collect()
}

/// `/map` or one of its filtered pages, with its twin.
fn map_page(atlas: &Atlas<'_, '_>, url: &str, filter: Option<Filter>, places: &[&Place]) -> Result<[OutFile; 2]> {
    let strings = atlas.r.strings();
    let title = match filter {
        Some(f) => strings.fill(&format!("map.{}_title", f.kind), &[("name", f.label)]),
        None => strings.get("map.title").to_string(),
    };
    let mut context = Context::new();
    context.insert("title", &title);
    context.insert("svg", &drawing(atlas, places, &title, "map"));
    context.insert("legend", &legend(atlas, places));
    let zones: Vec<Value> = atlas
        .zones
        .iter()
        .map(|(key, label)| json!({"label": label, "url": format!("{MAP}/zone/{key}"), "current": filter.is_some_and(|f| f.kind == "zone" && f.slug == key)}))
        .collect();
    context.insert("zones", &zones);
    context.insert("groups", &groups(atlas, places));
    context.insert("filtered", &filter.is_some());
    context.insert("alternates", &alternates(places, filter));
    let mut md = format!("# {}\n\n", escape(&title));
    for group in groups(atlas, places) {
        md.push_str(&format!("## {}\n\n", escape(group["label"].as_str().unwrap_or_default())));
        for place in group["places"].as_array().into_iter().flatten() {
            let name = place["name"].as_str().unwrap_or_default();
            let zone = place["zone"].as_str().map(|z| format!(" ({})", escape(z))).unwrap_or_default();
            md.push_str(&format!("- {}{zone}\n", link(name, place["url"].as_str().unwrap_or_default())));
        }
        md.push('\n');
    }
    atlas.r.generated("map.html", url, context, md)
}

/// A place's page and its twin.
fn place_page(atlas: &Atlas<'_, '_>, place: &Place) -> Result<[OutFile; 2]> {
    let strings = atlas.r.strings();
    let url = format!("/places/{}", place.id);
    let category =
        atlas.category(place).map(|(key, label)| json!({"label": label, "url": format!("{MAP}/category/{key}")}));
    let zone = atlas.zone(place).map(|(key, label)| json!({"label": label, "url": format!("{MAP}/zone/{key}")}));
    let mut context = Context::new();
    let properties = properties(atlas, place);
    let rows: Vec<Value> = properties.iter().map(|f| json!([f.label, f.html])).collect();
    context.insert("place", &json!({"name": place.name, "properties": rows}));
    let here = records_at(atlas, place);
    context.insert("here", &here.iter().map(|(title, url)| json!({"title": title, "url": url})).collect::<Vec<_>>());
    context.insert("category", &category);
    context.insert("zone", &zone);
    context.insert("svg", &small_map(atlas, place));
    let point = place.point.map(|p| {
        json!({"geo": map::geo_uri(p), "osm": map::osm_url(p), "lat": portal_core::queries::spatial::coordinate(p.1),
               "lon": portal_core::queries::spatial::coordinate(p.0)})
    });
    context.insert("point", &point);
    let item = format!(
        "/api/ogc/collections/{}/items/{}",
        crate::images::encode_path(&place.register),
        crate::images::encode_path(&place.source_id)
    );
    context.insert("item", &item);
    let mut md = format!("# {}\n\n", escape(&place.name));
    for (label, value) in [("map.category", category.as_ref()), ("map.zone", zone.as_ref())] {
        if let Some(value) = value {
            md.push_str(&format!(
                "- {}: {}\n",
                escape(strings.get(label)),
                escape(value["label"].as_str().unwrap_or_default())
            ));
        }
    }
    if let Some(p) = place.point {
        md.push_str(&format!("- {}: `{}`\n", escape(strings.get("map.location")), map::geo_uri(p)));
        md.push_str(&format!("- {}\n", link(strings.get("map.openstreetmap"), &map::osm_url(p))));
    }
    if !here.is_empty() {
        md.push_str(&format!("\n## {}\n\n", escape(strings.get("map.here"))));
        here.iter().for_each(|(title, url)| md.push_str(&format!("- {}\n", link(title, url))));
    }
    md.push_str(&format!(
        "\n| {} | {} |\n|---|---|\n",
        escape(strings.get("map.property")),
        escape(strings.get("map.value"))
    ));
    for fact in &properties {
        md.push_str(&format!("| {} | {} |\n", escape(&fact.label), fact.markdown.replace('|', "\\|")));
    }
    atlas.r.generated("place.html", &url, context, md)
}

/// How near (in degrees, about 60 m) a record's `location` must be to a place's point to be at it.
const NEAR: f64 = 0.0005;

/// What says which place a record is at (see [`Located::place`]), kept on its card.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Located {
    /// Its `spatial_id`.
    pub spatial_id: Option<String>,
    /// Its `location` as text, or the location's `name`.
    pub name: Option<String>,
    /// The location's latitude and longitude.
    pub point: Option<(f64, f64)>,
}

impl Located {
    /// What `fields` (a record's front matter) say of where it is, if anything.
    pub fn of(fields: &Map<String, Value>) -> Option<Located> {
        fn text(v: Option<&Value>) -> Option<String> {
            v.and_then(Value::as_str).map(str::trim).filter(|s| !s.is_empty()).map(str::to_string)
        }
        let location = fields.get("location");
        let number = |keys: &[&str]| keys.iter().find_map(|k| location?.get(*k).and_then(Value::as_f64));
        let point = number(&["latitude", "lat"]).zip(number(&["longitude", "lon", "lng"]));
        let located = Located {
            spatial_id: text(fields.get("spatial_id")),
            name: text(location).or_else(|| text(location.and_then(|l| l.get("name")))),
            point,
        };
        (located != Located::default()).then_some(located)
    }

    /// The place it names: the one its `spatial_id` names (the id as the data writes it, or its
    /// page's id), else the one its location names or whose point is within about 60 m of it.
    pub fn place<'p>(&self, places: &'p [Place]) -> Option<&'p Place> {
        if let Some(id) = &self.spatial_id {
            return places.iter().find(|p| p.source_id == *id || p.id == *id);
        }
        let named = self.name.as_ref().and_then(|n| places.iter().find(|p| p.name.eq_ignore_ascii_case(n)));
        named.or_else(|| {
            let (lat, lon) = self.point?;
            places.iter().find(|p| p.point.is_some_and(|(x, y)| (x - lon).abs() <= NEAR && (y - lat).abs() <= NEAR))
        })
    }
}

/// The place a record is at (see [`Located::place`]).
pub fn place_of<'p>(record: &Record, places: &'p [Place]) -> Option<&'p Place> {
    Located::of(&record.fields)?.place(places)
}

/// The records at `place`, as (title, URL), in collection and API order (read from their cards:
/// a clean build keeps its records on disk).
fn records_at(atlas: &Atlas<'_, '_>, place: &Place) -> Vec<(String, String)> {
    let at = |card: &&crate::build::model::Card| {
        let found = card.located.as_ref().and_then(|l| l.place(&atlas.places));
        found.is_some_and(|p| p.id == place.id) && !card.draft
    };
    atlas.r.model.all().filter(at).map(|card| (card.title.clone(), card.url.clone())).collect()
}

/// A place's properties in words, by the rules of a record's facts (docs/content.md#facts):
/// numbers to call are `tel:` links, zones and languages named, yes and no in the interface
/// language, units from the key. Its name, shown as the heading, is left out.
fn properties(atlas: &Atlas<'_, '_>, place: &Place) -> Vec<Fact> {
    let r = atlas.r;
    let rules =
        Rules { strings: r.strings(), site: &r.content.site, hidden: &[], statics: &r.content.statics, model: r.model };
    rules.of_mapping(&place.properties, &["name"])
}

/// A place's own small map: the place, and faintly the places whose point is near it.
fn small_map(atlas: &Atlas<'_, '_>, place: &Place) -> String {
    let Some(bounds) = Bounds::around(place.parts.iter(), 0.25, SMALL_SPAN) else { return String::new() };
    let inside = |p: &Place| {
        p.point.is_some_and(|(lon, lat)| {
            (bounds.west..=bounds.east).contains(&lon) && (bounds.south..=bounds.north).contains(&lat)
        })
    };
    let mut drawn: Vec<Drawn> = atlas
        .places
        .iter()
        .filter(|p| p.id != place.id && inside(p))
        .map(|p| Drawn { place: p, style: atlas.style(p), faint: true, zone_label: None })
        .collect();
    let zone = atlas.zone(place).map(|(_, label)| label);
    drawn.push(Drawn { place, style: atlas.style(place), faint: false, zone_label: zone.as_deref() });
    let projection = Projection::new(bounds, SMALL_WIDTH);
    let title = atlas.r.strings().fill("map.place_map", &[("name", &place.name)]);
    map::svg(&drawn, &projection, &title, atlas.r.strings().get("map.place_description"), "place-map")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn place(id: &str, name: &str, point: (f64, f64)) -> Place {
        Place {
            id: id.into(),
            source_id: id.to_uppercase(),
            name: name.into(),
            category: None,
            zone: None,
            register: "r".into(),
            properties: Default::default(),
            parts: Vec::new(),
            point: Some(point),
        }
    }

    #[test]
    fn a_record_is_at_the_place_its_spatial_id_or_location_names() {
        let places = [place("w-1", "Well one", (30.0, 1.0)), place("c-2", "Clinic", (30.1, 1.1))];
        let at = |spatial: Value, location: Value| {
            let fields = json!({"spatial_id": spatial, "location": location});
            Located::of(fields.as_object().expect("an object"))?.place(&places).map(|p| p.id.as_str())
        };
        assert_eq!(at(json!("C-2"), Value::Null), Some("c-2"), "the id as the data writes it");
        assert_eq!(at(json!("w-1"), Value::Null), Some("w-1"), "or as its page does");
        assert_eq!(at(json!("nowhere"), json!("Clinic")), None, "a spatial_id that names nothing is not guessed");
        assert_eq!(at(Value::Null, json!({"name": "clinic"})), Some("c-2"));
        assert_eq!(at(Value::Null, json!({"lat": 1.0003, "lon": 30.0002})), Some("w-1"), "within about 60 m");
        assert_eq!(at(Value::Null, json!({"lat": 1.01, "lon": 30.0})), None, "a kilometre away is elsewhere");
    }
}
