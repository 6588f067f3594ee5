//! What the pages a server renders per request share: the site's shell around their content, the
//! headers every page carries, and an HTML answer (not a problem document) when something fails.

use crate::http::problem::{ErrorCode, Problem};
use crate::http::Response;
use crate::pages::shell::{Filling, HTML, SHELL_FILE};
use crate::platform::Platform;
use crate::state::State;

/// A page at `url`: `main` (HTML) under `title` in the site's shell, with `status`. A content page
/// the site's authors wrote at `url` introduces it: its title and summary head the page and its
/// body comes before `main`'s own content (see `routes::page_at`).
pub async fn render<P: Platform>(
    app: &State,
    platform: &P,
    url: &str,
    status: u16,
    title: &str,
    main: &str,
) -> Response {
    let shell = match platform.read_file(SHELL_FILE).await {
        Ok(Some(bytes)) => String::from_utf8_lossy(&bytes).into_owned(),
        Ok(None) => String::new(),
        Err(e) => {
            platform.report(SHELL_FILE, &e);
            String::new()
        }
    };
    let manifest = app.manifest();
    let page = match manifest.intros.get(url) {
        Some(intro) => Filling {
            title: &intro.title,
            description: intro.summary.as_deref().unwrap_or(&manifest.site.description),
            main: &intro.introduce(main),
        }
        .fill(&shell),
        None => Filling { title, description: &manifest.site.description, main }.fill(&shell),
    };
    let mut response = Response::new(status).with_body(HTML, page);
    for (name, value) in app.manifest().header_sets.get("html").into_iter().flatten() {
        response.set_header(name, value.clone());
    }
    response
}

/// A problem on a page people read: the same status and headers (`Retry-After`, `Allow`...), told
/// in the site's language.
pub async fn problem<P: Platform>(app: &State, platform: &P, problem: Problem) -> Response {
    let strings = &app.manifest().strings;
    let text = match problem.code {
        ErrorCode::RateLimited => {
            let seconds = problem.extensions.iter().find(|(n, _)| n == "retryAfter").map(|(_, v)| v.to_string());
            strings.fill("page_errors.rate_limited", &[("seconds", seconds.as_deref().unwrap_or("60"))])
        }
        ErrorCode::PayloadTooLarge => strings.get("page_errors.too_large").to_string(),
        ErrorCode::UnsupportedMediaType => strings.get("page_errors.unsupported").to_string(),
        ErrorCode::MethodNotAllowed => strings.get("page_errors.method").to_string(),
        ErrorCode::IdempotencyKeyInUse => strings.get("page_errors.in_progress").to_string(),
        ErrorCode::IdempotencyKeyReused => strings.get("page_errors.key_reused").to_string(),
        ErrorCode::BadRequest | ErrorCode::InvalidBody => {
            strings.fill("page_errors.bad_request", &[("detail", &problem.detail)])
        }
        _ => strings.get("page_errors.internal").to_string(),
    };
    let title = strings.get("page_errors.title");
    let main = format!(
        "<h1>{}</h1>\n<p>{}</p>\n<p><a href=\"/\">{}</a></p>\n",
        crate::content::text::escape(title),
        crate::content::text::escape(&text),
        crate::content::text::escape(strings.get("forms.back"))
    );
    // An error page is nobody's introduction: it is rendered at no URL of its own.
    let mut response = render(app, platform, "", problem.code.status(), title, &main).await;
    for (name, value) in problem.headers {
        response.set_header(&name, value);
    }
    response
}
