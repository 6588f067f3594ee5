//! The markup of the site's forms ([`crate::forms`]): one rendering for the empty form, and for a
//! form sent back with the visitor's values and a message beside each field at fault. Plain HTML
//! that works without scripts: labels for every control, `aria-invalid` and `aria-describedby` on
//! fields at fault, a summary at the top that links to them, and a honeypot field for naive bots.

use std::fmt::Write;

use serde_json::{Map, Value};

use crate::content::i18n::Strings;
use crate::content::text::escape;
use crate::content::SiteConfig;
use crate::forms::{Field, Form, Input};
use crate::http::problem::FieldError;

/// The name of the honeypot field: visually hidden, labelled "leave this empty"; people leave it
/// empty, form-filling bots do not.
pub const HONEYPOT: &str = "website";

/// What a form is drawn with.
pub struct FormView<'a> {
    /// The form.
    pub form: &'static Form,
    /// The site (its booking choices).
    pub site: &'a SiteConfig,
    /// The interface text.
    pub strings: &'a Strings,
    /// The values to show (as the visitor typed them).
    pub values: &'a Map<String, Value>,
    /// What is wrong, by field.
    pub errors: &'a [FieldError],
    /// Today (`YYYY-MM-DD`, UTC), the earliest date a date field offers.
    pub today: &'a str,
    /// A fresh idempotency key for this rendering of the form, sent back in a hidden field so a
    /// post sent twice is stored once (docs/spec/api-spec.md#idempotency).
    pub key: &'a str,
}

impl FormView<'_> {
    fn label(&self, field: &Field) -> String {
        // `title` is also the page title's key, so the voice title field has its own.
        let key = if field.name == "title" { "title_field" } else { field.name };
        self.strings.get(&format!("forms.{}.{key}", self.form.id)).to_string()
    }

    fn error(&self, name: &str) -> Option<String> {
        let error = self.errors.iter().find(|e| e.field == name)?;
        let params: Vec<(&str, &str)> = error.params.iter().map(|(k, v)| (*k, v.as_str())).collect();
        Some(self.strings.fill(&format!("forms.errors.{}", error.reason), &params))
    }

    fn value(&self, name: &str) -> String {
        self.values.get(name).and_then(Value::as_str).map(escape).unwrap_or_default()
    }

    /// The whole `<form>`, posting to the page's own URL.
    pub fn render(&self) -> String {
        let mut out = String::new();
        out.push_str(&self.summary());
        let _ = write!(
            out,
            "<form class=\"form\" method=\"post\" action=\"\" accept-charset=\"utf-8\" data-outbox=\"{}\" \
             data-queued=\"{}\" data-sent=\"{}\" data-refused=\"{}\" data-offline=\"{}\">\n<p class=\"form-note\">{}</p>\n",
            self.form.id,
            escape(self.strings.get("forms.outbox.queued")),
            escape(self.strings.get("forms.outbox.sent")),
            escape(self.strings.get("forms.outbox.refused")),
            escape(self.strings.get("forms.outbox.offline")),
            escape(self.strings.get("forms.required_note"))
        );
        for field in self.form.fields {
            out.push_str(&self.field(field));
        }
        out.push_str(&self.honeypot());
        let _ = writeln!(
            out,
            "<input type=\"hidden\" name=\"{}\" value=\"{}\">",
            crate::forms::idempotency::FORM_FIELD,
            escape(self.key)
        );
        let _ = write!(
            out,
            "<p><button type=\"submit\">{}</button></p>\n</form>\n",
            escape(self.strings.get(&format!("forms.{}.submit", self.form.id)))
        );
        out
    }

    /// The list of problems at the top, linking to each field (announced when the page loads).
    fn summary(&self) -> String {
        if self.errors.is_empty() {
            return String::new();
        }
        let mut items = String::new();
        for error in self.errors {
            let label = match self.form.field(&error.field) {
                Some(field) => self.label(field),
                None => self.strings.get("forms.honeypot").to_string(),
            };
            let message = self.error(&error.field).unwrap_or_default();
            let _ = writeln!(
                items,
                "<li><a href=\"#f-{}\">{}: {}</a></li>",
                escape(&error.field),
                escape(&label),
                escape(&message)
            );
        }
        format!(
            "<div class=\"error-summary\" role=\"alert\" aria-labelledby=\"error-summary-title\">\n<h2 id=\"error-summary-title\">{}</h2>\n<ul>\n{items}</ul>\n</div>\n",
            escape(self.strings.get("forms.problem"))
        )
    }

    fn field(&self, field: &Field) -> String {
        let id = format!("f-{}", field.name);
        let error = self.error(field.name);
        let mut attributes = format!(" id=\"{id}\" name=\"{}\"", field.name);
        if field.required {
            attributes.push_str(" required");
        }
        if let Some(token) = field.autocomplete {
            let _ = write!(attributes, " autocomplete=\"{token}\"");
        }
        if error.is_some() {
            let _ = write!(attributes, " aria-invalid=\"true\" aria-describedby=\"{id}-error\"");
        }
        let required = if field.required {
            format!(" <span class=\"required\">({})</span>", escape(self.strings.get("forms.required")))
        } else {
            String::new()
        };
        let message = error
            .map(|m| format!("<p class=\"field-error\" id=\"{id}-error\">{}</p>\n", escape(&m)))
            .unwrap_or_default();
        format!(
            "<div class=\"field{}\">\n<label for=\"{id}\">{}{required}</label>\n{message}{}\n</div>\n",
            if message.is_empty() { "" } else { " field-invalid" },
            escape(&self.label(field)),
            self.control(field, &attributes)
        )
    }

    fn control(&self, field: &Field, attributes: &str) -> String {
        let value = self.value(field.name);
        match field.input {
            Input::Text { max, long: true, .. } => {
                format!("<textarea{attributes} rows=\"10\" maxlength=\"{max}\">{value}</textarea>")
            }
            Input::Text { max, .. } => {
                format!("<input{attributes} type=\"text\" maxlength=\"{max}\" value=\"{value}\">")
            }
            Input::Email => format!("<input{attributes} type=\"email\" value=\"{value}\">"),
            Input::FutureDate => {
                format!("<input{attributes} type=\"date\" min=\"{}\" value=\"{value}\">", escape(self.today))
            }
            Input::Time => format!("<input{attributes} type=\"time\" value=\"{value}\">"),
            Input::Choice(list) => {
                let choices = list.values(self.site.booking_lists());
                if choices.is_empty() {
                    return format!(
                        "<input{attributes} type=\"text\" maxlength=\"{}\" value=\"{value}\">",
                        crate::forms::MAX_CHOICE
                    );
                }
                let mut options = format!("<option value=\"\">{}</option>", escape(self.strings.get("forms.choose")));
                for choice in choices {
                    let chosen = if escape(choice) == value { " selected" } else { "" };
                    let label = self.site.label(choice, self.strings).unwrap_or(choice);
                    let _ = write!(options, "<option value=\"{}\"{chosen}>{}</option>", escape(choice), escape(label));
                }
                format!("<select{attributes}>{options}</select>")
            }
        }
    }

    /// A field people do not see and leave empty; a form-filling bot fills it in.
    fn honeypot(&self) -> String {
        format!(
            "<div class=\"visually-hidden\">\n<label for=\"f-{HONEYPOT}\">{}</label>\n<input id=\"f-{HONEYPOT}\" name=\"{HONEYPOT}\" type=\"text\" tabindex=\"-1\" autocomplete=\"off\" value=\"{}\">\n</div>\n",
            escape(self.strings.get("forms.honeypot")),
            self.value(HONEYPOT)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::forms::{BOOKING, VOICE};
    use serde_json::json;

    fn strings() -> Strings {
        Strings(json!({"forms": {"errors": {"too_long": "At most {max}."}, "voice": {"title_field": "Title"}}}))
    }

    #[test]
    fn typed_values_come_back_escaped_with_messages_beside_their_fields() {
        let site = SiteConfig::default();
        let values = json!({"title": "<script>alert(1)</script>", "author": "Ana \"A\""});
        let values = values.as_object().cloned().unwrap_or_default();
        let errors = [FieldError::new("title", "too long").because("too_long", vec![("max", "200".into())])];
        let view = FormView {
            form: &VOICE,
            site: &site,
            strings: &strings(),
            values: &values,
            errors: &errors,
            today: "2026-11-24",
            key: "k-1",
        };
        let html = view.render();
        assert!(html.contains("value=\"&lt;script&gt;alert(1)&lt;/script&gt;\""), "{html}");
        assert!(!html.contains("<script>"));
        assert!(html.contains("value=\"Ana &quot;A&quot;\""));
        assert!(html.contains("aria-invalid=\"true\" aria-describedby=\"f-title-error\""));
        assert!(html.contains("<input type=\"hidden\" name=\"idempotency_key\" value=\"k-1\">"), "{html}");
        assert!(html.contains(" data-outbox=\"voice\""), "the outbox script finds the form");
        assert!(html.contains("<p class=\"field-error\" id=\"f-title-error\">At most 200.</p>"));
        assert!(html.contains("<a href=\"#f-title\">Title: At most 200.</a>"));
        assert!(html.contains("name=\"website\""));
    }

    #[test]
    fn choices_become_selects_and_every_control_has_a_label() {
        let mut site = SiteConfig::default();
        site.booking.get_or_insert_with(Default::default).group_size = vec!["1-5".into(), "6-10".into()];
        let values = json!({"groupSize": "6-10"}).as_object().cloned().unwrap_or_default();
        let view = FormView {
            form: &BOOKING,
            site: &site,
            strings: &strings(),
            values: &values,
            errors: &[],
            today: "2026-11-24",
            key: "k-1",
        };
        let html = view.render();
        assert!(html.contains("<option value=\"6-10\" selected>6-10</option>"));
        assert!(html.contains("type=\"date\" min=\"2026-11-24\""));
        assert!(
            html.contains("<input id=\"f-tourType\" name=\"tourType\" required type=\"text\""),
            "free text without choices"
        );
        for field in BOOKING.fields {
            assert!(html.contains(&format!("<label for=\"f-{}\">", field.name)), "{}", field.name);
        }
    }
}
