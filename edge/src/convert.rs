//! Converting between `worker` request/response types and the core's.

use portal_core::body::{too_large, MAX_BODY_BYTES};
use portal_core::http::{Method, Request, Response};
use portal_core::platform::Location;
use portal_core::problem::Problem;

/// The core request of a Worker request, or the problem that stopped it early (a body over the limit).
pub async fn request(mut request: worker::Request) -> worker::Result<Result<Request, (Problem, String)>> {
    let url = request.url()?;
    let path = url.path().to_string();
    let headers: Vec<(String, String)> =
        request.headers().entries().map(|(n, v)| (n.to_ascii_lowercase(), v)).collect();
    let declared = headers.iter().find(|(n, _)| n == "content-length").and_then(|(_, v)| v.parse::<usize>().ok());
    if declared.is_some_and(|length| length > MAX_BODY_BYTES) {
        return Ok(Err((too_large(), path)));
    }
    let method = Method::parse(request.method().as_ref());
    let body = match method {
        Method::Get | Method::Head | Method::Options => Vec::new(),
        _ => request.bytes().await.unwrap_or_default(),
    };
    if body.len() > MAX_BODY_BYTES {
        return Ok(Err((too_large(), path)));
    }
    let location = request.cf().map(|cf| {
        let (latitude, longitude) =
            cf.coordinates().map_or((None, None), |(lat, lon)| (Some(lat.into()), Some(lon.into())));
        Location { country: cf.country(), region: cf.region(), city: cf.city(), latitude, longitude }
    });
    Ok(Ok(Request {
        method,
        path,
        query: url.query().map(str::to_string),
        headers,
        body: body.into(),
        peer: None,
        location,
    }))
}

/// The Worker response of a core response.
pub fn response(response: Response) -> worker::Result<worker::Response> {
    let headers = worker::Headers::new();
    for (name, value) in &response.headers {
        headers.append(name, value)?;
    }
    let builder = worker::Response::builder().with_status(response.status).with_headers(headers);
    // A 204 or 304 must have no body at all (not even an empty one) in the Workers runtime.
    Ok(match response.status {
        204 | 205 | 304 => builder.empty(),
        _ => builder.fixed(response.body.to_vec()),
    })
}
