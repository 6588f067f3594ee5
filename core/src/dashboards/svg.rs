//! Charts as inline SVG, drawn at build time so no script is needed (docs/content.md#data-pages).
//!
//! Bars run across the page, each label on its own line above its bars, so long labels and
//! negative values fit a phone's width; lines run over dates, months or steps. Colours are
//! classes (`s0`..`s5`) the theme's stylesheet fills from custom properties, text is
//! `currentColor`, so the dark scheme recolours them; every chart has `role="img"`, a `<title>`
//! and a `<desc>` summarising its data, and each mark a `<title>` with its label and value. The
//! same numbers are in the table beside the chart.

use std::fmt::Write;

use super::numbers::Format;
use super::shape::{Chart, Kind};
use crate::content::i18n::Strings;
use crate::content::text::escape;

/// The drawing's width in SVG units; it scales to its box.
const WIDTH: f64 = 400.0;
/// Room for the value written after a bar.
const VALUE_ROOM: f64 = 96.0;
/// How many series get a colour of their own (then they repeat, with the legend and table to tell).
const COLOURS: usize = 6;

/// What every chart is drawn with: the interface text and the number format.
pub struct Pen<'a> {
    /// The interface text (`data.*` describes the charts).
    pub strings: &'a Strings,
    /// How numbers are written.
    pub format: Format,
}

impl Pen<'_> {
    fn number(&self, value: f64) -> String {
        self.format.number(value)
    }
}

/// A coordinate, rounded, never `NaN` or infinite.
fn at(value: f64) -> String {
    if value.is_finite() {
        format!("{:.1}", value).trim_end_matches(".0").to_string()
    } else {
        "0".into()
    }
}

/// Where `value` falls between `lo` and `hi`, 0 to 1 (halved first, so the widest range of
/// finite numbers does not overflow).
fn share(value: f64, lo: f64, hi: f64) -> f64 {
    let span = hi / 2.0 - lo / 2.0;
    if span <= 0.0 || !span.is_finite() {
        return 0.0;
    }
    ((value / 2.0 - lo / 2.0) / span).clamp(0.0, 1.0)
}

/// The smallest and largest values of a chart (0 and 1 when it has none).
fn extent(chart: &Chart) -> (f64, f64) {
    let values = chart.series.iter().flat_map(|s| s.values.iter().flatten()).filter(|v| v.is_finite());
    let (lo, hi) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| (lo.min(*v), hi.max(*v)));
    if lo > hi {
        (0.0, 1.0)
    } else {
        (lo, hi)
    }
}

/// The summary of a chart for its `<desc>`: its kind and size, its highest and lowest points.
pub fn describe(chart: &Chart, pen: &Pen) -> String {
    let points: Vec<(&str, f64)> = chart
        .series
        .iter()
        .flat_map(|s| s.values.iter().zip(&chart.labels).filter_map(|(v, l)| v.map(|v| (l.as_str(), v))))
        .collect();
    if let [(label, value)] = points.as_slice() {
        return pen.strings.fill("data.one_point", &[("label", label), ("value", &pen.number(*value))]);
    }
    let key = if chart.kind == Kind::Line { "data.line_chart" } else { "data.bar_chart" };
    let count = points.len().to_string();
    let first = chart.labels.first().map_or("", String::as_str);
    let last = chart.labels.last().map_or("", String::as_str);
    let mut text = pen.strings.fill(key, &[("count", &count), ("first", first), ("last", last)]);
    let max = points.iter().copied().reduce(|a, b| if b.1 > a.1 { b } else { a });
    let min = points.iter().copied().reduce(|a, b| if b.1 < a.1 { b } else { a });
    if let (Some(max), Some(min)) = (max, min) {
        let (high, low) = (pen.number(max.1), pen.number(min.1));
        text.push(' ');
        text.push_str(
            &pen.strings
                .fill("data.extremes", &[("max", &high), ("max_label", max.0), ("min", &low), ("min_label", min.0)]),
        );
    }
    if chart.series.len() > 1 {
        let names: Vec<&str> = chart.series.iter().map(|s| s.name.as_str()).collect();
        text.push(' ');
        text.push_str(&pen.strings.fill("data.series", &[("names", &names.join(", "))]));
    }
    if let Some(unit) = &chart.unit {
        text.push(' ');
        text.push_str(&pen.strings.fill("data.unit", &[("unit", unit)]));
    }
    text
}

/// The chart as an `<svg>` element; `id` makes its title's and description's ids unique.
pub fn draw(chart: &Chart, title: &str, id: &str, pen: &Pen) -> String {
    let (body, height) = match chart.kind {
        Kind::Bar => bars(chart, pen),
        Kind::Line => lines(chart, pen),
    };
    let id = escape(id);
    format!(
        "<svg class=\"chart\" role=\"img\" viewBox=\"0 0 {w} {h}\" aria-labelledby=\"{id}-t {id}-d\" \
         xmlns=\"http://www.w3.org/2000/svg\"><title id=\"{id}-t\">{title}</title><desc id=\"{id}-d\">{desc}</desc>\
         {legend}{body}</svg>",
        w = at(WIDTH),
        h = at(height),
        title = escape(title),
        desc = escape(&describe(chart, pen)),
        legend = legend(chart),
    )
}

/// The legend of a chart of several series (a swatch and a name each, one per line).
fn legend(chart: &Chart) -> String {
    if chart.series.len() < 2 {
        return String::new();
    }
    let mut out = String::from("<g class=\"legend\" aria-hidden=\"true\">");
    for (i, s) in chart.series.iter().enumerate() {
        let y = 4.0 + 18.0 * i as f64;
        let _ = write!(
            out,
            "<rect class=\"s{c}\" x=\"0\" y=\"{y}\" width=\"12\" height=\"12\"/><text x=\"18\" y=\"{ty}\">{name}</text>",
            c = i % COLOURS,
            y = at(y),
            ty = at(y + 11.0),
            name = escape(&s.name)
        );
    }
    out.push_str("</g>");
    out
}

fn legend_height(chart: &Chart) -> f64 {
    if chart.series.len() < 2 {
        0.0
    } else {
        18.0 * chart.series.len() as f64 + 8.0
    }
}

/// Bars across: per label, its name on a line, then a bar per series from the zero line, with
/// its value after it; an axis with the smallest, zero and the largest value below.
fn bars(chart: &Chart, pen: &Pen) -> (String, f64) {
    let (lo, hi) = extent(chart);
    let (lo, hi) = (lo.min(0.0), hi.max(0.0));
    let (lo, hi) = if lo == hi { (lo, lo + 1.0) } else { (lo, hi) };
    let (left, right) = (2.0, WIDTH - VALUE_ROOM);
    let x = |v: f64| left + share(v, lo, hi) * (right - left);
    let mut out = String::new();
    let mut y = legend_height(chart);
    let top = y;
    for (i, label) in chart.labels.iter().enumerate() {
        let _ = write!(out, "<text class=\"label\" x=\"0\" y=\"{}\">{}</text>", at(y + 14.0), escape(&clip(label, 58)));
        y += 20.0;
        for (j, s) in chart.series.iter().enumerate() {
            let value = s.values.get(i).copied().flatten();
            let text = value.map_or_else(|| "–".to_string(), |v| pen.number(v));
            let what = if chart.series.len() > 1 { format!("{label}, {}", s.name) } else { label.clone() };
            if let Some(v) = value {
                let (a, b) = (x(0.0).min(x(v)), x(0.0).max(x(v)));
                let _ = write!(
                    out,
                    "<rect class=\"bar s{c}\" x=\"{x}\" y=\"{y}\" width=\"{w}\" height=\"14\"><title>{t}: {n}</title></rect>",
                    c = j % COLOURS,
                    x = at(a),
                    y = at(y),
                    w = at((b - a).max(if v == 0.0 { 0.0 } else { 1.0 })),
                    t = escape(&what),
                    n = escape(&text),
                );
            }
            let end = value.map_or(x(0.0), |v| x(0.0).max(x(v)));
            let _ = write!(
                out,
                "<text class=\"value\" x=\"{}\" y=\"{}\">{}</text>",
                at(end + 4.0),
                at(y + 12.0),
                escape(&text)
            );
            y += 18.0;
        }
        y += 6.0;
    }
    bar_axis(&mut out, chart, pen, (lo, hi), (left, right), (top, y));
    (out, y + 42.0)
}

/// The axes of a bar chart from `top` to `bottom`: the zero line, the value line with the
/// smallest, zero and the largest value, and the unit's title.
fn bar_axis(
    out: &mut String,
    chart: &Chart,
    pen: &Pen,
    (lo, hi): (f64, f64),
    (left, right): (f64, f64),
    (top, y): (f64, f64),
) {
    let x = |v: f64| left + share(v, lo, hi) * (right - left);
    let _ =
        write!(out, "<line class=\"axis\" x1=\"{z}\" x2=\"{z}\" y1=\"{}\" y2=\"{}\"/>", at(top), at(y), z = at(x(0.0)));
    let _ = write!(
        out,
        "<line class=\"axis\" x1=\"{}\" x2=\"{}\" y1=\"{y0}\" y2=\"{y0}\"/>",
        at(left),
        at(right),
        y0 = at(y)
    );
    let mut ticks = vec![lo, hi];
    if lo < 0.0 && hi > 0.0 {
        ticks.push(0.0);
    }
    for (k, v) in ticks.iter().enumerate() {
        let anchor = match k {
            0 => "start",
            1 => "end",
            _ => "middle",
        };
        let _ = write!(
            out,
            "<text class=\"tick\" x=\"{}\" y=\"{}\" text-anchor=\"{anchor}\">{}</text>",
            at(x(*v)),
            at(y + 16.0),
            escape(&pen.number(*v))
        );
    }
    let axis = axis_title(chart, pen);
    let _ = write!(
        out,
        "<text class=\"axis-title\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
        at((left + right) / 2.0),
        at(y + 34.0),
        escape(&axis)
    );
}

/// The title of the value axis: the unit, else "Value" in the interface language.
fn axis_title(chart: &Chart, pen: &Pen) -> String {
    chart.unit.clone().unwrap_or_else(|| pen.strings.get("data.value").to_string())
}

/// `text` cut to `max` characters, with an ellipsis (the table has it whole).
fn clip(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let cut: String = text.chars().take(max - 1).collect();
    format!("{cut}…")
}

/// Round steps for an axis from `lo` to `hi`: about four of 1, 2 or 5 times a power of ten.
fn ticks(lo: f64, hi: f64) -> Vec<f64> {
    let raw = (hi / 4.0 - lo / 4.0).abs();
    if !raw.is_finite() || raw == 0.0 {
        return vec![lo, hi];
    }
    let power = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0].iter().map(|m| m * power).find(|s| *s >= raw).unwrap_or(10.0 * power);
    let start = (lo / step).floor() * step;
    let mut out = Vec::new();
    let mut k = 0.0;
    while out.len() < 12 {
        let v = start + k * step;
        out.push(v);
        if v >= hi {
            break;
        }
        k += 1.0;
    }
    if out.iter().any(|v| !v.is_finite()) || out.len() < 2 {
        return vec![lo, hi];
    }
    out
}

/// Lines over the labels: the value axis on the start side with round steps and grid lines,
/// labels below (some skipped when many), a circle per point with its label and value.
fn lines(chart: &Chart, pen: &Pen) -> (String, f64) {
    let (lo, hi) = extent(chart);
    let (lo, hi) = if lo == hi { (lo - 1.0, hi + 1.0) } else { (lo, hi) };
    let steps = ticks(lo, hi);
    let (lo, hi) = (steps[0].min(lo), steps[steps.len() - 1].max(hi));
    // Room for the values' ticks before, and for half the last label after.
    let (left, right) = (64.0, WIDTH - 32.0);
    let top = legend_height(chart) + 24.0;
    let bottom = top + 180.0;
    let n = chart.labels.len();
    let x = |i: usize| if n < 2 { (left + right) / 2.0 } else { left + (right - left) * i as f64 / (n - 1) as f64 };
    let y = |v: f64| bottom - share(v, lo, hi) * (bottom - top);
    let mut out = String::new();
    let _ = write!(
        out,
        "<text class=\"axis-title\" x=\"0\" y=\"{}\">{}</text>",
        at(top - 10.0),
        escape(&axis_title(chart, pen))
    );
    for v in &steps {
        let _ = write!(
            out,
            "<line class=\"grid\" x1=\"{l}\" x2=\"{r}\" y1=\"{y}\" y2=\"{y}\"/><text class=\"tick\" x=\"{t}\" y=\"{ty}\" text-anchor=\"end\">{n}</text>",
            l = at(left),
            r = at(right),
            y = at(y(*v)),
            t = at(left - 6.0),
            ty = at(y(*v) + 4.0),
            n = escape(&pen.number(*v))
        );
    }
    let every = n.div_ceil(5).max(1);
    for (i, label) in chart.labels.iter().enumerate().filter(|(i, _)| i % every == 0) {
        let _ = write!(
            out,
            "<text class=\"tick\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
            at(x(i)),
            at(bottom + 16.0),
            escape(&clip(label, 12))
        );
    }
    if !chart.axis.is_empty() {
        let _ = write!(
            out,
            "<text class=\"axis-title\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
            at((left + right) / 2.0),
            at(bottom + 36.0),
            escape(&chart.axis)
        );
    }
    line_series(&mut out, chart, pen, &x, &y);
    (out, bottom + 44.0)
}

/// The lines of a chart's series (broken where a value is missing) and a circle per point.
fn line_series(out: &mut String, chart: &Chart, pen: &Pen, x: &dyn Fn(usize) -> f64, y: &dyn Fn(f64) -> f64) {
    for (j, s) in chart.series.iter().enumerate() {
        let mut path = String::new();
        let mut pen_down = false;
        for (i, value) in s.values.iter().enumerate() {
            match value {
                Some(v) => {
                    let _ = write!(path, "{}{},{} ", if pen_down { "L" } else { "M" }, at(x(i)), at(y(*v)));
                    pen_down = true;
                }
                None => pen_down = false,
            }
        }
        let _ = write!(out, "<path class=\"line s{c}\" d=\"{}\"/>", path.trim_end(), c = j % COLOURS);
        for (i, value) in s.values.iter().enumerate() {
            let (Some(v), Some(label)) = (value, chart.labels.get(i)) else { continue };
            let what = if chart.series.len() > 1 { format!("{label}, {}", s.name) } else { label.clone() };
            let _ = write!(
                out,
                "<circle class=\"point s{c}\" cx=\"{}\" cy=\"{}\" r=\"3.5\"><title>{}: {}</title></circle>",
                at(x(i)),
                at(y(*v)),
                escape(&what),
                escape(&pen.number(*v)),
                c = j % COLOURS
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_are_round_and_cover_the_range() {
        assert_eq!(ticks(0.0, 100.0), vec![0.0, 50.0, 100.0]);
        let t = ticks(2000.0, 8200.0);
        assert!(t[0] <= 2000.0 && *t.last().unwrap_or(&0.0) >= 8200.0, "{t:?}");
        assert_eq!(ticks(f64::MIN, f64::MAX), vec![f64::MIN, f64::MAX]);
    }

    #[test]
    fn shares_stay_between_zero_and_one_even_for_the_widest_range() {
        assert_eq!(share(5.0, 0.0, 10.0), 0.5);
        assert_eq!(share(f64::MAX, -f64::MAX, f64::MAX), 1.0);
        assert_eq!(share(1.0, 1.0, 1.0), 0.0);
        assert_eq!(at(f64::NAN), "0");
        assert_eq!(clip("Democratic Republic of the Congo", 10), "Democrati…");
    }
}
