//! The mail quotas (SECURITY.md, "No mail relay"): a booking mails the address its visitor typed,
//! so without a bound anyone could make the site mail any address without end.
//!
//! At most [`PER_RECIPIENT`] confirmations go to one recipient address per
//! [`RECIPIENT_WINDOW_MS`] (24 hours), and at most `site.yaml` `mail.max_per_hour` mails of any kind
//! leave the site per hour. Both are fixed windows of the rate-limit machine ([`Window::check`], a
//! window opening at its first mail), keyed here (a recipient [`normalise`]d, then hashed, so no
//! address is kept) and stored durably by the platform (SQLite natively, a Durable Object on the
//! Worker). Sans-IO: callers pass the windows they hold and `now`.
//!
//! Neither quota ever refuses a submission (docs/spec/api-spec.md#mail-quotas): a form must not
//! go down because mail is short. A confirmation past its recipient's quota is not queued, and
//! the answer is the same as when it is, so it tells nobody whether the address booked before;
//! a mail past the site's hour waits in the outbox until the window allows it
//! (`crate::forms::outbox::admit`).

use crate::forms::ids::{base32, digest};
use crate::http::ratelimit::{RateLimit, Window};
/// The ask, the quota and the verdict, as the platform is handed and answers them.
pub use crate::platform::{MailAsk as Ask, MailQuota as Quota, MailVerdict as Verdict};

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
    // Before the first day of the clock nothing has ended yet: the bound goes below zero rather
    // than to zero, which would sweep a window that opened at 0.
    i64::try_from(now_ms).unwrap_or(i64::MAX).saturating_sub(i64::try_from(RECIPIENT_WINDOW_MS).unwrap_or(i64::MAX))
}

/// An address as the recipient quota counts it: trimmed and lower-cased, with a `+tag` and every
/// dot of the local part dropped, so that `Ana.M+x@Example.org` and `anam@example.org` are one
/// recipient. Dots are dropped whatever the domain: Gmail delivers `a.na@` and `ana@` to one
/// mailbox, and two real mailboxes elsewhere that differ only in dots merely share a quota, which
/// errs towards sending less (docs/spec/api-spec.md#mail-quotas).
pub fn normalise(address: &str) -> String {
    let address = address.trim().to_lowercase();
    let Some((local, domain)) = address.rsplit_once('@') else { return address };
    let local = local.split('+').next().unwrap_or(local).replace('.', "");
    format!("{local}@{domain}")
}

/// The key of a recipient's window: the address [`normalise`]d, hashed.
pub fn recipient_key(address: &str) -> String {
    format!("mail-to:{}", base32(digest(&[normalise(address).as_bytes()]), 25))
}

impl Ask {
    /// The keys of the windows the ask counts against, in the order [`decide`] takes them.
    pub fn keys(&self) -> Vec<String> {
        match self {
            Ask::Confirmation { recipient, .. } => vec![recipient.clone()],
            Ask::Send { .. } => vec![SITE_KEY.to_string()],
        }
    }

    /// The time of the ask (Unix ms).
    pub fn now_ms(&self) -> u64 {
        match self {
            Ask::Confirmation { now_ms, .. } | Ask::Send { now_ms, .. } => *now_ms,
        }
    }

    /// Each key's quota, limits and cost, in the order of [`Ask::keys`].
    fn charges(&self) -> Vec<(Quota, RateLimit, u32)> {
        match self {
            Ask::Confirmation { .. } => {
                vec![(Quota::Recipient, RateLimit { limit: PER_RECIPIENT, window_ms: RECIPIENT_WINDOW_MS }, 1)]
            }
            Ask::Send { mails, per_hour, window_ms, .. } => {
                vec![(Quota::Site, RateLimit { limit: *per_hour, window_ms: *window_ms }, *mails)]
            }
        }
    }
}

/// Decides an ask over the windows held for its [`Ask::keys`] (`None`: none yet), in that order.
/// Returns the windows to store (none when refused: a refused ask counts nowhere) and the
/// verdict.
pub fn decide(ask: &Ask, held: &[Option<Window>]) -> (Vec<(String, Window)>, Verdict) {
    let mut updated = Vec::new();
    for ((key, (quota, limits, cost)), current) in ask.keys().into_iter().zip(ask.charges()).zip(held) {
        let (window, decision) = Window::check(*current, ask.now_ms(), limits, cost);
        if !decision.allowed {
            let (retry_after_secs, reset_at) = (decision.reset_secs, decision.reset_at);
            return (Vec::new(), Verdict::Refused { quota, retry_after_secs, reset_at });
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

    fn confirmation(address: &str, now_ms: u64) -> Ask {
        Ask::Confirmation { recipient: recipient_key(address), now_ms }
    }

    fn send(per_hour: u32, now_ms: u64) -> Ask {
        Ask::Send { mails: 1, per_hour, window_ms: SITE_WINDOW_MS, now_ms }
    }

    #[test]
    fn a_recipient_gets_three_confirmations_a_day_whatever_its_spelling() {
        let mut store = HashMap::new();
        let spellings = [" Ana@Example.org", "ANA+booking@EXAMPLE.ORG ", "a.n.a+x+y@example.org"];
        for (n, spelling) in spellings.iter().enumerate() {
            assert_eq!(run(&mut store, &confirmation(spelling, 1_000 + n as u64)), Verdict::Allowed);
        }
        let refused = run(&mut store, &confirmation("ana@example.org", 3_600_000));
        assert_eq!(refused, Verdict::Refused { quota: Quota::Recipient, retry_after_secs: 82_801, reset_at: 86_401 });
        assert_eq!(run(&mut store, &confirmation("ana@example.net", 3_600_000)), Verdict::Allowed);
        assert_eq!(run(&mut store, &confirmation("ana@example.org", 1_000 + RECIPIENT_WINDOW_MS)), Verdict::Allowed);
        assert!(!store.keys().any(|key| key.contains("ana")), "no address is kept: {store:?}");
    }

    #[test]
    fn normalising_drops_case_tags_and_dots_of_the_local_part_only() {
        assert_eq!(normalise(" Foo+x@Example.org"), "foo@example.org");
        assert_eq!(normalise("f.o.o@mail.example.org"), "foo@mail.example.org");
        assert_eq!(normalise("+only@example.org"), "@example.org");
        assert_eq!(normalise("no-at-sign"), "no-at-sign");
    }

    #[test]
    fn the_site_cap_counts_every_mail_and_a_refused_ask_counts_nowhere() {
        let mut store = HashMap::new();
        assert_eq!(run(&mut store, &send(2, 0)), Verdict::Allowed);
        assert_eq!(run(&mut store, &send(2, 1)), Verdict::Allowed);
        let refused = run(&mut store, &send(2, 2));
        assert_eq!(refused, Verdict::Refused { quota: Quota::Site, retry_after_secs: 3_600, reset_at: 3_600 });
        assert_eq!(store[SITE_KEY].count, 2, "the refused mail was not counted");
        assert_eq!(run(&mut store, &send(2, SITE_WINDOW_MS)), Verdict::Allowed);
        let short = Ask::Send { mails: 1, per_hour: 1, window_ms: 2_000, now_ms: SITE_WINDOW_MS + 2_000 };
        assert_eq!(run(&mut store, &short), Verdict::Allowed, "a shorter window ends sooner");
    }

    #[test]
    fn confirmations_and_the_site_cap_count_apart() {
        let mut store = HashMap::new();
        assert_eq!(run(&mut store, &send(1, 0)), Verdict::Allowed);
        assert_eq!(run(&mut store, &confirmation("ana@example.org", 1)), Verdict::Allowed, "the site's hour is no bar");
        assert_eq!(store.len(), 2);
    }
}
