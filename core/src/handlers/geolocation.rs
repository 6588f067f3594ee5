//! `GET /api/geolocation` (decisions D7, D10): coarse location only (country, region, city, and
//! coordinates rounded to one decimal). On the edge it comes from the platform's request metadata;
//! elsewhere from the upstream template of `site.yaml`, for the client address; otherwise 503.

use serde_json::{json, Value};

use super::upstream;
use crate::client;
use crate::envelope::success;
use crate::handlers::Ctx;
use crate::http::Response;
use crate::platform::{Location, Platform};
use crate::problem::{ErrorCode, Problem};

/// What may stay unescaped of an address in a URL path (IPv4 dots, IPv6 colons).
const ADDRESS: &percent_encoding::AsciiSet =
    &percent_encoding::NON_ALPHANUMERIC.remove(b'.').remove(b':').remove(b'-').remove(b'_');

fn coarse(value: Option<f64>) -> Value {
    value.filter(|v| v.is_finite()).map_or(Value::Null, |v| json!((v * 10.0).round() / 10.0))
}

fn answer(source: &str, location: &Location) -> Response {
    Response::json(&success(json!({
        "source": source,
        "data": {
            "country": location.country, "region": location.region, "city": location.city,
            "latitude": coarse(location.latitude), "longitude": coarse(location.longitude),
        },
    })))
}

/// Answers `/api/geolocation`.
pub async fn handle<P: Platform>(ctx: &Ctx<'_, P>) -> Result<Response, Problem> {
    if let Some(location) = ctx.request.location.as_ref().filter(|l| l.country.is_some() || l.latitude.is_some()) {
        return Ok(answer("edge", location));
    }
    let unavailable =
        |why: &str| Problem::new(ErrorCode::UpstreamUnavailable, format!("Geolocation is unavailable: {why}."));
    let Some(template) = ctx.app.manifest().site.upstreams.geolocation.clone() else {
        return Err(unavailable("no geolocation source is configured"));
    };
    let address = client::address(ctx.request);
    let encoded: String = percent_encoding::utf8_percent_encode(&address, ADDRESS).to_string();
    let url = template.replace("{ip}", &encoded);
    let bytes = upstream::get(ctx, &url, "application/json").await.map_err(|_| unavailable("the lookup failed"))?;
    let found: Value = serde_json::from_slice(&bytes).map_err(|_| unavailable("the lookup answered no JSON"))?;
    let text = |key: &str| found.get(key).and_then(Value::as_str).filter(|s| !s.is_empty()).map(str::to_string);
    let number = |key: &str| found.get(key).and_then(Value::as_f64);
    let location = Location {
        country: text("country_name").or_else(|| text("country")),
        region: text("region"),
        city: text("city"),
        latitude: number("latitude"),
        longitude: number("longitude"),
    };
    if location.country.is_none() && location.latitude.is_none() {
        return Err(unavailable("the lookup found nothing for this address"));
    }
    Ok(answer("upstream", &location))
}
