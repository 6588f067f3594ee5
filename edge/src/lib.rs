//! `portal-edge`: the Cloudflare Worker. A thin adapter: Cloudflare bindings implement the core's
//! [`Platform`](portal_core::platform::Platform) and every request goes through the same
//! [`App`](portal_core::app::App) as `portal serve`, so behaviour cannot differ between the two.
//!
//! Bindings (see `wrangler.toml`): `ASSETS` (the built `dist/`), `RATE_LIMITER` (a Durable Object
//! per client address holding its fixed window), `DB` (D1: submissions and their mail outbox),
//! `EMAIL` (send_email), the Cache API, outbound `fetch`, and the vars `RATE_LIMIT` /
//! `RATE_WINDOW_SECONDS`.

mod convert;
mod outbox;
mod platform;
mod rate_limiter;

use std::cell::RefCell;
use std::rc::Rc;

use portal_core::app::App;
use worker::{event, Context, Env, ScheduleContext, ScheduledEvent};

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
    let platform = EdgePlatform::new(env, Some(Rc::new(ctx)))?;
    let app = app(&platform).await?;
    let response = match convert::request(request).await? {
        Ok(request) => app.handle(&platform, request).await,
        Err((what, path)) => app.interrupted(what, &path),
    };
    convert::response(response)
}

/// The cron trigger: retry the mails whose delivery failed, with the core's backoff.
#[event(scheduled)]
async fn scheduled(_event: ScheduledEvent, env: Env, _ctx: ScheduleContext) {
    if let Err(e) = outbox::deliver_due(&env, worker::Date::now().as_millis() as i64).await {
        worker::console_error!("outbox: {e}");
    }
}
