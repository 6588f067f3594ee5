//! Reaching a third-party upstream (weather, alerts, geolocation): the timeout and the short cache
//! of `site.yaml`'s `upstreams`, the same on every platform.

use bytes::Bytes;

use crate::handlers::Ctx;
use crate::platform::{Platform, UpstreamRequest};

/// GETs `url`, from the cache when a fresh answer is there; any status other than 2xx is a failure.
pub async fn get<P: Platform>(ctx: &Ctx<'_, P>, url: &str, accept: &str) -> Result<Bytes, String> {
    let settings = &ctx.app.manifest().site.upstreams;
    let key = format!("upstream\u{1f}{url}");
    if settings.cache_seconds > 0 {
        if let Some(cached) = ctx.platform.cache_get(&key).await {
            return Ok(cached);
        }
    }
    let request = UpstreamRequest {
        url: url.to_string(),
        headers: vec![
            ("accept".into(), accept.into()),
            ("user-agent".into(), format!("portal/{}", env!("CARGO_PKG_VERSION"))),
        ],
        timeout_ms: settings.timeout_ms,
    };
    let response = ctx.platform.fetch(request).await.map_err(|e| e.0)?;
    if !(200..300).contains(&response.status) {
        return Err(format!("{url} answered {}", response.status));
    }
    if settings.cache_seconds > 0 {
        ctx.platform.cache_put(&key, response.body.clone(), settings.cache_seconds).await;
    }
    Ok(response.body)
}
