//! The fields of a record's JSON that a result of the search page shows (its date, summary and
//! body), read straight from the built file: the document's envelope is walked and every other
//! field, the rendered HTML above all, is skipped without being built into a value. The page reads
//! one record per hit it shows, so this is most of its time on a large site (BENCHMARKS.md).

use std::borrow::Cow;
use std::fmt;

use serde::de::{Deserialize, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

/// A record's shown fields, from a record's document (`{"data": {"<collection>": [record]}}`), an
/// encyclopedia entry's (`{"data": {"entry": record}}`) or a bare record.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Shown<'a> {
    /// `date`, as written.
    pub date: Option<Cow<'a, str>>,
    /// `summary`.
    pub summary: Option<Cow<'a, str>>,
    /// `body` (markdown).
    pub body: Option<Cow<'a, str>>,
}

impl<'de: 'a, 'a> Deserialize<'de> for Shown<'a> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(ShownVisitor)
    }
}

struct ShownVisitor;

impl<'de> Visitor<'de> for ShownVisitor {
    type Value = Shown<'de>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a record, a list of records or a document holding one")
    }

    /// A record, or a document whose `data` holds one: the fields of whichever comes first.
    fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<Self::Value, M::Error> {
        let mut shown = Shown::default();
        while let Some(key) = map.next_key::<Cow<'de, str>>()? {
            match key.as_ref() {
                "date" => shown.date = map.next_value::<Text<'de>>()?.0,
                "summary" => shown.summary = map.next_value::<Text<'de>>()?.0,
                "body" => shown.body = map.next_value::<Text<'de>>()?.0,
                "data" => {
                    let inner: Data<'de> = map.next_value()?;
                    shown = inner.0;
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(shown)
    }

    /// A list of records: the first.
    fn visit_seq<S: SeqAccess<'de>>(self, mut seq: S) -> Result<Self::Value, S::Error> {
        let first = seq.next_element::<Shown<'de>>()?.unwrap_or_default();
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(first)
    }

    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(Shown::default())
    }
}

/// `data`: a map whose first value is the record (or a list of them).
struct Data<'a>(Shown<'a>);

impl<'de: 'a, 'a> Deserialize<'de> for Data<'a> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct DataVisitor;
        impl<'de> Visitor<'de> for DataVisitor {
            type Value = Data<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a map of records")
            }
            fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<Self::Value, M::Error> {
                let mut first = None;
                while map.next_key::<IgnoredAny>()?.is_some() {
                    if first.is_none() {
                        first = Some(map.next_value::<Shown<'de>>()?);
                    } else {
                        map.next_value::<IgnoredAny>()?;
                    }
                }
                Ok(Data(first.unwrap_or_default()))
            }
        }
        deserializer.deserialize_map(DataVisitor)
    }
}

/// A string field, or nothing when the field holds another kind of value.
struct Text<'a>(Option<Cow<'a, str>>);

impl<'de: 'a, 'a> Deserialize<'de> for Text<'a> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct TextVisitor;
        impl<'de> Visitor<'de> for TextVisitor {
            type Value = Text<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E>(self, text: &'de str) -> Result<Self::Value, E> {
                Ok(Text(Some(Cow::Borrowed(text))))
            }
            fn visit_str<E>(self, text: &str) -> Result<Self::Value, E> {
                Ok(Text(Some(Cow::Owned(text.to_string()))))
            }
            fn visit_string<E>(self, text: String) -> Result<Self::Value, E> {
                Ok(Text(Some(Cow::Owned(text))))
            }
            fn visit_unit<E>(self) -> Result<Self::Value, E> {
                Ok(Text(None))
            }
            fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
                Ok(Text(None))
            }
            fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
                Ok(Text(None))
            }
            fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
                Ok(Text(None))
            }
            fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
                Ok(Text(None))
            }
            fn visit_seq<S: SeqAccess<'de>>(self, mut seq: S) -> Result<Self::Value, S::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(Text(None))
            }
            fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<Self::Value, M::Error> {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(Text(None))
            }
        }
        deserializer.deserialize_any(TextVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shown(json: &str) -> Shown<'_> {
        serde_json::from_str(json).expect("parses")
    }

    #[test]
    fn a_record_document_gives_its_first_record() {
        let json = r#"{"status":"success","count":1,"data":{"news":[{"title":"T","date":"2026-10-14","summary":"S","body":"B \"q\"","html":"<p>B</p>","tags":["x"]}]}}"#;
        let found = shown(json);
        assert_eq!(found.date.as_deref(), Some("2026-10-14"));
        assert_eq!(found.summary.as_deref(), Some("S"));
        assert_eq!(found.body.as_deref(), Some("B \"q\""));
    }

    #[test]
    fn an_entry_document_and_a_bare_record_read_alike() {
        let entry =
            shown(r#"{"status":"success","data":{"entry":{"summary":"S","sources":[{"title":"x"}],"body":"B"}}}"#);
        assert_eq!((entry.summary.as_deref(), entry.body.as_deref()), (Some("S"), Some("B")));
        let bare = shown(r#"{"summary":"S","body":"B"}"#);
        assert_eq!(bare, Shown { date: None, summary: Some("S".into()), body: Some("B".into()) });
    }

    #[test]
    fn fields_of_other_kinds_are_left_out_not_refused() {
        let odd = shown(r#"{"data":{"x":[{"date":20261014,"summary":null,"body":{"a":1}}]}}"#);
        assert_eq!(odd, Shown::default());
        assert_eq!(shown(r#"{"data":{}}"#), Shown::default());
        assert!(serde_json::from_str::<Shown<'_>>("{").is_err());
    }
}
