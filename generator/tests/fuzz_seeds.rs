//! Every fuzz target (fuzz/fuzz_targets, see fuzz/README.md) run on its committed seeds and on the
//! inputs that once crashed it (fuzz/seeds/<target>, fuzz/artifacts/<target>), as part of `cargo
//! test`: the regressions cargo fuzz found stay fixed without the fuzz build, which is a compile of
//! its own. Fuzzing for new inputs is `scripts/fuzz` (docs/development.md#fuzzing).
//!
//! The target files compile here unchanged: `libfuzzer_sys` is this crate, whose `fuzz_target!`
//! makes the target's body a function of the bytes libFuzzer would hand it.

// Each request-level target declares the harness module itself (each is a binary of its own there).
#![allow(clippy::duplicate_mod)]

extern crate self as libfuzzer_sys;

use std::path::Path;
use std::process::Command;
use std::sync::OnceLock;

/// `fuzz_target!(|input: T| body)` as `pub fn run(bytes: &[u8])`: bytes as they are for `&[u8]`,
/// otherwise `T` made from them the way libfuzzer-sys does (`Arbitrary::arbitrary_take_rest`).
#[macro_export]
macro_rules! fuzz_target {
    (|$data:ident: &[u8]| $body:block) => {
        pub fn run($data: &[u8]) $body
    };
    (|$data:ident: $ty:ty| $body:block) => {
        pub fn run(bytes: &[u8]) {
            let input = arbitrary::Unstructured::new(bytes);
            if let Ok($data) = <$ty as arbitrary::Arbitrary>::arbitrary_take_rest(input) $body
        }
    };
}

macro_rules! targets {
    ($($name:ident: $file:literal),* $(,)?) => {
        $(
            #[allow(unused_attributes, unused_imports, dead_code)]
            #[path = $file]
            mod $name;

            #[test]
            fn $name() {
                replay(stringify!($name), $name::run);
            }
        )*

        #[test]
        fn every_target_is_replayed() {
            let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/fuzz_targets");
            let mut files: Vec<String> = std::fs::read_dir(&folder)
                .expect("fuzz/fuzz_targets reads")
                .flatten()
                .filter_map(|entry| entry.file_name().to_str()?.strip_suffix(".rs").map(str::to_string))
                .filter(|name| name != "harness")
                .collect();
            files.sort();
            assert_eq!(files, [$(stringify!($name)),*], "add the new target to targets! above");
        }
    };
}

targets!(
    bodies: "../../fuzz/fuzz_targets/bodies.rs",
    content_geojson: "../../fuzz/fuzz_targets/content_geojson.rs",
    content_record: "../../fuzz/fuzz_targets/content_record.rs",
    csv_writer: "../../fuzz/fuzz_targets/csv_writer.rs",
    mcp: "../../fuzz/fuzz_targets/mcp.rs",
    request: "../../fuzz/fuzz_targets/request.rs",
    search_query: "../../fuzz/fuzz_targets/search_query.rs",
    twin_cleaner: "../../fuzz/fuzz_targets/twin_cleaner.rs",
);

/// Runs `run` on every seed and crash input of `target`, naming the file of any that fails.
fn replay(target: &str, run: fn(&[u8])) {
    dist();
    let fuzz = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz");
    let mut inputs = Vec::new();
    for folder in ["seeds", "artifacts"] {
        if let Ok(entries) = std::fs::read_dir(fuzz.join(folder).join(target)) {
            inputs.extend(entries.flatten().map(|entry| entry.path()).filter(|path| path.is_file()));
        }
    }
    inputs.sort();
    // The empty input, which every target must take too, then the files.
    let mut cases = vec![("the empty input".to_string(), Vec::new())];
    for path in inputs {
        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        cases.push((path.display().to_string(), bytes));
    }
    for (name, bytes) in cases {
        if std::panic::catch_unwind(|| run(&bytes)).is_err() {
            panic!("fuzz target {target} fails on {name} (reproduce: scripts/fuzz {target})");
        }
    }
}

/// The request-level targets answer from the conformance build, where `scripts/fuzz` finds it
/// (`target/conformance-dist`, fuzz/fuzz_targets/harness.rs): written here once per test binary
/// exactly as `scripts/test` writes it, so a build left by another version of portal is replaced.
fn dist() {
    static BUILT: OnceLock<()> = OnceLock::new();
    BUILT.get_or_init(|| {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let built = Command::new(env!("CARGO_BIN_EXE_portal"))
            .arg("build")
            .arg("--content")
            .arg(root.join("fixtures/site"))
            .arg("--out")
            .arg(root.join("target/conformance-dist"))
            .args(["--split-over", "4096", "--pack-over", "0"])
            .env("SOURCE_DATE_EPOCH", "1790000000")
            .output()
            .expect("portal runs");
        assert!(built.status.success(), "the fixture builds: {}", String::from_utf8_lossy(&built.stderr));
    });
}
