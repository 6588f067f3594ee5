//! The page the sign-in popup ends on (docs/spec/api-spec.md#cms-sign-in): it tells the editor
//! what happened, and hands the outcome to the CMS window that opened it by the message protocol
//! of Decap CMS's authenticator (`decap-cms-lib-auth`, which Sveltia CMS follows): the popup posts
//! `authorizing:github`; the CMS answers with the same text; the popup then posts
//! `authorization:github:success:{"token":…,"provider":"github"}` (or `…:error:{"message":…}`).
//!
//! Both directions are held to the CMS's page: the popup talks only to an opener of its own origin
//! whose path is the CMS's (`/admin`, [`crate::content::cms::ADMIN_PAGE_PATHS`]), read from the
//! opener itself (a same-origin window's location is readable; another origin's, or a sandboxed
//! static document's, throws), checked again when the answer comes. So neither a page elsewhere
//! nor another page of the site that opened the sign-in receives a token. The one inline script
//! is allowed by its hash in the page's Content-Security-Policy, and nothing else may load.

use base64::Engine;
use serde_json::json;
use sha2::{Digest, Sha256};

use crate::content::text::escape;
use crate::http::cache_control::NO_STORE;
use crate::http::media::HTML;
use crate::http::Response;

/// What the popup's final message starts with (then `success:` or `error:` and a JSON object).
pub const MESSAGE_PREFIX: &str = "authorization:github:";

/// Why a sign-in did not end with a token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// The CMS asked for another provider than GitHub.
    UnsupportedProvider(String),
    /// The provider sent the editor back with `error=<code>` (declined, or the app is suspended).
    Declined(String),
    /// The callback's `state` is missing or not the one this browser was given.
    StateMismatch,
    /// The callback carries no code.
    NoCode,
    /// The token endpoint could not be reached (network failure, timeout).
    Unreachable,
    /// The token endpoint answered with a status other than 2xx.
    Status(u16),
    /// The token endpoint's answer is not JSON with an `access_token`.
    Unreadable,
    /// The token endpoint refused the code (`{"error": <code>}`).
    Refused(String),
}

impl Failure {
    /// The status of the page.
    fn status(&self) -> u16 {
        match self {
            Failure::UnsupportedProvider(_) | Failure::StateMismatch | Failure::NoCode => 400,
            Failure::Declined(_) => 403,
            Failure::Unreachable | Failure::Status(_) | Failure::Unreadable | Failure::Refused(_) => 502,
        }
    }

    /// A stable code for the CMS (Sveltia CMS shows a message of its own by it).
    fn code(&self) -> &'static str {
        match self {
            Failure::UnsupportedProvider(_) => "UNSUPPORTED_BACKEND",
            Failure::Declined(_) => "ACCESS_DENIED",
            Failure::StateMismatch => "CSRF_DETECTED",
            Failure::NoCode => "AUTH_CODE_REQUEST_FAILED",
            Failure::Unreachable | Failure::Status(_) => "TOKEN_REQUEST_FAILED",
            Failure::Unreadable | Failure::Refused(_) => "MALFORMED_RESPONSE",
        }
    }

    /// Whether the provider, not the editor, failed (worth telling the operator).
    pub fn is_provider_fault(&self) -> bool {
        self.status() == 502
    }

    /// What happened and what to do, for the editor.
    pub fn detail(&self) -> String {
        let again = "Close this window and sign in again from the CMS.";
        match self {
            Failure::UnsupportedProvider(p) => {
                format!("This site signs editors in with GitHub only, not with `{p}`. Set the CMS backend to github.")
            }
            Failure::Declined(code) => format!(
                "GitHub did not sign you in ({code}): the access was declined, or the site's OAuth app is not \
                 allowed. {again}"
            ),
            Failure::StateMismatch => format!(
                "This sign-in could not be checked: it did not start from this site's CMS in this browser, or it \
                 took longer than {} minutes. {again}",
                super::STATE_MAX_AGE / 60
            ),
            Failure::NoCode => format!("GitHub sent you back without a sign-in code. {again}"),
            Failure::Unreachable => format!("GitHub could not be reached to finish the sign-in. {again}"),
            Failure::Status(status) => {
                format!("GitHub answered with an error (status {status}) while finishing the sign-in. {again}")
            }
            Failure::Unreadable => format!("GitHub's answer could not be read while finishing the sign-in. {again}"),
            Failure::Refused(code) => format!(
                "GitHub refused to finish the sign-in ({code}). {again} If it happens again, tell the site's \
                 operator: the OAuth app's settings may be wrong."
            ),
        }
    }
}

/// The page of a signed-in editor, handing `token` to the CMS.
pub(crate) fn success(token: &str) -> Response {
    let message = format!("{MESSAGE_PREFIX}success:{}", json!({"token": token, "provider": "github"}));
    page(200, "Signed in", "You are signed in. This window closes by itself; if it does not, close it.", &message)
}

/// The page of a sign-in that failed, telling the editor (and the CMS) why.
pub(crate) fn failure(failure: &Failure) -> Response {
    let detail = failure.detail();
    let payload = json!({"message": detail, "error": detail, "errorCode": failure.code(), "provider": "github"});
    page(failure.status(), "Sign-in failed", &detail, &format!("{MESSAGE_PREFIX}error:{payload}"))
}

/// A provider's error code as the page may show it: letters, digits and `_.-`, at most 64.
pub(crate) fn safe_code(raw: &str) -> String {
    let kept: String = raw.chars().filter(|c| c.is_ascii_alphanumeric() || "_.-".contains(*c)).take(64).collect();
    if kept.is_empty() {
        "unknown".into()
    } else {
        kept
    }
}

/// A complete page with its headers: the text for the editor and the script posting `message`.
fn page(status: u16, title: &str, text: &str, message: &str) -> Response {
    let script = script(message);
    let hash = base64::engine::general_purpose::STANDARD.encode(Sha256::digest(script.as_bytes()));
    let html = format!(
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <meta name=\"color-scheme\" content=\"light dark\">\n<meta name=\"robots\" content=\"noindex\">\n\
         <title>{title}</title>\n</head>\n<body>\n<main>\n<h1>{title}</h1>\n<p>{text}</p>\n</main>\n\
         <script>{script}</script>\n</body>\n</html>\n",
        title = escape(title),
        text = escape(text),
    );
    Response::new(status)
        .with_body(HTML, html)
        .with_header("cache-control", NO_STORE)
        .with_header(
            "content-security-policy",
            format!(
                "default-src 'none'; script-src 'sha256-{hash}'; base-uri 'none'; form-action 'none'; \
                 frame-ancestors 'none'"
            ),
        )
        .with_header("referrer-policy", "no-referrer")
        .with_header("x-frame-options", "DENY")
}

/// The handshake with the opener, then `message` to it, both only with the CMS's page of the
/// site's own origin.
fn script(message: &str) -> String {
    let pages = serde_json::Value::from(crate::content::cms::ADMIN_PAGE_PATHS.to_vec()).to_string();
    format!(
        "(function () {{\n  var message = {message};\n  var origin = window.location.origin;\n  \
         var pages = {pages};\n  var opener = window.opener;\n  \
         function isCms(w) {{\n    \
         try {{ return w.location.origin === origin && pages.indexOf(w.location.pathname) !== -1; }}\n    \
         catch (e) {{ return false; }}\n  }}\n  \
         if (!opener || !isCms(opener)) {{ return; }}\n  window.addEventListener(\"message\", function (event) {{\n    \
         if (event.origin === origin && event.source === opener && event.data === \"authorizing:github\" \
         && isCms(opener)) {{\n      \
         opener.postMessage(message, origin);\n    }}\n  }});\n  opener.postMessage(\"authorizing:github\", origin);\n}})();",
        message = js_string(message),
    )
}

/// `value` as a JavaScript string literal that cannot end the script element it is in.
fn js_string(value: &str) -> String {
    let quoted = serde_json::Value::String(value.to_string()).to_string();
    quoted
        .replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026")
        .replace('\u{2028}', "\\u2028")
        .replace('\u{2029}', "\\u2029")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn body(response: &Response) -> String {
        String::from_utf8_lossy(&response.body).into_owned()
    }

    #[test]
    fn the_success_page_posts_the_token_message_under_a_hashed_script() {
        let page = success("gho_abc");
        let html = body(&page);
        assert!(html.contains(r#"authorization:github:success:{\"token\":\"gho_abc\",\"provider\":\"github\"}"#));
        let script = html.split("<script>").nth(1).and_then(|s| s.split("</script>").next()).unwrap_or_default();
        let hash = base64::engine::general_purpose::STANDARD.encode(Sha256::digest(script.as_bytes()));
        let csp = page.header("content-security-policy").unwrap_or_default();
        assert!(csp.contains(&format!("'sha256-{hash}'")) && csp.starts_with("default-src 'none'"), "{csp}");
        assert_eq!(page.header("cache-control"), Some(NO_STORE));
    }

    #[test]
    fn the_page_answers_only_an_opener_at_the_cms_page_of_its_origin() {
        let html = body(&success("gho_abc"));
        assert!(html.contains(r#"var pages = ["/admin","/admin.html"];"#), "{html}");
        assert!(html.contains("w.location.origin === origin && pages.indexOf(w.location.pathname) !== -1"));
        assert!(html.contains("if (!opener || !isCms(opener)) { return; }"), "{html}");
        assert!(html.contains("&& isCms(opener)) {\n      opener.postMessage(message, origin);"), "{html}");
    }

    #[test]
    fn hostile_codes_cannot_leave_the_script_or_the_text() {
        let page = failure(&Failure::Declined(safe_code("</script><b>\u{2028}")));
        let html = body(&page);
        assert_eq!(html.matches("</script>").count(), 1);
        assert!(!html.contains("<b>"));
        assert_eq!(page.status, 403);
        assert!(js_string("</script>&\u{2028}").contains("\\u003c/script\\u003e\\u0026\\u2028"));
        assert_eq!(safe_code("access_denied"), "access_denied");
        assert_eq!(safe_code("<>"), "unknown");
    }
}
