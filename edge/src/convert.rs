//! Converting between `worker` request/response types and the core's.

use portal_core::http::body::{check_declared_length, Interrupted};
use portal_core::http::{Location, Method, Request, Response, MAX_BODY_BYTES};

/// The core request of a Worker request, or what stopped it early (a body over the limit, a body
/// that could not be read), for core to answer.
pub async fn request(mut request: worker::Request) -> worker::Result<Result<Request, (Interrupted, String)>> {
    let url = request.url()?;
    let path = url.path().to_string();
    let headers: Vec<(String, String)> =
        request.headers().entries().map(|(n, v)| (n.to_ascii_lowercase(), v)).collect();
    let declared = headers.iter().find(|(n, _)| n == "content-length").map(|(_, v)| v.as_str());
    if let Err(what) = check_declared_length(declared) {
        return Ok(Err((what, path)));
    }
    let method = Method::parse(request.method().as_ref());
    let body = match method {
        Method::Get | Method::Head | Method::Options => Vec::new(),
        _ => match request.bytes().await {
            Ok(body) => body,
            Err(_) => return Ok(Err((Interrupted::BodyUnreadable, path))),
        },
    };
    if body.len() > MAX_BODY_BYTES {
        return Ok(Err((Interrupted::BodyTooLarge, path)));
    }
    let location = request.cf().map(|cf| {
        let (latitude, longitude) =
            cf.coordinates().map_or((None, None), |(lat, lon)| (Some(lat.into()), Some(lon.into())));
        Location { country: cf.country(), region: cf.region(), city: cf.city(), latitude, longitude }
    });
    // Cloudflare sets CF-Connecting-IP to the client; a client cannot forge it. Only `wrangler dev`
    // sets it to a loopback address, standing in as a trusted local proxy (see core's `http::client_identity`).
    let peer = headers.iter().find(|(n, _)| n == "cf-connecting-ip").map(|(_, v)| v.trim().to_string());
    let trusted_peer = peer.as_deref().is_some_and(portal_core::http::client_identity::is_loopback);
    Ok(Ok(Request {
        method,
        path,
        query: url.query().map(str::to_string),
        headers,
        body: body.into(),
        peer,
        trusted_peer,
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
