//! `/api/rss`: RSS 2.0 of the latest news (docs/spec/api-spec.md#rss), newest first, `rss.items` of them, built with
//! the `rss` crate: channel with `atom:link rel="self"` and `lastBuildDate`; items with a permalink
//! guid, an RFC 822 `pubDate`, the summary (else the first paragraph) and the tags as categories.

use std::collections::BTreeMap;

use portal_core::content::time::DateTime;
use pulldown_cmark::{Event, Parser, Tag, TagEnd};
use rss::extension::{Extension, ExtensionMap};
use rss::{Category, Channel, Guid, Item};

use crate::build::model::{Card, Model};
use crate::build::write::file::OutFile;
use crate::html::escape_text;
use crate::load::Content;
use crate::markdown::options;

/// The first paragraph of a markdown body as plain text: the words of its text and code, without
/// markup, raw HTML or link targets (headings, lists, quotes and tables are not paragraphs here).
pub fn first_paragraph(markdown: &str) -> String {
    let (mut open, mut inside) = (0usize, false);
    let mut words = String::new();
    for event in Parser::new_ext(markdown, options()) {
        match event {
            Event::Start(Tag::Paragraph) if open == 0 && !inside => inside = true,
            Event::End(TagEnd::Paragraph) if inside => break,
            Event::Text(t) | Event::Code(t) if inside => words.push_str(&t),
            Event::SoftBreak | Event::HardBreak if inside => words.push(' '),
            Event::Start(_) if !inside => open += 1,
            Event::End(_) if !inside => open = open.saturating_sub(1),
            _ => {}
        }
    }
    words.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Text as the feed may carry it: without the control characters XML refuses. The loader removed
/// them from content already; the feed checks again, since one makes the whole feed unreadable.
fn xml_text(text: &str) -> String {
    portal_core::content::text::clean(text).into_owned()
}

/// An item. Its description is plain text (the summary, or the first paragraph's words), escaped
/// as HTML since readers render a description as HTML: a summary's `<script>` is shown, not run.
fn item(card: &Card, base: &str) -> Item {
    let link = xml_text(&format!("{base}{}", card.url));
    let description = escape_text(&xml_text(card.excerpt.as_deref().unwrap_or_default()));
    let category = |tag: &String| Category { name: xml_text(tag), domain: None };
    Item {
        title: Some(xml_text(&card.title)),
        link: Some(link.clone()),
        guid: Some(Guid { value: link, permalink: true }),
        pub_date: card.date.map(|d| d.http_date()),
        description: (!description.is_empty()).then_some(description),
        categories: card.tags.iter().map(category).collect(),
        ..Item::default()
    }
}

/// The channel's `<atom:link rel="self">`, as a plain extension element: `rss` is built without
/// its Atom feature, which brings a second builder-deriving macro crate into the compile.
fn self_link(href: String) -> ExtensionMap {
    let attrs = [("href", href), ("rel", "self".into()), ("type", "application/rss+xml".into())];
    let link = Extension {
        name: "atom:link".into(),
        attrs: attrs.into_iter().map(|(k, v)| (k.to_string(), v)).collect(),
        ..Extension::default()
    };
    BTreeMap::from([("atom".to_string(), BTreeMap::from([("link".to_string(), vec![link])]))])
}

/// The feed file.
pub fn file(content: &Content, model: &Model, built: DateTime) -> anyhow::Result<OutFile> {
    let site = &content.site;
    let base = site.base();
    let mut news: Vec<&Card> = model.cards("news").iter().collect();
    news.sort_by(|a, b| b.date.is_some().cmp(&a.date.is_some()).then(b.date.cmp(&a.date)).then(a.id.cmp(&b.id)));
    let items: Vec<Item> = news.into_iter().take(site.rss.items).map(|r| item(r, base)).collect();
    let description =
        if site.description.is_empty() { format!("News from {}", site.title) } else { site.description.clone() };
    let channel = Channel {
        title: xml_text(&format!("{} news", site.title)),
        link: xml_text(base),
        description: xml_text(&description),
        language: Some(xml_text(&site.language)),
        last_build_date: Some(built.http_date()),
        generator: Some(format!("portal {}", env!("CARGO_PKG_VERSION"))),
        namespaces: BTreeMap::from([("atom".to_string(), "http://www.w3.org/2005/Atom".to_string())]),
        extensions: self_link(format!("{base}/api/rss")),
        items,
        ..Channel::default()
    };
    OutFile::at("/api/rss", channel.to_string().into_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load::records::{parse, Format};

    #[test]
    fn the_first_paragraph_skips_headings_and_markup() {
        assert_eq!(
            first_paragraph("# Title\n\nThree **boreholes**\nwork again.\n\nMore."),
            "Three boreholes work again."
        );
    }

    #[test]
    fn the_first_paragraph_leaves_raw_html_and_link_targets_out() {
        let body = "<script>alert(1)</script>\n\n- a list\n\nSee [the map](javascript:alert(2)) <img src=x onerror=alert(3)> `code`.";
        assert_eq!(first_paragraph(body), "See the map code.");
    }

    #[test]
    fn a_description_is_text_even_where_readers_read_html() {
        let record = parse("news", "a", "news/a.md", Format::Markdown, "---\ntitle: A\n---\n", &[]).expect("record");
        let mut card = Card::bare(&record);
        card.excerpt = Some("<script>alert(1)</script> & more".into());
        let item = item(&card, "https://t.example");
        assert_eq!(item.description(), Some("&lt;script&gt;alert(1)&lt;/script&gt; &amp; more"));
    }

    #[test]
    fn an_item_carries_no_control_character_even_from_a_card_made_otherwise() {
        let record = parse("news", "a", "news/a.md", Format::Markdown, "---\ntitle: A\n---\n", &[]).expect("record");
        let mut card = Card::bare(&record);
        card.title = "Water\u{0B}news\u{0}".into();
        card.excerpt = Some("x\u{1B}y".into());
        card.tags = vec!["t\u{7}".into()];
        let item = item(&card, "https://t.example");
        assert_eq!((item.title(), item.description()), (Some("Water news"), Some("xy")));
        assert_eq!(item.categories()[0].name(), "t");
    }
}
