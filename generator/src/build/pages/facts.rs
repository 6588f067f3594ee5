//! A record's facts: the front-matter values its page shows, in words a resident reads and as
//! links they can act on (docs/content.md#facts). The rules, in order:
//!
//! - keys the site hides (`hidden_fields`, default `moderated`, `spatial_id`, `*_id`, `_*`) and
//!   keys the page shows in its own way (title, tags, image...) are left off;
//! - a phone number (`phone`, `*_phone`, `mobile`, or a number-looking value inside `contact`)
//!   is a `tel:` link, normalised to `+` and digits, shown as written; `whatsapp` a `wa.me` link;
//! - an e-mail address is a `mailto:` link, a web address a link, a site path a link (a file of
//!   `static/` a download link with its size);
//! - a slug of a record of the collection the key names (`artist: deng-malual`, key or plural) is
//!   a link titled like the record;
//! - a slug the site labels (`SiteConfig::label`) is shown by its label;
//! - `price` with `currency` is a grouped number and the currency; dates are in the site's
//!   language; a mapping (`contact`, `location`) is a list of its own facts.

use portal_core::content::collections::COLLECTIONS;
use portal_core::content::event::{self, Moment, ZoneFn};
use portal_core::content::i18n::Strings;
pub use portal_core::content::phone::{self, is_phone_key, telephone};
use portal_core::content::text::escape;
use portal_core::content::time::parse_content_date;
use portal_core::content::{Record, SiteConfig};
use serde_json::{json, Map, Value};

use super::{label, words};
use crate::build::model::Model;
use crate::load::statics::{Reference, StaticFiles};
use crate::load::zone::Zone;
use crate::sanitize::markdown::{self, escape as escape_md};

/// Keys whose values are dates, shown in the site's language.
const DATE_KEYS: &[&str] = &["date", "updated", "start", "end", "deadline", "valid_through", "expires"];

/// What hides a key when the site names none: internal bookkeeping a reader has no use for.
pub const DEFAULT_HIDDEN: &[&str] = &["moderated", "spatial_id", "*_id", "_*"];

/// Whether `key` matches one of `patterns` (a name, or `*` at one end).
pub fn hidden(key: &str, patterns: &[String]) -> bool {
    patterns.iter().any(|p| match (p.strip_prefix('*'), p.strip_suffix('*')) {
        (Some(suffix), _) => key.ends_with(suffix),
        (_, Some(prefix)) => key.starts_with(prefix),
        _ => key == p,
    })
}

/// One fact: its label, and its value as HTML (escaped) and as markdown.
#[derive(Debug, Clone, PartialEq)]
pub struct Fact {
    /// What it is ("Phone").
    pub label: String,
    /// The value as HTML.
    pub html: String,
    /// The value as markdown.
    pub markdown: String,
}

impl Fact {
    /// The fact as the template sees it.
    pub fn to_json(&self) -> Value {
        json!({"label": self.label, "html": self.html, "value": self.markdown})
    }
}

/// What the rules read besides the record.
pub struct Rules<'a> {
    /// The interface text.
    pub strings: &'a Strings,
    /// The site's settings (its labels of slugs).
    pub site: &'a SiteConfig,
    /// Keys left off the page.
    pub hidden: &'a [String],
    /// The files of `static/`.
    pub statics: &'a StaticFiles,
    /// Every record's card, to name referenced records.
    pub model: &'a Model,
}

impl Rules<'_> {
    /// The facts of `record`, leaving out `not_facts` (keys its page shows otherwise).
    pub fn of(&self, record: &Record, not_facts: &[&str]) -> Vec<Fact> {
        let currency = record.fields.get("currency").and_then(Value::as_str);
        let when = self.when(record);
        let has_when = when.is_some();
        // An event's `date` is most often its start's day, which "When" already says.
        let start_day = record.fields.get("start").and_then(Value::as_str).and_then(|s| s.trim().get(..10));
        let date_is_start = record.fields.get("date").and_then(Value::as_str).map(str::trim) == start_day;
        let timed = |key: &str| has_when && (key == "start" || key == "end" || key == "date" && date_is_start);
        let facts = record
            .fields
            .iter()
            .filter(|(key, _)| !not_facts.contains(&key.as_str()) && !hidden(key, self.hidden) && !timed(key))
            .filter(|(key, _)| !(key.as_str() == "currency" && record.fields.contains_key("price")))
            .filter_map(|(key, value)| {
                let (html, markdown) = match (key.as_str(), value, currency) {
                    ("price", Value::Number(n), Some(currency)) => self.price(n, currency),
                    _ => self.value(key, value, false)?,
                };
                Some(Fact { label: self.label(key), html, markdown })
            });
        let facts: Vec<Fact> = facts.collect();
        when.into_iter().chain(facts).collect()
    }

    /// When an event happens, on one line: its date and times in the site's zone (else as written),
    /// a range within a day as `08:00-19:00`, one over several days with both dates.
    fn when(&self, record: &Record) -> Option<Fact> {
        let (html, markdown) = plain(&when(record, self.site, self.strings)?);
        Some(Fact { label: self.label("when"), html: format!("<bdi>{html}</bdi>"), markdown })
    }

    /// The label of a key: the interface text's `fields.<key>`, else the key in words (without
    /// the unit it ends with, which its value then says: `size_kb` is "Size", "95 KB").
    pub fn label(&self, key: &str) -> String {
        let words = || label(words::unit_of(key).map_or(key, |(stem, _)| stem));
        self.strings.lookup(&format!("fields.{key}")).and_then(Value::as_str).map_or_else(words, str::to_string)
    }

    /// A value as HTML and markdown; `contact` says it is inside a contact mapping.
    fn value(&self, key: &str, value: &Value, contact: bool) -> Option<(String, String)> {
        match value {
            Value::String(s) => Some(self.text(key, s.trim(), contact)),
            Value::Number(n) => Some(plain(&self.number(key, n))),
            Value::Bool(b) => Some(plain(self.strings.get(if *b { "record.answer_yes" } else { "record.answer_no" }))),
            Value::Array(items) => {
                let parts: Vec<(String, String)> = items.iter().filter_map(|v| self.value(key, v, contact)).collect();
                (!parts.is_empty()).then(|| {
                    let (html, md): (Vec<String>, Vec<String>) = parts.into_iter().unzip();
                    (html.join(", "), md.join(", "))
                })
            }
            Value::Object(map) => self.mapping(map, contact || key == "contact"),
            Value::Null => None,
        }
    }

    /// A number as the language groups it, with the unit its key names (`size_kb`: "95 KB").
    fn number(&self, key: &str, n: &serde_json::Number) -> String {
        match words::unit_of(key) {
            Some((_, format)) => format.replace("{n}", &self.grouped(n)),
            None => n.to_string(),
        }
    }

    /// The facts of a mapping that is not a record (a place's properties), in its order, leaving
    /// out `not_facts`; the same rules as a record's.
    pub fn of_mapping(&self, map: &Map<String, Value>, not_facts: &[&str]) -> Vec<Fact> {
        map.iter()
            .filter(|(key, _)| !not_facts.contains(&key.as_str()))
            .filter_map(|(key, value)| {
                let (html, markdown) = self.value(key, value, false)?;
                Some(Fact { label: self.label(key), html, markdown })
            })
            .collect()
    }

    /// A mapping as a list of its own facts.
    fn mapping(&self, map: &Map<String, Value>, contact: bool) -> Option<(String, String)> {
        let facts: Vec<(String, String, String)> = map
            .iter()
            .filter(|(key, _)| !hidden(key, self.hidden))
            .filter_map(|(key, value)| {
                let (html, md) = self.value(key, value, contact)?;
                Some((self.label(key), html, md))
            })
            .collect();
        if facts.is_empty() {
            return None;
        }
        let items: String =
            facts.iter().map(|(label, html, _)| format!("<li>{}: {html}</li>", escape(label))).collect();
        let md: Vec<String> = facts.iter().map(|(label, _, md)| format!("{}: {md}", escape_md(label))).collect();
        Some((format!("<ul class=\"fact-list\">{items}</ul>"), md.join("; ")))
    }

    /// A text value by the rules of the module documentation.
    fn text(&self, key: &str, s: &str, contact: bool) -> (String, String) {
        if DATE_KEYS.contains(&key) && parse_content_date(s).is_ok() {
            // Isolated, so a date keeps its order inside right-to-left text.
            let (html, md) = plain(&self.strings.date(s));
            return (format!("<bdi>{html}</bdi>"), md);
        }
        if key == "whatsapp" || key.ends_with("_whatsapp") || s.starts_with("whatsapp:") {
            let number = s.trim_start_matches("whatsapp:").trim();
            if let Some(tel) = telephone(number) {
                return number_link(&format!("https://wa.me/{}", tel.trim_start_matches('+')), number);
            }
        }
        if is_phone_key(key) || contact {
            if let Some(tel) = telephone(s) {
                return number_link(&format!("tel:{tel}"), s);
            }
        }
        if is_email(s) {
            return link(&format!("mailto:{s}"), s);
        }
        if words::is_zone_key(key) {
            return plain(&self.site.zone_name(s, self.strings));
        }
        if words::is_language_key(key) {
            if let Some(name) = words::language_name(s, self.strings) {
                return plain(&name);
            }
        }
        if s.starts_with("https://") || s.starts_with("http://") {
            return link(s, s);
        }
        if s.starts_with('/') && !s.starts_with("//") {
            return self.site_path(s);
        }
        if let Some((title, url)) = self.reference(key, s) {
            return link(&url, &title);
        }
        match self.site.label(s, self.strings) {
            Some(label) => plain(label),
            None => linkify(s),
        }
    }

    /// A path of the site: a file of `static/` is a download link with its size.
    fn site_path(&self, path: &str) -> (String, String) {
        let Reference::Local(_, file) = self.statics.resolve(path) else { return link(path, path) };
        let Ok(bytes) = std::fs::metadata(&file.path).map(|m| m.len()) else { return link(path, path) };
        let name = path.rsplit('/').next().unwrap_or(path);
        let size = human_size(bytes);
        let html = format!("<a href=\"{}\" download>{}</a> ({size})", escape(path), escape(name));
        (html, format!("{} ({size})", markdown::link(name, path)))
    }

    /// The record `slug` names when `key` (or its plural) is a collection that has it.
    fn reference(&self, key: &str, slug: &str) -> Option<(String, String)> {
        let plural = format!("{key}s");
        let collection = COLLECTIONS.iter().find(|c| **c == key || **c == plural)?;
        let card = self.model.cards(collection).iter().find(|card| card.slug == slug)?;
        Some((card.title.clone(), card.url.clone()))
    }

    /// `price` with `currency`: the number grouped as the interface language writes it.
    fn price(&self, n: &serde_json::Number, currency: &str) -> (String, String) {
        plain(&format!("{} {currency}", self.grouped(n)))
    }

    /// A number grouped as the interface language writes it (`30,000`).
    fn grouped(&self, n: &serde_json::Number) -> String {
        let group = self.strings.lookup("numbers.group").and_then(Value::as_str).unwrap_or(",");
        let decimal = self.strings.lookup("numbers.decimal").and_then(Value::as_str).unwrap_or(".");
        let text = n.to_string();
        let (whole, fraction) = text.split_once('.').map_or((text.as_str(), None), |(w, f)| (w, Some(f)));
        let (sign, digits) = whole.strip_prefix('-').map_or(("", whole), |d| ("-", d));
        let mut grouped = String::new();
        for (i, c) in digits.chars().enumerate() {
            if i > 0 && (digits.len() - i) % 3 == 0 {
                grouped.push_str(group);
            }
            grouped.push(c);
        }
        match fraction {
            Some(f) => format!("{sign}{grouped}{decimal}{f}"),
            None => format!("{sign}{grouped}"),
        }
    }
}

/// When an event happens, on one line: its date and times in the site's zone (else as written;
/// a time written without an offset is in the site's zone), a range within a day as
/// `08:00-19:00`, one over several days with both dates.
pub fn when(record: &Record, site: &SiteConfig, strings: &Strings) -> Option<String> {
    let zone = site.timezone.as_deref().and_then(|z| Zone::parse(z).ok());
    let offset = move |unix: i64| zone.map_or(0, |z| z.offset_at(unix));
    let zone_fn: Option<ZoneFn<'_>> = zone.is_some().then_some(&offset as ZoneFn<'_>);
    let at = |key: &str| {
        let moment = Moment::parse(record.fields.get(key)?.as_str()?, zone_fn)?;
        Some(moment.local(zone.map(|z| z.offset_at(moment.unix()))))
    };
    let (day, clock) = at("start")?;
    let date = |d: &str| strings.date(d);
    Some(match (clock, at("end")) {
        (Some(from), Some((end_day, Some(to)))) if end_day == day => format!("{}, {from}-{to}", date(&day)),
        (Some(from), Some((end_day, Some(to)))) => format!("{}, {from} - {}, {to}", date(&day), date(&end_day)),
        (None, Some((end_day, _))) if end_day != day => format!("{} - {}", date(&day), date(&end_day)),
        (Some(from), _) => format!("{}, {from}", date(&day)),
        (None, _) => date(&day),
    })
}

/// Where an event happens, for listings: its venue's name, address and zone
/// (`portal_core::content::event::place`).
pub fn place(record: &Record, site: &SiteConfig, strings: &Strings) -> Option<String> {
    event::place(&record.fields, site, strings)
}

/// Text with the e-mail addresses, web addresses and phone numbers inside it made links (numbers
/// found by `portal_core::content::phone::find`, which links only what reads as a number to call),
/// as HTML and markdown; everything else escaped.
pub fn linkify(text: &str) -> (String, String) {
    let (mut html, mut md) = (String::new(), String::new());
    let mut rest = text;
    while let Some((range, tel)) = phone::find(rest) {
        let (h, m) = addresses(&rest[..range.start]);
        let (nh, nm) = number_link(&format!("tel:{tel}"), &rest[range.clone()]);
        html.push_str(&(h + &nh));
        md.push_str(&(m + &nm));
        rest = &rest[range.end..];
    }
    let (h, m) = addresses(rest);
    (words::keep_codes(&(html + &h)), md + &m)
}

/// Text with its e-mail and web addresses made links.
fn addresses(text: &str) -> (String, String) {
    let (mut html, mut md) = (String::new(), String::new());
    let mut rest = text;
    while !rest.is_empty() {
        let (before, found, after) = next_link(rest);
        html.push_str(&escape(before));
        md.push_str(&escape_md(before));
        if let Some((target, shown)) = found {
            let (h, m) = link(&target, shown);
            html.push_str(&h);
            md.push_str(&m);
        }
        rest = after;
    }
    (html, md)
}

/// The text before the next address in `text`, the link (target, text shown) and what follows.
fn next_link(text: &str) -> (&str, Option<(String, &str)>, &str) {
    let mut start = 0;
    for token in text.split_inclusive(char::is_whitespace) {
        let word = token.trim_end().trim_end_matches(['.', ',', ';', ':', ')', '!', '?']);
        let at = start;
        start += token.len();
        let target = if word.starts_with("https://") || word.starts_with("http://") {
            Some(word.to_string())
        } else if is_email(word.trim_start_matches('(')) {
            Some(format!("mailto:{}", word.trim_start_matches('(')))
        } else {
            None
        };
        if let Some(target) = target {
            let word = word.trim_start_matches('(');
            let begin = at + token.find(word).unwrap_or(0);
            return (&text[..begin], Some((target, word)), &text[begin + word.len()..]);
        }
    }
    (text, None, "")
}

fn is_email(s: &str) -> bool {
    let Some((user, host)) = s.split_once('@') else { return false };
    !user.is_empty() && host.contains('.') && !s.contains(char::is_whitespace) && !host.starts_with('.')
}

fn human_size(bytes: u64) -> String {
    match bytes {
        b if b >= 1024 * 1024 => format!("{:.1} MB", b as f64 / (1024.0 * 1024.0)),
        b if b >= 1024 => format!("{} KB", b.div_ceil(1024)),
        b => format!("{b} bytes"),
    }
}

/// Text as HTML and markdown.
fn plain(text: &str) -> (String, String) {
    (escape(text), escape_md(text))
}

/// A link as HTML and markdown.
fn link(href: &str, text: &str) -> (String, String) {
    (format!("<a href=\"{}\">{}</a>", escape(href), escape(text)), markdown::link(text, href))
}

/// A link to a phone number, written left to right wherever it stands (inside Arabic text,
/// `+256 700 000 104` would otherwise read `104 000 700 256+`).
pub fn number_link(href: &str, text: &str) -> (String, String) {
    let (html, md) = link(href, text);
    (html.replacen("<a ", "<a dir=\"ltr\" ", 1), md)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load::statics::StaticFiles;

    #[test]
    fn addresses_and_numbers_inside_text_become_links() {
        let (html, md) = linkify("via the Arts Collective, arts@amani.example.org, or +256 700 000 104 (free).");
        assert_eq!(
            html,
            "via the Arts Collective, <a href=\"mailto:arts@amani.example.org\">arts@amani.example.org</a>, or \
             <a dir=\"ltr\" href=\"tel:+256700000104\">+256 700 000 104</a> (free)."
        );
        assert!(md.contains("[+256 700 000 104](tel:+256700000104)"), "{md}");
        assert_eq!(
            linkify("see https://example.org/a.").0,
            "see <a href=\"https://example.org/a\">https://example.org/a</a>."
        );
        assert_eq!(linkify("1 + 1 = 2").0, "1 + 1 = 2");
    }

    #[test]
    fn a_time_without_an_offset_reads_in_the_site_zone() {
        let fields = serde_json::json!({"title": "Fair", "starts": "2026-12-03 14:00", "ends": "2026-12-03T16:30"});
        let fields = fields.as_object().cloned().unwrap_or_default();
        let record = Record::from_fields("events", "fair", fields, None).expect("valid");
        let site = SiteConfig { timezone: Some("Africa/Kampala".into()), ..SiteConfig::default() };
        let strings = Strings::default();
        assert_eq!(when(&record, &site, &strings).as_deref(), Some("2026-12-03, 14:00-16:30"));
        let floating = SiteConfig::default();
        assert_eq!(when(&record, &floating, &strings).as_deref(), Some("2026-12-03, 14:00-16:30"));
        let utc = Record::from_fields(
            "events",
            "fair",
            serde_json::json!({"title": "Fair", "start": "2026-12-03T11:00:00Z"})
                .as_object()
                .cloned()
                .unwrap_or_default(),
            None,
        )
        .expect("valid");
        assert_eq!(when(&utc, &site, &strings).as_deref(), Some("2026-12-03, 14:00"));
    }

    #[test]
    fn a_mapping_reads_in_words_whatever_its_keys() {
        let strings = Strings(json!({"record": {"answer_yes": "ndiyo", "answer_no": "hapana"}}));
        let (site, model, statics) = (SiteConfig::default(), Model::default(), StaticFiles::default());
        let rules = Rules { strings: &strings, site: &site, hidden: &[], statics: &statics, model: &model };
        let map = json!({"name": "Clinic", "helpline": "Call 0800 100 200 <b>now</b>", "open_24h": true,
            "home_zone": "zone-c", "languages": ["so", "xx"], "size_kb": 95, "budget_usd": 12500000,
            "office_phone": "0700 000 106", "ref": "B-12 2026-01-02"});
        let facts = rules.of_mapping(map.as_object().expect("an object"), &["name"]);
        let shown: Vec<(&str, &str)> = facts.iter().map(|f| (f.label.as_str(), f.html.as_str())).collect();
        assert_eq!(
            shown,
            [
                ("Helpline", "Call <a dir=\"ltr\" href=\"tel:0800100200\">0800 100 200</a> &lt;b&gt;now&lt;/b&gt;"),
                ("Open 24h", "ndiyo"),
                ("Home zone", "Zone C"),
                ("Languages", "Soomaali, xx"),
                ("Size", "95 KB"),
                ("Budget", "USD 12,500,000"),
                ("Office phone", "<a dir=\"ltr\" href=\"tel:0700000106\">0700 000 106</a>"),
                ("Ref", "<span class=\"nowrap\">B-12</span> 2026-01-02"),
            ]
        );
    }

    #[test]
    fn hidden_keys_follow_names_and_globs() {
        let patterns: Vec<String> = DEFAULT_HIDDEN.iter().map(|s| s.to_string()).collect();
        for key in ["moderated", "spatial_id", "record_id", "_internal"] {
            assert!(hidden(key, &patterns), "{key}");
        }
        for key in ["id_card", "zone", "price"] {
            assert!(!hidden(key, &patterns), "{key}");
        }
    }
}
