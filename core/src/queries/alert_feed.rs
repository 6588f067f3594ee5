//! Reading a weather-alert feed (docs/spec/api-spec.md#weather-alerts): RSS (0.9x, 1.0, 2.0)
//! `<item>`s or Atom `<entry>`s, with the CAP fields (`cap:event`, `cap:severity`, `cap:urgency`,
//! `cap:areaDesc`, `cap:sent`) some publishers add, through the feed crates the build already uses
//! (`rss`, `atom_syndication`) rather than a parser of our own: they handle entities, CDATA and the
//! RSS variants.
//!
//! A feed is a third party's text: an alert's `link` is kept only when it is an absolute `http(s)`
//! address ([`web_address`]); any other (`javascript:`, `data:`, relative) is dropped here, before
//! the API or the weather page sees it.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::content::url_policy::web_address;

/// One alert as the API shows it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Alert {
    /// Headline.
    pub title: String,
    /// Where to read it: an absolute `http(s)` address, or none.
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

/// Why a feed could not be read, as the 503 detail says it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FeedError(pub String);

impl std::fmt::Display for FeedError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// The namespace of every CAP version (`urn:oasis:names:tc:emergency:cap:1.2` and earlier).
const CAP_NAMESPACE: &str = "urn:oasis:names:tc:emergency:cap:";

/// The text values of the CAP elements of one item, by element name.
type CapFields = BTreeMap<String, Vec<String>>;

/// The CAP fields among an item's extensions (by prefix, then element name: the shape of both feed
/// crates, each with its own extension type, hence `text`).
fn cap_fields<E>(
    extensions: &BTreeMap<String, BTreeMap<String, Vec<E>>>,
    prefix: &str,
    text: fn(&E) -> Option<&str>,
) -> CapFields {
    let Some(elements) = extensions.get(prefix) else { return CapFields::new() };
    elements
        .iter()
        .map(|(name, values)| (name.clone(), values.iter().filter_map(text).map(|v| v.trim().to_string()).collect()))
        .collect()
}

/// Parses a feed: RSS first, then Atom; `Err` when it is neither.
pub fn parse(xml: &str) -> Result<Vec<Alert>, FeedError> {
    match rss::Channel::read_from(xml.as_bytes()) {
        Ok(channel) => Ok(from_rss(&channel)),
        Err(rss_error) => match atom_syndication::Feed::read_from(xml.as_bytes()) {
            Ok(feed) => Ok(from_atom(&feed)),
            Err(_) => Err(FeedError(format!("the document is neither an RSS nor an Atom feed ({rss_error})"))),
        },
    }
}

fn from_rss(channel: &rss::Channel) -> Vec<Alert> {
    let prefix = cap_prefix(channel.namespaces());
    channel
        .items()
        .iter()
        .map(|item| {
            let published = item
                .pub_date()
                .map(str::to_string)
                .or_else(|| item.dublin_core_ext().and_then(|dc| dc.dates().first().cloned()));
            with_cap(
                Alert {
                    title: item.title().unwrap_or_default().trim().to_string(),
                    link: item.link().and_then(web_address),
                    published,
                    ..Alert::default()
                },
                &cap_fields(item.extensions(), &prefix, rss::extension::Extension::value),
            )
        })
        .collect()
}

fn from_atom(feed: &atom_syndication::Feed) -> Vec<Alert> {
    let prefix = cap_prefix(feed.namespaces());
    feed.entries()
        .iter()
        .map(|entry| {
            let link = entry
                .links()
                .iter()
                .find(|l| l.rel() == "alternate")
                .or_else(|| entry.links().first())
                .and_then(|l| web_address(l.href()));
            let published = entry.published().unwrap_or(entry.updated()).to_rfc3339();
            with_cap(
                Alert {
                    title: entry.title().as_str().trim().to_string(),
                    link,
                    published: Some(published),
                    ..Alert::default()
                },
                &cap_fields(entry.extensions(), &prefix, atom_syndication::extension::Extension::value),
            )
        })
        .collect()
}

/// The prefix a document binds to the CAP namespace (`cap` when it binds none).
fn cap_prefix(namespaces: &BTreeMap<String, String>) -> String {
    namespaces
        .iter()
        .find(|(_, uri)| uri.starts_with(CAP_NAMESPACE))
        .map_or_else(|| "cap".to_string(), |(prefix, _)| prefix.clone())
}

/// Fills the CAP fields of `alert`.
fn with_cap(mut alert: Alert, cap: &CapFields) -> Alert {
    let value = |name: &str| cap.get(name).and_then(|values| values.first()).filter(|v| !v.is_empty()).cloned();
    alert.severity = value("severity");
    alert.urgency = value("urgency");
    alert.event = value("event");
    if alert.published.is_none() {
        alert.published = value("sent");
    }
    alert.areas = cap
        .get("areaDesc")
        .into_iter()
        .flatten()
        .flat_map(|v| v.split(';'))
        .map(str::trim)
        .filter(|a| !a.is_empty())
        .map(str::to_string)
        .collect();
    alert
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
        assert_eq!(alerts[0].published.as_deref(), Some("Sun, 22 Nov 2026 10:00:00 GMT"));
    }

    #[test]
    fn any_prefix_bound_to_the_cap_namespace_counts() {
        let xml = r#"<rss version="2.0" xmlns:c="urn:oasis:names:tc:emergency:cap:1.1"><channel><title>A</title>
            <item><title><![CDATA[Heat <advisory>]]></title><c:severity>Minor</c:severity><c:sent>2026-11-22T10:00:00+03:00</c:sent></item>
            </channel></rss>"#;
        let alerts = parse(xml).expect("feed");
        assert_eq!(alerts[0].title, "Heat <advisory>");
        assert_eq!(alerts[0].severity.as_deref(), Some("Minor"));
        assert_eq!(alerts[0].published.as_deref(), Some("2026-11-22T10:00:00+03:00"));
    }

    #[test]
    fn atom_entries_and_links() {
        let xml = r#"<feed xmlns="http://www.w3.org/2005/Atom"><title>A</title><id>x</id><updated>2026-11-22T10:00:00Z</updated><entry><title>Heat</title><id>h</id><link href="https://example.org/h"/><updated>2026-11-22T10:00:00Z</updated></entry></feed>"#;
        let alerts = parse(xml).expect("feed");
        assert_eq!(alerts[0].link.as_deref(), Some("https://example.org/h"));
        assert_eq!(alerts[0].published.as_deref(), Some("2026-11-22T10:00:00+00:00"));
    }

    #[test]
    fn links_other_than_web_addresses_are_dropped() {
        let xml = r#"<rss version="2.0"><channel><title>A</title>
            <item><title>a</title><link>javascript:alert(document.domain)</link></item>
            <item><title>b</title><link> JavaScript:alert(1)</link></item>
            <item><title>c</title><link>data:text/html,&lt;script&gt;alert(1)&lt;/script&gt;</link></item>
            <item><title>d</title><link>/relative/path</link></item>
            <item><title>e</title><link>https://example.org/e</link></item>
            </channel></rss>"#;
        let links: Vec<Option<String>> = parse(xml).expect("feed").into_iter().map(|a| a.link).collect();
        assert_eq!(links, [None, None, None, None, Some("https://example.org/e".into())]);
        let xml = r#"<feed xmlns="http://www.w3.org/2005/Atom"><title>A</title><id>x</id><updated>2026-11-22T10:00:00Z</updated>
            <entry><title>H</title><id>h</id><link href="java&#9;script:alert(1)"/><updated>2026-11-22T10:00:00Z</updated></entry></feed>"#;
        assert_eq!(parse(xml).expect("feed")[0].link, None);
    }

    #[test]
    fn garbage_is_an_error() {
        assert!(parse("<html><body>oops</body></html>").is_err());
        assert!(parse("<rss><channel><item></rss>").is_err(), "mismatched tags");
    }
}
