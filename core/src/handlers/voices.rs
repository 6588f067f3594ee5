//! `POST /api/submit-voice` (decision D6): a community story, stored with the editors'
//! notification mail before the 202.

use serde_json::json;

use crate::body::json_object;
use crate::handlers::submit::{request_id, store};
use crate::handlers::Ctx;
use crate::http::Response;
use crate::mail::{compose, first_address, sender, Envelope};
use crate::platform::Platform;
use crate::problem::Problem;
use crate::validate::{require_object, Fields, Use};

/// Field limits in characters (D6).
pub const MAX_TITLE: usize = 200;
/// See [`MAX_TITLE`].
pub const MAX_AUTHOR: usize = 100;
/// See [`MAX_TITLE`].
pub const MAX_CONTENT: usize = 20_000;

/// Validates, stores and answers 202.
pub async fn handle<P: Platform>(ctx: &Ctx<'_, P>) -> Result<Response, Problem> {
    let body = require_object(json_object(ctx.request)?)?;
    let mut fields = Fields::new(&body);
    let title = fields.text("title", true, MAX_TITLE, Use::Header);
    let author = fields.text("author", true, MAX_AUTHOR, Use::Header);
    let content = fields.text("content", true, MAX_CONTENT, Use::Body);
    fields.finish()?;
    let (title, author, content) = (title.unwrap_or_default(), author.unwrap_or_default(), content.unwrap_or_default());
    let id = format!("v-{}", request_id(ctx, 20));
    let site = &ctx.app.manifest().site;
    let mut mails = Vec::new();
    if let Some(to) = first_address(&[&site.notifications.voices_to, &site.contact.email]) {
        let envelope = Envelope { from: sender(ctx.app), to: vec![to], reply_to: None };
        let values = [("id", id.as_str()), ("title", &title), ("author", &author), ("content", &content), ("site", &site.title)];
        mails.push(compose(ctx.platform, "voice-editors", envelope, &values).await?);
    }
    let data = json!({"title": title, "author": author, "content": content});
    let received_at = store(ctx, "voice", &id, data, mails).await?;
    Ok(Response::json(&json!({
        "status": "success",
        "id": id,
        "receivedAt": received_at,
        "message": "Thank you: your story was received and will be reviewed by the editors.",
    }))
    .with_status(202))
}
