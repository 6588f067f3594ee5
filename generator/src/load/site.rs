//! Reading `site.yaml` into the core's [`SiteConfig`], with `file:line` errors.

use std::path::Path;

use portal_core::content::{ContentError, SiteConfig};

/// Parses the text of `site.yaml`; `file` is how errors name it.
pub fn parse(file: &str, text: &str) -> Result<SiteConfig, ContentError> {
    serde_yaml::from_str::<SiteConfig>(text).map_err(|e| {
        let line = e.location().map_or(1, |l| l.line());
        let message = e.to_string();
        let message = match message.find(" at line ") {
            Some(at) => message[..at].to_string(),
            None => message,
        };
        ContentError::new(file, line, format!("site settings: {message}"))
    })
}

/// Reads and parses `site.yaml` in `content`.
pub fn load(content: &Path) -> Result<SiteConfig, ContentError> {
    let path = content.join("site.yaml");
    let file = path.display().to_string();
    let text = std::fs::read_to_string(&path).map_err(|e| {
        ContentError::new(
            &file,
            1,
            format!("cannot read the site settings ({e}); every content folder needs a site.yaml"),
        )
    })?;
    parse(&file, &text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_keys_are_errors_with_their_line() {
        let err = parse("site.yaml", "title: T\ncontact:\n  email: a@example.org\n  phnoe: 1\n").expect_err("typo");
        assert_eq!(err.line, 4);
        assert!(err.message.contains("phnoe"), "{}", err.message);
    }

    #[test]
    fn defaults_fill_what_is_absent() {
        let site = parse("site.yaml", "title: T\n").expect("valid");
        assert_eq!(site.rss.items, 20);
        assert_eq!(site.upstreams.timeout_ms, 3000);
        assert_eq!(site.upstreams.cache_seconds, 300);
        assert_eq!(site.language, "en");
    }
}
