//! A rendered markdown body made ready for its page (the API keeps the body's HTML as rendered):
//!
//! - headings form an outline under the page's `h1`: the body's top level becomes `h2` and levels
//!   it skips are closed up (`#`, `###` become `h2`, `h3`), so no level is ever skipped;
//! - task-list checkboxes get an accessible name ("done" / "not done yet");
//! - an empty table header cell becomes a data cell (a header must say what it heads);
//! - table alignment moves from `style` attributes to classes (pages allow no inline styles);
//! - images whose path names a static file get its URL, pixel size, lazy loading and, when it has
//!   resized variants, `srcset` and `sizes`;
//! - phone numbers in the text are `tel:` links, and dates and other runs of Latin
//!   letters and digits inside right-to-left text are isolated (see `text_acts`).

use std::ops::Range;

use portal_core::content::i18n::Strings;
use portal_core::content::phone;

use super::figure::PAGE_SIZES;
use crate::html::{self, attributes, escape_attribute, start_tags};
use crate::images::{encode_path, srcset};
use crate::load::statics::{Reference, StaticFiles};

/// The body `html` ready for a page. Each step runs only when the body has what it changes (most
/// bodies have no task list, table or image), so a large site pays for what it uses.
pub fn prepare(html: &str, strings: &Strings, statics: &StaticFiles) -> String {
    let mut html = outline(html);
    if html.contains("checkbox") {
        html = label_tasks(&html, strings);
    }
    if html.contains("<th") {
        html = empty_headers(&html);
    }
    if html.contains("text-align") {
        html = align_classes(&html);
    }
    if html.contains("<img") {
        html = resolve_images(&html, statics);
    }
    if html.contains("<table") || html.contains("<pre") {
        html = scrollable(&html);
    }
    if html.contains(['+', '0', '-']) || html.chars().any(right_to_left) {
        html = text_acts(&html);
    }
    let html = blocks_auto(&html);
    if html.contains("<thead>") {
        stack_tables(&html)
    } else {
        html
    }
}

/// The fewest columns a table has for its rows to stack on a phone: two columns fit beside each
/// other, a third is the one a narrow screen would cut.
const STACK_COLUMNS: usize = 3;

/// A table of three columns or more says, in each data cell, which column it is
/// (`data-label`, its column's heading) and gets the class `stack`: on a narrow screen the theme
/// shows each row as a block of labelled lines, so no column is ever cut off or hidden behind a
/// scroll the reader may not notice (docs/content.md#markdown).
fn stack_tables(html: &str) -> String {
    let mut out = String::with_capacity(html.len() + 256);
    let mut rest = html;
    while let Some(at) = rest.find("<table>") {
        let end = rest[at..].find("</table>").map_or(rest.len(), |n| at + n);
        out.push_str(&rest[..at]);
        out.push_str(&stack_table(&rest[at..end]));
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

/// One table (from `<table>` up to, not including, `</table>`), stacked if it has enough columns.
fn stack_table(table: &str) -> String {
    let Some(head_end) = table.find("</thead>") else { return table.to_string() };
    let headings: Vec<String> = cells(&table[..head_end]).map(heading_text).collect();
    if headings.len() < STACK_COLUMNS {
        return table.to_string();
    }
    let mut out = String::from("<table class=\"stack\">");
    out.push_str(&table["<table>".len()..head_end]);
    for (i, row) in table[head_end..].split("<tr>").enumerate() {
        if i > 0 {
            out.push_str("<tr>");
        }
        let mut column = 0;
        let mut rest = row;
        while let Some(at) = rest.find("<td") {
            let after = &rest[at + 3..];
            out.push_str(&rest[..at + 3]);
            if after.starts_with([' ', '>']) {
                if let Some(heading) = headings.get(column).filter(|h| !h.is_empty()) {
                    out.push_str(&format!(" data-label=\"{heading}\""));
                }
                column += 1;
            }
            rest = after;
        }
        out.push_str(rest);
    }
    out
}

/// The cells (`<th ...>...</th>` or `<td ...>...</td>`, their inner HTML) of a table's head.
fn cells(head: &str) -> impl Iterator<Item = &str> {
    head.split("<t").skip(1).filter(|part| part.starts_with(['h', 'd']) && part[1..].starts_with([' ', '>'])).map(
        |part| {
            let inner = part.find('>').map_or("", |n| &part[n + 1..]);
            inner.split("</t").next().unwrap_or("")
        },
    )
}

/// A heading cell's text as an attribute value: its tags left out, quotes escaped (the rest of
/// the text is already HTML).
fn heading_text(cell: &str) -> String {
    let mut text = String::new();
    html::map_text(cell, &[], |t| {
        text.push_str(t);
        String::new()
    });
    text.trim().replace('"', "&quot;")
}

/// Tables and code blocks scroll inside themselves rather than widen the page on a phone, and can
/// be scrolled from the keyboard (focusable).
fn scrollable(html: &str) -> String {
    html.replace("<table>", "<div class=\"table-scroll\" tabindex=\"0\"><table>")
        .replace("</table>", "</table></div>")
        .replace("<pre>", "<pre tabindex=\"0\">")
}

/// Each paragraph, heading, quote and table cell takes its direction from its own text
/// (`dir="auto"`), so an English paragraph inside an Arabic story reads left to right and the
/// other way round; blocks that already say their direction keep it.
fn blocks_auto(html: &str) -> String {
    // Not list items: an item set right to left inside a list set left to right puts its marker
    // outside the list's box, which widens a phone's page.
    const BLOCKS: &[&str] = &["<p>", "<h2>", "<h3>", "<h4>", "<h5>", "<h6>", "<blockquote>", "<td>", "<th>", "<dd>"];
    let mut out = html.to_string();
    for block in BLOCKS {
        if out.contains(block) {
            out = out.replace(block, &format!("{} dir=\"auto\">", &block[..block.len() - 1]));
        }
    }
    out
}

/// Text a resident can act on and read in order: a phone number (`+` or `0` and 7-15 digits)
/// outside links and code becomes a `tel:` link set left to right, so it can be tapped and
/// keeps its digits' order inside right-to-left text; in text with right-to-left letters, a run
/// of Latin letters and digits (`18 November 2026`, `30 000 UGX`) is isolated (`<bdi>`), which
/// the bidirectional algorithm would otherwise reorder ("November 2026 18"); a code (`B-12`) is
/// kept on one line.
fn text_acts(html: &str) -> String {
    html::map_text(html, &["a", "code", "pre", "script", "style", "textarea"], |text| {
        let text = if text.chars().any(right_to_left) { isolate_runs(text) } else { text.to_string() };
        let text = if text.bytes().any(|b| b == b'+' || b == b'0') { tap_phones(&text) } else { text };
        if text.contains('-') {
            super::words::keep_codes(&text)
        } else {
            text
        }
    })
}

/// Whether `c` is a letter of a right-to-left script (Hebrew, Arabic, Syriac, Thaana, N'Ko...).
fn right_to_left(c: char) -> bool {
    matches!(c as u32, 0x0590..=0x08FF | 0xFB1D..=0xFDFF | 0xFE70..=0xFEFF)
}

/// `text` with each run of Latin letters and digits holding a digit and a letter or two groups
/// of digits (a date, an amount with its currency, a number written in groups) inside `<bdi>`.
fn isolate_runs(text: &str) -> String {
    let latin = |c: char| c.is_ascii_digit() || (c.is_alphabetic() && (c as u32) < 0x0250);
    let inner = |c: char| latin(c) || " ,.:/-\u{a0}".contains(c);
    let mut out = String::with_capacity(text.len() + 16);
    let mut at = 0;
    while let Some(start) = text[at..].find(latin).map(|n| at + n) {
        let end = text[start..].find(|c: char| !inner(c)).map_or(text.len(), |n| start + n);
        let run = text[start..end].trim_end_matches(|c: char| !latin(c));
        let digits = run.chars().any(|c| c.is_ascii_digit());
        let words = run.split(|c: char| !latin(c)).filter(|w| !w.is_empty()).count();
        out.push_str(&text[at..start]);
        // After a `+` the run is a phone number, which becomes a link set left to right.
        if digits && words >= 2 && !text[..start].ends_with('+') {
            out.push_str(&format!("<bdi>{run}</bdi>"));
        } else {
            out.push_str(run);
        }
        at = start + run.len();
    }
    out.push_str(&text[at..]);
    out
}

/// `text` with each phone number (`portal_core::content::phone::find`) a link set left to right.
fn tap_phones(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 48);
    let mut rest = text;
    while let Some((range, tel)) = phone::find(rest) {
        out.push_str(&rest[..range.start]);
        out.push_str(&super::facts::number_link(&format!("tel:{tel}"), &rest[range.clone()]).0);
        rest = &rest[range.end..];
    }
    out.push_str(rest);
    out
}

/// Replaces each range (in order, not overlapping) of `html` by what `edit` makes of its text.
fn replace_ranges(html: &str, ranges: &[Range<usize>], mut edit: impl FnMut(&str) -> String) -> String {
    let mut out = String::with_capacity(html.len() + ranges.len() * 32);
    let mut at = 0;
    for range in ranges {
        out.push_str(&html[at..range.start]);
        out.push_str(&edit(&html[range.clone()]));
        at = range.end;
    }
    out.push_str(&html[at..]);
    out
}

/// Heading tags (`<hN ...>` and `</hN>`) in order: (range, level, is the closing tag).
fn heading_tags(html: &str) -> Vec<(Range<usize>, u8, bool)> {
    let bytes = html.as_bytes();
    let mut tags = Vec::new();
    let mut i = 0;
    while let Some(at) = html[i..].find('<') {
        let start = i + at;
        let closing = bytes.get(start + 1) == Some(&b'/');
        let name = start + 1 + usize::from(closing);
        let is_heading = matches!(bytes.get(name), Some(b'h' | b'H'))
            && matches!(bytes.get(name + 1), Some(b'1'..=b'6'))
            && matches!(bytes.get(name + 2), Some(b'>' | b' ' | b'\t' | b'\n' | b'/'));
        if is_heading {
            if let Some(end) = html[start..].find('>') {
                tags.push((start..start + end + 1, bytes[name + 1] - b'0', closing));
                i = start + end + 1;
                continue;
            }
        }
        i = start + 1;
    }
    tags
}

/// The new level of each heading (in document order) of levels `levels`: ranks of the levels
/// used, from 2, never more than one below the heading before (the page's `h1` comes first).
pub fn outline_levels(levels: &[u8]) -> Vec<u8> {
    let mut used: Vec<u8> = levels.to_vec();
    used.sort_unstable();
    used.dedup();
    let mut previous = 1;
    levels
        .iter()
        .map(|level| {
            let rank = used.iter().position(|l| l == level).unwrap_or(0) as u8 + 2;
            let new = rank.min(previous + 1).min(6);
            previous = new;
            new
        })
        .collect()
}

/// Renumbers the headings of a body so they continue the page's outline (see [`outline_levels`]).
pub fn outline(html: &str) -> String {
    let tags = heading_tags(html);
    let opening: Vec<u8> = tags.iter().filter(|(_, _, closing)| !closing).map(|(_, level, _)| *level).collect();
    let mut levels = outline_levels(&opening).into_iter();
    let mut current = 2;
    let ranges: Vec<Range<usize>> = tags.iter().map(|(range, _, _)| range.clone()).collect();
    let mut closing = tags.iter().map(|(_, _, c)| *c);
    replace_ranges(html, &ranges, |tag| {
        let is_closing = closing.next().unwrap_or(false);
        if !is_closing {
            current = levels.next().unwrap_or(current);
        }
        let digit = if is_closing { 3 } else { 2 };
        format!("{}{current}{}", &tag[..digit], &tag[digit + 1..])
    })
}

/// Gives each task-list checkbox an accessible name.
fn label_tasks(html: &str, strings: &Strings) -> String {
    let tasks: Vec<Range<usize>> = start_tags(html, "input")
        .into_iter()
        .filter(|r| html::attribute(&html[r.clone()], "type").is_some_and(|t| t.eq_ignore_ascii_case("checkbox")))
        .filter(|r| html::attribute(&html[r.clone()], "aria-label").is_none())
        .collect();
    replace_ranges(html, &tasks, |tag| {
        let key = if html::attribute(tag, "checked").is_some() { "record.task_done" } else { "record.task_open" };
        let body = tag.trim_end_matches('>').trim_end_matches('/').trim_end();
        format!("{body} aria-label=\"{}\">", escape_attribute(strings.get(key)))
    })
}

/// `<th ...></th>` becomes `<td ...></td>`.
fn empty_headers(html: &str) -> String {
    let empty: Vec<Range<usize>> = start_tags(html, "th")
        .into_iter()
        .filter(|r| html[r.end..].trim_start().starts_with("</th>"))
        .map(|r| {
            let close = r.end + html[r.end..].find("</th>").unwrap_or(0) + "</th>".len();
            r.start..close
        })
        .collect();
    replace_ranges(html, &empty, |cell| {
        let tag_end = cell.find('>').unwrap_or(0);
        format!("<td{}</td>", &cell[3..=tag_end])
    })
}

/// `style="text-align: center"` (as markdown tables write it) becomes `class="align-center"`.
fn align_classes(html: &str) -> String {
    ["left", "center", "right"].iter().fold(html.to_string(), |html, side| {
        html.replace(&format!(" style=\"text-align: {side}\""), &format!(" class=\"align-{side}\""))
    })
}

/// Images whose `src` names a static file: the file's URL, size, lazy loading and variants. One
/// whose local path names no file is left out, never shown broken (the loader warned with its
/// `file:line`: docs/content.md#static-files-and-images).
fn resolve_images(html: &str, statics: &StaticFiles) -> String {
    let images: Vec<Range<usize>> = start_tags(html, "img")
        .into_iter()
        .filter(|r| {
            let src = html::attribute(&html[r.clone()], "src").unwrap_or_default();
            matches!(statics.resolve(&html::unescape(&src)), Reference::Local(..) | Reference::Missing(_))
        })
        .collect();
    replace_ranges(html, &images, |tag| {
        let mut attrs = attributes(tag);
        let src = attrs.iter().find(|(n, _)| n == "src").map(|(_, v)| html::unescape(v)).unwrap_or_default();
        let Reference::Local(rel, file) = statics.resolve(&src) else { return String::new() };
        attrs.retain(|(n, _)| n != "src");
        let mut set = |name: &str, value: String| {
            if !attrs.iter().any(|(n, _)| n == name) {
                attrs.push((name.to_string(), escape_attribute(&value)));
            }
        };
        if let Some(size) = file.size {
            set("width", size.width.to_string());
            set("height", size.height.to_string());
            if let Some(candidates) = srcset(rel, size) {
                set("srcset", candidates);
                set("sizes", PAGE_SIZES.to_string());
            }
        }
        set("loading", "lazy".into());
        set("decoding", "async".into());
        let rest: String = attrs.iter().map(|(n, v)| format!(" {n}=\"{v}\"")).collect();
        format!("<img src=\"/{}\"{rest}>", encode_path(rel))
    })
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;
    use std::path::PathBuf;

    use super::*;
    use crate::images::Size;

    #[test]
    fn a_table_of_three_columns_says_each_cells_column_and_two_columns_stay_as_they_are() {
        let three = "<table><thead><tr><td></td><th>Number <em>\"free\"</em></th><th>Hours</th></tr></thead>\
                     <tbody><tr><td>Ambulance</td><td><strong>+256 700 000 199</strong></td><td>24 h</td></tr></tbody></table>";
        let out = prepare(three, &Strings::default(), &StaticFiles::default());
        assert!(out.contains("<table class=\"stack\">"), "{out}");
        assert!(out.contains("<tr><td dir=\"auto\">Ambulance</td>"), "no heading, no label: {out}");
        assert!(
            out.contains("<td data-label=\"Number &quot;free&quot;\" dir=\"auto\"><strong><a dir=\"ltr\""),
            "{out}"
        );
        assert!(out.contains("<td data-label=\"Hours\" dir=\"auto\">24 h</td>"), "{out}");
        let two = "<table><thead><tr><th>Day</th><th>Hours</th></tr></thead><tbody><tr><td>Mon</td><td>8-5</td></tr></tbody></table>";
        let out = prepare(two, &Strings::default(), &StaticFiles::default());
        assert!(!out.contains("stack") && !out.contains("data-label"), "{out}");
    }

    #[test]
    fn local_numbers_in_text_can_be_tapped_but_dates_amounts_and_codes_cannot() {
        let html = "<p>Free line 0800 100 200. Blocks C-1 to C-6, B-12; USD 12,500,000 on 01-02-2026 at 07:00.</p>";
        let out = prepare(html, &Strings::default(), &StaticFiles::default());
        assert!(out.contains("<a dir=\"ltr\" href=\"tel:0800100200\">0800 100 200</a>."), "{out}");
        assert_eq!(out.matches("<a ").count(), 1, "{out}");
    }

    #[test]
    fn phone_numbers_in_text_can_be_tapped_and_keep_their_order_in_arabic() {
        let html = "<p>Call <strong>+256 700 000 104</strong>, not +1 or C++ 2026.</p>\n\
                    <p>\u{627}\u{62a}\u{635}\u{644} \u{200e}+256 700 000 100 \u{64a}\u{648}\u{645} 18 November 2026.</p>\n\
                    <p><a href=\"tel:1\">+256 700 000 101</a> <code>+256 700 000 102</code></p>";
        let out = text_acts(html);
        let link = |n: &str| format!("<a dir=\"ltr\" href=\"tel:+256700000{n}\">+256 700 000 {n}</a>");
        assert!(out.contains(&format!("<strong>{}</strong>, not +1 or C++ 2026.", link("104"))), "{out}");
        assert!(out.contains(&format!("\u{200e}{} ", link("100"))), "{out}");
        assert!(out.contains("<bdi>18 November 2026</bdi>."), "{out}");
        assert!(out.contains("<a href=\"tel:1\">+256 700 000 101</a> <code>+256 700 000 102</code>"), "{out}");
        assert_eq!(text_acts("<p>Open 18 November 2026</p>"), "<p>Open 18 November 2026</p>", "no bdi in LTR text");
    }
    use crate::load::statics::StaticFile;

    #[test]
    fn levels_start_at_two_and_never_skip() {
        assert_eq!(outline_levels(&[1, 2, 2, 3]), [2, 3, 3, 4]);
        assert_eq!(outline_levels(&[2, 3, 2]), [2, 3, 2]);
        assert_eq!(outline_levels(&[2, 4, 4, 2]), [2, 3, 3, 2], "a gap is closed");
        assert_eq!(outline_levels(&[3, 2, 3]), [2, 2, 3], "a deeper first heading still follows the h1");
        assert_eq!(outline_levels(&[1, 6]), [2, 3]);
        assert!(outline_levels(&[]).is_empty());
    }

    #[test]
    fn heading_tags_are_renumbered_with_their_attributes() {
        let html = "<h1>A</h1>\n<p>x</p>\n<h3 id=\"b\">B</h3>\n<header>h</header><hr>";
        assert_eq!(outline(html), "<h2>A</h2>\n<p>x</p>\n<h3 id=\"b\">B</h3>\n<header>h</header><hr>");
        assert_eq!(outline("<h2>A</h2><h2>B</h2>"), "<h2>A</h2><h2>B</h2>");
    }

    fn strings() -> Strings {
        Strings(serde_json::json!({"record": {"task_done": "done", "task_open": "not done yet"}}))
    }

    #[test]
    fn task_checkboxes_get_names_and_empty_headers_become_cells() {
        let html = crate::markdown::to_html("- [x] water\n- [ ] food\n\n| | b |\n|:-:|---|\n| 1 | 2 |\n");
        let out = prepare(&html, &strings(), &StaticFiles::default());
        assert!(out.contains(r#"checked="" aria-label="done">"#), "{out}");
        assert!(out.contains(r#"type="checkbox" aria-label="not done yet">"#), "{out}");
        assert!(out.contains(r#"<td class="align-center"></td>"#), "{out}");
        assert!(!out.contains("style="), "{out}");
        assert!(out.contains("<th dir=\"auto\">b</th>"), "{out}");
    }

    #[test]
    fn local_images_get_their_url_size_and_variants() {
        let file = StaticFile { path: PathBuf::from("x"), size: Some(Size { width: 1200, height: 600 }) };
        let statics = StaticFiles(BTreeMap::from([("media/well.jpg".to_string(), file)]));
        let html = crate::markdown::to_html("![A pump](../static/media/well.jpg) ![far](https://e.org/a.jpg)");
        let out = prepare(&html, &strings(), &statics);
        assert!(out.contains(r#"<img src="/media/well.jpg" alt="A pump" width="1200" height="600" srcset="/_img/480/media/well.jpg 480w, /_img/960/media/well.jpg 960w, /media/well.jpg 1200w" sizes=""#), "{out}");
        assert!(out.contains(r#"loading="lazy""#));
        assert!(out.contains(r#"<img src="https://e.org/a.jpg" alt="far" />"#), "{out}");
    }

    #[test]
    fn a_local_image_naming_no_file_is_left_out() {
        let html = crate::markdown::to_html("Before ![A pump](../static/media/gone.jpg) after.");
        let out = prepare(&html, &strings(), &StaticFiles::default());
        assert!(!out.contains("<img") && out.contains("Before  after."), "{out}");
    }
}
