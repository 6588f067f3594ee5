//! The deprecation table (docs/spec/api-spec.md#deprecation): which endpoints are deprecated, since
//! when, and when they go.
//!
//! One table serves the `Deprecation`/`Sunset`/`Link` headers of the deprecated endpoints and the
//! `/api/deprecation-policy` document, so the two can never disagree.

use crate::content::time::DateTime;

/// The minimum notice before an endpoint is removed (ISO 8601 duration).
pub const MINIMUM_NOTICE: &str = "P6M";

/// One deprecated endpoint.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Deprecation {
    /// The path.
    pub path: &'static str,
    /// When it was deprecated (Unix seconds), for `Deprecation: @<seconds>` (RFC 9745).
    pub deprecated_at: i64,
    /// When it is removed (Unix seconds), for `Sunset` (RFC 8594).
    pub sunset_at: i64,
    /// The endpoint that replaces it, if any (`Link rel="successor-version"`).
    pub successor: Option<&'static str>,
    /// Why, for the policy document.
    pub reason: &'static str,
}

/// Every deprecated endpoint.
pub const DEPRECATIONS: &[Deprecation] = &[Deprecation {
    path: "/api/analytics/pageviews",
    // 2026-08-01T00:00:00Z: announced seven months before removal (more than the P6M minimum).
    deprecated_at: 1_785_542_400,
    // 2027-03-01T00:00:00Z
    sunset_at: 1_803_859_200,
    successor: None,
    reason: "The counter never reported real data; it always answers zero.",
}];

impl Deprecation {
    /// The response headers a deprecated endpoint carries.
    pub fn headers(&self) -> Vec<(String, String)> {
        let mut link = "</api/deprecation-policy>; rel=\"deprecation\"; type=\"application/json\"".to_string();
        if let Some(successor) = self.successor {
            link.push_str(&format!(", <{successor}>; rel=\"successor-version\""));
        }
        vec![
            ("deprecation".to_string(), format!("@{}", self.deprecated_at)),
            ("sunset".to_string(), DateTime::from_unix(self.sunset_at).http_date()),
            ("link".to_string(), link),
        ]
    }
}

/// The deprecation of `path`, if it is deprecated.
pub fn find(path: &str) -> Option<&'static Deprecation> {
    DEPRECATIONS.iter().find(|d| d.path == path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pageviews_sunsets_on_1_march_2027() {
        let d = find("/api/analytics/pageviews").expect("deprecated");
        let headers = d.headers();
        assert_eq!(headers[1].1, "Mon, 01 Mar 2027 00:00:00 GMT");
        assert!(headers[0].1.starts_with('@'));
        assert!(headers[2].1.contains("rel=\"deprecation\""));
        assert!(d.sunset_at - d.deprecated_at >= 182 * 86_400, "at least six months of notice");
    }
}
