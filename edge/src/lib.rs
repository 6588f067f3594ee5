//! `portal-edge`: the Cloudflare Worker. A thin adapter: Cloudflare bindings implement the core's
//! [`Platform`](portal_core::platform::Platform) and every request goes through the same
//! [`portal_core::app::App`] as `portal serve`, so behaviour cannot differ between the two.
//!
//! Bindings (see `wrangler.toml`): `ASSETS` (the built `dist/`), `RATE_LIMITER` (a Durable Object
//! per client address holding its fixed window), `MAIL_QUOTA` (one Durable Object holding the mail
//! quotas' windows), `DB` (D1: submissions and their mail outbox),
//! `EMAIL` (send_email), the Cache API, outbound `fetch`, the vars `RATE_LIMIT` /
//! `RATE_WINDOW_SECONDS`, and the CMS sign-in's secrets and vars `CMS_GITHUB_*`, which core reads
//! through `Platform::setting` (docs/deploying.md#cms-sign-in).

mod convert;
mod mail_quota;
mod outbox;
mod platform;
mod rate_limiter;

use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::time::Duration;

use portal_core::app::App;
use worker::{event, Context, Delay, Env, ScheduleContext, ScheduledEvent};

pub use mail_quota::MailQuota;
pub use platform::EdgePlatform;
pub use rate_limiter::RateLimitWindow;

thread_local! {
    /// The app of this isolate, loaded from the build's manifest on the first request.
    static APP: RefCell<Option<Rc<App>>> = const { RefCell::new(None) };
}

async fn app(platform: &EdgePlatform) -> worker::Result<Rc<App>> {
    if let Some(app) = APP.with(|slot| slot.borrow().clone()) {
        return Ok(app);
    }
    let app = Rc::new(App::load(platform).await.map_err(|e| worker::Error::RustError(e.to_string()))?);
    APP.with(|slot| *slot.borrow_mut() = Some(Rc::clone(&app)));
    Ok(app)
}

#[event(fetch)]
async fn fetch(request: worker::Request, env: Env, ctx: Context) -> worker::Result<worker::Response> {
    let ctx = Rc::new(ctx);
    let platform = EdgePlatform::new(env.clone(), Some(Rc::clone(&ctx)))?;
    let app = app(&platform).await?;
    let response = match convert::request(request).await? {
        Ok(request) => app.handle(&platform, request).await,
        Err((what, path)) => app.interrupted(what, &path),
    };
    warm_search(&app, env, &ctx);
    convert::response(response)
}

thread_local! {
    /// Whether this isolate has started opening the search index in the background.
    static WARMING: Cell<bool> = const { Cell::new(false) };
}

/// How long after an isolate's first request it starts opening the search index: the requests that
/// come with a page (its images, a second page) are answered first, undisturbed by the index's
/// reads; a reader's search comes later.
const WARM_AFTER: Duration = Duration::from_secs(1);

/// Opens the search index in the background, [`WARM_AFTER`] an isolate's first request (no answer
/// is held for it; a search that opened it already leaves nothing to do), so that a reader's first
/// search finds it open, or joins the opening under way instead of fetching every segment itself
/// (see `portal_core::single_flight`). The cost, for an isolate that never searches, is one read of
/// the index; requests that arrive while it is read share the isolate with it (under `wrangler dev`,
/// where the asset service is local, a record read then waits for the segments' reads ahead of it:
/// see BENCHMARKS.md). A failure is logged, and the next search tries again (as every search would
/// without this).
fn warm_search(app: &Rc<App>, env: Env, ctx: &Context) {
    if WARMING.with(|warming| warming.replace(true)) {
        return;
    }
    let app = Rc::clone(app);
    ctx.wait_until(async move {
        Delay::from(WARM_AFTER).await;
        if let Ok(platform) = EdgePlatform::new(env, None) {
            let _ = app.search_index(&platform).await;
        }
    });
}

/// The cron trigger: retry the mails whose delivery failed, with the core's backoff.
#[event(scheduled)]
async fn scheduled(_event: ScheduledEvent, env: Env, _ctx: ScheduleContext) {
    if let Err(e) = outbox::deliver_due(&env, worker::Date::now().as_millis() as i64).await {
        worker::console_error!("outbox: {e}");
    }
}
