//! Durable state of `portal serve`: submissions and their mail outbox in SQLite
//! (`<state>/portal.sqlite3`, WAL, `synchronous=FULL`), decisions D6 and D9.
//!
//! A submission and its mails are written in one transaction, so a submission that got its 202
//! always has its mails queued, and a crash never leaves one without the other. The outbox rows
//! record each attempt; a row marked `sent` is never handed out again.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use anyhow::{anyhow, Context, Result};
use portal_core::platform::{Mail, Submission};
use rusqlite::{params, Connection, OptionalExtension};

/// The database file inside the state folder.
pub const DB_FILE: &str = "portal.sqlite3";

/// One queued mail.
#[derive(Debug, Clone)]
pub struct OutboxMail {
    /// The row id (unique, stable: used for the Message-ID and `.eml` name).
    pub id: i64,
    /// The submission it belongs to.
    pub submission_id: String,
    /// How many attempts failed so far.
    pub attempts: u32,
    /// The mail.
    pub mail: Mail,
}

/// A stored submission with its mail counts, as `portal submissions` lists it.
#[derive(Debug, Clone)]
pub struct StoredSubmission {
    /// `voice` or `booking`.
    pub kind: String,
    /// Id or reference.
    pub id: String,
    /// RFC 3339.
    pub received_at: String,
    /// The validated fields.
    pub data: serde_json::Value,
    /// Mails delivered.
    pub mails_sent: u32,
    /// Mails still queued (or given up on).
    pub mails_pending: u32,
}

/// The SQLite store (one connection; SQLite serializes writers anyway).
#[derive(Debug)]
pub struct Store {
    path: PathBuf,
    conn: Mutex<Connection>,
}

impl Store {
    /// Opens (creating) `<dir>/portal.sqlite3`.
    pub fn open(dir: &Path) -> Result<Self> {
        std::fs::create_dir_all(dir).with_context(|| format!("creating the state folder {}", dir.display()))?;
        let path = dir.join(DB_FILE);
        let conn = Connection::open(&path).with_context(|| format!("opening {}", path.display()))?;
        conn.busy_timeout(std::time::Duration::from_secs(10))?;
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "FULL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        conn.execute_batch(portal_core::outbox::SCHEMA)
            .with_context(|| format!("creating the tables of {}", path.display()))?;
        Ok(Store { path, conn: Mutex::new(conn) })
    }

    /// Opens an existing store (for `portal submissions`): an error naming the file if there is none.
    pub fn open_existing(dir: &Path) -> Result<Self> {
        let path = dir.join(DB_FILE);
        if !path.is_file() {
            return Err(anyhow!("no submissions are stored in {} ({DB_FILE} does not exist)", dir.display()));
        }
        Store::open(dir)
    }

    fn with<T>(&self, f: impl FnOnce(&mut Connection) -> rusqlite::Result<T>) -> Result<T> {
        let mut conn = self.conn.lock().map_err(|_| anyhow!("the store's connection is poisoned"))?;
        f(&mut conn).with_context(|| format!("in {}", self.path.display()))
    }

    /// Stores the submission and queues its mails in one committed transaction. Storing the same
    /// id again (an identical double submit) keeps the first and queues nothing more.
    pub fn insert(&self, submission: &Submission) -> Result<()> {
        let data = serde_json::to_string(&submission.data)?;
        let mails = submission.mails.iter().map(serde_json::to_string).collect::<Result<Vec<_>, _>>()?;
        self.with(|conn| {
            let tx = conn.transaction()?;
            let added = tx.execute(
                "INSERT OR IGNORE INTO submissions (id, kind, received_at, data) VALUES (?1, ?2, ?3, ?4)",
                params![submission.id, submission.kind, submission.received_at, data],
            )?;
            if added == 1 {
                for mail in &mails {
                    tx.execute(
                        "INSERT INTO outbox (submission_id, mail) VALUES (?1, ?2)",
                        params![submission.id, mail],
                    )?;
                }
            }
            tx.commit()
        })
    }

    /// Pending mails due at `now_ms`, oldest first, at most `limit`.
    pub fn due(&self, now_ms: i64, limit: usize) -> Result<Vec<OutboxMail>> {
        let rows = self.with(|conn| {
            let mut stmt = conn.prepare(
                "SELECT id, submission_id, attempts, mail FROM outbox
                 WHERE status = 'pending' AND next_attempt_ms <= ?1 ORDER BY id LIMIT ?2",
            )?;
            let rows = stmt.query_map(params![now_ms, limit as i64], |row| {
                Ok((row.get::<_, i64>(0)?, row.get::<_, String>(1)?, row.get::<_, u32>(2)?, row.get::<_, String>(3)?))
            })?;
            rows.collect::<rusqlite::Result<Vec<_>>>()
        })?;
        rows.into_iter()
            .map(|(id, submission_id, attempts, mail)| {
                let mail = serde_json::from_str(&mail).with_context(|| format!("outbox row {id}"))?;
                Ok(OutboxMail { id, submission_id, attempts, mail })
            })
            .collect()
    }

    /// When the next pending mail is due, if any is pending.
    pub fn next_due_ms(&self) -> Result<Option<i64>> {
        self.with(|conn| {
            conn.query_row("SELECT MIN(next_attempt_ms) FROM outbox WHERE status = 'pending'", [], |row| row.get(0))
                .optional()
                .map(Option::flatten)
        })
    }

    /// Records a delivery; the row is never handed out again.
    pub fn mark_sent(&self, id: i64, now_ms: i64) -> Result<()> {
        self.with(|conn| {
            conn.execute("UPDATE outbox SET status = 'sent', sent_at_ms = ?2 WHERE id = ?1", params![id, now_ms])
                .map(drop)
        })
    }

    /// Records a failed attempt and when to try again.
    pub fn mark_failed(&self, id: i64, error: &str, next_attempt_ms: i64) -> Result<()> {
        self.with(|conn| {
            conn.execute(
                "UPDATE outbox SET attempts = attempts + 1, last_error = ?2, next_attempt_ms = ?3 WHERE id = ?1",
                params![id, error, next_attempt_ms],
            )
            .map(drop)
        })
    }

    /// Gives up on a mail that can never be sent (e.g. it cannot be built); it stays listed.
    pub fn mark_undeliverable(&self, id: i64, error: &str) -> Result<()> {
        self.with(|conn| {
            conn.execute(
                "UPDATE outbox SET status = 'undeliverable', last_error = ?2 WHERE id = ?1",
                params![id, error],
            )
            .map(drop)
        })
    }

    /// Every stored submission, oldest first, optionally of one kind.
    pub fn list(&self, kind: Option<&str>) -> Result<Vec<StoredSubmission>> {
        let rows = self.with(|conn| {
            let mut stmt = conn.prepare(
                "SELECT s.kind, s.id, s.received_at, s.data,
                        (SELECT COUNT(*) FROM outbox o WHERE o.submission_id = s.id AND o.status = 'sent'),
                        (SELECT COUNT(*) FROM outbox o WHERE o.submission_id = s.id AND o.status != 'sent')
                 FROM submissions s WHERE ?1 IS NULL OR s.kind = ?1 ORDER BY s.received_at, s.rowid",
            )?;
            let rows = stmt.query_map(params![kind], |row| {
                Ok((
                    row.get::<_, String>(0)?,
                    row.get::<_, String>(1)?,
                    row.get::<_, String>(2)?,
                    row.get::<_, String>(3)?,
                    row.get::<_, u32>(4)?,
                    row.get::<_, u32>(5)?,
                ))
            })?;
            rows.collect::<rusqlite::Result<Vec<_>>>()
        })?;
        rows.into_iter()
            .map(|(kind, id, received_at, data, mails_sent, mails_pending)| {
                let data = serde_json::from_str(&data).with_context(|| format!("submission {id}"))?;
                Ok(StoredSubmission { kind, id, received_at, data, mails_sent, mails_pending })
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn submission(id: &str, mails: usize) -> Submission {
        let mail = Mail {
            from: "a@example.org".into(),
            to: vec!["b@example.org".into()],
            reply_to: None,
            subject: "s".into(),
            text: "t".into(),
            html: None,
        };
        Submission {
            kind: "voice".into(),
            id: id.into(),
            received_at: "2026-11-22T12:00:00Z".into(),
            data: json!({"title": "x"}),
            mails: vec![mail; mails],
        }
    }

    #[test]
    fn a_submission_and_its_mails_survive_reopening() {
        let dir = tempfile::tempdir().expect("tempdir");
        Store::open(dir.path()).expect("open").insert(&submission("v-1", 2)).expect("insert");
        let store = Store::open(dir.path()).expect("reopen");
        assert_eq!(store.list(None).expect("list").len(), 1);
        let due = store.due(0, 10).expect("due");
        assert_eq!(due.len(), 2);
        store.mark_sent(due[0].id, 5).expect("sent");
        store.mark_failed(due[1].id, "refused", 1000).expect("failed");
        assert!(store.due(999, 10).expect("due").is_empty());
        assert_eq!(store.next_due_ms().expect("next"), Some(1000));
        let again = store.due(1000, 10).expect("due");
        assert_eq!((again.len(), again[0].attempts), (1, 1));
        let listed = &store.list(Some("voice")).expect("list")[0];
        assert_eq!((listed.mails_sent, listed.mails_pending), (1, 1));
        assert!(store.list(Some("booking")).expect("list").is_empty());
    }

    #[test]
    fn a_double_submit_is_stored_once() {
        let dir = tempfile::tempdir().expect("tempdir");
        let store = Store::open(dir.path()).expect("open");
        store.insert(&submission("v-1", 1)).expect("insert");
        store.insert(&submission("v-1", 1)).expect("insert again");
        assert_eq!(store.due(0, 10).expect("due").len(), 1);
    }
}
