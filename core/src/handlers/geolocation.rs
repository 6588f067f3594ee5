//! `GET /api/geolocation` (docs/spec/api-spec.md#geolocation): coarse location only (country, region, city, and
//! coordinates rounded to one decimal). On the edge it comes from the platform's request metadata;
//! elsewhere from the upstream template of `site.yaml`, for the client address; otherwise 503.
//!
//! A location belongs to its caller: every answer is [`cache_control::PRIVATE`] and varies with
//! the headers that name the client, and only an address that parses as an IP address is ever
//! sent upstream (anything else is the unavailable answer, without a lookup).

use serde_json::{json, Value};

use super::upstream::{self, Upstream};
use crate::handlers::Ctx;
use crate::http::cache_control;
use crate::http::client_identity;
use crate::http::envelope::success;
use crate::http::problem::Problem;
use crate::http::Location;
use crate::http::Response;
use crate::platform::Platform;

/// What may stay unescaped of an address in a URL path (IPv4 dots, IPv6 colons).
const ADDRESS: &percent_encoding::AsciiSet =
    &percent_encoding::NON_ALPHANUMERIC.remove(b'.').remove(b':').remove(b'-').remove(b'_');

fn coarse(value: Option<f64>) -> Value {
    value.filter(|v| v.is_finite()).map_or(Value::Null, |v| json!((v * 10.0).round() / 10.0))
}

fn answer(source: &str, location: &Location) -> Response {
    let vary = client_identity::HEADERS.join(", ");
    let body = success(json!({
        "source": source,
        "data": {
            "country": location.country, "region": location.region, "city": location.city,
            "latitude": coarse(location.latitude), "longitude": coarse(location.longitude),
        },
    }));
    Response::json(&body).with_header("cache-control", cache_control::PRIVATE).with_header("vary", vary)
}

/// The location in a lookup's answer, or why there is none. An answer without one is kept only as
/// long as a failure (see [`upstream::get`]): the address may be found moments later.
fn location_of(bytes: &[u8]) -> Result<Location, &'static str> {
    let found: Value = serde_json::from_slice(bytes).map_err(|_| "it answered no JSON")?;
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
        return Err("it found nothing for this address");
    }
    Ok(location)
}

/// Answers `/api/geolocation`.
pub async fn handle<P: Platform>(ctx: &Ctx<'_, P>) -> Result<Response, Problem> {
    if let Some(location) = ctx.request.location.as_ref().filter(|l| l.country.is_some() || l.latitude.is_some()) {
        return Ok(answer("edge", location));
    }
    let unavailable = |why: &str| Upstream::Geolocation.unavailable(why);
    let Some(template) = ctx.state.manifest().site.upstreams.geolocation.clone() else {
        return Err(unavailable("no geolocation source is configured"));
    };
    let address = client_identity::address(ctx.request);
    if address.parse::<std::net::IpAddr>().is_err() {
        return Err(unavailable("the client's address is not an IP address"));
    }
    let encoded: String = percent_encoding::utf8_percent_encode(&address, ADDRESS).to_string();
    let url = template.replace("{ip}", &encoded);
    let bytes = upstream::get(ctx, Upstream::Geolocation, &url, "application/json", |b| location_of(b).is_ok())
        .await
        .map_err(|failure| Upstream::Geolocation.unavailable(failure))?;
    let location = location_of(&bytes).map_err(unavailable)?;
    Ok(answer("upstream", &location))
}

#[cfg(test)]
mod tests {
    use crate::app::App;
    use crate::dist::manifest::{Manifest, Routes};
    use crate::http::upstream::FAILURE_MEMORY_SECS;
    use crate::http::{Method, Request, Response};
    use crate::testing::{block_on, FakePlatform};

    const LOOKUP: &str = "http://geo.test/{ip}";

    fn ask(platform: &FakePlatform, peer: Option<&str>) -> Response {
        let mut manifest = Manifest::default();
        manifest.site.upstreams.geolocation = Some(LOOKUP.into());
        let mut request = Request::new(Method::Get, "/api/geolocation");
        request.peer = peer.map(str::to_string);
        block_on(App::new(manifest, &Routes::new()).handle(platform, request))
    }

    #[test]
    fn a_location_is_private_to_its_caller_and_varies_with_the_client_headers() {
        let platform = FakePlatform::default().with_upstream("http://geo.test/192.0.2.7", 200, r#"{"country":"UG"}"#);
        let response = ask(&platform, Some("192.0.2.7"));
        assert_eq!(response.status, 200);
        assert_eq!(response.header("cache-control"), Some("private, no-store"));
        assert_eq!(response.header("vary"), Some("X-Forwarded-For, X-Real-IP, CF-Connecting-IP"));
    }

    #[test]
    fn an_answer_without_a_location_is_kept_five_seconds_not_the_cache_time() {
        // Manifest::default() caches upstream answers for 300 s.
        let url = "http://geo.test/192.0.2.8";
        let platform = FakePlatform::default().with_upstream(url, 200, r#"{"country":""}"#);
        assert_eq!(ask(&platform, Some("192.0.2.8")).status, 503);
        platform.with_upstream_now(url, 200, r#"{"country":"UG"}"#);
        assert_eq!(ask(&platform, Some("192.0.2.8")).status, 503, "within the failure memory");
        platform.advance(FAILURE_MEMORY_SECS * 1000);
        assert_eq!(ask(&platform, Some("192.0.2.8")).status, 200, "asked again after 5 s");
        platform.with_upstream_now(url, 200, r#"{}"#);
        platform.advance(FAILURE_MEMORY_SECS * 1000);
        assert_eq!(ask(&platform, Some("192.0.2.8")).status, 200, "a location is kept cache_seconds");
    }

    #[test]
    fn an_address_that_is_not_an_ip_is_never_sent_upstream() {
        let platform = FakePlatform::default().with_upstream("http://geo.test/unknown", 200, r#"{"country":"UG"}"#);
        assert_eq!(ask(&platform, None).status, 503);
        assert!(platform.fetched.borrow().is_empty(), "{:?}", platform.fetched.borrow());
    }
}
