//! `GET /api/weather-alerts` (docs/spec/api-spec.md#weather-alerts): the upstream CAP feed as items; 503 when it fails,
//! an empty list when none is configured.

use serde_json::json;

use super::upstream::{self, Upstream};
use crate::content::time::DateTime;
use crate::handlers::Ctx;
use crate::http::envelope::success;
use crate::http::problem::Problem;
use crate::http::Response;
use crate::platform::Platform;
use crate::queries::alert_feed::{self, Alert};

/// Answers `/api/weather-alerts`.
pub async fn handle<P: Platform>(ctx: &Ctx<'_, P>) -> Result<Response, Problem> {
    let updated_at = DateTime::from_unix((ctx.now_ms / 1000) as i64).rfc3339();
    let Some(alerts) = alerts(ctx).await? else {
        return Ok(Response::json(&success(
            json!({"source": "none", "updatedAt": updated_at, "data": {"alerts": []}}),
        )));
    };
    Ok(Response::json(&success(json!({"source": "upstream", "updatedAt": updated_at, "data": {"alerts": alerts}}))))
}

/// The alerts of the configured feed (`None` when the site configures none); a feed that fails is
/// the 503 problem. Shared with the `/weather` page, which shows the same alerts.
pub async fn alerts<P: Platform>(ctx: &Ctx<'_, P>) -> Result<Option<Vec<Alert>>, Problem> {
    let Some(url) = ctx.state.manifest().site.upstreams.weather_alerts.clone() else { return Ok(None) };
    let accept = "application/rss+xml, application/atom+xml, application/xml;q=0.9";
    let feed = Upstream::WeatherAlerts;
    let read = |bytes: &[u8]| alert_feed::parse(&String::from_utf8_lossy(bytes));
    let bytes = upstream::get(ctx, feed, &url, accept, |b| read(b).is_ok()).await.map_err(|f| feed.unavailable(f))?;
    read(&bytes).map(Some).map_err(|e| feed.unavailable(e.0))
}
