//! Reaching a third-party upstream (weather, alerts, geolocation), the same on every platform: the
//! timeout and the short cache of `site.yaml`'s `upstreams`, a cap on the size of an answer,
//! requests for one URL at the same time sharing one fetch (where the platform lets a request wait
//! on another's: not the Worker), and a failure remembered for a few seconds, so that an upstream
//! that is down is not asked again by every request meanwhile.
//!
//! Only the URL of `site.yaml` is ever asked: the platform follows no redirect, and a 3xx is a
//! failure like a 5xx (docs/spec/api-spec.md#upstreams).
//!
//! A failure is told to clients by the upstream's role ("the weather-alert feed") and what went
//! wrong, never by its URL: the URLs of `site.yaml` are the operator's business.

use bytes::Bytes;

use crate::handlers::Ctx;
use crate::platform::{Platform, UpstreamRequest, UpstreamResponse};

pub use crate::http::upstream::{Failure, Upstream, FAILURE_MEMORY_SECS, MAX_ANSWER_BYTES};

/// GETs `url` of `upstream`: from the cache when a fresh answer is there; else, unless it failed
/// moments ago, by one fetch shared with every request asking for `url` meanwhile. An answer is
/// cached for `upstreams.cache_seconds` when `usable` says the caller can read it (a forecast, a
/// feed, a location); one it cannot read is a failure to the caller, so it is kept no longer than
/// a failure is remembered (docs/spec/api-spec.md#upstreams).
pub async fn get<P: Platform>(
    ctx: &Ctx<'_, P>,
    upstream: Upstream,
    url: &str,
    accept: &str,
    usable: impl Fn(&[u8]) -> bool,
) -> Result<Bytes, Failure> {
    let settings = &ctx.state.manifest().site.upstreams;
    let key = format!("upstream\u{1f}{url}");
    if settings.cache_seconds > 0 {
        if let Some(cached) = ctx.platform.cache_get(&key).await {
            return Ok(cached);
        }
    }
    let memory = settings.cache_seconds.min(FAILURE_MEMORY_SECS);
    if memory > 0 && ctx.platform.cache_get(&upstream.failure_key()).await.is_some() {
        return Err(Failure::Remembered);
    }
    let outcome = if ctx.platform.shares_work_across_requests() {
        ctx.state.upstream_fetches().run(url, || fetch(ctx, url, accept)).await
    } else {
        fetch(ctx, url, accept).await
    };
    match &outcome {
        Ok(body) => {
            let keep = if usable(body) { settings.cache_seconds } else { memory };
            if keep > 0 {
                ctx.platform.cache_put(&key, body.clone(), keep).await
            }
        }
        Err(failure) if memory > 0 && failure.is_outage() => {
            ctx.platform.cache_put(&upstream.failure_key(), Bytes::new(), memory).await
        }
        _ => {}
    }
    outcome
}

/// One fetch of `url`, its answer checked for status and size.
async fn fetch<P: Platform>(ctx: &Ctx<'_, P>, url: &str, accept: &str) -> Result<Bytes, Failure> {
    let request = UpstreamRequest {
        url: url.to_string(),
        body: None,
        headers: vec![
            ("accept".into(), accept.into()),
            ("user-agent".into(), format!("portal/{}", env!("CARGO_PKG_VERSION"))),
        ],
        timeout_ms: ctx.state.manifest().site.upstreams.timeout_ms,
        max_bytes: MAX_ANSWER_BYTES,
    };
    let response = ctx.platform.fetch(request).await.map_err(|_| Failure::Unreachable)?;
    if !(200..300).contains(&response.status) {
        return Err(Failure::Status(response.status));
    }
    if too_large(&response) {
        return Err(Failure::TooLarge);
    }
    Ok(response.body)
}

/// Whether an answer is over [`MAX_ANSWER_BYTES`], by what it declared or what was read.
fn too_large(response: &UpstreamResponse) -> bool {
    let declared = response.headers.iter().find(|(name, _)| name == "content-length");
    let declared = declared.and_then(|(_, value)| value.trim().parse::<u64>().ok());
    response.body.len() > MAX_ANSWER_BYTES || declared.is_some_and(|length| length > MAX_ANSWER_BYTES as u64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dist::manifest::{Manifest, Routes};
    use crate::http::query::Query;
    use crate::http::{Method, Request};
    use crate::routing::Params;
    use crate::state::State;
    use crate::testing::{block_on, FakePlatform};

    const URL: &str = "http://alerts.test/feed";

    fn app(cache_seconds: u64) -> State {
        let mut manifest = Manifest::default();
        manifest.site.upstreams.cache_seconds = cache_seconds;
        State::new(manifest, &Routes::new())
    }

    fn ask(app: &State, platform: &FakePlatform) -> Result<Bytes, Failure> {
        let request = Request::new(Method::Get, "/api/weather-alerts");
        let params = Params::default();
        let ctx =
            Ctx { state: app, platform, request: &request, params: &params, query: Query::parse(None), now_ms: 0 };
        block_on(get(&ctx, Upstream::WeatherAlerts, URL, "application/xml", |body| body.starts_with(b"<rss")))
    }

    #[test]
    fn an_answer_over_the_cap_is_a_failure() {
        let platform = FakePlatform::default().with_upstream(URL, 200, vec![b'x'; MAX_ANSWER_BYTES + 1]);
        assert_eq!(ask(&app(0), &platform), Err(Failure::TooLarge));
        let platform = FakePlatform::default().with_upstream(URL, 200, vec![b'x'; MAX_ANSWER_BYTES]);
        assert!(ask(&app(0), &platform).is_ok());
    }

    #[test]
    fn a_failure_is_remembered_for_a_few_seconds_then_asked_again() {
        let platform = FakePlatform::default().with_upstream(URL, 500, "down");
        let app = app(300);
        assert_eq!(ask(&app, &platform), Err(Failure::Status(500)));
        platform.with_upstream_now(URL, 200, "<rss/>");
        assert_eq!(ask(&app, &platform), Err(Failure::Remembered));
        assert_eq!(platform.fetched.borrow().len(), 1, "a remembered failure asks nobody");
        platform.advance(FAILURE_MEMORY_SECS * 1000);
        assert_eq!(ask(&app, &platform), Ok(Bytes::from("<rss/>")));
    }

    #[test]
    fn without_a_cache_nothing_is_remembered_and_a_not_found_never_is() {
        let platform = FakePlatform::default().with_upstream(URL, 500, "down");
        assert_eq!(ask(&app(0), &platform), Err(Failure::Status(500)));
        assert_eq!(ask(&app(0), &platform), Err(Failure::Status(500)));
        let platform = FakePlatform::default().with_upstream(URL, 404, "no such place");
        let app = app(300);
        assert_eq!(ask(&app, &platform), Err(Failure::Status(404)));
        assert_eq!(ask(&app, &platform), Err(Failure::Status(404)));
        assert_eq!(platform.fetched.borrow().len(), 2);
    }

    #[test]
    fn a_redirect_is_a_failure_and_its_target_is_never_asked() {
        let platform = FakePlatform::default().with_upstream(URL, 302, "").with_upstream(
            "http://127.0.0.1:9/internal",
            200,
            "<rss>secret</rss>",
        );
        assert_eq!(ask(&app(300), &platform), Err(Failure::Status(302)));
        let asked: Vec<String> = platform.fetched.borrow().iter().map(|r| r.url.clone()).collect();
        assert_eq!(asked, [URL]);
    }

    #[test]
    fn an_answer_the_caller_cannot_use_is_kept_only_as_long_as_a_failure() {
        let platform = FakePlatform::default().with_upstream(URL, 200, "<html>not a feed</html>");
        let app = app(300);
        assert_eq!(ask(&app, &platform), Ok(Bytes::from("<html>not a feed</html>")));
        platform.with_upstream_now(URL, 200, "<rss/>");
        platform.advance(FAILURE_MEMORY_SECS * 1000 - 1);
        assert_eq!(ask(&app, &platform), Ok(Bytes::from("<html>not a feed</html>")), "kept for the failure memory");
        platform.advance(1);
        assert_eq!(ask(&app, &platform), Ok(Bytes::from("<rss/>")), "asked again once it is over");
        platform.with_upstream_now(URL, 200, "<html>changed</html>");
        platform.advance(FAILURE_MEMORY_SECS * 1000 * 10);
        assert_eq!(ask(&app, &platform), Ok(Bytes::from("<rss/>")), "a usable answer is kept cache_seconds");
    }

    #[test]
    fn a_failure_names_the_upstream_by_its_role() {
        let problem = Upstream::WeatherAlerts.unavailable(Failure::Status(502));
        assert_eq!(problem.detail, "The weather-alert feed is unavailable: it answered with status 502.");
    }
}
