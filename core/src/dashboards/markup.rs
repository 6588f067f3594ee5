//! A snapshot's sections as HTML (a chart beside its table, figures, facts) and as markdown for
//! the page's twin (docs/content.md#data-pages). Every text from the data is escaped.

use std::fmt::Write;

use super::numbers::Format;
use super::shape::{Cell, Chart, Figure, Part, Section, Snapshot, Table};
use super::svg::{describe, draw, Pen};
use super::units;
use crate::content::i18n::Strings;
use crate::content::text::escape;
use crate::pages::markdown::escape as md;

/// The sections of `snapshot` as HTML, each headed by an `<h2>`.
pub fn snapshot_html(snapshot: &Snapshot, strings: &Strings) -> String {
    let pen = Pen { strings, format: Format::of(strings) };
    let mut out = String::new();
    for section in &snapshot.sections {
        let heading = section.title.clone().unwrap_or_else(|| match section.part {
            Part::Facts(_) => strings.get("data.about").to_string(),
            _ => strings.get("data.figures").to_string(),
        });
        let id = escape(&section.id);
        let _ = write!(
            out,
            "<section class=\"data-part\" aria-labelledby=\"{id}\"><h2 id=\"{id}\">{}</h2>",
            escape(&heading)
        );
        match &section.part {
            Part::Figures(figures) => out.push_str(&figures_html(figures, &pen.format)),
            Part::Facts(facts) => out.push_str(&facts_html(facts)),
            Part::Table(table) => out.push_str(&table_html(table, &heading, &pen.format, strings)),
            Part::Chart(chart) => out.push_str(&chart_html(chart, &heading, &section.id, &pen)),
        }
        out.push_str("</section>\n");
    }
    out
}

/// Figures as a list of big numbers.
pub fn figures_html(figures: &[Figure], format: &Format) -> String {
    let mut out = String::from("<dl class=\"figures\">");
    for Figure { name, value, unit } in figures {
        // Numbers keep their sign before them in right-to-left pages.
        let number = escape(&units::write(&format.number(*value), unit.as_deref()));
        let _ = write!(out, "<div><dt>{}</dt><dd><span dir=\"ltr\">{number}</span></dd></div>", escape(name));
    }
    out.push_str("</dl>");
    out
}

fn facts_html(facts: &[(String, String)]) -> String {
    let mut out = String::from("<dl class=\"facts\">");
    for (name, value) in facts {
        let value = if value.is_empty() { "–" } else { value };
        let _ = write!(out, "<dt>{}</dt><dd>{}</dd>", escape(name), escape(value));
    }
    out.push_str("</dl>");
    out
}

/// A cell as text, a number with its column's unit (`37%`, `USD 5,160,000`).
fn cell_text(cell: &Cell, format: &Format, unit: Option<&str>) -> String {
    match cell {
        Cell::Number(n) => units::write(&format.number(*n), unit),
        Cell::Text(t) => t.clone(),
        Cell::Empty => String::new(),
    }
}

/// A column's heading; an unnamed one (the labels of a map) is "Item" in the interface language.
fn heading<'a>(column: &'a str, strings: &'a Strings) -> &'a str {
    if column.trim().is_empty() {
        strings.get("data.item")
    } else {
        column
    }
}

fn table_html(table: &Table, caption: &str, format: &Format, strings: &Strings) -> String {
    let mut out = String::from("<div class=\"table-scroll\" tabindex=\"0\" role=\"region\" aria-label=\"");
    let _ = write!(
        out,
        "{}\"><table class=\"data-table{}\"><caption>{}</caption><thead><tr>",
        escape(caption),
        if stacks(table) { " stack" } else { "" },
        escape(caption)
    );
    for column in &table.columns {
        let _ = write!(out, "<th scope=\"col\">{}</th>", escape(heading(column, strings)));
    }
    out.push_str("</tr></thead><tbody>");
    // On a phone a wide table's rows stack, each cell labelled with its column (the theme's `stack`).
    let labels: Vec<String> = table
        .columns
        .iter()
        .map(|c| if stacks(table) { format!(" data-label=\"{}\"", escape(heading(c, strings))) } else { String::new() })
        .collect();
    for row in &table.rows {
        out.push_str("<tr>");
        for (i, cell) in row.iter().enumerate() {
            let unit = table.units.get(i).and_then(Option::as_deref);
            let text = escape(&cell_text(cell, format, unit));
            let label = labels.get(i).map_or("", String::as_str);
            match (i, cell) {
                (0, _) if table.columns.len() > 1 => {
                    let _ = write!(out, "<th scope=\"row\">{text}</th>");
                }
                (_, Cell::Number(_)) => {
                    let _ = write!(out, "<td class=\"num\" dir=\"ltr\"{label}>{text}</td>");
                }
                _ => {
                    let _ = write!(out, "<td{label}>{text}</td>");
                }
            }
        }
        out.push_str("</tr>");
    }
    out.push_str("</tbody></table></div>");
    out
}

/// Whether a table has the columns to stack on a phone (three or more, as bodies' tables).
fn stacks(table: &Table) -> bool {
    table.columns.len() >= 3
}

fn chart_html(chart: &Chart, title: &str, id: &str, pen: &Pen) -> String {
    let mut out = String::from("<div class=\"chart-pair\"><figure class=\"chart-figure\">");
    out.push_str(&draw(chart, title, id, pen));
    out.push_str("</figure>");
    out.push_str(&table_html(&chart.table, title, &pen.format, pen.strings));
    out.push_str("</div>");
    if !chart.notes.is_empty() {
        out.push_str(&facts_html(&chart.notes));
    }
    out
}

/// The sections of `snapshot` as markdown: figures and facts as lists, charts as their summary
/// and table, tables as tables.
pub fn snapshot_markdown(snapshot: &Snapshot, strings: &Strings) -> String {
    let pen = Pen { strings, format: Format::of(strings) };
    let mut out = String::new();
    for Section { title, part, .. } in &snapshot.sections {
        let heading = title.clone().unwrap_or_else(|| match part {
            Part::Facts(_) => strings.get("data.about").to_string(),
            _ => strings.get("data.figures").to_string(),
        });
        let _ = write!(out, "\n## {}\n\n", md(&heading));
        match part {
            Part::Figures(figures) => {
                for Figure { name, value, unit } in figures {
                    let number = units::write(&pen.format.number(*value), unit.as_deref());
                    let _ = writeln!(out, "- {}: {}", md(name), md(&number));
                }
            }
            Part::Facts(facts) => {
                for (name, value) in facts {
                    let _ = writeln!(out, "- {}: {}", md(name), md(value));
                }
            }
            Part::Table(table) => out.push_str(&table_markdown(table, &pen.format, strings)),
            Part::Chart(chart) => {
                let _ = write!(out, "{}\n\n", md(&describe(chart, &pen)));
                out.push_str(&table_markdown(&chart.table, &pen.format, strings));
                for (name, value) in &chart.notes {
                    let _ = writeln!(out, "- {}: {}", md(name), md(value));
                }
            }
        }
    }
    out
}

fn table_markdown(table: &Table, format: &Format, strings: &Strings) -> String {
    let mut out = String::new();
    let head: Vec<String> = table.columns.iter().map(|c| md(heading(c, strings))).collect();
    let _ = writeln!(out, "| {} |", head.join(" | "));
    let _ = writeln!(out, "|{}", "---|".repeat(head.len().max(1)));
    for row in &table.rows {
        let cells: Vec<String> = row
            .iter()
            .enumerate()
            .map(|(i, c)| md(&cell_text(c, format, table.units.get(i).and_then(Option::as_deref))))
            .collect();
        let _ = writeln!(out, "| {} |", cells.join(" | "));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dashboards::analyse;
    use serde_json::json;

    fn strings() -> Strings {
        Strings(json!({"numbers": {"group": " ", "decimal": ","}, "data": {"figures": "Key figures",
            "item": "Item", "value": "Value", "bar_chart": "Bars of {count}.", "line_chart": "Line of {count}.",
            "extremes": "Top {max_label} {max}.", "series": "{names}.", "unit": "{unit}."}}))
    }

    #[test]
    fn a_chart_comes_with_a_table_row_per_point_in_the_languages_numbers() {
        let html =
            snapshot_html(&analyse(&json!({"total": 41250, "byNationality": {"SS": 21000, "BI": 8250}})), &strings());
        assert!(html.contains("<dt>Total</dt><dd><span dir=\"ltr\">41 250</span></dd>"), "{html}");
        assert!(html.contains("<th scope=\"col\">Item</th>"), "{html}");
        assert!(html.contains("<tr><th scope=\"row\">SS</th><td class=\"num\" dir=\"ltr\">21 000</td></tr>"), "{html}");
        assert_eq!(html.matches("<rect class=\"bar").count(), 2);
        assert!(
            html.contains("role=\"img\"")
                && html.contains("<desc id=\"d-bynationality-d\">Bars of 2. Top SS 21 000.</desc>"),
            "{html}"
        );
        let md = snapshot_markdown(&analyse(&json!({"byNationality": {"SS": 21000}})), &strings());
        assert!(md.contains("| Item | By nationality |\n|---|---|\n| SS | 21 000 |"), "{md}");
    }

    #[test]
    fn every_number_says_its_unit_and_wide_tables_stack() {
        let data = json!({"currency": "USD", "required": 12500000, "percentage_funded": 37,
            "by_sector": [{"label": "Health", "required": 5800000, "percentage_funded": 37.5}]});
        let html = snapshot_html(&analyse(&data), &strings());
        assert!(html.contains("<dd><span dir=\"ltr\">USD 12 500 000</span></dd>"), "{html}");
        assert!(html.contains("<dd><span dir=\"ltr\">37%</span></dd>"), "{html}");
        assert!(html.contains("<table class=\"data-table stack\">"), "{html}");
        assert!(html.contains("<td class=\"num\" dir=\"ltr\" data-label=\"Required\">USD 5 800 000</td>"), "{html}");
        assert!(html.contains("data-label=\"Percentage funded\">37,5%</td>"), "{html}");
        let md = snapshot_markdown(&analyse(&data), &strings());
        assert!(md.contains("- Required: USD 12 500 000") && md.contains("| Health | USD 5 800 000 | 37,5% |"), "{md}");
    }

    #[test]
    fn hostile_text_is_escaped_everywhere() {
        let data =
            json!({"<script>": {"<img src=x onerror=alert(1)>": 1}, "list": [{"name": "</svg><script>", "n": 2}]});
        let html = snapshot_html(&analyse(&data), &strings());
        assert!(!html.contains("<script>") && !html.contains("<img") && !html.contains("</svg><script"), "{html}");
        let md = snapshot_markdown(&analyse(&data), &strings());
        assert!(!md.contains("<script>"), "{md}");
    }
}
