//! The interface text of the published site in the site's language: navigation, search, forms,
//! footers, dates and messages.
//!
//! The tables themselves are theme data (`templates/i18n/<lang>.yaml`, overridable per site with
//! `content/i18n/<lang>.yaml`); the build resolves the one for `site.yaml` `language` and writes it
//! into the manifest, so the pages rendered at build time and those rendered per request (search
//! results, forms) speak the same words. This module only reads a resolved table: it knows no
//! language of its own.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Languages written right to left (BCP 47 primary subtags); pages in them get `dir="rtl"`.
pub const RIGHT_TO_LEFT: &[&str] =
    &["ar", "arc", "ckb", "dv", "fa", "ha-arab", "he", "ks", "ku-arab", "ps", "sd", "ug", "ur", "yi"];

/// Whether `language` (a BCP 47 tag such as `ar` or `fa-IR`) is written right to left.
pub fn is_rtl(language: &str) -> bool {
    let tag = language.trim().to_ascii_lowercase();
    let primary = tag.split(['-', '_']).next().unwrap_or("");
    RIGHT_TO_LEFT.contains(&tag.as_str()) || RIGHT_TO_LEFT.contains(&primary)
}

/// The `dir` attribute of a page or element in `language`.
pub fn direction(language: &str) -> &'static str {
    if is_rtl(language) {
        "rtl"
    } else {
        "ltr"
    }
}

/// A resolved translation table: nested mappings of strings (and lists of strings, such as month
/// names), looked up by dotted keys like `search.button`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Strings(pub Value);

impl Strings {
    /// The value at a dotted `key`, if the table has it.
    pub fn lookup(&self, key: &str) -> Option<&Value> {
        key.split('.').try_fold(&self.0, |node, part| node.get(part))
    }

    /// The string at `key`; the key itself when the table lacks it, so a missing string shows up
    /// on the page instead of failing a request (the build checks every table is complete).
    pub fn get<'a>(&'a self, key: &'a str) -> &'a str {
        self.lookup(key).and_then(Value::as_str).unwrap_or(key)
    }

    /// The string at `key` with each `{name}` replaced by its value.
    pub fn fill(&self, key: &str, values: &[(&str, &str)]) -> String {
        values.iter().fold(self.get(key).to_string(), |text, (name, value)| text.replace(&format!("{{{name}}}"), value))
    }

    /// The sentence `key` as HTML: its text escaped, each `{name}` of `html` replaced by that
    /// piece of markup as given (a link, say), so that translators place the links.
    pub fn fill_html(&self, key: &str, html: &[(&str, &str)]) -> String {
        let marks: Vec<(String, &str)> = html.iter().map(|(name, markup)| (format!("{{{name}}}"), *markup)).collect();
        let mut out = String::new();
        let mut rest = self.get(key);
        while let Some((at, mark, markup)) =
            marks.iter().filter_map(|(mark, markup)| Some((rest.find(mark.as_str())?, mark, *markup))).min()
        {
            out.push_str(&crate::content::text::escape(&rest[..at]));
            out.push_str(markup);
            rest = &rest[at + mark.len()..];
        }
        out.push_str(&crate::content::text::escape(rest));
        out
    }

    /// A calendar date (`YYYY-MM-DD`) as people of the site's language write it, using
    /// `dates.format` (with `{day}`, `{month}`, `{year}`) and the twelve `dates.months`. Text that
    /// is not such a date is returned unchanged.
    pub fn date(&self, iso: &str) -> String {
        let parts: Vec<&str> = iso.get(..10).unwrap_or(iso).split('-').collect();
        let [year, month, day] = parts.as_slice() else { return iso.to_string() };
        let (Ok(m), Ok(d)) = (month.parse::<usize>(), day.parse::<u32>()) else { return iso.to_string() };
        let months = self.lookup("dates.months").and_then(Value::as_array);
        let Some(name) = months.and_then(|list| list.get(m.wrapping_sub(1))).and_then(Value::as_str) else {
            return iso.to_string();
        };
        self.fill("dates.format", &[("day", &d.to_string()), ("month", name), ("year", year)])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn strings() -> Strings {
        Strings(json!({
            "search": {"button": "Search", "results": "{count} results for {query}"},
            "dates": {"format": "{day} {month} {year}", "months": ["January", "February", "March", "April", "May",
                "June", "July", "August", "September", "October", "November", "December"]},
        }))
    }

    #[test]
    fn a_sentence_with_links_is_escaped_around_them() {
        let strings = Strings(json!({"help": "<Need> {help} or {services}; {help}!"}));
        let html = strings.fill_html("help", &[("services", "<a href=\"/s\">S</a>"), ("help", "<a>H</a>")]);
        assert_eq!(html, "&lt;Need&gt; <a>H</a> or <a href=\"/s\">S</a>; <a>H</a>!");
    }

    #[test]
    fn dotted_keys_find_nested_strings_and_missing_ones_show_their_key() {
        assert_eq!(strings().get("search.button"), "Search");
        assert_eq!(strings().get("search.nothing"), "search.nothing");
        assert_eq!(strings().fill("search.results", &[("count", "3"), ("query", "water")]), "3 results for water");
    }

    #[test]
    fn dates_use_the_month_names_of_the_table() {
        assert_eq!(strings().date("2026-03-07"), "7 March 2026");
        assert_eq!(strings().date("2026-03-07T10:00:00Z"), "7 March 2026");
        assert_eq!(strings().date("soon"), "soon");
        assert_eq!(strings().date("2026-13-01"), "2026-13-01");
    }

    #[test]
    fn arabic_and_persian_are_right_to_left() {
        assert_eq!(direction("ar"), "rtl");
        assert_eq!(direction("fa-IR"), "rtl");
        assert_eq!(direction("sw"), "ltr");
        assert_eq!(direction("en"), "ltr");
    }
}
