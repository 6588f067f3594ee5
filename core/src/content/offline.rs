//! Reading offline (docs/offline.md): the names of the files a build writes so that a phone keeps
//! the site when the network drops (the web app manifest, its icons, the service worker, the
//! offline page, each listing's list of record pages), the precache budget and the site's
//! `offline:` setting. The generator writes the files; servers only serve them as built.

use serde::{Deserialize, Serialize};

/// The service worker, at the root so that its scope is the whole site.
pub const SERVICE_WORKER: &str = "sw.js";
/// The web app manifest (media type `application/manifest+json`, by its extension).
pub const WEB_MANIFEST: &str = "manifest.webmanifest";
/// The page a reader sees offline for a page never opened (docs/offline.md#what-a-reader-sees).
pub const OFFLINE_PAGE: &str = "/offline";
/// The install icons' sizes in pixels: the two Chromium asks for.
pub const ICON_SIZES: [u32; 2] = [192, 512];
/// `Cache-Control` of [`SERVICE_WORKER`]: browsers check it on every visit, so a new build's
/// worker (and precache list) reaches readers on their next visit.
pub const SERVICE_WORKER_CACHE_CONTROL: &str = "no-cache";
/// The precache budget when site.yaml names none: what a phone downloads on install.
pub const DEFAULT_BUDGET: u64 = 1_500_000;
/// Pages a reader opened that the worker keeps, oldest dropped first.
pub const KEPT_PAGES: u32 = 100;

/// An install icon's file (under the theme's assets, as the build writes it).
pub fn icon_file(size: u32) -> String {
    format!("assets/icon-{size}.png")
}

/// The list of a collection's record pages with their sizes, which "Save for offline" reads.
pub fn listing_file(collection: &str) -> String {
    format!("offline/{collection}.json")
}

/// site.yaml `offline:` (docs/offline.md#settings): `false` turns reading offline off (no
/// manifest link, no service worker); else the precache budget and the manifest's own words.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "Setting", into = "Setting")]
pub struct OfflineSettings {
    /// Whether pages link the manifest and register the service worker.
    pub enabled: bool,
    /// Bytes the install may download at most.
    pub budget: u64,
    /// The name under the icon (the manifest's `short_name`), when not the site's title.
    pub short_name: Option<String>,
    /// The splash screen's colour (the manifest's `background_color`).
    pub background_color: Option<String>,
}

impl Default for OfflineSettings {
    fn default() -> Self {
        OfflineSettings { enabled: true, budget: DEFAULT_BUDGET, short_name: None, background_color: None }
    }
}

impl OfflineSettings {
    /// Whether this is the default (left out of the manifest's settings then).
    pub fn is_default(&self) -> bool {
        *self == Self::default()
    }
}

/// How site.yaml may write the setting: `true`/`false`, or the table.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(untagged)]
enum Setting {
    Switch(bool),
    Table(Table),
}

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Table {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    budget: Option<Budget>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    short_name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    background_color: Option<String>,
}

/// A size as bytes or as text with a unit ("1.5 MB", "800 KB").
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(untagged)]
enum Budget {
    Bytes(u64),
    Text(String),
}

impl TryFrom<Setting> for OfflineSettings {
    type Error = String;

    fn try_from(setting: Setting) -> Result<Self, String> {
        let table = match setting {
            Setting::Switch(enabled) => return Ok(OfflineSettings { enabled, ..Default::default() }),
            Setting::Table(table) => table,
        };
        let budget = match table.budget {
            None => DEFAULT_BUDGET,
            Some(Budget::Bytes(bytes)) => bytes,
            Some(Budget::Text(text)) => parse_size(&text)?,
        };
        Ok(OfflineSettings {
            enabled: true,
            budget,
            short_name: table.short_name,
            background_color: table.background_color,
        })
    }
}

impl From<OfflineSettings> for Setting {
    fn from(settings: OfflineSettings) -> Self {
        if !settings.enabled {
            return Setting::Switch(false);
        }
        Setting::Table(Table {
            budget: Some(Budget::Bytes(settings.budget)),
            short_name: settings.short_name,
            background_color: settings.background_color,
        })
    }
}

/// Bytes of a size written as "1.5 MB", "800 KB", "900 B" or "1200" (decimal units, as phones
/// show storage).
pub fn parse_size(text: &str) -> Result<u64, String> {
    let text = text.trim();
    let split = text.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(text.len());
    let (number, unit) = (text[..split].trim(), text[split..].trim());
    let factor = match unit.to_ascii_uppercase().as_str() {
        "" | "B" => 1.0,
        "KB" => 1e3,
        "MB" => 1e6,
        "GB" => 1e9,
        _ => return Err(format!("offline budget `{text}`: the unit must be B, KB, MB or GB")),
    };
    let value: f64 = number.parse().map_err(|_| format!("offline budget `{text}` is not a size such as \"1.5 MB\""))?;
    Ok((value * factor).round() as u64)
}

/// A size as people read it, in the units of [`parse_size`] ("412 KB", "1.5 MB").
pub fn format_size(bytes: u64) -> String {
    match bytes {
        b if b >= 1_000_000 => format!("{:.1} MB", b as f64 / 1e6),
        b if b >= 1_000 => format!("{} KB", b.div_ceil(1_000)),
        b => format!("{b} B"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn setting(yaml: &str) -> Result<OfflineSettings, serde_json::Error> {
        serde_json::from_str(yaml)
    }

    #[test]
    fn the_budget_is_read_with_its_unit_and_defaults_to_one_and_a_half_megabytes() {
        assert_eq!(setting(r#"{"budget": "1.5 MB"}"#).map(|s| s.budget).ok(), Some(1_500_000));
        assert_eq!(setting(r#"{"budget": "800 kb"}"#).map(|s| s.budget).ok(), Some(800_000));
        assert_eq!(setting(r#"{"budget": 2000}"#).map(|s| s.budget).ok(), Some(2000));
        assert_eq!(setting("{}").map(|s| s.budget).ok(), Some(DEFAULT_BUDGET));
        assert!(setting(r#"{"budget": "lots"}"#).is_err());
        assert!(setting(r#"{"budget": "3 parsecs"}"#).is_err());
        assert!(setting(r#"{"bugdet": "1 MB"}"#).is_err());
    }

    #[test]
    fn false_turns_it_off_and_the_setting_round_trips() {
        let off = setting("false").ok();
        assert_eq!(off.as_ref().map(|s| s.enabled), Some(false));
        let on = OfflineSettings { budget: 900_000, short_name: Some("Kibera".into()), ..Default::default() };
        let text = serde_json::to_string(&on).unwrap_or_default();
        assert_eq!(setting(&text).ok(), Some(on));
        assert_eq!(serde_json::to_string(&off).unwrap_or_default(), "false");
    }

    #[test]
    fn sizes_read_as_people_write_them() {
        assert_eq!(format_size(412_300), "413 KB");
        assert_eq!(format_size(1_500_000), "1.5 MB");
        assert_eq!(format_size(900), "900 B");
        assert_eq!(parse_size(&format_size(1_500_000)), Ok(1_500_000));
    }
}
