//! Idempotency keys of the submission POSTs (docs/spec/api-spec.md#idempotency), after the IETF
//! httpapi draft "The Idempotency-Key HTTP Header Field": a client that sends a story or a booking
//! again with the same key (a phone that lost its connection before the answer came, a form
//! tapped twice) gets the first answer again instead of a second submission.
//!
//! Sans-IO, like the outbox: this module owns the limits, the table, the statements both stores
//! run (SQLite natively, D1 on the Worker) and the one decision over a key's row; platforms run
//! a [`Step`] atomically and hand back the row. A key moves *claimed* (a request is working on it,
//! held for [`LEASE_MS`]) → *answered* (its answer kept for [`REMEMBER_MS`]), or is released when
//! the request was refused (a 4xx or 5xx answer is not kept: the client may retry with the key).
//! A row whose time has run out, a lease or a memory, is taken over by the next claim.

use sha2::{Digest, Sha256};

use crate::forms::outbox::{SqlValue, Statement};
use crate::http::Request;
/// The row, the answer and the steps, as the platform stores and runs them.
pub use crate::platform::{KeyAnswer as Answer, KeyRecord as Record, KeyStep as Step};

/// The request header that carries a key.
pub const HEADER: &str = "idempotency-key";
/// The form field that carries a key when scripts are off (the form pages render a fresh one).
pub const FORM_FIELD: &str = "idempotency_key";
/// The response header that marks an answer given again: `Idempotent-Replayed: true`.
pub const REPLAYED: &str = "idempotent-replayed";
/// The longest key, in characters (the draft's bound).
pub const MAX_KEY_CHARS: usize = 255;
/// How long a key's answer is remembered after it was given: 24 hours.
pub const REMEMBER_MS: u64 = 86_400_000;
/// How long a claim holds a key: a request that died mid-way releases it when this ends.
pub const LEASE_MS: u64 = 60_000;

/// The table both stores keep keys in, one row per key (scoped by the path it was sent to).
/// `until_ms` is when the row may be taken over: the end of a claim's lease, or of an answer's memory.
pub const SCHEMA: &str = "CREATE TABLE IF NOT EXISTS idempotency (key TEXT PRIMARY KEY, fingerprint TEXT NOT NULL, \
     owner TEXT NOT NULL, answer TEXT, until_ms INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS idempotency_until ON idempotency(until_ms);
";

/// What a request with a key does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// It holds the key: go on, then [`Step::Answer`] or [`Step::Release`].
    Proceed,
    /// The key was answered for this same request: give that answer again.
    Replay(Answer),
    /// The key was first sent with another request: 422.
    Mismatch,
    /// Another request is still working on the key: 409.
    InFlight,
}

/// Why a key was not taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyError {
    /// Empty after trimming, or over [`MAX_KEY_CHARS`].
    Length,
    /// A character outside printable ASCII.
    Characters,
}

/// The key a request carries, unchecked: its `Idempotency-Key` header, else (a form post) its
/// [`FORM_FIELD`]. `None` when it has neither.
pub fn key_of(request: &Request) -> Option<String> {
    if let Some(value) = request.header(HEADER) {
        return Some(value.to_string());
    }
    let urlencoded = request.header("content-type").and_then(|v| v.split(';').next()).map(str::trim);
    if !urlencoded.is_some_and(|m| m.eq_ignore_ascii_case("application/x-www-form-urlencoded")) {
        return None;
    }
    form_urlencoded::parse(&request.body).find(|(name, _)| name == FORM_FIELD).map(|(_, value)| value.into_owned())
}

/// A key as sent, checked: a Structured Field string (`"..."`) or the bare text most clients send,
/// 1 to [`MAX_KEY_CHARS`] printable ASCII characters. A form field left empty is no key.
pub fn parse(raw: &str) -> Result<String, KeyError> {
    let trimmed = raw.trim();
    let bare = trimmed.strip_prefix('"').and_then(|t| t.strip_suffix('"')).unwrap_or(trimmed);
    if bare.is_empty() || bare.chars().count() > MAX_KEY_CHARS {
        return Err(KeyError::Length);
    }
    if !bare.chars().all(|c| (' '..='~').contains(&c)) {
        return Err(KeyError::Characters);
    }
    Ok(bare.to_string())
}

/// The key as stored: scoped by the path it was sent to, so one key used at two endpoints is two keys.
pub fn scoped(path: &str, key: &str) -> String {
    format!("{path} {key}")
}

/// What makes two requests with one key the same request: their media type and body (SHA-256, hex).
pub fn fingerprint(request: &Request) -> String {
    let mut hash = Sha256::new();
    hash.update(request.header("content-type").unwrap_or_default().as_bytes());
    hash.update([0]);
    hash.update(&request.body);
    hash.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// The verdict for the claim of `owner` with `fingerprint`, given the key's row after the claim.
pub fn decide(held: &Record, owner: &str, fingerprint: &str) -> Verdict {
    if held.fingerprint != fingerprint {
        return Verdict::Mismatch;
    }
    match &held.answer {
        Some(answer) => Verdict::Replay(answer.clone()),
        None if held.owner == owner => Verdict::Proceed,
        None => Verdict::InFlight,
    }
}

/// Applies `step` to the row `held` (what the statements of [`statements`] do to a table), for a
/// store kept in memory: the row afterwards, `None` when there is none.
pub fn apply(held: Option<&Record>, step: &Step) -> Option<Record> {
    match step {
        Step::Claim { fingerprint, owner, now_ms, .. } => match held {
            Some(row) if row.until_ms > *now_ms => Some(row.clone()),
            _ => Some(Record {
                fingerprint: fingerprint.clone(),
                owner: owner.clone(),
                answer: None,
                until_ms: now_ms + LEASE_MS,
            }),
        },
        Step::Answer { owner, answer, now_ms, .. } => held.cloned().map(|row| {
            if row.owner == *owner && row.answer.is_none() {
                Record { answer: Some(answer.clone()), until_ms: now_ms + REMEMBER_MS, ..row }
            } else {
                row
            }
        }),
        Step::Release { owner, .. } => held.filter(|row| !(row.owner == *owner && row.answer.is_none())).cloned(),
    }
}

fn int(ms: u64) -> SqlValue {
    SqlValue::Integer(i64::try_from(ms).unwrap_or(i64::MAX))
}

fn text(value: &str) -> SqlValue {
    SqlValue::Text(value.to_string())
}

/// The statements of `step`, to run in order as one transaction; a claim's last one selects the
/// row (`fingerprint`, `owner`, `answer`, `until_ms`), which [`row`] reads. The claim's insert takes over a row whose time has run
/// out in the same statement, so two requests never both hold a key.
pub fn statements(step: &Step) -> Result<Vec<Statement>, serde_json::Error> {
    Ok(match step {
        Step::Claim { key, fingerprint, owner, now_ms } => vec![
            Statement {
                sql: "DELETE FROM idempotency WHERE until_ms <= ?1 AND key <> ?2",
                params: vec![int(*now_ms), text(key)],
            },
            Statement {
                sql:
                    "INSERT INTO idempotency (key, fingerprint, owner, answer, until_ms) VALUES (?1, ?2, ?3, NULL, ?4) \
                      ON CONFLICT(key) DO UPDATE SET fingerprint = excluded.fingerprint, owner = excluded.owner, \
                      answer = NULL, until_ms = excluded.until_ms WHERE idempotency.until_ms <= ?5",
                params: vec![text(key), text(fingerprint), text(owner), int(now_ms + LEASE_MS), int(*now_ms)],
            },
            Statement {
                sql: "SELECT fingerprint, owner, answer, until_ms FROM idempotency WHERE key = ?1",
                params: vec![text(key)],
            },
        ],
        Step::Answer { key, owner, answer, now_ms } => vec![Statement {
            sql: "UPDATE idempotency SET answer = ?3, until_ms = ?4 WHERE key = ?1 AND owner = ?2 AND answer IS NULL",
            params: vec![
                text(key),
                text(owner),
                SqlValue::Text(serde_json::to_string(answer)?),
                int(now_ms + REMEMBER_MS),
            ],
        }],
        Step::Release { key, owner } => vec![Statement {
            sql: "DELETE FROM idempotency WHERE key = ?1 AND owner = ?2 AND answer IS NULL",
            params: vec![text(key), text(owner)],
        }],
    })
}

/// A claim's row from the columns a store selected (see [`statements`]).
pub fn row(
    fingerprint: String,
    owner: String,
    answer: Option<&str>,
    until_ms: i64,
) -> Result<Record, serde_json::Error> {
    Ok(Record {
        fingerprint,
        owner,
        answer: answer.map(serde_json::from_str).transpose()?,
        until_ms: u64::try_from(until_ms).unwrap_or(0),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn claim(owner: &str, fingerprint: &str, now_ms: u64) -> Step {
        Step::Claim { key: "/api/submit-voice k".into(), fingerprint: fingerprint.into(), owner: owner.into(), now_ms }
    }

    fn answer(owner: &str, now_ms: u64) -> Step {
        let answer = Answer {
            status: 202,
            headers: vec![("content-type".into(), "application/json".into())],
            body: "{}".into(),
        };
        Step::Answer { key: "/api/submit-voice k".into(), owner: owner.into(), answer, now_ms }
    }

    /// Runs `steps` over one row in memory; the verdict of each claim.
    fn run(steps: &[Step]) -> Vec<Verdict> {
        let mut row = None;
        let mut verdicts = Vec::new();
        for step in steps {
            row = apply(row.as_ref(), step);
            if let (Step::Claim { owner, fingerprint, .. }, Some(held)) = (step, &row) {
                verdicts.push(decide(held, owner, fingerprint));
            }
        }
        verdicts
    }

    #[test]
    fn the_same_key_and_body_again_replays_the_first_answer() {
        let verdicts = run(&[claim("a", "f", 0), answer("a", 10), claim("b", "f", 20)]);
        assert_eq!(verdicts[0], Verdict::Proceed);
        let Verdict::Replay(first) = &verdicts[1] else { panic!("a replay: {verdicts:?}") };
        assert_eq!((first.status, first.body.as_str()), (202, "{}"));
    }

    #[test]
    fn the_same_key_with_another_body_is_a_mismatch() {
        assert_eq!(run(&[claim("a", "f", 0), answer("a", 10), claim("b", "g", 20)])[1], Verdict::Mismatch);
        assert_eq!(run(&[claim("a", "f", 0), claim("b", "g", 20)])[1], Verdict::Mismatch, "in flight too");
    }

    #[test]
    fn a_key_still_being_worked_on_is_in_flight_until_its_lease_ends() {
        assert_eq!(run(&[claim("a", "f", 0), claim("b", "f", 1)])[1], Verdict::InFlight);
        assert_eq!(
            run(&[claim("a", "f", 0), claim("b", "f", LEASE_MS)])[1],
            Verdict::Proceed,
            "a dead claim is taken over"
        );
    }

    #[test]
    fn an_answer_is_remembered_for_a_day_then_forgotten() {
        let day = REMEMBER_MS;
        assert!(matches!(
            run(&[claim("a", "f", 0), answer("a", 10), claim("b", "f", 10 + day - 1)])[1],
            Verdict::Replay(_)
        ));
        assert_eq!(run(&[claim("a", "f", 0), answer("a", 10), claim("b", "g", 10 + day)])[1], Verdict::Proceed);
    }

    #[test]
    fn a_refused_request_releases_its_key_for_a_retry() {
        let release = Step::Release { key: "/api/submit-voice k".into(), owner: "a".into() };
        assert_eq!(run(&[claim("a", "f", 0), release.clone(), claim("b", "f", 1)])[1], Verdict::Proceed);
        let other = Step::Release { key: "/api/submit-voice k".into(), owner: "b".into() };
        assert_eq!(
            run(&[claim("a", "f", 0), other, claim("b", "f", 1)])[1],
            Verdict::InFlight,
            "only the owner releases"
        );
    }

    #[test]
    fn keys_are_one_to_255_printable_characters_quoted_or_bare() {
        assert_eq!(parse("\"8e03978e-40d5\""), Ok("8e03978e-40d5".into()));
        assert_eq!(parse(" abc "), Ok("abc".into()));
        assert_eq!(parse(&"k".repeat(MAX_KEY_CHARS)).map(|k| k.len()), Ok(MAX_KEY_CHARS));
        assert_eq!(parse(&"k".repeat(MAX_KEY_CHARS + 1)), Err(KeyError::Length));
        assert_eq!(parse(""), Err(KeyError::Length));
        assert_eq!(parse("a\u{7f}b"), Err(KeyError::Characters));
        assert_eq!(parse("é"), Err(KeyError::Characters));
    }

    #[test]
    fn a_form_carries_its_key_in_a_field_and_a_header_wins() {
        let form = Request::new(crate::http::Method::Post, "/visit")
            .with_header("content-type", "application/x-www-form-urlencoded")
            .with_body("name=Ana&idempotency_key=k-1");
        assert_eq!(key_of(&form).as_deref(), Some("k-1"));
        assert_eq!(key_of(&form.clone().with_header(HEADER, "h-1")).as_deref(), Some("h-1"));
        let json = Request::new(crate::http::Method::Post, "/api/submit-voice").with_body("idempotency_key=k-1");
        assert_eq!(key_of(&json), None);
    }

    #[test]
    fn the_fingerprint_covers_the_type_and_the_body() {
        let request = |t: &str, b: &str| {
            Request::new(crate::http::Method::Post, "/x").with_header("content-type", t).with_body(b.to_string())
        };
        assert_eq!(fingerprint(&request("a", "1")), fingerprint(&request("a", "1")));
        assert_ne!(fingerprint(&request("a", "1")), fingerprint(&request("a", "2")));
        assert_ne!(fingerprint(&request("a", "1")), fingerprint(&request("b", "1")));
    }

    #[test]
    fn a_claim_takes_over_only_a_row_whose_time_ran_out() {
        let statements = statements(&claim("a", "f", 5)).expect("statements");
        assert!(statements[1].sql.contains("WHERE idempotency.until_ms <= ?5"));
        assert_eq!(statements[1].params[4], SqlValue::Integer(5));
        assert!(statements[2].sql.starts_with("SELECT fingerprint, owner, answer, until_ms"));
    }
}
