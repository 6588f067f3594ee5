//! Every JSON body validator: any bytes as the body of each action (export, collection options,
//! skills matching, community voices, bookings). Never panics; a refusal is a 4xx problem.
#![no_main]

use libfuzzer_sys::fuzz_target;
use portal_core::http::{Method, Request};

#[path = "harness.rs"]
mod harness;

const ACTIONS: [&str; 5] =
    ["/api/export", "/api/news", "/api/match-category", "/api/submit-voice", "/api/send-booking-confirmation"];

fuzz_target!(|input: (u8, &[u8])| {
    let (action, body) = input;
    let path = ACTIONS[usize::from(action) % ACTIONS.len()];
    let request = Request::new(Method::Post, path).with_header("content-type", "application/json").with_body(body.to_vec());
    let response = harness::check(request);
    assert!(response.status < 500, "{path}: {}", response.status);
});
