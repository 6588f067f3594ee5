//! `portal init DIR`: a new site that builds and serves at once. It writes `DIR/content/` (a
//! `site.yaml` showing every setting, a news record with an image, an encyclopedia entry, an
//! about page and `static/`) from the starter compiled into the binary, and refuses a folder that
//! is not empty, so it never overwrites anyone's work.

use std::path::Path;

use anyhow::{bail, Context, Result};

/// The `base_url` the starter's site.yaml shows, which `check` and `build` flag until it is
/// changed (a site published with it would name someone else's address).
pub const EXAMPLE_BASE_URL: &str = "https://portal.example.org";

/// The starter site: (path under `DIR/`, bytes).
pub const STARTER: &[(&str, &[u8])] = &[
    ("content/site.yaml", include_bytes!("../starter/content/site.yaml")),
    ("content/news/welcome.md", include_bytes!("../starter/content/news/welcome.md")),
    ("content/encyclopedia/community-portal.md", include_bytes!("../starter/content/encyclopedia/community-portal.md")),
    ("content/pages/about.md", include_bytes!("../starter/content/pages/about.md")),
    ("content/static/media/welcome.jpg", include_bytes!("../starter/content/static/media/welcome.jpg")),
];

/// Writes the starter site into `dir` (created if missing); returns how many files it wrote.
pub fn create(dir: &Path) -> Result<usize> {
    if dir.exists() {
        let mut entries = std::fs::read_dir(dir).with_context(|| format!("reading {}", dir.display()))?;
        if entries.next().is_some() {
            bail!("{} is not empty: `portal init` starts a site in a new or empty folder", dir.display());
        }
    }
    for (path, bytes) in STARTER {
        let target = dir.join(path);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent).with_context(|| format!("creating {}", parent.display()))?;
        }
        std::fs::write(&target, bytes).with_context(|| format!("writing {}", target.display()))?;
    }
    Ok(STARTER.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use portal_core::content::SiteConfig;
    use serde_json::Value;

    /// Every key of `site.yaml` (dotted), from the settings type itself.
    fn keys(prefix: &str, value: &Value, out: &mut Vec<String>) {
        if let Value::Object(map) = value {
            for (key, child) in map {
                out.push(format!("{prefix}{key}"));
                keys(&format!("{prefix}{key}."), child, out);
            }
        }
    }

    #[test]
    fn the_starter_settings_show_every_key_of_site_yaml() {
        let mut site = SiteConfig::default();
        site.menu.push(portal_core::content::MenuItem::default());
        // Keys written only when set are shown too.
        let some = || Some(String::new());
        (site.image, site.favicon, site.theme_color, site.timezone) = (some(), some(), some(), some());
        site.labels.insert(String::new(), String::new());
        site.hidden_fields = Some(Vec::new());
        site.booking = Some(portal_core::content::Booking { link_from: Some(Vec::new()), ..Default::default() });
        site.cms = Some(portal_core::content::Cms { api_root: some(), app_id: some(), ..Default::default() });
        let mut all = Vec::new();
        keys("", &serde_json::to_value(&site).expect("settings serialise"), &mut all);
        let text = String::from_utf8_lossy(STARTER[0].1);
        for key in all {
            let last = key.rsplit('.').next().unwrap_or(&key);
            assert!(text.contains(&format!("{last}:")), "the starter site.yaml does not show `{key}`");
        }
    }

    #[test]
    fn the_starter_shows_the_example_address_and_no_booking_form() {
        let text = String::from_utf8_lossy(STARTER[0].1);
        assert!(text.contains(&format!("\nbase_url: {EXAMPLE_BASE_URL}\n")), "{text}");
        assert!(!text.contains("\nbooking:"), "a new site takes no bookings until `booking:` is set");
    }

    #[test]
    fn a_folder_with_something_in_it_is_refused() {
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::write(dir.path().join("notes.txt"), "mine").expect("write");
        let error = create(dir.path()).expect_err("not empty");
        assert!(error.to_string().contains("is not empty"), "{error}");
        assert_eq!(create(&dir.path().join("new")).expect("new folder"), STARTER.len());
    }
}
