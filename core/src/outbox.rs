//! The submission store and its mail outbox, as both platforms keep them: one SQL schema (SQLite
//! natively, D1 on the edge) and one retry schedule, so a submission is stored and its mails are
//! retried the same way wherever the site runs.

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

/// The first retry waits this long (ms); each further one twice as long...
pub const BACKOFF_BASE_MS: i64 = 1_000;
/// ...up to this.
pub const BACKOFF_CAP_MS: i64 = 300_000;

/// How long to wait before the next attempt after `failures` failed ones (exponential, capped).
pub fn backoff_ms(failures: u32) -> i64 {
    BACKOFF_BASE_MS.saturating_mul(1i64 << failures.saturating_sub(1).min(20)).min(BACKOFF_CAP_MS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_up_to_the_cap() {
        assert_eq!([1, 2, 3, 4].map(backoff_ms), [1_000, 2_000, 4_000, 8_000]);
        assert_eq!(backoff_ms(30), BACKOFF_CAP_MS);
    }
}
