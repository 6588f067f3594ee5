//! What a platform stores for core, as plain data: submissions with their mails, the rows and
//! steps of idempotency keys, and the asks and verdicts of the mail quotas. The rules over them
//! live with the forms ([`crate::forms::idempotency`], [`crate::forms::mail_quota`],
//! [`crate::forms::outbox`]), which re-export these types under their own names; they are here so
//! that the [`Platform`](super::Platform) trait names them without depending on the forms.

use serde::{Deserialize, Serialize};

/// An email to send from the outbox.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mail {
    /// The sender (`notifications.from`).
    pub from: String,
    /// The recipients.
    pub to: Vec<String>,
    /// Where replies go, if not to the sender.
    pub reply_to: Option<String>,
    /// The subject line.
    pub subject: String,
    /// The plain-text body.
    pub text: String,
    /// The HTML body, if any.
    pub html: Option<String>,
}

/// A submission (a community voice or a booking) with the mails it triggers, stored atomically.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Submission {
    /// `voice` or `booking`.
    pub kind: String,
    /// The id or booking reference given to the client.
    pub id: String,
    /// When it was received (RFC 3339).
    pub received_at: String,
    /// The validated fields, as JSON.
    pub data: serde_json::Value,
    /// The mails to send once it is stored.
    pub mails: Vec<Mail>,
    /// The site's hourly mail cap (`mail.max_per_hour`) its mails are sent under: they wait in the
    /// outbox while the cap has no room (`crate::forms::outbox::admit`).
    pub mail_per_hour: u32,
}

/// An idempotency key's row (docs/spec/api-spec.md#idempotency).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeyRecord {
    /// A digest of the request the key was first sent with ([`fingerprint`](crate::forms::idempotency::fingerprint)).
    pub fingerprint: String,
    /// Who claimed it: a value unique to that request.
    pub owner: String,
    /// The answer, once there is one.
    pub answer: Option<KeyAnswer>,
    /// When the row may be taken over (Unix ms).
    pub until_ms: u64,
}

/// An answer as it is kept and given again.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeyAnswer {
    /// The status.
    pub status: u16,
    /// The handler's headers (the pipeline adds the shared ones to every answer anyway).
    pub headers: Vec<(String, String)>,
    /// The body (the submission answers are UTF-8: JSON, HTML, or empty).
    pub body: String,
}

/// What a platform is asked to do with an idempotency key, atomically
/// ([`crate::forms::idempotency::statements`], [`crate::forms::idempotency::apply`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeyStep {
    /// Claim `key` for `owner` unless a live row holds it; answers the row as it then is.
    Claim {
        /// The scoped key ([`scoped`](crate::forms::idempotency::scoped)).
        key: String,
        /// The request's [`fingerprint`](crate::forms::idempotency::fingerprint).
        fingerprint: String,
        /// The claiming request.
        owner: String,
        /// The request time.
        now_ms: u64,
    },
    /// Keep `answer` as the key's, if `owner` still holds it.
    Answer {
        /// The scoped key.
        key: String,
        /// The claiming request.
        owner: String,
        /// The answer to give again.
        answer: KeyAnswer,
        /// The time of the answer.
        now_ms: u64,
    },
    /// Forget the key, if `owner` still holds it unanswered (the request was refused).
    Release {
        /// The scoped key.
        key: String,
        /// The claiming request.
        owner: String,
    },
}

impl KeyStep {
    /// The scoped key the step is about.
    pub fn key(&self) -> &str {
        match self {
            KeyStep::Claim { key, .. } | KeyStep::Answer { key, .. } | KeyStep::Release { key, .. } => key,
        }
    }
}

/// What is asked of the mail quotas (docs/spec/api-spec.md#mail-quotas); its windows' keys and
/// limits are the quotas' own ([`crate::forms::mail_quota`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum MailAsk {
    /// One confirmation to an address a visitor typed, asked when its submission is stored;
    /// `recipient` is a key from [`recipient_key`](crate::forms::mail_quota::recipient_key).
    Confirmation {
        /// The recipient's key.
        recipient: String,
        /// The time of the submission (Unix ms).
        now_ms: u64,
    },
    /// `mails` mails about to leave the outbox, asked by the delivery pass before it sends them.
    Send {
        /// How many mails.
        mails: u32,
        /// The site-wide cap per window (`mail.max_per_hour`, as stored with the mail).
        per_hour: u32,
        /// The window of the cap: [`SITE_WINDOW_MS`](crate::forms::mail_quota::SITE_WINDOW_MS) (`portal serve` lets tests shorten it).
        window_ms: u64,
        /// The time of the pass (Unix ms).
        now_ms: u64,
    },
}

/// Which mail quota refused an ask.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum MailQuota {
    /// The recipient has had its confirmations for the window.
    Recipient,
    /// The site has sent its mails for the hour.
    Site,
}

/// The verdict on a [`MailAsk`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum MailVerdict {
    /// The mails may be sent; they are counted.
    Allowed,
    /// Refused by `quota`, whose window resets in `retry_after_secs` (at least 1), at `reset_at`.
    Refused {
        /// The quota that refused.
        quota: MailQuota,
        /// Seconds until it admits again.
        retry_after_secs: u64,
        /// When it admits again (Unix seconds, rounded up): the same for every ask refused in
        /// one window, so mails that wait for it are due together and go oldest first.
        reset_at: u64,
    },
}
