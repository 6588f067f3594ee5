//! Query power over a collection's records (`GET /api/<collection>`, the MCP tool that lists a
//! collection): `filter[<field>]=a,b`, `filter[<field>][gte|lte]=`, `sort=a,-b` and `fields=a,b`,
//! parsed once here and applied to the records the build listed, so every interface answers alike.
//!
//! Filters match a scalar field by equality (strings case-insensitively) or a list field by
//! membership; comma-separated values are alternatives (OR); several filters must all hold (AND);
//! `gte`/`lte` compare dates (`YYYY-MM-DD` or RFC 3339) and numbers. A field no record of the
//! collection has (and that is not one of the record members every record may have) is a 400 that
//! suggests the nearest field. Sorting is stable, so ties keep the collection's order, and records
//! without the field come last in either direction.

use std::cmp::Ordering;
use std::collections::BTreeSet;

use serde_json::{Map, Value};

use crate::content::did_you_mean::nearest;
use crate::content::time::parse_content_date;
use crate::content::RESERVED_KEYS;
use crate::http::problem::Problem;
use crate::http::query::Query;

/// Members a record may have even when no record of the collection has them yet.
const COMMON_FIELDS: &[&str] = &["date", "updated", "summary", "tags", "category", "weight", "body"];

/// How a filter compares.
#[derive(Debug, Clone, PartialEq)]
enum Test {
    /// Equal to one of these (lower-cased) values, or, for a list field, containing one.
    AnyOf(Vec<String>),
    /// At least (`Ordering::Less` excluded) or at most (`Ordering::Greater` excluded) a bound.
    Bound(Ordering, Comparable),
}

/// A value that `gte`/`lte` and sorting can order.
#[derive(Debug, Clone, PartialEq, PartialOrd)]
enum Comparable {
    /// A number.
    Number(f64),
    /// An instant (Unix seconds) of a date or date-time.
    Instant(i64),
    /// Text, lower-cased.
    Text(String),
}

/// One `filter[...]` parameter.
#[derive(Debug, Clone, PartialEq)]
struct Filter {
    field: String,
    test: Test,
}

/// One key of `sort`.
#[derive(Debug, Clone, PartialEq)]
struct SortKey {
    field: String,
    descending: bool,
}

/// The filters, sort keys and field selection of one request.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ListQuery {
    filters: Vec<Filter>,
    sort: Vec<SortKey>,
    fields: Option<Vec<String>>,
}

impl ListQuery {
    /// Reads the parameters of a query string; malformed ones are 400 `bad_request` naming them.
    pub fn parse(query: &Query) -> Result<Self, Problem> {
        let mut list = ListQuery::default();
        for (name, value) in query.pairs() {
            if let Some(rest) = name.strip_prefix("filter[") {
                list.filters.push(parse_filter(name, rest, value)?);
            }
        }
        if let Some(sort) = query.get("sort") {
            list.sort = names("sort", sort)?
                .into_iter()
                .map(|key| match key.strip_prefix('-') {
                    Some(field) => SortKey { field: field.to_string(), descending: true },
                    None => SortKey { field: key.trim_start_matches('+').to_string(), descending: false },
                })
                .collect();
        }
        if let Some(fields) = query.get("fields") {
            list.fields = Some(names("fields", fields)?);
        }
        Ok(list)
    }

    /// Whether the query asks for nothing beyond the collection's order.
    pub fn is_empty(&self) -> bool {
        self.filters.is_empty() && self.sort.is_empty() && self.fields.is_none()
    }

    /// The records that pass the filters, in the requested order, with only the requested fields.
    /// Every field named must be one the collection's records have.
    pub fn apply(&self, records: Vec<Value>) -> Result<Vec<Value>, Problem> {
        let known = known_fields(&records);
        let named =
            self.filters.iter().map(|f| ("filter", &f.field)).chain(self.sort.iter().map(|k| ("sort", &k.field)));
        let named = named.chain(self.fields.iter().flatten().map(|f| ("fields", f)));
        for (parameter, field) in named {
            check_field(parameter, field, &known)?;
        }
        let mut matching: Vec<Value> = records
            .into_iter()
            .filter(|record| self.filters.iter().all(|f| f.test.passes(record.get(&f.field))))
            .collect();
        if !self.sort.is_empty() {
            matching.sort_by(|a, b| self.compare(a, b));
        }
        if let Some(fields) = &self.fields {
            matching = matching.into_iter().map(|record| select(record, fields)).collect();
        }
        Ok(matching)
    }

    fn compare(&self, a: &Value, b: &Value) -> Ordering {
        for key in &self.sort {
            let order = match (sortable(a.get(&key.field)), sortable(b.get(&key.field))) {
                (Some(x), Some(y)) => {
                    let order = x.partial_cmp(&y).unwrap_or(Ordering::Equal);
                    if key.descending {
                        order.reverse()
                    } else {
                        order
                    }
                }
                (Some(_), None) => Ordering::Less,
                (None, Some(_)) => Ordering::Greater,
                (None, None) => Ordering::Equal,
            };
            if order != Ordering::Equal {
                return order;
            }
        }
        Ordering::Equal
    }
}

/// `filter[<field>]` or `filter[<field>][gte|lte]` (the text after `filter[` is `rest`).
fn parse_filter(name: &str, rest: &str, value: &str) -> Result<Filter, Problem> {
    let bad = |why: &str| Problem::bad_request(format!("`{name}`: {why}"));
    let (field, operator) = match rest.split_once("][") {
        Some((field, operator)) => (field, Some(operator.strip_suffix(']').ok_or_else(|| bad("a `]` is missing"))?)),
        None => (rest.strip_suffix(']').ok_or_else(|| bad("a `]` is missing"))?, None),
    };
    if field.is_empty() {
        return Err(bad("name a field, e.g. filter[category]=health"));
    }
    let test = match operator {
        None => {
            Test::AnyOf(value.split(',').map(|v| v.trim().to_lowercase()).filter(|v| !v.is_empty()).collect::<Vec<_>>())
        }
        Some(op @ ("gte" | "lte")) => {
            let bound = comparable_text(value.trim())
                .filter(|c| !matches!(c, Comparable::Text(_)))
                .ok_or_else(|| bad(&format!("`{value}` is neither a number nor a date (YYYY-MM-DD)")))?;
            let excluded = if op == "gte" { Ordering::Less } else { Ordering::Greater };
            Test::Bound(excluded, bound)
        }
        Some(other) => return Err(bad(&format!("unknown comparison `{other}`; use gte or lte"))),
    };
    if matches!(&test, Test::AnyOf(values) if values.is_empty()) {
        return Err(bad("give at least one value"));
    }
    Ok(Filter { field: field.to_string(), test })
}

/// A comma-separated list of names (`sort`, `fields`); empty names are a 400.
fn names(parameter: &str, value: &str) -> Result<Vec<String>, Problem> {
    let names: Vec<String> = value.split(',').map(|n| n.trim().to_string()).collect();
    if names.iter().any(|n| n.is_empty() || n == "-") {
        return Err(Problem::bad_request(format!(
            "`{parameter}` lists field names separated by commas, e.g. {parameter}=title,date; got `{value}`."
        )));
    }
    Ok(names)
}

/// The fields records of the collection have, plus those any record may have.
fn known_fields(records: &[Value]) -> BTreeSet<String> {
    let mut known: BTreeSet<String> = RESERVED_KEYS.iter().chain(COMMON_FIELDS).map(|k| k.to_string()).collect();
    for record in records {
        if let Some(map) = record.as_object() {
            known.extend(map.keys().cloned());
        }
    }
    known
}

fn check_field(parameter: &str, field: &str, known: &BTreeSet<String>) -> Result<(), Problem> {
    if known.contains(field) {
        return Ok(());
    }
    let hint =
        nearest(field, known.iter().map(String::as_str)).map(|n| format!(" Did you mean `{n}`?")).unwrap_or_default();
    Err(Problem::bad_request(format!(
        "`{parameter}` names the field `{field}`, which no record of this collection has.{hint}"
    )))
}

impl Test {
    fn passes(&self, value: Option<&Value>) -> bool {
        let Some(value) = value.filter(|v| !v.is_null()) else { return false };
        match self {
            Test::AnyOf(wanted) => match value {
                Value::Array(items) => items.iter().any(|item| equals_any(item, wanted)),
                scalar => equals_any(scalar, wanted),
            },
            Test::Bound(excluded, bound) => comparable(value)
                .filter(|v| std::mem::discriminant(v) == std::mem::discriminant(bound))
                .and_then(|v| v.partial_cmp(bound))
                .is_some_and(|order| order != *excluded),
        }
    }
}

fn equals_any(value: &Value, wanted: &[String]) -> bool {
    let text = match value {
        Value::String(s) => s.to_lowercase(),
        Value::Number(n) => {
            let number = n.as_f64();
            return wanted.iter().any(|w| w.parse::<f64>().ok() == number);
        }
        Value::Bool(b) => b.to_string(),
        _ => return false,
    };
    wanted.contains(&text)
}

/// A value for `gte`/`lte`: a number, or a string that is a date.
fn comparable(value: &Value) -> Option<Comparable> {
    match value {
        Value::Number(n) => n.as_f64().map(Comparable::Number),
        Value::String(s) => comparable_text(s).filter(|c| !matches!(c, Comparable::Text(_))),
        _ => None,
    }
}

/// A text as a number, else a date, else lower-cased text.
fn comparable_text(text: &str) -> Option<Comparable> {
    if let Ok(number) = text.parse::<f64>() {
        return number.is_finite().then_some(Comparable::Number(number));
    }
    if let Ok(instant) = parse_content_date(text) {
        return Some(Comparable::Instant(instant.unix));
    }
    Some(Comparable::Text(text.to_lowercase()))
}

/// A value to sort by: numbers, dates and texts by their natural order; a list by its first item.
fn sortable(value: Option<&Value>) -> Option<Comparable> {
    match value? {
        Value::Number(n) => n.as_f64().map(Comparable::Number),
        Value::String(s) => match comparable_text(s)? {
            Comparable::Number(_) => Some(Comparable::Text(s.to_lowercase())),
            other => Some(other),
        },
        Value::Bool(b) => Some(Comparable::Number(f64::from(u8::from(*b)))),
        Value::Array(items) => sortable(items.first()),
        _ => None,
    }
}

/// The record with only `fields` plus the members that identify it.
fn select(record: Value, fields: &[String]) -> Value {
    let Value::Object(map) = record else { return record };
    let keep = |key: &str| ["id", "collection", "slug", "url"].contains(&key) || fields.iter().any(|f| f == key);
    Value::Object(map.into_iter().filter(|(key, _)| keep(key)).collect::<Map<String, Value>>())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn records() -> Vec<Value> {
        vec![
            json!({"id": "a", "collection": "events", "slug": "a", "url": "/events/a", "title": "Market", "category": "Trade", "tags": ["food", "Zone-B"], "date": "2026-03-01", "seats": 40}),
            json!({"id": "b", "collection": "events", "slug": "b", "url": "/events/b", "title": "Clinic", "category": "health", "tags": ["health"], "date": "2026-01-15T09:00:00+03:00", "seats": 5}),
            json!({"id": "c", "collection": "events", "slug": "c", "url": "/events/c", "title": "Choir", "category": "culture"}),
        ]
    }

    fn run(query: &str) -> Result<Vec<String>, Problem> {
        let list = ListQuery::parse(&Query::parse(Some(query)))?;
        let out = list.apply(records())?;
        Ok(out.iter().map(|r| r["id"].as_str().unwrap_or_default().to_string()).collect())
    }

    #[test]
    fn equality_ignores_case_lists_match_by_membership_and_commas_are_alternatives() {
        assert_eq!(run("filter[category]=HEALTH"), Ok(vec!["b".into()]));
        assert_eq!(run("filter[tags]=zone-b"), Ok(vec!["a".into()]));
        assert_eq!(run("filter[category]=trade,culture"), Ok(vec!["a".into(), "c".into()]));
        assert_eq!(run("filter[category]=trade,health&filter[tags]=health"), Ok(vec!["b".into()]));
        assert_eq!(run("filter[seats]=40"), Ok(vec!["a".into()]));
    }

    #[test]
    fn bounds_compare_dates_and_numbers() {
        assert_eq!(run("filter[date][gte]=2026-02-01"), Ok(vec!["a".into()]));
        assert_eq!(run("filter[date][lte]=2026-01-15T06:00:00Z"), Ok(vec!["b".into()]));
        assert_eq!(run("filter[seats][gte]=5&filter[seats][lte]=39"), Ok(vec!["b".into()]));
        assert!(run("filter[date][gte]=soon").is_err());
        assert!(run("filter[date][after]=2026-01-01").is_err());
    }

    #[test]
    fn an_unknown_field_suggests_the_nearest() {
        let err = run("filter[catgory]=health").expect_err("unknown field");
        assert!(err.detail.contains("`category`"), "{}", err.detail);
        assert!(run("sort=-nope").is_err());
        assert!(run("fields=title,nope").is_err());
        assert_eq!(run("filter[summary]=x"), Ok(vec![]), "a member any record may have is known");
    }

    #[test]
    fn sorting_is_stable_and_puts_missing_values_last_both_ways() {
        assert_eq!(run("sort=date"), Ok(vec!["b".into(), "a".into(), "c".into()]));
        assert_eq!(run("sort=-date"), Ok(vec!["a".into(), "b".into(), "c".into()]));
        assert_eq!(run("sort=-seats,title"), Ok(vec!["a".into(), "b".into(), "c".into()]));
        assert_eq!(run("sort=title"), Ok(vec!["c".into(), "b".into(), "a".into()]));
    }

    #[test]
    fn fields_keep_the_identifying_members() {
        let list = ListQuery::parse(&Query::parse(Some("fields=title"))).expect("valid");
        let out = list.apply(records()).expect("known");
        assert_eq!(
            out[0],
            json!({"id": "a", "collection": "events", "slug": "a", "url": "/events/a", "title": "Market"})
        );
    }

    #[test]
    fn malformed_parameters_are_bad_requests() {
        for bad in ["filter[=x", "filter[]=x", "filter[tags]=", "sort=,", "fields=title,,date", "filter[a][gte=1"] {
            assert!(ListQuery::parse(&Query::parse(Some(bad))).is_err(), "{bad}");
        }
    }
}
