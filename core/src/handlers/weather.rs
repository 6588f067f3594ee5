//! `GET /api/weather` (docs/spec/api-spec.md#weather): the upstream's Open-Meteo forecast in our shape, or, when
//! the upstream fails, times out or is not configured, the seasonal fallback for the current month.

use serde_json::{json, Map, Value};

use super::files::read_json_file;
use super::upstream::{self, Upstream};
use crate::content::time::DateTime;
use crate::handlers::Ctx;
use crate::http::envelope::success;
use crate::http::problem::Problem;
use crate::http::Response;
use crate::platform::Platform;

/// Where the build writes `data/weather-fallback.yaml` (as JSON).
pub const FALLBACK_FILE: &str = "_portal/weather-fallback.json";

/// Our shape of an Open-Meteo forecast; `None` when the document is not one.
pub fn from_open_meteo(forecast: &Value, now: DateTime) -> Option<Value> {
    let current = forecast.get("current").filter(|c| c.is_object());
    let daily = forecast.get("daily").and_then(Value::as_object);
    if current.is_none() && daily.is_none() {
        return None;
    }
    let days: Vec<Value> = daily
        .and_then(|d| d.get("time").and_then(Value::as_array).map(|times| (d, times)))
        .map(|(d, times)| {
            (0..times.len())
                .map(|i| {
                    let mut day = Map::new();
                    day.insert("date".into(), times[i].clone());
                    for (key, values) in d.iter().filter(|(k, _)| *k != "time") {
                        day.insert(key.clone(), values.get(i).cloned().unwrap_or(Value::Null));
                    }
                    Value::Object(day)
                })
                .collect()
        })
        .unwrap_or_default();
    Some(success(json!({
        "source": "upstream",
        "updatedAt": current.and_then(|c| c.get("time")).cloned().unwrap_or_else(|| json!(now.rfc3339())),
        "location": {"latitude": forecast["latitude"], "longitude": forecast["longitude"], "timezone": forecast.get("timezone")},
        "current": current.cloned().unwrap_or(Value::Null),
        "units": forecast.get("current_units").or_else(|| forecast.get("daily_units")).cloned().unwrap_or(Value::Null),
        "daily": days,
    })))
}

/// The fallback answer for `now`'s month.
pub fn fallback(file: &Value, now: DateTime) -> Option<Value> {
    let month = now.month();
    let season = file["months"].get(month.to_string())?.as_object()?;
    let mut answer = Map::new();
    answer.insert("status".into(), json!("success"));
    answer.insert("source".into(), json!("fallback"));
    answer.insert("updatedAt".into(), json!(now.rfc3339()));
    answer.insert("location".into(), file.get("location").cloned().unwrap_or(Value::Null));
    answer.insert("month".into(), json!(month));
    for (key, value) in season {
        answer.entry(key.clone()).or_insert_with(|| value.clone());
    }
    Some(Value::Object(answer))
}

/// Answers `/api/weather`.
pub async fn handle<P: Platform>(ctx: &Ctx<'_, P>) -> Result<Response, Problem> {
    forecast(ctx).await.map(|answer| Response::json(&answer))
}

/// The document `/api/weather` answers: the upstream's forecast (through the upstream's cache), else
/// the seasonal fallback; shared with the `/weather` page, which shows the same data.
pub async fn forecast<P: Platform>(ctx: &Ctx<'_, P>) -> Result<Value, Problem> {
    let now = DateTime::from_unix((ctx.now_ms / 1000) as i64);
    if let Some(url) = ctx.state.manifest().site.upstreams.weather.clone() {
        let read = |bytes: &[u8]| serde_json::from_slice::<Value>(bytes).ok().and_then(|v| from_open_meteo(&v, now));
        if let Ok(bytes) = upstream::get(ctx, Upstream::Weather, &url, "application/json", |b| read(b).is_some()).await
        {
            if let Some(answer) = read(&bytes) {
                return Ok(answer);
            }
        }
    }
    let file = read_json_file(ctx.platform, FALLBACK_FILE).await?;
    match file.as_ref().and_then(|f| fallback(f, now)) {
        Some(answer) => Ok(answer),
        None => Err(Upstream::Weather.unavailable("the site publishes no seasonal fallback for this month")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn open_meteo_days_become_objects() {
        let forecast = json!({"latitude": 1.0, "longitude": 30.0, "current": {"time": "2026-11-22T10:00", "temperature_2m": 24.1},
            "daily": {"time": ["2026-11-22", "2026-11-23"], "temperature_2m_max": [29.0, 30.5]}});
        let answer = from_open_meteo(&forecast, DateTime::from_unix(0)).expect("forecast");
        assert_eq!(answer["daily"][1], json!({"date": "2026-11-23", "temperature_2m_max": 30.5}));
        assert_eq!(answer["current"]["temperature_2m"], 24.1);
        assert!(from_open_meteo(&json!({"error": true}), DateTime::from_unix(0)).is_none());
    }

    #[test]
    fn the_fallback_answers_the_current_month() {
        let file =
            json!({"location": {"name": "Amani"}, "months": {"11": {"summary": "Short rains", "rainfall_mm": 120}}});
        let november = DateTime::from_unix(1_795_300_000);
        let answer = fallback(&file, november).expect("november");
        assert_eq!(answer["summary"], "Short rains");
        assert_eq!(answer["source"], "fallback");
        assert_eq!(answer["location"]["name"], "Amani");
        assert!(fallback(&file, DateTime::from_unix(0)).is_none());
    }
}
