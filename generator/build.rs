//! Gives the binary a build id: a hash of the sources and templates it was compiled from, so the
//! build cache (`.portal/cache/`) never reuses work of a different binary, even one with the
//! same version number.

use std::collections::hash_map::DefaultHasher;
use std::hash::Hasher;
use std::path::Path;

fn main() {
    let mut hasher = DefaultHasher::new();
    for root in ["src", "../core/src", "../templates", "starter"] {
        println!("cargo:rerun-if-changed={root}");
        hash_tree(Path::new(root), &mut hasher);
    }
    println!("cargo:rustc-env=PORTAL_BUILD_ID={}-{:016x}", env!("CARGO_PKG_VERSION"), hasher.finish());
}

fn hash_tree(path: &Path, hasher: &mut DefaultHasher) {
    let Ok(entries) = std::fs::read_dir(path) else { return };
    let mut entries: Vec<_> = entries.filter_map(Result::ok).map(|e| e.path()).collect();
    entries.sort();
    for entry in entries {
        if entry.is_dir() {
            hash_tree(&entry, hasher);
        } else if let Ok(bytes) = std::fs::read(&entry) {
            hasher.write(entry.to_string_lossy().as_bytes());
            hasher.write(&bytes);
        }
    }
}
