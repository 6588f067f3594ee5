//! The site's cleaning policy for the markdown it publishes (the `.md` twins of pages): raw HTML is
//! dropped, links and images whose URL the HTML policy would not keep become their text, and text
//! the build puts into a line (a title, a category) is escaped so it cannot become markup.
//!
//! A body is cleaned by editing its source at the ranges pulldown-cmark reports, so what stays
//! reads as the author wrote it. Cutting can join text into new markup (`[a]<b>(javascript:x)` is
//! a link once `<b>` is gone), so passes repeat until one finds nothing; past [`MAX_PASSES`] the
//! whole body is escaped as plain text.

use std::fmt::Write;
use std::ops::Range;

use pulldown_cmark::{Event, Parser, Tag};

use super::allowed_url;
use crate::markdown::options;

/// How many cleaning passes a body gets before it is published as plain text instead.
pub const MAX_PASSES: usize = 16;

/// `body` with no raw HTML and no link or image to a URL outside the policy.
pub fn clean(body: &str) -> String {
    let mut text = body.to_string();
    for _ in 0..MAX_PASSES {
        match cut(&text) {
            Some(cleaner) => text = cleaner,
            None => return text,
        }
    }
    text.lines().map(escape).collect::<Vec<_>>().join("\n")
}

/// One pass: the text with what the parser found unsafe cut out, or `None` when it found nothing.
fn cut(text: &str) -> Option<String> {
    let mut edits: Vec<(Range<usize>, String)> = Vec::new();
    let mut unsafe_link: Option<(Range<usize>, String)> = None;
    for (event, range) in Parser::new_ext(text, options()).into_offset_iter() {
        if let Some((outer, words)) = &mut unsafe_link {
            if range.start < outer.end {
                if let Event::Text(t) | Event::Code(t) = &event {
                    words.push_str(t);
                }
                continue;
            }
            edits.push((outer.clone(), escape(words)));
            unsafe_link = None;
        }
        match event {
            Event::Html(_) | Event::InlineHtml(_) => edits.push((range, String::new())),
            Event::Start(Tag::Link { dest_url, .. } | Tag::Image { dest_url, .. }) if !allowed_url(&dest_url) => {
                unsafe_link = Some((range, String::new()));
            }
            _ => {}
        }
    }
    if let Some((outer, words)) = unsafe_link {
        edits.push((outer, escape(&words)));
    }
    (!edits.is_empty()).then(|| apply(text, edits))
}

fn apply(text: &str, mut edits: Vec<(Range<usize>, String)>) -> String {
    edits.sort_by_key(|(range, _)| range.start);
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for (range, replacement) in edits {
        if range.start < at {
            continue;
        }
        out.push_str(&text[at..range.start]);
        out.push_str(&replacement);
        at = range.end;
    }
    out.push_str(&text[at..]);
    out
}

pub use portal_core::pages::markdown::escape;

/// A link `[text](url)` with `text` escaped; only the text when `url` is outside the policy.
pub fn link(text: &str, url: &str) -> String {
    if !allowed_url(url) {
        return escape(text);
    }
    let mut destination = String::with_capacity(url.len());
    for c in url.chars() {
        if c.is_whitespace() || c.is_control() || matches!(c, '(' | ')' | '<' | '>' | '\\') {
            let mut buffer = [0; 4];
            for byte in c.encode_utf8(&mut buffer).bytes() {
                let _ = write!(destination, "%{byte:02X}");
            }
        } else {
            destination.push(c);
        }
    }
    format!("[{}]({destination})", escape(text))
}

/// Whether `markdown` has raw HTML or a link or image outside the policy (what [`clean`] removes).
pub fn is_clean(markdown: &str) -> bool {
    Parser::new_ext(markdown, options()).all(|event| match event {
        Event::Html(_) | Event::InlineHtml(_) => false,
        Event::Start(Tag::Link { dest_url, .. } | Tag::Image { dest_url, .. }) => allowed_url(&dest_url),
        _ => true,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_html_and_script_urls_leave_the_body() {
        let body = "Who we are.\n\n<script>document.title = 1</script>\n<p onclick=\"x()\">a</p>\n\nSee [the map](javascript:alert(1)) and ![pic](data:image/svg+xml,x) <img src=x onerror=alert(2)> [ok](/map).\n";
        let cleaned = clean(body);
        for bad in ["<script", "onclick", "onerror", "javascript:", "data:"] {
            assert!(!cleaned.contains(bad), "{bad} survived: {cleaned}");
        }
        assert!(cleaned.contains("Who we are.") && cleaned.contains("See the map and pic"), "{cleaned}");
        assert!(cleaned.contains("[ok](/map)"), "{cleaned}");
        assert!(is_clean(&cleaned) && !is_clean(body));
    }

    #[test]
    fn markup_joined_by_a_cut_is_cut_again() {
        let cleaned = clean("[a]<b>(javascript:alert(1))");
        assert!(is_clean(&cleaned) && !cleaned.contains("](javascript"), "{cleaned}");
    }

    #[test]
    fn code_keeps_what_it_shows() {
        assert_eq!(clean("Write `<script>` like this.\n"), "Write `<script>` like this.\n");
    }

    #[test]
    fn text_for_a_line_cannot_become_markup() {
        let escaped = escape("[x](javascript:alert(1))\n<b>*_`");
        assert_eq!(escaped, "\\[x\\]\\(javascript:alert\\(1\\)\\) \\<b\\>\\*\\_\\`");
        assert!(is_clean(&escaped) && !escaped.contains('\n'));
        assert_eq!(link("a [b]", "/tags/a b"), "[a \\[b\\]](/tags/a%20b)");
        assert_eq!(link("x", "javascript:alert(1)"), "x");
    }
}
