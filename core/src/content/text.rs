//! Control characters in content text (docs/content.md#control-characters): the one rule every
//! text that enters the model goes through, so no output (feeds, pages, twins, JSON, search)
//! carries one.
//!
//! Removed: the C0 controls but tab, line feed and carriage return (XML 1.0 allows no others, so
//! one vertical tab makes an RSS feed unreadable), DEL and the C1 controls U+0080 to U+009F (XML
//! 1.0 discourages them, XML 1.1 and HTML's parser treat them as errors; in text they are almost
//! always a Windows-1252 document read wrongly), and U+FFFE and U+FFFF (not XML characters). A
//! vertical tab, a form feed and NEL (U+0085) become a space instead: word processors write a
//! vertical tab for a manual line break, and removing it would join two words.

use std::borrow::Cow;

use serde_json::{Map, Value};

/// Escapes the five HTML-significant characters (text and attribute values alike), and drops
/// the control characters no content text keeps ([`replacement`]): what is written per
/// request (a search query) and the inline SVG of charts are then clean XML too.
pub fn escape(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.extend(replacement(c)),
        }
    }
    out
}

/// What becomes of `c`: `None` to remove it, `Some(' ')` for a space, `Some(c)` to keep it.
pub fn replacement(c: char) -> Option<char> {
    match c {
        '\t' | '\n' | '\r' => Some(c),
        '\u{0B}' | '\u{0C}' | '\u{85}' => Some(' '),
        '\u{00}'..='\u{1F}' | '\u{7F}'..='\u{9F}' | '\u{FFFE}' | '\u{FFFF}' => None,
        _ => Some(c),
    }
}

/// Whether `c` is one the rule removes or replaces.
pub fn is_control(c: char) -> bool {
    replacement(c) != Some(c)
}

/// `text` without control characters (see the module's comment); borrowed when it has none, which
/// is nearly always, so the check costs one pass and no copy.
pub fn clean(text: &str) -> Cow<'_, str> {
    match text.find(is_control) {
        None => Cow::Borrowed(text),
        Some(first) => {
            let mut out = String::with_capacity(text.len());
            out.push_str(&text[..first]);
            out.extend(text[first..].chars().filter_map(replacement));
            Cow::Owned(out)
        }
    }
}

/// Cleans `text` in place (see [`clean`]).
pub fn clean_string(text: &mut String) {
    if let Cow::Owned(cleaned) = clean(text) {
        *text = cleaned;
    }
}

/// Cleans every string of a JSON value in place, the keys of its objects included.
pub fn clean_value(value: &mut Value) {
    match value {
        Value::String(text) => clean_string(text),
        Value::Array(items) => items.iter_mut().for_each(clean_value),
        Value::Object(map) => clean_map(map),
        Value::Null | Value::Bool(_) | Value::Number(_) => {}
    }
}

/// Cleans every key and string of a JSON object in place, keeping the order of its keys.
pub fn clean_map(map: &mut Map<String, Value>) {
    if map.keys().any(|key| key.contains(is_control)) {
        let old = std::mem::take(map);
        for (key, value) in old {
            map.insert(clean(&key).into_owned(), value);
        }
    }
    map.values_mut().for_each(clean_value);
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn c0_del_and_c1_controls_are_removed_and_line_ends_and_tabs_kept() {
        assert_eq!(clean("a\u{0}b\u{7}c\u{1B}[31md\u{7F}e\u{80}f\u{9F}g\u{FFFE}\u{FFFF}"), "abc[31mdefg");
        assert_eq!(clean("one\ttwo\r\nthree\n"), "one\ttwo\r\nthree\n");
    }

    #[test]
    fn a_vertical_tab_form_feed_or_nel_becomes_a_space() {
        assert_eq!(clean("line one\u{0B}line two\u{0C}three\u{85}four"), "line one line two three four");
    }

    #[test]
    fn clean_text_is_borrowed_and_other_characters_stay() {
        let text = "Café Amani — مياه نظيفة 🚰 \u{A0}\u{200B}";
        assert!(matches!(clean(text), Cow::Borrowed(t) if t == text));
    }

    #[test]
    fn every_string_and_key_of_a_value_is_cleaned_in_order() {
        let mut value = json!({"z\u{1}": "a\u{0B}b", "a": [{"x": "\u{7}y"}, 1, null, true]});
        clean_value(&mut value);
        assert_eq!(value, json!({"z": "a b", "a": [{"x": "y"}, 1, null, true]}));
        let keys: Vec<&String> = value.as_object().map(|m| m.keys().collect()).unwrap_or_default();
        assert_eq!(keys, ["z", "a"]);
    }

    #[test]
    fn nothing_cleaned_holds_a_character_xml_refuses() {
        let every: String = (0u32..0x3_0000).filter_map(char::from_u32).collect();
        let xml_char =
            |c: char| matches!(c, '\t' | '\n' | '\r' | '\u{20}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..);
        assert!(clean(&every).chars().all(|c| xml_char(c) && !('\u{7F}'..='\u{9F}').contains(&c)));
    }
}
