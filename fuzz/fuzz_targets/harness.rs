//! What the request-level targets share: the conformance build (`fixtures/site`, built by
//! scripts/test into target/conformance-dist) loaded into the core's in-memory platform, and the
//! invariants every response keeps.

use std::path::Path;

use portal_core::app::App;
use portal_core::http::{Request, Response};
use portal_core::testing::{block_on, FakePlatform};

thread_local! {
    static SITE: (App, FakePlatform) = load();
}

fn load() -> (App, FakePlatform) {
    let dist = std::env::var("PORTAL_FUZZ_DIST")
        .unwrap_or_else(|_| concat!(env!("CARGO_MANIFEST_DIR"), "/../target/conformance-dist").to_string());
    let mut platform = FakePlatform::default();
    let root = Path::new(&dist);
    let mut stack = vec![root.to_path_buf()];
    while let Some(folder) = stack.pop() {
        let entries = std::fs::read_dir(&folder).unwrap_or_else(|e| panic!("{}: {e} (run scripts/test first)", folder.display()));
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if let (Ok(relative), Ok(bytes)) = (path.strip_prefix(root), std::fs::read(&path)) {
                platform = platform.with_file(&relative.to_string_lossy(), bytes);
            }
        }
    }
    let app = block_on(App::load(&platform)).expect("the conformance build has a manifest");
    (app, platform)
}

/// Answers `request` and checks what every response promises: a real status, the API version, and
/// no internal error (upstream proxies may answer 502-504: the fuzz platform has no upstreams).
pub fn check(request: Request) -> Response {
    SITE.with(|(app, platform)| {
        platform.advance(61_000); // a fresh rate-limit window, so inputs reach their handlers
        platform.submissions.borrow_mut().clear();
        platform.cache.borrow_mut().clear();
        let response = block_on(app.handle(platform, request));
        assert!((100..600).contains(&response.status), "status {}", response.status);
        assert!(response.header("api-version").is_some(), "no API-Version header");
        assert_ne!(response.status, 500, "internal error: {}", String::from_utf8_lossy(&response.body));
        response
    })
}
