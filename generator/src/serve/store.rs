//! Durable state of `portal serve`: submissions and their mail outbox in SQLite
//! (`<state>/portal.sqlite3`, WAL, `synchronous=FULL`); see docs/spec/api-spec.md#delivery.
//!
//! Runs the statements of the core's outbox machine (`portal_core::forms::outbox`), the same ones the
//! Worker runs on D1, so both keep and retry mails alike. A submission and its mails are written
//! in one transaction, so a submission that got its 202 always has its mails queued.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use anyhow::{anyhow, Context, Result};
use portal_core::forms::outbox::{self, Outcome, SqlValue, Statement, Status};
use portal_core::forms::{idempotency, mail_quota};
use portal_core::http::ratelimit::Window;
use portal_core::platform::{Mail, Submission};
use rusqlite::types::Value as Sql;
use rusqlite::{params_from_iter, Connection, OptionalExtension, TransactionBehavior};

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
    /// The site's hourly cap stored with it (`None` in a row of an older release).
    pub per_hour: Option<i64>,
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
    /// Mails still queued.
    pub mails_pending: u32,
    /// Mails given up on.
    pub mails_undeliverable: u32,
    /// How the delivered mails went out (`smtp`, `file`), comma-separated.
    pub delivered_via: String,
}

/// The SQLite store (one connection; SQLite serializes writers anyway).
#[derive(Debug)]
pub struct Store {
    path: PathBuf,
    conn: Mutex<Connection>,
}

fn params(statement: &Statement) -> impl Iterator<Item = Sql> + '_ {
    statement.params.iter().map(|value| match value {
        SqlValue::Integer(n) => Sql::Integer(*n),
        SqlValue::Text(text) => Sql::Text(text.clone()),
        SqlValue::Null => Sql::Null,
    })
}

impl Store {
    /// Opens (creating or migrating) `<dir>/portal.sqlite3`.
    pub fn open(dir: &Path) -> Result<Self> {
        std::fs::create_dir_all(dir).with_context(|| format!("creating the state folder {}", dir.display()))?;
        let path = dir.join(DB_FILE);
        let conn = Connection::open(&path).with_context(|| format!("opening {}", path.display()))?;
        conn.busy_timeout(std::time::Duration::from_secs(10))?;
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "FULL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        conn.execute_batch(outbox::SCHEMA).with_context(|| format!("creating the tables of {}", path.display()))?;
        conn.execute_batch(mail_quota::SCHEMA).with_context(|| format!("creating the tables of {}", path.display()))?;
        conn.execute_batch(idempotency::SCHEMA)
            .with_context(|| format!("creating the tables of {}", path.display()))?;
        for migration in outbox::MIGRATIONS {
            if let Err(e) = conn.execute_batch(migration) {
                if !outbox::already_migrated(&e.to_string()) {
                    return Err(e).with_context(|| format!("updating the tables of {}", path.display()));
                }
            }
        }
        Ok(Store { path, conn: Mutex::new(conn) })
    }

    /// Makes the mails a previous run claimed but never finished due at once (this process is the
    /// store's only deliverer; see `outbox::release_claims`).
    pub fn release_claims(&self) -> Result<usize> {
        self.run(&outbox::release_claims())
    }

    /// Opens an existing store (for `portal submissions`): an error naming the file if there is none.
    pub fn open_existing(dir: &Path) -> Result<Self> {
        let path = dir.join(DB_FILE);
        if !path.is_file() {
            return Err(anyhow!("no submissions are stored in {} ({DB_FILE} does not exist)", dir.display()));
        }
        Store::open(dir)
    }

    /// The submissions of a Worker, from the SQL dump `wrangler d1 export` writes of its D1
    /// database (docs/cli.md#portal-submissions), its rows read as data (never run) into an
    /// in-memory SQLite database of the store's schema, so it is listed exactly as the store of
    /// `portal serve`; with a warning for each statement or row not taken
    /// (`crate::submissions::d1_export`). One without the tables lists nothing.
    pub fn from_d1_export(file: &Path) -> Result<(Self, Vec<portal_core::content::ContentError>)> {
        let sql = std::fs::read_to_string(file).with_context(|| format!("reading the D1 export {}", file.display()))?;
        let (conn, warnings) = crate::submissions::d1_export::import(&sql, &file.display().to_string())
            .with_context(|| format!("reading the D1 export {}", file.display()))?;
        Ok((Store { path: file.to_path_buf(), conn: Mutex::new(conn) }, warnings))
    }

    fn with<T>(&self, f: impl FnOnce(&mut Connection) -> rusqlite::Result<T>) -> Result<T> {
        let mut conn = self.conn.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        f(&mut conn).with_context(|| format!("in {}", self.path.display()))
    }

    /// Runs one statement; returns how many rows it changed.
    fn run(&self, statement: &Statement) -> Result<usize> {
        self.with(|conn| conn.execute(statement.sql, params_from_iter(params(statement))))
    }

    /// Stores the submission and queues its mails in one committed transaction.
    pub fn insert(&self, submission: &Submission) -> Result<()> {
        let statements = outbox::store(submission)?;
        self.with(|conn| {
            let tx = conn.transaction()?;
            for statement in &statements {
                tx.execute(statement.sql, params_from_iter(params(statement)))?;
            }
            tx.commit()
        })
    }

    /// Runs a step of an idempotency key's life in one transaction (the core's statements); a
    /// claim answers the key's row afterwards.
    pub fn idempotency(&self, step: &idempotency::Step) -> Result<Option<idempotency::Record>> {
        let statements = idempotency::statements(step)?;
        let row = self.with(|conn| {
            let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
            let mut row = None;
            for statement in &statements {
                if statement.sql.starts_with("SELECT") {
                    row = tx
                        .query_row(statement.sql, params_from_iter(params(statement)), |r| {
                            Ok((
                                r.get::<_, String>(0)?,
                                r.get::<_, String>(1)?,
                                r.get::<_, Option<String>>(2)?,
                                r.get::<_, i64>(3)?,
                            ))
                        })
                        .optional()?;
                } else {
                    tx.execute(statement.sql, params_from_iter(params(statement)))?;
                }
            }
            tx.commit()?;
            Ok(row)
        })?;
        row.map(|(fingerprint, owner, answer, until_ms)| {
            idempotency::row(fingerprint, owner, answer.as_deref(), until_ms)
        })
        .transpose()
        .context("an idempotency key's row")
    }

    /// Counts an ask (a confirmation, or a mail about to be sent) against the mail quotas in one
    /// transaction (see `portal_core::forms::mail_quota`), dropping the windows that have ended.
    pub fn count_mail(&self, ask: &mail_quota::Ask) -> Result<mail_quota::Verdict> {
        self.with(|conn| {
            let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
            let mut held = Vec::new();
            for key in ask.keys() {
                let window = tx.query_row(mail_quota::SELECT, [&key], |row| {
                    Ok(Window { start_ms: row.get::<_, i64>(0)?.max(0) as u64, count: row.get(1)? })
                });
                held.push(window.optional()?);
            }
            let (updated, verdict) = mail_quota::decide(ask, &held);
            for (key, window) in updated {
                tx.execute(mail_quota::UPSERT, rusqlite::params![key, window.start_ms as i64, window.count])?;
            }
            tx.execute(mail_quota::SWEEP, [mail_quota::sweep_before(ask.now_ms())])?;
            tx.commit()?;
            Ok(verdict)
        })
    }

    /// Mails due at `now_ms`, oldest first, at most `limit`.
    pub fn due(&self, now_ms: i64, limit: u32) -> Result<Vec<OutboxMail>> {
        let statement = outbox::due(now_ms, limit);
        let rows = self.with(|conn| {
            let mut stmt = conn.prepare(statement.sql)?;
            let rows = stmt.query_map(params_from_iter(params(&statement)), |row| {
                let per_hour = row.get::<_, Option<i64>>(4)?;
                Ok((
                    row.get::<_, i64>(0)?,
                    row.get::<_, String>(1)?,
                    row.get::<_, u32>(2)?,
                    row.get::<_, String>(3)?,
                    per_hour,
                ))
            })?;
            rows.collect::<rusqlite::Result<Vec<_>>>()
        })?;
        rows.into_iter()
            .map(|(id, submission_id, attempts, mail, per_hour)| {
                let mail = serde_json::from_str(&mail).with_context(|| format!("outbox row {id}"))?;
                Ok(OutboxMail { id, submission_id, attempts, mail, per_hour })
            })
            .collect()
    }

    /// Claims a due mail for this pass; `false` when another pass has it.
    pub fn claim(&self, id: i64, now_ms: i64) -> Result<bool> {
        Ok(self.run(&outbox::claim(id, now_ms))? == 1)
    }

    /// Asks the site's hourly cap for room to send a claimed mail (`window_ms` long), and makes the
    /// mail wait for the window's end when there is none; `true` when it may be sent now.
    pub fn admit(&self, item: &OutboxMail, window_ms: u64, now_ms: i64) -> Result<bool> {
        let verdict = self.count_mail(&outbox::send_ask(item.per_hour, window_ms, now_ms))?;
        match outbox::admit(item.id, &verdict, now_ms) {
            outbox::Admission::Send => Ok(true),
            outbox::Admission::Wait(statement) => self.run(&statement).map(|_| false),
        }
    }

    /// Records an attempt's outcome; returns the mail's new state.
    pub fn record(&self, item: &OutboxMail, outcome: &Outcome, now_ms: i64) -> Result<Status> {
        let (status, statement) = outbox::record(item.id, item.attempts, outcome, now_ms);
        self.run(&statement)?;
        Ok(status)
    }

    /// When the next mail is due, if any is waiting.
    pub fn next_due_ms(&self) -> Result<Option<i64>> {
        let statement = outbox::next_due();
        self.with(|conn| conn.query_row(statement.sql, params_from_iter(params(&statement)), |row| row.get(0)))
    }

    /// Every stored submission, oldest first, optionally of one kind.
    pub fn list(&self, kind: Option<&str>) -> Result<Vec<StoredSubmission>> {
        let statement = outbox::list(kind);
        let rows = self.with(|conn| {
            let mut stmt = conn.prepare(statement.sql)?;
            let rows = stmt.query_map(params_from_iter(params(&statement)), |row| {
                Ok((
                    [
                        row.get::<_, String>(0)?,
                        row.get::<_, String>(1)?,
                        row.get::<_, String>(2)?,
                        row.get::<_, String>(3)?,
                    ],
                    [row.get::<_, u32>(4)?, row.get::<_, u32>(5)?, row.get::<_, u32>(6)?],
                    row.get::<_, Option<String>>(7)?.unwrap_or_default(),
                ))
            })?;
            rows.collect::<rusqlite::Result<Vec<_>>>()
        })?;
        rows.into_iter()
            .map(|([kind, id, received_at, data], [mails_sent, mails_pending, mails_undeliverable], delivered_via)| {
                let data = serde_json::from_str(&data).with_context(|| format!("submission {id}"))?;
                Ok(StoredSubmission {
                    kind,
                    id,
                    received_at,
                    data,
                    mails_sent,
                    mails_pending,
                    mails_undeliverable,
                    delivered_via,
                })
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The SQL of the core's idempotency steps does to a table what `idempotency::apply` does to a
    /// row in memory (the fake platform's), through claims, answers, releases and expiry.
    #[test]
    fn idempotency_keys_in_sqlite_go_as_the_core_says() {
        use idempotency::{Answer, Step, LEASE_MS, REMEMBER_MS};
        let dir = tempfile::tempdir().expect("temp dir");
        let store = Store::open(dir.path()).expect("store");
        let claim = |owner: &str, fingerprint: &str, now_ms: u64| Step::Claim {
            key: "/visit k".into(),
            fingerprint: fingerprint.into(),
            owner: owner.into(),
            now_ms,
        };
        let answer =
            Answer { status: 303, headers: vec![("location".into(), "/visit/sent".into())], body: String::new() };
        let steps = [
            claim("a", "f", 0),
            claim("b", "f", 1),
            claim("b", "f", LEASE_MS),
            Step::Release { key: "/visit k".into(), owner: "a".into() },
            Step::Answer { key: "/visit k".into(), owner: "b".into(), answer, now_ms: LEASE_MS + 5 },
            claim("c", "f", LEASE_MS + 6),
            claim("c", "g", LEASE_MS + 6),
            claim("d", "g", LEASE_MS + 5 + REMEMBER_MS),
            Step::Release { key: "/visit k".into(), owner: "d".into() },
            claim("e", "g", LEASE_MS + 6 + REMEMBER_MS),
        ];
        let mut memory = None;
        for step in &steps {
            memory = idempotency::apply(memory.as_ref(), step);
            let stored = store.idempotency(step).expect("a step");
            if matches!(step, Step::Claim { .. }) {
                assert_eq!(stored, memory, "{step:?}");
            }
        }
    }

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
            mail_per_hour: 200,
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
        assert!(store.claim(due[0].id, 0).expect("claim") && store.claim(due[1].id, 0).expect("claim"));
        assert!(!store.claim(due[0].id, 0).expect("claim"), "a claimed mail is not claimed twice");
        store.record(&due[0], &Outcome::Delivered { via: "smtp" }, 5).expect("sent");
        store.record(&due[1], &Outcome::Transient("refused".into()), 0).expect("failed");
        assert!(store.due(999, 10).expect("due").is_empty());
        assert_eq!(store.next_due_ms().expect("next"), Some(1000));
        let again = store.due(1000, 10).expect("due");
        assert_eq!((again.len(), again[0].attempts), (1, 1));
        let listed = &store.list(Some("voice")).expect("list")[0];
        assert_eq!((listed.mails_sent, listed.mails_pending, listed.delivered_via.as_str()), (1, 1, "smtp"));
        assert!(store.list(Some("booking")).expect("list").is_empty());
    }

    #[test]
    fn mail_quotas_survive_reopening() {
        let dir = tempfile::tempdir().expect("tempdir");
        let ask =
            mail_quota::Ask::Confirmation { recipient: mail_quota::recipient_key("ana@example.org"), now_ms: 1_000 };
        for _ in 0..mail_quota::PER_RECIPIENT {
            let store = Store::open(dir.path()).expect("open");
            assert_eq!(store.count_mail(&ask).expect("count"), mail_quota::Verdict::Allowed);
        }
        let verdict = Store::open(dir.path()).expect("reopen").count_mail(&ask).expect("count");
        assert!(matches!(verdict, mail_quota::Verdict::Refused { quota: mail_quota::Quota::Recipient, .. }));
    }

    #[test]
    fn a_mail_past_the_site_cap_waits_for_the_window_then_is_sent() {
        let dir = tempfile::tempdir().expect("tempdir");
        let store = Store::open(dir.path()).expect("open");
        let mut capped = submission("v-1", 3);
        capped.mail_per_hour = 2;
        store.insert(&capped).expect("insert");
        let due = store.due(0, 10).expect("due");
        assert_eq!(due[0].per_hour, Some(2));
        let admitted: Vec<bool> = due
            .iter()
            .map(|item| store.claim(item.id, 0).expect("claim") && store.admit(item, 60_000, 0).expect("admit"))
            .collect();
        assert_eq!(admitted, [true, true, false]);
        assert!(store.due(59_999, 10).expect("due").is_empty(), "waiting until the window ends");
        assert_eq!(store.next_due_ms().expect("next"), Some(60_000));
        let listed = &store.list(None).expect("list")[0];
        assert_eq!(listed.mails_pending, 3, "none sent yet, none dropped");
        let [again] = store.due(60_000, 10).expect("due").try_into().expect("one due");
        assert_eq!(again.attempts, 0, "waiting is no failed attempt");
        assert!(store.claim(again.id, 60_000).expect("claim") && store.admit(&again, 60_000, 60_000).expect("admit"));
        assert_eq!(store.record(&again, &Outcome::Delivered { via: "smtp" }, 60_000).expect("record"), Status::Sent);
    }

    #[test]
    fn a_double_submit_is_stored_once() {
        let dir = tempfile::tempdir().expect("tempdir");
        let store = Store::open(dir.path()).expect("open");
        store.insert(&submission("v-1", 1)).expect("insert");
        store.insert(&submission("v-1", 1)).expect("insert again");
        assert_eq!(store.due(0, 10).expect("due").len(), 1);
    }

    #[test]
    fn a_mail_refused_for_good_is_kept_as_undeliverable() {
        let dir = tempfile::tempdir().expect("tempdir");
        let store = Store::open(dir.path()).expect("open");
        store.insert(&submission("v-1", 1)).expect("insert");
        let due = store.due(0, 10).expect("due");
        let status = store.record(&due[0], &Outcome::Permanent("no such user".into()), 0).expect("record");
        assert_eq!(status, Status::Undeliverable);
        assert!(store.due(i64::MAX, 10).expect("due").is_empty());
        let listed = &store.list(None).expect("list")[0];
        assert_eq!((listed.mails_pending, listed.mails_undeliverable), (0, 1));
    }

    #[test]
    fn a_store_of_an_older_release_is_migrated() {
        let dir = tempfile::tempdir().expect("tempdir");
        let old = Connection::open(dir.path().join(DB_FILE)).expect("open");
        old.execute_batch(outbox::SCHEMA).expect("old schema");
        drop(old);
        let store = Store::open(dir.path()).expect("migrated");
        store.insert(&submission("v-1", 1)).expect("insert");
        let due = store.due(0, 10).expect("due");
        store.record(&due[0], &Outcome::Delivered { via: "file" }, 0).expect("record");
        assert_eq!(Store::open(dir.path()).expect("reopen").list(None).expect("list")[0].delivered_via, "file");
    }
}
