//! Submissions (docs/spec/api-spec.md#actions, #forms): the JSON actions and the HTML forms,
//! validated, stored through the platform with their mails, and answered.

use serde_json::{json, Value};

use crate::{json, problem, text, Site};

/// A day after the fake clock's (2026-09-21), so never in the past.
const VISIT_DATE: &str = "2026-10-01";

fn voice() -> Value {
    json!({"title": "Our market garden", "author": "Ana", "content": "We planted beans.\nThey grew."})
}

fn booking(email: &str) -> Value {
    json!({"name": "Ana Mwangi", "email": email, "visitDate": VISIT_DATE, "visitTime": "10:30",
           "groupSize": "1-5", "tourType": "community-walk", "meetingPoint": "main-gate", "paymentMethod": "cash"})
}

/// The fields an `invalid_body` problem names, in order.
fn invalid_fields(response: &portal_core::http::Response) -> Vec<String> {
    let doc = problem(response, 400, "invalid_body");
    let errors = doc["errors"].as_array().expect("errors");
    assert!(errors.iter().all(|e| e["message"].as_str().is_some_and(|m| !m.is_empty())), "{doc}");
    errors.iter().map(|e| e["field"].as_str().unwrap_or_default().to_string()).collect()
}

#[test]
fn a_voice_is_stored_with_the_editors_mail_and_answered_202() {
    let site = Site::new();
    let response = site.post_json("/api/submit-voice", &voice());
    assert_eq!(response.status, 202, "{}", text(&response));
    assert_eq!(response.header("cache-control"), Some("no-store"));
    let doc = json(&response);
    assert_eq!(doc["status"], "success");
    let id = doc["id"].as_str().expect("an id");
    assert!(id.starts_with("v-") && id.len() >= 16, "{id}");
    assert_eq!(doc["receivedAt"], "2026-09-21T14:13:20Z");
    let submissions = site.platform.submissions.borrow();
    let [stored] = submissions.as_slice() else { panic!("one submission: {submissions:?}") };
    assert_eq!((stored.kind.as_str(), stored.id.as_str()), ("voice", id));
    assert_eq!(stored.data["title"], "Our market garden");
    assert_eq!(stored.mails.len(), 1);
    assert_eq!(stored.mails[0].to, ["editors@example.org"]);
    assert!(stored.mails[0].text.contains("Our market garden"), "{}", stored.mails[0].text);
}

#[test]
fn an_id_differs_by_body_and_time_and_a_double_submit_keeps_its_id() {
    let site = Site::new();
    let id = |body: &Value| json(&site.post_json("/api/submit-voice", body))["id"].clone();
    let mut other = voice();
    other["title"] = json!("Another story");
    let first = id(&voice());
    assert_ne!(first, id(&other));
    assert_eq!(first, id(&voice()), "the same body in the same millisecond is one submission sent twice");
    site.platform.advance(1);
    assert_ne!(first, id(&voice()));
}

#[test]
fn an_invalid_voice_lists_every_field_and_stores_nothing() {
    let site = Site::new();
    assert_eq!(invalid_fields(&site.post_json("/api/submit-voice", &json!({}))), ["title", "author", "content"]);
    let mut spaces = voice();
    spaces["author"] = json!("   ");
    assert_eq!(invalid_fields(&site.post_json("/api/submit-voice", &spaces)), ["author"]);
    let mut header_bound = voice();
    header_bound["title"] = json!("Hi\r\nBcc: victim@example.net");
    assert_eq!(invalid_fields(&site.post_json("/api/submit-voice", &header_bound)), ["title"]);
    let mut too_long = voice();
    too_long["title"] = json!("x".repeat(201));
    assert_eq!(invalid_fields(&site.post_json("/api/submit-voice", &too_long)), ["title"]);
    assert!(site.platform.submissions.borrow().is_empty());
}

#[test]
fn an_action_takes_only_a_json_object() {
    let site = Site::new();
    problem(&site.post_form("/api/submit-voice", "title=a&author=b&content=c"), 415, "unsupported_media_type");
    let array = site.post_json("/api/submit-voice", &json!([voice()]));
    problem(&array, 400, "invalid_body");
}

#[test]
fn a_booking_is_stored_with_its_confirmation_and_answered_with_a_reference() {
    let site = Site::new();
    let body = booking("ana@example.org");
    let response = site.post_json("/api/send-booking-confirmation", &body);
    assert_eq!(response.status, 202, "{}", text(&response));
    let doc = json(&response);
    assert_eq!(doc["booking"], body);
    let reference = doc["reference"].as_str().expect("a reference");
    assert!(reference.starts_with("BK-"), "{reference}");
    let submissions = site.platform.submissions.borrow();
    let [stored] = submissions.as_slice() else { panic!("one submission: {submissions:?}") };
    assert_eq!((stored.kind.as_str(), stored.id.as_str()), ("booking", reference));
    let recipients: Vec<&str> = stored.mails.iter().flat_map(|m| m.to.iter().map(String::as_str)).collect();
    assert!(recipients.contains(&"ana@example.org") && recipients.contains(&"bookings@example.org"), "{recipients:?}");
}

#[test]
fn an_invalid_booking_lists_every_invalid_field_at_once() {
    let site = Site::new();
    let missing = site.post_json("/api/send-booking-confirmation", &json!({"meetingPoint": "main-gate"}));
    assert_eq!(invalid_fields(&missing), ["name", "email", "visitDate", "visitTime", "groupSize", "tourType"]);
    let body = json!({"name": "A\nB", "email": "nope", "visitDate": "2020-01-01", "visitTime": "25:00",
                      "groupSize": "99", "tourType": "x", "meetingPoint": "y", "paymentMethod": "z"});
    let all = site.post_json("/api/send-booking-confirmation", &body);
    let expected =
        ["name", "email", "visitDate", "visitTime", "groupSize", "tourType", "meetingPoint", "paymentMethod"];
    assert_eq!(invalid_fields(&all), expected);
    let mut yesterday = booking("ana@example.org");
    yesterday["visitDate"] = json!("2026-09-20");
    assert_eq!(invalid_fields(&site.post_json("/api/send-booking-confirmation", &yesterday)), ["visitDate"]);
    assert!(site.platform.submissions.borrow().is_empty());
}

#[test]
fn past_three_confirmations_a_day_a_booking_is_stored_and_answered_the_same() {
    let site = Site::new();
    let spellings = ["once@example.org", "Once+a@Example.org", "o.n.c.e@example.org", "once+b@example.org"];
    let mut answers = Vec::new();
    for email in spellings {
        let response = site.post_json("/api/send-booking-confirmation", &booking(email));
        assert_eq!((response.status, response.header("retry-after")), (202, None), "{}", text(&response));
        let mut doc = json(&response);
        doc["message"] = json!(doc["message"].as_str().unwrap_or_default().replace(email, "EMAIL"));
        doc["reference"] = json!("REF");
        doc["booking"]["email"] = json!("EMAIL");
        answers.push(doc);
    }
    assert!(answers.iter().all(|doc| *doc == answers[0]), "{answers:#?}");
    let submissions = site.platform.submissions.borrow();
    assert_eq!(submissions.len(), 4, "every booking is stored");
    let visitor_mails = |n: usize| submissions[n].mails.iter().filter(|m| m.to != ["bookings@example.org"]).count();
    assert_eq!((0..4).map(visitor_mails).collect::<Vec<_>>(), [1, 1, 1, 0], "the fourth confirmation is not queued");
    assert_eq!(submissions[3].mails.len(), 1, "the office's copy still is");
}

#[test]
fn the_voice_form_posts_like_a_browser_and_confirms_with_the_id() {
    let site = Site::new();
    let response = site.post_form("/community-voices/new", "title=Beans&author=Ana&content=We+grew+beans.&website=");
    assert_eq!(response.status, 303, "{}", text(&response));
    let location = response.header("location").expect("a location").to_string();
    let id = location.strip_prefix("/community-voices/new/sent?id=").expect("the confirmation");
    assert!(id.starts_with("v-"), "{location}");
    assert_eq!(site.platform.submissions.borrow()[0].id, id);
    let confirmation = site.get(&location);
    assert_eq!(confirmation.status, 200);
    assert!(text(&confirmation).contains(id));
    assert_eq!(site.get("/community-voices/new/sent?id=%3Cscript%3E").status, 404);
}

#[test]
fn an_invalid_form_comes_back_with_messages_and_a_honeypot_stores_nothing() {
    let site = Site::new();
    let response = site.post_form("/visit", "name=Ana&email=not-an-address&visitDate=2020-01-01&groupSize=99");
    assert_eq!(response.status, 400);
    assert_eq!(response.header("content-type"), Some("text/html; charset=utf-8"));
    let page = text(&response);
    assert!(page.contains("role=\"alert\""));
    for field in ["email", "visitDate", "groupSize"] {
        assert!(page.contains(&format!("id=\"f-{field}-error\"")), "{field}");
    }
    assert!(!page.contains("f-name-error"));
    assert!(page.contains("value=\"not-an-address\""), "what was typed comes back");
    let spam =
        site.post_form("/community-voices/new", "title=Buy&author=Bot&content=spam&website=http%3A%2F%2Fspam.example");
    assert_eq!(spam.status, 400);
    assert!(text(&spam).contains("href=\"#f-website\""));
    assert!(site.platform.submissions.borrow().is_empty());
}

#[test]
fn a_form_refuses_json_with_a_page_or_a_problem_as_asked() {
    let site = Site::new();
    let page = site.post_json("/visit", &booking("ana@example.org"));
    assert_eq!(page.status, 415);
    assert!(page.header("content-type").unwrap_or_default().starts_with("text/html"));
    let headers = [("content-type", "application/json"), ("accept", "application/json")];
    let body = booking("ana@example.org").to_string();
    let response = site.send(portal_core::http::Method::Post, "/visit", &headers, &body);
    problem(&response, 415, "unsupported_media_type");
}
