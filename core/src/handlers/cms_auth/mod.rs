//! The CMS sign-in (docs/spec/api-spec.md#cms-sign-in): the GitHub OAuth web flow that a git-based
//! CMS (Decap CMS, Sveltia CMS) runs in a popup, answered by the site's own servers instead of a
//! separate OAuth proxy. `GET /api/cms/auth` sends the editor to the provider with a random
//! `state`, kept in a short-lived HttpOnly `__Host-` cookie (no server storage); `GET
//! /api/cms/callback` checks its form and that it is the cookie's, exchanges the code for a token
//! (following no redirect: the secret goes to the token URL and nowhere else), and answers the
//! page that hands the token to the CMS page that opened it (`popup`).
//!
//! The client id and secret come only from the deployment's settings ([`Platform::setting`]: a
//! Worker secret, an environment variable of `portal serve`). Portal never logs or stores a token
//! or the secret; nothing of the flow is cached.

mod popup;

use serde_json::Value;

use crate::handlers::Ctx;
use crate::http::cache_control::NO_STORE;
use crate::http::problem::Problem;
use crate::http::{Request, Response};
use crate::platform::{internal, Platform, UpstreamRequest};

pub use popup::{Failure, MESSAGE_PREFIX};

/// The OAuth app's client id (required).
pub const CLIENT_ID: &str = "CMS_GITHUB_CLIENT_ID";
/// The OAuth app's client secret (required; a Worker secret, never a committed var).
pub const CLIENT_SECRET: &str = "CMS_GITHUB_CLIENT_SECRET";
/// The scopes asked for (optional; [`DEFAULT_SCOPE`]).
pub const SCOPE: &str = "CMS_GITHUB_SCOPE";
/// The provider's authorize URL (optional; [`GITHUB_AUTHORIZE_URL`]): GitHub Enterprise, tests.
pub const AUTHORIZE_URL: &str = "CMS_GITHUB_AUTHORIZE_URL";
/// The provider's token URL (optional; [`GITHUB_TOKEN_URL`]).
pub const TOKEN_URL: &str = "CMS_GITHUB_TOKEN_URL";

/// What the CMS needs to commit to a repository and know who the editor is.
pub const DEFAULT_SCOPE: &str = "repo,user";
/// github.com's authorize endpoint.
pub const GITHUB_AUTHORIZE_URL: &str = "https://github.com/login/oauth/authorize";
/// github.com's token endpoint.
pub const GITHUB_TOKEN_URL: &str = "https://github.com/login/oauth/access_token";

/// The cookie that carries `state` from the redirect to the callback. A browser keeps a
/// `__Host-` cookie only when it is `Secure`, has `Path=/` and no `Domain`, so no other host of the
/// site's domain and no plain-HTTP answer can set one the callback would believe.
pub const STATE_COOKIE: &str = "__Host-portal_cms_state";
/// How long an editor has to sign in at the provider (seconds).
pub const STATE_MAX_AGE: u32 = 600;
/// The bytes of a state, drawn from the platform's random source.
const STATE_BYTES: usize = 16;
/// How long the token exchange may take (the provider, not a weather feed: a generous bound).
const TOKEN_TIMEOUT_MS: u64 = 10_000;
/// The largest token answer read.
const TOKEN_MAX_BYTES: usize = 64 * 1024;

/// The OAuth app of the deployment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GithubApp {
    /// The client id.
    pub client_id: String,
    /// The client secret.
    pub client_secret: String,
    /// The scopes, comma-separated.
    pub scope: String,
    /// Where the editor signs in.
    pub authorize_url: String,
    /// Where a code is exchanged for a token.
    pub token_url: String,
}

impl GithubApp {
    /// The app of the deployment's settings; `None` unless both the id and the secret are set.
    pub fn from_settings(setting: impl Fn(&str) -> Option<String>) -> Option<Self> {
        let set = |name: &str| setting(name).map(|v| v.trim().to_string()).filter(|v| !v.is_empty());
        Some(GithubApp {
            client_id: set(CLIENT_ID)?,
            client_secret: set(CLIENT_SECRET)?,
            scope: set(SCOPE).unwrap_or_else(|| DEFAULT_SCOPE.into()),
            authorize_url: set(AUTHORIZE_URL).unwrap_or_else(|| GITHUB_AUTHORIZE_URL.into()),
            token_url: set(TOKEN_URL).unwrap_or_else(|| GITHUB_TOKEN_URL.into()),
        })
    }

    /// The provider's authorize URL for `state`. No `redirect_uri`: the provider sends the editor
    /// to the callback URL registered with the app, so portal never has to know its own address.
    pub fn authorize(&self, state: &str) -> String {
        let query = form_urlencoded::Serializer::new(String::new())
            .append_pair("client_id", &self.client_id)
            .append_pair("scope", &self.scope)
            .append_pair("state", state)
            .finish();
        let joiner = if self.authorize_url.contains('?') { '&' } else { '?' };
        format!("{}{joiner}{query}", self.authorize_url)
    }
}

/// The deployment's app, or the 404 of a site without the CMS sign-in.
fn configured<P: Platform>(platform: &P) -> Result<GithubApp, Problem> {
    GithubApp::from_settings(|name| platform.setting(name)).ok_or_else(|| {
        Problem::not_found(format!(
            "This site has no CMS sign-in: its operator has not set {CLIENT_ID} and {CLIENT_SECRET} \
             (see docs/deploying.md#cms-sign-in)."
        ))
    })
}

/// Answers `GET /api/cms/auth`: a redirect to the provider with a fresh `state`, set in a cookie.
pub async fn auth<P: Platform>(ctx: &Ctx<'_, P>) -> Result<Response, Problem> {
    let app = configured(ctx.platform)?;
    if let Some(provider) = ctx.query.get("provider").filter(|p| *p != "github") {
        return Ok(popup::failure(&Failure::UnsupportedProvider(popup::safe_code(provider))));
    }
    let bytes: [u8; STATE_BYTES] =
        ctx.platform.random().map_err(internal(ctx.platform, "drawing the CMS sign-in state"))?;
    let state: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    let cookie = state_cookie(&state, STATE_MAX_AGE);
    let redirect = Response::redirect(302, &app.authorize(&state)).with_header("set-cookie", cookie);
    Ok(redirect.with_header("cache-control", NO_STORE).with_header("referrer-policy", "no-referrer"))
}

/// Answers `GET /api/cms/callback`: the page that hands the token (or what went wrong) to the
/// CMS. The state cookie is cleared whatever happened: a state is good for one try.
pub async fn callback<P: Platform>(ctx: &Ctx<'_, P>) -> Result<Response, Problem> {
    let app = configured(ctx.platform)?;
    let page = match exchange(ctx, &app).await {
        Ok(token) => popup::success(&token),
        Err(failure) => {
            if failure.is_provider_fault() {
                ctx.platform.report("exchanging a CMS sign-in code", &failure.detail());
            }
            popup::failure(&failure)
        }
    };
    Ok(page.with_header("set-cookie", state_cookie("", 0)))
}

/// Checks the callback's `state` against the cookie, then trades its code for a token.
async fn exchange<P: Platform>(ctx: &Ctx<'_, P>, app: &GithubApp) -> Result<String, Failure> {
    if let Some(error) = ctx.query.get("error") {
        return Err(Failure::Declined(popup::safe_code(error)));
    }
    let expected = cookie(ctx.request, STATE_COOKIE).unwrap_or_default();
    let state = ctx.query.get("state").unwrap_or_default();
    if !is_state(&expected) || !is_state(state) || !same(expected.as_bytes(), state.as_bytes()) {
        return Err(Failure::StateMismatch);
    }
    let code = ctx.query.get("code").filter(|c| !c.is_empty()).ok_or(Failure::NoCode)?;
    let body = form_urlencoded::Serializer::new(String::new())
        .append_pair("client_id", &app.client_id)
        .append_pair("client_secret", &app.client_secret)
        .append_pair("code", code)
        .finish();
    let request = UpstreamRequest {
        url: app.token_url.clone(),
        body: Some(body.into()),
        headers: vec![
            ("accept".into(), "application/json".into()),
            ("content-type".into(), "application/x-www-form-urlencoded".into()),
            ("user-agent".into(), format!("portal/{}", env!("CARGO_PKG_VERSION"))),
        ],
        timeout_ms: TOKEN_TIMEOUT_MS,
        max_bytes: TOKEN_MAX_BYTES,
    };
    let response = ctx.platform.fetch(request).await.map_err(|_| Failure::Unreachable)?;
    if !(200..300).contains(&response.status) {
        return Err(Failure::Status(response.status));
    }
    let answer: Value = serde_json::from_slice(&response.body).map_err(|_| Failure::Unreadable)?;
    if let Some(error) = answer.get("error").and_then(Value::as_str) {
        return Err(Failure::Refused(popup::safe_code(error)));
    }
    let token = answer.get("access_token").and_then(Value::as_str).filter(|t| !t.is_empty());
    token.map(str::to_string).ok_or(Failure::Unreadable)
}

/// Whether `value` has the form of a state [`auth`] draws: `2 × STATE_BYTES` lower-case hex
/// digits. Anything else is refused before it is compared.
fn is_state(value: &str) -> bool {
    value.len() == 2 * STATE_BYTES && value.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// The `Set-Cookie` value carrying `state` for `max_age` seconds (0 clears it). `Secure` always, as
/// the `__Host-` prefix requires: browsers keep such a cookie of `http://localhost` too, and a site
/// on plain HTTP elsewhere cannot sign editors in (docs/deploying.md#cms-sign-in).
fn state_cookie(state: &str, max_age: u32) -> String {
    format!("{STATE_COOKIE}={state}; Path=/; Max-Age={max_age}; HttpOnly; Secure; SameSite=Lax")
}

/// The value of the cookie `name` the request carries, if any (every `Cookie` header is read:
/// HTTP/2 clients may split them).
fn cookie(request: &Request, name: &str) -> Option<String> {
    let headers = request.headers.iter().filter(|(n, _)| n.eq_ignore_ascii_case("cookie"));
    let pairs = headers.flat_map(|(_, value)| value.split(';'));
    pairs.filter_map(|pair| pair.trim().split_once('=')).find(|(n, _)| *n == name).map(|(_, v)| v.trim().to_string())
}

/// Compares two values in time that depends only on their lengths.
fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings<'a>(pairs: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |name| pairs.iter().find(|(n, _)| *n == name).map(|(_, v)| v.to_string())
    }

    #[test]
    fn the_app_needs_both_the_id_and_the_secret() {
        assert!(GithubApp::from_settings(settings(&[(CLIENT_ID, "id")])).is_none());
        assert!(GithubApp::from_settings(settings(&[(CLIENT_ID, "id"), (CLIENT_SECRET, " ")])).is_none());
        let app = GithubApp::from_settings(settings(&[(CLIENT_ID, "id"), (CLIENT_SECRET, "s")])).expect("app");
        assert_eq!((app.scope.as_str(), app.token_url.as_str()), (DEFAULT_SCOPE, GITHUB_TOKEN_URL));
    }

    #[test]
    fn the_authorize_url_carries_the_client_scope_and_state() {
        let pairs = [(CLIENT_ID, "id&x"), (CLIENT_SECRET, "s"), (AUTHORIZE_URL, "https://ghe.example/auth?a=1")];
        let app = GithubApp::from_settings(settings(&pairs)).expect("app");
        assert_eq!(app.authorize("abc"), "https://ghe.example/auth?a=1&client_id=id%26x&scope=repo%2Cuser&state=abc");
    }

    #[test]
    fn the_state_cookie_is_read_from_any_cookie_header() {
        let request = Request::new(crate::http::Method::Get, "/api/cms/callback")
            .with_header("cookie", "a=1")
            .with_header("cookie", "b=2; portal_cms_state=old; __Host-portal_cms_state=xyz ");
        assert_eq!(cookie(&request, STATE_COOKIE).as_deref(), Some("xyz"));
        assert!(same(b"abc", b"abc") && !same(b"abc", b"abd") && !same(b"abc", b"ab"));
        assert_eq!(
            state_cookie("s", 600),
            "__Host-portal_cms_state=s; Path=/; Max-Age=600; HttpOnly; Secure; SameSite=Lax"
        );
    }

    #[test]
    fn only_a_state_of_the_form_drawn_is_a_state() {
        assert!(is_state("0123456789abcdef0123456789abcdef"));
        for bad in ["", "0123456789ABCDEF0123456789ABCDEF", "0123456789abcdef0123456789abcde", "g".repeat(32).as_str()]
        {
            assert!(!is_state(bad), "{bad}");
        }
        assert!(!is_state("0123456789abcdef0123456789abcdef0"), "one digit too many");
    }
}
