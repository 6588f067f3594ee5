//! The generic rule (docs/content.md#data-pages): what a snapshot of `data/` is, part by part.
//!
//! - top-level numbers are headline figures; numbers beside other things deeper down are figures
//!   of their section;
//! - a map of names to numbers is a bar chart;
//! - a list of objects with a text field and number fields is a bar chart (one series per number
//!   field), or a line chart when the text field holds dates or months (`2025-06`);
//! - a chart object (`labels` with `values`, or with `series: [{name, values}]`; or
//!   `points: [{x, y}]`) is drawn as its `type` says (`bar`, `line`), else as its labels suggest;
//! - text is a list of facts; anything else is a table. Nothing is dropped, and text stays text
//!   (a string `"NaN"` or `"1,200"` is never read as a number).

use std::collections::HashSet;

use serde_json::{Map, Value};

use super::units;
use crate::content::scalar_text;

/// Keys of the top level that say what the snapshot is rather than hold its data.
pub const META_KEYS: &[&str] = &["updated", "updatedAt", "updated_at", "date", "source", "title", "description"];
/// Keys of a chart object that describe it (the rest are shown as its notes).
const CHART_KEYS: &[&str] = &["id", "title", "name", "type", "kind", "unit", "labels", "values", "series", "points"];
/// More categories than this are shown as a table only: a chart of them could not be read.
pub const MAX_DRAWN: usize = 100;

/// A cell of a table.
#[derive(Debug, Clone, PartialEq)]
pub enum Cell {
    /// A number, written as the interface language writes numbers.
    Number(f64),
    /// Text, as written (escaped where it is shown).
    Text(String),
    /// No value.
    Empty,
}

/// A headline figure: a name, a number and what it measures.
#[derive(Debug, Clone, PartialEq)]
pub struct Figure {
    /// What it counts.
    pub name: String,
    /// The number.
    pub value: f64,
    /// Its unit (`%`, `USD`...), when the data says it (see [`units`]).
    pub unit: Option<String>,
}

/// A table: its column headings and rows of cells.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Table {
    /// The headings.
    pub columns: Vec<String>,
    /// The unit of each column's numbers, where the data says it (missing ones have none).
    pub units: Vec<Option<String>>,
    /// The rows, each as long as `columns`.
    pub rows: Vec<Vec<Cell>>,
}

/// How a chart is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Bars, one per label and series.
    Bar,
    /// Lines through the points, one per series (labels are dates, months or steps).
    Line,
}

/// One series of a chart: a value (or none) per label.
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    /// Its name (the legend's).
    pub name: String,
    /// A value per label; `None` where there is none.
    pub values: Vec<Option<f64>>,
}

/// A chart and the table of its numbers.
#[derive(Debug, Clone, PartialEq)]
pub struct Chart {
    /// Bars or lines.
    pub kind: Kind,
    /// The unit of the values, when the data says it.
    pub unit: Option<String>,
    /// What the labels are (the category axis's title).
    pub axis: String,
    /// The labels, one per point.
    pub labels: Vec<String>,
    /// The series.
    pub series: Vec<Series>,
    /// The same numbers (and the other fields of records) as a table.
    pub table: Table,
    /// Other values the chart's data carries (a `target`...), as facts.
    pub notes: Vec<(String, String)>,
}

/// What one section of a data page shows.
#[derive(Debug, Clone, PartialEq)]
pub enum Part {
    /// Figures: a name, a number and its unit each.
    Figures(Vec<Figure>),
    /// A chart with its table.
    Chart(Chart),
    /// Text values: a name and a text each.
    Facts(Vec<(String, String)>),
    /// Anything else, as a table.
    Table(Table),
}

/// A section of a data page.
#[derive(Debug, Clone, PartialEq)]
pub struct Section {
    /// Its anchor, unique on the page.
    pub id: String,
    /// Its heading (`None` for the snapshot's headline figures and facts).
    pub title: Option<String>,
    /// What it shows.
    pub part: Part,
}

/// A snapshot read by the rule.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Snapshot {
    /// Its `title`, when it has one.
    pub title: Option<String>,
    /// Its `description`.
    pub description: Option<String>,
    /// When its figures are from (`updated`, `updatedAt`, `updated_at` or `date`).
    pub updated: Option<String>,
    /// Where its figures come from (`source`).
    pub source: Option<String>,
    /// Its sections, in the order of the data.
    pub sections: Vec<Section>,
}

impl Snapshot {
    /// The headline figures: the top level's numbers.
    pub fn headlines(&self) -> &[Figure] {
        self.sections
            .iter()
            .find_map(|s| match (&s.title, &s.part) {
                (None, Part::Figures(figures)) => Some(figures.as_slice()),
                _ => None,
            })
            .unwrap_or(&[])
    }

    /// The figures the index of data pages shows: the headlines, else the first figures or
    /// the first chart of one series further down (a `totals:` map), four at most.
    pub fn summary(&self) -> Vec<Figure> {
        let found = self.sections.iter().find_map(|s| match &s.part {
            Part::Figures(figures) => Some(figures.clone()),
            Part::Chart(c) if c.series.len() == 1 && c.kind == Kind::Bar => {
                let figure = |(l, v): (&String, &Option<f64>)| {
                    v.map(|value| Figure { name: l.clone(), value, unit: c.unit.clone() })
                };
                Some(c.labels.iter().zip(&c.series[0].values).filter_map(figure).collect())
            }
            _ => None,
        });
        let figures = if self.headlines().is_empty() { found.unwrap_or_default() } else { self.headlines().to_vec() };
        figures.into_iter().take(4).collect()
    }

    /// How many charts it draws.
    pub fn charts(&self) -> usize {
        self.sections.iter().filter(|s| matches!(s.part, Part::Chart(_))).count()
    }
}

/// Reads a snapshot (the parsed YAML or JSON of one `data/` file) by the rule.
pub fn analyse(value: &Value) -> Snapshot {
    let mut snapshot = Snapshot::default();
    let mut walker = Walker::default();
    match value {
        Value::Object(map) => {
            let text = |key: &str| map.get(key).and_then(scalar_text);
            snapshot.title = text("title");
            snapshot.description = text("description");
            snapshot.updated = ["updatedAt", "updated", "updated_at", "date"].iter().find_map(|k| text(k));
            snapshot.source = text("source");
            let data: Map<String, Value> = map
                .iter()
                .filter(|(k, v)| !(META_KEYS.contains(&k.as_str()) && scalar_text(v).is_some()))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect();
            walker.object(&[], &data);
        }
        other => walker.value(&[], other),
    }
    snapshot.sections = walker.sections;
    snapshot
}

/// `byNationality`, `by_sex`, `required-usd` as headings: `By nationality`, `By sex`, `Required usd`.
pub fn humanize(key: &str) -> String {
    let mut words = String::with_capacity(key.len() + 4);
    let mut previous_lower = false;
    for c in key.chars() {
        if c == '_' || c == '-' {
            words.push(' ');
            previous_lower = false;
            continue;
        }
        if c.is_uppercase() && previous_lower {
            words.push(' ');
        }
        previous_lower = c.is_lowercase() || c.is_ascii_digit();
        words.push(c);
    }
    let trimmed = words.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut chars = trimmed.chars();
    let Some(first) = chars.next() else { return key.to_string() };
    let rest: String = chars.collect();
    // Words in capitals (`USD`, `GBV`) stay so; the rest of a camel-cased key is lower-cased.
    let rest = rest
        .split(' ')
        .map(|w| if w.chars().all(|c| !c.is_lowercase()) { w.to_string() } else { w.to_lowercase() })
        .collect::<Vec<_>>()
        .join(" ");
    format!("{}{rest}", first.to_uppercase())
}

/// Whether `text` is a date or a month: `2025-06`, `2025-06-30`, or a date-time.
pub fn is_date_like(text: &str) -> bool {
    let b = text.as_bytes();
    let digits = |range: std::ops::Range<usize>| b.get(range).is_some_and(|s| s.iter().all(u8::is_ascii_digit));
    let month = digits(0..4) && b.get(4) == Some(&b'-') && digits(5..7);
    month && (b.len() == 7 || (b.get(7) == Some(&b'-') && digits(8..10)))
}

/// Any value as one line of text: maps as `key: value; ...`, lists joined with commas.
pub fn flat_text(value: &Value) -> String {
    match value {
        Value::Null => String::new(),
        Value::Array(items) => items.iter().map(flat_text).collect::<Vec<_>>().join(", "),
        Value::Object(map) => map.iter().map(|(k, v)| format!("{k}: {}", flat_text(v))).collect::<Vec<_>>().join("; "),
        other => scalar_text(other).unwrap_or_default(),
    }
}

/// A value as a table cell.
fn cell(value: Option<&Value>) -> Cell {
    match value {
        None | Some(Value::Null) => Cell::Empty,
        Some(Value::Number(n)) => n.as_f64().map_or_else(|| Cell::Text(n.to_string()), Cell::Number),
        Some(other) => Cell::Text(flat_text(other)),
    }
}

/// The sections found so far, and the anchors they took.
#[derive(Default)]
struct Walker {
    sections: Vec<Section>,
    ids: HashSet<String>,
    /// The `currency` of the nearest mapping around, which amounts of money are in.
    currency: Option<String>,
}

impl Walker {
    fn push(&mut self, path: &[String], title: Option<String>, part: Part) {
        let base: String = path
            .iter()
            .flat_map(|p| p.chars().chain(std::iter::once('-')))
            .map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '-' })
            .collect::<String>()
            .split('-')
            .filter(|w| !w.is_empty())
            .collect::<Vec<_>>()
            .join("-");
        let base = if base.is_empty() { "figures".to_string() } else { format!("d-{base}") };
        let mut id = base.clone();
        let mut n = 2;
        while !self.ids.insert(id.clone()) {
            id = format!("{base}-{n}");
            n += 1;
        }
        self.sections.push(Section { id, title, part });
    }

    fn title(path: &[String]) -> Option<String> {
        (!path.is_empty()).then(|| path.iter().map(|p| humanize(p)).collect::<Vec<_>>().join(" · "))
    }

    fn value(&mut self, path: &[String], value: &Value) {
        match value {
            Value::Object(map) => self.object(path, map),
            Value::Array(items) => self.array(path, items),
            other => {
                let name = path.last().map_or_else(String::new, |p| humanize(p));
                self.push(path, None, Part::Facts(vec![(name, flat_text(other))]));
            }
        }
    }

    fn object(&mut self, path: &[String], map: &Map<String, Value>) {
        if let Some(chart) = chart_object(map, Self::title(path)) {
            let title = title_of(map).or_else(|| Self::title(path));
            return self.push(path, title, Part::Chart(chart));
        }
        let outer = self.currency.clone();
        if let Some(currency) = map.get("currency").and_then(Value::as_str) {
            self.currency = Some(currency.trim().to_string());
        }
        self.object_parts(path, map);
        self.currency = outer;
    }

    /// The unit and scale of a number named `key` here (see [`units`]).
    fn unit(&self, key: &str) -> (Option<String>, String) {
        let unit = units::of_key(key, self.currency.as_deref());
        let scale = units::scale_of(key, unit.as_deref());
        (unit, scale)
    }

    fn object_parts(&mut self, path: &[String], map: &Map<String, Value>) {
        let mut numbers = Vec::new();
        let mut facts = Vec::new();
        let mut nested = Vec::new();
        // A `unit` beside lists or maps is the unit of the charts drawn of them.
        let unit =
            map.get("unit").and_then(Value::as_str).filter(|_| map.values().any(|v| v.is_array() || v.is_object()));
        for (key, value) in map {
            if key == "unit" && unit.is_some() {
                continue;
            }
            match value {
                Value::Number(n) => numbers.push((key, n.as_f64().unwrap_or(f64::NAN))),
                Value::Array(_) | Value::Object(_) => nested.push((key, value)),
                other => facts.push((humanize(key), flat_text(other))),
            }
        }
        let title = Self::title(path);
        let measured: Vec<(Option<String>, String)> = numbers.iter().map(|(k, _)| self.unit(k)).collect();
        // Numbers of different units (a count beside an average) are figures, never bars on one scale.
        let one_scale = measured.windows(2).all(|pair| pair[0].1 == pair[1].1);
        if !path.is_empty() && facts.is_empty() && nested.is_empty() && !numbers.is_empty() && one_scale {
            // Keys written as identifiers (`new_arrivals`) read as words; others (`SS`, `zone-a`) as written.
            let labels: Vec<String> =
                numbers.iter().map(|(k, _)| if k.contains('_') { humanize(k) } else { (*k).clone() }).collect();
            let values: Vec<Option<f64>> = numbers.iter().map(|(_, v)| Some(*v)).collect();
            let name = title.clone().unwrap_or_default();
            let chart = plain_chart(Kind::Bar, String::new(), labels, vec![Series { name, values }], None);
            let unit = measured.first().and_then(|(unit, _)| unit.clone());
            return self.push(path, title, Part::Chart(with_unit(chart, unit)));
        }
        if !numbers.is_empty() {
            let figures = numbers
                .into_iter()
                .zip(measured)
                .map(|((k, value), (unit, _))| Figure { name: humanize(k), value, unit })
                .collect();
            self.push(path, title.clone(), Part::Figures(figures));
        }
        if !facts.is_empty() {
            let mut facts_path = path.to_vec();
            facts_path.push("facts".into());
            self.push(&facts_path, title, Part::Facts(facts));
        }
        let first = self.sections.len();
        for (key, value) in nested {
            let mut inner = path.to_vec();
            inner.push(key.clone());
            self.value(&inner, value);
        }
        for section in &mut self.sections[first..] {
            if let (Part::Chart(chart), Some(unit)) = (&mut section.part, unit) {
                chart.unit.get_or_insert_with(|| unit.to_string());
            }
        }
    }

    fn array(&mut self, path: &[String], items: &[Value]) {
        let title = Self::title(path);
        if items.is_empty() {
            let name = title.clone().unwrap_or_default();
            return self.push(path, None, Part::Facts(vec![(name, String::new())]));
        }
        if items.iter().all(Value::is_number) && items.len() <= MAX_DRAWN {
            let labels = (1..=items.len()).map(|i| i.to_string()).collect();
            let values = items.iter().map(Value::as_f64).collect();
            let name = title.clone().unwrap_or_default();
            let chart = plain_chart(Kind::Bar, "#".into(), labels, vec![Series { name, values }], None);
            return self.push(path, title, Part::Chart(chart));
        }
        let maps: Vec<&Map<String, Value>> = items.iter().filter_map(Value::as_object).collect();
        if maps.len() == items.len() {
            if maps.iter().all(|m| is_chart_object(m)) {
                for (i, map) in maps.iter().enumerate() {
                    let mut inner = path.to_vec();
                    inner.push(map.get("id").and_then(scalar_text).unwrap_or_else(|| (i + 1).to_string()));
                    let fallback = Self::title(&inner);
                    let title = title_of(map).or(fallback.clone());
                    match chart_object(map, fallback) {
                        Some(chart) => self.push(&inner, title, Part::Chart(chart)),
                        None => self.push(&inner, title, Part::Table(records_table(&[map]))),
                    }
                }
                return;
            }
            let charts = self.records_charts(&maps);
            if charts.is_empty() {
                return self.push(path, title, Part::Table(records_table(&maps)));
            }
            let split = charts.len() > 1;
            for (i, chart) in charts.into_iter().enumerate() {
                let mut inner = path.to_vec();
                if i > 0 {
                    inner.push((i + 1).to_string());
                }
                // Split by unit, each chart says which numbers it draws.
                let names: Vec<&str> = chart.series.iter().map(|s| s.name.as_str()).collect();
                let own = split.then(|| format!("{} · {}", title.clone().unwrap_or_default(), names.join(", ")));
                self.push(&inner, own.or(title.clone()), Part::Chart(chart));
            }
            return;
        }
        let column = title.clone().unwrap_or_else(|| "#".into());
        let rows = items.iter().map(|v| vec![cell(Some(v))]).collect();
        self.push(path, title, Part::Table(Table { columns: vec![column], units: Vec::new(), rows }));
    }
}

/// A chart object's own title (`title`, `name`, else its `id` made readable).
fn title_of(map: &Map<String, Value>) -> Option<String> {
    let text = |k: &str| map.get(k).and_then(Value::as_str).map(str::to_string);
    text("title").or_else(|| text("name")).or_else(|| map.get("id").and_then(scalar_text).map(|id| humanize(&id)))
}

fn is_chart_object(map: &Map<String, Value>) -> bool {
    let list = |k: &str| map.get(k).and_then(Value::as_array);
    let series_of_values =
        list("series").is_some_and(|s| !s.is_empty() && s.iter().all(|x| x.get("values").is_some_and(Value::is_array)));
    let points = list("points").is_some_and(|p| p.iter().all(Value::is_object));
    (list("labels").is_some() && (list("values").is_some() || series_of_values)) || points
}

/// A chart of a chart object, when `map` is one.
fn chart_object(map: &Map<String, Value>, fallback: Option<String>) -> Option<Chart> {
    if !is_chart_object(map) {
        return None;
    }
    let name = title_of(map).or(fallback).unwrap_or_default();
    let unit = map.get("unit").or_else(|| map.get("currency")).and_then(scalar_text);
    let (labels, series, raw): (Vec<String>, Vec<Series>, Vec<Vec<Cell>>) =
        match map.get("points").and_then(Value::as_array) {
            Some(points) => {
                let labels = points.iter().map(|p| p.get("x").map(flat_text).unwrap_or_default()).collect();
                let raw: Vec<Cell> = points.iter().map(|p| cell(p.get("y"))).collect();
                let values = points.iter().map(|p| p.get("y").and_then(Value::as_f64)).collect();
                (labels, vec![Series { name, values }], vec![raw])
            }
            None => {
                let labels: Vec<String> =
                    map.get("labels").and_then(Value::as_array).into_iter().flatten().map(flat_text).collect();
                let lists: Vec<(String, &Vec<Value>)> = match map.get("values").and_then(Value::as_array) {
                    Some(values) => vec![(unit.clone().unwrap_or(name), values)],
                    None => map
                        .get("series")
                        .and_then(Value::as_array)
                        .into_iter()
                        .flatten()
                        .enumerate()
                        .filter_map(|(i, s)| {
                            let n = s.get("name").or_else(|| s.get("title")).or_else(|| s.get("id"));
                            let n = n.and_then(scalar_text).unwrap_or_else(|| (i + 1).to_string());
                            Some((n, s.get("values")?.as_array()?))
                        })
                        .collect(),
                };
                let raw = lists.iter().map(|(_, v)| v.iter().map(|x| cell(Some(x))).collect()).collect();
                let series = lists
                    .iter()
                    .map(|(n, v)| Series { name: n.clone(), values: v.iter().map(Value::as_f64).collect() });
                (labels, series.collect(), raw)
            }
        };
    let kind = match map.get("type").or_else(|| map.get("kind")).and_then(Value::as_str) {
        Some(t) if matches!(t.to_ascii_lowercase().as_str(), "line" | "area" | "spline") => Kind::Line,
        Some(t) if matches!(t.to_ascii_lowercase().as_str(), "bar" | "column" | "columns" | "bars") => Kind::Bar,
        _ => kind_of(&labels),
    };
    let notes = map
        .iter()
        .filter(|(k, _)| !CHART_KEYS.contains(&k.as_str()))
        .map(|(k, v)| (humanize(k), flat_text(v)))
        .collect();
    let chart = with_unit(plain_chart(kind, String::new(), labels, series, Some(raw)), unit);
    let chart = Chart { notes, ..chart };
    Some(chart).filter(|c| c.labels.len() <= MAX_DRAWN)
}

fn kind_of(labels: &[String]) -> Kind {
    if labels.len() > 1 && labels.iter().all(|l| is_date_like(l)) {
        Kind::Line
    } else {
        Kind::Bar
    }
}

/// A chart of `labels` and `series` (padded to one length), its table made of them; `raw` keeps
/// values that are not numbers for the table.
fn plain_chart(
    kind: Kind,
    axis: String,
    mut labels: Vec<String>,
    mut series: Vec<Series>,
    raw: Option<Vec<Vec<Cell>>>,
) -> Chart {
    let len = series.iter().map(|s| s.values.len()).chain([labels.len()]).max().unwrap_or(0);
    for i in labels.len()..len {
        labels.push((i + 1).to_string());
    }
    for s in &mut series {
        s.values.resize(len, None);
    }
    let columns = std::iter::once(axis.clone()).chain(series.iter().map(|s| s.name.clone())).collect();
    let rows = (0..len)
        .map(|i| {
            let values = series.iter().enumerate().map(|(j, s)| {
                let from_raw = raw.as_ref().and_then(|r| r.get(j)).and_then(|r| r.get(i)).cloned();
                from_raw.unwrap_or_else(|| s.values[i].map_or(Cell::Empty, Cell::Number))
            });
            std::iter::once(Cell::Text(labels[i].clone())).chain(values).collect()
        })
        .collect();
    Chart {
        kind,
        unit: None,
        axis,
        labels,
        series,
        table: Table { columns, units: Vec::new(), rows },
        notes: Vec::new(),
    }
}

/// The columns of records, in order of first appearance.
fn columns(maps: &[&Map<String, Value>]) -> Vec<String> {
    let mut seen = Vec::new();
    for map in maps {
        for key in map.keys() {
            if !seen.contains(key) {
                seen.push(key.clone());
            }
        }
    }
    seen
}

/// Records as a table, every field a column.
fn records_table(maps: &[&Map<String, Value>]) -> Table {
    let keys = columns(maps);
    let rows = maps.iter().map(|m| keys.iter().map(|k| cell(m.get(k))).collect()).collect();
    Table { columns: keys.iter().map(|k| humanize(k)).collect(), units: Vec::new(), rows }
}

impl Walker {
    /// Records as charts: a text field as labels (dates or months make a line chart), each number
    /// field a series, one chart per unit (see [`units`]) so no two units share a scale; the first
    /// chart's table keeps every field. None without a text field or a number field.
    fn records_charts(&self, maps: &[&Map<String, Value>]) -> Vec<Chart> {
        let Some((chart, keys)) = records_chart(maps) else { return Vec::new() };
        let own = maps.first().and_then(|m| m.get("currency")).and_then(Value::as_str).map(str::to_string);
        let walker = Walker { currency: own.or_else(|| self.currency.clone()), ..Walker::default() };
        let mut scales: Vec<(String, Option<String>, Vec<usize>)> = Vec::new();
        for (i, key) in keys.iter().enumerate() {
            let (unit, scale) = walker.unit(key);
            match scales.iter_mut().find(|(s, _, _)| *s == scale) {
                Some((_, _, members)) => members.push(i),
                None => scales.push((scale, unit, vec![i])),
            }
        }
        let mut charts = Vec::new();
        for (n, (_, unit, members)) in scales.into_iter().enumerate() {
            let series: Vec<Series> = members.iter().map(|i| chart.series[*i].clone()).collect();
            let part = if n == 0 {
                let mut first = Chart { series, ..chart.clone() };
                first.table.units = units_of_columns(&first.table.columns, &keys, &walker);
                with_unit(first, unit)
            } else {
                with_unit(plain_chart(chart.kind, chart.axis.clone(), chart.labels.clone(), series, None), unit)
            };
            charts.push(part);
        }
        charts
    }
}

/// The unit of each column of a records table whose number field is one of `keys`.
fn units_of_columns(columns: &[String], keys: &[String], walker: &Walker) -> Vec<Option<String>> {
    columns.iter().map(|c| keys.iter().find(|k| humanize(k) == *c).and_then(|k| walker.unit(k).0)).collect()
}

/// `chart` with the unit its numbers are in, said by its table's number columns too.
fn with_unit(mut chart: Chart, unit: Option<String>) -> Chart {
    if chart.table.units.is_empty() {
        let names: Vec<&str> = chart.series.iter().map(|s| s.name.as_str()).collect();
        chart.table.units = chart
            .table
            .columns
            .iter()
            .enumerate()
            .map(|(i, c)| (i > 0 && names.contains(&c.as_str())).then(|| unit.clone()).flatten())
            .collect();
    }
    chart.unit = chart.unit.or(unit);
    chart
}

/// Records as one chart, every number field a series (see [`Walker::records_charts`]), with the
/// number fields' keys in the order of the series.
fn records_chart(maps: &[&Map<String, Value>]) -> Option<(Chart, Vec<String>)> {
    if maps.len() > MAX_DRAWN {
        return None;
    }
    let keys = columns(maps);
    let all = |k: &str, test: fn(&Value) -> bool| maps.iter().filter_map(|m| m.get(k)).all(test);
    let present = |k: &str| maps.iter().filter(|m| m.get(k).is_some_and(|v| !v.is_null())).count();
    let texts: Vec<&String> = keys.iter().filter(|k| present(k) == maps.len() && all(k, Value::is_string)).collect();
    let numbers: Vec<&String> =
        keys.iter().filter(|k| present(k) > 0 && all(k, |v| v.is_number() || v.is_null())).collect();
    let dated = |k: &&&String| maps.iter().all(|m| m.get(k.as_str()).and_then(Value::as_str).is_some_and(is_date_like));
    const NAMES: &[&str] = &["label", "name", "title", "country", "group", "category", "sector", "month", "date", "x"];
    let label = texts
        .iter()
        .find(dated)
        .or_else(|| NAMES.iter().find_map(|n| texts.iter().find(|k| k.as_str() == *n)))
        .or_else(|| texts.first())?;
    if numbers.is_empty() {
        return None;
    }
    let labels: Vec<String> = maps.iter().map(|m| m.get(label.as_str()).map(flat_text).unwrap_or_default()).collect();
    let series = numbers
        .iter()
        .map(|k| Series {
            name: humanize(k),
            values: maps.iter().map(|m| m.get(k.as_str()).and_then(Value::as_f64)).collect(),
        })
        .collect();
    let kind = kind_of(&labels);
    let chart = Chart {
        kind,
        unit: None,
        axis: humanize(label),
        labels,
        series,
        table: records_table(maps),
        notes: Vec::new(),
    };
    Some((chart, numbers.iter().map(|k| k.to_string()).collect()))
}

#[cfg(test)]
mod tests;
