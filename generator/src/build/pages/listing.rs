//! Listing pages: one per collection (the `pages` collection included), paged past
//! `pagination.page_size` items at `/<collection>/page/<n>` with `rel="prev"`/`rel="next"` links
//! (in the head and on the page), every item on exactly one page. The same paging serves the pages
//! of tags and categories.
//!
//! Collections keep their API order (D2), except events: upcoming ones first, soonest first (by
//! `start`, else `date`), then past ones, most recent first, each marked as past; undated events
//! last. "Past" is relative to the build time (`SOURCE_DATE_EPOCH` when set): an event whose day
//! (its `end`, else its start) is today is not past yet.

use anyhow::Result;
use portal_core::paging::{page_count, page_items, page_url};
use portal_core::time::DateTime;
use rayon::prelude::*;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use tera::Context;

use super::navigation::{collection_description, collection_label};
use super::{page, Keep, Key, Paged, Renderer};
use crate::build::model::Card;
use crate::build::output::Group;

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

/// Every page of `listing` over `items`, each with its markdown twin; a page that `keep` says the
/// last build made from the same inputs is kept rather than rendered.
pub fn paged(r: &Renderer, listing: &Listing, items: &[Value], keep: Keep) -> Result<Vec<Paged>> {
    let size = r.content.site.pagination.page_size;
    let pages = page_count(items.len(), size);
    let strings = r.strings();
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
            let mut context = listing.extra.clone();
            context.insert("title", &listing.title);
            context.insert("lead", &listing.lead);
            context.insert("listing_url", &listing.url);
            context.insert("records", on_page);
            context.insert("pagination", &pagination);
            let key = key_of(listing, &url, &context)?;
            if keep(&url, &key) {
                return Ok(Paged::Kept(url));
            }
            let html = r.render(listing.template, Some(&url), context)?;
            let [mut html, twin] = page(&url, html, markdown(r, listing, on_page, pagination.as_ref()));
            html.key = Some(key);
            Ok(Paged::Rendered(Box::new([html, twin])))
        })
        .collect()
}

/// A hash of what a listing page is made from (the shared inputs of every page, such as the
/// templates, are the same in any build that keeps pages).
fn key_of(listing: &Listing, url: &str, context: &Context) -> Result<Key> {
    let own = serde_json::to_vec(&context.clone().into_json())?;
    let mut hasher = Sha256::new();
    for part in [listing.template.as_bytes(), url.as_bytes(), listing.markdown_note.as_bytes(), &own] {
        hasher.update((part.len() as u64).to_le_bytes());
        hasher.update(part);
    }
    Ok(hasher.finalize().into())
}

fn markdown(r: &Renderer, listing: &Listing, items: &[Value], pagination: Option<&Value>) -> String {
    let strings = r.strings();
    let mut md = format!("# {}\n\n{}\n", listing.title, listing.lead);
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
        let date = item["date"].as_str().map(|d| format!(" · {}", strings.date(d))).unwrap_or_default();
        let summary = item["summary"].as_str().map(|s| format!(": {s}")).unwrap_or_default();
        md.push_str(&format!(
            "- [{}]({}){marks}{date}{summary}\n",
            item["title"].as_str().unwrap_or(""),
            item["url"].as_str().unwrap_or("")
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
    let items: Vec<Value> = if name == EVENTS {
        order_events(records, r.now).into_iter().map(|(card, past)| card.item(r.content, past)).collect()
    } else {
        records.iter().map(|card| card.item(r.content, false)).collect()
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
    use portal_core::time::parse_content_date;

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
