//! Which URLs may be published (SECURITY.md, "What content may run"): one rule for the links and
//! images of content (the HTML, the markdown twins, front-matter images) and for the links an
//! upstream feed hands on to clients. A URL is read as a browser reads it (by the `url` crate's
//! WHATWG parser), so spaces around a scheme and tabs or line breaks inside it change nothing.

/// The URL schemes links and images of content may use; relative URLs are allowed too. Never
/// `javascript:`, `vbscript:` or `data:`: each can run script or show a page that looks like the
/// site's.
pub const URL_SCHEMES: [&str; 4] = ["http", "https", "mailto", "tel"];

/// A base to resolve relative URLs against: a host no URL of content can name by accident.
const BASE: &str = "https://portal.invalid/a/";

/// Whether `url` is relative or has one of [`URL_SCHEMES`] (so ` JavaScript:` and
/// `java\tscript:` are `javascript:`, and refused).
pub fn allowed_url(url: &str) -> bool {
    match url::Url::parse(url) {
        Ok(parsed) => URL_SCHEMES.contains(&parsed.scheme()),
        Err(url::ParseError::RelativeUrlWithoutBase) => true,
        Err(_) => false,
    }
}

/// `url` when it is an absolute `http:` or `https:` address, as a link from an upstream must be
/// (docs/spec/api-spec.md#weather-alerts): a relative one names no place a client knows, and any
/// other scheme (`javascript:`, `data:`) is not the site's to hand on. Written as the parser
/// normalises it, so what clients get is what was checked.
pub fn web_address(url: &str) -> Option<String> {
    let parsed = url::Url::parse(url).ok()?;
    matches!(parsed.scheme(), "http" | "https").then(|| parsed.to_string())
}

/// Whether `url` has no scheme yet names a host (`//evil.example/x.png`, `\\evil.example`, `/\x`):
/// a browser reads it as an address on another site, with the page's scheme, never as a path
/// of this one.
pub fn is_protocol_relative(url: &str) -> bool {
    if !matches!(url::Url::parse(url), Err(url::ParseError::RelativeUrlWithoutBase)) {
        return false;
    }
    let base = url::Url::parse(BASE).ok();
    let joined = base.as_ref().and_then(|base| base.join(url).ok());
    joined.is_none_or(|joined| joined.host_str() != base.as_ref().and_then(url::Url::host_str))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_follow_one_policy_read_as_a_browser_reads_them() {
        for ok in
            ["https://example.org/a.jpg", "/media/a.jpg", "media/a.jpg", "//cdn.example/a", "mailto:a@b.c", "#top", ""]
        {
            assert!(allowed_url(ok), "{ok}");
        }
        for bad in [
            "javascript:alert(1)",
            " JavaScript:alert(1)",
            "java\tscript:x",
            "vbscript:x",
            "data:image/png;base64,AA",
            "file:///etc/passwd",
        ] {
            assert!(!allowed_url(bad), "{bad}");
        }
    }

    #[test]
    fn only_absolute_web_addresses_are_handed_on() {
        assert_eq!(web_address("https://alerts.example.org/1").as_deref(), Some("https://alerts.example.org/1"));
        assert_eq!(web_address(" HTTP://Alerts.example.org").as_deref(), Some("http://alerts.example.org/"));
        for bad in ["javascript:alert(1)", " JavaScript:alert(1)", "java\tscript:x", "data:text/html,<b>x</b>"] {
            assert_eq!(web_address(bad), None, "{bad}");
        }
        for bad in ["/alerts/1", "alerts/1", "//alerts.example.org/1", "mailto:a@b.c", "ftp://x.example/f", ""] {
            assert_eq!(web_address(bad), None, "{bad}");
        }
    }

    #[test]
    fn a_url_naming_another_host_without_a_scheme_is_protocol_relative() {
        for other in [
            "//evil.example/x.png",
            " //evil.example/x.png",
            "\\\\evil.example/x.png",
            "/\\evil.example/x",
            "/\t/evil.example",
        ] {
            assert!(is_protocol_relative(other), "{other:?}");
        }
        for own in ["/media/x.png", "media/x.png", "../static/x.png", "x.png?a=//b", "#top", "https://evil.example/x"] {
            assert!(!is_protocol_relative(own), "{own:?}");
        }
    }
}
