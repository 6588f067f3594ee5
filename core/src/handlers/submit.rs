//! What the two submission endpoints share: unguessable ids derived from the request (core has no
//! random source), storing a submission with its mails before anything is answered, and answering
//! a request sent again with its idempotency key once (docs/spec/api-spec.md#idempotency).

use std::future::Future;

use serde_json::Value;

use crate::content::time::DateTime;
use crate::forms::idempotency::{self, Answer, KeyError, Step, Verdict as KeyVerdict};
use crate::forms::ids::{base32, digest};
use crate::forms::mail_quota::{self, Verdict};
use crate::handlers::Ctx;
use crate::http::client_identity;
use crate::http::problem::{ErrorCode, Problem};
use crate::http::{Method, Response};
use crate::platform::{internal, Mail, Platform, Submission};

/// An id for this request: the time, the client address and the body, hashed, in base 32.
/// Two identical bodies from one client within the same millisecond get the same id (a double
/// submit), which the store keeps once. A request with an idempotency key gets an id of its path,
/// key and body alone, so a retry stores nothing new even after the key's claim ran out.
pub fn request_id<P>(ctx: &Ctx<'_, P>, len: usize) -> String {
    if let Some(key) = idempotency::key_of(ctx.request).and_then(|k| idempotency::parse(&k).ok()) {
        return base32(digest(&[ctx.request.path.as_bytes(), key.as_bytes(), &ctx.request.body]), len);
    }
    let client = client_identity::address(ctx.request);
    let now = ctx.now_ms.to_be_bytes();
    base32(digest(&[&now, client.as_bytes(), &ctx.request.body]), len)
}

/// Stores the submission with its mails; `Err` (500) unless the platform confirms it is durable.
/// Returns the `receivedAt` timestamp. `confirmation`, a mail to the address a visitor typed, is
/// queued only while that address has confirmations left ([`mail_quota`]); past them it is
/// dropped and the submission stored and answered all the same, so the answer never tells whether
/// the address booked before (docs/spec/api-spec.md#mail-quotas). No quota refuses a submission:
/// mails past the site's hourly cap wait in the outbox.
pub async fn store<P: Platform>(
    ctx: &Ctx<'_, P>,
    kind: &str,
    id: &str,
    data: Value,
    mut mails: Vec<Mail>,
    confirmation: Option<Mail>,
) -> Result<String, Problem> {
    if let Some(mail) = confirmation {
        if confirmation_fits(ctx, &mail).await? {
            mails.insert(0, mail);
        }
    }
    let received_at = DateTime::from_unix((ctx.now_ms / 1000) as i64).rfc3339();
    let submission = Submission {
        kind: kind.to_string(),
        id: id.to_string(),
        received_at: received_at.clone(),
        data,
        mails,
        mail_per_hour: ctx.state.manifest().site.mail.max_per_hour,
    };
    ctx.platform.store_submission(&submission).await.map_err(internal(ctx.platform, "storing a submission"))?;
    Ok(received_at)
}

/// Counts a confirmation against its recipient's quota; whether it fits.
async fn confirmation_fits<P: Platform>(ctx: &Ctx<'_, P>, mail: &Mail) -> Result<bool, Problem> {
    let recipient = mail.to.first().map_or("", String::as_str);
    let ask = mail_quota::Ask::Confirmation { recipient: mail_quota::recipient_key(recipient), now_ms: ctx.now_ms };
    let verdict = ctx.platform.count_mail(&ask).await.map_err(internal(ctx.platform, "counting mail"))?;
    Ok(verdict == Verdict::Allowed)
}

/// Runs `handle` once per idempotency key (docs/spec/api-spec.md#idempotency): a POST without a
/// key just runs; with one, the first request runs and its accepted answer (below 400) is kept, a
/// request sent again with the same key and body gets that answer again, marked
/// `Idempotent-Replayed: true`, one with another body is 422, one while the first still runs 409.
/// A refused answer releases the key, so the client may retry with it.
pub async fn once<'c, P, F, Fut>(ctx: &'c Ctx<'c, P>, handle: F) -> Result<Response, Problem>
where
    P: Platform,
    F: FnOnce(&'c Ctx<'c, P>) -> Fut,
    Fut: Future<Output = Result<Response, Problem>>,
{
    let (key, owner) = match claim(ctx).await {
        Ok(Some(claimed)) => claimed,
        Ok(None) => return handle(ctx).await,
        Err(answer) => return answer,
    };
    let answered = handle(ctx).await;
    let step = match &answered {
        Ok(response) if response.status < 400 => {
            Step::Answer { key, owner, answer: kept(response), now_ms: ctx.now_ms }
        }
        _ => Step::Release { key, owner },
    };
    // What was stored is answered even if its key could not be updated: a retry then finds the
    // claim run out and runs again, and the store keeps the key's submission once (`request_id`).
    if let Err(e) = ctx.platform.idempotency(&step).await {
        ctx.platform.report("remembering an idempotency key's answer", &e);
    }
    answered
}

/// Claims the request's key: `None` when it has none (or is no POST), the scoped key and this
/// request's claim when it may run, else the answer to give instead (a replay, 409, 422, 400).
async fn claim<P: Platform>(ctx: &Ctx<'_, P>) -> Result<Option<(String, String)>, Result<Response, Problem>> {
    // An empty form field is no key (a form page of an older build); an empty header is a bad one.
    let raw = idempotency::key_of(ctx.request);
    let raw = raw.filter(|k| !k.is_empty() || ctx.request.header(idempotency::HEADER).is_some());
    let Some(raw) = raw.filter(|_| ctx.request.method == Method::Post) else { return Ok(None) };
    let key = idempotency::scoped(&ctx.request.path, &idempotency::parse(&raw).map_err(|e| Err(bad_key(e)))?);
    let (owner, fingerprint) = (owner(ctx), idempotency::fingerprint(ctx.request));
    let step =
        Step::Claim { key: key.clone(), fingerprint: fingerprint.clone(), owner: owner.clone(), now_ms: ctx.now_ms };
    let failed = |cause: &dyn std::fmt::Display| Err(internal(ctx.platform, "claiming an idempotency key")(cause));
    let held = match ctx.platform.idempotency(&step).await {
        Ok(Some(held)) => held,
        Ok(None) => return Err(failed(&"the store kept no row")),
        Err(e) => return Err(failed(&e)),
    };
    match idempotency::decide(&held, &owner, &fingerprint) {
        KeyVerdict::Proceed => Ok(Some((key, owner))),
        KeyVerdict::Replay(answer) => Err(Ok(replay(answer))),
        KeyVerdict::Mismatch => Err(Err(Problem::new(
            ErrorCode::IdempotencyKeyReused,
            "This Idempotency-Key was first sent with another request; send a new key for a new request.",
        ))),
        KeyVerdict::InFlight => Err(Err(Problem::new(
            ErrorCode::IdempotencyKeyInUse,
            "A request with this Idempotency-Key is still being processed; retry it in a moment.",
        ))),
    }
}

fn bad_key(error: KeyError) -> Problem {
    let why = match error {
        KeyError::Length => format!("must be 1 to {} characters", idempotency::MAX_KEY_CHARS),
        KeyError::Characters => "must be printable ASCII".to_string(),
    };
    Problem::bad_request(format!("The Idempotency-Key {why}."))
}

/// A value no other request has: random where the platform has a source, else this request's id.
fn owner<P: Platform>(ctx: &Ctx<'_, P>) -> String {
    let drawn = ctx.platform.random().map(u128::from_be_bytes).unwrap_or_default();
    let client = client_identity::address(ctx.request);
    base32(digest(&[&drawn.to_be_bytes(), &ctx.now_ms.to_be_bytes(), client.as_bytes(), &ctx.request.body]), 25)
}

fn kept(response: &Response) -> Answer {
    Answer {
        status: response.status,
        headers: response.headers.clone(),
        body: String::from_utf8_lossy(&response.body).into_owned(),
    }
}

fn replay(answer: Answer) -> Response {
    let mut response = Response::new(answer.status);
    response.headers = answer.headers;
    response.body = answer.body.into();
    response.with_header(idempotency::REPLAYED, "true")
}
