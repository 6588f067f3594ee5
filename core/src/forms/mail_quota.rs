//! The mail quotas (SECURITY.md, "No mail relay"): a booking mails the address its visitor typed,
//! so without a bound anyone could make the site mail any address without end.
//!
//! At most [`PER_RECIPIENT`] confirmations go to one recipient address per
//! [`RECIPIENT_WINDOW_MS`] (24 hours), and at most `site.yaml` `mail.max_per_hour` mails of any kind
//! per hour from the whole site. Both are fixed windows of the rate-limit machine
//! ([`Window::check`], a window opening at its first mail), keyed here (a recipient trimmed and
//! lower-cased, then hashed, so no address is kept) and stored durably by the platform (SQLite
//! natively, a Durable Object on the Worker). A submission whose mails do not fit both is refused
//! whole and counts against neither. Sans-IO: callers pass the windows they hold and `now`.

use serde::{Deserialize, Serialize};

use crate::forms::ids::{base32, digest};
use crate::http::ratelimit::{Limits, Window};

/// Confirmations one recipient address may be sent per [`RECIPIENT_WINDOW_MS`].
pub const PER_RECIPIENT: u32 = 3;
/// The window of [`PER_RECIPIENT`]: 24 hours.
pub const RECIPIENT_WINDOW_MS: u64 = 86_400_000;
/// The window of the site-wide cap (`mail.max_per_hour`): one hour.
pub const SITE_WINDOW_MS: u64 = 3_600_000;
/// The key of the site-wide window.
pub const SITE_KEY: &str = "mail-site";

/// The table both platforms keep the windows in (SQLite natively, the Durable Object's own SQLite
/// on the Worker), one row per key.
pub const SCHEMA: &str =
    "CREATE TABLE IF NOT EXISTS mail_quota (key TEXT PRIMARY KEY, start_ms INTEGER NOT NULL, count INTEGER NOT NULL)";
/// Reads the window of a key (parameter: the key): `start_ms`, `count`.
pub const SELECT: &str = "SELECT start_ms, count FROM mail_quota WHERE key = ?";
/// Stores the window of a key (parameters: key, `start_ms`, `count`).
pub const UPSERT: &str = "INSERT INTO mail_quota (key, start_ms, count) VALUES (?, ?, ?) \
     ON CONFLICT(key) DO UPDATE SET start_ms = excluded.start_ms, count = excluded.count";
/// Drops every window that has ended (parameter: [`sweep_before`]).
pub const SWEEP: &str = "DELETE FROM mail_quota WHERE start_ms <= ?";

/// The parameter of [`SWEEP`] at `now_ms`: every window that opened this long ago has ended, the
/// longest (a recipient's) included, so no hash of an address outlives its window.
pub fn sweep_before(now_ms: u64) -> i64 {
    i64::try_from(now_ms.saturating_sub(RECIPIENT_WINDOW_MS)).unwrap_or(i64::MAX)
}

/// What a submission asks of the quotas: `mails` mails now, one of them a confirmation to
/// `recipient` (a key from [`recipient_key`]) when there is one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ask {
    /// The recipient's key, for a confirmation to an address a visitor typed.
    pub recipient: Option<String>,
    /// How many mails the submission sends.
    pub mails: u32,
    /// The site-wide cap per hour (`mail.max_per_hour`).
    pub per_hour: u32,
    /// The time of the submission (Unix ms).
    pub now_ms: u64,
}

/// Which quota refused a submission.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Quota {
    /// The recipient has had its confirmations for the window.
    Recipient,
    /// The site has sent its mails for the hour.
    Site,
}

/// The verdict on an [`Ask`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Verdict {
    /// The mails may be sent; they are counted.
    Allowed,
    /// Refused by `quota`, whose window resets in `retry_after_secs` (at least 1).
    Refused {
        /// The quota that refused.
        quota: Quota,
        /// Seconds until it admits again.
        retry_after_secs: u64,
    },
}

/// The key of a recipient's window: the address trimmed and lower-cased, hashed.
pub fn recipient_key(address: &str) -> String {
    let normalised = address.trim().to_lowercase();
    format!("mail-to:{}", base32(digest(&[normalised.as_bytes()]), 25))
}

impl Ask {
    /// The keys of the windows the ask counts against, in the order [`decide`] takes them.
    pub fn keys(&self) -> Vec<String> {
        std::iter::once(SITE_KEY.to_string()).chain(self.recipient.clone()).collect()
    }

    /// Each key's limits and cost, in the order of [`Ask::keys`].
    fn charges(&self) -> Vec<(Quota, Limits, u32)> {
        let site = (Quota::Site, Limits { limit: self.per_hour, window_ms: SITE_WINDOW_MS }, self.mails);
        let recipient = (Quota::Recipient, Limits { limit: PER_RECIPIENT, window_ms: RECIPIENT_WINDOW_MS }, 1);
        std::iter::once(site).chain(self.recipient.as_ref().map(|_| recipient)).collect()
    }
}

/// Decides an ask over the windows held for its [`Ask::keys`] (`None`: none yet), in that order.
/// Returns the windows to store (none when refused: a refused submission counts nowhere) and the
/// verdict.
pub fn decide(ask: &Ask, held: &[Option<Window>]) -> (Vec<(String, Window)>, Verdict) {
    let mut updated = Vec::new();
    for ((key, (quota, limits, cost)), current) in ask.keys().into_iter().zip(ask.charges()).zip(held) {
        let (window, decision) = Window::check(*current, ask.now_ms, limits, cost);
        if !decision.allowed {
            return (Vec::new(), Verdict::Refused { quota, retry_after_secs: decision.reset_secs });
        }
        updated.push((key, window));
    }
    (updated, Verdict::Allowed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    /// A store of windows as a platform keeps them.
    fn run(store: &mut HashMap<String, Window>, ask: &Ask) -> Verdict {
        let held: Vec<Option<Window>> = ask.keys().iter().map(|key| store.get(key).copied()).collect();
        let (updated, verdict) = decide(ask, &held);
        store.extend(updated);
        verdict
    }

    fn booking(address: &str, per_hour: u32, now_ms: u64) -> Ask {
        Ask { recipient: Some(recipient_key(address)), mails: 2, per_hour, now_ms }
    }

    #[test]
    fn a_recipient_gets_three_confirmations_a_day_whatever_its_spelling() {
        let mut store = HashMap::new();
        for (n, spelling) in ["ana@example.org", " Ana@Example.org", "ANA@EXAMPLE.ORG "].iter().enumerate() {
            assert_eq!(run(&mut store, &booking(spelling, 200, 1_000 + n as u64)), Verdict::Allowed);
        }
        let refused = run(&mut store, &booking("ana@example.org", 200, 3_600_000));
        assert_eq!(refused, Verdict::Refused { quota: Quota::Recipient, retry_after_secs: 82_801 });
        assert_eq!(run(&mut store, &booking("eve@example.org", 200, 3_600_000)), Verdict::Allowed);
        assert_eq!(run(&mut store, &booking("ana@example.org", 200, 1_000 + RECIPIENT_WINDOW_MS)), Verdict::Allowed);
        assert!(!store.keys().any(|key| key.contains("ana")), "no address is kept: {store:?}");
    }

    #[test]
    fn the_site_cap_counts_every_mail_and_a_refused_submission_counts_nowhere() {
        let mut store = HashMap::new();
        assert_eq!(run(&mut store, &booking("a@example.org", 5, 0)), Verdict::Allowed);
        assert_eq!(run(&mut store, &booking("b@example.org", 5, 1)), Verdict::Allowed);
        let refused = run(&mut store, &booking("c@example.org", 5, 2));
        assert!(matches!(refused, Verdict::Refused { quota: Quota::Site, retry_after_secs: 3_600 }), "{refused:?}");
        assert!(!store.contains_key(&recipient_key("c@example.org")), "the refused recipient was not counted");
        let voice = Ask { recipient: None, mails: 1, per_hour: 5, now_ms: 3 };
        assert_eq!(run(&mut store, &voice), Verdict::Allowed, "one mail still fits");
        assert_eq!(run(&mut store, &booking("c@example.org", 5, SITE_WINDOW_MS)), Verdict::Allowed);
    }
}
