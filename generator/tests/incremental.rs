//! Incremental builds are exact (issue 19): after every step of random edit sequences (add, edit,
//! delete, rename, draft on and off, a site.yaml change, a template change, an encyclopedia
//! `related` change), a build into the folder of the previous build equals a clean build of the
//! same content, byte for byte (with SOURCE_DATE_EPOCH), the build cache aside.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A small deterministic generator (xorshift), so a failing sequence can be replayed by its seed.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

fn copy_tree(from: &Path, to: &Path) {
    for entry in walkdir::WalkDir::new(from).into_iter().filter_map(Result::ok) {
        let target = to.join(entry.path().strip_prefix(from).expect("inside"));
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&target).expect("mkdir");
        } else {
            std::fs::copy(entry.path(), &target).expect("copy");
        }
    }
}

/// Every file of a build but the cache, by path.
fn tree(dist: &Path) -> BTreeMap<String, Vec<u8>> {
    walkdir::WalkDir::new(dist)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .map(|e| {
            (
                e.path().strip_prefix(dist).expect("inside").to_string_lossy().replace(std::path::MAIN_SEPARATOR, "/"),
                e.into_path(),
            )
        })
        .filter(|(name, _)| !name.starts_with("_portal/cache/"))
        .map(|(name, path)| (name, std::fs::read(path).expect("read")))
        .collect()
}

fn build(content: &Path, templates: &Path, out: &Path) {
    let status = Command::new(env!("CARGO_BIN_EXE_portal"))
        .args(["build", "--content"])
        .arg(content)
        .arg("--templates")
        .arg(templates)
        .arg("--out")
        .arg(out)
        .env("SOURCE_DATE_EPOCH", "1790000000")
        .output()
        .expect("portal runs");
    assert!(status.status.success(), "{}", String::from_utf8_lossy(&status.stderr));
}

/// One random edit of the content (or the templates); returns what it did, for the failure message.
fn edit(rng: &mut Rng, content: &Path, templates: &Path, added: &mut Vec<PathBuf>, step: usize) -> String {
    let news = content.join("news");
    match rng.below(8) {
        0 => {
            let file = news.join(format!("added-{step}.md"));
            let text = format!(
                "---\ntitle: Added {step}\ndate: 2026-11-{:02}\ntags: [step-{step}]\n---\nBody {step}.\n",
                1 + step % 28
            );
            std::fs::write(&file, text).expect("write");
            added.push(file);
            format!("add news/added-{step}.md")
        }
        1 => {
            let file = news.join("clinic-hours.md");
            let text = std::fs::read_to_string(&file).expect("read") + &format!("\nMore on step {step}.\n");
            std::fs::write(&file, text).expect("write");
            "edit news/clinic-hours.md".into()
        }
        2 if !added.is_empty() => {
            let file = added.remove(rng.below(added.len()));
            std::fs::remove_file(&file).expect("remove");
            format!("delete {}", file.display())
        }
        3 if !added.is_empty() => {
            let at = rng.below(added.len());
            let renamed = news.join(format!("renamed-{step}.md"));
            std::fs::rename(&added[at], &renamed).expect("rename");
            added[at] = renamed;
            format!("rename to news/renamed-{step}.md")
        }
        4 if !added.is_empty() => {
            let file = &added[rng.below(added.len())];
            let text = std::fs::read_to_string(file).expect("read");
            let toggled = match text.strip_prefix("---\ndraft: true\n") {
                Some(rest) => format!("---\n{rest}"),
                None => text.replacen("---\n", "---\ndraft: true\n", 1),
            };
            std::fs::write(file, toggled).expect("write");
            format!("toggle draft in {}", file.display())
        }
        5 => {
            let file = content.join("site.yaml");
            let text = std::fs::read_to_string(&file).expect("read");
            let text = text.replacen("title: ", &format!("title: {step} "), 1);
            std::fs::write(&file, text).expect("write");
            "change the site title".into()
        }
        6 => {
            let base = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../templates/base.html"))
                .expect("the built-in base template");
            let changed = base.replacen("</body>", &format!("<!-- step {step} --></body>",), 1);
            std::fs::write(templates.join("base.html"), changed).expect("write");
            "change the base template".into()
        }
        _ => {
            let file = content.join("encyclopedia/asylum.md");
            let text = std::fs::read_to_string(&file).expect("read");
            let text = if text.contains("related: [non-refoulement]\n") {
                text.replace("related: [non-refoulement]\n", "related: [non-refoulement, education]\n")
            } else {
                text.replace("related: [non-refoulement, education]\n", "related: [non-refoulement]\n")
            };
            std::fs::write(&file, text).expect("write");
            "change the related entries of asylum".into()
        }
    }
}

#[test]
fn every_incremental_build_equals_a_clean_build() {
    for seed in [7_u64, 1234, 99_991] {
        let dir = tempfile::tempdir().expect("temp dir");
        let (content, templates, dist) =
            (dir.path().join("content"), dir.path().join("templates"), dir.path().join("dist"));
        copy_tree(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/site"), &content);
        std::fs::create_dir_all(&templates).expect("mkdir");
        build(&content, &templates, &dist);
        let (mut rng, mut added, mut done) =
            (Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1), Vec::new(), Vec::new());
        for step in 0..8 {
            done.push(edit(&mut rng, &content, &templates, &mut added, step));
            build(&content, &templates, &dist);
            let clean = dir.path().join(format!("clean-{step}"));
            build(&content, &templates, &clean);
            let (incremental, expected) = (tree(&dist), tree(&clean));
            let differing: Vec<&String> = expected
                .keys()
                .chain(incremental.keys())
                .filter(|name| incremental.get(*name) != expected.get(*name))
                .collect();
            assert!(differing.is_empty(), "seed {seed}, after {done:?}: {differing:?} differ");
            std::fs::remove_dir_all(&clean).expect("cleanup");
        }
        assert!(dist.join("_portal/cache/pages").is_dir(), "the cache was kept");
    }
}
