//! Excerpts for the search page: a short passage of a hit's text around the first word it matched,
//! cut at word boundaries, with the matched words in `<mark>`.
//!
//! Words are found with the index's own analyzer, so an excerpt marks exactly the words a search
//! compares (folded: "Café" is marked for "cafe"), in any script; offsets are the text's own, so
//! right-to-left text keeps its order (the page gives the excerpt `dir="auto"`).

use tantivy::tokenizer::TokenStream;

use super::schema::analyzer;
use crate::pages::shell::escape;

/// About how many characters an excerpt holds.
pub const EXCERPT_CHARS: usize = 180;

/// How much of an excerpt comes before its first marked word, at most (a fraction of its length).
const LEAD_DIVISOR: usize = 3;

/// One word of the text: where it is and whether it is marked.
struct Word {
    from: usize,
    to: usize,
    marked: bool,
}

/// The excerpt of `text` (plain text) around its first word `marks` accepts (an analyzed word), or
/// from its start when none is: HTML, `…` where the text is cut; `None` when it has no words.
pub fn excerpt(text: &str, marks: impl Fn(&str) -> bool, max_chars: usize) -> Option<String> {
    let words = words(text, marks);
    let first = words.iter().position(|w| w.marked).unwrap_or(0);
    let chars = |from: usize, to: usize| text[from..to].chars().count();
    let lead = max_chars / LEAD_DIVISOR;
    let mut start = first;
    while start > 0 && chars(words[start - 1].from, words[first].to) <= lead {
        start -= 1;
    }
    let from = words.get(start)?.from;
    let mut end = start;
    while end + 1 < words.len() && chars(from, words[end + 1].to) <= max_chars {
        end += 1;
    }
    let mut out = String::new();
    if start > 0 {
        out.push('…');
    } else {
        out.push_str(collapse(&escape(&text[..from])).trim_start());
    }
    let mut at = from;
    for word in &words[start..=end] {
        out.push_str(&collapse(&escape(&text[at..word.from])));
        let shown = escape(&text[word.from..word.to]);
        if word.marked {
            out.push_str(&format!("<mark>{shown}</mark>"));
        } else {
            out.push_str(&shown);
        }
        at = word.to;
    }
    if end + 1 < words.len() {
        out.push('…');
    } else {
        out.push_str(collapse(&escape(&text[at..])).trim_end());
    }
    Some(out)
}

fn words(text: &str, marks: impl Fn(&str) -> bool) -> Vec<Word> {
    let mut analyzer = analyzer();
    let mut stream = analyzer.token_stream(text);
    let mut words = Vec::new();
    while stream.advance() {
        let token = stream.token();
        words.push(Word { from: token.offset_from, to: token.offset_to, marked: marks(&token.text) });
    }
    words
}

/// Runs of whitespace as one space.
fn collapse(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut space = false;
    for c in text.chars() {
        if c.is_whitespace() {
            if !space {
                out.push(' ');
            }
            space = true;
        } else {
            out.push(c);
            space = false;
        }
    }
    out
}

/// Markdown as the words a reader sees: link targets, image sources and the marks of emphasis,
/// headings, quotes, code and tables left out.
pub fn plain(markdown: &str) -> String {
    let mut out = String::with_capacity(markdown.len());
    let mut chars = markdown.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            ']' if chars.peek() == Some(&'(') => {
                for skipped in chars.by_ref() {
                    if skipped == ')' {
                        break;
                    }
                }
                out.push(' ');
            }
            // A rule or a table's header line, not a hyphen.
            '-' | '=' if chars.peek() == Some(&c) => {
                while chars.next_if_eq(&c).is_some() {}
                out.push(' ');
            }
            '#' | '*' | '_' | '`' | '>' | '|' | '[' | ']' | '~' | '!' | '<' => out.push(' '),
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_excerpt_marks_the_matched_words_and_cuts_at_word_boundaries() {
        let text = "Opening hours. The clinic opens early on weekdays, and the Clinic & pharmacy close at 8 pm \
                    every day of the week except holidays, when they stay closed all day long.";
        let html = excerpt(text, |w| w == "clinic", 60).expect("an excerpt");
        assert!(html.contains("<mark>clinic</mark>") && html.contains("<mark>Clinic</mark>"), "{html}");
        assert!(html.ends_with('…') && html.starts_with('…'), "{html}");
        assert_eq!(excerpt("(Open) now.", |_| false, 99).as_deref(), Some("(Open) now."));
        assert!(!html.contains("holidays"), "{html}");
        let words: Vec<&str> = html.trim_matches('…').split(' ').collect();
        assert!(words.iter().all(|w| !w.is_empty()), "whole words only: {html}");
    }

    #[test]
    fn an_excerpt_of_right_to_left_text_keeps_its_order() {
        let text = "يفتح المركز الصحي حتى الساعة الثامنة مساء";
        let html = excerpt(text, |w| w == "الصحي", 180).expect("an excerpt");
        assert_eq!(html, "يفتح المركز <mark>الصحي</mark> حتى الساعة الثامنة مساء");
    }

    #[test]
    fn without_a_match_the_excerpt_is_the_start() {
        assert_eq!(excerpt("One two three", |_| false, 7).as_deref(), Some("One two…"));
        assert_eq!(excerpt(" ,; ", |_| true, 10), None);
    }

    #[test]
    fn markdown_loses_its_marks_and_link_targets() {
        let text = plain("## Hours\n**Open** [the clinic](https://x.org/a_b) `now`\n|a|b|\n|---|---|\nwell-kept");
        assert_eq!(collapse(&text).trim(), "Hours Open the clinic now a b well-kept");
    }
}
