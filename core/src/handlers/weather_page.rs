//! `GET /weather` (docs/spec/api-spec.md#weather-page): the weather people read, rendered per request
//! from the same documents as `/api/weather` and `/api/weather-alerts` (so through the same upstream
//! cache): now, a small chart of the coming days' temperatures and rain with the same figures as a
//! table, and the alerts below. The page says plainly when it shows the seasonal fallback, and a
//! failing upstream is a sentence on the page, never an error: people asking "will it rain?" get
//! whatever is known. A client preferring `text/markdown` gets the page's markdown twin.

use std::fmt::Write;

use serde_json::Value;

use crate::content::i18n::Strings;
use crate::content::text::escape;
use crate::content::url_policy::web_address;
use crate::handlers::files::{prefers_markdown, MARKDOWN};
use crate::handlers::{page, weather, weather_alerts, Ctx};
use crate::http::problem::Problem;
use crate::http::Response;
use crate::pages::weather_chart::{chart, Day, Labels};
use crate::platform::Platform;
use crate::queries::alert_feed::Alert;
use crate::routing::pages::WEATHER;

/// A reading of "now" the page shows: the upstream's key, its label's key, its unit when the
/// upstream names none.
const CURRENT: [(&str, &str, &str); 4] = [
    ("temperature_2m", "weather.temperature", "°C"),
    ("relative_humidity_2m", "weather.humidity", "%"),
    ("precipitation", "weather.rain", "mm"),
    ("wind_speed_10m", "weather.wind", "km/h"),
];

/// A column of the forecast table: the upstream's daily key, its label's key, the unit's key in
/// `units` and the unit when the upstream names none.
const DAILY: [(&str, &str, &str, &str); 4] = [
    ("temperature_2m_max", "weather.high", "temperature_2m", "°C"),
    ("temperature_2m_min", "weather.low", "temperature_2m", "°C"),
    ("precipitation_sum", "weather.rain", "precipitation", "mm"),
    ("precipitation_probability_max", "weather.chance", "", "%"),
];

/// The figures of a seasonal fallback the page shows, with their labels' keys and units.
const SEASONAL: [(&str, &str, &str); 4] = [
    ("temperature_max", "weather.usual_high", "°C"),
    ("temperature_min", "weather.usual_low", "°C"),
    ("rainfall_mm", "weather.usual_rain", "mm"),
    ("rainy_days", "weather.rainy_days", ""),
];

/// What the page shows, read once and written as HTML or markdown.
struct View {
    /// The forecast document, or `None` when neither the upstream nor a fallback answered.
    forecast: Option<Value>,
    /// The alerts: `Ok(None)` when the site follows no feed, `Err` when the feed failed.
    alerts: Result<Option<Vec<Alert>>, Problem>,
}

/// Answers `/weather`.
pub async fn handle<P: Platform>(ctx: &Ctx<'_, P>) -> Result<Response, Problem> {
    let view = View { forecast: weather::forecast(ctx).await.ok(), alerts: weather_alerts::alerts(ctx).await };
    let strings = &ctx.state.manifest().strings;
    let title = strings.get("weather.title");
    if prefers_markdown(ctx.request.header("accept")) {
        let mut twin = markdown(strings, &view);
        // A content page at /weather introduces the twin as it does the page (see `page::render`).
        if let Some(intro) = ctx.state.manifest().intros.get(WEATHER) {
            twin = intro.introduce_markdown(&crate::pages::markdown::escape(&intro.title), &twin);
        }
        return Ok(Response::new(200).with_body(MARKDOWN, twin).with_header("vary", "Accept"));
    }
    let main = format!("<h1>{}</h1>\n{}", escape(title), html(strings, &view));
    let response = page::render(ctx.state, ctx.platform, WEATHER, 200, title, &main).await;
    Ok(response.with_header("vary", "Accept"))
}

/// Whether a forecast document is the seasonal fallback.
fn is_fallback(forecast: &Value) -> bool {
    forecast["source"] == "fallback"
}

/// A number or text of a JSON value, as the page writes it.
fn figure(value: &Value) -> Option<String> {
    match value {
        Value::Number(n) => Some(n.to_string()),
        Value::String(s) if !s.trim().is_empty() => Some(s.clone()),
        _ => None,
    }
}

/// The unit of `key` in the forecast's `units`, else `default`.
fn unit<'a>(forecast: &'a Value, key: &str, default: &'a str) -> &'a str {
    forecast["units"][key].as_str().unwrap_or(default)
}

/// A label with its unit in brackets (none when the unit is empty).
fn with_unit(label: &str, unit: &str) -> String {
    if unit.is_empty() {
        label.to_string()
    } else {
        format!("{label} ({unit})")
    }
}

/// The facts of "now" (upstream) or of the month (fallback): `(label, value)`.
fn facts(strings: &Strings, forecast: &Value) -> Vec<(String, String)> {
    if is_fallback(forecast) {
        return SEASONAL
            .iter()
            .filter_map(|(key, label, unit)| figure(&forecast[*key]).map(|v| (with_unit(strings.get(label), unit), v)))
            .collect();
    }
    CURRENT
        .iter()
        .filter_map(|(key, label, default)| {
            let value = figure(&forecast["current"][*key])?;
            Some((with_unit(strings.get(label), unit(forecast, key, default)), value))
        })
        .collect()
}

/// The columns of the forecast table the days have: `(daily key, header)`.
fn columns(strings: &Strings, forecast: &Value, days: &[Value]) -> Vec<(&'static str, String)> {
    DAILY
        .iter()
        .filter(|(key, ..)| days.iter().any(|day| figure(&day[*key]).is_some()))
        .map(|(key, label, unit_key, default)| (*key, with_unit(strings.get(label), unit(forecast, unit_key, default))))
        .collect()
}

/// The days of an upstream forecast.
fn days(forecast: &Value) -> &[Value] {
    forecast["daily"].as_array().map_or(&[], Vec::as_slice)
}

/// What the chart draws of each day.
fn chart_days(days: &[Value]) -> Vec<Day> {
    let number = |day: &Value, key: &str| day[key].as_f64().filter(|n| n.is_finite());
    days.iter()
        .map(|day| Day {
            label: day["date"].as_str().and_then(|d| d.get(8..10)).unwrap_or("").to_string(),
            high: number(day, "temperature_2m_max"),
            low: number(day, "temperature_2m_min"),
            rain: number(day, "precipitation_sum"),
        })
        .collect()
}

/// The page's content below its heading.
fn html(strings: &Strings, view: &View) -> String {
    let mut out = String::new();
    match &view.forecast {
        None => {
            let _ =
                writeln!(out, "<p class=\"notice\" role=\"status\">{}</p>", escape(strings.get("weather.unavailable")));
        }
        Some(forecast) => out.push_str(&forecast_html(strings, forecast)),
    }
    out.push_str(&alerts_html(strings, &view.alerts));
    out
}

/// Now (or the month's usual weather), the chart and the table.
fn forecast_html(strings: &Strings, forecast: &Value) -> String {
    let mut out = String::new();
    if is_fallback(forecast) {
        let _ = writeln!(out, "<p class=\"notice\" role=\"status\">{}</p>", escape(strings.get("weather.fallback")));
        if let Some(summary) = forecast["summary"].as_str() {
            let _ = writeln!(out, "<p class=\"lead\">{}</p>", escape(summary));
        }
    }
    let heading = if is_fallback(forecast) { "weather.usual" } else { "weather.now" };
    let facts = facts(strings, forecast);
    if !facts.is_empty() {
        let _ = writeln!(out, "<h2>{}</h2>\n<dl class=\"facts\">", escape(strings.get(heading)));
        for (label, value) in facts {
            let _ = writeln!(out, "<dt>{}</dt><dd>{}</dd>", escape(&label), escape(&value));
        }
        out.push_str("</dl>\n");
    }
    let days = days(forecast);
    if !days.is_empty() {
        let _ = writeln!(out, "<h2>{}</h2>", escape(strings.get("weather.forecast")));
        let labels = Labels {
            title: strings.get("weather.chart"),
            description: strings.get("weather.chart_description"),
            high: strings.get("weather.high"),
            low: strings.get("weather.low"),
            rain: strings.get("weather.rain"),
        };
        out.push_str(&chart(&chart_days(days), labels));
        out.push_str(&table(strings, forecast, days));
    }
    if let Some(updated) = forecast["updatedAt"].as_str() {
        let text = strings.fill("weather.updated", &[("time", &when(strings, updated))]);
        let _ = writeln!(out, "<p class=\"meta\">{}</p>", escape(&text));
    }
    out
}

/// A time as the upstream writes it (`2026-11-22T10:00`, RFC 3339) as people read it: the date in
/// the site's language and the hour; anything else as it is.
fn when(strings: &Strings, time: &str) -> String {
    match (time.get(..10), time.get(10..11), time.get(11..16)) {
        (Some(date), Some("T"), Some(hour)) => format!("{} {hour}", strings.date(date)),
        _ => time.to_string(),
    }
}

/// The forecast as a table: a row per day.
fn table(strings: &Strings, forecast: &Value, days: &[Value]) -> String {
    let columns = columns(strings, forecast, days);
    let mut out = format!(
        "<div class=\"table-scroll\"><table>\n<caption class=\"visually-hidden\">{}</caption>\n<thead><tr><th scope=\"col\">{}</th>",
        escape(strings.get("weather.forecast")),
        escape(strings.get("weather.date"))
    );
    for (_, header) in &columns {
        let _ = write!(out, "<th scope=\"col\">{}</th>", escape(header));
    }
    out.push_str("</tr></thead>\n<tbody>\n");
    for day in days {
        let date = day["date"].as_str().unwrap_or_default();
        let _ = write!(
            out,
            "<tr><th scope=\"row\"><time datetime=\"{}\">{}</time></th>",
            escape(date),
            escape(&strings.date(date))
        );
        for (key, _) in &columns {
            let _ = write!(out, "<td>{}</td>", escape(&figure(&day[*key]).unwrap_or_default()));
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody>\n</table></div>\n");
    out
}

/// The alerts section: the alerts, or a sentence saying there are none or the feed failed.
fn alerts_html(strings: &Strings, alerts: &Result<Option<Vec<Alert>>, Problem>) -> String {
    let mut out = format!(
        "<section aria-labelledby=\"alerts\">\n<h2 id=\"alerts\">{}</h2>\n",
        escape(strings.get("weather.alerts"))
    );
    let sentence = match alerts {
        Err(_) => Some("weather.alerts_unavailable"),
        Ok(None) => Some("weather.no_feed"),
        Ok(Some(list)) if list.is_empty() => Some("weather.no_alerts"),
        Ok(Some(_)) => None,
    };
    if let Some(key) = sentence {
        let _ = writeln!(out, "<p role=\"status\">{}</p>", escape(strings.get(key)));
    }
    if let Ok(Some(list)) = alerts.as_ref().map(Option::as_ref) {
        out.push_str("<ul class=\"records\">\n");
        for alert in list {
            out.push_str(&alert_item(strings, alert));
        }
        out.push_str("</ul>\n");
    }
    out.push_str("</section>\n");
    out
}

/// One alert: its headline (linked when the feed links it) and what CAP says of it.
fn alert_item(strings: &Strings, alert: &Alert) -> String {
    let title = escape(&alert.title);
    let headline = match alert.link.as_deref().and_then(web_address) {
        Some(link) => format!("<a href=\"{}\">{title}</a>", escape(&link)),
        None => title,
    };
    let mut out = format!("<li><h3>{headline}</h3>\n");
    let mut facts = Vec::new();
    for (label, value) in [
        ("weather.severity", alert.severity.clone()),
        ("weather.urgency", alert.urgency.clone()),
        ("weather.event", alert.event.clone()),
        ("weather.areas", Some(alert.areas.join(", ")).filter(|a| !a.is_empty())),
        ("weather.published", alert.published.clone()),
    ] {
        if let Some(value) = value {
            facts.push(format!("{}: {}", escape(strings.get(label)), escape(&value)));
        }
    }
    if !facts.is_empty() {
        let _ = writeln!(out, "<p class=\"meta\">{}</p>", facts.join(" · "));
    }
    out.push_str("</li>\n");
    out
}

/// The page's markdown twin.
fn markdown(strings: &Strings, view: &View) -> String {
    use crate::pages::markdown::escape as md;
    let mut out = format!("# {}\n\n", md(strings.get("weather.title")));
    match &view.forecast {
        None => {
            let _ = writeln!(out, "{}\n", md(strings.get("weather.unavailable")));
        }
        Some(forecast) => {
            if is_fallback(forecast) {
                let _ = writeln!(out, "> {}\n", md(strings.get("weather.fallback")));
                if let Some(summary) = forecast["summary"].as_str() {
                    let _ = writeln!(out, "{}\n", md(summary));
                }
            }
            for (label, value) in facts(strings, forecast) {
                let _ = writeln!(out, "- {}: {}", md(&label), md(&value));
            }
            out.push_str(&markdown_table(strings, forecast));
        }
    }
    let _ = writeln!(out, "\n## {}\n", md(strings.get("weather.alerts")));
    match &view.alerts {
        Err(_) => out.push_str(&format!("{}\n", md(strings.get("weather.alerts_unavailable")))),
        Ok(None) => out.push_str(&format!("{}\n", md(strings.get("weather.no_feed")))),
        Ok(Some(list)) if list.is_empty() => out.push_str(&format!("{}\n", md(strings.get("weather.no_alerts")))),
        Ok(Some(list)) => {
            for alert in list {
                let severity = alert.severity.as_deref().map(|s| format!(" ({})", md(s))).unwrap_or_default();
                let _ = writeln!(out, "- {}{severity}", md(&alert.title));
            }
        }
    }
    out
}

/// The forecast table in markdown (nothing when there are no days).
fn markdown_table(strings: &Strings, forecast: &Value) -> String {
    use crate::pages::markdown::escape as md;
    let days = days(forecast);
    if days.is_empty() {
        return String::new();
    }
    let columns = columns(strings, forecast, days);
    let mut out = format!("\n## {}\n\n| {} |", md(strings.get("weather.forecast")), md(strings.get("weather.date")));
    for (_, header) in &columns {
        let _ = write!(out, " {} |", md(header));
    }
    out.push_str(&format!("\n|{}\n", "---|".repeat(columns.len() + 1)));
    for day in days {
        let _ = write!(out, "| {} |", md(day["date"].as_str().unwrap_or_default()));
        for (key, _) in &columns {
            let _ = write!(out, " {} |", md(&figure(&day[*key]).unwrap_or_default()));
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn strings() -> Strings {
        Strings(json!({"weather": {"fallback": "Usual weather, not a forecast.", "high": "High", "low": "Low",
            "alerts_unavailable": "The alert feed is down.", "no_alerts": "No alerts."}}))
    }

    #[test]
    fn the_fallback_is_said_plainly_and_a_failed_feed_is_a_sentence() {
        let forecast = json!({"source": "fallback", "summary": "Short <rains>", "rainfall_mm": 120});
        let view = View { forecast: Some(forecast), alerts: Err(Problem::bad_request("down")) };
        let html = html(&strings(), &view);
        assert!(html.contains("Usual weather, not a forecast."), "{html}");
        assert!(html.contains("Short &lt;rains&gt;"), "{html}");
        assert!(html.contains("<dd>120</dd>"), "{html}");
        assert!(html.contains("The alert feed is down."), "{html}");
        assert!(markdown(&strings(), &view).contains("> Usual weather, not a forecast."));
    }

    #[test]
    fn an_upstream_forecast_has_a_chart_and_a_table_with_units() {
        let forecast = json!({"source": "upstream", "units": {"temperature_2m": "°F"}, "current": {"temperature_2m": 75},
            "daily": [{"date": "2026-11-22", "temperature_2m_max": 29.0, "temperature_2m_min": 17.0},
                      {"date": "2026-11-23", "temperature_2m_max": 30.5, "temperature_2m_min": "<b>"}]});
        let view = View { forecast: Some(forecast), alerts: Ok(Some(Vec::new())) };
        let html = html(&strings(), &view);
        assert!(html.contains("<svg") && html.contains("<table>"), "{html}");
        assert!(html.contains("<th scope=\"col\">High (°F)</th>"), "{html}");
        assert!(html.contains("<td>&lt;b&gt;</td>") && !html.contains("Usual weather"), "{html}");
        assert!(html.contains("No alerts."));
        assert!(markdown(&strings(), &view).contains("| 2026-11-23 | 30.5 | \\<b\\> |"));
    }

    #[test]
    fn times_read_as_a_date_and_an_hour() {
        let strings =
            Strings(json!({"dates": {"format": "{day} {month} {year}", "months": ["Jan", "Feb", "Mar", "Apr",
            "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]}}));
        assert_eq!(when(&strings, "2026-11-22T10:00"), "22 Nov 2026 10:00");
        assert_eq!(when(&strings, "2026-11-27T13:27:08Z"), "27 Nov 2026 13:27");
        assert_eq!(when(&strings, "soon"), "soon");
    }

    #[test]
    fn alerts_link_only_web_addresses() {
        let alert = Alert { title: "Flood".into(), link: Some("javascript:alert(1)".into()), ..Alert::default() };
        assert!(!alert_item(&strings(), &alert).contains("href"));
        let alert = Alert { link: Some("https://a.example/1".into()), severity: Some("Severe".into()), ..alert };
        let item = alert_item(&strings(), &alert);
        assert!(item.contains("href=\"https://a.example/1\"") && item.contains("Severe"), "{item}");
    }
}
