//! The request cases both test layers check, written once in `tests/cases/requests.json` (its
//! `about` says how): here against core, in tests/conformance/test_cases.py against both servers.

use std::path::Path;

use portal_core::http::{Method, Response};
use serde_json::{Map, Value};

use crate::{text, Site};

fn cases() -> Vec<Value> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/cases/requests.json");
    let table: Value = serde_json::from_slice(&std::fs::read(&path).expect("the cases file reads")).expect("JSON");
    table["cases"].as_array().expect("a list of cases").clone()
}

/// The case's expectations with a request's own added (tests/cases/requests.json, `about`).
fn merged(case: &Value, request: &Value) -> Map<String, Value> {
    let mut expect = case["expect"].as_object().cloned().unwrap_or_default();
    for (key, more) in request["expect"].as_object().into_iter().flatten() {
        let joined = match (expect.get(key), more) {
            (Some(Value::Object(a)), Value::Object(b)) => {
                Value::Object(a.clone().into_iter().chain(b.clone()).collect())
            }
            (Some(Value::Array(a)), Value::Array(b)) => Value::Array(a.iter().chain(b).cloned().collect()),
            _ => more.clone(),
        };
        expect.insert(key.clone(), joined);
    }
    expect
}

fn send(site: &Site, case: &Value, request: &Value) -> Response {
    let mut headers: Vec<(String, String)> = Vec::new();
    for source in [&case["headers"], &request["headers"]] {
        for (name, value) in source.as_object().into_iter().flatten() {
            headers.push((name.clone(), value.as_str().unwrap_or_default().to_string()));
        }
    }
    let body = match (&request["json"], &request["body"]) {
        (Value::Null, Value::String(body)) => body.clone(),
        (Value::Null, _) => String::new(),
        (json, _) => {
            headers.push(("Content-Type".into(), "application/json".into()));
            json.to_string()
        }
    };
    let borrowed: Vec<(&str, &str)> = headers.iter().map(|(n, v)| (n.as_str(), v.as_str())).collect();
    let method = Method::parse(request["method"].as_str().unwrap_or("GET"));
    site.send(method, request["path"].as_str().unwrap_or("/"), &borrowed, &body)
}

/// What of `expect` the answer does not hold, one line each.
fn unmet(response: &Response, expect: &Map<String, Value>) -> Vec<String> {
    let mut wrong = Vec::new();
    let body: Option<Value> = serde_json::from_slice(&response.body).ok();
    let at = |pointer: &str| body.as_ref().and_then(|b| b.pointer(pointer));
    let header = |name: &str| response.header(name);
    let strings = |v: &Value| -> Vec<String> {
        v.as_array().into_iter().flatten().map(|s| s.as_str().unwrap_or_default().to_string()).collect()
    };
    for (key, want) in expect {
        match key.as_str() {
            "status" => {
                if Some(u64::from(response.status)) != want.as_u64() {
                    wrong.push(format!("status {} (wanted {want})", response.status));
                }
            }
            "problem" => wrong.extend(problem_unmet(response, body.as_ref(), want.as_str().unwrap_or_default())),
            "headers" | "headers_start" => {
                for (name, value) in want.as_object().into_iter().flatten() {
                    let value = value.as_str().unwrap_or_default();
                    let got = header(name);
                    let ok =
                        if key == "headers" { got == Some(value) } else { got.is_some_and(|g| g.starts_with(value)) };
                    if !ok {
                        wrong.push(format!("{name}: {got:?} (wanted {key} {value:?})"));
                    }
                }
            }
            "headers_contain" | "headers_lack" => {
                for (name, parts) in want.as_object().into_iter().flatten() {
                    let got = header(name).unwrap_or_default();
                    for part in strings(parts) {
                        if got.contains(&part) != (key == "headers_contain") {
                            wrong.push(format!("{name}: {got:?} ({key} {part:?})"));
                        }
                    }
                }
            }
            "headers_absent" => {
                for name in strings(want) {
                    if let Some(got) = header(&name) {
                        wrong.push(format!("{name}: {got:?} (wanted none)"));
                    }
                }
            }
            "headers_positive" => {
                for name in strings(want) {
                    if header(&name).and_then(|v| v.parse::<u64>().ok()).is_none_or(|n| n == 0) {
                        wrong.push(format!("{name}: {:?} (wanted a positive number)", header(&name)));
                    }
                }
            }
            "body_empty" => {
                if response.body.is_empty() != want.as_bool().unwrap_or(true) {
                    wrong.push(format!("body of {} bytes (wanted empty: {want})", response.body.len()));
                }
            }
            "body_contains" | "body_lacks" => {
                let got = text(response);
                for part in strings(want) {
                    if got.contains(&part) != (key == "body_contains") {
                        wrong.push(format!("body ({key} {part:?})"));
                    }
                }
            }
            "json" => {
                for (pointer, value) in want.as_object().into_iter().flatten() {
                    if at(pointer) != Some(value) {
                        wrong.push(format!("{pointer}: {:?} (wanted {value})", at(pointer)));
                    }
                }
            }
            "json_contains" => {
                for (pointer, parts) in want.as_object().into_iter().flatten() {
                    let got = at(pointer).and_then(Value::as_str).unwrap_or_default();
                    for part in strings(parts) {
                        if !got.contains(&part) {
                            wrong.push(format!("{pointer}: {got:?} (wanted it to contain {part:?})"));
                        }
                    }
                }
            }
            "json_nonempty" => {
                for pointer in strings(want) {
                    if at(&pointer).and_then(Value::as_str).is_none_or(str::is_empty) {
                        wrong.push(format!("{pointer}: {:?} (wanted text)", at(&pointer)));
                    }
                }
            }
            "ids" => {
                for (collection, wanted) in want.as_object().into_iter().flatten() {
                    let got: Vec<Value> = at(&format!("/data/{collection}"))
                        .and_then(Value::as_array)
                        .map(|records| records.iter().map(|r| r["id"].clone()).collect())
                        .unwrap_or_default();
                    if Some(&got) != wanted.as_array() {
                        wrong.push(format!("{collection} ids {got:?} (wanted {wanted})"));
                    }
                }
            }
            other => wrong.push(format!("the cases file says {other:?}, which no test reads")),
        }
    }
    wrong
}

/// What a problem document of `code` lacks (as `crate::problem` asserts).
fn problem_unmet(response: &Response, body: Option<&Value>, code: &str) -> Vec<String> {
    let mut wrong = Vec::new();
    if response.header("content-type") != Some("application/problem+json") {
        wrong.push(format!("Content-Type {:?} (wanted a problem)", response.header("content-type")));
    }
    let Some(doc) = body else { return [wrong, vec!["the body is not JSON".into()]].concat() };
    for member in ["type", "title", "status", "code", "detail"] {
        if doc.get(member).is_none() {
            wrong.push(format!("the problem lacks {member}"));
        }
    }
    if doc["code"] != code || doc["status"] != response.status {
        wrong.push(format!("code {} status {} (wanted {code} {})", doc["code"], doc["status"], response.status));
    }
    if !doc["type"].as_str().unwrap_or_default().ends_with(&format!("/api-docs#error-{code}")) {
        wrong.push(format!("type {}", doc["type"]));
    }
    wrong
}

#[test]
fn every_shared_case_holds_in_core() {
    let mut failures = Vec::new();
    let all = cases();
    assert!(all.len() >= 20, "the cases file lost its cases");
    for case in &all {
        let site = Site::new();
        for request in case["requests"].as_array().expect("requests") {
            let response = send(&site, case, request);
            for line in unmet(&response, &merged(case, request)) {
                failures.push(format!("{} ({} {}): {line}", case["name"], request["method"], request["path"]));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn a_case_that_does_not_hold_is_reported() {
    let site = Site::new();
    let case = serde_json::json!({"expect": {"status": 200, "headers": {"API-Version": "9"}, "ids": {"news": []}}});
    let request = serde_json::json!({"method": "GET", "path": "/api/news", "expect": {"json": {"/count": 99}}});
    let wrong = unmet(&send(&site, &case, &request), &merged(&case, &request));
    assert_eq!(wrong.len(), 3, "{wrong:?}");
}

/// A heading's anchor as the docs' links write it (lowercase, words joined by `-`).
fn anchor(heading: &str) -> String {
    let kept: String = heading.chars().filter(|c| c.is_alphanumeric() || *c == ' ' || *c == '-').collect();
    kept.trim().to_lowercase().replace(' ', "-")
}

#[test]
fn every_case_names_a_section_of_the_docs_that_exists() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    for case in cases() {
        let spec = case["spec"].as_str().unwrap_or_default();
        let (file, section) = spec.split_once('#').unwrap_or_else(|| panic!("{spec}: a file and #section"));
        let text = std::fs::read_to_string(root.join(file)).unwrap_or_else(|e| panic!("{spec}: {e}"));
        let anchors: Vec<String> =
            text.lines().filter_map(|l| l.strip_prefix('#')).map(|h| anchor(h.trim_start_matches('#'))).collect();
        assert!(anchors.iter().any(|a| a == section), "{}: {spec} is no heading", case["name"]);
    }
}
