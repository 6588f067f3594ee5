//! What a site's own content does to its build: a page at the URL of a generated page introduces
//! it (never a broken build), a page at a file's or the API's path is an error `check` and `build`
//! report alike, nothing of a draft reaches the output folder (clean or incremental, loose or
//! packed), the build cache lives outside it, and files written on Windows build as usual.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/site")
}

fn portal(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_portal"))
        .args(args)
        .env("SOURCE_DATE_EPOCH", "1790000000")
        .output()
        .expect("portal runs")
}

fn text(output: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr))
}

/// A copy of the fixture site in a temporary folder (`content/` inside it), with `extra` files.
fn site(extra: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    let content = dir.path().join("content");
    for entry in walkdir::WalkDir::new(fixture()).into_iter().filter_map(Result::ok) {
        let target = content.join(entry.path().strip_prefix(fixture()).expect("inside"));
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&target).expect("mkdir");
        } else {
            std::fs::copy(entry.path(), &target).expect("copy");
        }
    }
    for (file, text) in extra {
        write(&content.join(file), text);
    }
    dir
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    std::fs::write(path, text).expect("write");
}

fn build(dir: &Path, flags: &[&str]) -> Output {
    let (content, out) = (dir.join("content"), dir.join("dist"));
    let mut args = vec!["build", "--content", content.to_str().expect("utf-8"), "--out", out.to_str().expect("utf-8")];
    args.extend(flags);
    portal(&args)
}

fn read(dir: &Path, file: &str) -> String {
    std::fs::read_to_string(dir.join("dist").join(file)).unwrap_or_else(|e| panic!("{file}: {e}"))
}

#[test]
fn a_page_at_each_kind_of_generated_url_introduces_that_page() {
    let dir = site(&[
        ("pages/search.md", "---\ntitle: Find anything\nsummary: Search tips.\n---\nUse one word at a time.\n"),
        ("pages/categories.md", "---\ntitle: All the categories\n---\nGrouped by theme.\n"),
        ("pages/tags/water.md", "---\ntitle: About water\n---\nWhere the water points are.\n"),
        ("pages/news/page/2.md", "---\ntitle: Older news\n---\nNo second page here.\n"),
    ]);
    let built = build(dir.path(), &[]);
    assert!(built.status.success(), "{}", text(&built));
    let path = dir.path();
    for (file, title, body) in [
        ("services", "Services in the settlement", "free of charge"),
        ("tags", "Topics", "Each topic gathers"),
        ("categories", "All the categories", "Grouped by theme."),
        ("tags/water", "About water", "Where the water points are."),
        ("encyclopedia", "Encyclopedia of settlement life", "legal aid desk"),
    ] {
        let html = read(path, &format!("{file}.html"));
        assert!(html.contains(&format!("<h1>{title}</h1>\n<div class=\"intro\">")), "{file}.html");
        assert_eq!(html.matches("<h1").count(), 1, "{file}.html has one heading");
        assert!(html.contains(&format!("<title>{title} ·")), "{file}.html");
        assert!(html.contains(body), "{file}.html");
        let twin = read(path, &format!("{file}.md"));
        assert!(twin.starts_with(&format!("# {title}\n\n")) && twin.contains(body), "{file}.md: {twin}");
    }
    // A URL the site generates only for some content is the page's own when nothing is there.
    assert!(read(path, "news/page/2.html").contains("No second page here."));
    for gone in ["visit.html", "community-voices/new.html"] {
        assert!(!path.join("dist").join(gone).exists(), "{gone} is no file of its own");
    }
    // search.html is the page that searches in the browser (static hosts, offline), introduced alike.
    let search = read(path, "search.html");
    assert!(search.contains("data-find=") && search.contains("<h1>Find anything</h1>"), "{search}");
    assert!(search.contains("Use one word at a time."), "{search}");
    let manifest: Value = serde_json::from_str(&read(path, "_portal/manifest.json")).expect("JSON");
    let intros = manifest["intros"].as_object().expect("intros");
    assert_eq!(intros.keys().collect::<Vec<_>>(), ["/community-voices/new", "/search", "/visit"]);
    assert_eq!(intros["/search"]["summary"], "Search tips.");
    assert_eq!(
        intros["/visit"]["html"],
        "<p dir=\"auto\">Tours leave from the <strong>gatehouse</strong> on Tuesdays and Fridays; bring an identity card.</p>\n"
    );
    assert!(!read(path, "_portal/manifest.json").contains(path.to_str().expect("utf-8")), "no local paths published");
    let pages: Value = serde_json::from_str(&read(path, "api/pages.json")).expect("JSON");
    let urls: Vec<&str> =
        pages["data"]["pages"].as_array().expect("list").iter().filter_map(|p| p["url"].as_str()).collect();
    assert!(urls.contains(&"/visit") && urls.contains(&"/tags/water"), "the records stay in the API: {urls:?}");
}

#[test]
fn check_and_build_refuse_a_page_at_a_file_or_api_path_alike_naming_file_and_line() {
    let dir = site(&[
        ("pages/api/status.md", "---\ntitle: Status\n---\nx\n"),
        ("pages/logo.md", "---\ntitle: Logo\nslug: assets/logo\n---\nx\n"),
        ("pages/m.md", "---\ntitle: M\nslug: mcp\n---\nx\n"),
    ]);
    let content = dir.path().join("content");
    let checked = portal(&["check", "--content", content.to_str().expect("utf-8")]);
    let built = build(dir.path(), &[]);
    assert_eq!((checked.status.code(), built.status.code()), (Some(1), Some(1)), "{}", text(&built));
    let lines = |output: &Output| -> Vec<String> {
        String::from_utf8_lossy(&output.stderr).lines().filter(|l| l.contains(".md:")).map(str::to_string).collect()
    };
    assert_eq!(lines(&checked), lines(&built));
    let report = lines(&built).join("\n");
    for expected in
        ["pages/api/status.md:1:", "pages/logo.md:3:", "pages/m.md:3:", "/api/status, which is a path of the API"]
    {
        assert!(report.contains(expected), "{expected} in {report}");
    }
    assert!(!dir.path().join("dist").exists(), "nothing was written");
}

/// Every file under `dist` (hidden ones included) that holds one of `markers`.
fn holding(dist: &Path, markers: &[&str]) -> Vec<String> {
    walkdir::WalkDir::new(dist)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file() || e.path_is_symlink())
        .filter(|e| {
            let name = e.path().to_string_lossy().to_lowercase();
            let bytes = String::from_utf8_lossy(&std::fs::read(e.path()).unwrap_or_default()).to_lowercase();
            markers.iter().any(|m| name.contains(&m.to_lowercase()) || bytes.contains(&m.to_lowercase()))
        })
        .map(|e| e.path().display().to_string())
        .collect()
}

#[test]
fn nothing_of_a_draft_is_in_the_output_after_a_clean_or_an_incremental_build() {
    let embargoed =
        "---\ntitle: Embargoed Qzvx title\nsummary: Qzvx summary\ndraft: true\ntags: [qzvxtag]\n---\nQzvx body\n";
    let later = "---\ntitle: Wrpk title\nsummary: Wrpk summary\ntags: [wrpktag]\ncategory: wrpkcat\n---\nWrpk body\n";
    for flags in [&[][..], &["--pack-over", "0", "--split-over", "4096"][..]] {
        let dir = site(&[("news/qzvx-embargo.md", embargoed), ("news/wrpk-later.md", later)]);
        let dist = dir.path().join("dist");
        assert!(build(dir.path(), flags).status.success());
        assert_eq!(holding(&dist, &["qzvx"]), Vec::<String>::new(), "a draft after a clean build ({flags:?})");
        assert!(!holding(&dist, &["wrpk"]).is_empty(), "the published record is there");
        write(&dir.path().join("content/news/wrpk-later.md"), &later.replacen("---\n", "---\ndraft: true\n", 1));
        let rebuilt = build(dir.path(), flags);
        assert!(text(&rebuilt).contains("portal: rebuilt"), "an incremental build: {}", text(&rebuilt));
        assert_eq!(holding(&dist, &["qzvx", "wrpk"]), Vec::<String>::new(), "drafts after a rebuild ({flags:?})");
    }
}

#[test]
fn the_build_cache_lives_beside_the_content_folder_or_where_asked_never_in_the_output() {
    let dir = site(&[]);
    assert!(build(dir.path(), &[]).status.success());
    assert!(dir.path().join(".portal/cache").is_dir(), "beside the content folder");
    assert!(!dir.path().join("dist/_portal/cache").exists());
    let again = build(dir.path(), &[]);
    assert!(text(&again).contains("portal: rebuilt"), "the next build reuses it: {}", text(&again));
    // Another cache folder: asked for, used; one that cannot be written costs speed, not the build.
    let elsewhere = dir.path().join("elsewhere");
    let other = build(dir.path(), &["--cache-dir", elsewhere.to_str().expect("utf-8")]);
    assert!(other.status.success() && elsewhere.is_dir());
    let blocked = dir.path().join("a-file");
    write(&blocked, "not a folder");
    let warned = build(dir.path(), &["--cache-dir", blocked.to_str().expect("utf-8")]);
    assert!(warned.status.success(), "{}", text(&warned));
    assert!(text(&warned).contains("warning: could not keep the build cache"), "{}", text(&warned));
    // An output folder replaced behind the cache's back is built clean, not patched, and the state
    // of an output folder that is gone is dropped.
    let content = dir.path().join("content");
    let passing = dir.path().join("passing");
    let args = ["build", "--content", content.to_str().expect("utf-8"), "--out", passing.to_str().expect("utf-8")];
    assert!(portal(&args).status.success());
    assert_eq!(std::fs::read_dir(dir.path().join(".portal/cache")).expect("cache").count(), 2);
    std::fs::remove_dir_all(&passing).expect("remove");
    std::fs::remove_dir_all(dir.path().join("dist")).expect("remove");
    let fresh = build(dir.path(), &[]);
    assert!(fresh.status.success() && !text(&fresh).contains("portal: rebuilt"), "{}", text(&fresh));
    assert!(dir.path().join("dist/services.html").exists());
    assert_eq!(std::fs::read_dir(dir.path().join(".portal/cache")).expect("cache").count(), 1);
}

#[test]
fn files_written_on_windows_and_events_with_offsets_publish() {
    let dir = site(&[
        (
            "news/crlf.md",
            "\u{feff}---\r\ntitle: Written on Windows\r\ntags:\r\n  - market\r\n---\r\nLine one\r\n\r\nLine two\r\n",
        ),
        ("events/evening.md", "---\r\ntitle: Evening market\r\nstart: 2026-05-01T18:30:00+03:00\r\n---\r\n"),
        ("news/empty.md", "---\ntitle: No body at all\n---"),
    ]);
    let built = build(dir.path(), &[]);
    assert!(built.status.success(), "{}", text(&built));
    let crlf: Value = serde_json::from_str(&read(dir.path(), "api/news/crlf.json")).expect("JSON");
    let record = &crlf["data"]["news"][0];
    assert_eq!((record["title"].as_str(), record["tags"][0].as_str()), (Some("Written on Windows"), Some("market")));
    assert!(read(dir.path(), "news/crlf.html").contains("<p dir=\"auto\">Line two</p>"));
    let event: Value = serde_json::from_str(&read(dir.path(), "api/events/evening.json")).expect("JSON");
    assert_eq!(event["data"]["events"][0]["start"], "2026-05-01T18:30:00+03:00");
    assert!(read(dir.path(), "news/empty.html").contains("No body at all"));
}
