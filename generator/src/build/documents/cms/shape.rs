//! The shape of a front-matter value, for the CMS's fields (docs/editing.md#the-generated-configuration):
//! what kind of value a key holds across a collection's records, merged record by record, so the
//! generated configuration offers each key the widget that edits what the records actually say.
//!
//! Shapes live on the cards (`Card::shapes`), so a rebuild that reads only the changed records
//! merges the same shapes as a clean build.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// How deep mappings and lists are described; deeper values are left to the file as written.
const MAX_DEPTH: usize = 3;

/// What a key's values are.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Shape {
    /// Only `null` (or nothing) seen yet: says nothing of the kind.
    Null,
    /// Text on one line.
    Line,
    /// Text with line breaks, or long.
    Text,
    /// A calendar date (`2026-11-20`).
    Date,
    /// A date and time (`2026-11-20T09:00:00+03:00`).
    DateTime,
    /// Whole numbers.
    Int,
    /// Numbers with fractions.
    Float,
    /// `true` or `false`.
    Bool,
    /// A list whose items have this shape (`Null` while every list seen was empty).
    List(Box<Shape>),
    /// A mapping: its keys in first-seen order, each with its shape.
    Object(Vec<(String, Shape)>),
    /// Values of different kinds: no widget edits them all, so the CMS leaves the key as written.
    Mixed,
}

/// Text longer than this is edited in a text area rather than a line.
const LONG_TEXT: usize = 120;

impl Shape {
    /// The shape of one value.
    pub fn of(value: &Value) -> Shape {
        Shape::of_at(value, 0)
    }

    fn of_at(value: &Value, depth: usize) -> Shape {
        match value {
            Value::Null => Shape::Null,
            Value::Bool(_) => Shape::Bool,
            Value::Number(n) if n.is_i64() || n.is_u64() => Shape::Int,
            Value::Number(_) => Shape::Float,
            Value::String(s) => text_shape(s),
            _ if depth >= MAX_DEPTH => Shape::Mixed,
            Value::Array(items) => {
                Shape::List(Box::new(items.iter().fold(Shape::Null, |acc, v| acc.merge(Shape::of_at(v, depth + 1)))))
            }
            Value::Object(members) => Shape::Object(object_shapes(members, depth + 1)),
        }
    }

    /// The shape that holds values of `self` and of `other`.
    pub fn merge(self, other: Shape) -> Shape {
        use Shape::*;
        match (self, other) {
            (Null, s) | (s, Null) => s,
            (Mixed, _) | (_, Mixed) => Mixed,
            (a, b) if a == b => a,
            (Text, Line | Date | DateTime) | (Line | Date | DateTime, Text) => Text,
            (Line | Date | DateTime, Line | Date | DateTime) => Line,
            (Int | Float, Int | Float) => Float,
            (List(a), List(b)) => List(Box::new(a.merge(*b))),
            (Object(a), Object(b)) => Object(merge_keys(a, b)),
            _ => Mixed,
        }
    }
}

fn text_shape(text: &str) -> Shape {
    if is_date(text) {
        Shape::Date
    } else if text.get(..10).is_some_and(is_date) && text.as_bytes().get(10) == Some(&b'T') {
        Shape::DateTime
    } else if text.contains('\n') || text.chars().count() > LONG_TEXT {
        Shape::Text
    } else {
        Shape::Line
    }
}

fn is_date(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes.len() == 10
        && bytes.iter().enumerate().all(|(i, b)| if i == 4 || i == 7 { *b == b'-' } else { b.is_ascii_digit() })
}

fn object_shapes(members: &Map<String, Value>, depth: usize) -> Vec<(String, Shape)> {
    members.iter().map(|(key, value)| (key.clone(), Shape::of_at(value, depth))).collect()
}

/// The keys of `a` then those only `b` has, each merged.
pub fn merge_keys(mut a: Vec<(String, Shape)>, b: Vec<(String, Shape)>) -> Vec<(String, Shape)> {
    for (key, shape) in b {
        match a.iter_mut().find(|(k, _)| *k == key) {
            Some((_, existing)) => *existing = std::mem::replace(existing, Shape::Null).merge(shape),
            None => a.push((key, shape)),
        }
    }
    a
}

/// The shapes of a record's front-matter keys, in file order.
pub fn of_fields(fields: &Map<String, Value>) -> Vec<(String, Shape)> {
    object_shapes(fields, 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn values_get_the_shape_of_their_kind() {
        assert_eq!(Shape::of(&json!("2026-11-20")), Shape::Date);
        assert_eq!(Shape::of(&json!("2026-11-20T09:00:00+03:00")), Shape::DateTime);
        assert_eq!(Shape::of(&json!("Zone B")), Shape::Line);
        assert_eq!(Shape::of(&json!("one\ntwo")), Shape::Text);
        assert_eq!(Shape::of(&json!("عادت إمدادات المياه")), Shape::Line);
        assert_eq!(Shape::of(&json!(3)), Shape::Int);
        assert_eq!(Shape::of(&json!(3.5)), Shape::Float);
        assert_eq!(Shape::of(&json!(true)), Shape::Bool);
        assert_eq!(Shape::of(&json!(["a", "b"])), Shape::List(Box::new(Shape::Line)));
        let object = Shape::Object(vec![("name".into(), Shape::Line), ("lat".into(), Shape::Float)]);
        assert_eq!(Shape::of(&json!({"name": "A", "lat": 0.5})), object);
    }

    #[test]
    fn shapes_merge_to_what_holds_both_or_mixed() {
        assert_eq!(Shape::Int.merge(Shape::Float), Shape::Float);
        assert_eq!(Shape::Date.merge(Shape::Line), Shape::Line);
        assert_eq!(Shape::Text.merge(Shape::Line), Shape::Text);
        assert_eq!(Shape::Null.merge(Shape::Bool), Shape::Bool);
        assert_eq!(Shape::Line.merge(Shape::Object(Vec::new())), Shape::Mixed);
        let a = Shape::of(&json!({"name": "A"}));
        let b = Shape::of(&json!({"name": "B", "phone": "+256"}));
        assert_eq!(a.merge(b), Shape::Object(vec![("name".into(), Shape::Line), ("phone".into(), Shape::Line)]));
    }

    #[test]
    fn deep_values_are_left_as_written() {
        assert_eq!(Shape::of(&json!({"a": {"b": {"c": {"d": 1}}}})), {
            Shape::Object(vec![(
                "a".into(),
                Shape::Object(vec![("b".into(), Shape::Object(vec![("c".into(), Shape::Mixed)]))]),
            )])
        });
    }
}
