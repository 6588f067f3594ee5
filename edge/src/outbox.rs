//! Submissions on the edge: D1 holds them with their mail outbox (the core's schema), written in
//! one batch (a transaction) before the 202; the `send_email` binding delivers the mails after the
//! answer, and a cron trigger retries what failed with the core's backoff.

use std::cell::Cell;

use portal_core::outbox::{backoff_ms, SCHEMA};
use portal_core::platform::{Mail, PlatformError, Submission};
use serde::Deserialize;
use worker::wasm_bindgen::JsValue;
use worker::{D1Database, Env, SendEmailBuilder};

thread_local! {
    /// Whether this isolate has made sure the tables exist.
    static SCHEMA_READY: Cell<bool> = const { Cell::new(false) };
}

/// How many mails one delivery pass takes.
const BATCH: u32 = 20;
/// How long a claimed mail stays claimed before another pass may retry it (a crash mid-send).
const CLAIM_MS: i64 = 300_000;

fn error(context: &'static str) -> impl Fn(worker::Error) -> PlatformError {
    move |e| PlatformError(format!("{context}: {e}"))
}

async fn database(env: &Env) -> Result<D1Database, PlatformError> {
    let db = env.d1("DB").map_err(error("DB binding"))?;
    if !SCHEMA_READY.with(Cell::get) {
        let statements: Vec<_> =
            SCHEMA.split(';').map(str::trim).filter(|s| !s.is_empty()).map(|statement| db.prepare(statement)).collect();
        db.batch(statements).await.map_err(error("creating the tables"))?;
        SCHEMA_READY.with(|ready| ready.set(true));
    }
    Ok(db)
}

/// Stores a submission and its mails in one batch; a submission already stored is left as it is.
pub async fn store(env: &Env, submission: &Submission) -> Result<(), PlatformError> {
    let db = database(env).await?;
    let id = JsValue::from_str(&submission.id);
    let existing = db
        .prepare("SELECT 1 AS found FROM submissions WHERE id = ?1")
        .bind(std::slice::from_ref(&id))
        .map_err(error("binding"))?
        .first::<serde_json::Value>(None)
        .await
        .map_err(error("reading submissions"))?;
    if existing.is_some() {
        return Ok(());
    }
    let data = serde_json::to_string(&submission.data).map_err(|e| PlatformError(e.to_string()))?;
    let mut statements = vec![db
        .prepare("INSERT INTO submissions (id, kind, received_at, data) VALUES (?1, ?2, ?3, ?4)")
        .bind(&[id.clone(), submission.kind.as_str().into(), submission.received_at.as_str().into(), data.into()])
        .map_err(error("binding"))?];
    for mail in &submission.mails {
        let mail = serde_json::to_string(mail).map_err(|e| PlatformError(e.to_string()))?;
        statements.push(
            db.prepare("INSERT INTO outbox (submission_id, mail) VALUES (?1, ?2)")
                .bind(&[id.clone(), mail.into()])
                .map_err(error("binding"))?,
        );
    }
    db.batch(statements).await.map_err(error("storing the submission"))?;
    Ok(())
}

#[derive(Deserialize)]
struct Due {
    id: f64,
    attempts: f64,
    mail: String,
}

/// Sends the mails that are due at `now_ms`; returns how many were sent.
pub async fn deliver_due(env: &Env, now_ms: i64) -> Result<usize, PlatformError> {
    let db = database(env).await?;
    let now = JsValue::from_f64(now_ms as f64);
    let due: Vec<Due> = db
        .prepare(
            "SELECT id, attempts, mail FROM outbox WHERE status IN ('pending', 'sending') AND next_attempt_ms <= ?1 \
             ORDER BY id LIMIT ?2",
        )
        .bind(&[now.clone(), JsValue::from_f64(f64::from(BATCH))])
        .map_err(error("binding"))?
        .all()
        .await
        .map_err(error("reading the outbox"))?
        .results()
        .map_err(error("reading the outbox"))?;
    let mut sent = 0;
    for row in due {
        let row_id = JsValue::from_f64(row.id);
        // Claim the row first, so two passes never send the same mail.
        let claimed = db
            .prepare("UPDATE outbox SET status = 'sending', next_attempt_ms = ?2 WHERE id = ?1 AND next_attempt_ms <= ?3 AND status != 'sent'")
            .bind(&[row_id.clone(), JsValue::from_f64((now_ms + CLAIM_MS) as f64), now.clone()])
            .map_err(error("binding"))?
            .run()
            .await
            .map_err(error("claiming a mail"))?;
        if claimed.meta().ok().flatten().and_then(|m| m.changes).unwrap_or(0) != 1 {
            continue;
        }
        let attempts = row.attempts as u32 + 1;
        let outcome = match serde_json::from_str::<Mail>(&row.mail) {
            Ok(mail) => send(env, &mail).await,
            Err(e) => Err(format!("unreadable mail: {e}")),
        };
        let update = match &outcome {
            Ok(()) => db
                .prepare("UPDATE outbox SET status = 'sent', attempts = ?2, sent_at_ms = ?3 WHERE id = ?1")
                .bind(&[row_id, JsValue::from_f64(f64::from(attempts)), now.clone()]),
            Err(message) => db
                .prepare("UPDATE outbox SET status = 'pending', attempts = ?2, next_attempt_ms = ?3, last_error = ?4 WHERE id = ?1")
                .bind(&[
                    row_id,
                    JsValue::from_f64(f64::from(attempts)),
                    JsValue::from_f64((now_ms + backoff_ms(attempts)) as f64),
                    JsValue::from_str(message),
                ]),
        };
        update.map_err(error("binding"))?.run().await.map_err(error("recording a delivery"))?;
        sent += usize::from(outcome.is_ok());
    }
    Ok(sent)
}

async fn send(env: &Env, mail: &Mail) -> Result<(), String> {
    let binding = env.send_email("EMAIL").map_err(|e| format!("EMAIL binding: {e}"))?;
    let mut builder =
        SendEmailBuilder::builder_with_str_and_slice(&mail.from, &mail.to, &mail.subject).text(&mail.text);
    if let Some(html) = &mail.html {
        builder = builder.html(html);
    }
    if let Some(reply_to) = &mail.reply_to {
        builder = builder.reply_to(reply_to);
    }
    binding.send_with_builder(&builder.build()).await.map(|_| ()).map_err(|e| format!("{e:?}"))
}
