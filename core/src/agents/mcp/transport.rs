//! The Streamable HTTP transport's rules for a request, before any method runs: whose page may
//! call the endpoint (`Origin`), which revision a request speaks, and whether the headers that
//! mirror the body (`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`) tell the truth.

use base64::Engine;
use serde_json::{json, Value};

use super::jsonrpc::{RpcError, HEADER_MISMATCH, INVALID_PARAMS, UNSUPPORTED_PROTOCOL_VERSION};
use super::version::{self, Revision};
use crate::content::SiteConfig;
use crate::http::Request;

/// The `_meta` key of a modern request's revision.
pub const META_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
/// The `_meta` key of a modern request's client capabilities.
pub const META_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";

/// Whether the request's `Origin` may use the endpoint (DNS-rebinding protection, a MUST since
/// 2025-06-18). Allowed: no `Origin` (not a browser), the site's own (`base_url`), any listed in
/// site.yaml `mcp.allowed_origins`, and the address the request was sent to when that address is
/// an IP literal or `localhost` — names no attacker can re-point at this server. A host name the
/// request was sent to is not enough: under DNS rebinding it is the attacker's.
pub fn origin_allowed(request: &Request, site: &SiteConfig) -> bool {
    let Some(origin) = request.header("origin").map(|o| o.trim().trim_end_matches('/')) else {
        return true;
    };
    let own = origin_of(site.base());
    if !own.is_empty() && origin.eq_ignore_ascii_case(&own) {
        return true;
    }
    if site.mcp.allowed_origins.iter().any(|allowed| origin.eq_ignore_ascii_case(allowed.trim().trim_end_matches('/')))
    {
        return true;
    }
    let host = request.header("host").unwrap_or_default().trim();
    let served = ["http://", "https://"].iter().any(|scheme| origin.eq_ignore_ascii_case(&format!("{scheme}{host}")));
    served && cannot_be_rebound(host)
}

/// `scheme://host[:port]` of a URL.
fn origin_of(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else { return String::new() };
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    format!("{}://{}", scheme.to_ascii_lowercase(), authority.to_ascii_lowercase())
}

/// An IP literal or `localhost` (with or without a port).
fn cannot_be_rebound(host: &str) -> bool {
    if host.starts_with('[') {
        return host.contains(']');
    }
    let name = host.rsplit_once(':').map_or(host, |(name, _)| name);
    name.eq_ignore_ascii_case("localhost") || name.parse::<std::net::Ipv4Addr>().is_ok()
}

/// What a request costs of its client's rate-limit budget: one per message of a JSON-RPC batch
/// (so a batch cannot multiply the limit), one for anything else (a body that is not a JSON array
/// is answered, with its error if any, as one request).
pub fn cost(request: &Request) -> u32 {
    let body = request.body.trim_ascii_start();
    if !body.starts_with(b"[") {
        return 1;
    }
    serde_json::from_slice::<Vec<serde::de::IgnoredAny>>(body)
        .map_or(1, |messages| u32::try_from(messages.len()).unwrap_or(u32::MAX).max(1))
}

/// The revision a request speaks, checked against its headers.
///
/// A request names its revision in the `MCP-Protocol-Version` header and, if modern, in
/// `params._meta` too; the two must agree. A modern request (2026-07-28) must carry both, with its
/// client capabilities in `_meta`, `Mcp-Method` equal to the method and `Mcp-Name` to the tool,
/// prompt or resource named. A legacy request without a header is 2025-03-26, as the transport
/// allows; `initialize` negotiates its own. Mirrored headers a legacy client chooses to send are
/// checked too, so no revision lets a proxy route on a header the body contradicts.
pub fn revision(request: &Request, method: &str, params: &Value) -> Result<Revision, RpcError> {
    let header = request.header("mcp-protocol-version").map(str::trim);
    let meta = params.get("_meta");
    let declared = meta.and_then(|meta| meta.get(META_VERSION)).and_then(Value::as_str);
    if let (Some(declared), Some(header)) = (declared, header) {
        if declared != header {
            return Err(mismatch(&format!(
                "MCP-Protocol-Version header value '{header}' does not match body value '{declared}'"
            )));
        }
    }
    let revision = match declared.or(header) {
        Some(name) => supported(name)?,
        None => version::WITHOUT_HEADER,
    };
    if revision.is_stateless() {
        if header.is_none() {
            return Err(mismatch("the MCP-Protocol-Version header is missing"));
        }
        for key in [META_VERSION, META_CAPABILITIES] {
            if meta.and_then(|meta| meta.get(key)).is_none() {
                return Err(RpcError::new(
                    INVALID_PARAMS,
                    format!("A {} request carries `params._meta[\"{key}\"]`.", revision.as_str()),
                ));
            }
        }
    }
    check_mirrored(request, method, params, revision.is_stateless())?;
    Ok(revision)
}

fn supported(name: &str) -> Result<Revision, RpcError> {
    Revision::parse(name).ok_or_else(|| unsupported(name))
}

/// The error that tells a client which revisions to fall back to.
pub fn unsupported(requested: &str) -> RpcError {
    RpcError::new(
        UNSUPPORTED_PROTOCOL_VERSION,
        format!("Unsupported protocol version `{requested}`; supported: {}.", version::supported_names().join(", ")),
    )
    .with_data(json!({"supported": version::supported_names(), "requested": requested}))
}

fn mismatch(what: &str) -> RpcError {
    RpcError::new(HEADER_MISMATCH, format!("Header mismatch: {what}."))
}

/// The methods whose `Mcp-Name` header mirrors `params.name` or `params.uri`.
fn named_by(method: &str) -> Option<&'static str> {
    match method {
        "tools/call" | "prompts/get" => Some("name"),
        "resources/read" => Some("uri"),
        _ => None,
    }
}

/// `Mcp-Method` against the body's method: `required` on a modern request, checked whenever sent.
pub fn check_method(request: &Request, method: &str, required: bool) -> Result<(), RpcError> {
    match request.header("mcp-method").map(str::trim) {
        None if required => Err(mismatch("the Mcp-Method header is missing")),
        Some(header) if header != method => {
            Err(mismatch(&format!("Mcp-Method header value '{header}' does not match body value '{method}'")))
        }
        _ => Ok(()),
    }
}

/// `Mcp-Method` and `Mcp-Name` against the body: required on a modern request, checked when sent.
fn check_mirrored(request: &Request, method: &str, params: &Value, required: bool) -> Result<(), RpcError> {
    check_method(request, method, required)?;
    if method == "tools/call" {
        check_param_headers(request, params, required)?;
    }
    let Some(member) = named_by(method) else { return Ok(()) };
    let body = params.get(member).and_then(Value::as_str);
    match (request.header("mcp-name"), body) {
        (None, Some(_)) if required => Err(mismatch("the Mcp-Name header is missing")),
        (Some(header), body) => {
            let header = decode(header.trim()).ok_or_else(|| mismatch("the Mcp-Name header is not valid"))?;
            if Some(header.as_str()) == body {
                Ok(())
            } else {
                Err(mismatch(&format!(
                    "Mcp-Name header value '{header}' does not match body value '{}'",
                    body.unwrap_or_default()
                )))
            }
        }
        _ => Ok(()),
    }
}

/// `Mcp-Param-{Name}` headers against the arguments of a `tools/call`: every argument whose
/// schema property names an `x-mcp-header` must be mirrored (when the request is modern, or when
/// the client sends the header anyway) with the same value, so a gateway may route on it.
fn check_param_headers(request: &Request, params: &Value, required: bool) -> Result<(), RpcError> {
    let name = params.get("name").and_then(Value::as_str).unwrap_or_default();
    let Some(tool) = super::tools::definitions().into_iter().find(|t| t["name"] == name) else { return Ok(()) };
    let Some(properties) = tool["inputSchema"]["properties"].as_object().cloned() else { return Ok(()) };
    for (property, schema) in &properties {
        let Some(header) = schema.get("x-mcp-header").and_then(Value::as_str) else { continue };
        let value = params.get("arguments").and_then(|a| a.get(property)).filter(|v| !v.is_null());
        let sent = request.header(&format!("mcp-param-{}", header.to_ascii_lowercase()));
        let expected = value.map(|v| match v {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        });
        match (sent, expected) {
            (None, None) => {}
            (None, Some(_)) if !required => {}
            (None, Some(_)) => return Err(mismatch(&format!("the Mcp-Param-{header} header is missing"))),
            (Some(sent), expected) => {
                let invalid = || mismatch(&format!("the Mcp-Param-{header} header is not valid"));
                if !sent.chars().all(|c| c == '\t' || (' '..='~').contains(&c)) {
                    return Err(invalid());
                }
                let sent = decode(sent.trim()).ok_or_else(invalid)?;
                let same = match (value, expected.as_deref()) {
                    (Some(Value::Number(n)), _) => sent.parse::<f64>().ok() == n.as_f64(),
                    (_, expected) => Some(sent.as_str()) == expected,
                };
                if !same {
                    return Err(mismatch(&format!(
                        "Mcp-Param-{header} header value '{sent}' does not match body value '{}'",
                        expected.unwrap_or_default()
                    )));
                }
            }
        }
    }
    Ok(())
}

/// A mirrored header's value: as sent, or decoded from the `=?base64?…?=` form clients use for
/// values that are not plain ASCII.
fn decode(value: &str) -> Option<String> {
    let Some(encoded) = value.strip_prefix("=?base64?").and_then(|v| v.strip_suffix("?=")) else {
        return Some(value.to_string());
    };
    let bytes = base64::engine::general_purpose::STANDARD.decode(encoded).ok()?;
    String::from_utf8(bytes).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::http::Method;

    fn request(headers: &[(&str, &str)]) -> Request {
        let mut request = Request::new(Method::Post, "/mcp");
        for (name, value) in headers {
            request.headers.push((name.to_string(), value.to_string()));
        }
        request
    }

    fn site(allowed: &[&str]) -> SiteConfig {
        let mut site = SiteConfig { base_url: "https://portal.example.org/".into(), ..SiteConfig::default() };
        site.mcp.allowed_origins = allowed.iter().map(|o| o.to_string()).collect();
        site
    }

    #[test]
    fn only_the_sites_own_listed_and_unreboundable_origins_pass() {
        let site = site(&["https://app.example.net"]);
        let allowed = |headers: &[(&str, &str)]| origin_allowed(&request(headers), &site);
        assert!(allowed(&[]));
        assert!(allowed(&[("origin", "https://portal.example.org")]));
        assert!(allowed(&[("origin", "https://app.example.net/")]));
        assert!(allowed(&[("origin", "http://127.0.0.1:8787"), ("host", "127.0.0.1:8787")]));
        assert!(allowed(&[("origin", "http://localhost:8787"), ("host", "localhost:8787")]));
        assert!(!allowed(&[("origin", "http://evil.example.com")]));
        assert!(!allowed(&[("origin", "http://evil.example.com:8787"), ("host", "evil.example.com:8787")]));
        assert!(!allowed(&[("origin", "null")]));
        assert!(!allowed(&[("origin", "http://localhost:9999"), ("host", "localhost:8787")]));
    }

    #[test]
    fn a_batch_costs_one_per_message_and_anything_else_one() {
        let post = |body: &str| request(&[]).with_body(body.to_string());
        assert_eq!(cost(&post(r#" [{"id":1},{"id":2},3]"#)), 3);
        assert_eq!(cost(&post(r#"{"id":1}"#)), 1);
        assert_eq!(cost(&post("[]")), 1);
        assert_eq!(cost(&post("[{")), 1);
    }

    #[test]
    fn a_modern_request_must_mirror_its_body_in_its_headers() {
        let params = json!({"name": "search_portal", "_meta": {META_VERSION: "2026-07-28", META_CAPABILITIES: {}}});
        let good =
            [("mcp-protocol-version", "2026-07-28"), ("mcp-method", "tools/call"), ("mcp-name", "search_portal")];
        assert_eq!(revision(&request(&good), "tools/call", &params), Ok(Revision::V2026_07_28));
        let encoded = [
            ("mcp-protocol-version", "2026-07-28"),
            ("mcp-method", "tools/call"),
            ("mcp-name", "=?base64?c2VhcmNoX3BvcnRhbA==?="),
        ];
        assert!(revision(&request(&encoded), "tools/call", &params).is_ok());
        for bad in [
            &good[1..],
            &[good[0], good[1]][..],
            &[good[0], ("mcp-method", "tools/list"), good[2]][..],
            &[good[0], good[1], ("mcp-name", "other")][..],
            &[("mcp-protocol-version", "2025-06-18"), good[1], good[2]][..],
        ] {
            assert_eq!(revision(&request(bad), "tools/call", &params).map_err(|e| e.code), Err(HEADER_MISMATCH));
        }
    }

    #[test]
    fn legacy_requests_take_their_header_and_unknown_versions_list_the_supported() {
        assert_eq!(revision(&request(&[]), "ping", &Value::Null), Ok(Revision::V2025_03_26));
        let header = [("mcp-protocol-version", "2025-06-18")];
        assert_eq!(revision(&request(&header), "tools/list", &Value::Null), Ok(Revision::V2025_06_18));
        let error = revision(&request(&[("mcp-protocol-version", "1999-01-01")]), "ping", &Value::Null)
            .expect_err("unsupported");
        assert_eq!(error.code, UNSUPPORTED_PROTOCOL_VERSION);
        assert_eq!(error.data.as_ref().map(|d| d["supported"][0].clone()), Some(json!("2026-07-28")));
        let without_capabilities = json!({"_meta": {META_VERSION: "2026-07-28"}});
        let header = [("mcp-protocol-version", "2026-07-28"), ("mcp-method", "tools/list")];
        let error = revision(&request(&header), "tools/list", &without_capabilities);
        assert_eq!(error.map_err(|e| e.code), Err(INVALID_PARAMS));
        assert_eq!(revision(&request(&header), "tools/list", &Value::Null).map_err(|e| e.code), Err(INVALID_PARAMS));
        let modern = json!({"_meta": {META_VERSION: "2099-01-01"}});
        let error = revision(&request(&[("mcp-protocol-version", "2099-01-01")]), "tools/list", &modern);
        assert_eq!(error.map_err(|e| e.code), Err(UNSUPPORTED_PROTOCOL_VERSION));
    }
}
