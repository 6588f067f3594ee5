//! The headers every response shares: CORS (spec 5, D10), `API-Version` (spec 9, D3), the
//! RateLimit family (spec 8) and the discovery `Link` relations of HTML pages (spec 4.7).
//!
//! The generator writes the same values into `_headers` for a CDN, so they are defined here once.

use crate::http::Response;
use crate::ratelimit::Decision;
use crate::{API_VERSION, SUPPORTED_API_VERSIONS};

/// How long browsers may cache a preflight answer, in seconds.
pub const CORS_MAX_AGE: &str = "86400";

/// The CORS headers of every API response.
pub const CORS: [(&str, &str); 4] = [
    ("access-control-allow-origin", "*"),
    ("access-control-allow-methods", "GET, POST, OPTIONS"),
    ("access-control-allow-headers", "Content-Type, API-Version"),
    (
        "access-control-expose-headers",
        "API-Version, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, RateLimit-Policy, \
         X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After, Deprecation, Sunset, Link, ETag",
    ),
];

/// The `Link` header of every HTML page: the five discovery relations of spec 4.7.
pub const HTML_LINKS: &str = "</llms.txt>; rel=\"describedby\"; type=\"text/plain\", \
</.well-known/api-catalog>; rel=\"api-catalog\"; type=\"application/linkset+json\", \
</api/openapi.json>; rel=\"service-desc\"; type=\"application/openapi+json\", \
</api-docs>; rel=\"service-doc\"; type=\"text/html\", \
</api/status>; rel=\"status\"; type=\"application/json\"";

/// Adds the CORS headers and `API-Version` (the headers no response goes without).
pub fn apply_common(response: &mut Response) {
    for (name, value) in CORS {
        response.set_header(name, value);
    }
    response.set_header("api-version", API_VERSION);
}

/// Checks the `API-Version` request header; `Err` carries the `detail` of the 400.
pub fn check_api_version(requested: Option<&str>) -> Result<(), String> {
    match requested.map(str::trim) {
        None => Ok(()),
        Some(value) if SUPPORTED_API_VERSIONS.contains(&value) => Ok(()),
        Some(value) => Err(format!(
            "API-Version `{value}` is not supported. Supported versions: {} (all select {API_VERSION}).",
            SUPPORTED_API_VERSIONS.join(", ")
        )),
    }
}

/// Adds the RateLimit headers (and their legacy `X-` twins) for a decision.
pub fn apply_rate_limit(response: &mut Response, decision: &Decision) {
    response.set_header("ratelimit-limit", decision.limit.to_string());
    response.set_header("ratelimit-remaining", decision.remaining.to_string());
    response.set_header("ratelimit-reset", decision.reset_secs.to_string());
    response.set_header("ratelimit-policy", decision.policy());
    response.set_header("x-ratelimit-limit", decision.limit.to_string());
    response.set_header("x-ratelimit-remaining", decision.remaining.to_string());
    response.set_header("x-ratelimit-reset", decision.reset_at.to_string());
    if !decision.allowed {
        response.set_header("retry-after", decision.reset_secs.to_string());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_of_d3_are_accepted() {
        for v in ["1.0.0", "1.0", "1", " 1 "] {
            assert!(check_api_version(Some(v)).is_ok());
        }
        assert!(check_api_version(None).is_ok());
        let err = check_api_version(Some("2.0.0")).expect_err("2.0.0 is unsupported");
        assert!(err.contains("1.0.0, 1.0, 1"));
    }
}
