//! The source tree keeps the house's rules (CONTRIBUTING.md): a module with submodules is a folder
//! with its `mod.rs`, never a `foo.rs` beside a `foo/`, so a module is found in one place; the
//! build's folder holds at most a dozen entries, grouped by concern; and core's top-level modules
//! depend on each other in one direction only (docs/architecture.md).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The Rust source folders of the workspace's crates.
const SOURCES: [&str; 3] = ["core/src", "generator/src", "edge/src"];

/// Every `foo.rs` that has a folder `foo/` beside it, under `root`.
fn split_modules(root: &Path) -> Vec<PathBuf> {
    walkdir::WalkDir::new(root)
        .sort_by_file_name()
        .into_iter()
        .filter_map(Result::ok)
        .map(walkdir::DirEntry::into_path)
        .filter(|path| path.extension().is_some_and(|e| e == "rs") && path.with_extension("").is_dir())
        .collect()
}

#[test]
fn no_module_is_both_a_file_and_a_folder() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let split: Vec<PathBuf> = SOURCES.iter().flat_map(|source| split_modules(&root.join(source))).collect();
    assert!(split.is_empty(), "move each into its folder as mod.rs: {split:?}");
}

#[test]
fn the_check_finds_a_file_beside_its_folder() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    std::fs::create_dir(dir.path().join("shape")).expect("a folder");
    std::fs::write(dir.path().join("shape.rs"), "").expect("a file");
    std::fs::write(dir.path().join("other.rs"), "").expect("a file");
    assert_eq!(split_modules(dir.path()), [dir.path().join("shape.rs")]);
}

/// The most top-level entries (files and folders, `mod.rs` among them) the build's folder holds,
/// so that it stays grouped by concern (see the table in `generator/src/build/mod.rs`).
const BUILD_ENTRIES: usize = 12;

/// The names of the files and folders directly in `dir`.
fn entries(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("a readable folder")
        .map(|entry| entry.expect("a readable entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn the_build_folder_stays_grouped() {
    let build = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/build");
    let names = entries(&build);
    assert!(names.len() <= BUILD_ENTRIES, "{} entries in {}: group them: {names:?}", names.len(), build.display());
}

#[test]
fn the_build_folder_check_counts_files_and_folders() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    std::fs::create_dir(dir.path().join("pages")).expect("a folder");
    std::fs::write(dir.path().join("mod.rs"), "").expect("a file");
    assert_eq!(entries(dir.path()), ["mod.rs", "pages"]);
}

/// A dependency of one of core's top-level modules on another, with where it is written.
#[derive(Debug, Clone)]
struct Edge {
    from: String,
    to: String,
    at: String,
}

/// The part of a source file that is built outside tests: the text before its `#[cfg(test)] mod`,
/// with comment lines blanked (a doc link is no dependency) and line numbers kept.
fn production_code(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let end = lines
        .windows(2)
        .position(|pair| pair[0].trim() == "#[cfg(test)]" && pair[1].trim_start().starts_with("mod "))
        .unwrap_or(lines.len());
    let kept = lines[..end].iter().map(|line| if line.trim_start().starts_with("//") { "" } else { line });
    kept.collect::<Vec<_>>().join("\n")
}

/// The top-level modules a piece of code names, each with the byte offset where it is named:
/// `crate::x` paths, and each branch of a `crate::{x::.., y}` group (which may span lines).
fn named_modules(code: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    for (at, _) in code.match_indices("crate::") {
        if code[..at].chars().next_back().is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let rest = &code[at + "crate::".len()..];
        let Some(group) = rest.strip_prefix('{') else {
            found.extend(first_word(rest).map(|word| (at, word)));
            continue;
        };
        let (mut depth, mut start) = (0, 0);
        for (i, c) in group.char_indices() {
            let branch_ends = match c {
                '{' => {
                    depth += 1;
                    false
                }
                '}' if depth > 0 => {
                    depth -= 1;
                    false
                }
                '}' => true,
                ',' => depth == 0,
                _ => false,
            };
            if branch_ends {
                found.extend(first_word(&group[start..i]).map(|word| (at, word)));
                start = i + 1;
            }
            if c == '}' && depth == 0 && branch_ends {
                break;
            }
        }
    }
    found
}

/// The identifier a path starts with (`self` names the crate itself).
fn first_word(text: &str) -> Option<String> {
    let word: String = text.trim_start().chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
    (!word.is_empty() && word != "self").then_some(word)
}

/// Every dependency between different top-level modules of the crate under `src`, from its
/// production code (a path to an item of `lib.rs` names no module).
fn module_edges(src: &Path) -> Vec<Edge> {
    let mut edges = Vec::new();
    for entry in walkdir::WalkDir::new(src).sort_by_file_name().into_iter().filter_map(Result::ok) {
        let path = entry.path();
        if path.extension().is_none_or(|e| e != "rs") || path.file_name().is_some_and(|n| n == "tests.rs") {
            continue;
        }
        let relative = path.strip_prefix(src).expect("under src").to_string_lossy().replace('\\', "/");
        let from = relative.split('/').next().unwrap_or_default().trim_end_matches(".rs").to_string();
        let code = production_code(&std::fs::read_to_string(path).expect("a readable source file"));
        for (at, to) in named_modules(&code) {
            // An item of the crate's root (`crate::API_VERSION`) depends on nothing.
            let is_module = src.join(format!("{to}.rs")).is_file() || src.join(&to).is_dir();
            if to != from && is_module {
                let line = code[..at].matches('\n').count() + 1;
                edges.push(Edge { from: from.clone(), to, at: format!("{relative}:{line}") });
            }
        }
    }
    edges
}

/// The groups of two or more modules that reach each other (Tarjan's strongly connected
/// components) over `edges`, each group sorted.
fn cycles<'a>(edges: &'a [Edge]) -> Vec<Vec<String>> {
    let mut next: BTreeMap<&'a str, BTreeSet<&'a str>> = BTreeMap::new();
    for edge in edges {
        next.entry(&edge.from).or_default().insert(&edge.to);
        next.entry(&edge.to).or_default();
    }
    let reach = |from: &'a str| {
        let mut seen = BTreeSet::from([from]);
        let mut todo = vec![from];
        while let Some(node) = todo.pop() {
            for &to in &next[node] {
                if seen.insert(to) {
                    todo.push(to);
                }
            }
        }
        seen
    };
    let reached: BTreeMap<&str, BTreeSet<&str>> = next.keys().map(|&node| (node, reach(node))).collect();
    let mut groups: BTreeSet<Vec<String>> = BTreeSet::new();
    for (&node, seen) in &reached {
        let group: Vec<String> =
            seen.iter().filter(|other| reached[*other].contains(node)).map(|s| (*s).to_string()).collect();
        if group.len() > 1 {
            groups.insert(group);
        }
    }
    groups.into_iter().collect()
}

#[test]
fn core_modules_form_no_cycle() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../core/src");
    let edges = module_edges(&src);
    let found = cycles(&edges);
    let report: Vec<String> = found
        .iter()
        .map(|group| {
            let inside = edges.iter().filter(|e| group.contains(&e.from) && group.contains(&e.to));
            let lines: Vec<String> = inside.map(|e| format!("  {} -> {} at core/src/{}", e.from, e.to, e.at)).collect();
            format!("{group:?}:\n{}", lines.join("\n"))
        })
        .collect();
    assert!(found.is_empty(), "core's modules depend on each other in a circle:\n{}", report.join("\n"));
}

/// Core's top-level modules in the order docs/architecture.md gives them, bottom first: the
/// names in code spans between "bottom first:" and the next `;`.
fn documented_order(architecture: &str) -> Vec<String> {
    let start = architecture.find("bottom first:").expect("the order of core's modules in docs/architecture.md");
    let list = &architecture[start..];
    let list = &list[..list.find(';').unwrap_or(list.len())];
    list.split('`').skip(1).step_by(2).map(str::to_string).collect()
}

/// The edges of `edges` that do not point down `order` (or leave it), but those of `testing`,
/// which is built for tests only.
fn against_the_order(edges: &[Edge], order: &[String]) -> Vec<String> {
    let rank = |module: &str| order.iter().position(|named| named == module);
    let upward = |edge: &&Edge| match (rank(&edge.from), rank(&edge.to)) {
        (Some(from), Some(to)) => from < to,
        _ => true,
    };
    let kept = edges.iter().filter(|edge| edge.from != "testing").filter(upward);
    kept.map(|e| format!("  {} -> {} at core/src/{}", e.from, e.to, e.at)).collect()
}

#[test]
fn core_modules_depend_down_the_documented_order() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let architecture = std::fs::read_to_string(root.join("docs/architecture.md")).expect("docs/architecture.md");
    let order = documented_order(&architecture);
    let wrong = against_the_order(&module_edges(&root.join("core/src")), &order);
    assert!(wrong.is_empty(), "against the order {order:?} of docs/architecture.md:\n{}", wrong.join("\n"));
}

#[test]
fn the_order_check_reads_the_paragraph_and_finds_an_upward_edge() {
    let order = documented_order("Modules, bottom first: `a` (no `b` here... no), `c`; `d` later.");
    assert_eq!(order, ["a", "b", "c"]);
    let edge = |from: &str, to: &str| Edge { from: from.into(), to: to.into(), at: "x.rs:1".into() };
    assert!(against_the_order(&[edge("c", "a"), edge("testing", "c")], &order).is_empty());
    assert_eq!(against_the_order(&[edge("a", "c"), edge("c", "z")], &order).len(), 2);
}

#[test]
fn the_cycle_check_reads_groups_and_finds_a_circle() {
    let code = "use crate::{a::x, b::{y, z}};\nfn f() { crate::c::g(); my_crate::d(); }\n// crate::e\n";
    let names: Vec<String> = named_modules(&production_code(code)).into_iter().map(|(_, name)| name).collect();
    assert_eq!(names, ["a", "b", "c"]);
    let edge = |from: &str, to: &str| Edge { from: from.into(), to: to.into(), at: String::new() };
    let found = cycles(&[edge("a", "b"), edge("b", "c"), edge("c", "a"), edge("c", "d")]);
    assert_eq!(found, [vec!["a".to_string(), "b".into(), "c".into()]]);
}

/// Where page URLs may be written as text: the routing module that owns them, and the record
/// URLs of `content::collections` (the content model sits below routing).
const PAGE_URL_OWNERS: [&str; 2] = ["core/src/routing/", "core/src/content/collections.rs"];

#[test]
fn page_urls_are_written_only_in_the_routing_module() {
    use portal_core::routing::pages;
    let urls = [pages::SEARCH, pages::WEATHER, pages::MAP, pages::ENCYCLOPEDIA, pages::DATA, pages::ALERTS];
    let urls = urls.into_iter().chain(portal_core::routing::FORM_PAGES);
    let quoted: Vec<String> = urls.flat_map(|url| [format!("\"{url}\""), format!("\"{url}?")]).collect();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut found = Vec::new();
    for source in ["core/src", "generator/src"] {
        for entry in walkdir::WalkDir::new(root.join(source)).sort_by_file_name().into_iter().filter_map(Result::ok) {
            let relative = entry.path().strip_prefix(&root).expect("under root").to_string_lossy().replace('\\', "/");
            if !relative.ends_with(".rs")
                || relative.ends_with("tests.rs")
                || PAGE_URL_OWNERS.iter().any(|o| relative.starts_with(o))
            {
                continue;
            }
            let code = production_code(&std::fs::read_to_string(entry.path()).expect("a readable source file"));
            for (number, line) in code.lines().enumerate() {
                if let Some(url) = quoted.iter().find(|url| line.contains(url.as_str())) {
                    found.push(format!("{relative}:{}: {url}", number + 1));
                }
            }
        }
    }
    assert!(found.is_empty(), "take these page URLs from `portal_core::routing::pages`:\n{}", found.join("\n"));
}
