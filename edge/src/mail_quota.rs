//! The Durable Object that holds the mail quotas' windows (`portal_core::forms::mail_quota`): one object
//! for the whole site, named [`OBJECT`], in its own SQLite storage with the core's statements (the
//! same `portal serve` runs). Its storage calls are synchronous, so reading the windows, deciding
//! and writing them back is one step no other request can interleave with, exact across isolates.

use portal_core::forms::mail_quota::{self, Ask, Verdict};
use portal_core::http::ratelimit::Window;
use portal_core::platform::PlatformError;
use serde::Deserialize;
use worker::{
    durable_object, DurableObject, Env, Method, Request, RequestInit, Response, Result, SqlStorageValue, State,
};

/// The name of the one object.
pub const OBJECT: &str = "site";
/// The binding of the object's namespace.
const BINDING: &str = "MAIL_QUOTA";

/// Asks the one object to count `ask`, from where there is no request platform (the outbox's
/// delivery pass, run after an answer or by the cron trigger).
pub async fn ask(env: &Env, ask: &Ask) -> std::result::Result<Verdict, PlatformError> {
    let failed = |e: worker::Error| PlatformError(format!("{BINDING}: {e}"));
    let stub = env.durable_object(BINDING).and_then(|ns| ns.id_from_name(OBJECT)?.get_stub()).map_err(failed)?;
    let body = serde_json::to_string(ask).map_err(|e| PlatformError(e.to_string()))?;
    let mut init = RequestInit::new();
    init.with_method(Method::Post).with_body(Some(body.into()));
    let request = Request::new_with_init("https://portal.internal/MAIL_QUOTA", &init).map_err(failed)?;
    let mut response = stub.fetch_with_request(request).await.map_err(failed)?;
    response.json::<Verdict>().await.map_err(failed)
}

/// A stored window, as SQLite gives it back (numbers arrive as JavaScript numbers).
#[derive(Deserialize)]
struct Row {
    start_ms: f64,
    count: f64,
}

/// The site's mail-quota windows.
#[durable_object]
pub struct MailQuota {
    state: State,
}

impl DurableObject for MailQuota {
    fn new(state: State, _env: Env) -> Self {
        MailQuota { state }
    }

    async fn fetch(&self, mut request: Request) -> Result<Response> {
        let ask: Ask = request.json().await?;
        let sql = self.state.storage().sql();
        sql.exec(mail_quota::SCHEMA, None)?;
        let mut held = Vec::new();
        for key in ask.keys() {
            let rows: Vec<Row> = sql.exec(mail_quota::SELECT, vec![key.into()])?.to_array()?;
            held.push(rows.first().map(|row| Window { start_ms: row.start_ms as u64, count: row.count as u32 }));
        }
        let (updated, verdict) = mail_quota::decide(&ask, &held);
        for (key, window) in updated {
            let start = SqlStorageValue::from(window.start_ms as f64);
            sql.exec(mail_quota::UPSERT, vec![key.into(), start, SqlStorageValue::from(f64::from(window.count))])?;
        }
        sql.exec(mail_quota::SWEEP, vec![SqlStorageValue::from(mail_quota::sweep_before(ask.now_ms()) as f64)])?;
        Response::from_json(&verdict)
    }
}
