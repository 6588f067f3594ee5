//! Raw values of the data in words a resident reads (docs/content.md#facts): a zone's slug as the
//! zone's name, a language code as the language's name, a number with the unit its key names
//! (`size_kb: 95` is "95 KB"). Each rule reads the key and value alone, so it holds for records,
//! places and alerts the theme was never written against.

use portal_core::content::i18n::Strings;
use serde_json::Value;

use super::record::autonym;

/// Whether `key` names zones (`zone`, `zones`, `home_zone`...).
pub fn is_zone_key(key: &str) -> bool {
    matches!(key, "zone" | "zones") || key.ends_with("_zone") || key.ends_with("_zones")
}

/// Whether `key` names languages (`language`, `languages`, `spoken_languages`...).
pub fn is_language_key(key: &str) -> bool {
    matches!(key, "language" | "languages" | "lang" | "langs")
        || key.ends_with("_language")
        || key.ends_with("_languages")
}

/// A language's name for a language code (`sw`, `fr-CA`, `ara`): the interface text's
/// `language_names.<code>`, else the language's own name; `None` for text that is not a code,
/// which is then shown as written.
pub fn language_name(code: &str, strings: &Strings) -> Option<String> {
    let code = code.trim();
    let primary = code.split(['-', '_']).next().unwrap_or(code);
    let is_code = (2..=3).contains(&primary.len()) && primary.chars().all(|c| c.is_ascii_alphabetic());
    if !is_code || code.len() > 12 {
        return None;
    }
    let primary = primary.to_ascii_lowercase();
    if let Some(name) = strings.lookup(&format!("language_names.{primary}")).and_then(Value::as_str) {
        return Some(name.to_string());
    }
    let own = autonym(&primary);
    (own != primary).then_some(own)
}

/// Units a key can end with, and how a number in that unit is written (`{n}` the number).
const UNITS: &[(&str, &str)] = &[
    ("_kb", "{n} KB"),
    ("_mb", "{n} MB"),
    ("_gb", "{n} GB"),
    ("_km", "{n} km"),
    ("_m", "{n} m"),
    ("_cm", "{n} cm"),
    ("_ha", "{n} ha"),
    ("_kg", "{n} kg"),
    ("_l", "{n} L"),
    ("_percent", "{n}%"),
    ("_pct", "{n}%"),
    ("_usd", "USD {n}"),
    ("_eur", "EUR {n}"),
    ("_ugx", "UGX {n}"),
    ("_kes", "KES {n}"),
];

/// The key without the unit it ends with and how a number of it is written (`size_kb` is
/// ("size", "{n} KB"); `percentage_women` is ("percentage women", "{n}%")), or `None`.
pub fn unit_of(key: &str) -> Option<(&str, &'static str)> {
    if key.starts_with("percentage_") || key.starts_with("percent_") || key.starts_with("pct_") {
        return Some((key, "{n}%"));
    }
    UNITS.iter().find_map(|(suffix, format)| {
        let stem = key.strip_suffix(suffix)?;
        (!stem.is_empty()).then_some((stem, *format))
    })
}

/// `number` (already written as the language writes numbers) with the unit `key` names, if any.
#[cfg(test)]
fn with_unit(key: &str, number: &str) -> Option<String> {
    unit_of(key).map(|(_, format)| format.replace("{n}", number))
}

/// HTML text with each code (`B-12`, `C-1`, `BK-7F3A`: a capital, up to three more capitals or
/// digits, then groups of capitals and digits after hyphens) kept on one line
/// (`<span class="nowrap">`), since a line broken after its hyphen reads as two things. Tags in
/// `html` are passed over; only text between them changes.
pub fn keep_codes(html: &str) -> String {
    let mut out = String::with_capacity(html.len() + 32);
    let mut rest = html;
    while !rest.is_empty() {
        let tag = rest.find('<').unwrap_or(rest.len());
        out.push_str(&codes_in_text(&rest[..tag]));
        let end = rest[tag..].find('>').map_or(rest.len(), |n| tag + n + 1);
        out.push_str(&rest[tag..end]);
        rest = &rest[end..];
    }
    out
}

/// Text (no tags) with its codes wrapped (see [`keep_codes`]).
fn codes_in_text(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut copied = 0;
    let mut i = 0;
    while i < bytes.len() {
        let starts = bytes[i].is_ascii_uppercase() && (i == 0 || !joins(text[..i].chars().next_back()));
        if let Some(end) = starts.then(|| code_end(bytes, i)).flatten() {
            out.push_str(&text[copied..i]);
            out.push_str(&format!("<span class=\"nowrap\">{}</span>", &text[i..end]));
            copied = end;
            i = end;
        } else {
            i += 1;
        }
    }
    out.push_str(&text[copied..]);
    out
}

/// Whether `c` joins a word, so a code cannot start after it.
fn joins(c: Option<char>) -> bool {
    c.is_some_and(|c| c.is_alphanumeric() || c == '-' || c == '_')
}

/// Where the code starting at `start` ends, if one does.
fn code_end(bytes: &[u8], start: usize) -> Option<usize> {
    let word = |at: usize| bytes[at..].iter().take_while(|b| b.is_ascii_uppercase() || b.is_ascii_digit()).count();
    let head = word(start);
    if head > 4 {
        return None;
    }
    let mut end = start + head;
    let mut groups = 0;
    while bytes.get(end) == Some(&b'-') && end + 1 < bytes.len() {
        let next = word(end + 1);
        if next == 0 || next > 8 {
            break;
        }
        end += 1 + next;
        groups += 1;
    }
    let after = bytes.get(end).copied();
    let ends = !after.is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_' || b >= 0x80);
    (groups > 0 && ends).then_some(end)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings() -> Strings {
        Strings(serde_json::json!({"language_names": {"sw": "Swahili"}}))
    }

    #[test]
    fn zone_slugs_read_as_names() {
        let mut site = portal_core::content::SiteConfig::default();
        site.labels.insert("z-north".into(), "North field".into());
        assert_eq!(site.zone_name("zone-b", &strings()), "Zone B");
        assert_eq!(site.zone_name("block-c12", &strings()), "Block C12");
        assert_eq!(site.zone_name("z-north", &strings()), "North field");
        assert_eq!(site.zone_name("Near the <school>", &strings()), "Near the <school>", "text stays text");
    }

    #[test]
    fn language_codes_read_as_names() {
        assert_eq!(language_name("sw", &strings()).as_deref(), Some("Swahili"));
        assert_eq!(language_name("ar", &strings()).as_deref(), Some("العربية"));
        assert_eq!(language_name("fr-CA", &strings()).as_deref(), Some("Français"));
        assert_eq!(language_name("xx", &strings()), None);
        assert_eq!(language_name("sign language", &strings()), None);
    }

    #[test]
    fn units_come_from_the_key() {
        assert_eq!(with_unit("size_kb", "95").as_deref(), Some("95 KB"));
        assert_eq!(with_unit("percentage_women", "52").as_deref(), Some("52%"));
        assert_eq!(with_unit("budget_usd", "12,500,000").as_deref(), Some("USD 12,500,000"));
        assert_eq!(unit_of("depth_m"), Some(("depth", "{n} m")));
        assert_eq!(with_unit("pupils", "1460"), None);
        assert_eq!(with_unit("_m", "3"), None);
    }

    #[test]
    fn codes_stay_on_one_line_and_tags_are_passed_over() {
        assert_eq!(
            keep_codes("Blocks C-1 to C-6, <b title=\"B-12\">B-12</b> and BK-7F3A."),
            "Blocks <span class=\"nowrap\">C-1</span> to <span class=\"nowrap\">C-6</span>, <b title=\"B-12\">\
             <span class=\"nowrap\">B-12</span></b> and <span class=\"nowrap\">BK-7F3A</span>."
        );
        for text in ["Kiswahili-speaking", "x-B-12", "2026-11-20", "Mon-Sat", "COVID-19x", "WASH office", "A-"] {
            assert_eq!(keep_codes(text), text, "{text}");
        }
    }
}
