//! The weather page's chart (docs/spec/api-spec.md#weather-page): the coming days' highest and lowest
//! temperatures as lines and their rain as bars, in a small inline SVG that needs no script. The
//! series differ by more than colour (a solid line with dots, a dashed line with squares, bars) and
//! the legend names them; the colours are the theme's (`.chart-*` classes in `style.css`), so they
//! follow the light and dark schemes. The table under the chart carries the same figures for
//! screen readers, so the SVG is one image with a title and a description.

use std::fmt::Write;

use crate::content::text::escape;

/// One day of the chart.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Day {
    /// What the axis says under it (the day of the month).
    pub label: String,
    /// Highest temperature.
    pub high: Option<f64>,
    /// Lowest temperature.
    pub low: Option<f64>,
    /// Rain.
    pub rain: Option<f64>,
}

/// What the chart says: its title, description and the names of its series.
#[derive(Debug, Clone, Copy)]
pub struct Labels<'a> {
    /// The image's name.
    pub title: &'a str,
    /// What it shows, for those who cannot see it.
    pub description: &'a str,
    /// The highest temperatures' series.
    pub high: &'a str,
    /// The lowest temperatures'.
    pub low: &'a str,
    /// The rain's.
    pub rain: &'a str,
}

/// The drawing's size: narrow enough that its 15-pixel text stays readable when a phone scales
/// it down to the screen.
const WIDTH: f64 = 420.0;
const HEIGHT: f64 = 210.0;
const LEFT: f64 = 40.0;
const RIGHT: f64 = 44.0;
const TOP: f64 = 14.0;
/// The plot's bottom edge; below it, the days and the legend.
const BOTTOM: f64 = 150.0;
/// Room kept above the highest and below the lowest temperature, so their marks clear the axes.
const PAD: f64 = 10.0;

/// Temperatures the chart draws, in °C or °F: a little beyond what Earth has seen (−89 °C or
/// −128 °F, 57 °C or 134 °F). A figure outside is an upstream's error (`1e308`), and drawing it
/// would squash every other day to a line, or make the scale infinite.
const TEMPERATURES: std::ops::RangeInclusive<f64> = -130.0..=140.0;
/// Rain in a day the chart draws, in mm or inches (the wettest day known had under 2 m).
const RAIN: std::ops::RangeInclusive<f64> = 0.0..=2_000.0;

/// `days` with every figure outside its plausible range (or not finite) left out.
fn plausible(days: &[Day]) -> Vec<Day> {
    let within = |value: Option<f64>, range: &std::ops::RangeInclusive<f64>| value.filter(|v| range.contains(v));
    days.iter()
        .map(|day| Day {
            label: day.label.clone(),
            high: within(day.high, &TEMPERATURES),
            low: within(day.low, &TEMPERATURES),
            rain: within(day.rain, &RAIN),
        })
        .collect()
}

/// A number with at most one decimal, without a trailing `.0`.
fn short(value: f64) -> String {
    let text = format!("{value:.1}");
    text.strip_suffix(".0").unwrap_or(&text).to_string()
}

/// The smallest and largest of `values` (finite only), widened so a flat series still has height.
fn range(values: impl Iterator<Item = f64>) -> Option<(f64, f64)> {
    let (low, high) =
        values.filter(|v| v.is_finite()).fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| (lo.min(v), hi.max(v)));
    if low > high {
        return None;
    }
    Some(if high - low < 2.0 { (low - 1.0, high + 1.0) } else { (low, high) })
}

/// The chart of `days` as an SVG element (empty when no day has a figure it can draw).
pub fn chart(days: &[Day], labels: Labels<'_>) -> String {
    let days = &plausible(days);
    let temperatures = range(days.iter().flat_map(|d| [d.high, d.low]).flatten());
    let rain_max = days.iter().filter_map(|d| d.rain).filter(|r| r.is_finite() && *r >= 0.0).fold(0.0, f64::max);
    if days.is_empty() || (temperatures.is_none() && rain_max <= 0.0) {
        return String::new();
    }
    let step = (WIDTH - LEFT - RIGHT) / days.len() as f64;
    let x = |i: usize| LEFT + step * (i as f64 + 0.5);
    let mut out = format!(
        "<svg class=\"weather-chart\" viewBox=\"0 0 {WIDTH} {HEIGHT}\" role=\"img\" aria-labelledby=\"chart-title chart-desc\">\n\
         <title id=\"chart-title\">{}</title>\n<desc id=\"chart-desc\">{}</desc>\n\
         <line class=\"chart-axis\" x1=\"{LEFT}\" y1=\"{BOTTOM}\" x2=\"{}\" y2=\"{BOTTOM}\"/>\n",
        escape(labels.title),
        escape(labels.description),
        WIDTH - RIGHT
    );
    if rain_max > 0.0 {
        out.push_str(&rain_bars(days, rain_max, step, &x));
    }
    if let Some((low, high)) = temperatures {
        let y = |t: f64| BOTTOM - PAD - (t - low) / (high - low) * (BOTTOM - TOP - 2.0 * PAD);
        out.push_str(&series(days, |d| d.high, "chart-high", &x, &y));
        out.push_str(&series(days, |d| d.low, "chart-low", &x, &y));
        let _ = write!(
            out,
            "<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}°</text>\n<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}°</text>\n",
            LEFT - 6.0,
            y(high) + 4.0,
            short(high),
            LEFT - 6.0,
            y(low) + 4.0,
            short(low)
        );
    }
    for (i, day) in days.iter().enumerate() {
        let _ = writeln!(
            out,
            "<text x=\"{:.1}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
            x(i),
            BOTTOM + 16.0,
            escape(&day.label)
        );
    }
    out.push_str(&legend(labels, temperatures.is_some(), rain_max > 0.0));
    out.push_str("</svg>\n");
    out
}

/// The rain as bars from the bottom, with the largest amount written at the right-hand axis.
fn rain_bars(days: &[Day], rain_max: f64, step: f64, x: &dyn Fn(usize) -> f64) -> String {
    let mut out = String::new();
    let width = step * 0.5;
    for (i, rain) in
        days.iter().enumerate().filter_map(|(i, d)| d.rain.filter(|r| r.is_finite() && *r > 0.0).map(|r| (i, r)))
    {
        let height = rain / rain_max * (BOTTOM - TOP);
        let _ = writeln!(
            out,
            "<rect class=\"chart-rain\" x=\"{:.1}\" y=\"{:.1}\" width=\"{width:.1}\" height=\"{height:.1}\"/>",
            x(i) - width / 2.0,
            BOTTOM - height
        );
    }
    let _ = writeln!(out, "<text x=\"{}\" y=\"{}\">{} mm</text>", WIDTH - RIGHT + 6.0, TOP + 4.0, short(rain_max));
    out
}

/// One temperature series: a line through the days that have it and a mark on each.
fn series(
    days: &[Day],
    value: fn(&Day) -> Option<f64>,
    class: &str,
    x: &dyn Fn(usize) -> f64,
    y: &dyn Fn(f64) -> f64,
) -> String {
    let points: Vec<(f64, f64)> =
        days.iter().enumerate().filter_map(|(i, d)| value(d).filter(|v| v.is_finite()).map(|v| (x(i), y(v)))).collect();
    if points.is_empty() {
        return String::new();
    }
    let path: Vec<String> = points.iter().map(|(px, py)| format!("{px:.1},{py:.1}")).collect();
    let mut out = format!("<polyline class=\"{class}\" points=\"{}\"/>\n", path.join(" "));
    for (px, py) in points {
        out.push_str(&mark(class, px, py));
    }
    out
}

/// The mark of a series at a point: a dot for the highs, a square for the lows.
fn mark(class: &str, x: f64, y: f64) -> String {
    if class == "chart-high" {
        format!("<circle class=\"{class}\" cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"4\"/>\n")
    } else {
        format!("<rect class=\"{class}\" x=\"{:.1}\" y=\"{:.1}\" width=\"7\" height=\"7\"/>\n", x - 3.5, y - 3.5)
    }
}

/// The legend under the days: the mark and name of each series drawn.
fn legend(labels: Labels<'_>, temperatures: bool, rain: bool) -> String {
    let y = HEIGHT - 16.0;
    let mut out = String::new();
    let series = [
        ("chart-high", labels.high, temperatures),
        ("chart-low", labels.low, temperatures),
        ("chart-rain", labels.rain, rain),
    ];
    for (i, (class, name, _)) in series.into_iter().filter(|(_, _, drawn)| *drawn).enumerate() {
        let at = LEFT + 120.0 * i as f64;
        if class == "chart-rain" {
            let _ = writeln!(out, "<rect class=\"{class}\" x=\"{at}\" y=\"{}\" width=\"14\" height=\"12\"/>", y - 10.0);
        } else {
            let _ = writeln!(
                out,
                "<line class=\"{class}\" x1=\"{at}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>",
                y - 4.0,
                at + 20.0,
                y - 4.0
            );
            out.push_str(&mark(class, at + 10.0, y - 4.0));
        }
        let _ = writeln!(out, "<text x=\"{}\" y=\"{y}\">{}</text>", at + 26.0, escape(name));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const LABELS: Labels<'static> =
        Labels { title: "Next <days>", description: "Lines and bars", high: "High", low: "Low", rain: "Rain" };

    fn day(label: &str, high: f64, low: f64, rain: f64) -> Day {
        Day { label: label.into(), high: Some(high), low: Some(low), rain: Some(rain) }
    }

    #[test]
    fn highs_are_above_lows_and_rain_bars_scale_to_the_wettest_day() {
        let svg = chart(&[day("22", 30.0, 18.0, 10.0), day("23", 28.0, 16.0, 5.0)], LABELS);
        assert!(svg.contains("<title id=\"chart-title\">Next &lt;days&gt;</title>"), "{svg}");
        // 30 is the top of the plot, 16 its bottom, each a little inside the axes.
        assert!(svg.contains("<polyline class=\"chart-high\" points=\"124.0,24.0 292.0,"), "{svg}");
        assert!(svg.contains("<polyline class=\"chart-low\" points=\"124.0,123.4 292.0,140.0\""), "{svg}");
        assert!(svg.contains("height=\"136.0\"") && svg.contains("height=\"68.0\""), "{svg}");
        assert!(svg.contains(">30°</text>") && svg.contains(">16°</text>") && svg.contains(">10 mm</text>"));
        assert!(svg.contains(">High</text>") && svg.contains(">Rain</text>"));
    }

    /// The numbers of an SVG's attributes and texts.
    fn numbers(svg: &str) -> Vec<f64> {
        svg.split(|c: char| !(c.is_ascii_digit() || matches!(c, '.' | '-' | 'e')))
            .filter_map(|word| word.parse::<f64>().ok())
            .collect()
    }

    #[test]
    fn absurd_figures_are_left_out_and_the_scale_stays_finite() {
        let days = [
            day("22", 1e308, -1e308, 1e308),
            day("23", 30.0, 18.0, 10.0),
            Day { label: "24".into(), high: Some(f64::INFINITY), low: Some(16.0), rain: Some(f64::NAN) },
        ];
        let svg = chart(&days, LABELS);
        assert!(!svg.contains("inf") && !svg.contains("NaN") && !svg.contains("e308"), "{svg}");
        assert!(numbers(&svg).iter().all(|n| n.is_finite() && n.abs() <= 1000.0), "{svg}");
        assert!(svg.contains(">30°</text>") && svg.contains(">16°</text>") && svg.contains(">10 mm</text>"), "{svg}");
        let only_absurd = [day("22", 1e308, -1e308, -1e308)];
        assert_eq!(chart(&only_absurd, LABELS), "", "nothing to draw");
    }

    #[test]
    fn missing_and_odd_figures_never_break_the_chart() {
        assert_eq!(chart(&[], LABELS), "");
        assert_eq!(chart(&[Day { label: "1".into(), ..Day::default() }], LABELS), "");
        let odd = Day { label: "<x>".into(), high: Some(f64::NAN), low: Some(20.0), rain: Some(-3.0) };
        let svg = chart(&[odd], LABELS);
        assert!(
            svg.contains("&lt;x&gt;") && !svg.contains("NaN") && !svg.contains("chart-rain"),
            "no rain, no bars: {svg}"
        );
        assert!(svg.contains(">21°</text>") && svg.contains(">19°</text>"), "a flat series is widened: {svg}");
    }
}
