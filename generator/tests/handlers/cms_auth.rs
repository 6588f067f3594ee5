//! The CMS sign-in (docs/spec/api-spec.md#cms-sign-in) over a scripted provider: the settings come
//! from the fake platform (as a Worker secret or `portal serve`'s environment would give them), the
//! token endpoint is a scripted upstream, and the random state is the fake's known draw.

use portal_core::handlers::cms_auth::{AUTHORIZE_URL, CLIENT_ID, CLIENT_SECRET, STATE_COOKIE, TOKEN_URL};

use crate::{problem, text, Site};

const AUTHORIZE: &str = "http://127.0.0.1:18931/oauth/authorize";
const TOKEN: &str = "http://127.0.0.1:18931/oauth/token";
const SECRET: &str = "s3cret-never-shown";
/// The fake platform's first random draw, as the state's hex.
const FIRST_STATE: &str = "01010101010101010101010101010101";

fn configured() -> Site {
    let site = Site::new();
    for (name, value) in
        [(CLIENT_ID, "client-1"), (CLIENT_SECRET, SECRET), (AUTHORIZE_URL, AUTHORIZE), (TOKEN_URL, TOKEN)]
    {
        site.platform.settings.borrow_mut().insert(name.into(), value.into());
    }
    site
}

fn callback(site: &Site, query: &str, state_cookie: Option<&str>) -> portal_core::http::Response {
    let cookie = state_cookie.map(|state| format!("other=1; {STATE_COOKIE}={state}"));
    let headers: Vec<(&str, &str)> = cookie.iter().map(|c| ("cookie", c.as_str())).collect();
    site.get_with(&format!("/api/cms/callback?{query}"), &headers)
}

#[test]
fn without_settings_both_routes_are_a_clear_404() {
    let site = Site::new();
    for path in ["/api/cms/auth?provider=github", "/api/cms/callback?code=x&state=y"] {
        let doc = problem(&site.get(path), 404, "not_found");
        assert!(doc["detail"].as_str().unwrap_or_default().contains(CLIENT_ID), "{doc}");
    }
}

#[test]
fn the_sign_in_starts_with_a_redirect_carrying_client_id_scope_and_a_state_cookie() {
    let site = configured();
    let response = site.get("/api/cms/auth?provider=github&site_id=fixture.example.org&scope=repo");
    assert_eq!(response.status, 302);
    let location = response.header("location").unwrap_or_default();
    assert_eq!(location, format!("{AUTHORIZE}?client_id=client-1&scope=repo%2Cuser&state={FIRST_STATE}"));
    let cookie = response.header("set-cookie").unwrap_or_default();
    assert!(cookie.starts_with(&format!("{STATE_COOKIE}={FIRST_STATE};")), "{cookie}");
    assert!(STATE_COOKIE.starts_with("__Host-"), "no other host of the domain can set it");
    let attributes: Vec<&str> = cookie.split(';').skip(1).map(str::trim).collect();
    for attribute in ["HttpOnly", "SameSite=Lax", "Max-Age=600", "Path=/", "Secure"] {
        assert!(attributes.contains(&attribute), "{cookie} lacks {attribute}");
    }
    assert!(!cookie.to_ascii_lowercase().contains("domain"), "{cookie}");
    assert_eq!(response.header("cache-control"), Some("no-store"));
    let again = site.get("/api/cms/auth");
    assert!(!again.header("location").unwrap_or_default().contains(FIRST_STATE), "a fresh state each time");
}

#[test]
fn a_good_callback_exchanges_the_code_and_posts_the_token_to_the_opener() {
    let site = configured();
    site.platform.with_upstream_now(TOKEN, 200, r#"{"access_token":"gho_T0KEN","token_type":"bearer","scope":"repo"}"#);
    let response = callback(&site, &format!("code=c0de&state={FIRST_STATE}"), Some(FIRST_STATE));
    assert_eq!(response.status, 200, "{}", text(&response));
    let page = text(&response);
    assert!(page.contains(r#"authorization:github:success:{\"token\":\"gho_T0KEN\",\"provider\":\"github\"}"#));
    assert!(page.contains("\"authorizing:github\""), "the handshake comes first");
    assert_eq!(response.header("cache-control"), Some("no-store"));
    let csp = response.header("content-security-policy").unwrap_or_default();
    assert!(csp.contains("script-src 'sha256-") && !csp.contains("unsafe-inline"), "{csp}");
    assert!(response.header("set-cookie").unwrap_or_default().contains("Max-Age=0"), "the state is used up");
    let fetched = site.platform.fetched.borrow();
    let sent = String::from_utf8_lossy(fetched[0].body.as_deref().unwrap_or_default()).into_owned();
    assert_eq!(sent, format!("client_id=client-1&client_secret={SECRET}&code=c0de"));
    assert!(!page.contains(SECRET));
    assert!(site.platform.reports.borrow().is_empty());
}

#[test]
fn a_state_that_does_not_match_its_cookie_is_refused_before_any_exchange() {
    let site = configured();
    site.platform.with_upstream_now(TOKEN, 200, r#"{"access_token":"gho_T0KEN"}"#);
    let (upper, longer) = ("0A".repeat(16), format!("{FIRST_STATE}0"));
    for (query, cookie) in [
        (format!("code=c&state={FIRST_STATE}"), None),
        (format!("code=c&state={FIRST_STATE}"), Some("02020202020202020202020202020202")),
        ("code=c".to_string(), Some(FIRST_STATE)),
        ("code=c&state=".to_string(), Some("")),
        // The same value in both, but not of the form the server draws.
        ("code=c&state=xyz".to_string(), Some("xyz")),
        (format!("code=c&state={upper}"), Some(upper.as_str())),
        (format!("code=c&state={longer}"), Some(longer.as_str())),
    ] {
        let response = callback(&site, &query, cookie);
        assert_eq!(response.status, 400, "{query} {cookie:?}");
        let page = text(&response);
        assert!(page.contains("could not be checked") && page.contains("authorization:github:error:"), "{page}");
        assert!(!page.contains("gho_T0KEN"));
    }
    assert!(site.platform.fetched.borrow().is_empty(), "no code was exchanged");
}

#[test]
fn provider_failures_are_told_to_the_editor_on_a_page() {
    let cases: [(&str, u16, &str, u16, &str); 5] = [
        ("error=access_denied&error_description=no&state=", 0, "", 403, "access_denied"),
        ("code=c&state=", 500, "oops", 502, "status 500"),
        ("code=c&state=", 200, "<html>not json", 502, "could not be read"),
        ("code=c&state=", 200, r#"{"error":"bad_verification_code"}"#, 502, "bad_verification_code"),
        ("code=c&state=", 200, r#"{"token_type":"bearer"}"#, 502, "could not be read"),
    ];
    for (query, upstream_status, upstream_body, status, says) in cases {
        let site = configured();
        if upstream_status > 0 {
            site.platform.with_upstream_now(TOKEN, upstream_status, upstream_body);
        }
        let response = callback(&site, &format!("{query}{FIRST_STATE}"), Some(FIRST_STATE));
        let page = text(&response);
        assert_eq!(response.status, status, "{query}: {page}");
        assert_eq!(response.header("content-type"), Some("text/html; charset=utf-8"));
        assert!(page.contains(says) && page.contains("Sign-in failed"), "{query}: {page}");
        assert!(!page.contains(SECRET), "{query}");
        assert_eq!(response.header("cache-control"), Some("no-store"));
    }
    let unreachable = configured();
    let response = callback(&unreachable, &format!("code=c&state={FIRST_STATE}"), Some(FIRST_STATE));
    assert_eq!(response.status, 502);
    assert!(text(&response).contains("could not be reached"));
    let reports = unreachable.platform.reports.borrow();
    assert_eq!(reports.len(), 1, "the operator hears of the provider's failure");
    assert!(!reports[0].contains(SECRET));
}

#[test]
fn the_token_page_answers_only_an_opener_at_the_cms_page() {
    let site = configured();
    site.platform.with_upstream_now(TOKEN, 200, r#"{"access_token":"gho_T0KEN"}"#);
    let page = text(&callback(&site, &format!("code=c0de&state={FIRST_STATE}"), Some(FIRST_STATE)));
    assert!(page.contains(r#"var pages = ["/admin","/admin.html"];"#), "{page}");
    assert!(page.contains("if (!opener || !isCms(opener)) { return; }"), "{page}");
}

#[test]
fn a_redirect_from_the_token_endpoint_is_a_failure_and_no_token() {
    let site = configured();
    site.platform.with_upstream_now(TOKEN, 307, "");
    let response = callback(&site, &format!("code=c0de&state={FIRST_STATE}"), Some(FIRST_STATE));
    assert_eq!(response.status, 502);
    let page = text(&response);
    assert!(page.contains("status 307") && !page.contains("authorization:github:success"), "{page}");
    assert_eq!(site.platform.fetched.borrow().len(), 1, "one request, to the token URL");
}

#[test]
fn another_provider_than_github_is_told_on_a_page() {
    let response = configured().get("/api/cms/auth?provider=gitlab");
    assert_eq!(response.status, 400);
    assert!(text(&response).contains("GitHub only"));
}
