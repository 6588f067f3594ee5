//! `POST /api/send-booking-confirmation` (decision D6): a visit request, stored with the visitor's
//! confirmation and the site's copy before the 202. Choice values come from `site.yaml` `booking:`.

use serde_json::{json, Map, Value};

use crate::body::json_object;
use crate::handlers::submit::{request_id, store};
use crate::handlers::Ctx;
use crate::http::Response;
use crate::mail::{compose, first_address, sender, Envelope};
use crate::platform::Platform;
use crate::problem::Problem;
use crate::validate::{require_object, Fields, Use};

/// The longest accepted name.
pub const MAX_NAME: usize = 100;

/// The validated booking, in the order of spec 4.4; optional fields only when given.
fn validate(
    body: &Map<String, Value>,
    site: &crate::content::SiteConfig,
    today: i64,
) -> Result<Map<String, Value>, Problem> {
    let choices = &site.booking;
    let mut fields = Fields::new(body);
    let values = [
        ("name", fields.text("name", true, MAX_NAME, Use::Header)),
        ("email", fields.email("email")),
        ("visitDate", fields.date_from("visitDate", today)),
        ("visitTime", fields.clock("visitTime")),
        ("groupSize", fields.choice("groupSize", true, &choices.group_size)),
        ("tourType", fields.choice("tourType", true, &choices.tour_type)),
        ("meetingPoint", fields.choice("meetingPoint", false, &choices.meeting_point)),
        ("paymentMethod", fields.choice("paymentMethod", false, &choices.payment_method)),
    ];
    fields.finish()?;
    Ok(values.into_iter().filter_map(|(name, value)| value.map(|v| (name.to_string(), Value::String(v)))).collect())
}

/// Validates, stores and answers 202.
pub async fn handle<P: Platform>(ctx: &Ctx<'_, P>) -> Result<Response, Problem> {
    let body = require_object(json_object(ctx.request)?)?;
    let site = &ctx.app.manifest().site;
    let today = (ctx.now_ms / 86_400_000) as i64;
    let booking = validate(&body, site, today)?;
    let reference = format!("BK-{}", request_id(ctx, 12).to_uppercase());
    let text = |name: &str| booking.get(name).and_then(Value::as_str).unwrap_or("").to_string();
    let (name, email) = (text("name"), text("email"));
    let owned: Vec<(&str, String)> = vec![
        ("reference", reference.clone()),
        ("name", name.clone()),
        ("email", email.clone()),
        ("visitDate", text("visitDate")),
        ("visitTime", text("visitTime")),
        ("groupSize", text("groupSize")),
        ("tourType", text("tourType")),
        ("meetingPoint", text("meetingPoint")),
        ("paymentMethod", text("paymentMethod")),
        ("site", site.title.clone()),
    ];
    let values: Vec<(&str, &str)> = owned.iter().map(|(n, v)| (*n, v.as_str())).collect();
    let office = first_address(&[&site.notifications.bookings_to, &site.contact.email]);
    let from = sender(ctx.app);
    let visitor = Envelope { from: from.clone(), to: vec![email.clone()], reply_to: office.clone() };
    let mut mails = vec![compose(ctx.platform, "booking-visitor", visitor, &values).await?];
    if let Some(office) = office {
        let copy = Envelope { from, to: vec![office], reply_to: Some(email.clone()) };
        mails.push(compose(ctx.platform, "booking-copy", copy, &values).await?);
    }
    store(ctx, "booking", &reference, Value::Object(booking.clone()), mails).await?;
    Ok(Response::json(&json!({
        "status": "success",
        "reference": reference,
        "message": format!("Booking request received; a confirmation is on its way to {email}."),
        "booking": booking,
    }))
    .with_status(202))
}
