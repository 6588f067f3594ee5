//! The edge [`Platform`]: built files through the static-assets binding (out of their packs when
//! the build was packed), rate-limit windows in a Durable Object per client address, the Cache
//! API, outbound `fetch` with a timeout, the platform clock.

use bytes::Bytes;
use futures_util::StreamExt;
use portal_core::dist::packs::{self, LooseFiles, PackReader, PACK_INDEX};
use portal_core::forms::mail_quota;
use portal_core::http::ratelimit::{Decision, RateLimit};
use portal_core::platform::{Platform, PlatformError, Submission, UpstreamRequest, UpstreamResponse};
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::cell::OnceCell;
use std::rc::Rc;

use worker::{AbortController, Cache, Context, Delay, Env, Fetch, Headers, Method, RequestInit, RequestRedirect};

use crate::outbox;
use crate::rate_limiter::Ask;

/// A host name for URLs the runtime needs but never resolves (asset and cache keys).
const INTERNAL_HOST: &str = "https://portal.internal";

thread_local! {
    /// This isolate's reader of the build's packs (`None` when the build is not packed), read
    /// with the first file and kept with the packs it reads.
    static PACKS: OnceCell<Rc<Option<PackReader>>> = const { OnceCell::new() };
}

/// The platform of one Worker request.
pub struct EdgePlatform {
    env: Env,
    limits: RateLimit,
    /// The request's context, for delivering mail after the answer is sent.
    ctx: Option<Rc<Context>>,
}

fn error(context: &str) -> impl Fn(worker::Error) -> PlatformError + '_ {
    move |e| PlatformError(format!("{context}: {e}"))
}

impl EdgePlatform {
    /// The platform over the bindings of `env`; limits come from the `RATE_LIMIT` and
    /// `RATE_WINDOW_SECONDS` vars (60 per 60 s when absent, docs/spec/api-spec.md#rate-limit).
    pub fn new(env: Env, ctx: Option<Rc<Context>>) -> worker::Result<Self> {
        let var = |name: &str| env.var(name).ok().and_then(|v| v.to_string().parse::<u64>().ok());
        let defaults = RateLimit::default();
        let limits = RateLimit {
            limit: var("RATE_LIMIT").map_or(defaults.limit, |v| v as u32),
            window_ms: var("RATE_WINDOW_SECONDS").map_or(defaults.window_ms, |s| s.max(1) * 1000),
        };
        Ok(EdgePlatform { env, limits, ctx })
    }
}

impl EdgePlatform {
    /// The pack reader of this isolate, reading the pack index the first time.
    async fn packs(&self) -> Result<Rc<Option<PackReader>>, PlatformError> {
        if let Some(reader) = PACKS.with(|cell| cell.get().cloned()) {
            return Ok(reader);
        }
        let reader = match self.read_loose(PACK_INDEX).await? {
            Some(index) => Some(PackReader::new(&index).map_err(|e| PlatformError(e.to_string()))?),
            None => None,
        };
        Ok(PACKS.with(|cell| Rc::clone(cell.get_or_init(|| Rc::new(reader)))))
    }
}

impl EdgePlatform {
    /// Posts `ask` as JSON to the Durable Object `name` of the namespace bound as `binding`, and
    /// reads its JSON answer.
    async fn ask_object<A: Serialize, T: DeserializeOwned>(
        &self,
        binding: &'static str,
        name: &str,
        ask: &A,
    ) -> Result<T, PlatformError> {
        let namespace = self.env.durable_object(binding).map_err(error(binding))?;
        let stub = namespace.id_from_name(name).and_then(|id| id.get_stub()).map_err(error(binding))?;
        let body = serde_json::to_string(ask).map_err(|e| PlatformError(e.to_string()))?;
        let mut init = RequestInit::new();
        init.with_method(Method::Post).with_body(Some(body.into()));
        let request =
            worker::Request::new_with_init(&format!("{INTERNAL_HOST}/{binding}"), &init).map_err(error(binding))?;
        let mut response = stub.fetch_with_request(request).await.map_err(error(binding))?;
        response.json::<T>().await.map_err(error(binding))
    }
}

impl LooseFiles for EdgePlatform {
    async fn read_loose(&self, file: &str) -> Result<Option<Bytes>, PlatformError> {
        let assets = self.env.assets("ASSETS").map_err(error("ASSETS binding"))?;
        let mut response =
            assets.fetch(format!("{INTERNAL_HOST}/{file}"), None).await.map_err(error("reading an asset"))?;
        match response.status_code() {
            200 => Ok(Some(Bytes::from(response.bytes().await.map_err(error("reading an asset"))?))),
            404 => Ok(None),
            status => Err(PlatformError(format!("asset {file} answered {status}"))),
        }
    }
}

impl Platform for EdgePlatform {
    async fn read_asset(&self, file: &str) -> Result<Option<Bytes>, PlatformError> {
        let reader = self.packs().await?;
        packs::read(self, reader.as_ref().as_ref(), file).await
    }

    async fn rate_limit(&self, client: &str, now_ms: u64, cost: u32) -> Result<Decision, PlatformError> {
        let ask = Ask { now_ms, limit: self.limits.limit, window_ms: self.limits.window_ms, cost };
        self.ask_object("RATE_LIMITER", client, &ask).await
    }

    async fn count_mail(&self, ask: &mail_quota::Ask) -> Result<mail_quota::Verdict, PlatformError> {
        self.ask_object("MAIL_QUOTA", crate::mail_quota::OBJECT, ask).await
    }

    fn now_ms(&self) -> u64 {
        worker::Date::now().as_millis()
    }

    /// No: the runtime cancels a request that waits on another request's I/O as hung.
    fn shares_work_across_requests(&self) -> bool {
        false
    }

    async fn fetch(&self, request: UpstreamRequest) -> Result<UpstreamResponse, PlatformError> {
        let headers = Headers::new();
        for (name, value) in &request.headers {
            headers.set(name, value).map_err(error("upstream headers"))?;
        }
        let mut init = RequestInit::new();
        match &request.body {
            Some(body) => init.with_method(Method::Post).with_body(Some(js_bytes(body))),
            None => init.with_method(Method::Get),
        };
        // No redirect is followed, as natively (docs/spec/api-spec.md#upstreams): the runtime hands
        // the 3xx back as it came, so a POST's body (the CMS sign-in's client secret) goes to the URL
        // asked and nowhere else, and core counts it as a failed upstream.
        init.with_headers(headers).with_redirect(RequestRedirect::Manual);
        let outgoing = worker::Request::new_with_init(&request.url, &init).map_err(error("upstream request"))?;
        let controller = AbortController::default();
        let signal = controller.signal();
        let timeout = request.timeout_ms;
        worker::wasm_bindgen_futures::spawn_local(async move {
            Delay::from(std::time::Duration::from_millis(timeout)).await;
            controller.abort();
        });
        let mut response = Fetch::Request(outgoing).send_with_signal(&signal).await.map_err(error("upstream fetch"))?;
        let headers: Vec<(String, String)> =
            response.headers().entries().map(|(n, v)| (n.to_ascii_lowercase(), v)).collect();
        let declared = headers.iter().find(|(name, _)| name == "content-length").and_then(|(_, v)| v.parse().ok());
        // Core refuses a body past the cap: read one byte past it at most, and none of one
        // declared longer.
        let mut body = Vec::new();
        if declared.is_none_or(|length: u64| length <= request.max_bytes as u64) {
            let mut stream = response.stream().map_err(error("upstream body"))?;
            while body.len() <= request.max_bytes {
                match stream.next().await {
                    Some(chunk) => body.extend_from_slice(&chunk.map_err(error("upstream body"))?),
                    None => break,
                }
            }
        }
        body.truncate(request.max_bytes + 1);
        Ok(UpstreamResponse { status: response.status_code(), headers, body: Bytes::from(body) })
    }

    /// A var or secret of the Worker's environment (`wrangler secret put`, `[vars]`, `.dev.vars`).
    fn setting(&self, name: &str) -> Option<String> {
        self.env.var(name).ok().map(|value| value.to_string()).filter(|value| !value.trim().is_empty())
    }

    /// The runtime's `crypto.getRandomValues`.
    fn random(&self) -> Result<[u8; 16], PlatformError> {
        let mut bytes = [0u8; 16];
        getrandom::fill(&mut bytes).map_err(|e| PlatformError(format!("the random source: {e}")))?;
        Ok(bytes)
    }

    async fn cache_get(&self, key: &str) -> Option<Bytes> {
        let mut response = Cache::default().get(cache_url(key), false).await.ok().flatten()?;
        response.bytes().await.ok().map(Bytes::from)
    }

    async fn cache_put(&self, key: &str, value: Bytes, ttl_secs: u64) {
        let Ok(response) = worker::Response::from_bytes(value.to_vec()) else { return };
        let headers = Headers::new();
        if headers.set("cache-control", &format!("max-age={ttl_secs}")).is_err() {
            return;
        }
        let _ = Cache::default().put(cache_url(key), response.with_headers(headers)).await;
    }

    async fn store_submission(&self, submission: &Submission) -> Result<(), PlatformError> {
        outbox::store(&self.env, submission).await?;
        if let Some(ctx) = &self.ctx {
            let env = self.env.clone();
            let now = self.now_ms() as i64;
            ctx.wait_until(async move {
                if let Err(e) = outbox::deliver_due(&env, now).await {
                    worker::console_error!("outbox: {e}");
                }
            });
        }
        Ok(())
    }

    async fn idempotency(
        &self,
        step: &portal_core::forms::idempotency::Step,
    ) -> Result<Option<portal_core::forms::idempotency::Record>, PlatformError> {
        outbox::idempotency(&self.env, step).await
    }

    fn report(&self, context: &str, cause: &dyn std::fmt::Display) {
        worker::console_error!("portal: error {context}: {cause}");
    }
}

/// A body for an outgoing request, as the runtime takes it.
fn js_bytes(body: &Bytes) -> worker::wasm_bindgen::JsValue {
    worker::js_sys::Uint8Array::from(body.as_ref()).into()
}

/// A cache key as a URL (the Cache API keys by request URL).
fn cache_url(key: &str) -> String {
    let encoded: String = key
        .bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b == b'-' || b == b'_' {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect();
    format!("{INTERNAL_HOST}/cache/{encoded}")
}
