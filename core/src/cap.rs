//! Reading a weather-alert feed: RSS 2.0 `<item>`s or Atom `<entry>`s, with the CAP fields
//! (`cap:event`, `cap:severity`, `cap:urgency`, `cap:areaDesc`) some publishers add (decision D1).

use quick_xml::events::Event;
use quick_xml::Reader;
use serde::Serialize;

/// One alert as the API shows it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Alert {
    /// Headline.
    pub title: String,
    /// Where to read it.
    pub link: Option<String>,
    /// When it was published (as the feed wrote it).
    pub published: Option<String>,
    /// CAP severity (Extreme, Severe, Moderate, Minor, Unknown).
    pub severity: Option<String>,
    /// CAP urgency (Immediate, Expected, Future, Past, Unknown).
    pub urgency: Option<String>,
    /// CAP event type.
    pub event: Option<String>,
    /// Affected areas.
    pub areas: Vec<String>,
}

fn entity(name: &str) -> String {
    match name {
        "amp" => "&".into(),
        "lt" => "<".into(),
        "gt" => ">".into(),
        "quot" => "\"".into(),
        "apos" => "'".into(),
        _ => {
            let code = name
                .strip_prefix("#x")
                .map(|h| u32::from_str_radix(h, 16))
                .or_else(|| name.strip_prefix('#').map(str::parse));
            code.and_then(Result::ok).and_then(char::from_u32).map_or_else(|| format!("&{name};"), String::from)
        }
    }
}

/// Parses a feed; `Err` when it is not well-formed XML or has neither items nor entries' parent.
pub fn parse(xml: &str) -> Result<Vec<Alert>, String> {
    let mut reader = Reader::from_str(xml);
    let mut alerts = Vec::new();
    let mut current: Option<Alert> = None;
    let mut field: Option<String> = None;
    let mut text = String::new();
    let mut saw_feed = false;
    loop {
        match reader.read_event().map_err(|e| format!("the feed is not well-formed XML: {e}"))? {
            Event::Start(start) => {
                let name = String::from_utf8_lossy(start.local_name().as_ref()).into_owned();
                saw_feed |= matches!(name.as_str(), "rss" | "feed" | "channel" | "RDF");
                if name == "item" || name == "entry" {
                    current = Some(Alert::default());
                } else if current.is_some() {
                    field = Some(name);
                    text.clear();
                }
            }
            Event::Empty(empty) => {
                let name = String::from_utf8_lossy(empty.local_name().as_ref()).into_owned();
                if let (Some(alert), "link") = (current.as_mut(), name.as_str()) {
                    let href = empty.attributes().flatten().find(|a| a.key.local_name().as_ref() == b"href");
                    if let Some(href) = href {
                        alert.link.get_or_insert(String::from_utf8_lossy(&href.value).into_owned());
                    }
                }
            }
            Event::Text(t) => text.push_str(&t.decode().unwrap_or_default()),
            Event::CData(t) => text.push_str(&t.decode().unwrap_or_default()),
            Event::GeneralRef(r) => text.push_str(&entity(&r.decode().unwrap_or_default())),
            Event::End(end) => {
                let name = String::from_utf8_lossy(end.local_name().as_ref()).into_owned();
                if name == "item" || name == "entry" {
                    alerts.extend(current.take());
                } else if let (Some(alert), Some(open)) = (current.as_mut(), field.take()) {
                    let value = text.trim().to_string();
                    if !value.is_empty() {
                        set(alert, &open, value);
                    }
                }
            }
            Event::Eof => break,
            _ => {}
        }
    }
    if !saw_feed {
        return Err("the document is neither an RSS nor an Atom feed".into());
    }
    Ok(alerts)
}

fn set(alert: &mut Alert, field: &str, value: String) {
    match field {
        "title" => alert.title = value,
        "link" => {
            alert.link.get_or_insert(value);
        }
        "pubDate" | "published" | "updated" | "date" | "sent" => {
            alert.published.get_or_insert(value);
        }
        "severity" => alert.severity = Some(value),
        "urgency" => alert.urgency = Some(value),
        "event" => alert.event = Some(value),
        "areaDesc" => alert.areas.extend(value.split(';').map(str::trim).filter(|a| !a.is_empty()).map(str::to_string)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rss_with_cap_fields() {
        let xml = r#"<?xml version="1.0"?><rss version="2.0" xmlns:cap="urn:oasis:names:tc:emergency:cap:1.2"><channel><title>Alerts</title>
            <item><title>Flood warning &amp; advice</title><link>https://example.org/a</link><pubDate>Sun, 22 Nov 2026 10:00:00 GMT</pubDate>
            <cap:event>Flood</cap:event><cap:severity>Severe</cap:severity><cap:urgency>Expected</cap:urgency><cap:areaDesc>Zone A; Zone B</cap:areaDesc></item>
            </channel></rss>"#;
        let alerts = parse(xml).expect("feed");
        assert_eq!(alerts.len(), 1);
        assert_eq!(alerts[0].title, "Flood warning & advice");
        assert_eq!(alerts[0].severity.as_deref(), Some("Severe"));
        assert_eq!(alerts[0].areas, ["Zone A", "Zone B"]);
    }

    #[test]
    fn atom_entries_and_links() {
        let xml = r#"<feed xmlns="http://www.w3.org/2005/Atom"><entry><title>Heat</title><link href="https://example.org/h"/><updated>2026-11-22T10:00:00Z</updated></entry></feed>"#;
        let alerts = parse(xml).expect("feed");
        assert_eq!(alerts[0].link.as_deref(), Some("https://example.org/h"));
        assert_eq!(alerts[0].published.as_deref(), Some("2026-11-22T10:00:00Z"));
    }

    #[test]
    fn garbage_is_an_error() {
        assert!(parse("<html><body>oops</body></html>").is_err());
        assert!(parse("<rss><channel><item></rss>").is_err(), "mismatched tags");
    }
}
