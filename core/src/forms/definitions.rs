//! The two things readers send the site: a community voice and a visit booking. Their fields are
//! defined once here, and everything else follows from these definitions: the validation of the
//! JSON actions (`/api/submit-voice`, `/api/send-booking-confirmation`) and of the HTML forms
//! (`/community-voices/new`, `/visit`), the forms' markup ([`crate::forms::markup`]) and the request
//! schemas of the OpenAPI document.

use serde_json::{Map, Value};

use crate::content::{Booking, SiteConfig};
use crate::forms::validate::{Fields, Use};
use crate::http::problem::FieldError;

/// The longest value of a choice field (`groupSize`, `tourType`, ...).
pub use crate::forms::validate::MAX_CHOICE;

/// Which of `site.yaml`'s `booking:` lists a choice field takes its values from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChoiceList {
    /// `booking.groupSize`
    GroupSize,
    /// `booking.tourType`
    TourType,
    /// `booking.meetingPoint`
    MeetingPoint,
    /// `booking.paymentMethod`
    PaymentMethod,
}

impl ChoiceList {
    /// The allowed values (any short text when the list is empty).
    pub fn values(self, booking: &Booking) -> &[String] {
        match self {
            ChoiceList::GroupSize => &booking.group_size,
            ChoiceList::TourType => &booking.tour_type,
            ChoiceList::MeetingPoint => &booking.meeting_point,
            ChoiceList::PaymentMethod => &booking.payment_method,
        }
    }
}

/// What a field takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Input {
    /// Text of at most `max` characters; `usage` says whether it ends up in a mail header (no line
    /// breaks); `long` asks for a multi-line box.
    Text {
        /// Longest value, in characters.
        max: usize,
        /// Where the value goes.
        usage: Use,
        /// A multi-line text box.
        long: bool,
    },
    /// An e-mail address a mail server accepts.
    Email,
    /// A calendar date, today or later.
    FutureDate,
    /// A clock time `HH:MM`.
    Time,
    /// One of a `booking:` list.
    Choice(ChoiceList),
}

/// One field of a form.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Field {
    /// Its name (JSON member and form control).
    pub name: &'static str,
    /// Whether it must be given.
    pub required: bool,
    /// What it takes.
    pub input: Input,
    /// The browser's `autocomplete` token, where one fits.
    pub autocomplete: Option<&'static str>,
    /// What it is, for the API documentation (English).
    pub description: &'static str,
}

/// A form: its fields, in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Form {
    /// Its name in the interface text (`forms.<id>.*`) and in stored submissions (`voice`, `booking`).
    pub id: &'static str,
    /// Its fields.
    pub fields: &'static [Field],
}

/// Longest voice title, author and story (docs/spec/api-spec.md#submit-voice).
pub const MAX_TITLE: usize = 200;
/// See [`MAX_TITLE`].
pub const MAX_AUTHOR: usize = 100;
/// See [`MAX_TITLE`].
pub const MAX_CONTENT: usize = 20_000;
/// Longest booking name.
pub const MAX_NAME: usize = 100;

/// A community story for the editors (docs/spec/api-spec.md#submit-voice).
pub const VOICE: Form = Form {
    id: "voice",
    fields: &[
        Field {
            name: "title",
            required: true,
            input: Input::Text { max: MAX_TITLE, usage: Use::Header, long: false },
            autocomplete: Some("off"),
            description: "The story's title; no line breaks.",
        },
        Field {
            name: "author",
            required: true,
            input: Input::Text { max: MAX_AUTHOR, usage: Use::Header, long: false },
            autocomplete: Some("name"),
            description: "Who tells it; no line breaks.",
        },
        Field {
            name: "content",
            required: true,
            input: Input::Text { max: MAX_CONTENT, usage: Use::Body, long: true },
            autocomplete: None,
            description: "The story; line breaks allowed.",
        },
    ],
};

/// A visit request (docs/spec/api-spec.md#booking); the choices come from `site.yaml`.
pub const BOOKING: Form = Form {
    id: "booking",
    fields: &[
        Field {
            name: "name",
            required: true,
            input: Input::Text { max: MAX_NAME, usage: Use::Header, long: false },
            autocomplete: Some("name"),
            description: "The visitor's name; no line breaks.",
        },
        Field {
            name: "email",
            required: true,
            input: Input::Email,
            autocomplete: Some("email"),
            description: "Where the confirmation goes.",
        },
        Field {
            name: "visitDate",
            required: true,
            input: Input::FutureDate,
            autocomplete: None,
            description: "YYYY-MM-DD, today or later (UTC).",
        },
        Field {
            name: "visitTime",
            required: true,
            input: Input::Time,
            autocomplete: None,
            description: "HH:MM, 24 hours.",
        },
        Field {
            name: "groupSize",
            required: true,
            input: Input::Choice(ChoiceList::GroupSize),
            autocomplete: None,
            description: "How many people come.",
        },
        Field {
            name: "tourType",
            required: true,
            input: Input::Choice(ChoiceList::TourType),
            autocomplete: None,
            description: "Which visit.",
        },
        Field {
            name: "meetingPoint",
            required: false,
            input: Input::Choice(ChoiceList::MeetingPoint),
            autocomplete: None,
            description: "Where to meet.",
        },
        Field {
            name: "paymentMethod",
            required: false,
            input: Input::Choice(ChoiceList::PaymentMethod),
            autocomplete: None,
            description: "How the visitor pays.",
        },
    ],
};

impl Form {
    /// The field named `name`.
    pub fn field(&self, name: &str) -> Option<&'static Field> {
        self.fields.iter().find(|f| f.name == name)
    }

    /// Checks `body` against the fields: the valid values (trimmed) in field order, optional ones
    /// only when given; else every failing field. `today` is the day number (UTC) of the request.
    pub fn validate(
        &self,
        body: &Map<String, Value>,
        site: &SiteConfig,
        today: i64,
    ) -> Result<Map<String, Value>, Vec<FieldError>> {
        let mut fields = Fields::new(body);
        let values: Vec<(&str, Option<String>)> = self
            .fields
            .iter()
            .map(|field| {
                let value = match field.input {
                    Input::Text { max, usage, .. } => fields.text(field.name, field.required, max, usage),
                    Input::Email => fields.email(field.name),
                    Input::FutureDate => fields.date_from(field.name, today),
                    Input::Time => fields.clock(field.name),
                    Input::Choice(list) => fields.choice(field.name, field.required, list.values(site.booking_lists())),
                };
                (field.name, value)
            })
            .collect();
        fields.into_errors()?;
        Ok(values.into_iter().filter_map(|(name, value)| value.map(|v| (name.to_string(), Value::String(v)))).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn body(value: Value) -> Map<String, Value> {
        value.as_object().cloned().unwrap_or_default()
    }

    #[test]
    fn every_failing_field_is_reported_with_its_reason() {
        let site = SiteConfig::default();
        let errors = VOICE
            .validate(&body(json!({"title": "a\nb", "content": "x".repeat(MAX_CONTENT + 1)})), &site, 0)
            .expect_err("invalid");
        let reasons: Vec<(&str, &str)> = errors.iter().map(|e| (e.field.as_str(), e.reason)).collect();
        assert_eq!(reasons, [("title", "line_break"), ("author", "required"), ("content", "too_long")]);
    }

    #[test]
    fn valid_values_come_back_trimmed_and_optional_ones_only_when_given() {
        let mut site = SiteConfig::default();
        site.booking.get_or_insert_with(Default::default).group_size = vec!["1-5".into()];
        let given = json!({"name": " Ana ", "email": "ana@example.org", "visitDate": "2099-01-01", "visitTime": "10:00",
                           "groupSize": "1-5", "tourType": "walk"});
        let valid = BOOKING.validate(&body(given), &site, 0).expect("valid");
        let names: Vec<&String> = valid.keys().collect();
        assert_eq!(names, ["name", "email", "visitDate", "visitTime", "groupSize", "tourType"]);
        assert_eq!(valid["name"], "Ana");
        let wrong = BOOKING.validate(&body(json!({"groupSize": "99"})), &site, 0).expect_err("invalid");
        assert!(wrong.iter().any(|e| e.field == "groupSize" && e.reason == "choice"));
    }
}
