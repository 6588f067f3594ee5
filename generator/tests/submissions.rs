//! `portal submissions` beyond listing a state folder (docs/cli.md#portal-submissions): the Worker's
//! submissions read from a `wrangler d1 export` dump (`fixtures/d1/export.sql`, written by hand in
//! the format of D1's `dumpSql`), and a stored voice published into a content folder as a draft
//! that builds.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use portal::serve::store::Store;
use portal::submissions::Source;
use portal_core::platform::Submission;
use serde_json::{json, Value};

/// A build of a site's content, which must say nothing about the published voice.
const BUILD: &[&str] = &["build", "--content", "content", "--out", "dist"];

fn assert_builds_cleanly(built: &Output) {
    let said = String::from_utf8_lossy(&built.stderr);
    assert!(built.status.success(), "{said}");
    assert!(!said.contains("community-voices/"), "no warning names the voice: {said}");
}

fn export_fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/d1/export.sql")
}

fn portal(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_portal"))
        .args(args)
        .current_dir(dir)
        .env("SOURCE_DATE_EPOCH", "1790000000")
        .output()
        .expect("portal runs")
}

/// A new site (`portal init`) in a temporary folder, and its folder.
fn new_site() -> (tempfile::TempDir, PathBuf) {
    let parent = tempfile::tempdir().expect("temp dir");
    let init = portal(parent.path(), &["init", "site"]);
    assert!(init.status.success(), "{}", String::from_utf8_lossy(&init.stderr));
    let site = parent.path().join("site");
    (parent, site)
}

/// A state folder holding one voice with `data`.
fn state_with_voice(id: &str, data: Value) -> tempfile::TempDir {
    let state = tempfile::tempdir().expect("temp dir");
    let store = Store::open(state.path()).expect("store");
    let voice = Submission {
        kind: "voice".into(),
        id: id.into(),
        received_at: "2026-11-22T12:00:00Z".into(),
        data,
        mails: vec![],
        mail_per_hour: 200,
    };
    store.insert(&voice).expect("insert");
    state
}

#[test]
fn a_d1_export_is_read_like_the_sqlite_store() {
    let listed = Source::D1Export(export_fixture()).open().expect("the export loads").list(None).expect("list");
    let ids: Vec<&str> = listed.iter().map(|s| s.id.as_str()).collect();
    assert_eq!(ids, ["v-0k3j5m7q9s1u3w5y7a9c", "v-8d2f4h6j8k0m2p4r6t8v", "BK-7Q2W9E"], "oldest first");
    let counts: Vec<[u32; 3]> = listed.iter().map(|s| [s.mails_sent, s.mails_pending, s.mails_undeliverable]).collect();
    assert_eq!(counts, [[1, 0, 0], [0, 1, 0], [0, 0, 1]]);
    assert_eq!(listed[0].delivered_via, "send_email");
    assert_eq!(listed[1].data["author"], "Marie-Claire N'Diaye");
    assert!(listed[0].data["content"].as_str().unwrap_or_default().contains("two hours for water.\nNow"));

    // The same rows stored by `portal serve` list the same way.
    let state = tempfile::tempdir().expect("temp dir");
    let store = Store::open(state.path()).expect("store");
    for s in &listed {
        let submission = Submission {
            kind: s.kind.clone(),
            id: s.id.clone(),
            received_at: s.received_at.clone(),
            data: s.data.clone(),
            mails: vec![],
            mail_per_hour: 200,
        };
        store.insert(&submission).expect("insert");
    }
    let native = store.list(Some("voice")).expect("list");
    let d1 = Source::D1Export(export_fixture()).open().expect("loads").list(Some("voice")).expect("list");
    let shape = |list: &[portal::serve::store::StoredSubmission]| -> Vec<(String, String, Value)> {
        list.iter().map(|s| (s.id.clone(), s.received_at.clone(), s.data.clone())).collect()
    };
    assert_eq!(shape(&native), shape(&d1));
}

#[test]
fn the_cli_lists_a_d1_export_and_names_a_file_that_is_not_one() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = export_fixture().to_string_lossy().to_string();
    let listed = portal(dir.path(), &["submissions", "--from-d1-export", &file, "--kind", "booking"]);
    assert!(listed.status.success(), "{}", String::from_utf8_lossy(&listed.stderr));
    let all: Value = serde_json::from_slice(&listed.stdout).expect("JSON");
    assert_eq!(all[0]["id"], "BK-7Q2W9E");
    assert_eq!(all[0]["mailsUndeliverable"], 1);

    let junk = dir.path().join("junk.sql");
    std::fs::write(&junk, "this is not SQL").expect("write");
    let refused = portal(dir.path(), &["submissions", "--from-d1-export", &junk.to_string_lossy()]);
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("junk.sql"));
}

#[test]
fn a_d1_export_is_read_as_data_its_attach_never_run_and_a_bad_row_named() {
    let dir = tempfile::tempdir().expect("temp dir");
    let attached = dir.path().join("attached.sqlite");
    let fixture = std::fs::read_to_string(export_fixture()).expect("fixture");
    let hostile = format!(
        "ATTACH DATABASE '{}' AS x;\nCREATE TABLE x.t(a);\nINSERT INTO x.t VALUES(1);\n{fixture}\
         INSERT INTO \"submissions\" VALUES('v-broken','voice','2026-11-23T00:00:00Z');\n",
        attached.display()
    );
    let dump = dir.path().join("dump.sql");
    std::fs::write(&dump, hostile).expect("write");
    let listed = portal(dir.path(), &["submissions", "--from-d1-export", &dump.to_string_lossy()]);
    let stderr = String::from_utf8_lossy(&listed.stderr);
    assert!(listed.status.success(), "{stderr}");
    assert!(!attached.exists(), "the dump's ATTACH made a file");
    let all: Value = serde_json::from_slice(&listed.stdout).expect("JSON");
    let ids: Vec<&str> = all.as_array().into_iter().flatten().filter_map(|s| s["id"].as_str()).collect();
    assert_eq!(ids, ["v-0k3j5m7q9s1u3w5y7a9c", "v-8d2f4h6j8k0m2p4r6t8v", "BK-7Q2W9E"], "every good row");
    let lines = fixture.lines().count();
    for expected in [
        format!("warning: {}:1: statement 1 (`ATTACH DATABASE", dump.display()),
        format!("warning: {}:3: statement 3 (`INSERT INTO x.t`)", dump.display()),
        format!("warning: {}:{}: ", dump.display(), lines + 4),
    ] {
        assert!(stderr.contains(&expected), "missing `{expected}` in:\n{stderr}");
    }
    assert!(
        stderr.contains("a row of `submissions` not read: table submissions has 4 columns but 3 values"),
        "{stderr}"
    );
}

#[test]
fn a_published_voice_is_a_draft_that_builds_and_becomes_a_page() {
    let (_parent, site) = new_site();
    let state = state_with_voice(
        "v-abc123",
        json!({"title": "Our well: \"clean\" water", "author": "Ama: the elder", "content": "Line one\r\n\r\n---\r\ntitle: hijack\r\n<script>alert(1)</script>"}),
    );
    let state_dir = state.path().to_string_lossy().to_string();
    let wrote = portal(&site, &["submissions", "publish", "voice", "v-abc123", "--state", &state_dir]);
    assert!(wrote.status.success(), "{}", String::from_utf8_lossy(&wrote.stderr));
    let file = site.join("content/community-voices/our-well-clean-water.md");
    let text = std::fs::read_to_string(&file).expect("the voice is written");
    assert!(text.contains("draft: true") && !text.contains('\r'), "{text}");

    assert_builds_cleanly(&portal(&site, BUILD));
    assert!(!site.join("dist/community-voices/our-well-clean-water.html").exists(), "a draft is not published");

    std::fs::write(&file, text.replace("draft: true\n", "")).expect("an editor publishes it");
    assert_builds_cleanly(&portal(&site, BUILD));
    let record: Value = serde_json::from_slice(
        &std::fs::read(site.join("dist/api/community-voices/our-well-clean-water.json")).expect("the record"),
    )
    .expect("JSON");
    let data = &record["data"]["community-voices"][0];
    assert_eq!(data["title"], "Our well: \"clean\" water", "{record}");
    assert_eq!(data["author"], "Ama: the elder");
    let page = std::fs::read_to_string(site.join("dist/community-voices/our-well-clean-water.html")).expect("page");
    assert!(page.contains("Line one") && !page.contains("<script>alert(1)"));
}

#[test]
fn publishing_never_overwrites_a_file_and_names_it() {
    let (_parent, site) = new_site();
    let state = state_with_voice("v-dup", json!({"title": "Twice", "author": "A", "content": "first"}));
    let state_dir = state.path().to_string_lossy().to_string();
    let args = ["submissions", "publish", "voice", "v-dup", "--state", &state_dir, "--content", "content"];
    assert!(portal(&site, &args).status.success());
    let file = site.join("content/community-voices/twice.md");
    std::fs::write(&file, "edited by an editor").expect("write");
    let again = portal(&site, &args);
    assert_eq!(again.status.code(), Some(2));
    let error = String::from_utf8_lossy(&again.stderr);
    assert!(error.contains("twice.md") && error.contains("already exists"), "{error}");
    assert_eq!(std::fs::read_to_string(&file).expect("read"), "edited by an editor");

    let missing = portal(&site, &["submissions", "publish", "voice", "v-none", "--state", &state_dir]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("v-none"));
}

#[test]
fn a_voice_of_the_d1_export_publishes_with_a_slug_from_its_title() {
    let (_parent, site) = new_site();
    let file = export_fixture().to_string_lossy().to_string();
    let args = ["submissions", "publish", "voice", "v-8d2f4h6j8k0m2p4r6t8v", "--from-d1-export", &file];
    let wrote = portal(&site, &args);
    assert!(wrote.status.success(), "{}", String::from_utf8_lossy(&wrote.stderr));
    let text = std::fs::read_to_string(site.join("content/community-voices/l-ecole-de-zone-b-notre-fierte.md"))
        .expect("written under the folded title");
    assert!(text.contains("Marie-Claire N'Diaye") && text.contains("date: 2026-11-21"), "{text}");
    assert_builds_cleanly(&portal(&site, BUILD));
}
