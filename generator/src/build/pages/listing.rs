//! Listing pages: one per collection (the `pages` collection included), paged past
//! `pagination.page_size` items at `/<collection>/page/<n>` with `rel="prev"`/`rel="next"` links
//! (in the head and on the page), every item on exactly one page. The same paging serves the pages
//! of tags and categories.
//!
//! Collections keep their API order (docs/spec/api-spec.md#record-order), except events: upcoming
//! ones first, soonest first (by `start`, else `date`), then past ones, most recent first, each
//! marked as past; undated events last. "Past" is relative to the build time (`SOURCE_DATE_EPOCH`
//! when set): an event whose day (its `end`, else its start) is today is not past yet.

use anyhow::Result;
use portal_core::content::collections::PAGES;
use portal_core::content::time::DateTime;
use portal_core::pages::paging::{page_count, page_items, page_url};
use rayon::prelude::*;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use tera::Context;

use super::navigation::{collection_description, collection_label};
use super::{Keep, Key, Paged, Renderer};
use crate::build::model::Card;
use crate::build::write::file::Group;
use crate::sanitize::markdown::{escape, link};

/// The collection whose listing puts upcoming items first.
pub const EVENTS: &str = "events";

/// What a listing is, besides its items.
pub struct Listing {
    /// Its URL (page 1).
    pub url: String,
    /// Its heading.
    pub title: String,
    /// The sentence under the heading.
    pub lead: String,
    /// The template that renders a page of it.
    pub template: &'static str,
    /// Extra template values (the collection's name, a term...).
    pub extra: Context,
    /// A line of the markdown twin after the lead (e.g. where the JSON is).
    pub markdown_note: String,
}

/// Events in listing order with their past marks (see the module documentation).
pub fn order_events(records: &[Card], now: DateTime) -> Vec<(&Card, bool)> {
    let (mut upcoming, mut past, mut undated) = (Vec::new(), Vec::new(), Vec::new());
    for record in records {
        match record.event.map(|span| (span.start, span.past(now))) {
            Some((start, false)) => upcoming.push((start, record)),
            Some((start, true)) => past.push((start, record)),
            None => undated.push(record),
        }
    }
    upcoming.sort_by(|(a, x), (b, y)| a.cmp(b).then_with(|| x.id.cmp(&y.id)));
    past.sort_by(|(a, x), (b, y)| b.cmp(a).then_with(|| x.id.cmp(&y.id)));
    let upcoming = upcoming.into_iter().map(|(_, r)| (r, false));
    let past = past.into_iter().map(|(_, r)| (r, true));
    upcoming.chain(past).chain(undated.into_iter().map(|r| (r, false))).collect()
}

/// A record on a listing page: its card, and whether it is marked past.
pub type Item<'a> = (&'a Card, bool);

/// Every page of `listing` over `items`, each with its markdown twin; a page that `keep` says the
/// last build made from the same inputs is kept rather than rendered. A page's key hashes the
/// listing, the page's place in it and what each of its items shows; the items themselves are
/// made only for the pages rendered.
pub fn paged(r: &Renderer, listing: &Listing, items: &[Item], keep: Keep) -> Result<Vec<Paged>> {
    let size = r.content.site.pagination.page_size;
    let pages = page_count(items.len(), size);
    let strings = r.strings();
    let listed =
        serde_json::to_vec(&(&listing.title, &listing.lead, &listing.url, &listing.extra.clone().into_json()))?;
    (1..=pages)
        .into_par_iter()
        .map(|number| {
            let url = page_url(&listing.url, number);
            let on_page = page_items(items, size, number);
            let pagination = (pages > 1).then(|| {
                json!({
                    "page": number,
                    "pages": pages,
                    "label": strings.fill("listing.page", &[("page", &number.to_string()), ("pages", &pages.to_string())]),
                    "prev": (number > 1).then(|| page_url(&listing.url, number - 1)),
                    "next": (number < pages).then(|| page_url(&listing.url, number + 1)),
                })
            });
            let key = key_of(listing, &listed, &url, pagination.as_ref(), on_page);
            if keep(&url, &key) {
                return Ok(Paged::Kept(url));
            }
            let values: Vec<Value> = on_page.iter().map(|(card, past)| card.item(r.content, *past)).collect();
            let mut context = listing.extra.clone();
            context.insert("title", &listing.title);
            context.insert("lead", &listing.lead);
            context.insert("listing_url", &listing.url);
            context.insert("records", &values);
            context.insert("pagination", &pagination);
            let twin = markdown(r, listing, &values, pagination.as_ref());
            let [mut html, twin] = r.generated(listing.template, &url, context, twin)?;
            html.key = Some(key);
            Ok(Paged::Rendered(Box::new([html, twin])))
        })
        .collect()
}

/// A hash of what a listing page is made from: the listing (`listed`: its title, lead, URL and
/// extra values), the page's URL and place, and each item's card as its item shows it (the shared
/// inputs of every page, such as the templates and the interface text, are the same in any build
/// that keeps pages).
fn key_of(listing: &Listing, listed: &[u8], url: &str, pagination: Option<&Value>, items: &[Item]) -> Key {
    let mut hasher = Sha256::new();
    let mut part = |bytes: &[u8]| {
        hasher.update((bytes.len() as u64).to_le_bytes());
        hasher.update(bytes);
    };
    part(listing.template.as_bytes());
    part(listing.markdown_note.as_bytes());
    part(listed);
    part(url.as_bytes());
    part(pagination.map(Value::to_string).unwrap_or_default().as_bytes());
    for (card, past) in items {
        card.item_fingerprint(&mut part);
        part(&[u8::from(*past)]);
    }
    hasher.finalize().into()
}

fn markdown(r: &Renderer, listing: &Listing, items: &[Value], pagination: Option<&Value>) -> String {
    let strings = r.strings();
    let mut md = format!("# {}\n\n{}\n", escape(&listing.title), listing.lead);
    if !listing.markdown_note.is_empty() {
        md.push_str(&format!("\n{}\n", listing.markdown_note));
    }
    if let Some(p) = pagination {
        md.push_str(&format!("\n{}\n", p["label"].as_str().unwrap_or("")));
    }
    md.push('\n');
    if items.is_empty() {
        md.push_str(&format!("{}\n", strings.get("collection.empty")));
    }
    for item in items {
        let mut marks = Vec::new();
        if item["past"] == true {
            marks.push(strings.get("listing.past"));
        }
        if item["draft"] == true {
            marks.push(strings.get("listing.draft"));
        }
        let marks = if marks.is_empty() { String::new() } else { format!(" ({})", marks.join(", ")) };
        let date = match (item["when"].as_str(), item["date"].as_str()) {
            (Some(when), _) => {
                let place = item["place"].as_str().map(|p| format!(" · {}", escape(p))).unwrap_or_default();
                format!(" · {}{place}", escape(when))
            }
            (None, Some(d)) => format!(" · {}", strings.date(d)),
            (None, None) => String::new(),
        };
        let summary = item["summary"].as_str().map(|s| format!(": {}", escape(s))).unwrap_or_default();
        let title = link(item["title"].as_str().unwrap_or(""), item["url"].as_str().unwrap_or(""));
        md.push_str(&format!(
            "- {title}{marks}{date}{summary}
"
        ));
    }
    if let Some(p) = pagination {
        let links: Vec<String> = [("prev", "listing.previous"), ("next", "listing.next")]
            .iter()
            .filter_map(|(key, label)| p[*key].as_str().map(|url| format!("[{}]({url})", strings.get(label))))
            .collect();
        md.push_str(&format!("\n{}\n", links.join(" · ")));
    }
    md
}

/// The listing pages of collection `name`, in its group.
pub fn collection(r: &Renderer, name: &'static str, keep: Keep) -> Result<Vec<Paged>> {
    let records = r.model.cards(name);
    let items: Vec<Item> = if name == EVENTS {
        order_events(records, r.now)
    } else {
        // A page introducing a generated page is found there, not a second time under `/pages`.
        let own = |card: &&Card| name != PAGES || !r.intros.introduces(&card.url);
        records.iter().filter(own).map(|card| (card, false)).collect()
    };
    let mut extra = Context::new();
    extra.insert("name", name);
    let listing = Listing {
        url: format!("/{name}"),
        title: collection_label(r.strings(), name),
        lead: collection_description(r.strings(), name),
        template: "collection.html",
        extra,
        markdown_note: format!("JSON: <{}/api/{name}>", r.content.site.base()),
    };
    let pages = paged(r, &listing, &items, keep)?;
    let group = Group::collection(name);
    Ok(pages
        .into_iter()
        .map(|p| match p {
            Paged::Rendered(files) => Paged::Rendered(Box::new(files.map(|f| f.in_group(group)))),
            kept => kept,
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load::records::{parse, Format};
    use portal_core::content::time::parse_content_date;

    fn event(id: &str, front: &str) -> Card {
        let record = parse("events", id, "e.md", Format::Markdown, &format!("---\ntitle: {id}\n{front}\n---\n"), &[])
            .expect("valid");
        Card::bare(&record)
    }

    #[test]
    fn upcoming_soonest_first_then_past_newest_first_then_undated() {
        let now = parse_content_date("2026-06-15T12:00:00Z").expect("date");
        let events = vec![
            event("later", "start: 2026-08-01"),
            event("old", "date: 2026-01-01"),
            event("today", "start: 2026-06-15"),
            event("recent", "start: 2026-06-01"),
            event("running", "start: 2026-06-10\nend: 2026-06-20"),
            event("this-morning", "start: 2026-06-15T08:00:00Z"),
            event("undated", "summary: sometime"),
        ];
        let order: Vec<(&str, bool)> =
            order_events(&events, now).into_iter().map(|(r, past)| (r.id.as_str(), past)).collect();
        assert_eq!(
            order,
            [
                ("running", false),
                ("today", false),
                ("later", false),
                ("this-morning", true),
                ("recent", true),
                ("old", true),
                ("undated", false)
            ]
        );
    }
}
