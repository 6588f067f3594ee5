//! Field-level validation of action bodies (docs/spec/api-spec.md#actions): every failing field is collected,
//! so one 400 `invalid_body` lists them all.
//!
//! The rules protect what is built from the fields later: header-bound values may not carry a line
//! break (no header injection), e-mail addresses must be ones a mail server accepts, dates and times
//! are real ones. This module knows nothing about which endpoint uses which rule.

use serde_json::{Map, Value};

use crate::content::time::{day_number, parse_clock, parse_date};
use crate::http::body::json_kind;
use crate::http::problem::{FieldError, Problem};

/// The longest e-mail address a mail server accepts (RFC 5321 path limit minus the brackets).
pub const MAX_EMAIL: usize = 254;

/// The longest value of a choice field (`groupSize`, `tourType`, ...).
pub const MAX_CHOICE: usize = 100;

/// The longest local part of an e-mail address (RFC 5321).
const MAX_LOCAL_PART: usize = 64;

/// Whether a value is built into a mail header (so a line break in it would inject headers).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Use {
    /// Only in a mail body or the store.
    Body,
    /// In a header (subject, display name, address): CR and LF are rejected.
    Header,
}

/// The fields of one request body being checked; failures accumulate until [`Fields::finish`].
#[derive(Debug)]
pub struct Fields<'a> {
    body: &'a Map<String, Value>,
    errors: Vec<FieldError>,
}

impl<'a> Fields<'a> {
    /// Starts checking `body`.
    pub fn new(body: &'a Map<String, Value>) -> Self {
        Fields { body, errors: Vec::new() }
    }

    /// Records a failure of `field`.
    pub fn fail(&mut self, field: &str, message: impl Into<String>) {
        self.errors.push(FieldError::new(field, message));
    }

    /// Records a failure of `field` with its reason (a key of `forms.errors` in the interface text).
    fn fail_because(&mut self, field: &str, reason: &'static str, message: impl Into<String>) {
        self.fail_with(field, reason, Vec::new(), message);
    }

    fn fail_with(
        &mut self,
        field: &str,
        reason: &'static str,
        params: Vec<(&'static str, String)>,
        message: impl Into<String>,
    ) {
        self.errors.push(FieldError::new(field, message).because(reason, params));
    }

    /// A string field, trimmed, non-empty and at most `max_chars` characters. `None` when absent
    /// (an error if `required`) or invalid.
    pub fn text(&mut self, field: &str, required: bool, max_chars: usize, usage: Use) -> Option<String> {
        let value = match self.body.get(field) {
            None | Some(Value::Null) => {
                if required {
                    self.fail_because(field, "required", "is required");
                }
                return None;
            }
            Some(Value::String(s)) => s.trim(),
            Some(other) => {
                self.fail(field, format!("must be a string, not {}", json_kind(other)));
                return None;
            }
        };
        if value.is_empty() {
            if required {
                self.fail_because(field, "required", "must not be empty");
            }
            return None;
        }
        match check_text(value, max_chars, usage) {
            Ok(()) => Some(value.to_string()),
            Err((reason, message)) => {
                self.fail_with(field, reason, vec![("max", max_chars.to_string())], message);
                None
            }
        }
    }

    /// A required e-mail address that a mail server accepts (see [`check_email`]).
    pub fn email(&mut self, field: &str) -> Option<String> {
        let value = self.text(field, true, MAX_EMAIL, Use::Header)?;
        match check_email(&value) {
            Ok(()) => Some(value),
            Err(message) => {
                self.fail_because(field, "email", message);
                None
            }
        }
    }

    /// A choice among `allowed` (any short text when the site lists none).
    pub fn choice(&mut self, field: &str, required: bool, allowed: &[String]) -> Option<String> {
        let value = self.text(field, required, MAX_CHOICE, Use::Body)?;
        if allowed.is_empty() || allowed.contains(&value) {
            return Some(value);
        }
        self.fail_with(
            field,
            "choice",
            vec![("choices", allowed.join(", "))],
            format!("must be one of: {}", allowed.join(", ")),
        );
        None
    }

    /// A required calendar date `YYYY-MM-DD` that is not before `today` (days since the epoch, UTC).
    pub fn date_from(&mut self, field: &str, today: i64) -> Option<String> {
        let value = self.text(field, true, 10, Use::Body)?;
        match parse_date(&value) {
            Ok(date) if day_number(date) >= today => Some(value),
            Ok(_) => {
                self.fail_because(field, "past", "must not be in the past");
                None
            }
            Err(e) => {
                self.fail_because(field, "date", e.0);
                None
            }
        }
    }

    /// A required clock time `HH:MM` (24 hours).
    pub fn clock(&mut self, field: &str) -> Option<String> {
        let value = self.text(field, true, 5, Use::Body)?;
        if parse_clock(&value).is_some() {
            return Some(value);
        }
        self.fail_because(field, "time", format!("`{value}` is not a time of the form HH:MM (24 hours)"));
        None
    }

    /// `Ok` when every field passed, else the 400 `invalid_body` listing each failure.
    pub fn finish(self) -> Result<(), Problem> {
        self.into_errors().map_err(Problem::invalid_body)
    }

    /// `Ok` when every field passed, else every failure (for a page that shows them by its fields).
    pub fn into_errors(self) -> Result<(), Vec<FieldError>> {
        if self.errors.is_empty() {
            Ok(())
        } else {
            Err(self.errors)
        }
    }
}

/// Length and character rules of a trimmed text value; `Err` carries the reason and the message.
pub fn check_text(value: &str, max_chars: usize, usage: Use) -> Result<(), (&'static str, String)> {
    if value.chars().count() > max_chars {
        return Err(("too_long", format!("must be at most {max_chars} characters")));
    }
    if usage == Use::Header && value.contains(['\r', '\n']) {
        return Err(("line_break", "must not contain a line break (CR or LF)".to_string()));
    }
    if value.chars().any(|c| c.is_control() && !matches!(c, '\n' | '\r' | '\t')) {
        return Err(("control", "must not contain control characters".to_string()));
    }
    Ok(())
}

/// Whether `address` is an e-mail address a mail server accepts: one `@`, a dot-atom local part of
/// at most 64 printable ASCII characters, a domain of at least two DNS labels (letters, digits,
/// hyphens), no spaces, no control characters, at most [`MAX_EMAIL`] characters.
pub fn check_email(address: &str) -> Result<(), String> {
    let bad = |why: &str| Err(format!("is not a valid e-mail address: {why}"));
    if address.len() > MAX_EMAIL {
        return bad("it is too long");
    }
    let Some((local, domain)) = address.split_once('@') else {
        return bad("it has no @");
    };
    if domain.contains('@') {
        return bad("it has more than one @");
    }
    if local.is_empty() || local.len() > MAX_LOCAL_PART {
        return bad("the part before @ must have 1 to 64 characters");
    }
    let atext = |c: char| c.is_ascii_alphanumeric() || "!#$%&'*+/=?^_`{|}~-".contains(c);
    if !local.split('.').all(|atom| !atom.is_empty() && atom.chars().all(atext)) {
        return bad("the part before @ has a character or dot a mail server refuses");
    }
    let labels: Vec<&str> = domain.split('.').collect();
    if labels.len() < 2 {
        return bad("the domain needs a dot");
    }
    let label_ok = |l: &&str| {
        !l.is_empty()
            && l.len() <= 63
            && !l.starts_with('-')
            && !l.ends_with('-')
            && l.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
    };
    if !labels.iter().all(label_ok) {
        return bad("the domain is not a valid host name");
    }
    if labels.last().is_some_and(|tld| tld.chars().all(|c| c.is_ascii_digit())) {
        return bad("the domain must end in a name, not a number");
    }
    Ok(())
}

/// The required JSON object of an action body: an empty body is `invalid_body` on `body`.
pub fn require_object(body: Option<Map<String, Value>>) -> Result<Map<String, Value>, Problem> {
    body.ok_or_else(|| Problem::invalid_body(vec![FieldError::new("body", "A JSON object body is required.")]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn fields(value: Value) -> Map<String, Value> {
        serde_json::from_value(value).unwrap_or_default()
    }

    #[test]
    fn addresses_a_mail_server_accepts_pass() {
        for ok in ["a@example.org", "first.last+tag@sub.example.co.uk", "x_y@a-b.io"] {
            assert_eq!(check_email(ok), Ok(()), "{ok}");
        }
    }

    #[test]
    fn broken_addresses_are_refused() {
        let long = format!("{}@example.org", "a".repeat(65));
        for bad in [
            "plain",
            "a@b@example.org",
            "a b@example.org",
            "a@localhost",
            "a@example..org",
            ".a@example.org",
            "a..b@example.org",
            "a@-example.org",
            "a@example.123",
            "\"q\"@example.org",
            "ä@example.org",
            long.as_str(),
        ] {
            assert!(check_email(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn every_failing_field_is_listed_once() {
        let body = fields(json!({"name": "A\r\nBcc: x@y.org", "email": "nope", "visitTime": "25:00", "n": 3}));
        let mut f = Fields::new(&body);
        assert_eq!(f.text("name", true, 100, Use::Header), None);
        assert_eq!(f.email("email"), None);
        assert_eq!(f.clock("visitTime"), None);
        assert_eq!(f.text("n", true, 10, Use::Body), None);
        assert_eq!(f.text("missing", true, 10, Use::Body), None);
        assert_eq!(f.text("optional", false, 10, Use::Body), None);
        let problem = f.finish().expect_err("invalid");
        let doc = problem.document("", "/");
        let named: Vec<&str> =
            doc["errors"].as_array().into_iter().flatten().filter_map(|e| e["field"].as_str()).collect();
        assert_eq!(named, ["name", "email", "visitTime", "n", "missing"]);
    }

    #[test]
    fn dates_must_be_real_and_not_past() {
        let today = parse_date("2026-11-22").map(day_number).unwrap_or_default();
        let body = fields(json!({"a": "2026-11-22", "b": "2026-11-21", "c": "2026-02-30", "d": "22/11/2026"}));
        let mut f = Fields::new(&body);
        assert_eq!(f.date_from("a", today).as_deref(), Some("2026-11-22"));
        assert_eq!(f.date_from("b", today), None);
        assert_eq!(f.date_from("c", today), None);
        assert_eq!(f.date_from("d", today), None);
        assert_eq!(f.errors.len(), 3);
    }

    #[test]
    fn choices_come_from_the_list() {
        let allowed = vec!["cash".to_string()];
        let body = fields(json!({"p": "cash", "q": "gold"}));
        let mut f = Fields::new(&body);
        assert_eq!(f.choice("p", true, &allowed).as_deref(), Some("cash"));
        assert_eq!(f.choice("q", true, &allowed), None);
        assert_eq!(f.choice("q", true, &[]).as_deref(), Some("gold"));
    }
}
