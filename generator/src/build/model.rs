//! What the build's aggregates are made of: a card per record and per encyclopedia
//! entry, holding what listings, tag and category pages, the feed, the home page, the flat search
//! index, translations and the encyclopedia catalog need of it, and no body.
//!
//! A clean build makes every card from the record it loaded; a rebuild keeps the cards of records
//! that did not change in the build cache and makes only the others again. Every aggregate is built
//! from cards, never from records, in both: so a rebuild's aggregates are a clean build's by
//! construction, and cost no parsing.

use std::collections::{BTreeMap, HashSet};
use std::sync::{Arc, Mutex};

use portal_core::content::collections::ENCYCLOPEDIA;
use portal_core::content::event::{Moment, ZoneFn};
use portal_core::content::time::DateTime;
use portal_core::content::{d2_order, Entry, Record};
use portal_core::queries::encyclopedia::{letter_of, CatalogEntry};
use portal_core::search::schema::fold;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::build::documents::cms::shape::Shape;
use crate::build::pages::navigation::collection_label;
use crate::build::pages::record::{lang_attributes, language_of};
use crate::build::pages::{facts, figure};
use crate::load::zone::Zone;
use crate::load::Content;

/// One record (or entry) as the aggregates see it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Card {
    /// The content file, as errors name it.
    pub file: String,
    /// Its collection (`entries` for the encyclopedia).
    pub collection: String,
    /// `id`.
    pub id: String,
    /// The slug.
    pub slug: String,
    /// The page URL.
    pub url: String,
    /// The title.
    pub title: String,
    /// `summary`.
    pub summary: Option<String>,
    /// `date`.
    pub date: Option<DateTime>,
    /// `updated`.
    pub updated: Option<DateTime>,
    /// `weight`.
    pub weight: Option<i64>,
    /// Shown as a draft (a preview build only).
    pub draft: bool,
    /// `tags` as written.
    pub tags: Vec<String>,
    /// `category` as written.
    pub category: Option<String>,
    /// Its language: its own `language`, else the site's.
    pub language: String,
    /// `translation_key`.
    pub translation_key: Option<String>,
    /// When an event happens (for the order of the events listing and its "past" marks).
    pub event: Option<EventSpan>,
    /// Its image as a listing shows it (JSON: `src`, `alt`, size and variants), if it has one.
    pub thumb: Option<String>,
    /// Its `date` (else `updated`) as written in the front matter (JSON), for the flat index.
    pub date_written: Option<String>,
    /// What the news feed says of it: the summary, else the first paragraph (news only).
    pub excerpt: Option<String>,
    /// The URL paths the links of its body name (see `links::targets`): its page is made again
    /// when one of them comes or goes.
    pub links: Vec<String>,
    /// What an encyclopedia entry has besides.
    pub entry: Option<EntryPart>,
    /// The shape of each front-matter key, for the CMS's fields (see `cms::shape`); shared by
    /// the cards of a clean build whose records have the same keys (see [`SharedShapes`]).
    #[serde(default)]
    pub shapes: Shapes,
    /// When an event happens, as its page and listings say it (see `pages::facts::when`).
    pub when: Option<String>,
    /// Where an event happens, for listings (see `pages::facts::place`).
    pub place: Option<String>,
    /// What says which place of `spatial/` it is at: its `spatial_id` and `location` (see
    /// `pages::map::place_of`), so a place's page can list the records at it.
    pub located: Option<crate::build::pages::map::Located>,
}

/// One copy of each set of key shapes among the cards of a build: the records of a collection
/// mostly have the same keys, and a million cards would otherwise hold a million copies.
#[derive(Debug, Default)]
pub struct SharedShapes(Mutex<HashSet<Shapes>>);

/// The shape of each front-matter key of a record, in file order.
pub type Shapes = Arc<[(String, Shape)]>;

impl SharedShapes {
    /// `card` holding the build's copy of its shapes.
    pub fn share(&self, mut card: Card) -> Card {
        if let Ok(mut seen) = self.0.lock() {
            match seen.get(&card.shapes) {
                Some(shared) => card.shapes = Arc::clone(shared),
                None => {
                    seen.insert(Arc::clone(&card.shapes));
                }
            }
        }
        card
    }
}

/// The encyclopedia's part of a card.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EntryPart {
    /// Slugs of related entries.
    pub related: Vec<String>,
    /// Its entry of the catalog the list, facets and suggestions read (JSON).
    pub catalog: String,
}

/// An event's time: its start, its end (the start when it has none), and whether the end is a
/// whole day (a date without a time).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct EventSpan {
    /// `start`, else `date`.
    pub start: DateTime,
    /// `end`, else the start.
    pub end: DateTime,
    /// Whether the end was written as a date only.
    pub whole_day: bool,
}

impl EventSpan {
    /// Whether the event is over at `now`: a whole-day end counts until that day is over.
    pub fn past(&self, now: DateTime) -> bool {
        if self.whole_day {
            self.end.date() < now.date()
        } else {
            self.end < now
        }
    }
}

/// Every card of a build: per collection in API order (docs/spec/api-spec.md#record-order), and the
/// encyclopedia in title order.
#[derive(Debug, Clone, Default)]
pub struct Model {
    /// Every collection (missing ones empty), cards in API order.
    pub collections: BTreeMap<&'static str, Vec<Card>>,
    /// Encyclopedia entries, in title order.
    pub entries: Vec<Card>,
}

impl Model {
    /// The cards of every loaded record and entry of `content`.
    pub fn of(content: &Content) -> Self {
        use rayon::prelude::*;
        let collections = content
            .collections
            .par_iter()
            .map(|(name, records)| (*name, records.iter().map(|r| Card::of(r, content)).collect()))
            .collect();
        let entries = content.entries.par_iter().map(|e| Card::of_entry(e, content)).collect();
        Model { collections, entries }
    }

    /// The cards of `collection` (empty for an unknown name).
    pub fn cards(&self, collection: &str) -> &[Card] {
        self.collections.get(collection).map(Vec::as_slice).unwrap_or(&[])
    }

    /// Every record's card, then every entry's.
    pub fn all(&self) -> impl Iterator<Item = &Card> {
        self.collections.values().flatten().chain(&self.entries)
    }

    /// Published records over all collections.
    pub fn record_count(&self) -> usize {
        self.collections.values().map(Vec::len).sum()
    }
}

/// Sorts cards into the API's order (docs/spec/api-spec.md#record-order).
pub fn sort_cards(cards: &mut [Card]) {
    cards.sort_by(|a, b| a.api_order(b));
}

impl Card {
    /// How this card and `other` compare in the API's order (docs/spec/api-spec.md#record-order).
    pub fn api_order(&self, other: &Card) -> std::cmp::Ordering {
        d2_order((self.weight, self.date, &self.id), (other.weight, other.date, &other.id))
    }

    /// A card with what a record says of itself, without what the site adds (language, thumbnail,
    /// excerpt, links): what [`Card::of`] starts from, and tests that need no site use.
    pub fn bare(record: &Record) -> Card {
        Card {
            file: record.file.clone(),
            collection: record.collection.clone(),
            id: record.id.clone(),
            slug: record.slug.clone(),
            url: record.url.clone(),
            title: record.title.clone(),
            summary: record.summary.clone(),
            date: record.date,
            updated: record.updated,
            weight: record.weight,
            draft: record.draft,
            tags: record.tags.clone(),
            category: record.category.clone(),
            language: String::new(),
            translation_key: None,
            event: event_span(record, None),
            thumb: None,
            date_written: None,
            excerpt: None,
            links: Vec::new(),
            entry: None,
            shapes: crate::build::documents::cms::shape::of_fields(&record.fields).into(),
            when: None,
            place: None,
            located: crate::build::pages::map::Located::of(&record.fields),
        }
    }

    /// The card of `record`.
    pub fn of(record: &Record, content: &Content) -> Card {
        let zone = content.site.timezone.as_deref().and_then(|z| Zone::parse(z).ok());
        let offset = move |unix: i64| zone.map_or(0, |z| z.offset_at(unix));
        Card {
            language: language_of(record, &content.site.language).to_string(),
            translation_key: record.fields.get("translation_key").and_then(Value::as_str).map(str::to_string),
            thumb: figure::image(record, &content.statics, figure::THUMB_SIZES).map(|image| image.to_string()),
            date_written: record.fields.get("date").or_else(|| record.fields.get("updated")).map(Value::to_string),
            excerpt: (record.collection == "news").then(|| excerpt(record)),
            links: record.html.as_deref().map(crate::build::write::links::targets).unwrap_or_default(),
            event: event_span(record, zone.is_some().then_some(&offset as ZoneFn<'_>)),
            when: facts::when(record, &content.site, &content.strings),
            place: (record.collection == "events")
                .then(|| facts::place(record, &content.site, &content.strings))
                .flatten(),
            ..Card::bare(record)
        }
    }

    /// The card of an encyclopedia entry.
    pub fn of_entry(entry: &Entry, content: &Content) -> Card {
        let mut card = Card::of(&entry.record, content);
        let record = &entry.record;
        let catalog = CatalogEntry {
            slug: record.slug.clone(),
            title: record.title.clone(),
            url: record.url.clone(),
            fold: fold(&record.title),
            letter: letter_of(&record.title),
            aliases: entry.aliases.clone(),
            category: record.category.clone(),
            tags: record.tags.clone(),
            updated: record.updated.or(record.date).map(|d| d.unix),
            item: crate::build::documents::encyclopedia::list_item(entry),
        };
        card.collection = ENCYCLOPEDIA.to_string();
        card.entry = Some(EntryPart {
            related: entry.related.clone(),
            catalog: serde_json::to_string(&catalog).unwrap_or_default(),
        });
        card
    }

    /// The record as a listing shows it, marked past or not, on a site with `content`'s settings.
    pub fn item(&self, content: &Content, past: bool) -> Value {
        let site_language = &content.site.language;
        let image = self.thumb.as_deref().and_then(|thumb| serde_json::from_str::<Value>(thumb).ok());
        json!({
            "title": self.title,
            "url": self.url,
            "summary": self.summary,
            "date": self.date.or_else(|| self.event.map(|e| e.start)).map(|d| d.date()),
            "when": self.when,
            "place": self.place,
            "image": image,
            "past": past,
            "draft": self.draft,
            "collection": self.collection,
            "collection_label": collection_label(&content.strings, &self.collection),
            "content_lang": lang_attributes(&self.language, site_language),
        })
    }

    /// Feeds `part` what [`Card::item`] shows of the card (a listing page's key).
    pub fn item_fingerprint(&self, part: &mut impl FnMut(&[u8])) {
        for text in [&self.title, &self.url, &self.collection, &self.language] {
            part(text.as_bytes());
        }
        for text in [&self.summary, &self.thumb, &self.when, &self.place] {
            part(&[u8::from(text.is_some())]);
            part(text.as_deref().unwrap_or_default().as_bytes());
        }
        let date = self.date.or_else(|| self.event.map(|e| e.start)).map(|d| d.unix);
        part(&[u8::from(date.is_some())]);
        part(&date.unwrap_or_default().to_le_bytes());
        part(&[u8::from(self.draft)]);
    }

    /// Its entry of `/api/search-index.json`.
    pub fn flat(&self) -> String {
        let date =
            self.date_written.as_deref().and_then(|d| serde_json::from_str::<Value>(d).ok()).unwrap_or(Value::Null);
        json!({
            "slug": self.slug,
            "title": self.title,
            "collection": self.collection,
            "url": self.url,
            "summary": self.summary,
            "tags": self.tags,
            "date": date,
        })
        .to_string()
    }
}

/// When an event starts and ends; `None` for an undated one. A time written without an offset
/// is in `zone` (minutes from UTC at an instant), else read as UTC.
fn event_span(record: &Record, zone: Option<ZoneFn<'_>>) -> Option<EventSpan> {
    let field = |key: &str| {
        let moment = Moment::parse(record.fields.get(key)?.as_str()?, zone)?;
        Some((DateTime::from_unix(moment.unix()), matches!(moment, Moment::Day(_))))
    };
    let start = field("start").or_else(|| field("date"))?;
    let (end, whole_day) = field("end").unwrap_or(start);
    Some(EventSpan { start: start.0, end, whole_day })
}

/// What the feed says of a record: its summary, else the first paragraph of its body.
fn excerpt(record: &Record) -> String {
    record.summary.clone().unwrap_or_else(|| {
        record.body.as_deref().map(crate::build::documents::feed::first_paragraph).unwrap_or_default()
    })
}

/// JSON fragments joined into an array, as `serde_json` writes one (no spaces).
pub fn json_array<'a>(fragments: impl Iterator<Item = &'a str>) -> String {
    let mut out = String::from("[");
    for (i, fragment) in fragments.enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(fragment);
    }
    out.push(']');
    out
}
