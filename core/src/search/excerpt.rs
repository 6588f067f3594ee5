//! Excerpts for the search page: a short passage of a hit's text around the first word it matched,
//! cut at word boundaries, with the matched words in `<mark>`.
//!
//! Words are found with the index's own analyzer, so an excerpt marks exactly the words a search
//! compares (folded: "Café" is marked for "cafe"), in any script; offsets are the text's own, so
//! right-to-left text keeps its order (the page gives the excerpt `dir="auto"`).

use tantivy::tokenizer::TokenStream;

use super::schema::{analyzer, MAX_WORD_BYTES};
use crate::content::text::escape;

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
    excerpt_of(text, true, marks, max_chars).unwrap_or_default()
}

/// Why [`excerpt_of`] cannot cut an excerpt from the start of a text: the excerpt of the whole text
/// needs words past that start.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NeedsMore;

/// [`excerpt`] of a text of which `text` is the start (`whole` when it is all of it) that ends
/// after a character that is no part of a word ([`super::schema::words`] splits there): the excerpt the whole text
/// gives, or [`NeedsMore`] when that depends on words past `text` (no marked word in it, or the
/// excerpt would reach its end).
pub fn excerpt_of(
    text: &str,
    whole: bool,
    marks: impl Fn(&str) -> bool,
    max_chars: usize,
) -> Result<Option<String>, NeedsMore> {
    let chars = |from: usize, to: usize| text[from..to].chars().count();
    let lead = max_chars / LEAD_DIVISOR;
    // The words up to one past the excerpt: once the first marked word and the excerpt's start are
    // known, the words after its end change nothing.
    let mut words: Vec<Word> = Vec::new();
    let mut first = None;
    let mut start = 0;
    each_word(text, |from, to, analyzed| {
        words.push(Word { from, to, marked: marks(analyzed) });
        if first.is_none() && words[words.len() - 1].marked {
            let at = words.len() - 1;
            first = Some(at);
            start = at;
            while start > 0 && chars(words[start - 1].from, words[at].to) <= lead {
                start -= 1;
            }
        }
        // Bytes bound characters from above, so most words need no count.
        let from = first.map(|_| words[start].from);
        !from.is_some_and(|from| to - from > max_chars && chars(from, to) > max_chars)
    });
    if first.is_none() && !whole {
        return Err(NeedsMore);
    }
    let Some(from) = words.get(start).map(|w| w.from) else { return Ok(None) };
    let (mut end, mut shown) = (start, chars(from, words[start].to));
    while let Some(next) = words.get(end + 1).map(|next| shown + chars(words[end].to, next.to)) {
        if next > max_chars {
            break;
        }
        (end, shown) = (end + 1, next);
    }
    if !whole && end + 1 == words.len() {
        return Err(NeedsMore);
    }
    Ok(Some(html(text, &words[start..=end], start > 0, end + 1 < words.len())))
}

/// The HTML of the excerpt of `text` made of `shown` (consecutive words of it), with `…` before
/// when words come `before`, and after when words come `after`: the text escaped, its runs of
/// whitespace as one space.
fn html(text: &str, shown: &[Word], before: bool, after: bool) -> String {
    let mut out = String::with_capacity(text.len().min(1024));
    let from = shown.first().map_or(0, |w| w.from);
    if before {
        out.push('…');
    } else {
        push_text(&mut out, text[..from].trim_start());
    }
    let mut at = from;
    for word in shown {
        push_text(&mut out, &text[at..word.from]);
        if word.marked {
            out.push_str("<mark>");
            push_text(&mut out, &text[word.from..word.to]);
            out.push_str("</mark>");
        } else {
            push_text(&mut out, &text[word.from..word.to]);
        }
        at = word.to;
    }
    if after {
        out.push('…');
    } else {
        push_text(&mut out, text[at..].trim_end());
    }
    out
}

/// Pushes `text` escaped ([`escape`]) with its runs of whitespace as one space.
fn push_text(out: &mut String, text: &str) {
    let mut space = false;
    for c in text.chars() {
        if c.is_whitespace() {
            if !space {
                out.push(' ');
            }
            space = true;
            continue;
        }
        space = false;
        match c {
            '&' | '<' | '>' | '"' | '\'' => out.push_str(&escape(c.encode_utf8(&mut [0; 4]))),
            c => out.push(c),
        }
    }
}

/// Calls `each` with the byte range and the analyzed form of every word of `text`, as the index's
/// analyzer ([`analyzer`]) finds them, until it returns `false`. A word of ASCII letters and digits
/// (nearly all) is lower-cased here, which is all the analyzer does to it; others go through the
/// analyzer.
fn each_word(text: &str, mut each: impl FnMut(usize, usize, &str) -> bool) {
    let mut other_scripts = None;
    let mut analyzed = String::new();
    let mut chars = text.char_indices().peekable();
    while let Some((from, c)) = chars.next() {
        if !c.is_alphanumeric() {
            continue;
        }
        let mut to = from + c.len_utf8();
        while let Some((at, c)) = chars.next_if(|(_, c)| c.is_alphanumeric()) {
            to = at + c.len_utf8();
        }
        let word = &text[from..to];
        if word.len() >= MAX_WORD_BYTES {
            continue;
        }
        analyzed.clear();
        if word.is_ascii() {
            analyzed.push_str(word);
            analyzed.make_ascii_lowercase();
        } else {
            let mut stream = other_scripts.get_or_insert_with(analyzer).token_stream(word);
            if !stream.advance() {
                continue;
            }
            analyzed.push_str(&stream.token().text);
        }
        if !each(from, to, &analyzed) {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::plain::markdown;

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
        // The analyzed word: the article is split off (super::arabic).
        let html = excerpt(text, |w| w == "صحي", 180).expect("an excerpt");
        assert_eq!(html, "يفتح المركز <mark>الصحي</mark> حتى الساعة الثامنة مساء");
    }

    #[test]
    fn the_excerpt_of_a_start_is_that_of_the_whole_text_or_needs_more() {
        let text = "Clinic hours. The clinic opens early on weekdays, and the pharmacy closes at 8 pm every day \
                    of the week except holidays, when the clinic stays closed all day long; water points open too. "
            .repeat(3);
        for word in ["clinic", "water", "holidays", "none", "pharmacy", "hours"] {
            let marks = |w: &str| w == word;
            let whole = excerpt(&text, marks, 60);
            let mut cut = 0;
            for (at, _) in text.match_indices(' ') {
                if let Ok(got) = excerpt_of(&text[..=at], false, marks, 60) {
                    assert_eq!(got, whole, "{word} cut at {at}");
                    cut += 1;
                }
            }
            assert!(word == "none" || cut > 0, "{word}");
            assert_eq!(excerpt_of(&text, true, marks, 60), Ok(whole));
        }
    }

    #[test]
    fn the_words_of_an_excerpt_are_the_analyzers() {
        let text =
            format!("Café, ÉCOLE x2 naïve-ish ß İstanbul مرحبا بكم 中文 {} {} end", "a".repeat(64), "é".repeat(40));
        let mut mine = Vec::new();
        each_word(&text, |from, to, word| {
            mine.push((from, to, word.to_string()));
            true
        });
        let mut theirs = Vec::new();
        let mut analyzer = analyzer();
        let mut stream = analyzer.token_stream(&text);
        while stream.advance() {
            let token = stream.token();
            theirs.push((token.offset_from, token.offset_to, token.text.clone()));
        }
        assert_eq!(mine, theirs);
    }

    #[test]
    fn without_a_match_the_excerpt_is_the_start() {
        assert_eq!(excerpt("One two three", |_| false, 7).as_deref(), Some("One two…"));
        assert_eq!(excerpt(" ,; ", |_| true, 10), None);
    }

    #[test]
    fn markdown_loses_its_marks_and_link_targets() {
        let text = markdown("## Hours\n**Open** [the clinic](https://x.org/a_b) `now`\n|a|b|\n|---|---|\nwell-kept");
        let mut collapsed = String::new();
        push_text(&mut collapsed, &text);
        assert_eq!(collapsed.trim(), "Hours Open the clinic now a b well-kept");
    }
}
