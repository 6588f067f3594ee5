//! `POST /api/submit-voice` (docs/spec/api-spec.md#submit-voice): a community story, stored with the editors'
//! notification mail before the 202. The HTML form (`/community-voices/new`) goes through
//! [`accept`] too, so both store and mail the same way.

use serde_json::{json, Map, Value};

use crate::forms::mail::{compose, first_address, sender, Envelope};
use crate::forms::validate::require_object;
use crate::forms::VOICE;
use crate::handlers::submit::{request_id, store};
use crate::handlers::Ctx;
use crate::http::body::json_object;
use crate::http::problem::{FieldError, Problem};
use crate::http::Response;
use crate::platform::Platform;

pub use crate::forms::{MAX_AUTHOR, MAX_CONTENT, MAX_TITLE};

/// A stored voice: its id and when it was received.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Accepted {
    /// The id given to the author.
    pub id: String,
    /// RFC 3339.
    pub received_at: String,
}

/// Why a voice was not accepted: its fields (each failure), or the server (a problem).
#[derive(Debug)]
pub enum Refused {
    /// Invalid fields.
    Fields(Vec<FieldError>),
    /// Something failed on our side.
    Problem(Problem),
}

impl From<Problem> for Refused {
    fn from(problem: Problem) -> Self {
        Refused::Problem(problem)
    }
}

impl From<Refused> for Problem {
    fn from(refused: Refused) -> Self {
        match refused {
            Refused::Fields(errors) => Problem::invalid_body(errors),
            Refused::Problem(problem) => problem,
        }
    }
}

/// Validates a voice's fields, then stores it with the editors' mail; answers once it is durable.
pub async fn accept<P: Platform>(ctx: &Ctx<'_, P>, body: &Map<String, Value>) -> Result<Accepted, Refused> {
    let today = (ctx.now_ms / 86_400_000) as i64;
    let site = &ctx.state.manifest().site;
    let data = VOICE.validate(body, site, today).map_err(Refused::Fields)?;
    let text = |name: &str| data.get(name).and_then(Value::as_str).unwrap_or_default().to_string();
    let (title, author, content) = (text("title"), text("author"), text("content"));
    let id = format!("v-{}", request_id(ctx, 20));
    let mut mails = Vec::new();
    if let Some(to) = first_address(&[&site.notifications.voices_to, &site.contact.email]) {
        let envelope = Envelope { from: sender(&ctx.state.manifest().site), to: vec![to], reply_to: None };
        let values =
            [("id", id.as_str()), ("title", &title), ("author", &author), ("content", &content), ("site", &site.title)];
        mails.push(compose(ctx.platform, "voice-editors", envelope, &values).await?);
    }
    let data = json!({"title": title, "author": author, "content": content});
    let received_at = store(ctx, VOICE.id, &id, data, mails, None).await?;
    Ok(Accepted { id, received_at })
}

/// Validates, stores and answers 202.
pub async fn handle<P: Platform>(ctx: &Ctx<'_, P>) -> Result<Response, Problem> {
    let body = require_object(json_object(ctx.request)?)?;
    let accepted = accept(ctx, &body).await?;
    Ok(Response::json(&crate::http::envelope::success(json!({
        "id": accepted.id,
        "receivedAt": accepted.received_at,
        "message": "Thank you: your story was received and will be reviewed by the editors.",
    })))
    .with_status(202))
}

#[cfg(test)]
mod tests {
    use bytes::Bytes;

    use crate::app::App;
    use crate::dist::manifest::Manifest;
    use crate::forms::mail_quota;
    use crate::http::ratelimit::Decision;
    use crate::http::{Method, Request};
    use crate::platform::{Platform, PlatformError, Submission, UpstreamRequest, UpstreamResponse};
    use crate::testing::{block_on, FakePlatform};

    fn app() -> App {
        let mut manifest = Manifest::default();
        manifest.site.notifications.from = "portal@example.org".into();
        manifest.site.notifications.voices_to = "editors@example.org".into();
        App::new(manifest, &crate::dist::manifest::Routes::new())
    }

    fn platform() -> FakePlatform {
        FakePlatform::default()
            .with_file("_portal/mail/voice-editors.txt", "Subject: New: {{title}}\n\n{{content}} by {{author}}")
            .with_file("_portal/mail/voice-editors.html", "<p>{{content}}</p>")
    }

    fn submit(body: &str) -> Request {
        Request::new(Method::Post, "/api/submit-voice")
            .with_header("content-type", "application/json")
            .with_body(body.to_string())
    }

    const BODY: &str = r#"{"title":"Beans","author":"Ana","content":"<We grew beans>"}"#;

    #[test]
    fn a_voice_is_stored_with_its_mail_before_the_202() {
        let platform = platform();
        let response = block_on(app().handle(&platform, submit(BODY)));
        assert_eq!(response.status, 202);
        let stored = platform.submissions.borrow();
        let [submission] = stored.as_slice() else { panic!("one submission") };
        assert_eq!(submission.kind, "voice");
        assert!(String::from_utf8_lossy(&response.body).contains(&submission.id));
        let mail = &submission.mails[0];
        assert_eq!(
            (mail.to.as_slice(), mail.subject.as_str()),
            (&["editors@example.org".to_string()][..], "New: Beans")
        );
        assert_eq!(mail.text, "<We grew beans> by Ana");
        assert_eq!(mail.html.as_deref(), Some("<p>&lt;We grew beans&gt;</p>"));
    }

    /// A platform whose store always fails.
    struct Refusing(FakePlatform);

    impl Platform for Refusing {
        async fn read_asset(&self, file: &str) -> Result<Option<Bytes>, PlatformError> {
            self.0.read_asset(file).await
        }
        async fn rate_limit(&self, client: &str, now_ms: u64, cost: u32) -> Result<Decision, PlatformError> {
            self.0.rate_limit(client, now_ms, cost).await
        }
        fn now_ms(&self) -> u64 {
            self.0.now_ms()
        }
        async fn fetch(&self, request: UpstreamRequest) -> Result<UpstreamResponse, PlatformError> {
            self.0.fetch(request).await
        }
        async fn cache_get(&self, key: &str) -> Option<Bytes> {
            self.0.cache_get(key).await
        }
        async fn cache_put(&self, key: &str, value: Bytes, ttl_secs: u64) {
            self.0.cache_put(key, value, ttl_secs).await
        }
        async fn count_mail(&self, ask: &mail_quota::Ask) -> Result<mail_quota::Verdict, PlatformError> {
            self.0.count_mail(ask).await
        }
        async fn store_submission(&self, _: &Submission) -> Result<(), PlatformError> {
            Err(PlatformError("disk full".into()))
        }
        async fn idempotency(
            &self,
            step: &crate::forms::idempotency::Step,
        ) -> Result<Option<crate::forms::idempotency::Record>, PlatformError> {
            self.0.idempotency(step).await
        }
    }

    #[test]
    fn an_unstored_voice_is_never_accepted() {
        let response = block_on(app().handle(&Refusing(platform()), submit(BODY)));
        assert_eq!(response.status, 500);
        assert!(!String::from_utf8_lossy(&response.body).contains("disk full"));
    }

    #[test]
    fn a_voice_sent_again_with_its_key_is_stored_once_and_answered_alike() {
        let (app, platform) = (app(), platform());
        let keyed = |body: &str| submit(body).with_header("idempotency-key", "\"k-1\"");
        let first = block_on(app.handle(&platform, keyed(BODY)));
        platform.advance(5_000);
        let again = block_on(app.handle(&platform, keyed(BODY)));
        assert_eq!((first.status, again.status), (202, 202));
        assert_eq!(first.body, again.body);
        assert_eq!((first.header("idempotent-replayed"), again.header("idempotent-replayed")), (None, Some("true")));
        assert_eq!(platform.submissions.borrow().len(), 1);
        let other = block_on(app.handle(&platform, keyed(r#"{"title":"Peas","author":"Ana","content":"x"}"#)));
        assert_eq!(other.status, 422);
        assert!(String::from_utf8_lossy(&other.body).contains("idempotency_key_reused"));
        assert_eq!(platform.submissions.borrow().len(), 1);
    }

    #[test]
    fn a_key_another_request_still_holds_is_409_and_stores_nothing() {
        let (app, platform) = (app(), platform());
        let claim = crate::forms::idempotency::Step::Claim {
            key: "/api/submit-voice k-1".into(),
            fingerprint: crate::forms::idempotency::fingerprint(&submit(BODY)),
            owner: "another request".into(),
            now_ms: platform.now_ms(),
        };
        block_on(platform.idempotency(&claim)).expect("claimed");
        let answer = block_on(app.handle(&platform, submit(BODY).with_header("idempotency-key", "k-1")));
        assert_eq!(answer.status, 409);
        assert!(platform.submissions.borrow().is_empty());
    }

    #[test]
    fn a_refused_voice_releases_its_key_and_a_bad_key_is_400() {
        let (app, platform) = (app(), platform());
        let keyed = |body: &str| submit(body).with_header("idempotency-key", "k-2");
        assert_eq!(block_on(app.handle(&platform, keyed(r#"{"title":""}"#))).status, 400);
        assert!(platform.keys.borrow().is_empty(), "a refused answer is not kept");
        let long = submit(BODY).with_header("idempotency-key", &"k".repeat(256));
        assert_eq!(block_on(app.handle(&platform, long)).status, 400);
        assert!(platform.submissions.borrow().is_empty());
    }

    #[test]
    fn missing_templates_fail_before_storing() {
        let platform = FakePlatform::default();
        assert_eq!(block_on(app().handle(&platform, submit(BODY))).status, 500);
        assert!(platform.submissions.borrow().is_empty());
    }
}
