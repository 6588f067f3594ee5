use serde_json::json;

use super::*;

fn chart(section: &Section) -> &Chart {
    match &section.part {
        Part::Chart(chart) => chart,
        other => panic!("{} is not a chart: {other:?}", section.id),
    }
}

#[test]
fn top_level_numbers_are_headlines_and_a_map_of_numbers_is_a_bar_chart() {
    let population = json!({"updatedAt": "2026-11-01T00:00:00Z", "total": 41250,
        "byNationality": {"SS": 21000, "CD": 12000, "BI": 8250}});
    let s = analyse(&population);
    assert_eq!(s.updated.as_deref(), Some("2026-11-01T00:00:00Z"));
    assert_eq!(s.headlines(), [Figure { name: "Total".into(), value: 41250.0, unit: None }]);
    let bars = chart(&s.sections[1]);
    assert_eq!(s.sections[1].title.as_deref(), Some("By nationality"));
    assert_eq!((bars.kind, bars.labels.clone()), (Kind::Bar, vec!["SS".into(), "CD".into(), "BI".into()]));
    assert_eq!(bars.table.rows.len(), 3);
    assert_eq!(bars.table.rows[2], vec![Cell::Text("BI".into()), Cell::Number(8250.0)]);
}

#[test]
fn records_with_a_text_and_numbers_are_bars_and_with_months_lines() {
    let data = json!({"nationalities": [
        {"country": "South Sudan", "code": "SS", "individuals": 21450},
        {"country": "Burundi", "code": "BI", "individuals": 8000}],
      "arrivals": [{"month": "2025-06", "people": 10}, {"month": "2025-07", "people": -3}]});
    let s = analyse(&data);
    let bars = chart(&s.sections[0]);
    assert_eq!(bars.kind, Kind::Bar);
    assert_eq!(bars.labels, ["South Sudan", "Burundi"]);
    assert_eq!(bars.axis, "Country");
    assert_eq!(bars.table.columns, ["Country", "Code", "Individuals"], "every field stays in the table");
    let line = chart(&s.sections[1]);
    assert_eq!((line.kind, line.series[0].values.clone()), (Kind::Line, vec![Some(10.0), Some(-3.0)]));
}

#[test]
fn chart_objects_of_both_shapes_and_series_of_points_are_drawn_as_their_type_says() {
    let fixture = json!([{"id": "arrivals", "labels": ["Jul", "Aug", "Sep"], "values": [310, 420, 380]}]);
    let s = analyse(&fixture);
    assert_eq!(s.sections[0].title.as_deref(), Some("Arrivals"));
    assert_eq!(chart(&s.sections[0]).kind, Kind::Bar);
    assert_eq!(chart(&s.sections[0]).series[0].values, [Some(310.0), Some(420.0), Some(380.0)]);
    let content = json!({"charts": [{"id": "water", "title": "Water", "type": "line", "unit": "l", "target": 20,
        "labels": ["2026-07", "2026-08"], "series": [{"name": "zone-a", "values": [22, 21]}, {"name": "zone-b", "values": [19]}]}]});
    let water = chart(&analyse(&content).sections[0]).clone();
    assert_eq!((water.kind, water.unit.as_deref()), (Kind::Line, Some("l")));
    assert_eq!(water.series[1].values, [Some(19.0), None]);
    assert_eq!(water.notes, [("Target".to_string(), "20".to_string())]);
    let series = json!({"series": [{"id": "a", "title": "Rain", "unit": "mm", "type": "bar",
        "points": [{"x": "2026-01", "y": 3}, {"x": "2026-02", "y": 5}]}]});
    let rain = chart(&analyse(&series).sections[0]).clone();
    assert_eq!((rain.kind, rain.labels.len()), (Kind::Bar, 2));
}

#[test]
fn shapes_the_rule_cannot_draw_are_tables_or_facts_never_dropped() {
    let data = json!({"plan": "<script>alert(1)</script>", "nested": {"deep": {"a": "x", "b": [1, "two"]}},
        "people": [{"name": "A", "role": "lead"}], "mixed": [1, "NaN", null], "empty": [], "flag": true});
    let s = analyse(&data);
    let kinds: Vec<(&str, &str)> = s
        .sections
        .iter()
        .map(|x| {
            (
                x.id.as_str(),
                match x.part {
                    Part::Figures(_) => "figures",
                    Part::Chart(_) => "chart",
                    Part::Facts(_) => "facts",
                    Part::Table(_) => "table",
                },
            )
        })
        .collect();
    assert!(kinds.contains(&("facts", "facts")) || kinds.iter().any(|(_, k)| *k == "facts"), "{kinds:?}");
    assert!(kinds.contains(&("d-people", "table")), "{kinds:?}");
    assert!(kinds.contains(&("d-mixed", "table")), "{kinds:?}");
    assert!(kinds.contains(&("d-nested-deep-facts", "facts")), "{kinds:?}");
    assert!(kinds.contains(&("d-nested-deep-b", "table")), "{kinds:?}");
    assert!(kinds.contains(&("d-empty", "facts")), "{kinds:?}");
}

#[test]
fn odd_numbers_and_single_points_are_charts_all_the_same() {
    for data in [json!({"a": {"x": 0}}), json!({"a": {"x": -5, "y": 1e300}}), json!({"a": [{"d": "2026-01", "v": 1}]})]
    {
        let s = analyse(&data);
        assert!(matches!(s.sections[0].part, Part::Chart(_)), "{data}");
    }
    assert_eq!(humanize("byNationality"), "By nationality");
    assert_eq!(humanize("required_usd"), "Required usd");
    assert_eq!(humanize("GBV"), "GBV");
    assert!(is_date_like("2025-06") && is_date_like("2025-06-30") && is_date_like("2025-06-30T10:00:00Z"));
    assert!(!is_date_like("Jul") && !is_date_like("2025") && !is_date_like("2025-6"));
}

#[test]
fn a_unit_beside_a_list_is_the_unit_of_its_chart() {
    let data =
        json!({"trend": {"unit": "people", "series": [{"month": "2025-11", "n": 1}, {"month": "2025-12", "n": 2}]}});
    let s = analyse(&data);
    assert_eq!(s.sections.len(), 1, "{:?}", s.sections);
    assert_eq!(chart(&s.sections[0]).unit.as_deref(), Some("people"));
    assert_eq!(chart(&s.sections[0]).kind, Kind::Line);
}

#[test]
fn the_index_shows_the_headlines_else_the_first_figures_further_down() {
    let nested = analyse(&json!({"totals": {"individuals": 48612, "new_arrivals": 1137}, "x": {"a": 1}}));
    let figures = |s: &Snapshot| s.summary().into_iter().map(|f| (f.name, f.value)).collect::<Vec<_>>();
    assert_eq!(figures(&nested), [("individuals".to_string(), 48612.0), ("New arrivals".to_string(), 1137.0)]);
    let top = analyse(&json!({"total": 5, "totals": {"a": 1}}));
    assert_eq!(figures(&top), [("Total".to_string(), 5.0)]);
    assert!(analyse(&json!(["a", "b"])).summary().is_empty());
}

#[test]
fn numbers_of_different_units_are_never_bars_on_one_scale() {
    let data = json!({"currency": "USD", "required": 38400000, "percentage_funded": 37.0,
        "totals": {"individuals": 48612, "households": 11904, "average_household_size": 4.1},
        "by_sex": {"female": 25279, "male": 23333},
        "by_sector": [{"label": "Health", "required": 5800000, "funded": 2146000, "percentage_funded": 37.0},
                      {"label": "Shelter", "required": 3700000, "funded": 888000, "percentage_funded": 24.0}]});
    let s = analyse(&data);
    let units: Vec<Option<&str>> = s.headlines().iter().map(|f| f.unit.as_deref()).collect();
    assert_eq!(units, [Some("USD"), Some("%")], "{:?}", s.headlines());
    let totals = s.sections.iter().find(|x| x.title.as_deref() == Some("Totals")).expect("totals");
    assert!(matches!(totals.part, Part::Figures(_)), "a count beside an average is not a chart: {totals:?}");
    let sex = s.sections.iter().find(|x| x.title.as_deref() == Some("By sex")).expect("by sex");
    assert!(matches!(sex.part, Part::Chart(_)), "counts of one kind are");
    let charts: Vec<&Chart> = s
        .sections
        .iter()
        .filter_map(|x| match &x.part {
            Part::Chart(c) if x.id.starts_with("d-by-sector") => Some(c),
            _ => None,
        })
        .collect();
    let drawn: Vec<(Vec<&str>, Option<&str>)> =
        charts.iter().map(|c| (c.series.iter().map(|s| s.name.as_str()).collect(), c.unit.as_deref())).collect();
    assert_eq!(drawn, [(vec!["Required", "Funded"], Some("USD")), (vec!["Percentage funded"], Some("%"))]);
    assert_eq!(charts[0].table.columns, ["Label", "Required", "Funded", "Percentage funded"], "the table keeps all");
    assert_eq!(charts[0].table.units, [None, Some("USD".into()), Some("USD".into()), Some("%".into())]);
}
