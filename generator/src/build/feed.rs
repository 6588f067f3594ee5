//! `/api/rss`: RSS 2.0 of the latest news (spec 4.2), newest first, `rss.items` of them, built with
//! the `rss` crate: channel with `atom:link rel="self"` and `lastBuildDate`; items with a permalink
//! guid, an RFC 822 `pubDate`, the summary (else the first paragraph) and the tags as categories.

use std::collections::BTreeMap;

use portal_core::time::DateTime;
use rss::extension::atom::{AtomExtension, Link};
use rss::{CategoryBuilder, ChannelBuilder, GuidBuilder, ItemBuilder};

use super::model::{Card, Model};
use super::output::OutFile;
use crate::load::Content;

/// The feed's media type.
pub const RSS: &str = "application/rss+xml; charset=utf-8";

/// The first paragraph of a markdown body as plain text (headings, lists and markup left out).
pub fn first_paragraph(markdown: &str) -> String {
    let paragraph: Vec<&str> = markdown
        .split("\n\n")
        .map(str::trim)
        .find(|block| {
            !block.is_empty()
                && !block.starts_with('#')
                && !block.starts_with('-')
                && !block.starts_with('|')
                && !block.starts_with('>')
        })
        .map(|block| block.lines().collect())
        .unwrap_or_default();
    paragraph.join(" ").replace(['*', '_', '`'], "")
}

fn item(card: &Card, base: &str) -> rss::Item {
    let link = format!("{base}{}", card.url);
    let description = card.excerpt.clone().unwrap_or_default();
    ItemBuilder::default()
        .title(Some(card.title.clone()))
        .link(Some(link.clone()))
        .guid(Some(GuidBuilder::default().value(link).permalink(true).build()))
        .pub_date(card.date.map(|d| d.http_date()))
        .description((!description.is_empty()).then_some(description))
        .categories(card.tags.iter().map(|t| CategoryBuilder::default().name(t.clone()).build()).collect::<Vec<_>>())
        .build()
}

/// The feed file.
pub fn file(content: &Content, model: &Model, built: DateTime) -> anyhow::Result<OutFile> {
    let site = &content.site;
    let base = site.base();
    let mut news: Vec<&Card> = model.cards("news").iter().collect();
    news.sort_by(|a, b| b.date.is_some().cmp(&a.date.is_some()).then(b.date.cmp(&a.date)).then(a.id.cmp(&b.id)));
    let items: Vec<rss::Item> = news.into_iter().take(site.rss.items).map(|r| item(r, base)).collect();
    let self_link = Link {
        href: format!("{base}/api/rss"),
        rel: "self".into(),
        mime_type: Some("application/rss+xml".into()),
        ..Link::default()
    };
    let channel = ChannelBuilder::default()
        .title(format!("{} news", site.title))
        .link(base.to_string())
        .description(if site.description.is_empty() {
            format!("News from {}", site.title)
        } else {
            site.description.clone()
        })
        .language(Some(site.language.clone()))
        .last_build_date(Some(built.http_date()))
        .generator(Some(format!("portal {}", env!("CARGO_PKG_VERSION"))))
        .namespaces(BTreeMap::from([("atom".to_string(), "http://www.w3.org/2005/Atom".to_string())]))
        .atom_ext(Some(AtomExtension { links: vec![self_link] }))
        .items(items)
        .build();
    OutFile::at("/api/rss", channel.to_string().into_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_paragraph_skips_headings_and_markup() {
        assert_eq!(
            first_paragraph("# Title\n\nThree **boreholes**\nwork again.\n\nMore."),
            "Three boreholes work again."
        );
    }
}
