//! What the two submission endpoints share: unguessable ids derived from the request (core has no
//! random source), and storing a submission with its mails before anything is answered.

use serde_json::Value;

use crate::content::time::DateTime;
use crate::forms::ids::{base32, digest};
use crate::forms::mail_quota::{self, Quota, Verdict};
use crate::handlers::Ctx;
use crate::http::client_identity;
use crate::http::problem::{ErrorCode, Problem};
use crate::platform::{internal, Mail, Platform, Submission};

/// An id for this request: the time, the client address and the body, hashed, in base 32.
/// Two identical bodies from one client within the same millisecond get the same id (a double
/// submit), which the store keeps once.
pub fn request_id<P>(ctx: &Ctx<'_, P>, len: usize) -> String {
    let client = client_identity::address(ctx.request);
    let now = ctx.now_ms.to_be_bytes();
    base32(digest(&[&now, client.as_bytes(), &ctx.request.body]), len)
}

/// Stores the submission with its mails; `Err` (500) unless the platform confirms it is durable.
/// Its mails count first against the mail quotas ([`mail_quota`]), `recipient` being the address a
/// visitor typed, if any: over either, nothing is stored and the answer is 429 `rate_limited`.
/// Returns the `receivedAt` timestamp.
pub async fn store<P: Platform>(
    ctx: &Ctx<'_, P>,
    kind: &str,
    id: &str,
    data: Value,
    mails: Vec<Mail>,
    recipient: Option<&str>,
) -> Result<String, Problem> {
    if !mails.is_empty() {
        count_mail(ctx, mails.len(), recipient).await?;
    }
    let received_at = DateTime::from_unix((ctx.now_ms / 1000) as i64).rfc3339();
    let submission =
        Submission { kind: kind.to_string(), id: id.to_string(), received_at: received_at.clone(), data, mails };
    ctx.platform.store_submission(&submission).await.map_err(internal(ctx.platform, "storing a submission"))?;
    Ok(received_at)
}

/// Counts `mails` mails (a confirmation to `recipient` among them) against the mail quotas.
async fn count_mail<P: Platform>(ctx: &Ctx<'_, P>, mails: usize, recipient: Option<&str>) -> Result<(), Problem> {
    let ask = mail_quota::Ask {
        recipient: recipient.map(mail_quota::recipient_key),
        mails: u32::try_from(mails).unwrap_or(u32::MAX),
        per_hour: ctx.app.manifest().site.mail.max_per_hour,
        now_ms: ctx.now_ms,
    };
    let verdict = ctx.platform.count_mail(&ask).await.map_err(internal(ctx.platform, "counting mail"))?;
    let Verdict::Refused { quota, retry_after_secs } = verdict else { return Ok(()) };
    let why = match quota {
        Quota::Recipient => format!(
            "This address has been sent {} confirmations in the last 24 hours, the most it may be sent",
            mail_quota::PER_RECIPIENT
        ),
        Quota::Site => "The site has sent as much mail as it may this hour".to_string(),
    };
    Err(Problem::new(
        ErrorCode::RateLimited,
        format!("{why}; nothing was stored. Try again in {retry_after_secs} seconds."),
    )
    .with_extension("retryAfter", serde_json::json!(retry_after_secs))
    .with_header("retry-after", retry_after_secs.to_string()))
}
