//! The mail outbox of `portal serve` (docs/spec/api-spec.md#delivery): submissions are stored with their mails,
//! and one background task delivers what is due, over SMTP (`PORTAL_SMTP_URL=smtp://host:port`)
//! or as `.eml` files under `<state>/mail/` when no SMTP server is configured.
//!
//! Failed attempts are retried with exponential backoff (1 s doubling, capped at 5 minutes); a
//! mail is marked sent right after the server accepted it and is never handed out again. Each mail
//! is counted against the site's hourly cap just before it is sent, and waits for the window's end
//! when the cap is reached (docs/spec/api-spec.md#mail-quotas). The task resumes whatever a
//! previous run left pending, and a new submission wakes it at once.
//!
//! On shutdown ([`Outbox::stop`]) no new mail is started and the one being sent is finished and
//! recorded first: a mail the server accepted but the store still counts as pending would be sent
//! again by the next run.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use anyhow::{anyhow, bail, Context, Result};
use lettre::message::{header::ContentType, Mailbox, MultiPart};
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};
use portal_core::forms::outbox::{Outcome, Status};
use portal_core::platform::Submission;
use tokio::sync::{Mutex, Notify};

use super::store::{OutboxMail, Store};

/// The environment variable naming the SMTP server.
pub const SMTP_URL_VAR: &str = "PORTAL_SMTP_URL";
/// The environment variable that shortens the window of the site's hourly mail cap, in seconds,
/// for tests that must see a window end (docs/cli.md#environment); unset, an hour.
pub const MAIL_WINDOW_VAR: &str = "PORTAL_MAIL_WINDOW_SECS";

/// How many mails one pass takes.
const BATCH: u32 = 50;
/// How long one SMTP exchange may take.
const SMTP_TIMEOUT: Duration = Duration::from_secs(20);
/// How long shutdown waits for the mail being sent: one SMTP exchange and its record.
const STOP_TIMEOUT: Duration = Duration::from_secs(25);

/// Where mails go.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Transport {
    /// An SMTP server without TLS (a local relay).
    Smtp {
        /// Host name or address.
        host: String,
        /// Port.
        port: u16,
    },
    /// `.eml` files in this folder.
    Files(PathBuf),
}

impl Transport {
    /// `PORTAL_SMTP_URL` if set, else `.eml` files under `<state>/mail/`.
    pub fn from_env(state: &Path) -> Result<Self> {
        match std::env::var(SMTP_URL_VAR) {
            Ok(url) if !url.trim().is_empty() => Transport::parse(url.trim()),
            _ => Ok(Transport::Files(state.join("mail"))),
        }
    }

    /// Parses `smtp://host[:port]` (port 25 by default).
    pub fn parse(url: &str) -> Result<Self> {
        let Some(rest) = url.strip_prefix("smtp://") else {
            bail!("{SMTP_URL_VAR} must look like smtp://host:port, not `{url}`");
        };
        let rest = rest.trim_end_matches('/');
        let (host, port) = match rest.rsplit_once(':') {
            Some((host, port)) => {
                (host, port.parse().map_err(|_| anyhow!("{SMTP_URL_VAR}: `{port}` is not a port number"))?)
            }
            None => (rest, 25),
        };
        if host.is_empty() {
            bail!("{SMTP_URL_VAR}: `{url}` names no host");
        }
        Ok(Transport::Smtp { host: host.trim_matches(['[', ']']).to_string(), port })
    }

    /// A short description for the startup line.
    pub fn describe(&self) -> String {
        match self {
            Transport::Smtp { host, port } => format!("smtp://{host}:{port}"),
            Transport::Files(dir) => format!(".eml files in {}", dir.display()),
        }
    }
}

/// The store and the delivery task's doorbell, shared by every build the server loads.
#[derive(Debug)]
pub struct Outbox {
    store: Arc<Store>,
    wake: Notify,
    /// The window of the site's hourly cap (ms).
    window_ms: u64,
    /// Held from a mail's claim to its record; `true` once shutdown began.
    sending: Mutex<bool>,
}

/// The window of the site's hourly cap: [`MAIL_WINDOW_VAR`] seconds if set, else an hour.
fn mail_window_ms() -> u64 {
    let secs = std::env::var(MAIL_WINDOW_VAR).ok().and_then(|v| v.trim().parse::<u64>().ok()).filter(|s| *s > 0);
    secs.map_or(portal_core::forms::mail_quota::SITE_WINDOW_MS, |s| s.saturating_mul(1000))
}

impl Outbox {
    /// Opens the store and starts delivering (pending mails of an earlier run first, those it
    /// was sending when it stopped included).
    pub fn start(store: Store, transport: Transport) -> Arc<Self> {
        if let Err(e) = store.release_claims() {
            eprintln!("portal: outbox: {e:#}");
        }
        let outbox = Arc::new(Outbox {
            store: Arc::new(store),
            wake: Notify::new(),
            window_ms: mail_window_ms(),
            sending: Mutex::new(false),
        });
        tokio::spawn(deliver_forever(Arc::clone(&outbox), transport));
        outbox
    }

    /// Stores a submission durably (committed before this returns) and wakes the delivery task.
    pub async fn submit(&self, submission: &Submission) -> Result<()> {
        let store = Arc::clone(&self.store);
        let submission = submission.clone();
        tokio::task::spawn_blocking(move || store.insert(&submission)).await.context("the store task failed")??;
        self.wake.notify_one();
        Ok(())
    }

    /// Stops delivering: waits (at most `STOP_TIMEOUT`, 25 s) for the mail being sent to be recorded,
    /// and starts no other. What is still pending waits for the next run.
    pub async fn stop(&self) {
        match tokio::time::timeout(STOP_TIMEOUT, self.sending.lock()).await {
            Ok(mut stopped) => *stopped = true,
            Err(_) => {
                eprintln!("portal: outbox: a mail was still being sent after {STOP_TIMEOUT:?}; it may go out again")
            }
        }
    }

    /// Runs a step of an idempotency key's life, durably (see `Store::idempotency`).
    pub async fn idempotency(
        &self,
        step: &portal_core::forms::idempotency::Step,
    ) -> Result<Option<portal_core::forms::idempotency::Record>> {
        let step = step.clone();
        blocking(&self.store, move |store| store.idempotency(&step)).await
    }

    /// Counts a submission's mails against the mail quotas, durably (see `Store::count_mail`).
    pub async fn count_mail(
        &self,
        ask: &portal_core::forms::mail_quota::Ask,
    ) -> Result<portal_core::forms::mail_quota::Verdict> {
        let ask = ask.clone();
        blocking(&self.store, move |store| store.count_mail(&ask)).await
    }
}

async fn blocking<T: Send + 'static>(
    store: &Arc<Store>,
    f: impl FnOnce(&Store) -> Result<T> + Send + 'static,
) -> Result<T> {
    let store = Arc::clone(store);
    tokio::task::spawn_blocking(move || f(&store)).await.context("the store task failed")?
}

fn now_ms() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis() as i64)
}

pub use portal_core::forms::outbox::backoff_ms;

async fn deliver_forever(outbox: Arc<Outbox>, transport: Transport) {
    loop {
        let full = match deliver_due(&outbox, &transport).await {
            Ok(Some(n)) => n == BATCH as usize,
            Ok(None) => return,
            Err(e) => {
                eprintln!("portal: outbox: {e:#}");
                false
            }
        };
        if full {
            continue;
        }
        let next = blocking(&outbox.store, Store::next_due_ms).await.ok().flatten();
        let wait = next.map_or(portal_core::forms::outbox::BACKOFF_CAP_MS, |due| {
            (due - now_ms()).clamp(0, portal_core::forms::outbox::BACKOFF_CAP_MS)
        });
        tokio::select! {
            () = outbox.wake.notified() => {},
            () = tokio::time::sleep(Duration::from_millis(wait as u64)) => {},
        }
    }
}

/// One pass: tries every due mail once, or makes it wait when the site's hourly cap has no room
/// for it. Returns how many it took, or `None` once the outbox is stopping.
async fn deliver_due(outbox: &Outbox, transport: &Transport) -> Result<Option<usize>> {
    let (store, window_ms) = (&outbox.store, outbox.window_ms);
    let due = blocking(store, |s| s.due(now_ms(), BATCH)).await?;
    let count = due.len();
    for item in due {
        let sending = outbox.sending.lock().await;
        if *sending {
            return Ok(None);
        }
        let id = item.id;
        if !blocking(store, move |s| s.claim(id, now_ms())).await? {
            continue;
        }
        let asking = item.clone();
        if !blocking(store, move |s| s.admit(&asking, window_ms, now_ms())).await? {
            continue;
        }
        let outcome = deliver(transport, &item).await;
        let recorded = item.clone();
        let status = blocking(store, move |s| s.record(&recorded, &outcome, now_ms())).await?;
        if status == Status::Undeliverable {
            eprintln!("portal: outbox: mail {id} of {} is given up on", item.submission_id);
        }
        drop(sending);
    }
    Ok(Some(count))
}

async fn deliver(transport: &Transport, item: &OutboxMail) -> Outcome {
    let message = match build_message(item) {
        Ok(message) => message,
        Err(e) => return Outcome::Permanent(format!("{e:#}")),
    };
    match transport {
        Transport::Smtp { host, port } => {
            let mailer = AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(host.as_str())
                .port(*port)
                .timeout(Some(SMTP_TIMEOUT))
                .build();
            match mailer.send(message).await {
                Ok(_) => Outcome::Delivered { via: "smtp" },
                Err(e) if e.is_permanent() => Outcome::Permanent(e.to_string()),
                Err(e) => Outcome::Transient(e.to_string()),
            }
        }
        Transport::Files(dir) => match write_eml(dir, item, &message.formatted()) {
            Ok(()) => Outcome::Delivered { via: "file" },
            Err(e) => Outcome::Transient(format!("{e:#}")),
        },
    }
}

/// The MIME message of an outbox row: plain text plus HTML when the mail has both.
fn build_message(item: &OutboxMail) -> Result<Message> {
    let mail = &item.mail;
    let mailbox = |address: &str| address.parse::<Mailbox>().with_context(|| format!("address `{address}`"));
    let mut builder = Message::builder()
        .from(mailbox(&mail.from)?)
        .subject(mail.subject.as_str())
        .message_id(Some(format!("<outbox-{}.{}@portal>", item.id, item.submission_id)));
    for to in &mail.to {
        builder = builder.to(mailbox(to)?);
    }
    if let Some(reply_to) = &mail.reply_to {
        builder = builder.reply_to(mailbox(reply_to)?);
    }
    let message = match &mail.html {
        Some(html) => builder.multipart(MultiPart::alternative_plain_html(mail.text.clone(), html.clone())),
        None => builder.header(ContentType::TEXT_PLAIN).body(mail.text.clone()),
    };
    message.context("building the message")
}

/// Writes the message atomically (temporary file, then rename), so a file is whole or absent.
fn write_eml(dir: &Path, item: &OutboxMail, bytes: &[u8]) -> Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let name = format!("{}-{}.eml", item.submission_id, item.id);
    let temporary = dir.join(format!(".{name}.tmp"));
    std::fs::write(&temporary, bytes).with_context(|| format!("writing {}", temporary.display()))?;
    std::fs::rename(&temporary, dir.join(&name)).with_context(|| format!("renaming {}", temporary.display()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use portal_core::platform::Mail;

    #[test]
    fn smtp_urls_parse() {
        assert_eq!(
            Transport::parse("smtp://127.0.0.1:2525").ok(),
            Some(Transport::Smtp { host: "127.0.0.1".into(), port: 2525 })
        );
        assert_eq!(
            Transport::parse("smtp://mail.example.org").ok(),
            Some(Transport::Smtp { host: "mail.example.org".into(), port: 25 })
        );
        assert!(Transport::parse("http://x:1").is_err());
        assert!(Transport::parse("smtp://x:port").is_err());
        assert!(Transport::parse("smtp://:25").is_err());
    }

    #[test]
    fn backoff_doubles_up_to_the_cap() {
        assert_eq!(backoff_ms(1), 1_000);
        assert_eq!(backoff_ms(2), 2_000);
        assert_eq!(backoff_ms(4), 8_000);
        assert_eq!(backoff_ms(60), portal_core::forms::outbox::BACKOFF_CAP_MS);
    }

    #[test]
    fn messages_carry_both_bodies_and_the_envelope() {
        let mail = Mail {
            from: "portal@example.org".into(),
            to: vec!["editors@example.org".into()],
            reply_to: Some("visitor@example.org".into()),
            subject: "Hello".into(),
            text: "plain".into(),
            html: Some("<p>html</p>".into()),
        };
        let item = OutboxMail { id: 7, submission_id: "v-1".into(), attempts: 0, mail, per_hour: None };
        let message = build_message(&item).expect("message");
        let text = String::from_utf8_lossy(&message.formatted()).to_string();
        assert!(text.contains("Message-ID: <outbox-7.v-1@portal>"), "{text}");
        assert!(text.contains("text/html") && text.contains("text/plain"));
        assert_eq!(message.envelope().to().len(), 1);
    }
}
