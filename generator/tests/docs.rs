//! The documentation holds together: every relative link of the README, CONTRIBUTING.md and
//! `docs/` names a file that exists (and, into a markdown file, an anchor it has), and every long
//! option `portal --help` and each command's `--help` print is in `docs/cli.md`; and the map of the
//! code (docs/architecture.md) names only paths that exist, and every module of core and the generator.

use std::collections::{BTreeSet, HashMap};
use std::path::{Component, Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The markdown files whose links are checked, relative to `root`.
fn documents(root: &Path) -> Vec<PathBuf> {
    let mut files = vec![PathBuf::from("README.md"), PathBuf::from("CONTRIBUTING.md")];
    let docs = walkdir::WalkDir::new(root.join("docs")).sort_by_file_name();
    for entry in docs.into_iter().map(|e| e.expect("docs/ is readable")) {
        if entry.file_type().is_file() && entry.path().extension().is_some_and(|e| e == "md") {
            files.push(entry.path().strip_prefix(root).expect("under root").to_path_buf());
        }
    }
    files
}

/// The lines of a markdown file with its fenced code blocks emptied (line numbers stay true) and,
/// unless `keep_code`, its inline code spans removed (a heading's slug keeps their text; a link
/// inside a code span is no link).
fn prose(text: &str, keep_code: bool) -> Vec<String> {
    let mut in_fence = false;
    text.lines()
        .map(|line| {
            if line.trim_start().starts_with("```") {
                in_fence = !in_fence;
                return String::new();
            }
            if in_fence {
                String::new()
            } else if keep_code {
                line.to_string()
            } else {
                line.split('`').step_by(2).collect()
            }
        })
        .collect()
}

/// The link targets of one line of prose: inline links `[text](target)` and reference
/// definitions `[label]: target`.
fn targets(line: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut rest = line;
    while let Some(start) = rest.find("](") {
        let after = &rest[start + 2..];
        let end = after.find([')', ' ']).unwrap_or(after.len());
        found.push(after[..end].to_string());
        rest = &after[end..];
    }
    let trimmed = line.trim_start();
    if let Some((label, target)) = trimmed.split_once("]: ") {
        if label.starts_with('[') && !label.contains('(') {
            found.push(target.split_whitespace().next().unwrap_or("").to_string());
        }
    }
    found
}

/// GitHub's anchor of a heading: lower-cased, inline links reduced to their text, every character
/// but letters, digits, spaces, `-` and `_` dropped, spaces turned into `-`.
fn slug(heading: &str) -> String {
    let mut text = String::new();
    let mut rest = heading;
    // `[text](target)` reads as `text`.
    while let Some(open) = rest.find('[') {
        text.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        match after.find("](").and_then(|mid| after[mid..].find(')').map(|close| (mid, mid + close))) {
            Some((mid, close)) => {
                text.push_str(&after[..mid]);
                rest = &after[close + 1..];
            }
            None => {
                text.push('[');
                rest = after;
            }
        }
    }
    text.push_str(rest);
    text.trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// Every anchor a markdown file offers: its headings' slugs (the second of a name gets `-1`, as on
/// GitHub) and every explicit `id="..."`.
fn anchors(text: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let mut seen: HashMap<String, usize> = HashMap::new();
    for (raw, line) in text.lines().zip(prose(text, true)) {
        let hashes = line.chars().take_while(|c| *c == '#').count();
        if (1..=6).contains(&hashes) && line[hashes..].starts_with(' ') {
            let base = slug(&line[hashes + 1..]);
            let count = seen.entry(base.clone()).or_insert(0);
            found.insert(if *count == 0 { base.clone() } else { format!("{base}-{count}") });
            *count += 1;
        }
        let mut rest = raw;
        while let Some(at) = rest.find("id=\"") {
            let after = &rest[at + 4..];
            let end = after.find('"').unwrap_or(after.len());
            found.insert(after[..end].to_string());
            rest = &after[end..];
        }
    }
    found
}

/// `base/relative` with `.` and `..` resolved, without touching the file system.
fn join(base: &Path, relative: &str) -> PathBuf {
    let mut out = PathBuf::new();
    for component in base.join(relative).components() {
        match component {
            Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

/// Every relative link of `files` (relative to `root`) that names no file, or no anchor of the
/// markdown file it names, as `file:line: target`.
fn broken_links(root: &Path, files: &[PathBuf]) -> Vec<String> {
    let mut broken = Vec::new();
    let mut anchor_cache: HashMap<PathBuf, BTreeSet<String>> = HashMap::new();
    for file in files {
        let text = std::fs::read_to_string(root.join(file)).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        for (number, line) in prose(&text, false).iter().enumerate() {
            for target in targets(line) {
                let target = target.trim_start_matches('<').trim_end_matches('>');
                let is_external = target.split_once(':').is_some_and(|(scheme, _)| {
                    !scheme.is_empty() && scheme.chars().all(|c| c.is_ascii_alphanumeric() || "+.-".contains(c))
                });
                if target.is_empty() || is_external {
                    continue;
                }
                let (path, fragment) = target.split_once('#').unwrap_or((target, ""));
                let linked =
                    if path.is_empty() { file.clone() } else { join(file.parent().unwrap_or(Path::new("")), path) };
                let at = format!("{}:{}: {target}", file.display(), number + 1);
                if linked.components().next() == Some(Component::ParentDir) || !root.join(&linked).exists() {
                    broken.push(format!("{at} (no such file)"));
                    continue;
                }
                if fragment.is_empty() || linked.extension().is_none_or(|e| e != "md") {
                    continue;
                }
                let offered = anchor_cache.entry(linked.clone()).or_insert_with(|| {
                    anchors(&std::fs::read_to_string(root.join(&linked)).expect("a linked file is readable"))
                });
                if !offered.contains(fragment) {
                    broken.push(format!("{at} (no such anchor)"));
                }
            }
        }
    }
    broken
}

#[test]
fn every_relative_link_of_the_docs_resolves() {
    let root = root();
    let files = documents(&root);
    assert!(files.len() > 5, "the docs are found: {files:?}");
    let broken = broken_links(&root, &files);
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn the_link_check_notices_a_missing_file_and_a_missing_anchor() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::create_dir_all(dir.path().join("docs/spec")).expect("mkdir");
    std::fs::write(
        dir.path().join("docs/spec/a.md"),
        "# Title\n\n<a id=\"d5\"></a>\n## D5. The encyclopedia\n\n## Rate limit `#x`\n",
    )
    .expect("write");
    let page = "[ok](spec/a.md#d5) [ok](spec/a.md#d5-the-encyclopedia) [ok](spec/a.md#rate-limit-x) \
        [ok](https://example.org/x) [ok](#here)\n\n## Here\n\n`[code](nowhere.md)`\n\n```\n[fenced](nowhere.md)\n```\n\
        [gone](missing.md) [bad](spec/a.md#d6) [up](../../outside.md)\n";
    std::fs::write(dir.path().join("docs/page.md"), page).expect("write");
    let broken = broken_links(dir.path(), &[PathBuf::from("docs/page.md")]);
    assert_eq!(
        broken,
        [
            "docs/page.md:10: missing.md (no such file)",
            "docs/page.md:10: spec/a.md#d6 (no such anchor)",
            "docs/page.md:10: ../../outside.md (no such file)",
        ]
    );
}

fn help(args: &[&str]) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_portal")).args(args).arg("--help").output().expect("portal runs");
    assert!(output.status.success(), "portal {args:?} --help failed");
    String::from_utf8(output.stdout).expect("help is UTF-8")
}

/// The long options a `--help` text lists: the `--name`s of each option line, before its
/// description.
fn long_options(help: &str) -> BTreeSet<String> {
    let mut options = BTreeSet::new();
    for line in help.lines().map(str::trim_start).filter(|l| l.starts_with('-')) {
        let names = line.split("  ").next().unwrap_or(line);
        for word in names.split([' ', ',', '=', '<', '[']) {
            if let Some(name) = word.strip_prefix("--") {
                if !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
                    options.insert(format!("--{name}"));
                }
            }
        }
    }
    options
}

/// The commands `portal --help` lists (the words under `Commands:`, `help` aside).
fn commands(help: &str) -> Vec<String> {
    help.lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with(' '))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .map(str::to_string)
        .collect()
}

/// Whether `text` names `option` on its own (`--out` is not found in `--outbox`).
fn mentions(text: &str, option: &str) -> bool {
    text.match_indices(option).any(|(at, _)| {
        !text[at + option.len()..].starts_with(|c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    })
}

#[test]
fn every_option_of_portal_help_is_in_the_cli_docs() {
    let cli = std::fs::read_to_string(root().join("docs/cli.md")).expect("docs/cli.md");
    let top = help(&[]);
    let commands = commands(&top);
    assert!(commands.len() >= 7, "the commands are found in `portal --help`: {commands:?}");
    let mut missing = Vec::new();
    for option in long_options(&top) {
        if !mentions(&cli, &option) {
            missing.push(format!("portal {option}"));
        }
    }
    for command in &commands {
        if !mentions(&cli, &format!("portal {command}")) {
            missing.push(format!("portal {command}"));
        }
        for option in long_options(&help(&[command])) {
            if !mentions(&cli, &option) {
                missing.push(format!("portal {command} {option}"));
            }
        }
    }
    assert!(missing.is_empty(), "docs/cli.md does not mention: {}", missing.join(", "));
}

#[test]
fn the_option_check_reads_clap_help() {
    let help = "Usage: portal build [OPTIONS]\n\nOptions:\n      --content <CONTENT>  The content folder\n  \
        -h, --help  Print help\n      --split-over <SPLIT_OVER>  Also write files, unlike --out\n";
    let found: Vec<String> = long_options(help).into_iter().collect();
    assert_eq!(found, ["--content", "--help", "--split-over"]);
    assert!(mentions("`--out DIR`", "--out") && !mentions("`--outbox`", "--out"));
}

/// The paths `text` names in code spans that end in `.rs` or `/` (a file or folder of the
/// repository), leaving out placeholders (`<tag>.rs`) and globs.
fn named_paths(text: &str) -> BTreeSet<String> {
    let spans = text.split('`').skip(1).step_by(2);
    spans
        .filter(|span| span.ends_with(".rs") || span.ends_with('/'))
        .filter(|span| !span.contains(['<', '*', ' ', ':']))
        .map(str::to_string)
        .collect()
}

/// Every file and folder of the repository's sources and docs, relative to `root`, with `/`.
fn repository_paths(root: &Path) -> Vec<String> {
    let skipped = ["target", ".git", "node_modules", ".venv"];
    let walk = walkdir::WalkDir::new(root).into_iter().filter_entry(|e| {
        !skipped.iter().any(|s| e.file_name() == *s) && !e.file_name().to_string_lossy().starts_with(".dist")
    });
    walk.filter_map(Result::ok)
        .filter_map(|e| Some(e.path().strip_prefix(root).ok()?.to_string_lossy().replace('\\', "/")))
        .collect()
}

/// Whether `named` (a path as a table of the map writes it, relative to its section's folder) is
/// a path of the repository: a file or folder whose path ends with it.
fn exists(named: &str, paths: &[String]) -> bool {
    let named = named.trim_end_matches('/');
    paths.iter().any(|path| path == named || path.ends_with(&format!("/{named}")))
}

#[test]
fn every_path_the_architecture_names_exists() {
    let root = root();
    let text = std::fs::read_to_string(root.join("docs/architecture.md")).expect("docs/architecture.md");
    let paths = repository_paths(&root);
    let missing: Vec<String> = named_paths(&text).into_iter().filter(|named| !exists(named, &paths)).collect();
    assert!(missing.is_empty(), "docs/architecture.md names paths that do not exist: {missing:?}");
}

#[test]
fn the_architecture_names_every_module_of_core_and_the_generator() {
    let root = root();
    let named = named_paths(&std::fs::read_to_string(root.join("docs/architecture.md")).expect("architecture.md"));
    let mut unnamed = Vec::new();
    for source in ["core/src", "generator/src"] {
        for entry in std::fs::read_dir(root.join(source)).expect("a source folder").map(|e| e.expect("an entry")) {
            let name = entry.file_name().to_string_lossy().into_owned();
            let name = if entry.path().is_dir() { format!("{name}/") } else { name };
            if !named.contains(&name) && !named.contains(&format!("{source}/{name}")) {
                unnamed.push(format!("{source}/{name}"));
            }
        }
    }
    unnamed.sort();
    assert!(unnamed.is_empty(), "docs/architecture.md does not name: {unnamed:?}");
}

#[test]
fn the_map_check_reads_code_spans_and_suffixes() {
    let named = named_paths("`a.rs`, `b/`, `<tag>.rs`, `c.json`, `d::e`, `x/y.rs`");
    assert_eq!(named, BTreeSet::from(["a.rs".to_string(), "b/".into(), "x/y.rs".into()]));
    let paths = ["core/src/x/y.rs".to_string(), "core/src/b".into()];
    assert!(exists("x/y.rs", &paths) && exists("b/", &paths));
    assert!(!exists("y/y.rs", &paths) && !exists("src/x/", &["core/src/xx".to_string()]));
}
