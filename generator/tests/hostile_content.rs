//! Content that could break what is published or the build itself (docs/content.md#limits,
//! #control-characters): control characters reach no output, and a record too big or with too
//! many tags is a content error naming its file, listed with every other problem.

use std::path::Path;
use std::process::{Command, Output};

fn portal(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_portal"))
        .args(args)
        .env("SOURCE_DATE_EPOCH", "1790000000")
        .output()
        .expect("portal runs")
}

fn build(content: &Path, out: &Path) -> Output {
    let cache = out.with_extension("cache");
    let (content, out, cache) = (content.to_string_lossy(), out.to_string_lossy(), cache.to_string_lossy());
    portal(&["build", "--content", &content, "--out", &out, "--cache-dir", &cache])
}

fn write(root: &Path, path: &str, text: &str) {
    let path = root.join(path);
    std::fs::create_dir_all(path.parent().expect("a parent")).expect("folders");
    std::fs::write(path, text).expect("write");
}

/// Whether `text` holds a control character the outputs never carry, raw or as a JSON escape.
fn control_in(text: &str) -> Option<String> {
    let raw = text.chars().find(|c| portal_core::content::text::is_control(*c)).map(|c| format!("{c:?}"));
    let escaped = (0u32..0x20)
        .filter(|c| ![0x09, 0x0a, 0x0d].contains(c))
        .chain(0x7f..0xa0)
        .map(|c| format!("\\u{c:04x}"))
        .find(|escape| escaped_in(&text.to_lowercase(), escape));
    raw.or(escaped)
}

/// Whether `text` holds the JSON escape `escape` itself, not an escaped backslash followed by its
/// letters (`\\u0000` in a pattern of the OpenAPI document is text, no control character).
fn escaped_in(text: &str, escape: &str) -> bool {
    text.match_indices(escape).any(|(at, _)| text[..at].chars().rev().take_while(|c| *c == '\\').count() % 2 == 0)
}

#[test]
fn control_characters_in_any_content_text_reach_no_output() {
    let site = tempfile::tempdir().expect("temp dir");
    let root = site.path();
    write(
        root,
        "site.yaml",
        "title: \"Camp\\vPortal\"\nbase_url: https://t.example\ndescription: \"News\\x07 of the camp\"\n",
    );
    write(
        root,
        "news/x.md",
        "---\ntitle: \"Water\\vnews\\0\"\nsummary: \"Sum\\x1bmary\\u0085here\"\ntags: [\"wa\\ater\", \"a\x0bb\"]\n\
         category: \"in\\x7ffra\"\nvenue: \"Hall\\x9b 1\"\ndate: 2026-11-20\n---\n\nBody\x0bwith\x07 controls\x1b[31m.\r\n",
    );
    write(
        root,
        "news/y.json",
        "{\"title\": \"JSON\\u000btitle\", \"summary\": \"s\\u0000\", \"date\": \"2026-11-19\"}",
    );
    write(root, "data/population.yaml", "total: 10\nnote: \"a\\vb\"\n");
    write(root, "i18n/en.yaml", "nav:\n  skip: \"Skip\\x07 to content\"\n");
    let out = tempfile::tempdir().expect("temp dir");
    let built = build(root, &out.path().join("dist"));
    assert!(built.status.success(), "{}", String::from_utf8_lossy(&built.stderr));
    let dist = out.path().join("dist");
    let mut checked = 0;
    let text_kinds = ["html", "xml", "json", "md", "txt", "ics", "csv", "geojson", "svg", "webmanifest"];
    for entry in walkdir::WalkDir::new(&dist).into_iter().filter_map(Result::ok).filter(|e| e.file_type().is_file()) {
        let kind = entry.path().extension().and_then(|e| e.to_str()).unwrap_or_default();
        if !text_kinds.contains(&kind) {
            continue;
        }
        let text = std::fs::read_to_string(entry.path()).expect("text");
        checked += 1;
        assert_eq!(control_in(&text), None, "{}", entry.path().display());
    }
    assert!(checked > 20, "only {checked} text files");
    let feed = std::fs::read_to_string(dist.join("api/rss.xml")).expect("feed");
    for text in [
        "<title>Camp Portal news</title>",
        "<title>Water news</title>",
        "Summary here",
        "<category>water</category>",
        "<title>JSON title</title>",
    ] {
        assert!(feed.contains(text), "{text} in {feed}");
    }
    let page = std::fs::read_to_string(dist.join("news/x.html")).expect("page");
    assert!(page.contains("Body with controls[31m."), "{page}");
    let twin = std::fs::read_to_string(dist.join("news/x.md")).expect("twin");
    assert!(twin.contains("Hall 1"), "{twin}");
}

#[test]
fn a_huge_record_and_one_with_100000_tags_are_content_errors_listed_with_the_others() {
    let site = tempfile::tempdir().expect("temp dir");
    let root = site.path();
    write(root, "site.yaml", "title: T\nbase_url: https://t.example\n");
    write(root, "news/fine.md", "---\ntitle: Fine\n---\nText.\n");
    write(root, "news/no-title.md", "---\nsummary: x\n---\n");
    // A sparse file: 450 MiB as the file system says, no disk, and never read.
    let huge = root.join("news/huge.md");
    std::fs::File::create(&huge).and_then(|f| f.set_len(450 * 1024 * 1024)).expect("sparse file");
    let tags: Vec<String> = (0..100_000).map(|n| format!("t{n}")).collect();
    write(root, "news/tags.md", &format!("---\ntitle: Tags\nsummary: s\ntags: [{}]\n---\n", tags.join(", ")));
    write(
        root,
        "encyclopedia/long-term.md",
        &format!(
            "---\ntitle: Term\ncategory: {}\nsources: [{{title: S, url: https://s.example}}]\n---\n",
            "x".repeat(101)
        ),
    );
    let out = tempfile::tempdir().expect("temp dir");
    let dist = out.path().join("dist");
    let content = root.to_string_lossy().to_string();
    for run in [build(root, &dist), portal(&["check", "--content", &content])] {
        assert_eq!(run.status.code(), Some(1));
        let stderr = String::from_utf8_lossy(&run.stderr);
        let at = |file: &str| root.join(file).display().to_string();
        for expected in [
            format!("{}:1: the file is 450 MiB (471859200 bytes), more than the 8 MiB", at("news/huge.md")),
            format!("{}:4: `tags` lists 100000 tags; a record may have at most 100", at("news/tags.md")),
            format!(
                "{}:3: `category`: `xxxxxxxxxxxxxxxxxxxx...` has more than 100 characters",
                at("encyclopedia/long-term.md")
            ),
            format!("{}:1: missing `title`", at("news/no-title.md")),
        ] {
            assert!(stderr.contains(&expected), "missing `{expected}` in:\n{stderr}");
        }
    }
    assert!(!dist.exists(), "nothing is written on content errors");
}
