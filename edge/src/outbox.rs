//! Submissions on the edge: D1 holds them with their mail outbox, written in one batch (a
//! transaction) before the 202; the `send_email` binding delivers the mails after the answer, and
//! a cron trigger retries what failed and sends what waited for the site's hourly mail cap (each
//! mail is counted against it, in the `MailQuota` object, just before it is sent). The schema, the
//! statements and the retry, wait and give-up rules are the core's (`portal_core::forms::outbox`),
//! the same `portal serve` runs on SQLite.

use std::cell::Cell;

use portal_core::forms::idempotency;
use portal_core::forms::mail_quota::SITE_WINDOW_MS;
use portal_core::forms::outbox::{self, Admission, Outcome, SqlValue, Statement, SCHEMA};
use portal_core::platform::{Mail, PlatformError, Submission};
use serde::Deserialize;
use worker::wasm_bindgen::JsValue;
use worker::{D1Database, D1PreparedStatement, Env, SendEmailBuilder};

thread_local! {
    /// Whether this isolate has made sure the tables exist.
    static SCHEMA_READY: Cell<bool> = const { Cell::new(false) };
}

/// How many mails one delivery pass takes.
const BATCH: u32 = 20;

fn error(context: &'static str) -> impl Fn(worker::Error) -> PlatformError {
    move |e| PlatformError(format!("{context}: {e}"))
}

/// A core statement bound for D1.
fn prepare(db: &D1Database, statement: &Statement) -> Result<D1PreparedStatement, PlatformError> {
    let params: Vec<JsValue> = statement
        .params
        .iter()
        .map(|value| match value {
            SqlValue::Integer(n) => JsValue::from_f64(*n as f64),
            SqlValue::Text(text) => JsValue::from_str(text),
            SqlValue::Null => JsValue::NULL,
        })
        .collect();
    db.prepare(statement.sql).bind(&params).map_err(error("binding"))
}

async fn database(env: &Env) -> Result<D1Database, PlatformError> {
    let db = env.d1("DB").map_err(error("DB binding"))?;
    if !SCHEMA_READY.with(Cell::get) {
        let statements: Vec<_> = [SCHEMA, idempotency::SCHEMA]
            .iter()
            .flat_map(|schema| schema.split(';'))
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(|statement| db.prepare(statement))
            .collect();
        db.batch(statements).await.map_err(error("creating the tables"))?;
        for migration in outbox::MIGRATIONS {
            if let Err(e) = db.prepare(*migration).run().await {
                if !outbox::already_migrated(&e.to_string()) {
                    return Err(error("updating the tables")(e));
                }
            }
        }
        SCHEMA_READY.with(|ready| ready.set(true));
    }
    Ok(db)
}

/// Stores a submission and its mails in one batch; a submission already stored is left as it is.
pub async fn store(env: &Env, submission: &Submission) -> Result<(), PlatformError> {
    let db = database(env).await?;
    let statements = outbox::store(submission).map_err(|e| PlatformError(e.to_string()))?;
    let prepared = statements.iter().map(|s| prepare(&db, s)).collect::<Result<Vec<_>, _>>()?;
    db.batch(prepared).await.map_err(error("storing the submission"))?;
    Ok(())
}

#[derive(Deserialize)]
struct KeyRow {
    fingerprint: String,
    owner: String,
    answer: Option<String>,
    until_ms: f64,
}

/// Runs a step of an idempotency key's life as one batch (a D1 batch is a transaction); a claim
/// answers the key's row as its last statement selected it.
pub async fn idempotency(env: &Env, step: &idempotency::Step) -> Result<Option<idempotency::Record>, PlatformError> {
    let db = database(env).await?;
    let statements = idempotency::statements(step).map_err(|e| PlatformError(e.to_string()))?;
    let prepared = statements.iter().map(|s| prepare(&db, s)).collect::<Result<Vec<_>, _>>()?;
    let mut results = db.batch(prepared).await.map_err(error("an idempotency key"))?;
    if !matches!(step, idempotency::Step::Claim { .. }) {
        return Ok(None);
    }
    let Some(last) = results.pop() else { return Ok(None) };
    let rows: Vec<KeyRow> = last.results().map_err(error("reading an idempotency key"))?;
    rows.into_iter()
        .next()
        .map(|r| idempotency::row(r.fingerprint, r.owner, r.answer.as_deref(), r.until_ms as i64))
        .transpose()
        .map_err(|e| PlatformError(format!("an idempotency key's row: {e}")))
}

#[derive(Deserialize)]
struct Due {
    id: f64,
    attempts: f64,
    mail: String,
    per_hour: Option<f64>,
}

/// Sends the mails that are due at `now_ms`, or makes them wait when the site's hourly cap has no
/// room; returns how many were sent.
pub async fn deliver_due(env: &Env, now_ms: i64) -> Result<usize, PlatformError> {
    let db = database(env).await?;
    let due: Vec<Due> = prepare(&db, &outbox::due(now_ms, BATCH))?
        .all()
        .await
        .map_err(error("reading the outbox"))?
        .results()
        .map_err(error("reading the outbox"))?;
    let mut sent = 0;
    for row in due {
        let id = row.id as i64;
        // Claim the row first, so two passes never send the same mail.
        let claimed = prepare(&db, &outbox::claim(id, now_ms))?.run().await.map_err(error("claiming a mail"))?;
        if claimed.meta().ok().flatten().and_then(|m| m.changes).unwrap_or(0) != 1 {
            continue;
        }
        let verdict =
            crate::mail_quota::ask(env, &outbox::send_ask(row.per_hour.map(|n| n as i64), SITE_WINDOW_MS, now_ms))
                .await?;
        if let Admission::Wait(wait) = outbox::admit(id, &verdict, now_ms) {
            prepare(&db, &wait)?.run().await.map_err(error("making a mail wait"))?;
            continue;
        }
        let outcome = match serde_json::from_str::<Mail>(&row.mail) {
            Ok(mail) => send(env, &mail).await,
            Err(e) => Outcome::Permanent(format!("unreadable mail: {e}")),
        };
        let (_, update) = outbox::record(id, row.attempts as u32, &outcome, now_ms);
        prepare(&db, &update)?.run().await.map_err(error("recording a delivery"))?;
        sent += usize::from(matches!(outcome, Outcome::Delivered { .. }));
    }
    Ok(sent)
}

async fn send(env: &Env, mail: &Mail) -> Outcome {
    let binding = match env.send_email("EMAIL") {
        Ok(binding) => binding,
        Err(e) => return Outcome::Transient(format!("EMAIL binding: {e}")),
    };
    let mut builder =
        SendEmailBuilder::builder_with_str_and_slice(&mail.from, &mail.to, &mail.subject).text(&mail.text);
    if let Some(html) = &mail.html {
        builder = builder.html(html);
    }
    if let Some(reply_to) = &mail.reply_to {
        builder = builder.reply_to(reply_to);
    }
    match binding.send_with_builder(&builder.build()).await {
        Ok(_) => Outcome::Delivered { via: "send_email" },
        Err(e) => Outcome::Transient(format!("{e:?}")),
    }
}
