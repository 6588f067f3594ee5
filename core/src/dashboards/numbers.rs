//! Numbers as the interface language writes them: digits grouped by `numbers.group`, the
//! fraction after `numbers.decimal` (see `templates/i18n/<lang>.yaml`).

use crate::content::i18n::Strings;
use serde_json::Value;

/// How numbers are written: the group separator and the decimal mark.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Format {
    /// Between groups of three digits (`,` in English, a space in French).
    pub group: String,
    /// Before the fraction (`.` or `,`).
    pub decimal: String,
}

impl Default for Format {
    fn default() -> Self {
        Format { group: ",".into(), decimal: ".".into() }
    }
}

impl Format {
    /// The format of the interface text `strings` (English's where it says nothing).
    pub fn of(strings: &Strings) -> Self {
        let text =
            |key: &str, default: &str| strings.lookup(key).and_then(Value::as_str).unwrap_or(default).to_string();
        Format { group: text("numbers.group", ","), decimal: text("numbers.decimal", ".") }
    }

    /// `value` written out: `41250` is `41,250`, `0.59` stays `0.59`, `37.0` is `37`; numbers too
    /// large or too small to write out digit by digit keep an exponent (`1e300`).
    pub fn number(&self, value: f64) -> String {
        if !value.is_finite() {
            return "–".into();
        }
        let magnitude = value.abs();
        if magnitude >= 1e15 || (magnitude != 0.0 && magnitude < 1e-6) {
            return format!("{value:e}");
        }
        // Two decimals at most: charts and tables show figures, not measurements.
        let rounded = (value * 100.0).round() / 100.0;
        let text = format!("{rounded}");
        let (whole, fraction) = text.split_once('.').map_or((text.as_str(), None), |(w, f)| (w, Some(f)));
        let (sign, digits) = whole.strip_prefix('-').map_or(("", whole), |d| ("-", d));
        let mut grouped = String::with_capacity(digits.len() + digits.len() / 3);
        for (i, c) in digits.chars().enumerate() {
            if i > 0 && (digits.len() - i) % 3 == 0 {
                grouped.push_str(&self.group);
            }
            grouped.push(c);
        }
        let sign = if grouped.chars().all(|c| c == '0') && fraction.is_none() { "" } else { sign };
        match fraction {
            Some(f) => format!("{sign}{grouped}{}{f}", self.decimal),
            None => format!("{sign}{grouped}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_grouped_as_the_language_writes_them() {
        let en = Format::default();
        assert_eq!(en.number(41250.0), "41,250");
        assert_eq!(en.number(12_000_000.0), "12,000,000");
        assert_eq!(en.number(-4800.5), "-4,800.5");
        assert_eq!(en.number(0.59), "0.59");
        assert_eq!(en.number(37.0), "37");
        assert_eq!(en.number(0.0), "0");
        assert_eq!(en.number(999.0), "999");
        let fr = Format { group: " ".into(), decimal: ",".into() };
        assert_eq!(fr.number(41250.25), "41 250,25");
    }

    #[test]
    fn huge_and_tiny_numbers_keep_an_exponent() {
        let en = Format::default();
        assert_eq!(en.number(1e300), "1e300");
        assert_eq!(en.number(-2.5e20), "-2.5e20");
        assert_eq!(en.number(1e-9), "1e-9");
        assert_eq!(en.number(f64::NAN), "–");
    }
}
