//! What the two submission endpoints share: unguessable ids derived from the request (core has no
//! random source), and storing a submission with its mails before anything is answered.

use serde_json::Value;

use crate::content::time::DateTime;
use crate::forms::ids::{base32, digest};
use crate::forms::mail_quota::{self, Verdict};
use crate::handlers::Ctx;
use crate::http::client_identity;
use crate::http::problem::Problem;
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
        mail_per_hour: ctx.app.manifest().site.mail.max_per_hour,
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
