//! The data pages and the alerts page (docs/content.md#data-pages): `/data` lists every snapshot
//! of `data/` with its headline figures and date, `/data/<name>` shows one as charts beside tables
//! (read by the core's generic rule, `portal_core::dashboards`), `/alerts` the curated alerts,
//! current ones first. The weather fallback has no page here, and the alerts only their own.

use anyhow::Result;
use portal_core::dashboards::numbers::Format;
use portal_core::dashboards::units;
use portal_core::dashboards::{alerts, analyse, snapshot_html, snapshot_markdown, Alert, Snapshot};
use serde_json::{json, Value};
use tera::Context;

use super::{facts, label, Renderer};
use crate::build::write::file::OutFile;
use crate::load::data::json_url;
use crate::sanitize::markdown::{escape, link};

/// The snapshot of the alerts, which has a page of its own rather than charts.
pub const ALERTS: &str = "alerts";
/// The URL of the alerts page.
pub use portal_core::routing::pages::ALERTS as ALERTS_URL;
/// The URL of the index of data pages.
pub use portal_core::routing::pages::DATA as DATA_URL;

/// The snapshots that get a data page, by name, read by the rule.
pub fn snapshots<'a>(r: &Renderer<'a>) -> Vec<(&'a str, Snapshot)> {
    r.content.datasets.iter().filter(|(name, _)| *name != ALERTS).map(|(name, v)| (name.as_str(), analyse(v))).collect()
}

/// The alerts of the site (none without `data/alerts`), current ones first.
pub fn site_alerts(r: &Renderer) -> Vec<Alert> {
    r.content.datasets.get(ALERTS).map(|data| alerts(data, r.now)).unwrap_or_default()
}

/// The data pages and the alerts page, each with its twin: `/data` when the site has snapshots,
/// `/alerts` when it has alerts (a content page at either URL is otherwise a page of its own).
pub fn pages(r: &Renderer) -> Result<Vec<OutFile>> {
    let snapshots = snapshots(r);
    let mut files = Vec::new();
    if !snapshots.is_empty() {
        files.extend(index(r, &snapshots)?);
    }
    for (name, snapshot) in &snapshots {
        files.extend(snapshot_page(r, name, snapshot)?);
    }
    if r.content.datasets.contains_key(ALERTS) {
        files.extend(alerts_page(r)?);
    }
    Ok(files)
}

/// A snapshot's title: its own `title`, else its name made readable.
fn title(name: &str, snapshot: &Snapshot) -> String {
    snapshot.title.clone().unwrap_or_else(|| label(name))
}

/// What the index says of each snapshot.
fn summary(r: &Renderer, name: &str, snapshot: &Snapshot, format: &Format) -> Value {
    let figures: Vec<Value> = snapshot
        .summary()
        .iter()
        .map(|f| json!({"label": super::label(&f.name), "value": units::write(&format.number(f.value), f.unit.as_deref())}))
        .collect();
    let charts = match snapshot.charts() {
        1 => r.strings().get("data.chart_one").to_string(),
        n => r.strings().fill("data.charts", &[("count", &n.to_string())]),
    };
    json!({
        "name": name, "url": format!("{DATA_URL}/{name}"), "title": title(name, snapshot),
        "updated": snapshot.updated, "description": snapshot.description, "figures": figures,
        "charts": charts, "json": json_url(name),
    })
}

fn index(r: &Renderer, snapshots: &[(&str, Snapshot)]) -> Result<[OutFile; 2]> {
    let format = Format::of(r.strings());
    let items: Vec<Value> = snapshots.iter().map(|(name, s)| summary(r, name, s, &format)).collect();
    let strings = r.strings();
    let mut md = format!("# {}\n\n{}\n\n", escape(strings.get("data.title")), escape(strings.get("data.lead")));
    for item in &items {
        let text = |k: &str| item[k].as_str().unwrap_or_default().to_string();
        md.push_str(&format!("## {}\n\n", link(&text("title"), &text("url"))));
        if let Some(updated) = item["updated"].as_str() {
            md.push_str(&format!("{} {}\n\n", escape(strings.get("data.updated")), escape(&strings.date(updated))));
        }
        for figure in item["figures"].as_array().into_iter().flatten() {
            let (l, v) = (figure["label"].as_str().unwrap_or_default(), figure["value"].as_str().unwrap_or_default());
            md.push_str(&format!("- {}: {}\n", escape(l), escape(v)));
        }
        md.push_str(&format!("- {}\n\n", escape(&text("charts"))));
    }
    if items.is_empty() {
        md.push_str(&format!("{}\n", escape(strings.get("data.empty"))));
    }
    let mut context = Context::new();
    context.insert("snapshots", &items);
    r.generated("data.html", DATA_URL, context, md)
}

fn snapshot_page(r: &Renderer, name: &str, snapshot: &Snapshot) -> Result<[OutFile; 2]> {
    let strings = r.strings();
    let url = format!("{DATA_URL}/{name}");
    let title = title(name, snapshot);
    let json = json_url(name);
    let mut md = format!("# {}\n\n", escape(&title));
    if let Some(description) = &snapshot.description {
        md.push_str(&format!("{}\n\n", escape(description)));
    }
    if let Some(updated) = &snapshot.updated {
        md.push_str(&format!("{} {}\n\n", escape(strings.get("data.updated")), escape(&strings.date(updated))));
    }
    if let Some(source) = &snapshot.source {
        md.push_str(&format!("{} {}\n\n", escape(strings.get("data.source")), escape(source)));
    }
    md.push_str(&format!("{} <{}{json}>\n", escape(strings.get("data.json")), r.content.site.base()));
    md.push_str(&snapshot_markdown(snapshot, strings));
    let mut context = Context::new();
    context.insert("title", &title);
    context.insert("description", &snapshot.description);
    context.insert("updated", &snapshot.updated);
    context.insert("source", &snapshot.source);
    context.insert("json", &json);
    context.insert("body", &snapshot_html(snapshot, strings));
    r.generated("snapshot.html", &url, context, md)
}

/// An alert for a template: the alert, its dates as the language writes them.
pub fn alert_value(r: &Renderer, alert: &Alert) -> Value {
    let strings = r.strings();
    let mut value = serde_json::to_value(alert).unwrap_or(Value::Null);
    // Numbers in the message can be tapped; everything else is escaped (docs/content.md#alerts).
    value["message_html"] = json!(alert.message.as_deref().map(|m| facts::linkify(m).0));
    value["areas"] = json!(area_names(r, alert));
    value["issued_text"] = json!(alert.issued.as_deref().map(|d| strings.date(d)));
    value["ends_text"] = json!(alert.ends.as_deref().map(|d| strings.date(d)));
    value["anchor"] = json!(alert.id.as_deref().map(|id| {
        let slug: String =
            id.chars().map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '-' }).collect();
        format!("alert-{slug}")
    }));
    value
}

/// Where an alert applies, each zone by its name (`zone-b` is "Zone B").
fn area_names(r: &Renderer, alert: &Alert) -> Vec<String> {
    alert.areas.iter().map(|a| r.content.site.zone_name(a, r.strings())).collect()
}

/// One alert as a markdown list item.
pub fn alert_markdown(r: &Renderer, alert: &Alert) -> String {
    let strings = r.strings();
    let mut line = String::from("- ");
    if alert.ended {
        line.push_str(&format!("({}) ", escape(strings.get("alerts.ended"))));
    }
    if let Some(level) = &alert.level {
        line.push_str(&format!("**{}**: ", escape(level)));
    }
    line.push_str(&match &alert.link {
        Some(url) => link(&alert.title, url),
        None => escape(&alert.title),
    });
    if !alert.areas.is_empty() {
        let areas = area_names(r, alert).join(", ");
        line.push_str(&format!(" ({} {})", escape(strings.get("alerts.area")), escape(&areas)));
    }
    if let Some(ends) = &alert.ends {
        let key = if alert.ended { "alerts.ended_on" } else { "alerts.until" };
        line.push_str(&format!(". {}", escape(&strings.fill(key, &[("date", &strings.date(ends))]))));
    }
    if let Some(message) = &alert.message {
        line.push_str(&format!(": {}", facts::linkify(message).1));
    }
    line.push('\n');
    line
}

fn alerts_page(r: &Renderer) -> Result<[OutFile; 2]> {
    let strings = r.strings();
    let all = site_alerts(r);
    let (ended, current): (Vec<&Alert>, Vec<&Alert>) = all.iter().partition(|a| a.ended);
    let mut md = format!("# {}\n\n{}\n", escape(strings.get("alerts.title")), escape(strings.get("alerts.lead")));
    for (heading, group) in [("alerts.current", &current), ("alerts.ended_heading", &ended)] {
        if !group.is_empty() {
            md.push_str(&format!("\n## {}\n\n", escape(strings.get(heading))));
            group.iter().for_each(|a| md.push_str(&alert_markdown(r, a)));
        }
    }
    if all.is_empty() {
        md.push_str(&format!("\n{}\n", escape(strings.get("alerts.empty"))));
    }
    let updated = r.content.datasets.get(ALERTS).and_then(|d| d.get("updated").or_else(|| d.get("updatedAt")));
    let mut context = Context::new();
    context.insert("current", &current.iter().map(|a| alert_value(r, a)).collect::<Vec<_>>());
    context.insert("ended", &ended.iter().map(|a| alert_value(r, a)).collect::<Vec<_>>());
    context.insert("updated", &updated.and_then(Value::as_str));
    context.insert("json", &r.content.datasets.contains_key(ALERTS).then(|| json_url(ALERTS)));
    r.generated("alerts.html", ALERTS_URL, context, md)
}
