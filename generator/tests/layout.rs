//! The source tree keeps the house's rules (CONTRIBUTING.md): a module with submodules is a folder
//! with its `mod.rs`, never a `foo.rs` beside a `foo/`, so a module is found in one place; and the
//! build's folder holds at most a dozen entries, grouped by concern.

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
