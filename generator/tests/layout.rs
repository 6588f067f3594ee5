//! The source tree keeps the house's rules (CONTRIBUTING.md): a module with submodules is a folder
//! with its `mod.rs`, never a `foo.rs` beside a `foo/`, so a module is found in one place.

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
