//! Incremental builds are exact (docs/deploying.md#rebuilds-and-the-build-cache): after every step
//! of random edit sequences, a build into the folder of the previous build equals a clean build of
//! the same content, byte for byte (with SOURCE_DATE_EPOCH), the build cache aside; when a step
//! breaks the content, both builds fail alike, and the next good step is exact again.
//!
//! The edits: add, edit, delete and rename records in several collections (dates, titles, tags and
//! categories changing, so listings reorder and tag pages come and go), draft on and off, records
//! whose body links a record that comes and goes, translations joining a group, events with dates,
//! pages at the site's root and at the URLs of generated pages (which they introduce), encyclopedia
//! entries added and removed and their `related` changed, a dataset, a duplicate slug (an error),
//! site.yaml and a template; rows of a CSV source edited, added and deleted, one sometimes taking
//! a record file's slug (an error). The site has a `cms:` block, and records come with keys of their own,
//! so the CMS's configuration (made from every record's keys and categories) is remade too. Half of the sequences build the layout a big site deploys (small files
//! packed, files over 4 KiB in parts), so packs and parts are patched too.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A small deterministic generator (xorshift), so a failing sequence can be replayed by its seed.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }

    fn pick<'a>(&mut self, items: &'a [&'a str]) -> &'a str {
        items[self.below(items.len())]
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
        .map(|(name, path)| (name, std::fs::read(path).expect("read")))
        .collect()
}

/// The sites a sequence builds: the content, templates and the layout flags.
struct Site {
    content: PathBuf,
    templates: PathBuf,
    layout: Vec<&'static str>,
}

fn build(site: &Site, out: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_portal"))
        .args(["build", "--content"])
        .arg(&site.content)
        .arg("--templates")
        .arg(&site.templates)
        .arg("--out")
        .arg(out)
        .args(&site.layout)
        .env("SOURCE_DATE_EPOCH", "1790000000")
        .output()
        .expect("portal runs")
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    std::fs::write(path, text).expect("write");
}

const COLLECTIONS: &[&str] = &["news", "events", "docs", "services", "pages", "jobs"];
const TAGS: &[&str] = &["water", "health", "Santé", "school", "clean water", "clean-water"];
const CATEGORIES: &[&str] = &["health", "law", "education"];

/// A record of `collection` made at `step`: a date, tags, a category, sometimes a link to another
/// record, a translation key, an event time.
fn record(rng: &mut Rng, step: usize, collection: &str) -> String {
    let mut front = format!("title: Record {step} of {collection}\n");
    front.push_str(&format!("date: 2026-{:02}-{:02}\n", 1 + rng.below(12), 1 + rng.below(28)));
    front.push_str(&format!("tags: [{}, {}]\n", rng.pick(TAGS), rng.pick(TAGS)));
    front.push_str(&format!("category: {}\n", rng.pick(CATEGORIES)));
    if rng.below(3) == 0 {
        front.push_str("translation_key: shared-story\nlanguage: sw\n");
    }
    if collection == "events" {
        front.push_str(&format!("start: 2026-{:02}-10\n", 1 + rng.below(12)));
    }
    // A key of the record's own, whose kind varies: the CMS gives it the widget of its values.
    match rng.below(4) {
        0 => front.push_str(&format!("capacity: {}\n", rng.below(100))),
        1 => front.push_str("capacity: many\n"),
        _ => {}
    }
    let link = format!("See [the other one](/news/added-{}) and [jobs](/jobs).", rng.below(step.max(1)));
    format!("---\n{front}---\nBody of step {step}. {link}\n")
}

/// The CSV source of the sites, and its header.
const SOURCE: &str = "sources/directory.csv";
const SOURCE_HEADER: &str = "ID,Service Name,Summary,Category,Tags,Phone";

/// A row of the source made at `step`.
fn row(rng: &mut Rng, id: &str, step: usize) -> String {
    let tags = format!("\"{}, {}\"", rng.pick(TAGS), rng.pick(TAGS));
    format!("{id},Service {id},Summary at step {step},{},{tags},+256 700 {step:06}", rng.pick(CATEGORIES))
}

/// One random edit; returns what it did, for the failure message.
fn edit(rng: &mut Rng, site: &Site, added: &mut Vec<PathBuf>, step: usize) -> String {
    let content = &site.content;
    match rng.below(18) {
        0..=2 => {
            let collection = if rng.below(2) == 0 { "news" } else { rng.pick(COLLECTIONS) };
            let file = content.join(collection).join(format!("added-{step}.md"));
            write(&file, &record(rng, step, collection));
            added.push(file.clone());
            format!("add {}", file.display())
        }
        3 if !added.is_empty() => {
            let file = &added[rng.below(added.len())];
            let collection = file.parent().and_then(Path::file_name).map(|n| n.to_string_lossy().into_owned());
            write(file, &record(rng, step, &collection.unwrap_or_default()));
            format!("rewrite {}", file.display())
        }
        4 => {
            let file = content.join("news/clinic-hours.md");
            let text = std::fs::read_to_string(&file).expect("read") + &format!("\nMore on step {step}.\n");
            write(&file, &text);
            "edit news/clinic-hours.md".into()
        }
        5 if !added.is_empty() => {
            let file = added.remove(rng.below(added.len()));
            std::fs::remove_file(&file).expect("remove");
            format!("delete {}", file.display())
        }
        6 if !added.is_empty() => {
            let at = rng.below(added.len());
            let renamed = added[at].with_file_name(format!("renamed-{step}.md"));
            std::fs::rename(&added[at], &renamed).expect("rename");
            added[at] = renamed;
            format!("rename to {}", added[at].display())
        }
        7 if !added.is_empty() => {
            let file = &added[rng.below(added.len())];
            let text = std::fs::read_to_string(file).expect("read");
            let toggled = match text.strip_prefix("---\ndraft: true\n") {
                Some(rest) => format!("---\n{rest}"),
                None => text.replacen("---\n", "---\ndraft: true\n", 1),
            };
            write(file, &toggled);
            format!("toggle draft in {}", file.display())
        }
        8 => {
            let file = content.join(format!("encyclopedia/added-{step}.md"));
            let related = if rng.below(2) == 0 { "related: [asylum]\n" } else { "" };
            let text = format!(
                "---\ntitle: Entry {step}\ntags: [{}]\n{related}sources:\n  - title: S\n    url: https://example.org/s\n---\nAbout {step}.\n",
                rng.pick(TAGS)
            );
            write(&file, &text);
            added.push(file.clone());
            format!("add {}", file.display())
        }
        9 => {
            let file = content.join("encyclopedia/asylum.md");
            let text = std::fs::read_to_string(&file).expect("read");
            let text = if text.contains("related: [non-refoulement]\n") {
                text.replace("related: [non-refoulement]\n", "related: [non-refoulement, education]\n")
            } else {
                text.replace("related: [non-refoulement, education]\n", "related: [non-refoulement]\n")
            };
            write(&file, &text);
            "change the related entries of asylum".into()
        }
        10 => {
            let file = content.join("data/alerts.yaml");
            let text = std::fs::read_to_string(&file).expect("read") + &format!("# step {step}\n");
            write(&file, &text);
            "edit a dataset".into()
        }
        11 => {
            let file = content.join("news/duplicate.md");
            if file.exists() {
                std::fs::remove_file(&file).expect("remove");
                "remove the duplicate slug".into()
            } else {
                write(&file, "---\ntitle: Twin\nslug: clinic-hours\n---\nSame slug.\n");
                "add a duplicate slug".into()
            }
        }
        12 => {
            let file = content.join("news/target.md");
            if file.exists() {
                std::fs::remove_file(&file).expect("remove");
                "remove the record docs/linker.md links to".into()
            } else {
                write(&file, "---\ntitle: Target\n---\nLinked from a doc.\n");
                "add the record docs/linker.md links to".into()
            }
        }
        13 => {
            let file = content.join("site.yaml");
            let text = std::fs::read_to_string(&file).expect("read").replacen("title: ", &format!("title: {step} "), 1);
            write(&file, &text);
            "change the site title".into()
        }
        14 => {
            // A page at the URL of a generated page (a listing, a form, the tags index) comes or
            // goes, or changes: the page it introduces changes with it.
            let url = rng.pick(&["services", "visit", "tags", "search", "news"]);
            let file = content.join(format!("pages/{url}.md"));
            if file.exists() && rng.below(2) == 0 {
                std::fs::remove_file(&file).expect("remove");
                format!("remove the introduction of /{url}")
            } else {
                write(
                    &file,
                    &format!("---\ntitle: About {url} at step {step}\nsummary: S {step}\n---\nIntro {step}.\n"),
                );
                format!("introduce /{url}")
            }
        }
        15 => {
            // A row of the source changes: its summary, category and tags.
            let file = content.join(SOURCE);
            let mut lines: Vec<String> =
                std::fs::read_to_string(&file).expect("read").lines().map(String::from).collect();
            let at = 1 + rng.below(lines.len() - 1);
            let id = lines[at].split(',').next().unwrap_or_default().to_string();
            lines[at] = row(rng, &id, step);
            write(&file, &(lines.join("\n") + "\n"));
            format!("edit the row of {id}")
        }
        16 => {
            // A row comes or goes; some take the slug of a record file.
            let file = content.join(SOURCE);
            let mut lines: Vec<String> =
                std::fs::read_to_string(&file).expect("read").lines().map(String::from).collect();
            if lines.len() > 2 && rng.below(3) == 0 {
                let gone = lines.remove(1 + rng.below(lines.len() - 1));
                write(&file, &(lines.join("\n") + "\n"));
                return format!("delete the row {gone}");
            }
            if let Some(at) = lines.iter().position(|line| line.starts_with("legal-aid,")) {
                lines.remove(at);
                write(&file, &(lines.join("\n") + "\n"));
                return "remove the row taking legal-aid's slug".into();
            }
            let id = if rng.below(5) == 0 { "legal-aid".to_string() } else { format!("row-{step}") };
            lines.push(row(rng, &id, step));
            write(&file, &(lines.join("\n") + "\n"));
            format!("add the row of {id}")
        }
        _ => {
            let base = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../templates/base.html"))
                .expect("the built-in base template");
            write(
                &site.templates.join("base.html"),
                &base.replacen("</body>", &format!("<!-- step {step} --></body>"), 1),
            );
            "change the base template".into()
        }
    }
}

fn sequence(seed: u64, layout: Vec<&'static str>) -> usize {
    let dir = tempfile::tempdir().expect("temp dir");
    let site = Site { content: dir.path().join("content"), templates: dir.path().join("templates"), layout };
    let dist = dir.path().join("dist");
    copy_tree(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/site"), &site.content);
    std::fs::create_dir_all(&site.templates).expect("mkdir");
    let settings = std::fs::read_to_string(site.content.join("site.yaml")).expect("site.yaml");
    let source = format!("sources: [{{collection: services, from: {SOURCE}, id: ID, map: {{title: Service Name}}}}]");
    write(&site.content.join("site.yaml"), &format!("{settings}\ncms: {{repo: amani/portal, app: decap}}\n{source}\n"));
    let rows =
        ["first", "second", "third"].map(|id| format!("{id},Service {id},About {id},health,water,+256 700 000 001"));
    write(&site.content.join(SOURCE), &format!("{SOURCE_HEADER}\n{}\n", rows.join("\n")));
    write(&site.content.join("docs/linker.md"), "---\ntitle: Linker\n---\nSee [the target](/news/target).\n");
    assert!(build(&site, &dist).status.success());
    let (mut rng, mut added, mut done, mut rebuilt) =
        (Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1), Vec::new(), Vec::new(), 0);
    for step in 0..16 {
        done.push(edit(&mut rng, &site, &mut added, step));
        let incremental = build(&site, &dist);
        let clean_dir = dir.path().join(format!("clean-{step}"));
        let clean = build(&site, &clean_dir);
        assert_eq!(incremental.status.success(), clean.status.success(), "seed {seed}, after {done:?}");
        if !clean.status.success() {
            assert_eq!(incremental.stderr, clean.stderr, "seed {seed}, after {done:?}: the same errors");
            continue;
        }
        rebuilt += usize::from(String::from_utf8_lossy(&incremental.stdout).contains("portal: rebuilt"));
        let (incremental, expected) = (tree(&dist), tree(&clean_dir));
        let differing: Vec<&String> = expected
            .keys()
            .chain(incremental.keys())
            .filter(|name| incremental.get(*name) != expected.get(*name))
            .collect();
        assert!(differing.is_empty(), "seed {seed}, after {done:?}: {differing:?} differ");
        std::fs::remove_dir_all(&clean_dir).expect("cleanup");
    }
    rebuilt
}

/// Two sequences of edits, one with the default layout and one with every small file packed and
/// every large one split, checked against clean builds step by step.
fn check(seeds: [u64; 2]) {
    let packed = vec!["--pack-over", "0", "--split-over", "4096"];
    let rebuilt = sequence(seeds[0], vec![]) + sequence(seeds[1], packed);
    assert!(rebuilt >= 10, "most steps reuse the last build ({rebuilt} did)");
}

// Two tests rather than one, so the test harness runs them side by side on two cores.
#[test]
fn every_incremental_build_equals_a_clean_build() {
    check([7, 1234]);
}

#[test]
fn every_incremental_build_equals_a_clean_build_other_seeds() {
    check([99_991, 5]);
}
