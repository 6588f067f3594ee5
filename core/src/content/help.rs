//! The site's help page (docs/content.md#the-help-page): the page the search page shows first for a
//! query asking for help (docs/spec/api-spec.md#search-page-help) and links when nothing is found.
//! The build finds it (front matter `help: true`, else the page at [`HELP_URL`]) and writes what
//! the pages rendered per request need of it into the manifest head.

use serde::{Deserialize, Serialize};

use super::phone::{is_phone_key, telephone};
use super::Record;

/// Where the help page is when no page says `help: true`.
pub const HELP_URL: &str = "/urgent-help";

/// The most numbers the search page shows of the help page: the first, most urgent ones.
pub const MAX_HELP_NUMBERS: usize = 6;

/// The fewest digits a number in a page's text needs (without `+`): fewer are dates or counts.
const MIN_TEXT_DIGITS: usize = 9;

/// What the pages rendered per request show of the help page.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct HelpPage {
    /// Its site-relative URL.
    pub url: String,
    /// Its title.
    pub title: String,
    /// Its summary, when it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summary: Option<String>,
    /// Its phone numbers as written, with their `tel:` targets, in the order they appear (front
    /// matter first), each once.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub phones: Vec<HelpPhone>,
}

/// One number of the help page.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HelpPhone {
    /// As the page writes it.
    pub text: String,
    /// Its `tel:` target (see [`telephone`]).
    pub tel: String,
}

/// Whether `record` says it is the help page (front matter `help: true`).
pub fn marks_help(record: &Record) -> bool {
    record.fields.get("help").and_then(serde_json::Value::as_bool) == Some(true)
}

impl HelpPage {
    /// The help page of `record`: its title, summary and numbers.
    pub fn of(record: &Record) -> Self {
        let mut phones: Vec<HelpPhone> = Vec::new();
        let front = record.fields.iter().filter(|(key, _)| is_phone_key(key)).flat_map(|(_, value)| match value {
            serde_json::Value::Array(items) => items.iter().filter_map(|v| v.as_str().map(str::to_string)).collect(),
            other => other.as_str().map(str::to_string).into_iter().collect::<Vec<_>>(),
        });
        let text = numbers_in(record.body.as_deref().unwrap_or_default());
        for written in front.chain(text) {
            let Some(tel) = telephone(&written) else { continue };
            if phones.len() < MAX_HELP_NUMBERS && !phones.iter().any(|p| p.tel == tel) {
                phones.push(HelpPhone { text: written.trim().to_string(), tel });
            }
        }
        HelpPage { url: record.url.clone(), title: record.title.clone(), summary: record.summary.clone(), phones }
    }
}

/// The phone numbers written in `text`: runs of digits, spaces and `+-()` that start with `+` or
/// have at least `MIN_TEXT_DIGITS` digits (so dates and hours are not taken for numbers).
pub fn numbers_in(text: &str) -> Vec<String> {
    let part = |c: char| c.is_ascii_digit() || " +-()\u{a0}".contains(c);
    let mut found = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find(|c: char| c.is_ascii_digit() || c == '+') {
        let run = &rest[start..];
        let end = run.char_indices().find(|(i, c)| !part(*c) || *i > 0 && *c == '+').map_or(run.len(), |(i, _)| i);
        let number = run[..end].trim_end_matches(|c: char| !c.is_ascii_digit());
        let digits = number.chars().filter(char::is_ascii_digit).count();
        if number.starts_with('+') && digits >= 6 || digits >= MIN_TEXT_DIGITS {
            found.push(number.trim().to_string());
        }
        rest = &run[end.max(1)..];
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_read_from_the_text_but_not_dates_or_hours() {
        let text = "| Violence | **+256 700 000 100** | 24 h |\nOpen 08:00-17:00 since 2026-11-15; \
                    call 0700 000 108 or +256 700 000 100.";
        assert_eq!(numbers_in(text), ["+256 700 000 100", "0700 000 108", "+256 700 000 100"]);
        assert!(numbers_in("Mon-Sat 08:00-17:00, 24 h, 2026-11-15").is_empty());
    }

    #[test]
    fn the_help_page_keeps_each_number_once_front_matter_first() {
        let fields = serde_json::json!({"phone": "0800 100 100", "help": true});
        let record = Record {
            file: "pages/urgent-help.md".into(),
            collection: "pages".into(),
            id: "urgent-help".into(),
            slug: "urgent-help".into(),
            title: "Urgent help".into(),
            url: "/urgent-help".into(),
            fields: fields.as_object().cloned().unwrap_or_default(),
            body: Some("Call +256 700 000 100 or 0800 100 100. Again: +256 700 000 100.".into()),
            html: None,
            date: None,
            updated: None,
            weight: None,
            draft: false,
            summary: None,
            tags: Vec::new(),
            category: None,
        };
        assert!(marks_help(&record));
        let help = HelpPage::of(&record);
        let tels: Vec<&str> = help.phones.iter().map(|p| p.tel.as_str()).collect();
        assert_eq!(tels, ["0800100100", "+256700000100"]);
        assert_eq!(help.phones[1].text, "+256 700 000 100");
    }
}
