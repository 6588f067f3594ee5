//! The search engine alone, without HTTP: index build time and the latency of distinct queries over
//! a corpus written by `bench/corpus.py`. A benchmark, so ignored by default:
//!
//! ```text
//! python3 bench/corpus.py --records 100000 --out target/bench/corpus-100000
//! python3 bench/search.py --print-queries > target/bench/queries.txt
//! PORTAL_BENCH_CORPUS=$PWD/target/bench/corpus-100000 PORTAL_BENCH_QUERIES=$PWD/target/bench/queries.txt \
//!     cargo test --release -p portal-core --test search_bench -- --ignored --nocapture
//! ```
//!
//! `PORTAL_BENCH_DIST=<build folder>` opens the index a `portal build` wrote instead of building
//! one; `PORTAL_BENCH_PLAN=K,MAX` cuts segments with another boundary and maximum than the build's
//! (what the choice in `search::plan` was measured with); `PORTAL_BENCH_ROUNDS=n` repeats the
//! queries; `PORTAL_BENCH_PAUSE_US=n` pauses between queries as a server idles between requests
//! (on the 2-core VM this alone makes a query about 1.7 times slower); `PORTAL_BENCH_SETTLE_S=n`
//! waits n seconds before the first query (the lexicon is built in the background meanwhile); `PORTAL_BENCH_SLOWEST=1`
//! lists the slowest queries; `PORTAL_BENCH_FORGIVING=1` runs the search page's forgiving search
//! (word forms in English and French; typos and partial matches when nothing matches) instead of
//! the API's.

use std::path::Path;
use std::time::Instant;

use portal_core::content::collections::{COLLECTIONS, ENCYCLOPEDIA};
use portal_core::search::pack::{PackManifest, INDEX_MANIFEST};
use portal_core::search::plan::{plan_with, MAX_SEGMENT_DOCS, SEGMENT_BOUNDARY};
use portal_core::search::schema::words;
use portal_core::search::writer::SearchDoc;
use portal_core::search::{build_segment, index_manifest, SearchIndex, Segment, SegmentMeta};

/// A corpus file's front matter value (`title: "x"`, `tags: [a, b]`).
fn field<'a>(front: &'a str, name: &str) -> Option<&'a str> {
    front.lines().find_map(|line| line.strip_prefix(name)?.strip_prefix(": ")).map(|v| v.trim_matches('"'))
}

fn load(folder: &Path) -> Vec<SearchDoc> {
    let mut docs = Vec::new();
    let mut collections: Vec<_> = std::fs::read_dir(folder).expect("corpus").flatten().map(|e| e.path()).collect();
    collections.sort();
    for dir in collections.into_iter().filter(|p| p.is_dir()) {
        let name = dir.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_string();
        let collection = if name == "encyclopedia" { ENCYCLOPEDIA.to_string() } else { name };
        for file in std::fs::read_dir(&dir).expect("collection").flatten() {
            let text = std::fs::read_to_string(file.path()).expect("record");
            let mut parts = text.splitn(3, "---\n");
            let (_, front, body) = (parts.next(), parts.next().unwrap_or(""), parts.next().unwrap_or(""));
            let id = file.path().file_stem().and_then(|s| s.to_str()).unwrap_or_default().to_string();
            let tags = field(front, "tags").unwrap_or("[]").trim_matches(['[', ']']);
            docs.push(SearchDoc {
                url: format!("/{collection}/{id}"),
                collection: collection.clone(),
                slug: id.clone(),
                id,
                title: field(front, "title").unwrap_or_default().to_string(),
                summary: field(front, "summary").unwrap_or_default().to_string(),
                tags: tags.split(", ").map(str::to_string).collect(),
                body: body.to_string(),
                facts: String::new(),
                language: field(front, "language").unwrap_or_default().to_string(),
            });
        }
    }
    docs
}

/// The segments of `docs` cut at `boundary` and `max`, built one after the other, and the slowest
/// segment's build time in milliseconds.
fn build(mut docs: Vec<SearchDoc>, boundary: u64, max: usize) -> (Vec<Segment>, f64) {
    docs.sort_by(|a, b| (&a.collection, &a.id).cmp(&(&b.collection, &b.id)));
    let keys: Vec<(&str, &str)> = docs.iter().map(|d| (d.collection.as_str(), d.id.as_str())).collect();
    let mut slowest = 0.0f64;
    let segments = plan_with(&keys, boundary, max)
        .into_iter()
        .map(|range| {
            let started = Instant::now();
            let segment = build_segment(docs[range].to_vec()).expect("segment builds");
            slowest = slowest.max(started.elapsed().as_secs_f64() * 1000.0);
            segment
        })
        .collect();
    (segments, slowest)
}

fn open(segments: &[Segment]) -> SearchIndex {
    let metas: Vec<SegmentMeta> = segments.iter().map(Segment::meta).collect();
    let manifest: PackManifest = serde_json::from_slice(&index_manifest(&metas)).expect("manifest");
    SearchIndex::open(&manifest, segments.iter().map(Segment::bytes).collect()).expect("index opens")
}

/// The index of a build folder, as the servers open it.
fn open_dist(dist: &Path) -> (SearchIndex, usize) {
    let manifest: PackManifest =
        serde_json::from_slice(&std::fs::read(dist.join(INDEX_MANIFEST)).expect("index.json")).expect("manifest");
    let started = Instant::now();
    let files = manifest.segments.iter().map(|s| std::fs::read(dist.join(s.file())).expect("segment")).collect();
    let index = SearchIndex::open(&manifest, files).expect("index opens");
    let count = manifest.segments.iter().map(|s| s.docs as usize).sum();
    println!(
        "{}: {} segments, read and opened in {:.1} ms",
        dist.display(),
        manifest.segments.len(),
        started.elapsed().as_secs_f64() * 1000.0
    );
    (index, count)
}

/// The index of a corpus, built here (with `PORTAL_BENCH_PLAN` if set).
fn build_corpus(corpus: &Path) -> (SearchIndex, usize) {
    let docs = load(corpus);
    let count = docs.len();
    let (boundary, max) = match std::env::var("PORTAL_BENCH_PLAN") {
        Ok(plan) => {
            let (k, max) = plan.split_once(',').expect("PORTAL_BENCH_PLAN=K,MAX");
            (k.parse().expect("K"), max.parse().expect("MAX"))
        }
        Err(_) => (SEGMENT_BOUNDARY, MAX_SEGMENT_DOCS),
    };
    let started = Instant::now();
    let (segments, slowest_ms) = build(docs, boundary, max);
    let build_ms = started.elapsed().as_secs_f64() * 1000.0;
    let largest = segments.iter().map(|s| s.bytes().len()).max().unwrap_or(0);
    let total: usize = segments.iter().map(|s| s.bytes().len()).sum();
    let started = Instant::now();
    let index = open(&segments);
    let open_ms = started.elapsed().as_secs_f64() * 1000.0;
    println!(
        "K={boundary} max={max}: {} segments, {:.1} MiB, largest {:.1} MiB; build {build_ms:.0} ms (one thread), slowest segment {slowest_ms:.0} ms; open {open_ms:.1} ms",
        segments.len(),
        total as f64 / 1048576.0,
        largest as f64 / 1048576.0
    );
    (index, count)
}

#[test]
#[ignore = "a benchmark; see the module documentation"]
fn distinct_queries_over_a_corpus() {
    let Some(queries) = std::env::var_os("PORTAL_BENCH_QUERIES") else {
        panic!("set PORTAL_BENCH_QUERIES and PORTAL_BENCH_CORPUS (or PORTAL_BENCH_DIST)");
    };
    let (index, count) = match std::env::var_os("PORTAL_BENCH_DIST") {
        Some(dist) => open_dist(Path::new(&dist)),
        None => build_corpus(Path::new(&std::env::var_os("PORTAL_BENCH_CORPUS").expect("PORTAL_BENCH_CORPUS"))),
    };
    let queries = std::fs::read_to_string(queries).expect("queries");
    let scope: Vec<String> = COLLECTIONS.iter().map(|c| c.to_string()).collect();
    let rounds: usize = std::env::var("PORTAL_BENCH_ROUNDS").ok().and_then(|r| r.parse().ok()).unwrap_or(1);
    // A pause between queries, as a server has between requests (caches cool down, cores idle).
    let pause: u64 = std::env::var("PORTAL_BENCH_PAUSE_US").ok().and_then(|r| r.parse().ok()).unwrap_or(0);
    let mut times = Vec::new();
    let mut slowest: Vec<(f64, &str, usize)> = Vec::new();
    let mut matched = 0usize;
    let forgiving = std::env::var_os("PORTAL_BENCH_FORGIVING").is_some();
    let forms = portal_core::search::word_forms::Forms::new(["en", "fr"]);
    let search = |q: &str| -> Vec<(Vec<portal_core::search::Hit>, usize)> {
        if forgiving {
            index.forgiving(&words(q), &scope, 10, &forms).expect("search").found
        } else {
            index.search_collections(&words(q), &scope, 10).expect("search")
        }
    };
    search("warm up");
    // Seconds to wait first, as a server in service has (natively, the lexicon is built meanwhile).
    let settle: u64 = std::env::var("PORTAL_BENCH_SETTLE_S").ok().and_then(|r| r.parse().ok()).unwrap_or(0);
    std::thread::sleep(std::time::Duration::from_secs(settle));
    for _ in 0..rounds {
        for q in queries.lines() {
            if pause > 0 {
                std::thread::sleep(std::time::Duration::from_micros(pause));
            }
            let started = Instant::now();
            let found = search(q);
            let ms = started.elapsed().as_secs_f64() * 1000.0;
            times.push(ms);
            let total = found.iter().map(|(_, total)| total).sum::<usize>();
            matched += total;
            slowest.push((ms, q, total));
        }
    }
    if std::env::var_os("PORTAL_BENCH_SLOWEST").is_some() {
        slowest.sort_by(|a, b| b.0.total_cmp(&a.0));
        for (ms, q, total) in slowest.iter().take(15) {
            println!("  {ms:.3} ms  {q:?}  ({total} matches)");
        }
    }
    times.sort_by(f64::total_cmp);
    let at = |p: f64| times[((times.len() as f64 * p) as usize).saturating_sub(1).min(times.len() - 1)];
    let mean = times.iter().sum::<f64>() / times.len() as f64;
    println!(
        "{count} docs: {} queries: p50 {:.3} ms, p99 {:.3} ms, mean {mean:.3} ms, max {:.3} ms; {matched} matches",
        times.len(),
        at(0.5),
        at(0.99),
        at(1.0)
    );
}
