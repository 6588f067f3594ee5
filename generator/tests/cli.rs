//! The real `portal` binary on fixture sites: output shapes, drafts, determinism, content errors.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn portal(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_portal"))
        .args(args)
        .current_dir(root())
        .env("SOURCE_DATE_EPOCH", "1790000000")
        .output()
        .expect("portal runs")
}

/// The build cache of this test binary's builds (not beside the fixtures, in the repository).
fn cache() -> &'static Path {
    static CACHE: std::sync::OnceLock<tempfile::TempDir> = std::sync::OnceLock::new();
    CACHE.get_or_init(|| tempfile::tempdir().expect("temp dir")).path()
}

fn build(content: &Path, out: &Path) -> Output {
    let (content, out, cache) = (content.to_string_lossy(), out.to_string_lossy(), cache().to_string_lossy());
    portal(&["build", "--content", &content, "--out", &out, "--cache-dir", &cache])
}

fn build_fixture() -> tempfile::TempDir {
    let out = tempfile::tempdir().expect("temp dir");
    let result = build(&root().join("fixtures/site"), out.path());
    assert!(result.status.success(), "build failed: {}", String::from_utf8_lossy(&result.stderr));
    out
}

fn json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).expect("valid JSON")
}

/// Every file of a build (hidden ones included: the folder holds only what is published).
fn all_files(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut files: Vec<(PathBuf, Vec<u8>)> = walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .map(|e| {
            (
                e.path().strip_prefix(dir).map(Path::to_path_buf).unwrap_or_default(),
                std::fs::read(e.path()).unwrap_or_default(),
            )
        })
        .collect();
    files.sort();
    files
}

#[test]
fn every_collection_has_a_listing_with_the_spec_envelope() {
    let out = build_fixture();
    for name in portal_core::content::collections::COLLECTIONS {
        let listing = json(&out.path().join(format!("api/{name}.json")));
        assert_eq!(listing["status"], "success");
        let records = listing["data"][name].as_array().unwrap_or_else(|| panic!("{name} has data.{name}"));
        assert_eq!(listing["count"], records.len());
    }
}

#[test]
fn a_missing_collection_folder_is_an_empty_collection() {
    let out = build_fixture();
    let photos = json(&out.path().join("api/photos.json"));
    assert_eq!(photos["count"], 0);
    assert_eq!(photos["data"]["photos"], serde_json::json!([]));
}

#[test]
fn records_lead_with_computed_members_then_front_matter_in_file_order() {
    let out = build_fixture();
    let news = json(&out.path().join("api/news/water-points-reopen.json"));
    let record = &news["data"]["news"][0];
    let keys: Vec<&str> = record.as_object().map(|m| m.keys().map(String::as_str).collect()).unwrap_or_default();
    assert_eq!(
        keys,
        [
            "id",
            "collection",
            "title",
            "slug",
            "url",
            "date",
            "summary",
            "tags",
            "zeta",
            "category",
            "alpha",
            "body",
            "html"
        ]
    );
    assert_eq!(news["count"], 1);
    assert!(record["html"].as_str().is_some_and(|h| h.contains("<strong>Zone B</strong>")));
}

#[test]
fn records_are_ordered_by_weight_then_newest_then_id() {
    let out = build_fixture();
    let news = json(&out.path().join("api/news.json"));
    let ids: Vec<&str> =
        news["data"]["news"].as_array().into_iter().flatten().filter_map(|r| r["id"].as_str()).collect();
    assert_eq!(ids, ["pinned", "water-points-reopen", "clinic-hours", "undated-notice"]);
}

#[test]
fn drafts_appear_nowhere() {
    let out = build_fixture();
    for (path, bytes) in all_files(out.path()) {
        let text = String::from_utf8_lossy(&bytes);
        assert!(
            !text.contains("secret-plan") && !text.contains("Unpublished draft"),
            "draft leaked into {}",
            path.display()
        );
    }
}

#[test]
fn nested_files_get_nested_slugs_and_pages_live_at_the_root() {
    let out = build_fixture();
    let doc = json(&out.path().join("api/docs/api/getting-started.json"));
    assert_eq!(doc["data"]["docs"][0]["slug"], "api/getting-started");
    assert_eq!(doc["data"]["docs"][0]["url"], "/docs/api/getting-started");
    let page = json(&out.path().join("api/pages/about/team.json"));
    assert_eq!(page["data"]["pages"][0]["url"], "/about/team");
}

#[test]
fn non_ascii_titles_and_json_yaml_records_pass_through() {
    let out = build_fixture();
    let cafe = json(&out.path().join("api/services/cafe-amani.json"));
    assert_eq!(cafe["data"]["services"][0]["title"], "Café Amani — École des langues");
    assert_eq!(cafe["data"]["services"][0]["location"]["latitude"], -1.2921);
    let pinned = json(&out.path().join("api/news/pinned.json"));
    assert_eq!(pinned["data"]["news"][0]["links"]["help"], "/docs/api/getting-started");
    assert!(pinned["data"]["news"][0].get("body").is_none());
    let legal = json(&out.path().join("api/services/legal-aid.json"));
    assert_eq!(legal["data"]["services"][0]["id"], "legal-aid-desk");
}

#[test]
fn two_builds_are_byte_identical() {
    let a = build_fixture();
    let b = build_fixture();
    assert_eq!(all_files(a.path()), all_files(b.path()));
}

#[test]
fn a_rebuild_rewrites_nothing_and_removes_stale_files() {
    let content = tempfile::tempdir().expect("temp dir");
    copy_dir(&root().join("fixtures/site"), content.path());
    let out = tempfile::tempdir().expect("temp dir");
    assert!(build(content.path(), out.path()).status.success());
    let again = build(content.path(), out.path());
    assert!(
        String::from_utf8_lossy(&again.stdout).contains("(0 written, 0 removed;"),
        "{}",
        String::from_utf8_lossy(&again.stdout)
    );
    std::fs::remove_file(content.path().join("news/clinic-hours.md")).expect("remove record");
    assert!(build(content.path(), out.path()).status.success());
    assert!(!out.path().join("api/news/clinic-hours.json").exists());
}

#[test]
fn four_kinds_of_content_error_are_reported_in_one_run() {
    let out = tempfile::tempdir().expect("temp dir");
    let result = build(&root().join("fixtures/invalid/four-errors"), &out.path().join("dist"));
    assert_eq!(result.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&result.stderr);
    for expected in [
        "fixtures/invalid/four-errors/news/bad-yaml.md:3: invalid YAML",
        "fixtures/invalid/four-errors/news/no-title.md:1: missing `title`",
        "fixtures/invalid/four-errors/news/second.md:4: duplicate slug `same-slug`",
        "fixtures/invalid/four-errors/news/bad-date.md:4: `date`: `2026-02-30` is not a calendar date",
    ] {
        assert!(stderr.contains(expected), "missing `{expected}` in:\n{stderr}");
    }
    assert!(!out.path().join("dist").exists(), "nothing is written on content errors");
}

#[test]
fn check_validates_without_writing() {
    let ok = portal(&["check", "--content", "fixtures/site"]);
    assert!(ok.status.success());
    let bad = portal(&["check", "--content", "fixtures/invalid/four-errors"]);
    assert_eq!(bad.status.code(), Some(1));
    assert_eq!(String::from_utf8_lossy(&bad.stderr).lines().filter(|l| l.contains(".md:")).count(), 4);
}

#[test]
fn an_unknown_top_level_folder_is_an_error_with_a_suggestion() {
    let result = portal(&["check", "--content", "fixtures/invalid/unknown-folder"]);
    assert_eq!(result.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&result.stderr);
    assert!(
        stderr.contains("unknown-folder/nwes:1: unknown folder `nwes`") && stderr.contains("Did you mean `news`?"),
        "{stderr}"
    );
}

#[test]
fn an_unknown_site_key_is_an_error_with_its_line() {
    let content = tempfile::tempdir().expect("temp dir");
    std::fs::write(content.path().join("site.yaml"), "title: T\nrss:\n  itmes: 3\n").expect("write");
    let result = portal(&["check", "--content", &content.path().to_string_lossy()]);
    assert_eq!(result.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&result.stderr);
    assert!(stderr.contains("site.yaml:3:") && stderr.contains("itmes"), "{stderr}");
}

#[test]
fn a_folder_that_is_not_a_build_is_never_overwritten() {
    let out = tempfile::tempdir().expect("temp dir");
    std::fs::write(out.path().join("precious.txt"), "keep me").expect("write");
    let result = build(&root().join("fixtures/site"), out.path());
    assert_eq!(result.status.code(), Some(2));
    assert!(out.path().join("precious.txt").exists());
}

fn copy_dir(from: &Path, to: &Path) {
    for entry in walkdir::WalkDir::new(from).into_iter().filter_map(Result::ok) {
        let target = to.join(entry.path().strip_prefix(from).unwrap_or(entry.path()));
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&target).expect("mkdir");
        } else {
            std::fs::copy(entry.path(), &target).expect("copy");
        }
    }
}

#[test]
fn an_entry_without_sources_or_with_an_unknown_related_slug_fails_the_build() {
    let out = tempfile::tempdir().expect("temp dir");
    let result = build(&root().join("fixtures/invalid/encyclopedia"), &out.path().join("dist"));
    assert_eq!(result.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&result.stderr);
    for expected in [
        "encyclopedia/no-sources.md:1: missing `sources`",
        "encyclopedia/bad-related.md:3: `related` names `does-not-exist`, which is not a published encyclopedia entry",
    ] {
        assert!(stderr.contains(expected), "missing `{expected}` in:\n{stderr}");
    }
}

#[test]
fn the_build_writes_the_export_description_and_the_mail_templates() {
    let out = build_fixture();
    let description = json(&out.path().join("api/export.json"));
    assert_eq!(description["supportedCollections"].as_array().map(Vec::len), Some(19));
    let manifest = json(&out.path().join("_portal/manifest.json"));
    let shard =
        portal_core::dist::manifest::shard_of("/api/export", manifest["route_shards"].as_u64().unwrap_or(1) as u32);
    let routes = json(&out.path().join(portal_core::dist::manifest::shard_file(shard)));
    assert_eq!(routes["/api/export"]["file"], "api/export.json");
    for stem in portal_core::forms::mail::TEMPLATES {
        assert!(out.path().join(format!("_portal/mail/{stem}.txt")).is_file(), "{stem}.txt");
        assert!(out.path().join(format!("_portal/mail/{stem}.html")).is_file(), "{stem}.html");
    }
}

#[test]
fn encyclopedia_entries_get_detail_and_json_ld_files() {
    let out = build_fixture();
    let detail = json(&out.path().join("api/encyclopedia/asylum.json"));
    assert_eq!(detail["data"]["entry"]["sources"][1]["publisher"], "United Nations");
    let article = json(&out.path().join("api/encyclopedia/asylum.jsonld"));
    assert_eq!(article["@type"], "Article");
    assert_eq!(article["url"], "https://fixture.example.org/encyclopedia/asylum");
    assert!(!out.path().join("api/encyclopedia/draft-topic.json").exists());
}

#[test]
fn exit_codes_separate_content_errors_from_usage_and_io_errors() {
    assert_eq!(portal(&["check", "--content", "fixtures/site"]).status.code(), Some(0));
    assert_eq!(portal(&["check", "--content", "fixtures/invalid/four-errors"]).status.code(), Some(1));
    assert_eq!(portal(&["check", "--content", "fixtures/no-such-folder"]).status.code(), Some(2));
    assert_eq!(portal(&["build", "--no-such-flag"]).status.code(), Some(2));
}

#[test]
fn github_format_annotates_each_file_and_line() {
    let result = portal(&["check", "--content", "fixtures/invalid/four-errors", "--format", "github"]);
    let stdout = String::from_utf8_lossy(&result.stdout);
    let annotations: Vec<&str> = stdout.lines().filter(|l| l.starts_with("::error file=")).collect();
    assert_eq!(annotations.len(), 4, "{stdout}");
    assert!(annotations.contains(&"::error file=fixtures/invalid/four-errors/news/no-title.md,line=1,title=portal::missing `title`: every record needs a title string"));
}

#[test]
fn json_format_is_machine_readable() {
    let failed = portal(&["check", "--content", "fixtures/invalid/four-errors", "--format", "json"]);
    let doc: Value = serde_json::from_slice(&failed.stdout).expect("json on stdout");
    assert_eq!(doc["status"], "error");
    assert_eq!(doc["errors"].as_array().map(Vec::len), Some(4));
    assert_eq!(doc["errors"][0]["line"], 4);
    let out = tempfile::tempdir().expect("temp dir");
    let built =
        portal(&["build", "--content", "fixtures/site", "--out", &out.path().to_string_lossy(), "--format", "json"]);
    let doc: Value = serde_json::from_slice(&built.stdout).expect("json on stdout");
    assert_eq!(doc["status"], "ok");
    assert_eq!(doc["collections"]["news"], 4);
    assert_eq!(doc["entries"], 6);
}

#[test]
fn submissions_without_a_store_is_an_error_naming_the_folder() {
    let state = tempfile::tempdir().expect("temp dir");
    let result = portal(&["submissions", "--state", &state.path().to_string_lossy()]);
    assert_eq!(result.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&result.stderr).contains("portal.sqlite3"));
}

#[test]
fn submissions_lists_the_store_as_json_or_csv() {
    use portal::serve::store::Store;
    use portal_core::platform::Submission;

    let state = tempfile::tempdir().expect("temp dir");
    let store = Store::open(state.path()).expect("store");
    for (kind, id, data) in [
        (
            "voice",
            "v-1",
            serde_json::json!({"title": "=cmd", "author": "Ana", "content": "a,b\nc", "phone": "+256 700", "guests": -2}),
        ),
        ("booking", "BK-1", serde_json::json!({"name": "Ana", "email": "ana@example.org"})),
    ] {
        let submission = Submission {
            kind: kind.into(),
            id: id.into(),
            received_at: "2026-11-22T12:00:00Z".into(),
            data,
            mails: vec![],
            mail_per_hour: 200,
        };
        store.insert(&submission).expect("insert");
    }
    let dir = state.path().to_string_lossy().to_string();
    let listed = portal(&["submissions", "--state", &dir]);
    assert!(listed.status.success());
    let all: Value = serde_json::from_slice(&listed.stdout).expect("JSON");
    assert_eq!(all.as_array().map(Vec::len), Some(2));
    assert_eq!(all[0]["data"]["title"], "=cmd");
    let csv = portal(&["submissions", "--state", &dir, "--kind", "voice", "--format", "csv"]);
    let text = String::from_utf8_lossy(&csv.stdout);
    assert_eq!(text, "kind,id,receivedAt,mailsSent,mailsPending,mailsUndeliverable,deliveredVia,title,author,content,phone,guests\nvoice,v-1,2026-11-22T12:00:00Z,0,0,0,,'=cmd,Ana,\"a,b\nc\",'+256 700,-2\n");
}

/// Runs `portal` in `dir` (for commands that use the default folders).
fn portal_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_portal"))
        .args(args)
        .current_dir(dir)
        .env("SOURCE_DATE_EPOCH", "1790000000")
        .output()
        .expect("portal runs")
}

#[test]
fn init_writes_a_site_that_builds_at_once_and_refuses_a_folder_with_files() {
    let parent = tempfile::tempdir().expect("temp dir");
    let site = parent.path().join("my-site");
    let init = portal_in(parent.path(), &["init", "my-site"]);
    assert!(init.status.success(), "{}", String::from_utf8_lossy(&init.stderr));
    for file in ["content/site.yaml", "content/news/welcome.md", "content/static/media/welcome.jpg"] {
        assert!(site.join(file).is_file(), "{file}");
    }
    let built = portal_in(&site, &["build"]);
    assert!(built.status.success(), "{}", String::from_utf8_lossy(&built.stderr));
    // The example address is the one warning, from build and check alike, until it is changed.
    let example = "site.yaml:8: warning: `base_url` is still the example address of `portal init`";
    for run in [&built, &portal_in(&site, &["check"])] {
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert!(stderr.contains(example) && stderr.lines().count() == 1, "{stderr}");
    }
    let settings = std::fs::read_to_string(site.join("content/site.yaml")).expect("settings");
    let ours = settings.replace("https://portal.example.org", "https://our-camp.example");
    std::fs::write(site.join("content/site.yaml"), ours).expect("settings");
    let built = portal_in(&site, &["build"]);
    assert!(built.stderr.is_empty(), "no warnings: {}", String::from_utf8_lossy(&built.stderr));
    let page = std::fs::read_to_string(site.join("dist/news/welcome.html")).expect("the record's page");
    assert!(!page.contains("/visit"), "no booking form until `booking:` is set: {page}");
    assert!(page.contains(r#"<img src="../media/welcome.jpg" alt="The sun rising"#), "{page}");
    assert!(site.join("dist/_img/480/media/welcome.jpg").is_file());
    assert!(site.join("dist/encyclopedia/community-portal.html").is_file());
    let again = portal_in(parent.path(), &["init", "my-site"]);
    assert_eq!(again.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&again.stderr).contains("is not empty"));
}

/// A content folder with one news record (`news/x.md`) of the given text.
fn one_record_site(record: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::create_dir_all(dir.path().join("news")).expect("folders");
    std::fs::write(dir.path().join("site.yaml"), "title: T\nbase_url: https://t.example\n").expect("site");
    std::fs::write(dir.path().join("news/x.md"), record).expect("record");
    dir
}

#[test]
fn a_missing_local_image_is_a_warning_with_its_file_and_line_from_build_and_check() {
    let site = one_record_site("---\ntitle: X\nimage: /media/gone.jpg\n---\n\nText\n\n![A pump](media/pump.png)\n");
    let content = site.path().to_string_lossy().to_string();
    let out = tempfile::tempdir().expect("temp dir");
    let built = build(site.path(), out.path());
    assert!(built.status.success(), "a warning does not stop the build");
    let stderr = String::from_utf8_lossy(&built.stderr);
    assert!(stderr.contains("news/x.md:3: warning: image `/media/gone.jpg` not found"), "{stderr}");
    assert!(stderr.contains("news/x.md:8: warning: image `media/pump.png` not found"), "{stderr}");
    let checked = portal(&["check", "--content", &content]);
    assert!(checked.status.success());
    assert!(String::from_utf8_lossy(&checked.stderr).contains("news/x.md:3: warning: image"));
    let json_check = portal(&["check", "--content", &content, "--format", "json"]);
    let doc: Value = serde_json::from_slice(&json_check.stdout).expect("JSON");
    assert_eq!(doc["warnings"].as_array().map(Vec::len), Some(2));
    let page = std::fs::read_to_string(out.path().join("news/x.html")).expect("page");
    assert!(!page.contains("gone.jpg"), "a missing image is not shown");
}

#[test]
fn a_malformed_image_is_a_content_error() {
    let site = one_record_site("---\ntitle: X\nimage: [a, b]\n---\n");
    let out = tempfile::tempdir().expect("temp dir");
    let built = build(site.path(), out.path());
    assert_eq!(built.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&built.stderr).contains("news/x.md:3: `image` must be"));
}

#[test]
fn an_image_with_a_script_url_is_a_content_error_from_build_and_check() {
    for image in ["\"javascript:alert(1)\"", "{src: \"data:text/html,<script>x</script>\", alt: A pump}"] {
        let site = one_record_site(&format!("---\ntitle: X\nimage: {image}\n---\n"));
        let out = tempfile::tempdir().expect("temp dir");
        let built = build(site.path(), out.path());
        assert_eq!(built.status.code(), Some(1), "{image}");
        let stderr = String::from_utf8_lossy(&built.stderr);
        assert!(stderr.contains("news/x.md:3: `image` `"), "{stderr}");
        assert!(stderr.contains("` is not published"), "{stderr}");
        let checked = portal(&["check", "--content", &site.path().to_string_lossy()]);
        assert_eq!(checked.status.code(), Some(1), "{image}");
        assert!(String::from_utf8_lossy(&checked.stderr).contains("news/x.md:3: `image` `"), "{image}");
    }
}

#[test]
fn a_protocol_relative_image_is_no_local_path_from_build_and_check() {
    let site = one_record_site("---\ntitle: X\nimage: //evil.example/x.png\n---\n");
    let out = tempfile::tempdir().expect("temp dir");
    let built = build(site.path(), out.path());
    assert_eq!(built.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&built.stderr);
    assert!(
        stderr.contains("news/x.md:3: `image` `//evil.example/x.png` is not published: it names another host"),
        "{stderr}"
    );
    let checked = portal(&["check", "--content", &site.path().to_string_lossy()]);
    assert_eq!(checked.status.code(), Some(1));
    let site = one_record_site("---\ntitle: X\n---\n\nText\n\n![A pump](//evil.example/x.png)\n");
    let built = build(site.path(), out.path());
    assert!(built.status.success(), "a body image from another host is a warning");
    let stderr = String::from_utf8_lossy(&built.stderr);
    assert!(stderr.contains("news/x.md:7: warning: image `//evil.example/x.png`: it names another host"), "{stderr}");
}

#[test]
fn markdown_twins_publish_no_raw_html_script_urls_or_markup_from_metadata() {
    let site = one_record_site(concat!(
        "---\ntitle: \"Water *now* [x](javascript:alert(0))\"\ncategory: \"[x](javascript:alert(1))\"\n",
        "tags: [\"a](javascript:alert(2)) b\"]\nsummary: \"<img src=x onerror=alert(3)>\"\n",
        "venue: \"`code` _under_\\nnext line\"\n---\n\n",
        "Text with [a link](javascript:alert(4)) and <b onmouseover=alert(5)>bold</b>.\n\n",
        "<script>alert(6)</script>\n\n![pic](data:image/svg+xml,x) [fine](https://example.org)\n"
    ));
    let out = tempfile::tempdir().expect("temp dir");
    let built = build(site.path(), out.path());
    assert!(built.status.success(), "{}", String::from_utf8_lossy(&built.stderr));
    let twin = std::fs::read_to_string(out.path().join("news/x.md")).expect("twin");
    assert!(portal::sanitize::markdown::is_clean(&twin), "raw HTML or a script URL: {twin}");
    for bad in ["<script", "alert(6)", "onmouseover", "](javascript:", "](data:", "`code`"] {
        assert!(!twin.contains(bad), "{bad} in {twin}");
    }
    assert!(twin.contains("> \\<img src=x onerror=alert\\(3\\)\\>\n"), "the summary is text: {twin}");
    assert!(twin.starts_with("# Water \\*now\\* \\[x\\]\\(javascript:alert\\(0\\)\\)\n"), "{twin}");
    assert!(twin.contains("[\\[x\\]\\(javascript:alert\\(1\\)\\)](/categories/"), "{twin}");
    assert!(twin.contains("Text with a link and bold."), "{twin}");
    assert!(twin.contains("[fine](https://example.org)"), "{twin}");
    assert!(twin.contains("\\_under\\_ next line"), "metadata stays on its line: {twin}");
    let listing = std::fs::read_to_string(out.path().join("news.md")).expect("listing twin");
    assert!(listing.contains("[Water \\*now\\* \\[x\\]"), "{listing}");
    assert!(portal::sanitize::markdown::is_clean(&listing), "{listing}");
    let feed = std::fs::read_to_string(out.path().join("api/rss.xml")).expect("feed");
    let description = "<description><![CDATA[&lt;img src=x onerror=alert(3)&gt;]]></description>";
    assert!(feed.contains(description), "the summary is text, escaped for readers that render HTML: {feed}");
}

#[test]
fn a_static_file_in_a_folder_the_build_owns_is_an_error() {
    let site = one_record_site("---\ntitle: X\n---\n");
    std::fs::create_dir_all(site.path().join("static/api")).expect("api");
    std::fs::write(site.path().join("static/api/x.json"), "{}").expect("file");
    let out = tempfile::tempdir().expect("temp dir");
    let built = build(site.path(), out.path());
    assert_eq!(built.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&built.stderr);
    assert!(stderr.contains("static/api/x.json:1: static files may not live under `api/`"), "{stderr}");
}

#[test]
fn a_static_file_that_takes_a_page_url_is_an_error_naming_both() {
    let site = one_record_site("---\ntitle: X\n---\n");
    std::fs::create_dir_all(site.path().join("static")).expect("static");
    std::fs::write(site.path().join("static/news.html"), "<p>mine</p>").expect("file");
    let out = tempfile::tempdir().expect("temp dir");
    let built = build(site.path(), out.path());
    assert_eq!(built.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&built.stderr);
    assert!(stderr.contains("static/news.html:1:") && stderr.contains("for /news (news.html)"), "{stderr}");
}

/// Sends one GET to a server on 127.0.0.1 and returns the whole answer.
fn http_get(address: &str, path: &str) -> String {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(address).expect("connects");
    write!(stream, "GET {path} HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\r\n").expect("request");
    let mut answer = String::new();
    stream.read_to_string(&mut answer).expect("answer");
    answer
}

#[test]
fn serve_drafts_previews_drafts_marked_in_the_state_folder_never_in_the_output() {
    use std::io::BufRead;
    let state = tempfile::tempdir().expect("temp dir");
    let out = tempfile::tempdir().expect("temp dir");
    let mut server = Command::new(env!("CARGO_BIN_EXE_portal"))
        .args(["serve", "--content", "fixtures/site", "--drafts", "--port", "0", "--state"])
        .arg(state.path())
        .arg("--out")
        .arg(out.path())
        .current_dir(root())
        .env("SOURCE_DATE_EPOCH", "1790000000")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("portal serve starts");
    let stdout = server.stdout.take().expect("stdout");
    let mut said = Vec::new();
    let address = std::io::BufReader::new(stdout)
        .lines()
        .map_while(Result::ok)
        .find_map(|line| {
            said.push(line.clone());
            line.split("listening on http://").nth(1).map(str::to_string)
        })
        .unwrap_or_default();
    let draft = http_get(&address, "/news/secret-plan");
    let listing = http_get(&address, "/news");
    let published = http_get(&address, "/news/water-points-reopen");
    let _ = server.kill();
    let _ = server.wait();
    assert!(draft.starts_with("HTTP/1.1 200"), "{draft}");
    assert!(draft.contains(r#"<meta name="robots" content="noindex">"#) && draft.contains(r#"class="draft-banner""#));
    assert!(listing.contains("Unpublished draft") && listing.contains(r#"class="badge draft-mark""#));
    assert!(!published.contains("noindex"), "published pages stay indexable");
    assert!(said.iter().any(|l| l.contains("drafts preview")), "{said:?}");
    assert!(state.path().join("preview/news/secret-plan.html").is_file());
    assert!(all_files(out.path()).is_empty(), "the output folder is left alone");
}

/// Mistakes that used to publish silently are content errors (docs/content.md#no-silent-mistakes), every one of a file.
#[test]
fn silent_mistakes_are_content_errors_each_with_its_line() {
    let result = portal(&["check", "--content", "fixtures/invalid/mistakes"]);
    assert_eq!(result.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&result.stderr);
    for expected in [
        "mistakes/news/two-mistakes.md:2: unknown front-matter key `Draft`: did you mean `draft`?",
        "mistakes/news/two-mistakes.md:3: unknown front-matter key `sumary`: did you mean `summary`?",
        "mistakes/news/two-mistakes.md:4: unknown front-matter key `titel`: did you mean `title`?",
        "mistakes/news/two-mistakes.md:1: missing `title`",
        "mistakes/news/colon.md:2: invalid YAML at column 13: a `:` inside a value needs quotes",
        "mistakes/news/latin1.md:2: the file is not UTF-8 text",
        "mistakes/news/readme.txt:1: `readme.txt` is not a record file",
        "mistakes/news/Shouting.MD:1: `Shouting.MD` is not published: files here end in lower-case .md",
        "mistakes/news/photo.gif:1: `photo.gif` is media in a content folder",
        "mistakes/encyclopedia/two-problems.md:1: missing `sources`",
        "mistakes/encyclopedia/two-problems.md:3: `related` names `no-such-entry`",
        "mistakes/events/typos.md:5: unknown front-matter key `tgas`: did you mean `tags`?",
        "mistakes/events/typos.md:6: unknown front-matter key `venu`: did you mean `venue`?",
        "mistakes/events/typos.md:10: `language: swahili` is the name of a language: write its code, `language: sw`",
    ] {
        assert!(stderr.contains(expected), "missing {expected:?} in:\n{stderr}");
    }
    // Other spellings of an event's times and a site's own keys are not mistakes.
    for fine in ["`starts`", "`end_date`", "`venue_notes`", "`tags_extra`", "`organiser`"] {
        assert!(!stderr.contains(fine), "{fine} flagged in:\n{stderr}");
    }
}

/// A time-zone abbreviation is read as the offset it stands for, a place with its coordinates
/// swapped is a warning naming it, and a site.yaml mistake says in plain words what is wrong.
#[test]
fn zone_abbreviations_swapped_places_and_settings_read_as_meant() {
    let dir = tempfile::tempdir().expect("temp dir");
    let content = dir.path();
    for folder in ["events", "spatial"] {
        std::fs::create_dir_all(content.join(folder)).expect("folders");
    }
    std::fs::write(content.join("site.yaml"), "title: T\nbase_url: https://t.example\ntimezone: EAT\n").expect("site");
    let event = "---\ntitle: Open day\nstarts: 2026-12-03 14:00\nvenue: {name: Hall, zone: zone-b}\n---\n";
    std::fs::write(content.join("events/open-day.md"), event).expect("event");
    let point = |name: &str, lon: f64, lat: f64| {
        format!(
            r#"{{"type": "Feature", "geometry": {{"type": "Point", "coordinates": [{lon}, {lat}]}}, "properties": {{"name": "{name}"}}}}"#
        )
    };
    let features = [
        point("Well", 31.1, 3.0),
        point("Clinic", 31.3, 3.1),
        point("School", 31.2, 2.9),
        point("Market", 3.05, 31.25),
    ];
    let places = format!("{{\"type\": \"FeatureCollection\", \"features\": [\n{}\n]}}\n", features.join(",\n"));
    std::fs::write(content.join("spatial/places.geojson"), places).expect("places");
    let out = tempfile::tempdir().expect("temp dir");
    let built = build(content, out.path());
    let stderr = String::from_utf8_lossy(&built.stderr);
    assert!(built.status.success(), "{stderr}");
    assert!(stderr.contains("places.geojson:5: warning: place `Market`"), "{stderr}");
    assert!(stderr.contains("are the two swapped?") && !stderr.contains("`Well`"), "{stderr}");
    let feed = std::fs::read_to_string(out.path().join("events.ics")).expect("the feed");
    // 14:00 East Africa Time (+03:00) is 11:00 UTC, not 12:00 as Eastern European Time would make it.
    assert!(feed.contains("DTSTART:20261203T110000Z\r\n") && feed.contains("LOCATION:Hall\\, Zone B"), "{feed}");
    std::fs::write(content.join("site.yaml"), "title: T\npagination:\n  page_size: twenty\n").expect("site");
    let checked = portal(&["check", "--content", &content.to_string_lossy()]);
    let stderr = String::from_utf8_lossy(&checked.stderr);
    assert!(stderr.contains("site.yaml:3: site settings: `pagination.page_size` must be a whole number"), "{stderr}");
}

#[test]
fn a_key_kept_on_purpose_is_not_a_typo() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::create_dir_all(dir.path().join("news")).expect("folder");
    std::fs::write(
        dir.path().join("site.yaml"),
        "title: T\nbase_url: https://t.example\nfront_matter:\n  allow: [sumary]\n",
    )
    .expect("site");
    std::fs::write(dir.path().join("news/a.md"), "---\ntitle: A\nsumary: kept\n---\n").expect("record");
    let result = portal(&["check", "--content", &dir.path().to_string_lossy()]);
    assert!(result.status.success(), "{}", String::from_utf8_lossy(&result.stderr));
}

#[test]
fn check_finds_the_url_collisions_build_finds() {
    let out = tempfile::tempdir().expect("temp dir");
    let checked = portal(&["check", "--content", "fixtures/invalid/collisions"]);
    let built = build(&root().join("fixtures/invalid/collisions"), &out.path().join("dist"));
    for result in [&checked, &built] {
        assert_eq!(result.status.code(), Some(1));
        let stderr = String::from_utf8_lossy(&result.stderr);
        assert!(stderr.contains("both claim the URL /news/first"), "{stderr}");
        assert!(
            stderr.contains("collisions/pages/api/first.md:1: this page would be published at /api/first"),
            "{stderr}"
        );
        assert!(!stderr.contains("pages/search.md"), "a page at /search introduces it: {stderr}");
        assert!(
            stderr.contains(
                "collisions/community-voices/new.md:1: this file would be published at /community-voices/new"
            ),
            "{stderr}"
        );
    }
    assert!(!out.path().join("dist").exists(), "nothing is written");
}

#[test]
fn a_missing_base_url_is_a_warning_and_strict_makes_warnings_errors() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("site.yaml"), "title: No address\n").expect("site");
    let built_into = tempfile::tempdir().expect("temp dir");
    let out = built_into.path().join("dist");
    let built = portal(&["build", "--content", &dir.path().to_string_lossy(), "--out", &out.to_string_lossy()]);
    assert!(built.status.success());
    assert!(String::from_utf8_lossy(&built.stderr).contains("site.yaml:1: warning: `base_url` is not set"));
    let sitemap = std::fs::read_to_string(out.join("sitemap.xml")).expect("sitemap");
    assert!(!sitemap.contains("127.0.0.1"), "no made-up address: {sitemap}");
    let strict = portal(&["check", "--strict", "--content", &dir.path().to_string_lossy()]);
    assert_eq!(strict.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&strict.stderr).contains("(--strict)"));
}

#[test]
fn a_template_error_names_the_template_file_and_line() {
    let templates = tempfile::tempdir().expect("temp dir");
    std::fs::write(
        templates.path().join("record.html"),
        "{% extends \"base.html\" %}\n{% block main %}\n{{ record.title | }}\n{% endblock main %}\n",
    )
    .expect("template");
    let result = portal(&["check", "--content", "fixtures/site", "--templates", &templates.path().to_string_lossy()]);
    assert_eq!(result.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&result.stderr);
    assert!(stderr.contains("record.html:3: column"), "{stderr}");
    assert!(!stderr.contains("Error {"), "no debug dump: {stderr}");
}

#[test]
fn odd_events_and_thin_jobs_are_warnings_naming_their_file_and_the_calendar_skips_them() {
    let dir = tempfile::tempdir().expect("temp dir");
    let content = dir.path();
    for folder in ["events", "jobs"] {
        std::fs::create_dir_all(content.join(folder)).expect("folders");
    }
    std::fs::write(content.join("site.yaml"), "title: T\nbase_url: https://t.example\ntimezone: Africa/Kampala\n")
        .expect("site");
    let odd = "---\ntitle: Odd\nvenue: Hall\nstart: next Tuesday\nend: [1, 2]\n---\n";
    std::fs::write(content.join("events/odd.md"), odd).expect("event");
    let local = "---\ntitle: Local\nvenue: Hall\nstart: 2026-12-05 08:00\nend: 2026-12-05T04:00:00Z\n---\n";
    std::fs::write(content.join("events/local.md"), local).expect("event");
    std::fs::write(content.join("jobs/thin.md"), "---\ntitle: Thin\n---\n").expect("job");
    let out = tempfile::tempdir().expect("temp dir");
    let built = build(content, out.path());
    assert!(built.status.success(), "warnings never stop a build: {}", String::from_utf8_lossy(&built.stderr));
    let stderr = String::from_utf8_lossy(&built.stderr);
    assert!(stderr.contains("events/odd.md:4: warning: `start` cannot be read"), "{stderr}");
    assert!(stderr.contains("events/odd.md:5: warning: `end` cannot be read"), "{stderr}");
    assert!(stderr.contains("events/local.md:5: warning: `end` is before `start`"), "{stderr}");
    assert!(stderr.contains("jobs/thin.md:1: warning: its schema.org JobPosting lacks `description`"), "{stderr}");
    let feed = std::fs::read_to_string(out.path().join("events.ics")).expect("the feed");
    assert!(!feed.contains("SUMMARY:Odd") && !out.path().join("events/odd.ics").exists());
    // 08:00 in Kampala (UTC+3) is 05:00 UTC; the end before it is left out.
    assert!(feed.contains("DTSTART:20261205T050000Z\r\n") && !feed.contains("DTEND"), "{feed}");
}

#[test]
fn odd_places_never_break_the_build_and_each_still_gets_a_page() {
    let dir = tempfile::tempdir().expect("temp dir");
    let content = dir.path();
    std::fs::create_dir_all(content.join("spatial")).expect("folders");
    std::fs::write(content.join("site.yaml"), "title: T\nbase_url: https://t.example\n").expect("site");
    let mut deep = r#"{"type": "Point", "coordinates": [30.2, 1.2]}"#.to_string();
    for _ in 0..6 {
        deep = format!(r#"{{"type": "GeometryCollection", "geometries": [{deep}]}}"#);
    }
    let features = [
        r#"{"type": "Feature", "geometry": null, "properties": null}"#.to_string(),
        r#"{"type": "Feature", "id": "dup", "geometry": {"type": "MultiPolygon", "coordinates": [[[[30, 1], [31, 1], [31, 2], [30, 1]]], [[[32, 1], [33, 1], [33, 2], [32, 1]]]]}, "properties": {"name": "<script>alert(1)</script>", "category": "zone", "zone": "North"}}"#.to_string(),
        r#"{"type": "Feature", "geometry": {"type": "Point", "coordinates": [30.5, 1.5]}, "properties": {"id": "dup", "name": "Twin", "category": "water"}}"#.to_string(),
        format!(r#"{{"type": "Feature", "geometry": {deep}, "properties": {{"id": "deep"}}}}"#),
    ];
    let register =
        format!("{{\"type\": \"FeatureCollection\", \"features\": [\r\n{}\r\n]}}\r\n", features.join(",\r\n"));
    std::fs::write(content.join("spatial/odd.geojson"), register).expect("register");
    let out = tempfile::tempdir().expect("temp dir");
    let built = build(content, out.path());
    let stderr = String::from_utf8_lossy(&built.stderr);
    assert!(built.status.success(), "odd places never stop a build: {stderr}");
    assert!(
        stderr.contains("odd.geojson:1: warning: feature 1 (\"odd-1\") is not on the map: it has no geometry"),
        "{stderr}"
    );
    assert!(stderr.contains("odd.geojson:1: warning: feature 4 (\"deep\") is not on the map"), "{stderr}");
    for place in ["odd-1", "dup", "dup-2", "deep"] {
        assert!(out.path().join(format!("places/{place}.html")).exists(), "{place}");
    }
    let map = std::fs::read_to_string(out.path().join("map.html")).expect("the map");
    assert!(map.contains("&lt;script&gt;alert(1)&lt;/script&gt;") && !map.contains("<script>alert"), "{map}");
    assert!(map.contains(">North</text>"), "the zone's polygon carries its name");
    assert!(out.path().join("map/category/water.html").exists() && out.path().join("map/zone/north.html").exists());
}

#[test]
fn pages_named_data_alerts_and_map_are_ordinary_pages_on_a_site_without_them() {
    let site = one_record_site("---\ntitle: News\ndate: 2026-01-01\n---\nBody.\n");
    std::fs::create_dir_all(site.path().join("pages")).expect("pages");
    for (name, title) in [("data", "Data protection"), ("alerts", "How we alert you"), ("map", "Site map")] {
        let page = format!("---\ntitle: {title}\n---\nOur own words about {name}.\n");
        std::fs::write(site.path().join(format!("pages/{name}.md")), page).expect("page");
    }
    let out = tempfile::tempdir().expect("temp dir");
    let result = build(site.path(), out.path());
    assert!(result.status.success(), "build failed: {}", String::from_utf8_lossy(&result.stderr));
    for (name, title) in [("data", "Data protection"), ("alerts", "How we alert you"), ("map", "Site map")] {
        let html = std::fs::read_to_string(out.path().join(format!("{name}.html"))).expect("its page");
        assert!(html.contains(title) && html.contains(&format!("Our own words about {name}.")), "{html}");
        assert!(!html.contains("No data is published yet"), "{html}");
        assert!(out.path().join(format!("api/pages/{name}.json")).is_file(), "{name} is a page of its own");
    }
    let listing = json(&out.path().join("api/pages.json"));
    assert_eq!(listing["count"], 3, "each is listed under /pages: {listing}");
}

#[test]
fn a_polygon_wound_the_wrong_way_is_published_turned_with_a_warning_naming_it() {
    let out = tempfile::tempdir().expect("temp dir");
    let built = build(&root().join("fixtures/site"), out.path());
    let stderr = String::from_utf8_lossy(&built.stderr);
    assert!(built.status.success(), "{stderr}");
    let warning = "site-register.geojson:2: warning: place `Block A` (blk-a): a polygon ring runs the wrong way";
    assert!(stderr.contains(warning), "{stderr}");
    let spatial = json(&out.path().join("api/v1/spatial.json"));
    let block = spatial["features"].as_array().into_iter().flatten().find(|f| f["id"] == "blk-a").expect("Block A");
    let ring: Vec<(f64, f64)> = block["geometry"]["coordinates"][0]
        .as_array()
        .into_iter()
        .flatten()
        .map(|p| (p[0].as_f64().unwrap_or_default(), p[1].as_f64().unwrap_or_default()))
        .collect();
    let area: f64 = ring.windows(2).map(|w| w[0].0 * w[1].1 - w[1].0 * w[0].1).sum();
    assert!(area > 0.0, "the exterior ring runs counter-clockwise: {ring:?}");
}
