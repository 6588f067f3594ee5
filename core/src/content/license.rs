//! The site's content license (`site.yaml` `license`) as the documents that cite it need it: a URL
//! for JSON-LD `license`, an SPDX identifier and a URL for the OpenAPI `info.license`. The site may
//! give a URL itself; the Creative Commons licenses and CC0 written by name are recognised.

/// A license as `site.yaml` names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct License {
    /// The name as written (or the URL when only a URL was given).
    pub name: String,
    /// Where its text is, when known.
    pub url: Option<String>,
    /// Its SPDX identifier, when known.
    pub spdx: Option<String>,
}

/// Reads `license` from site.yaml; `None` when it is empty.
pub fn parse(license: &str) -> Option<License> {
    let name = license.trim();
    if name.is_empty() {
        return None;
    }
    if name.starts_with("https://") || name.starts_with("http://") {
        return Some(License { name: name.to_string(), url: Some(name.to_string()), spdx: None });
    }
    let (url, spdx) = creative_commons(name).unzip();
    Some(License { name: name.to_string(), url, spdx })
}

/// `CC BY-SA 4.0`, `CC-BY-4.0`, `cc by-nc-nd 3.0` or `CC0` as (URL, SPDX identifier).
fn creative_commons(name: &str) -> Option<(String, String)> {
    let normalized = name.to_ascii_lowercase().replace(['-', '_'], " ");
    let words: Vec<&str> = normalized.split_whitespace().collect();
    match words.as_slice() {
        ["cc0", ..] | ["cc", "0", ..] => {
            Some(("https://creativecommons.org/publicdomain/zero/1.0/".to_string(), "CC0-1.0".to_string()))
        }
        ["cc", terms @ .., version] if !terms.is_empty() && version.parse::<f32>().is_ok() => {
            let known = ["by", "sa", "nc", "nd"];
            if terms[0] != "by" || !terms.iter().all(|t| known.contains(t)) {
                return None;
            }
            let path = terms.join("-");
            let spdx = format!("CC-{}-{version}", terms.iter().map(|t| t.to_uppercase()).collect::<Vec<_>>().join("-"));
            Some((format!("https://creativecommons.org/licenses/{path}/{version}/"), spdx))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn creative_commons_names_get_their_url_and_identifier() {
        let license = parse("CC BY-SA 4.0").expect("a license");
        assert_eq!(license.url.as_deref(), Some("https://creativecommons.org/licenses/by-sa/4.0/"));
        assert_eq!(license.spdx.as_deref(), Some("CC-BY-SA-4.0"));
        assert_eq!(parse("cc-by-4.0").and_then(|l| l.spdx), Some("CC-BY-4.0".into()));
        assert_eq!(parse("CC0").and_then(|l| l.spdx), Some("CC0-1.0".into()));
    }

    #[test]
    fn a_url_is_kept_and_unknown_names_have_no_url() {
        assert_eq!(parse("https://example.org/terms").and_then(|l| l.url), Some("https://example.org/terms".into()));
        assert_eq!(parse("All rights reserved").and_then(|l| l.url), None);
        assert_eq!(parse("  "), None);
    }
}
