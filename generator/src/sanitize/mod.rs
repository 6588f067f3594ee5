//! What raw HTML in content may publish (SECURITY.md). Markdown lets authors write HTML; a page is
//! read by people who never chose to run an author's script. So the HTML markdown renders is
//! cleaned with `ammonia` before it is published (pages and the `html` of the JSON API alike): no
//! scripts or styles, no event-handler attributes, links and images only to `http(s)`, `mailto`,
//! `tel` and relative URLs (never `javascript:` or `data:`), and iframes only from the hosts that
//! `site.yaml` `markdown.iframe_hosts` lists. What markdown itself produces stays: tables (their
//! alignment as classes), footnotes, task lists, headings, images, code.
//! `markdown: {unsafe_html: true}` publishes HTML as written, with a warning at every build.
//!
//! The same URL policy ([`allowed_url`]) holds for front-matter images and for the markdown twins
//! of pages, which [`markdown`] cleans the same way (SECURITY.md, "What content may run").

pub mod markdown;

use std::collections::HashSet;

use ammonia::Builder;
use portal_core::content::Markdown;

/// The cleaner of one site.
pub struct Sanitizer {
    builder: Option<Builder<'static>>,
}

/// The one URL policy of links and images, owned by core so the handlers hand on the same rule
/// (`portal_core::content::url_policy`).
pub use portal_core::content::url_policy::{allowed_url, URL_SCHEMES};

/// A body as a markdown twin publishes it: cleaned by [`markdown::clean`], unless the site
/// publishes raw HTML as written (`markdown: {unsafe_html: true}`, for twins as for pages).
pub fn twin_body(settings: &Markdown, body: &str) -> String {
    if settings.unsafe_html {
        body.to_string()
    } else {
        markdown::clean(body)
    }
}

/// Attributes any element may keep: what markdown and its extensions write, and accessibility.
const GENERIC_ATTRIBUTES: &[&str] = &["id", "class", "title", "lang", "dir", "role", "aria-label", "aria-hidden"];

impl Sanitizer {
    /// The cleaner `site.yaml`'s `markdown:` settings ask for (none when `unsafe_html` is on).
    pub fn new(settings: &Markdown) -> Self {
        if settings.unsafe_html {
            return Sanitizer { builder: None };
        }
        let hosts: HashSet<String> = settings.iframe_hosts.iter().map(|h| h.trim().to_ascii_lowercase()).collect();
        let mut builder = Builder::default();
        builder
            .add_generic_attributes(GENERIC_ATTRIBUTES)
            .add_tags(["input", "iframe", "figure", "figcaption", "picture", "source", "video", "audio", "track"])
            .add_tag_attributes("input", ["type", "checked", "disabled"])
            .add_tag_attributes("img", ["loading", "srcset", "sizes"])
            .add_tag_attributes("source", ["src", "srcset", "type", "media"])
            .add_tag_attributes("video", ["src", "controls", "poster", "width", "height", "preload"])
            .add_tag_attributes("audio", ["src", "controls", "preload"])
            .add_tag_attributes("track", ["src", "kind", "srclang", "label"])
            .add_tag_attributes("iframe", ["src", "title", "width", "height", "allow", "allowfullscreen", "loading"])
            .add_tag_attributes("ol", ["start", "reversed"])
            .url_schemes(URL_SCHEMES.into_iter().collect())
            .link_rel(None)
            .attribute_filter(move |element, attribute, value| match (element, attribute) {
                ("input", "type") => (value == "checkbox").then_some(value.into()),
                ("iframe", "src") => allowed_frame(value, &hosts).then_some(value.into()),
                _ => Some(value.into()),
            });
        Sanitizer { builder: Some(builder) }
    }

    /// Cleans `record`'s rendered body in place (nothing to do when raw HTML is allowed).
    pub fn clean_body(&self, record: &mut portal_core::content::Record) {
        if let (Some(_), Some(html)) = (&self.builder, &record.html) {
            record.html = Some(self.clean(html));
        }
    }

    /// Cleans one rendered body.
    pub fn clean(&self, html: &str) -> String {
        match &self.builder {
            Some(builder) => builder.clean(html).to_string(),
            None => html.to_string(),
        }
    }
}

/// Whether an iframe's `src` is an `https` page of an allowed host.
fn allowed_frame(src: &str, hosts: &HashSet<String>) -> bool {
    let Some(rest) = src.trim().strip_prefix("https://") else { return false };
    let host = rest.split(['/', '?', '#']).next().unwrap_or("").rsplit('@').next().unwrap_or("");
    let host = host.split(':').next().unwrap_or("").to_ascii_lowercase();
    !host.is_empty() && hosts.contains(&host)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::markdown::to_html;

    fn clean(markdown: &str) -> String {
        let settings = Markdown { unsafe_html: false, iframe_hosts: vec!["www.youtube-nocookie.com".into()] };
        Sanitizer::new(&settings).clean(&to_html(markdown))
    }

    #[test]
    fn scripts_handlers_and_script_urls_are_removed() {
        let html = clean("<script>alert(1)</script>\n\n<img src=x onerror=\"alert(2)\">\n\n[a](javascript:alert(3)) <a href=\"data:text/html,x\">b</a> <style>body{}</style><p style=\"color:red\" onclick=\"x()\">c</p>");
        for bad in ["<script", "onerror", "onclick", "javascript:", "data:", "<style", "style="] {
            assert!(!html.contains(bad), "{bad} survived: {html}");
        }
        assert!(html.contains("<img src=\"x\">"), "{html}");
    }

    #[test]
    fn what_markdown_writes_survives() {
        let html = clean("# Title\n\n| a | b |\n|:-:|--|\n| 1 | 2 |\n\n- [x] done\n- [ ] open\n\nNote[^1]\n\n[^1]: The note.\n\n[link](https://example.org) ![pic](/media/a.jpg \"t\")");
        assert!(html.contains("<h1>Title</h1>") && html.contains("<table>"), "{html}");
        assert!(html.contains("class=\"align-center\""), "{html}");
        assert!(html.contains("<input disabled=\"\" type=\"checkbox\" checked=\"\">"), "{html}");
        assert!(html.contains("footnote-definition") && html.contains("href=\"#1\""), "{html}");
        assert!(html.contains("<a href=\"https://example.org\">link</a>"), "{html}");
        assert!(html.contains("<img src=\"/media/a.jpg\" alt=\"pic\" title=\"t\">"), "{html}");
    }

    #[test]
    fn iframes_only_from_listed_hosts() {
        let html = clean("<iframe src=\"https://www.youtube-nocookie.com/embed/x\" title=\"v\"></iframe><iframe src=\"https://evil.example/x\"></iframe><iframe src=\"http://www.youtube-nocookie.com/embed/y\"></iframe>");
        assert!(html.contains("src=\"https://www.youtube-nocookie.com/embed/x\""), "{html}");
        assert!(!html.contains("evil.example") && !html.contains("http://www"), "{html}");
    }

    #[test]
    /// The policy itself is tested beside it, in `portal_core::content::url_policy`.
    fn links_follow_the_one_url_policy() {
        let html = clean("[a](ftp://example.org/x) [b](vbscript:x)");
        assert!(!html.contains("ftp:") && !html.contains("vbscript"), "{html}");
    }

    #[test]
    fn unsafe_html_publishes_as_written() {
        let settings = Markdown { unsafe_html: true, iframe_hosts: Vec::new() };
        assert!(Sanitizer::new(&settings).clean("<script>x</script>").contains("<script>"));
        assert!(twin_body(&settings, "<script>x</script>").contains("<script>"));
    }
}
