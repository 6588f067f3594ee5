//! The forms of the site without scripts (docs/spec/api-spec.md#forms): `GET|POST /community-voices/new` and
//! `GET|POST /visit`, and their confirmation pages. A form posts
//! `application/x-www-form-urlencoded` to its own URL; valid, it is stored and mailed exactly like
//! its JSON action ([`voices::accept`], [`bookings::accept`]) and answered `303 See Other` to the
//! confirmation, which shows the id or booking reference; invalid, it comes back (400) with a
//! message beside each field and what the visitor typed. A filled honeypot stores nothing.

use serde_json::{Map, Value};

use crate::content::text::escape;
use crate::content::time::DateTime;
use crate::forms::markup::{FormView, HONEYPOT};
use crate::forms::{Form, BOOKING, VOICE};
use crate::handlers::voices::Refused;
use crate::handlers::{bookings, page, voices, Ctx};
use crate::http::problem::{ErrorCode, FieldError, Problem};
use crate::http::{Method, Response};
use crate::platform::Platform;
use crate::routing::{BOOKING_FORM, VOICE_FORM};

/// Where a form is, and where its confirmation is.
struct Place {
    form: &'static Form,
    /// The form's URL.
    url: &'static str,
    /// The query parameter of the confirmation that names what was stored.
    parameter: &'static str,
}

const VOICE_PAGE: Place = Place { form: &VOICE, url: VOICE_FORM, parameter: "id" };
const BOOKING_PAGE: Place = Place { form: &BOOKING, url: BOOKING_FORM, parameter: "reference" };

/// The confirmation page's URL of a form.
fn sent_url(place: &Place) -> String {
    format!("{}/sent", place.url)
}

/// `GET|POST /community-voices/new`.
pub async fn voice<P: Platform>(ctx: &Ctx<'_, P>) -> Result<Response, Problem> {
    form(ctx, &VOICE_PAGE).await
}

/// `GET|POST /visit`.
pub async fn booking<P: Platform>(ctx: &Ctx<'_, P>) -> Result<Response, Problem> {
    form(ctx, &BOOKING_PAGE).await
}

/// `GET /community-voices/new/sent?id=`.
pub async fn voice_sent<P: Platform>(ctx: &Ctx<'_, P>) -> Result<Response, Problem> {
    sent(ctx, &VOICE_PAGE, |id| id.strip_prefix("v-").is_some_and(|rest| is_id(rest, |c| c.is_ascii_lowercase()))).await
}

/// `GET /visit/sent?reference=`.
pub async fn booking_sent<P: Platform>(ctx: &Ctx<'_, P>) -> Result<Response, Problem> {
    sent(ctx, &BOOKING_PAGE, |id| id.strip_prefix("BK-").is_some_and(|rest| is_id(rest, |c| c.is_ascii_uppercase())))
        .await
}

/// Whether `text` is base-32 characters of the ids [`crate::handlers::submit`] makes.
fn is_id(text: &str, letter: fn(&char) -> bool) -> bool {
    (8..=25).contains(&text.len()) && text.chars().all(|c| c.is_ascii_digit() || letter(&c))
}

async fn form<P: Platform>(ctx: &Ctx<'_, P>, place: &Place) -> Result<Response, Problem> {
    if ctx.request.method != Method::Post {
        return Ok(show(ctx, place, 200, &Map::new(), &[]).await);
    }
    let values = urlencoded(ctx)?;
    if values.get(HONEYPOT).and_then(Value::as_str).is_some_and(|v| !v.trim().is_empty()) {
        let caught = [FieldError::new(HONEYPOT, "must be left empty").because("honeypot", Vec::new())];
        return Ok(show(ctx, place, 400, &values, &caught).await);
    }
    let outcome = if place.form.id == VOICE.id {
        voices::accept(ctx, &values).await.map(|a| a.id)
    } else {
        bookings::accept(ctx, &values).await.map(|a| a.reference)
    };
    match outcome {
        Ok(id) => {
            let query = form_urlencoded::Serializer::new(String::new()).append_pair(place.parameter, &id).finish();
            Ok(Response::redirect(303, &format!("{}?{query}", sent_url(place))))
        }
        Err(Refused::Fields(errors)) => Ok(show(ctx, place, 400, &values, &errors).await),
        Err(Refused::Problem(problem)) => Err(problem),
    }
}

/// The fields of a urlencoded body (the first value of each name); any other body is 415.
fn urlencoded<P>(ctx: &Ctx<'_, P>) -> Result<Map<String, Value>, Problem> {
    let media = ctx.request.header("content-type").and_then(|v| v.split(';').next()).map(str::trim);
    if !media.is_some_and(|m| m.eq_ignore_ascii_case("application/x-www-form-urlencoded")) {
        return Err(Problem::new(
            ErrorCode::UnsupportedMediaType,
            "This form takes application/x-www-form-urlencoded, as a browser sends it.",
        ));
    }
    let mut values = Map::new();
    for (name, value) in form_urlencoded::parse(&ctx.request.body) {
        values.entry(name.into_owned()).or_insert_with(|| Value::String(value.into_owned()));
    }
    Ok(values)
}

/// The form page, empty or with what was typed and what is wrong.
async fn show<P: Platform>(
    ctx: &Ctx<'_, P>,
    place: &Place,
    status: u16,
    values: &Map<String, Value>,
    errors: &[FieldError],
) -> Response {
    let manifest = ctx.state.manifest();
    let strings = &manifest.strings;
    let today = DateTime::from_unix((ctx.now_ms / 1000) as i64).date();
    let key = fresh_key(ctx);
    let view = FormView { form: place.form, site: &manifest.site, strings, values, errors, today: &today, key: &key };
    let title = strings.get(&format!("forms.{}.title", place.form.id)).to_string();
    let main = format!(
        "<h1>{}</h1>\n<p class=\"lead\">{}</p>\n{}",
        escape(&title),
        escape(strings.get(&format!("forms.{}.lead", place.form.id))),
        view.render()
    );
    page::render(ctx.state, ctx.platform, &ctx.request.path, status, &title, &main).await
}

/// A new idempotency key for a rendering of a form: a random UUID, or, on a platform without a
/// random source, one made of this request's id (unique to the time, client and body).
fn fresh_key<P: Platform>(ctx: &Ctx<'_, P>) -> String {
    let bytes = ctx.platform.random().unwrap_or_else(|_| {
        let id =
            crate::forms::ids::digest(&[&ctx.now_ms.to_be_bytes(), ctx.request.path.as_bytes(), &ctx.request.body]);
        id.to_be_bytes()
    });
    uuid::Builder::from_random_bytes(bytes).into_uuid().hyphenated().to_string()
}

/// The confirmation: what was stored, by its id (checked, so nothing else is echoed).
async fn sent<P: Platform>(ctx: &Ctx<'_, P>, place: &Place, valid: fn(&str) -> bool) -> Result<Response, Problem> {
    let Some(id) = ctx.query.get(place.parameter).filter(|id| valid(id)) else {
        return Err(Problem::not_found(format!("{} names no submission.", sent_url(place))));
    };
    let strings = &ctx.state.manifest().strings;
    let title = strings.get(&format!("forms.{}.sent_title", place.form.id)).to_string();
    let message = strings.fill(&format!("forms.{}.sent", place.form.id), &[(place.parameter, id)]);
    let main = format!(
        "<h1>{}</h1>\n<p role=\"status\" class=\"lead\">{}</p>\n<p><a href=\"/\">{}</a></p>\n",
        escape(&title),
        escape(&message),
        escape(strings.get("forms.back"))
    );
    Ok(page::render(ctx.state, ctx.platform, &ctx.request.path, 200, &title, &main).await)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_ids_the_server_makes_are_echoed() {
        let voice = |id: &str| id.strip_prefix("v-").is_some_and(|rest| is_id(rest, |c| c.is_ascii_lowercase()));
        assert!(voice("v-0123456789abcdefghjk"));
        assert!(!voice("v-<script>alert(1)</script>"));
        assert!(!voice("BK-0123456789AB"));
        assert!(!voice("v-"));
    }
}
