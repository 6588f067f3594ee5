//! Plain text for metadata that must carry no markup (docs/standards.md#json-ld): a summary, a
//! rendered body or markdown as the words a reader sees, without tags, markdown marks or entities,
//! its whitespace collapsed and cut at a word to a length a search result shows. Search excerpts
//! and HSDS descriptions read markdown through it too.

/// The longest description, in characters: about what a search result or a link preview shows.
pub const DESCRIPTION_CHARS: usize = 300;

/// A short text written by hand (a `summary`): tags left out, markdown links as their text,
/// emphasis and code marks removed; other punctuation kept.
pub fn summary(text: &str) -> String {
    let text = links_as_text(&strip_tags(text));
    let text = text.replace("**", "").replace("__", "").replace('`', "");
    shorten(&collapse(&text), DESCRIPTION_CHARS)
}

/// A rendered HTML body as its text: tags left out (a block's end as a space), entities decoded.
pub fn html(html: &str) -> String {
    shorten(&collapse(&decode_entities(&strip_tags(html))), DESCRIPTION_CHARS)
}

/// Tags inside a line of text: left out without a space, so "<a>late</a>." stays "late.".
const INLINE: &[&str] =
    &["a", "abbr", "b", "bdi", "bdo", "code", "em", "i", "mark", "small", "span", "strong", "sub", "sup", "time", "u"];

/// `text` without its tags and comments (`<` then a letter, `/` or `!`, up to `>`): an inline
/// tag is left out, any other (a block's start or end, a line break) becomes a space.
fn strip_tags(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('<') {
        let opens = rest[at + 1..].starts_with(|c: char| c.is_ascii_alphabetic() || c == '/' || c == '!');
        let end = rest[at..].find('>').map(|n| at + n + 1);
        match (opens, end) {
            (true, Some(end)) => {
                out.push_str(&rest[..at]);
                let name: String =
                    rest[at + 1..end].trim_start_matches('/').chars().take_while(char::is_ascii_alphanumeric).collect();
                if !INLINE.contains(&name.to_ascii_lowercase().as_str()) {
                    out.push(' ');
                }
                rest = &rest[end..];
            }
            _ => {
                out.push_str(&rest[..=at]);
                rest = &rest[at + 1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// Markdown links and images (`[text](target)`, `![alt](src)`) as their text.
fn links_as_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(open) = rest.find('[') {
        let Some(close) = rest[open..].find("](").map(|n| open + n) else { break };
        let Some(end) = rest[close..].find(')').map(|n| close + n) else { break };
        out.push_str(rest[..open].strip_suffix('!').unwrap_or(&rest[..open]));
        out.push_str(&rest[open + 1..close]);
        rest = &rest[end + 1..];
    }
    out.push_str(rest);
    out
}

/// HTML entities (named ones HTML escapes write, and numeric ones) as their characters.
fn decode_entities(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('&') {
        out.push_str(&rest[..at]);
        let entity = rest[at + 1..].find(';').filter(|n| *n <= 10).map(|n| &rest[at + 1..at + 1 + n]);
        let decoded = entity.and_then(|e| match e {
            "amp" => Some('&'),
            "lt" => Some('<'),
            "gt" => Some('>'),
            "quot" => Some('"'),
            "apos" => Some('\''),
            "nbsp" => Some(' '),
            _ => {
                let number = e.strip_prefix('#')?;
                let code = match number.strip_prefix(['x', 'X']) {
                    Some(hex) => u32::from_str_radix(hex, 16).ok()?,
                    None => number.parse().ok()?,
                };
                char::from_u32(code).filter(|c| !crate::content::text::is_control(*c))
            }
        });
        match (decoded, entity) {
            (Some(c), Some(e)) => {
                out.push(c);
                rest = &rest[at + e.len() + 2..];
            }
            _ => {
                out.push('&');
                rest = &rest[at + 1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// Runs of whitespace as one space, none at either end.
fn collapse(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `text` cut to at most `max` characters at a word, with `…` when cut.
fn shorten(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let cut: String = text.chars().take(max).collect();
    let cut = cut.rsplit_once(' ').map_or(cut.as_str(), |(head, _)| head);
    format!("{}…", cut.trim_end_matches([',', ';', ':', '.', ' ']))
}

/// Markdown as the words a reader sees: link targets, image sources and the marks of emphasis,
/// headings, quotes, code and tables left out.
pub fn markdown(markdown: &str) -> String {
    // Every mark is ASCII, so the text between marks is copied as whole slices.
    let bytes = markdown.as_bytes();
    let mut out = String::with_capacity(markdown.len());
    let (mut copied, mut at) = (0, 0);
    while at < bytes.len() {
        let byte = bytes[at];
        let past = match byte {
            b']' if bytes.get(at + 1) == Some(&b'(') => {
                bytes[at..].iter().position(|&b| b == b')').map_or(bytes.len(), |close| at + close + 1)
            }
            // A rule or a table's header line, not a hyphen.
            b'-' | b'=' if bytes.get(at + 1) == Some(&byte) => {
                at + bytes[at..].iter().take_while(|&&b| b == byte).count()
            }
            b'#' | b'*' | b'_' | b'`' | b'>' | b'|' | b'[' | b']' | b'~' | b'!' | b'<' => at + 1,
            _ => {
                at += 1;
                continue;
            }
        };
        out.push_str(&markdown[copied..at]);
        out.push(' ');
        (copied, at) = (past, past);
    }
    out.push_str(&markdown[copied..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_keeps_other_scripts_and_ends_an_open_link_target() {
        assert_eq!(markdown("é**ñ**ع"), "é  ñ  ع");
        assert_eq!(markdown("see](never closed"), "see ");
        assert_eq!(markdown("[t](u) ok"), " t  ok");
        assert_eq!(markdown("x-y a---b c==d"), "x-y a b c d");
        assert_eq!(markdown(""), "");
    }

    #[test]
    fn a_body_is_its_text_without_tags_or_entities() {
        let body = "<h2 dir=\"auto\">Hours</h2>\n<p>Open <strong>08:00</strong> &amp; late.<br>See \
                    <a href=\"/x\">the map</a> &#x2014; a &lt;b&gt; tag is text.</p><!-- note -->";
        assert_eq!(html(body), "Hours Open 08:00 & late. See the map — a <b> tag is text.");
    }

    #[test]
    fn a_summary_loses_markdown_and_tags_but_keeps_its_punctuation() {
        let text = "**Free** vaccination! See [the clinic](/services/clinic) and `B-12`, <em>1 < 2</em>.";
        assert_eq!(summary(text), "Free vaccination! See the clinic and B-12, 1 < 2.");
    }

    #[test]
    fn a_long_text_is_cut_at_a_word() {
        let long = "word ".repeat(200);
        let cut = html(&long);
        assert!(cut.chars().count() <= DESCRIPTION_CHARS + 1 && cut.ends_with("word…"), "{cut}");
        assert_eq!(html("&bogus; & &#0; &#xZZ;"), "&bogus; & &#0; &#xZZ;");
    }
}
