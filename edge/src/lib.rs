//! `portal-edge`: the Cloudflare Worker. A thin adapter: Cloudflare bindings implement the core's
//! [`Platform`](portal_core::platform::Platform) and every request goes through the same
//! [`App`](portal_core::app::App) as `portal serve`, so behaviour cannot differ between the two.
//!
//! Bindings (see `wrangler.toml`): `ASSETS` (the built `dist/`), `RATE_LIMITER` (a Durable Object
//! per client address holding its fixed window), the Cache API, outbound `fetch`, and the vars
//! `RATE_LIMIT` / `RATE_WINDOW_SECONDS`.

mod convert;
mod platform;
mod rate_limiter;

use std::cell::RefCell;
use std::rc::Rc;

use portal_core::app::App;
use worker::{event, Context, Env};

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
async fn fetch(request: worker::Request, env: Env, _ctx: Context) -> worker::Result<worker::Response> {
    let platform = EdgePlatform::new(env)?;
    let app = app(&platform).await?;
    let response = match convert::request(request).await? {
        Ok(request) => app.handle(&platform, request).await,
        Err((problem, path)) => app.reject(problem, &path),
    };
    convert::response(response)
}
