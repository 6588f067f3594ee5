//! `POST /api/send-booking-confirmation` (docs/spec/api-spec.md#booking): a visit request, stored with the visitor's
//! confirmation and the site's copy before the 202. Choice values come from `site.yaml` `booking:`.
//! The HTML form (`/visit`) goes through [`accept`] too.

use serde_json::{json, Map, Value};

use crate::forms::mail::{compose, first_address, sender, Envelope};
use crate::forms::validate::require_object;
use crate::forms::{Field, Input, BOOKING};
use crate::handlers::submit::{request_id, store};
use crate::handlers::voices::Refused;
use crate::handlers::Ctx;
use crate::http::body::json_object;
use crate::http::problem::Problem;
use crate::http::Response;
use crate::platform::Platform;

pub use crate::forms::MAX_NAME;

/// A stored booking: its reference and the validated fields.
#[derive(Debug, Clone, PartialEq)]
pub struct Accepted {
    /// The booking reference given to the visitor.
    pub reference: String,
    /// The booking as stored.
    pub booking: Map<String, Value>,
}

/// Validates a booking, then stores it with the visitor's confirmation and the site's copy.
pub async fn accept<P: Platform>(ctx: &Ctx<'_, P>, body: &Map<String, Value>) -> Result<Accepted, Refused> {
    let site = &ctx.state.manifest().site;
    let today = (ctx.now_ms / 86_400_000) as i64;
    let booking = BOOKING.validate(body, site, today).map_err(Refused::Fields)?;
    let reference = format!("BK-{}", request_id(ctx, 12).to_uppercase());
    let text = |name: &str| booking.get(name).and_then(Value::as_str).unwrap_or("").to_string();
    let email = text("email");
    let mut owned: Vec<(&str, String)> = vec![("reference", reference.clone()), ("site", site.title.clone())];
    owned.extend(BOOKING.fields.iter().map(|f| (f.name, mail_value(f, &text(f.name), ctx))));
    let values: Vec<(&str, &str)> = owned.iter().map(|(n, v)| (*n, v.as_str())).collect();
    let office = first_address(&[&site.notifications.bookings_to, &site.contact.email]);
    let from = sender(&ctx.state.manifest().site);
    let visitor = Envelope { from: from.clone(), to: vec![email.clone()], reply_to: office.clone() };
    let confirmation = compose(ctx.platform, "booking-visitor", visitor, &values).await?;
    let mut mails = Vec::new();
    if let Some(office) = office {
        let copy = Envelope { from, to: vec![office], reply_to: Some(email) };
        mails.push(compose(ctx.platform, "booking-copy", copy, &values).await?);
    }
    store(ctx, BOOKING.id, &reference, Value::Object(booking.clone()), mails, Some(confirmation)).await?;
    Ok(Accepted { reference, booking })
}

/// A field's value as the mails say it: a choice by the label the form showed it with
/// (docs/content.md#facts: site.yaml `labels:`, else the interface text's), other values as given.
fn mail_value<P: Platform>(field: &Field, value: &str, ctx: &Ctx<'_, P>) -> String {
    let manifest = ctx.state.manifest();
    match field.input {
        Input::Choice(_) => manifest.site.label(value, &manifest.strings).unwrap_or(value).to_string(),
        _ => value.to_string(),
    }
}

/// Validates, stores and answers 202.
pub async fn handle<P: Platform>(ctx: &Ctx<'_, P>) -> Result<Response, Problem> {
    let body = require_object(json_object(ctx.request)?)?;
    let accepted = accept(ctx, &body).await?;
    let email = accepted.booking.get("email").and_then(Value::as_str).unwrap_or_default().to_string();
    Ok(Response::json(&crate::http::envelope::success(json!({
        "reference": accepted.reference,
        "message": format!("Booking request received; a confirmation will be mailed to {email}."),
        "booking": accepted.booking,
    })))
    .with_status(202))
}

#[cfg(test)]
mod tests {
    use crate::app::App;
    use crate::dist::manifest::{Manifest, Routes};
    use crate::http::{Method, Request};
    use crate::testing::{block_on, FakePlatform};

    fn platform() -> FakePlatform {
        ["booking-visitor", "booking-copy"].iter().fold(FakePlatform::default(), |platform, name| {
            platform
                .with_file(&format!("_portal/mail/{name}.txt"), "Subject: Visit {{reference}}\n\n{{name}}")
                .with_file(&format!("_portal/mail/{name}.html"), "<p>{{name}}</p>")
        })
    }

    #[test]
    fn the_confirmation_names_choices_by_their_labels() {
        let mut manifest = Manifest::default();
        manifest.site.notifications.from = "portal@example.org".into();
        manifest.site.labels.insert("walk".into(), "Community walk".into());
        manifest.site.booking = Some(crate::content::Booking::default());
        let app = App::new(manifest, &Routes::new());
        let platform = ["booking-visitor", "booking-copy"].iter().fold(FakePlatform::default(), |platform, name| {
            platform
                .with_file(&format!("_portal/mail/{name}.txt"), "Subject: Visit\n\nTour: {{tourType}}")
                .with_file(&format!("_portal/mail/{name}.html"), "<p>{{tourType}}</p>")
        });
        assert_eq!(block_on(app.handle(&platform, book("ana@example.org"))).status, 202);
        let stored = platform.submissions.borrow();
        let mail = &stored[0].mails[0];
        assert!(mail.text.contains("Tour: Community walk"), "{}", mail.text);
        assert_eq!(mail.html.as_deref(), Some("<p>Community walk</p>"));
    }

    fn book(email: &str) -> Request {
        let body = serde_json::json!({"name": "Ana", "email": email, "visitDate": "2099-01-01", "visitTime": "09:00",
            "groupSize": "1-5", "tourType": "walk"});
        Request::new(Method::Post, "/api/send-booking-confirmation")
            .with_header("content-type", "application/json")
            .with_body(body.to_string())
    }

    #[test]
    fn a_site_without_booking_settings_takes_no_bookings() {
        let app = App::new(Manifest::default(), &Routes::new());
        let answer = block_on(app.handle(&platform(), book("ana@example.org")));
        assert_eq!(answer.status, 404);
        assert!(String::from_utf8_lossy(&answer.body).contains("takes no bookings"));
    }

    #[test]
    fn past_three_a_day_a_booking_is_stored_and_answered_alike_without_its_confirmation() {
        let mut manifest = Manifest::default();
        manifest.site.notifications.from = "portal@example.org".into();
        manifest.site.notifications.bookings_to = "office@example.org".into();
        manifest.site.booking = Some(crate::content::Booking::default());
        let app = App::new(manifest, &Routes::new());
        let platform = platform();
        let mut answers = Vec::new();
        for email in ["ana@example.org", "Ana+x@example.org", " a.na@EXAMPLE.org", "ana+y@example.org"] {
            let answer = block_on(app.handle(&platform, book(email)));
            assert_eq!((answer.status, answer.header("retry-after")), (202, None));
            let mut body: serde_json::Value = serde_json::from_slice(&answer.body).expect("json");
            let typed = body["booking"]["email"].as_str().unwrap_or_default().to_string();
            body["message"] = body["message"].as_str().unwrap_or_default().replace(&typed, "EMAIL").into();
            body["reference"] = "REF".into();
            body["booking"]["email"] = "EMAIL".into();
            answers.push(body);
            platform.advance(1);
        }
        assert!(answers.windows(2).all(|pair| pair[0] == pair[1]), "{answers:?}");
        let stored = platform.submissions.borrow();
        let to: Vec<Vec<&str>> = stored.iter().map(|s| s.mails.iter().map(|m| m.to[0].trim()).collect()).collect();
        assert_eq!(to[0], ["ana@example.org", "office@example.org"]);
        assert_eq!(to[3], ["office@example.org"], "the fourth confirmation is not queued; the office copy is");
        drop(stored);
        assert_eq!(block_on(app.handle(&platform, book("eve@example.org"))).status, 202);
        assert_eq!(platform.submissions.borrow()[4].mails.len(), 2);
    }
}
