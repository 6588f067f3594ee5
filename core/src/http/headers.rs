//! The headers every response shares (docs/spec/api-spec.md): CORS (#cors), `API-Version` (#versioning), the
//! RateLimit family (#rate-limit) and the discovery `Link` relations of HTML pages (#discovery-links).
//!
//! The generator writes the same values into `_headers` for a CDN, so they are defined here once.

use crate::http::ratelimit::Decision;
use crate::http::Response;
use crate::{API_VERSION, SUPPORTED_API_VERSIONS};

/// How long browsers may cache a preflight answer, in seconds.
pub const CORS_MAX_AGE: &str = "86400";

/// The request headers a browser may send: the API's own (`Content-Type`, `API-Version`, `Idempotency-Key`,
/// `Accept`) and every header of the MCP transport, so a browser-based MCP client of any revision
/// can reach `/mcp`: `MCP-Protocol-Version`, `Mcp-Session-Id` and `Last-Event-ID` (Streamable HTTP),
/// `Mcp-Method`, `Mcp-Name` and the `Mcp-Param-*` header of each tool argument that declares one
/// (2026-07-28; a test keeps them in step with the tools).
pub const ALLOW_HEADERS: &str = "Content-Type, API-Version, Accept, Idempotency-Key, MCP-Protocol-Version, \
    Mcp-Session-Id, Last-Event-ID, Mcp-Method, Mcp-Name, Mcp-Param-Collection";

/// The CORS headers of every API response.
pub const CORS: [(&str, &str); 4] = [
    ("access-control-allow-origin", "*"),
    ("access-control-allow-methods", "GET, POST, OPTIONS"),
    ("access-control-allow-headers", ALLOW_HEADERS),
    (
        "access-control-expose-headers",
        "API-Version, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, RateLimit-Policy, \
         X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After, Deprecation, Sunset, Link, ETag, \
         Idempotent-Replayed, MCP-Protocol-Version, Mcp-Session-Id",
    ),
];

/// The `Link` header of every HTML page: the five discovery relations (docs/spec/api-spec.md#discovery-links).
pub const HTML_LINKS: &str = "</llms.txt>; rel=\"describedby\"; type=\"text/plain\", \
</.well-known/api-catalog>; rel=\"api-catalog\"; type=\"application/linkset+json\", \
</api/openapi.json>; rel=\"service-desc\"; type=\"application/openapi+json\", \
</api-docs>; rel=\"service-doc\"; type=\"text/html\", \
</api/status>; rel=\"status\"; type=\"application/json\"";

/// Headers every response carries, whatever its type: the CORS headers, `API-Version` and
/// `X-Content-Type-Options: nosniff` (a browser never guesses a type other than the one sent).
pub fn common() -> Vec<(&'static str, &'static str)> {
    let mut headers = CORS.to_vec();
    headers.push(("api-version", API_VERSION));
    headers.push(("x-content-type-options", "nosniff"));
    headers
}

/// Adds the [`common`] headers (the headers no response goes without).
pub fn apply_common(response: &mut Response) {
    for (name, value) in common() {
        response.set_header(name, value);
    }
}

/// What a page may load and who may frame it (SECURITY.md): scripts and styles only from the site's
/// own files (no inline script or style), images and media also from `https:` (records may link
/// pictures elsewhere) and `data:` (the empty favicon), frames only from `iframe_hosts`, forms post
/// to the site only, and no one frames the site's pages.
pub fn content_security_policy(iframe_hosts: &[String]) -> String {
    policy("'self'", iframe_hosts)
}

/// The pages' policy with `scripts` as its `script-src`.
fn policy(scripts: &str, iframe_hosts: &[String]) -> String {
    let frames = if iframe_hosts.is_empty() {
        "'none'".to_string()
    } else {
        iframe_hosts.iter().map(|h| format!("https://{}", h.trim())).collect::<Vec<_>>().join(" ")
    };
    format!(
        "default-src 'self'; script-src {scripts}; style-src 'self'; img-src 'self' data: https:; media-src 'self' https:; \
         font-src 'self'; connect-src 'self'; frame-src {frames}; object-src 'none'; base-uri 'self'; \
         form-action 'self'; frame-ancestors 'none'"
    )
}

/// The security headers of every page: the [`content_security_policy`], and the referrer,
/// permissions and framing policies. Sent by every server and written into `_headers` and the
/// nginx snippet from the build's header set of pages.
pub fn page_security(iframe_hosts: &[String]) -> Vec<(String, String)> {
    vec![
        ("content-security-policy".into(), content_security_policy(iframe_hosts)),
        ("referrer-policy".into(), "strict-origin-when-cross-origin".into()),
        ("permissions-policy".into(), "camera=(), microphone=(), geolocation=(), payment=(), usb=()".into()),
        ("x-frame-options".into(), "DENY".into()),
    ]
}

/// The manifest's header set of the files the site serves from its static folder (and their
/// resized images) that a browser shows without running anything of theirs: the page security
/// headers, so a file opened on its own is held to the policy of the pages (SECURITY.md, "What
/// content may run").
pub const STATIC_FILES: &str = "static";

/// The manifest's header set of the static files that are documents able to run script (HTML,
/// SVG, XML and any type not known to be inert, see [`static_set`]): the pages' headers with no
/// script at all and [`SANDBOX`]. Opened on its own, such a file runs nothing, and has no origin
/// of its own to act for: it can read no storage of the site (the CMS's token) and is no
/// same-origin opener of the CMS's sign-in (docs/editing.md#security).
pub const STATIC_SANDBOXED: &str = "static-sandboxed";

/// The `sandbox` directive of [`STATIC_SANDBOXED`] files: no script, forms, plugins or same
/// origin; links may still open in a new tab (which leaves the sandbox, as a typed address would).
pub const SANDBOX: &str = "sandbox allow-popups allow-popups-to-escape-sandbox";

/// The header set of a static file of media type `content_type`: [`STATIC_FILES`] for the types a
/// browser shows or plays without running the file (images but SVG, audio, video, fonts, PDF,
/// plain text and data, archives), [`STATIC_SANDBOXED`] for every other. A script (`.js`) is
/// inert opened on its own; it runs only when a page of the site loads it, and only the theme's
/// pages load scripts (markdown cannot, static documents run none).
pub fn static_set(content_type: &str) -> &'static str {
    if is_inert(content_type) {
        STATIC_FILES
    } else {
        STATIC_SANDBOXED
    }
}

/// Whether a browser opening a file of `content_type` runs nothing of the file's own.
fn is_inert(content_type: &str) -> bool {
    let base = content_type.split(';').next().unwrap_or("").trim().to_ascii_lowercase();
    let (kind, sub) = base.split_once('/').unwrap_or((base.as_str(), ""));
    match kind {
        "audio" | "video" | "font" => true,
        "image" => sub != "svg+xml",
        "text" => matches!(sub, "plain" | "css" | "csv" | "markdown" | "vtt" | "calendar" | "javascript"),
        "application" => matches!(
            sub,
            "pdf" | "zip" | "epub+zip" | "octet-stream" | "json" | "geo+json" | "manifest+json" | "yaml" | "wasm"
        ),
        _ => false,
    }
}

/// The headers of a header set of static files ([`STATIC_FILES`], or [`STATIC_SANDBOXED`] when
/// `sandboxed`).
pub fn static_security(iframe_hosts: &[String], sandboxed: bool) -> Vec<(String, String)> {
    let mut headers = page_security(iframe_hosts);
    if sandboxed {
        for (name, value) in &mut headers {
            if name == "content-security-policy" {
                *value = format!("{}; {SANDBOX}", policy("'none'", iframe_hosts));
            }
        }
    }
    headers
}

/// The manifest's header set of the CMS's page and configuration (docs/editing.md#security).
pub const CMS_ADMIN: &str = "cms-admin";

/// What the CMS's page may load (docs/editing.md#security): its script from the folder of its
/// pinned release on the CDN (no other package of the CDN; Sveltia CMS may also fetch its
/// package's newest `package.json`, to say an update is out), styles inline (both CMSs set styles
/// from script), images and previews from `blob:` and `data:` and the git host, requests to the site, the CDN and the git host's API (and the local
/// proxy of Decap CMS, `decap-server`, when `local_backend` is on). Decap CMS checks its configuration with
/// code it compiles at run time, so its page also needs `'unsafe-eval'`; Sveltia CMS does not.
/// Sveltia's fonts come from jsDelivr (Fontsource). No one frames the page, and it posts nowhere.
pub fn cms_content_security_policy(cms: &crate::content::Cms) -> String {
    use crate::content::{CmsApp, CmsBackend};
    let pinned = crate::content::cms::release(cms.app);
    let release = pinned.folder();
    let reads: Vec<String> = pinned.reads().collect();
    let mut connect = vec!["'self'", "blob:", "data:", release.as_str()];
    connect.extend(reads.iter().map(String::as_str));
    let mut images = vec!["'self'", "blob:", "data:"];
    let api_root = cms.api_root.as_deref().map(origin_of);
    match (cms.backend, api_root) {
        (_, Some(root)) => {
            connect.push(root);
            images.push(root);
        }
        (CmsBackend::Github, None) => {
            connect.extend(["https://api.github.com", "https://www.githubstatus.com"]);
            images.push("https://*.githubusercontent.com");
        }
        (CmsBackend::Gitlab, None) => {
            connect.extend(["https://gitlab.com", "https://status-api.hostedstatus.com"]);
            images.extend(["https://gitlab.com", "https://secure.gravatar.com"]);
        }
        (CmsBackend::Gitea, None) => {
            connect.push("https://gitea.com");
            images.push("https://gitea.com");
        }
    }
    if cms.local_backend && cms.app == CmsApp::Decap {
        connect.extend(["http://localhost:8081", "http://127.0.0.1:8081"]);
    }
    let (scripts, styles, fonts) = match cms.app {
        CmsApp::Sveltia => (format!("'self' {release}"), "'self' 'unsafe-inline'", "'self' https://cdn.jsdelivr.net"),
        CmsApp::Decap => (format!("'self' {release} 'unsafe-eval'"), "'self' 'unsafe-inline'", "'self' data:"),
    };
    format!(
        "default-src 'self'; script-src {scripts}; style-src {styles}; font-src {fonts}; img-src {}; \
         media-src 'self' blob: data:; connect-src {}; frame-src 'self' blob:; worker-src 'self' blob:; \
         object-src 'none'; base-uri 'self'; form-action 'none'; frame-ancestors 'none'",
        images.join(" "),
        connect.join(" "),
    )
}

/// `https://git.example.org` of `https://git.example.org/api/v1` (what a policy names).
fn origin_of(url: &str) -> &str {
    let after_scheme = url.find("://").map_or(0, |i| i + 3);
    url[after_scheme..].find('/').map_or(url, |end| &url[..after_scheme + end])
}

/// The headers of the CMS's page: [`cms_content_security_policy`] in place of the pages' policy,
/// the pages' other security headers, and no indexing.
pub fn cms_security(cms: &crate::content::Cms) -> Vec<(String, String)> {
    let mut headers = page_security(&[]);
    for (name, value) in &mut headers {
        if name == "content-security-policy" {
            *value = cms_content_security_policy(cms);
        }
    }
    headers.push(("x-robots-tag".into(), "noindex".into()));
    headers
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
    fn a_browser_may_send_the_mirrored_header_of_every_tool_argument() {
        let allowed: Vec<String> = ALLOW_HEADERS.split(", ").map(str::to_ascii_lowercase).collect();
        let mut mirrored = 0;
        for tool in crate::agents::mcp::tools::definitions() {
            let properties = tool["inputSchema"]["properties"].as_object().cloned().unwrap_or_default();
            for header in properties.values().filter_map(|schema| schema["x-mcp-header"].as_str()) {
                assert!(allowed.contains(&format!("mcp-param-{}", header.to_ascii_lowercase())), "{header}");
                mirrored += 1;
            }
        }
        assert!(mirrored > 0, "the tools declare mirrored arguments");
    }

    #[test]
    fn pages_allow_no_inline_script_and_frames_only_from_listed_hosts() {
        let csp = content_security_policy(&[]);
        assert!(csp.contains("script-src 'self';") && !csp.contains("unsafe-inline"));
        assert!(csp.contains("frame-src 'none'") && csp.contains("frame-ancestors 'none'"));
        let csp = content_security_policy(&["www.youtube-nocookie.com".to_string()]);
        assert!(csp.contains("frame-src https://www.youtube-nocookie.com;"));
    }

    #[test]
    fn static_documents_that_can_run_script_are_sandboxed_and_inert_files_keep_the_page_policy() {
        for (extension, content_type) in crate::http::media::BY_EXTENSION {
            let sandboxed = ["htm", "html", "svg", "xml", "gpx", "kml"].contains(extension);
            assert_eq!(static_set(content_type) == STATIC_SANDBOXED, sandboxed, "{extension}");
        }
        assert_eq!(static_set("application/xhtml+xml"), STATIC_SANDBOXED, "an unknown type is not trusted");
        assert_eq!(static_set("IMAGE/SVG+XML; charset=utf-8"), STATIC_SANDBOXED);
        assert_eq!(static_set(crate::http::media::UNKNOWN), STATIC_FILES, "downloaded, never sniffed");
        let csp = |sandboxed| {
            static_security(&[], sandboxed).into_iter().find(|(n, _)| n == "content-security-policy").map(|h| h.1)
        };
        assert_eq!(csp(false), Some(content_security_policy(&[])));
        let sandboxed = csp(true).unwrap_or_default();
        assert!(
            sandboxed.contains("script-src 'none';") && sandboxed.ends_with(&format!("; {SANDBOX}")),
            "{sandboxed}"
        );
        assert!(!sandboxed.contains("allow-scripts") && !sandboxed.contains("allow-same-origin"), "{sandboxed}");
    }

    #[test]
    fn the_cms_page_allows_its_pinned_cdn_and_git_host_and_only_decap_evaluates_code() {
        use crate::content::{Cms, CmsApp, CmsBackend};
        let sveltia = cms_content_security_policy(&Cms::default());
        assert!(sveltia.contains("script-src 'self' https://unpkg.com/@sveltia/cms@0.221.1/;"), "{sveltia}");
        assert!(!sveltia.contains("https://unpkg.com ") && !sveltia.contains("https://unpkg.com;"), "{sveltia}");
        assert!(sveltia.contains("https://api.github.com") && !sveltia.contains("8081"), "{sveltia}");
        assert!(sveltia.contains("font-src 'self' https://cdn.jsdelivr.net;"), "{sveltia}");
        let local = cms_content_security_policy(&Cms { app: CmsApp::Decap, ..Cms::default() });
        assert!(local.contains(" http://localhost:8081 http://127.0.0.1:8081;"), "{local}");
        assert!(sveltia.contains("frame-ancestors 'none'") && !sveltia.contains("unsafe-eval"), "{sveltia}");
        let decap = Cms { app: CmsApp::Decap, local_backend: false, ..Cms::default() };
        let decap = cms_content_security_policy(&decap);
        assert!(decap.contains("script-src 'self' https://unpkg.com/decap-cms@3.16.3/ 'unsafe-eval';"), "{decap}");
        assert!(!decap.contains("8081") && !decap.contains("@sveltia") && !decap.contains("package.json"), "{decap}");
        let gitea = Cms {
            backend: CmsBackend::Gitea,
            api_root: Some("https://git.example.org/api/v1".into()),
            ..Cms::default()
        };
        let gitea = cms_content_security_policy(&gitea);
        let release_and_reads = "https://unpkg.com/@sveltia/cms@0.221.1/ https://unpkg.com/@sveltia/cms/package.json";
        assert!(gitea.contains(&format!("{release_and_reads} https://git.example.org;")), "{gitea}");
        assert!(!gitea.contains("github"), "{gitea}");
        let headers = cms_security(&Cms::default());
        assert!(headers.iter().any(|(n, v)| n == "content-security-policy" && *v == sveltia));
        assert!(headers.iter().any(|(n, v)| n == "x-frame-options" && v == "DENY"));
    }

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
