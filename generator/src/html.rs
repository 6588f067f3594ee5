//! Reading and editing the small, regular HTML the build itself produces (rendered markdown and
//! templates): finding the tags of one element and reading or setting an attribute. Not a general
//! HTML parser: it looks for `<name` followed by whitespace, `/` or `>`, and reads attributes
//! quoted with `"` or `'` or unquoted.

use std::ops::Range;

/// The byte ranges of every start tag `<name ...>` in `html` (`name` in lower case).
pub fn start_tags(html: &str, name: &str) -> Vec<Range<usize>> {
    let bytes = html.as_bytes();
    let mut found = Vec::new();
    let mut from = 0;
    // `find('<')` is a fast byte search; most `<` are other tags and are skipped at once.
    while let Some(at) = html[from..].find('<') {
        let start = from + at;
        let after = start + 1 + name.len();
        let named = bytes.get(start + 1..after).is_some_and(|n| n.eq_ignore_ascii_case(name.as_bytes()));
        let boundary = bytes.get(after).is_some_and(|c| c.is_ascii_whitespace() || *c == b'/' || *c == b'>');
        if named && boundary {
            match html[after..].find('>') {
                Some(end) => {
                    found.push(start..after + end + 1);
                    from = after + end + 1;
                    continue;
                }
                None => break,
            }
        }
        from = start + 1;
    }
    found
}

/// The attributes of a start tag, in order, as (name in lower case, raw value); a bare attribute
/// has an empty value.
pub fn attributes(tag: &str) -> Vec<(String, String)> {
    let inner = tag.trim_start_matches('<').trim_end_matches('>').trim_end_matches('/');
    let mut chars = inner.char_indices().peekable();
    // Skip the element name.
    while chars.peek().is_some_and(|(_, c)| !c.is_ascii_whitespace()) {
        chars.next();
    }
    let mut out = Vec::new();
    loop {
        while chars.peek().is_some_and(|(_, c)| c.is_ascii_whitespace() || *c == '/') {
            chars.next();
        }
        let Some(&(start, _)) = chars.peek() else { break };
        let mut end = start;
        while let Some(&(i, c)) = chars.peek() {
            if c.is_ascii_whitespace() || c == '=' || c == '/' {
                break;
            }
            end = i + c.len_utf8();
            chars.next();
        }
        let name = inner[start..end].to_ascii_lowercase();
        let mut value = String::new();
        while chars.peek().is_some_and(|(_, c)| c.is_ascii_whitespace()) {
            chars.next();
        }
        if chars.peek().is_some_and(|(_, c)| *c == '=') {
            chars.next();
            while chars.peek().is_some_and(|(_, c)| c.is_ascii_whitespace()) {
                chars.next();
            }
            match chars.peek().map(|(_, c)| *c) {
                Some(quote @ ('"' | '\'')) => {
                    chars.next();
                    for (_, c) in chars.by_ref() {
                        if c == quote {
                            break;
                        }
                        value.push(c);
                    }
                }
                _ => {
                    while let Some(&(_, c)) = chars.peek() {
                        if c.is_ascii_whitespace() {
                            break;
                        }
                        value.push(c);
                        chars.next();
                    }
                }
            }
        }
        if name.is_empty() {
            break;
        }
        out.push((name, value));
    }
    out
}

/// The value of attribute `name` of a start tag.
pub fn attribute(tag: &str, name: &str) -> Option<String> {
    attributes(tag).into_iter().find(|(n, _)| n == name).map(|(_, v)| v)
}

/// `html` with each run of text between tags replaced by what `edit` makes of it, except inside
/// the elements named in `skip` (lower case; `a`, `code`...), whose text is kept as it is. A tag's
/// quoted attribute values may hold `>`; comments are kept whole.
pub fn map_text(html: &str, skip: &[&str], mut edit: impl FnMut(&str) -> String) -> String {
    let mut out = String::with_capacity(html.len() + 64);
    let (mut at, mut skipping) = (0, 0usize);
    while at < html.len() {
        let next = html[at..].find('<').map_or(html.len(), |n| at + n);
        let text = &html[at..next];
        out.push_str(&if skipping == 0 && !text.is_empty() { edit(text) } else { text.to_string() });
        if next == html.len() {
            break;
        }
        let end = tag_end(html, next);
        let tag = &html[next..end];
        let name: String = tag[1..].trim_start_matches('/').chars().take_while(char::is_ascii_alphanumeric).collect();
        if skip.contains(&name.to_ascii_lowercase().as_str()) && !tag.ends_with("/>") {
            skipping = if tag.starts_with("</") { skipping.saturating_sub(1) } else { skipping + 1 };
        }
        out.push_str(tag);
        at = end;
    }
    out
}

/// Where the tag or comment starting at `start` (a `<`) ends: after its `>` outside quotes.
fn tag_end(html: &str, start: usize) -> usize {
    if html[start..].starts_with("<!--") {
        return html[start..].find("-->").map_or(html.len(), |n| start + n + 3);
    }
    let mut quote = None;
    for (i, c) in html[start..].char_indices() {
        match (quote, c) {
            (None, '"' | '\'') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            (None, '>') => return start + i + 1,
            _ => {}
        }
    }
    html.len()
}

/// Text for an attribute value between double quotes.
pub fn escape_attribute(value: &str) -> String {
    value.replace('&', "&amp;").replace('"', "&quot;").replace('<', "&lt;").replace('>', "&gt;")
}

/// Text as HTML content.
pub fn escape_text(value: &str) -> String {
    value.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

/// Undoes the entity escapes markdown renderers write into attribute values.
pub fn unescape(value: &str) -> String {
    value.replace("&quot;", "\"").replace("&#39;", "'").replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_start_tags_of_one_element_only() {
        let html = r#"<p><img src="a.jpg" alt="A" /> <imgx> <IMG SRC='b.png'></p>"#;
        let tags: Vec<&str> = start_tags(html, "img").into_iter().map(|r| &html[r]).collect();
        assert_eq!(tags, [r#"<img src="a.jpg" alt="A" />"#, "<IMG SRC='b.png'>"]);
    }

    #[test]
    fn reads_quoted_unquoted_and_bare_attributes() {
        let attrs = attributes(r#"<input disabled="" type=checkbox checked alt='a "b"'/>"#);
        let pairs: Vec<(&str, &str)> = attrs.iter().map(|(n, v)| (n.as_str(), v.as_str())).collect();
        assert_eq!(pairs, [("disabled", ""), ("type", "checkbox"), ("checked", ""), ("alt", "a \"b\"")]);
        assert_eq!(attribute(r#"<img src="x&amp;y.jpg">"#, "src").as_deref(), Some("x&amp;y.jpg"));
        assert_eq!(unescape("x&amp;y &quot;z&quot;"), "x&y \"z\"");
    }

    #[test]
    fn maps_text_outside_skipped_elements_and_tags() {
        let html = r#"<p title="a>b">one <a href="x">two</a> <code>three</code> <!-- four --><br/>five</p>"#;
        let mapped = map_text(html, &["a", "code"], |t| t.to_uppercase());
        assert_eq!(mapped, r#"<p title="a>b">ONE <a href="x">two</a> <code>three</code> <!-- four --><br/>FIVE</p>"#);
    }
}
