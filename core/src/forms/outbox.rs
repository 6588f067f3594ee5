//! The submission store and its mail outbox, as both platforms keep them (SQLite natively, D1 on
//! the edge): one schema, one set of SQL statements and one state machine, so a submission is
//! stored and its mails are retried and given up on the same way wherever the site runs.
//!
//! Sans-IO: this module says *what to run next*, given a row and the result of an attempt; the
//! adapters execute the [`Statement`]s and make the deliveries. A mail moves
//! `pending -> sending -> sent`, or back to `pending` with a later attempt time after a transient
//! failure, or to `undeliverable` after a permanent one or [`GIVE_UP_AFTER`] attempts. `sending`
//! is a claim with a lease: a pass that crashed mid-send leaves the mail due again once the lease
//! ends, and two passes (two Worker isolates) never both claim it. A claimed mail the site's hourly
//! cap has no room for goes `sending -> waiting` until the cap's window ends, then is due again
//! like a pending one ([`admit`]); waiting is no failed attempt, so a mail is never given up on
//! for want of quota (docs/spec/api-spec.md#mail-quotas).

use serde::Serialize;

use crate::forms::mail_quota::{self, Verdict};
use crate::platform::Submission;

/// The tables: a submission and its outgoing mails are written in one transaction; an outbox row
/// records each attempt, and a row marked `sent` is never sent again.
pub const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS submissions (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    received_at TEXT NOT NULL,
    data TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS outbox (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    submission_id TEXT NOT NULL REFERENCES submissions(id),
    mail TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'pending',
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_ms INTEGER NOT NULL DEFAULT 0,
    last_error TEXT,
    sent_at_ms INTEGER
);
CREATE INDEX IF NOT EXISTS outbox_due ON outbox(status, next_attempt_ms);
";

/// Changes to tables an older release created, in order; each fails harmlessly ("duplicate
/// column") where it already ran, and adapters ignore that failure.
pub const MIGRATIONS: &[&str] =
    &["ALTER TABLE outbox ADD COLUMN delivered_via TEXT", "ALTER TABLE outbox ADD COLUMN per_hour INTEGER"];

/// Whether a failed migration failed only because it ran before.
pub fn already_migrated(error: &str) -> bool {
    error.contains("duplicate column")
}

/// The first retry waits this long (ms); each further one twice as long...
pub const BACKOFF_BASE_MS: i64 = 1_000;
/// ...up to this.
pub const BACKOFF_CAP_MS: i64 = 300_000;
/// After this many failed attempts (about a day at the capped interval) a mail is given up on; it
/// stays listed with its last error, and its submission is kept.
pub const GIVE_UP_AFTER: u32 = 300;
/// How long a claim holds a mail (a pass that dies mid-send releases it when this ends).
pub const CLAIM_MS: i64 = 300_000;

/// How long to wait before the next attempt after `failures` failed ones (exponential, capped).
pub fn backoff_ms(failures: u32) -> i64 {
    BACKOFF_BASE_MS.saturating_mul(1i64 << failures.saturating_sub(1).min(20)).min(BACKOFF_CAP_MS)
}

/// Where a mail is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Waiting for its next attempt.
    Pending,
    /// Claimed by a delivery pass.
    Sending,
    /// Held back by the site's hourly cap until its window ends.
    Waiting,
    /// Accepted by the mail server (or written out); never sent again.
    Sent,
    /// Given up on; kept for the editors to see.
    Undeliverable,
}

impl Status {
    /// The value in the `status` column.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Pending => "pending",
            Status::Sending => "sending",
            Status::Waiting => "waiting",
            Status::Sent => "sent",
            Status::Undeliverable => "undeliverable",
        }
    }
}

/// A parameter of a [`Statement`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum SqlValue {
    /// An integer.
    Integer(i64),
    /// Text.
    Text(String),
    /// NULL.
    Null,
}

/// One SQL statement with its positional parameters (`?1`, `?2`...), for an adapter to run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Statement {
    /// The SQL.
    pub sql: &'static str,
    /// The parameters, in order.
    pub params: Vec<SqlValue>,
}

fn statement(sql: &'static str, params: Vec<SqlValue>) -> Statement {
    Statement { sql, params }
}

fn text(value: &str) -> SqlValue {
    SqlValue::Text(value.to_string())
}

/// The statements that store a submission and queue its mails, to run as one transaction. Storing
/// the same id again (an identical double submit) keeps the first and queues nothing: each mail is
/// inserted only if the statement before it inserted a row. Each mail keeps the site's hourly cap
/// in force when it was queued, for the delivery pass to count it against.
pub fn store(submission: &Submission) -> Result<Vec<Statement>, serde_json::Error> {
    let mut statements = vec![statement(
        "INSERT OR IGNORE INTO submissions (id, kind, received_at, data) VALUES (?1, ?2, ?3, ?4)",
        vec![
            text(&submission.id),
            text(&submission.kind),
            text(&submission.received_at),
            SqlValue::Text(serde_json::to_string(&submission.data)?),
        ],
    )];
    for mail in &submission.mails {
        statements.push(statement(
            "INSERT INTO outbox (submission_id, mail, per_hour) SELECT ?1, ?2, ?3 WHERE changes() = 1",
            vec![
                text(&submission.id),
                SqlValue::Text(serde_json::to_string(mail)?),
                SqlValue::Integer(i64::from(submission.mail_per_hour)),
            ],
        ));
    }
    Ok(statements)
}

/// Mails due at `now_ms` (pending, waiting for a window that has ended, or claimed by a pass whose
/// claim ended), oldest first: `id`, `submission_id`, `attempts`, `mail`, `per_hour` (NULL in a
/// row of an older release), in that order.
pub fn due(now_ms: i64, limit: u32) -> Statement {
    statement(
        "SELECT id, submission_id, attempts, mail, per_hour FROM outbox \
         WHERE status IN ('pending', 'sending', 'waiting') AND next_attempt_ms <= ?1 ORDER BY id LIMIT ?2",
        vec![SqlValue::Integer(now_ms), SqlValue::Integer(i64::from(limit))],
    )
}

/// Claims a due mail for one pass; it changes one row only if no other pass claimed it first
/// (the adapter sends the mail only then).
pub fn claim(id: i64, now_ms: i64) -> Statement {
    statement(
        "UPDATE outbox SET status = 'sending', next_attempt_ms = ?2 \
         WHERE id = ?1 AND status IN ('pending', 'sending', 'waiting') AND next_attempt_ms <= ?3",
        vec![SqlValue::Integer(id), SqlValue::Integer(now_ms + CLAIM_MS), SqlValue::Integer(now_ms)],
    )
}

/// Releases every claim, for a store only one process delivers from (`portal serve`) when that
/// process starts: a claim left behind is from a run that stopped mid-send, and its mail is due now
/// rather than when the lease ends. (Sent again if the old run had sent it: at least once.)
pub fn release_claims() -> Statement {
    statement("UPDATE outbox SET status = 'pending', next_attempt_ms = 0 WHERE status = 'sending'", Vec::new())
}

/// When the next mail is due, if any is waiting (`MIN(next_attempt_ms)`, NULL when none).
pub fn next_due() -> Statement {
    statement(
        "SELECT MIN(next_attempt_ms) AS next FROM outbox WHERE status IN ('pending', 'sending', 'waiting')",
        Vec::new(),
    )
}

/// What the site's hourly cap is asked before a claimed mail is sent: room for one mail, under the
/// cap stored with it (`per_hour`; the default for a row of an older release), over a window of
/// `window_ms`.
pub fn send_ask(per_hour: Option<i64>, window_ms: u64, now_ms: i64) -> mail_quota::Ask {
    let default = crate::content::SiteConfig::default().mail.max_per_hour;
    mail_quota::Ask::Send {
        mails: 1,
        per_hour: per_hour.and_then(|n| u32::try_from(n).ok()).unwrap_or(default),
        window_ms,
        now_ms: u64::try_from(now_ms).unwrap_or(0),
    }
}

/// What a pass does with a mail it claimed, once the cap has answered its [`send_ask`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Admission {
    /// Send it now, then [`record`] the outcome.
    Send,
    /// Do not send it: run the statement, which makes it wait until the cap's window ends.
    Wait(Statement),
}

/// Sends a claimed mail the cap has room for; any other waits, unchanged and with no attempt
/// counted, until the cap's window has ended: every mail refused in one window waits for the same
/// moment, so they are due together and go oldest first.
pub fn admit(id: i64, verdict: &Verdict, now_ms: i64) -> Admission {
    match verdict {
        Verdict::Allowed => Admission::Send,
        Verdict::Refused { reset_at, .. } => {
            let until = i64::try_from(reset_at.saturating_mul(1000)).unwrap_or(i64::MAX).max(now_ms.saturating_add(1));
            Admission::Wait(statement(
                "UPDATE outbox SET status = 'waiting', next_attempt_ms = ?2 WHERE id = ?1",
                vec![SqlValue::Integer(id), SqlValue::Integer(until)],
            ))
        }
    }
}

/// What an attempt to deliver a mail came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// The mail server accepted it (or the file was written); `via` names the transport
    /// (`smtp`, `file`, `send_email`) for `portal submissions`.
    Delivered {
        /// The transport.
        via: &'static str,
    },
    /// It may work later (a server down, a timeout).
    Transient(String),
    /// It never will (a refused address, a mail that cannot be built).
    Permanent(String),
}

/// The state a mail goes to after an attempt, and the statement that records it. `failures` is
/// the number of failed attempts before this one.
pub fn record(id: i64, failures: u32, outcome: &Outcome, now_ms: i64) -> (Status, Statement) {
    let attempts = failures + 1;
    match outcome {
        Outcome::Delivered { via } => (
            Status::Sent,
            statement(
                "UPDATE outbox SET status = 'sent', sent_at_ms = ?2, delivered_via = ?3, last_error = NULL WHERE id = ?1",
                vec![SqlValue::Integer(id), SqlValue::Integer(now_ms), text(via)],
            ),
        ),
        Outcome::Transient(error) if attempts < GIVE_UP_AFTER => (
            Status::Pending,
            statement(
                "UPDATE outbox SET status = 'pending', attempts = ?2, next_attempt_ms = ?3, last_error = ?4 WHERE id = ?1",
                vec![
                    SqlValue::Integer(id),
                    SqlValue::Integer(i64::from(attempts)),
                    SqlValue::Integer(now_ms + backoff_ms(attempts)),
                    text(error),
                ],
            ),
        ),
        Outcome::Transient(error) | Outcome::Permanent(error) => (
            Status::Undeliverable,
            statement(
                "UPDATE outbox SET status = 'undeliverable', attempts = ?2, last_error = ?3 WHERE id = ?1",
                vec![SqlValue::Integer(id), SqlValue::Integer(i64::from(attempts)), text(error)],
            ),
        ),
    }
}

/// Every stored submission, oldest first, optionally of one kind, with its mail counts and how
/// its delivered mails went out (comma-separated transports): `kind`, `id`, `received_at`, `data`,
/// `mails_sent`, `mails_pending`, `mails_undeliverable`, `delivered_via`, in that order.
pub fn list(kind: Option<&str>) -> Statement {
    statement(
        "SELECT s.kind, s.id, s.received_at, s.data,
                (SELECT COUNT(*) FROM outbox o WHERE o.submission_id = s.id AND o.status = 'sent'),
                (SELECT COUNT(*) FROM outbox o WHERE o.submission_id = s.id AND o.status IN ('pending', 'sending', 'waiting')),
                (SELECT COUNT(*) FROM outbox o WHERE o.submission_id = s.id AND o.status = 'undeliverable'),
                (SELECT group_concat(DISTINCT o.delivered_via) FROM outbox o WHERE o.submission_id = s.id AND o.status = 'sent')
         FROM submissions s WHERE ?1 IS NULL OR s.kind = ?1 ORDER BY s.received_at, s.rowid",
        vec![kind.map_or(SqlValue::Null, text)],
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_up_to_the_cap() {
        assert_eq!([1, 2, 3, 4].map(backoff_ms), [1_000, 2_000, 4_000, 8_000]);
        assert_eq!(backoff_ms(30), BACKOFF_CAP_MS);
    }

    #[test]
    fn a_delivered_mail_is_sent_and_records_its_transport() {
        let (status, update) = record(7, 2, &Outcome::Delivered { via: "smtp" }, 1_000);
        assert_eq!(status, Status::Sent);
        assert_eq!(update.params, [SqlValue::Integer(7), SqlValue::Integer(1_000), text("smtp")]);
    }

    #[test]
    fn a_transient_failure_waits_longer_each_time_then_gives_up() {
        let (status, update) = record(7, 0, &Outcome::Transient("down".into()), 1_000);
        assert_eq!(status, Status::Pending);
        assert_eq!(update.params[1..3], [SqlValue::Integer(1), SqlValue::Integer(2_000)]);
        let (_, update) = record(7, 3, &Outcome::Transient("down".into()), 1_000);
        assert_eq!(update.params[2], SqlValue::Integer(1_000 + 8_000));
        let (status, _) = record(7, GIVE_UP_AFTER - 1, &Outcome::Transient("down".into()), 1_000);
        assert_eq!(status, Status::Undeliverable);
    }

    #[test]
    fn a_permanent_failure_is_given_up_at_once() {
        let (status, update) = record(7, 0, &Outcome::Permanent("no such user".into()), 1_000);
        assert_eq!(status, Status::Undeliverable);
        assert!(update.sql.contains(Status::Undeliverable.as_str()));
    }

    #[test]
    fn a_claim_holds_a_mail_for_the_lease() {
        let claim = claim(7, 1_000);
        assert_eq!(claim.params[1], SqlValue::Integer(1_000 + CLAIM_MS));
        assert!(due(0, 1).sql.contains("'sending'"), "an expired claim is due again");
    }

    /// Runs a queue of `mails` mails through passes every minute for `minutes`, under a cap of
    /// `per_hour`, the way the adapters do: due, claim, ask, then send or wait. Returns when each
    /// mail was sent (minutes), and the statuses left.
    fn drain(mails: usize, per_hour: u32, minutes: i64) -> (Vec<Option<i64>>, Vec<Status>) {
        let mut windows = std::collections::HashMap::new();
        let mut rows: Vec<(Status, i64)> = vec![(Status::Pending, 0); mails];
        let mut sent_at = vec![None; mails];
        for minute in 0..minutes {
            let now = minute * 60_000;
            for (id, row) in rows.iter_mut().enumerate() {
                if row.0 == Status::Sent || row.1 > now {
                    continue;
                }
                let ask = send_ask(Some(i64::from(per_hour)), mail_quota::SITE_WINDOW_MS, now);
                let held: Vec<_> = ask.keys().iter().map(|k| windows.get(k).copied()).collect();
                let (updated, verdict) = mail_quota::decide(&ask, &held);
                windows.extend(updated);
                match admit(id as i64, &verdict, now) {
                    Admission::Send => {
                        let (status, _) = record(id as i64, 0, &Outcome::Delivered { via: "smtp" }, now);
                        *row = (status, now);
                        sent_at[id] = Some(minute);
                    }
                    Admission::Wait(update) => {
                        assert!(
                            update.sql.contains("'waiting'") && !update.sql.contains("attempts"),
                            "no attempt counted"
                        );
                        let SqlValue::Integer(next) = update.params[1] else { panic!("a time") };
                        assert!(next > now);
                        *row = (Status::Waiting, next);
                    }
                }
            }
        }
        (sent_at, rows.into_iter().map(|(status, _)| status).collect())
    }

    #[test]
    fn mails_past_the_cap_wait_for_the_next_window_then_go_never_dropped() {
        let (sent_at, statuses) = drain(7, 3, 60 * 3);
        assert_eq!(sent_at, [Some(0), Some(0), Some(0), Some(60), Some(60), Some(60), Some(120)]);
        assert!(statuses.iter().all(|s| *s == Status::Sent), "{statuses:?}");
        let (_, statuses) = drain(7, 3, 1);
        assert_eq!(statuses.iter().filter(|s| **s == Status::Waiting).count(), 4, "waiting, not dropped");
    }

    #[test]
    fn waiting_is_due_again_claimable_and_counted_as_unsent() {
        let Admission::Wait(update) =
            admit(7, &Verdict::Refused { quota: mail_quota::Quota::Site, retry_after_secs: 90, reset_at: 91 }, 1_000)
        else {
            panic!("a refused mail waits")
        };
        assert_eq!(update.params, [SqlValue::Integer(7), SqlValue::Integer(91_000)]);
        for unsent in [due(0, 1).sql, claim(7, 0).sql, next_due().sql, list(None).sql] {
            assert!(unsent.contains("'waiting'"), "{unsent}");
        }
        assert_eq!(admit(7, &Verdict::Allowed, 1_000), Admission::Send);
    }

    #[test]
    fn a_mail_of_an_older_release_waits_under_the_default_cap() {
        let mail_quota::Ask::Send { per_hour, mails, .. } = send_ask(None, 1, 0) else { panic!("a send") };
        assert_eq!((per_hour, mails), (crate::content::SiteConfig::default().mail.max_per_hour, 1));
    }

    #[test]
    fn storing_queues_one_statement_per_mail_after_the_submission() {
        let mail = crate::platform::Mail {
            from: "a@example.org".into(),
            to: vec!["b@example.org".into()],
            reply_to: None,
            subject: "s".into(),
            text: "t".into(),
            html: None,
        };
        let submission = Submission {
            kind: "voice".into(),
            id: "v-1".into(),
            received_at: "2026-11-22T12:00:00Z".into(),
            data: serde_json::json!({"title": "x"}),
            mails: vec![mail.clone(), mail],
            mail_per_hour: 200,
        };
        let statements = store(&submission).expect("serialisable");
        assert_eq!(statements.len(), 3);
        assert!(statements[1..].iter().all(|s| s.sql.contains("changes() = 1")));
        assert_eq!(statements[1].params[2], SqlValue::Integer(200), "the cap in force is kept with each mail");
    }
}
