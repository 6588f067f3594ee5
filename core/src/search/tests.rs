//! The index as a whole: segments as pure functions of their documents, the manifest made from
//! metadata alone, and the engine ranking like tantivy's own query however the documents are cut
//! into segments.

use tantivy::{Directory, Score};

use super::collector::{Bucket, PerCollection};
use super::pack::{tantivy_meta, PackError, PackManifest};
use super::plan::plan_with;
use super::writer::{segment_id, split, SearchDoc};
use super::*;

fn doc(collection: &str, id: &str, title: &str, body: &str) -> SearchDoc {
    SearchDoc {
        collection: collection.into(),
        id: id.into(),
        slug: id.into(),
        url: format!("/{collection}/{id}"),
        title: title.into(),
        body: body.into(),
        ..SearchDoc::default()
    }
}

fn manifest(segments: &[Segment]) -> PackManifest {
    let metas: Vec<SegmentMeta> = segments.iter().map(Segment::meta).collect();
    serde_json::from_slice(&index_manifest(&metas)).expect("index.json parses")
}

/// The index of `segments`, natively with its lexicon built (the path `portal serve` takes once
/// it is; `the_lexicon_and_the_segments_dictionaries_rank_alike` checks the other).
fn open(segments: &[Segment]) -> SearchIndex {
    let index =
        SearchIndex::open(&manifest(segments), segments.iter().map(Segment::bytes).collect()).expect("index opens");
    #[cfg(not(target_arch = "wasm32"))]
    index.engine.wait_for_lexicon();
    index
}

fn index(docs: Vec<SearchDoc>) -> SearchIndex {
    open(&build(docs).expect("index builds"))
}

/// The segments of `docs` cut with another boundary and maximum than the build's.
fn built_with(mut docs: Vec<SearchDoc>, boundary: u64, max: usize) -> Vec<Segment> {
    docs.sort_by(|a, b| (&a.collection, &a.id).cmp(&(&b.collection, &b.id)));
    let keys: Vec<(&str, &str)> = docs.iter().map(|d| (d.collection.as_str(), d.id.as_str())).collect();
    let ranges = plan_with(&keys, boundary, max);
    ranges.into_iter().map(|r| build_segment(docs[r].to_vec()).expect("segment builds")).collect()
}

fn ids(index: &SearchIndex, q: &str, collection: &str) -> Vec<String> {
    let words = schema::words(q);
    index.search(&words, collection, 10).expect("search").0.into_iter().map(|h| h.slug).collect()
}

/// A deterministic corpus: a small vocabulary drawn with a skew (some words everywhere, most
/// rare), short titles, tags and bodies of various lengths, so scores spread and also tie.
fn corpus(n: usize, collections: &[&str], seed: u64) -> Vec<SearchDoc> {
    const WORDS: [&str; 24] = [
        "water", "well", "clinic", "school", "market", "maize", "harvest", "solar", "lamp", "money", "savings",
        "group", "youth", "football", "poetry", "dance", "legal", "aid", "shelter", "café", "École", "maji", "safi",
        "wasser",
    ];
    let mut state = seed;
    let mut next = move |bound: usize| {
        state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        ((state >> 33) as usize) % bound
    };
    let word = |next: &mut dyn FnMut(usize) -> usize| {
        let skewed = next(WORDS.len()).min(next(WORDS.len()));
        WORDS[skewed]
    };
    (0..n)
        .map(|i| {
            let collection = collections[i % collections.len()];
            let title: Vec<&str> = (0..1 + next(4)).map(|_| word(&mut next)).collect();
            let body: Vec<&str> = (0..next(40)).map(|_| word(&mut next)).collect();
            let tags: Vec<String> = (0..next(3)).map(|_| word(&mut next).to_string()).collect();
            SearchDoc {
                tags,
                summary: if next(2) == 0 { word(&mut next).to_string() } else { String::new() },
                ..doc(collection, &format!("r{:04}", (i * 7919) % n), &title.join(" "), &body.join(" "))
            }
        })
        .collect()
}

const QUERIES: [&str; 14] = [
    "water",
    "wa",
    "w",
    "clinic school",
    "maize ha",
    "cafe",
    "ecole ma",
    "poetry dance",
    "solar lamp money",
    "s",
    "aid le",
    "zzz",
    "water zzz",
    "group youth fo",
];

/// tantivy's own evaluation of the query through [`PerCollection`]: the reference.
fn reference(index: &SearchIndex, words: &[String], collections: &[String], limit: usize) -> Vec<Bucket> {
    let query = query::matching(&schema::schema().1, words);
    let buckets = index.engine.segments().iter().map(|s| collections.iter().position(|c| *c == s.collection)).collect();
    let collector = PerCollection { buckets, collections: collections.len(), limit };
    index.searcher.search(&query, &collector).expect("reference search")
}

/// Per collection: the total and each top hit as (slug, score bits).
fn ranked(index: &SearchIndex, buckets: &[Bucket]) -> Vec<(usize, Vec<(String, u32)>)> {
    buckets
        .iter()
        .map(|b| {
            let top = b.top.iter().map(|r| (index.hit(r.address).expect("hit").slug, r.score.to_bits())).collect();
            (b.total, top)
        })
        .collect()
}

/// Asserts that two indexes of the same documents rank `q` alike in `scope` (totals, hits, score
/// bits), `limit` hits per collection; returns the ranking.
fn assert_rank_alike(
    a: &SearchIndex,
    b: &SearchIndex,
    q: &str,
    scope: &[String],
    limit: usize,
) -> Vec<(usize, Vec<(String, u32)>)> {
    let words = schema::words(q);
    let first = ranked(a, &a.rank_with(&words, &Leniency::STRICT, scope, limit).expect("first index"));
    let second = ranked(b, &b.rank_with(&words, &Leniency::STRICT, scope, limit).expect("second index"));
    assert_eq!(first, second, "{q:?} in {scope:?}, limit {limit}");
    first
}

#[test]
fn accents_case_prefix_and_and() {
    let index = index(vec![
        doc("services", "cafe", "Café Amani", "Tea and language lessons"),
        doc("services", "clinic", "Health clinic", "Open daily for vaccinations"),
        doc("services", "water", "Water point", "Clean water at the cafe corner"),
    ]);
    assert_eq!(ids(&index, "CAFE", "services"), ["cafe", "water"]);
    assert_eq!(ids(&index, "vacc", "services"), ["clinic"]);
    assert_eq!(ids(&index, "clean cafe", "services"), ["water"]);
    assert!(ids(&index, "clean vaccinations", "services").is_empty());
    assert!(ids(&index, "cafe", "news").is_empty());
}

#[test]
fn a_title_match_ranks_above_a_body_match_and_ties_go_by_id() {
    let index = index(vec![
        doc("news", "b-body", "Market news", "The borehole is repaired"),
        doc("news", "a-title", "Borehole repaired", "Good news for zone B"),
        doc("news", "d-same", "Same", "identical words here"),
        doc("news", "c-same", "Same", "identical words here"),
    ]);
    assert_eq!(ids(&index, "borehole", "news"), ["a-title", "b-body"]);
    assert_eq!(ids(&index, "identical", "news"), ["c-same", "d-same"]);
}

#[test]
fn ties_across_segments_of_a_collection_go_by_id() {
    let docs: Vec<SearchDoc> = (0..40).map(|i| doc("news", &format!("n{i:02}"), "Same", "identical words")).collect();
    let segments = built_with(docs, 4, 8);
    assert!(segments.len() > 4);
    let index = open(&segments);
    let (hits, total) = index.search(&schema::words("identical"), "news", 12).expect("search");
    assert_eq!(total, 40);
    let expected: Vec<String> = (0..12).map(|i| format!("n{i:02}")).collect();
    assert_eq!(hits.into_iter().map(|h| h.slug).collect::<Vec<_>>(), expected);
}

#[test]
fn the_same_documents_give_the_same_bytes_and_a_segment_depends_on_its_documents_only() {
    let docs = corpus(300, &["news", "services"], 1);
    let first = built_with(docs.clone(), 8, 64);
    assert!(first == built_with(docs.clone(), 8, 64), "segment bytes differ between two builds");
    assert!(first.len() > 4);
    for segment in &first {
        let files: Vec<&str> = segment.files.iter().map(|(name, _)| name.as_str()).collect();
        assert!(files.iter().all(|name| name.starts_with(segment.id.as_str())), "{files:?}");
        assert!(files.iter().any(|name| name.ends_with(".idx")));
    }
    // One segment rebuilt alone from its documents is the same segment.
    let mut sorted = docs.clone();
    sorted.sort_by(|a, b| (&a.collection, &a.id).cmp(&(&b.collection, &b.id)));
    let alone = build_segment(sorted[..first[0].docs as usize].to_vec()).expect("alone");
    assert!(alone == first[0]);
    // Editing one document renames only its segment.
    let mut edited = docs;
    let changed = edited.iter().position(|d| d.id == "r0150").expect("r0150");
    edited[changed].body.push_str(" harvest");
    let collection = edited[changed].collection.clone();
    let second = built_with(edited, 8, 64);
    let renamed: Vec<&Segment> = second.iter().filter(|s| !first.iter().any(|f| f.id == s.id)).collect();
    assert_eq!(renamed.len(), 1);
    assert_eq!(renamed[0].collection, collection);
    assert!(first.iter().filter(|f| second.contains(f)).count() == first.len() - 1);
}

#[test]
fn the_build_cuts_as_the_plan_says() {
    let docs = corpus(500, &["events", "news", "services"], 2);
    let groups = split(docs.clone());
    assert_eq!(groups.iter().map(Vec::len).sum::<usize>(), 500);
    let segments = build(docs).expect("build");
    assert_eq!(segments.len(), groups.len());
    for (segment, group) in segments.iter().zip(&groups) {
        assert_eq!(segment.id, segment_id(group));
        assert_eq!(segment.docs as usize, group.len());
        assert!(group.iter().all(|d| d.collection == segment.collection));
    }
    assert!(build_segment(Vec::new()).is_err());
    assert!(build_segment(vec![doc("news", "a", "A", ""), doc("events", "b", "B", "")]).is_err());
}

#[test]
fn index_json_from_metadata_equals_a_clean_build() {
    let docs = corpus(400, &["news", "services"], 3);
    let before = built_with(docs.clone(), 8, 64);
    let mut edited = docs;
    edited.retain(|d| d.id != "r0010");
    edited.push(doc("services", "r9999", "A new record", "about the water well"));
    edited[5].title.push_str(" maize");
    // Incremental: keep every segment whose documents did not change, build the others.
    let mut sorted = edited.clone();
    sorted.sort_by(|a, b| (&a.collection, &a.id).cmp(&(&b.collection, &b.id)));
    let keys: Vec<(&str, &str)> = sorted.iter().map(|d| (d.collection.as_str(), d.id.as_str())).collect();
    let mut rebuilt = 0;
    let metas: Vec<SegmentMeta> = plan_with(&keys, 8, 64)
        .into_iter()
        .map(|range| {
            let group = &sorted[range];
            match before.iter().find(|s| s.id == segment_id(group)) {
                Some(kept) => kept.meta(),
                None => {
                    rebuilt += 1;
                    build_segment(group.to_vec()).expect("segment").meta()
                }
            }
        })
        .collect();
    assert!((1..=4).contains(&rebuilt), "{rebuilt} of {} segments rebuilt", before.len());
    let clean = built_with(edited, 8, 64);
    let clean_metas: Vec<SegmentMeta> = clean.iter().map(Segment::meta).collect();
    assert_eq!(
        String::from_utf8_lossy(&index_manifest(&metas)),
        String::from_utf8_lossy(&index_manifest(&clean_metas))
    );
}

#[test]
fn the_manifest_carries_the_meta_json_tantivy_writes() {
    let (schema, fields) = schema::schema();
    let index = tantivy::Index::create_in_ram(schema);
    schema::register(&index);
    let mut writer: tantivy::IndexWriter = index.writer_with_num_threads(1, 20 << 20).expect("writer");
    for title in ["One", "Two", "Three"] {
        writer.add_document(tantivy::doc!(fields.collection => "news", fields.title => title)).expect("add");
    }
    writer.commit().expect("commit");
    let written: serde_json::Value =
        serde_json::from_slice(&index.directory().atomic_read(std::path::Path::new("meta.json")).expect("meta.json"))
            .expect("json");
    let segment = &index.searchable_segment_metas().expect("metas")[0];
    let meta = SegmentMeta { id: segment.id().uuid_string(), collection: "news".into(), docs: 3, files: Vec::new() };
    let mut ours = tantivy_meta(&[meta]);
    ours["opstamp"] = written["opstamp"].clone();
    assert_eq!(ours, written);
}

#[test]
fn segment_files_that_do_not_match_the_manifest_are_refused() {
    let segments = built_with(corpus(100, &["news"], 4), 8, 32);
    let manifest = manifest(&segments);
    let mut files: Vec<Vec<u8>> = segments.iter().map(Segment::bytes).collect();
    let missing = SearchIndex::open(&manifest, files[1..].to_vec()).expect_err("a file missing");
    assert!(matches!(missing, SearchError::Pack(PackError::Count { .. })), "{missing}");
    files[1].pop();
    let truncated = SearchIndex::open(&manifest, files.clone()).expect_err("a file truncated");
    assert!(truncated.to_string().contains(&segments[1].id), "{truncated}");
    let mut other = manifest.clone();
    other.meta["schema"][0]["name"] = "kind".into();
    let older = SearchIndex::open(&other, files).expect_err("another schema");
    assert!(older.to_string().contains("another schema"), "{older}");
}

#[test]
fn many_segments_rank_exactly_like_one() {
    let collections = ["news"];
    let docs = corpus(700, &collections, 5);
    let one = open(&built_with(docs.clone(), u64::MAX, usize::MAX));
    let many = open(&built_with(docs, 16, 48));
    assert_eq!(one.engine.segments().len(), 1);
    assert!(many.engine.segments().len() > 14);
    let scope: Vec<String> = collections.iter().map(|c| c.to_string()).collect();
    for q in QUERIES {
        for limit in [1, 10, 1000] {
            assert_rank_alike(&one, &many, q, &scope, limit);
        }
    }
}

#[cfg(not(target_arch = "wasm32"))]
#[test]
fn a_search_split_over_two_threads_ranks_exactly_like_one_thread() {
    let collections = ["events", "news", "services", "entries"];
    let docs = corpus(900, &collections, 8);
    let one = open(&built_with(docs.clone(), 8, 40));
    let mut two = open(&built_with(docs, 8, 40));
    two.engine.split_over(0);
    let scope: Vec<String> = ["services", "news", "entries", "events"].map(String::from).to_vec();
    for q in QUERIES {
        for limit in [1, 7, 500] {
            assert_rank_alike(&one, &two, q, &scope, limit);
        }
    }
}

#[cfg(not(target_arch = "wasm32"))]
/// Natively the engine looks words up in its lexicon, the Worker in each segment's dictionary: both
/// must rank alike, whichever collections are asked (a segment not asked is left out of both).
#[test]
fn the_lexicon_and_the_segments_dictionaries_rank_alike() {
    let collections = ["events", "news", "services", "entries"];
    let docs = corpus(900, &collections, 9);
    let with = open(&built_with(docs.clone(), 8, 40));
    let mut without = open(&built_with(docs, 8, 40));
    without.engine.without_lexicon();
    assert!(with.engine.segments().len() > 8);
    let scopes: [&[&str]; 3] = [&["services", "news", "entries", "events"], &["news"], &["entries", "events"]];
    for scope in scopes {
        let scope: Vec<String> = scope.iter().map(|c| c.to_string()).collect();
        for q in QUERIES.iter().chain(&["e", "ec", "ecol", "harv", "water wel", "sav"]) {
            assert_rank_alike(&with, &without, q, &scope, 7);
        }
        // The search page's typo neighbours: one walk of the table, or one search per dictionary.
        let wanted = with.wanted(&scope);
        for (typo, distance) in [("watr", 1), ("clinik", 1), ("harvset", 1), ("savngs", 2), ("ecol", 1), ("zzzz", 2)] {
            let near = with.engine.near_words(typo, distance, &wanted).expect("near words");
            assert_eq!(near, without.engine.near_words(typo, distance, &wanted).expect("near words"), "{typo}");
            assert_eq!(near.is_empty(), typo == "zzzz", "{typo}: {near:?}");
        }
    }
}

#[test]
fn segments_per_collection_rank_like_one_segment_per_collection() {
    let collections = ["events", "news", "services", "entries"];
    let docs = corpus(900, &collections, 6);
    let few = open(&built_with(docs.clone(), u64::MAX, usize::MAX));
    let many = open(&built_with(docs, 8, 40));
    assert_eq!(few.engine.segments().len(), 4);
    let scope: Vec<String> = ["services", "news", "entries", "events", "news"].map(String::from).to_vec();
    for q in QUERIES {
        let ranking = assert_rank_alike(&few, &many, q, &scope, 7);
        assert_eq!(ranking[1], ranking[4], "a collection asked twice gets the same");
    }
}

#[test]
fn the_engine_counts_and_scores_like_tantivys_query() {
    let collections = ["events", "news", "services"];
    let index = open(&built_with(corpus(900, &collections, 7), 8, 40));
    let scope: Vec<String> = ["news", "services"].map(String::from).to_vec();
    for q in QUERIES {
        let words = schema::words(q);
        for limit in [3, 10, 500] {
            let ours = index.rank_with(&words, &Leniency::STRICT, &scope, limit).expect("engine");
            let theirs = reference(&index, &words, &scope, limit);
            for (a, b) in ours.iter().zip(&theirs) {
                assert_eq!(a.total, b.total, "{q:?}");
                let addresses = |bucket: &Bucket| bucket.top.iter().map(|r| r.address).collect::<Vec<_>>();
                let scores = |bucket: &Bucket| bucket.top.iter().map(|r| r.score).collect::<Vec<Score>>();
                if words.len() <= 2 {
                    // Bit for bit: the same contributions added in the same order.
                    assert_eq!(addresses(a), addresses(b), "{q:?}, limit {limit}");
                    assert_eq!(scores(a), scores(b), "{q:?}, limit {limit}");
                } else {
                    for (x, y) in scores(a).iter().zip(scores(b)) {
                        assert!((x - y).abs() <= 1e-5 * y.abs(), "{q:?}: {x} against {y}");
                    }
                }
            }
        }
    }
}

#[test]
fn some_of_the_words_rank_by_words_then_score_and_pruning_changes_nothing() {
    let collections = ["events", "news", "services"];
    let index = open(&built_with(corpus(900, &collections, 11), 8, 40));
    let scope: Vec<String> = collections.map(String::from).to_vec();
    let forms = index.forms("en");
    let some = Leniency { forms: Some(&forms), min_words: 1, fields: Leniency::ALL_FIELDS };
    for q in QUERIES.iter().chain(&["water clinic zzz", "poetry market lamp shelter", "maji safi ecole"]) {
        let words = schema::words(q);
        // Every match, scored: the order the top hits must follow, computed without pruning.
        let all = index.rank_with(&words, &some, &scope, 1000).expect("every match");
        for limit in [1, 3, 10] {
            let top = index.rank_with(&words, &some, &scope, limit).expect("top hits");
            for (bucket, every) in top.iter().zip(&all) {
                assert_eq!(bucket.total, every.total, "{q:?}");
                assert_eq!(every.top.len(), every.total, "{q:?}: every match kept");
                let expected: Vec<_> = every.top.iter().take(limit).map(|r| (r.words, r.address)).collect();
                let got: Vec<_> = bucket.top.iter().map(|r| (r.words, r.address)).collect();
                assert_eq!(got, expected, "{q:?}, limit {limit}");
                assert!(every.top.windows(2).all(|w| w[0].words >= w[1].words), "{q:?}: more words first");
            }
        }
    }
}

/// A small multilingual index for the search page's rules.
fn forgiving_index(lexicon: bool) -> SearchIndex {
    let french = SearchDoc { language: "fr".into(), ..doc("services", "ecole", "École du quartier", "Inscriptions") };
    let docs = vec![
        doc("news", "clinic-hours", "Clinic hours extended", "The clinic opens until 8 pm."),
        doc("news", "clinics-list", "Clinics of the district", "Every clinic and its hours."),
        doc("news", "cholera", "Cholera cases fall", "Boil water."),
        doc("news", "vaccination", "Vaccination week", "Children get their vaccination at school."),
        doc("jobs", "job-1", "Job: driver", "A job for a driver."),
        doc("jobs", "jobs-board", "Jobs board", "Open jobs."),
        french,
    ];
    let mut index = open(&built_with(docs, u64::MAX, usize::MAX));
    if !lexicon {
        index.engine.without_lexicon();
    }
    index
}

fn forgiven(index: &SearchIndex, q: &str) -> forgiving::Forgiven {
    let scope: Vec<String> = ["news", "jobs", "services"].map(String::from).to_vec();
    index.forgiving(&schema::words(q), &scope, 10, &index.forms("en")).expect("search")
}

fn slugs_of(found: &forgiving::Forgiven) -> Vec<String> {
    found.found.iter().flat_map(|(hits, _)| hits.iter().map(|h| h.slug.clone())).collect()
}

#[test]
fn the_page_finds_other_forms_of_a_word_exact_ones_first() {
    for lexicon in [true, false] {
        let index = forgiving_index(lexicon);
        assert_eq!(index.languages(), ["fr"]);
        let clinics = forgiven(&index, "clinics");
        assert_eq!(slugs_of(&clinics), ["clinics-list", "clinic-hours"], "exact first");
        let job = forgiven(&index, "job");
        assert_eq!(slugs_of(&job), ["job-1", "jobs-board"]);
        assert_eq!(slugs_of(&forgiven(&index, "jobs")), ["jobs-board", "job-1"]);
        assert_eq!(slugs_of(&forgiven(&index, "écoles")), ["ecole"], "French forms");
        assert!(!clinics.partial && clinics.suggestion.is_none());
        // The API's rules stay: no forms.
        assert_eq!(ids(&index, "clinics", "news"), ["clinics-list"]);
    }
}

#[test]
fn the_page_corrects_a_typo_from_the_index_words() {
    for lexicon in [true, false] {
        let index = forgiving_index(lexicon);
        let typo = forgiven(&index, "vacination");
        assert_eq!(typo.suggestion.as_deref(), Some("vaccination"));
        assert!(typo.corrected);
        assert_eq!(slugs_of(&typo), ["vaccination"]);
        let nothing = forgiven(&index, "zzzzzz");
        assert_eq!((nothing.total(), nothing.suggestion), (0, None));
        // One edit from four letters, not from three.
        assert_eq!(forgiven(&index, "cloinic").suggestion.as_deref(), Some("clinic"));
        assert_eq!(forgiven(&index, "jab").suggestion, None);
    }
}

#[test]
fn the_page_shows_partial_matches_when_no_record_has_every_word() {
    for lexicon in [true, false] {
        let index = forgiving_index(lexicon);
        let both = forgiven(&index, "cholera vaccination");
        assert!(both.partial, "{both:?}");
        let mut slugs = slugs_of(&both);
        slugs.sort();
        assert_eq!(slugs, ["cholera", "vaccination"]);
        let most = forgiven(&index, "clinic hours zebra");
        assert!(most.partial);
        assert_eq!(slugs_of(&most), ["clinic-hours", "clinics-list"], "the records with two of the words");
        assert!(!forgiven(&index, "clinic hours").partial);
    }
}

#[test]
fn a_correct_word_is_offered_a_suggestion_but_never_rewritten() {
    for lexicon in [true, false] {
        let index = forgiving_index(lexicon);
        // "bases" is an English word one edit from the index's "cases".
        let word = forgiven(&index, "bases");
        assert_eq!(word.suggestion.as_deref(), Some("cases"));
        assert!(!word.corrected && word.total() == 0, "{word:?}");
        assert!(forgiven(&index, "vacination").corrected, "a word of no language is corrected");
    }
}

#[test]
fn the_page_searches_the_front_matters_text_the_api_does_not() {
    let hours = SearchDoc {
        facts: "Emergencies 24 hours; outpatient clinics Mon-Fri".into(),
        ..doc("services", "health-centre", "Amani Health Centre", "Maternity and vaccination.")
    };
    let docs = vec![hours, doc("services", "water", "Water point repairs", "Report a broken tap.")];
    for lexicon in [true, false] {
        let mut index = index(docs.clone());
        if !lexicon {
            index.engine.without_lexicon();
        }
        assert_eq!(slugs_of(&forgiven(&index, "clinic")), ["health-centre"], "a form, in the facts");
        assert_eq!(slugs_of(&forgiven(&index, "outpatient")), ["health-centre"]);
        assert_eq!(slugs_of(&forgiven(&index, "outpa")), ["health-centre"], "as a prefix");
        assert_eq!(slugs_of(&forgiven(&index, "ou")), ["health-centre"], "through the twin");
        // docs/spec/api-spec.md#search-matching: titles, summaries, tags and bodies only.
        assert!(ids(&index, "outpatient", "services").is_empty());
        assert!(ids(&index, "outpa", "services").is_empty());
        // Each word may match in another field: `maternity` in the body, `hours` in the facts.
        let ranked = forgiven(&index, "maternity hours");
        assert_eq!(slugs_of(&ranked), ["health-centre"]);
    }
}

#[test]
fn stop_words_and_extra_words_never_knock_out_the_page_that_answers() {
    for lexicon in [true, false] {
        let index = forgiving_index(lexicon);
        let question = forgiven(&index, "when are the clinic hours zebra");
        assert_eq!(question.words, ["clinic", "hours", "zebra"]);
        assert_eq!(slugs_of(&question), ["clinic-hours", "clinics-list"]);
        assert!(question.partial);
        // The records with more of the words come before those with fewer.
        let more = forgiven(&index, "clinic hours water");
        assert_eq!(slugs_of(&more)[..2], ["clinic-hours", "clinics-list"]);
        assert!(slugs_of(&more).contains(&"cholera".to_string()), "{more:?}");
        assert_eq!(more.best[0].map(|(words, _)| words), Some(2));
    }
}

#[test]
fn arabic_letter_forms_diacritics_and_the_article_are_folded_in_both_searches() {
    let arabic =
        |id: &str, title: &str, body: &str| SearchDoc { language: "ar".into(), ..doc("news", id, title, body) };
    let docs = vec![
        arabic("clinic", "افتتاح العيادة الجديدة", "تفتح العِيادة أبوابها للتسجيل يوم الأحد."),
        arabic("water", "إصلاح الآبار", "عادت إمدادات المياه وفُحصت مياه الآبار."),
        doc("news", "english", "Clinic opens", "Registration on Sunday."),
    ];
    let index = index(docs);
    for (q, expected) in [
        ("عيادة", "clinic"),
        ("العيادة", "clinic"),
        ("والعيادة", "clinic"),
        ("تسجيل", "clinic"),
        ("مياه", "water"),
        ("المياة", "water"),
        ("ابار", "water"),
        ("فحصت", "water"),
    ] {
        assert_eq!(ids(&index, q, "news"), [expected], "{q} on the API");
        assert_eq!(slugs_of(&forgiven(&index, q)), [expected], "{q} on the page");
    }
}

/// docs/spec/api-spec.md#query-limits: whatever words the engine is given, it plans at most
/// [`limits::MAX_QUERY_WORDS`] words, each once: per word its exact clause in each field, the last
/// word's prefix clause in each field, and (on the page) a forms clause in each field.
#[test]
fn a_query_of_any_words_plans_bounded_work() {
    use limits::MAX_QUERY_WORDS;
    let index = index(corpus(300, &["news", "jobs"], 7));
    let forms = index.forms("en");
    let strict = Leniency::STRICT;
    let page = Leniency { forms: Some(&forms), min_words: 1, fields: Leniency::ALL_FIELDS };
    let fields = Leniency::ALL_FIELDS;
    let most_clauses = MAX_QUERY_WORDS * fields + fields + MAX_QUERY_WORDS * fields;
    let cases: Vec<(&str, Vec<String>)> = vec![
        ("one word repeated", vec!["water".to_string(); 10_000]),
        ("a short word repeated", schema::words(&"a ".repeat(10_000))),
        ("distinct short words", (0..10_000).map(|n| format!("w{n}")).collect()),
        ("long words", (0..10_000).map(|n| format!("{n}{}", "x".repeat(60))).collect()),
        ("known prefixes", ["wa", "sc", "cl", "ma", "so"].iter().cycle().take(10_000).map(|w| w.to_string()).collect()),
        ("known words", corpus(1, &["news"], 1)[0].body.split(' ').cycle().take(10_000).map(String::from).collect()),
    ];
    for (name, words) in &cases {
        for leniency in [&strict, &page] {
            let (planned, clauses, expansions) = index.engine.plan_size(words, leniency);
            assert!(planned <= MAX_QUERY_WORDS, "{name}: {planned} words planned");
            assert!(clauses <= most_clauses, "{name}: {clauses} clauses");
            // Only the last word expands to a prefix, and each word to its forms once: at most
            // the index's terms per planned word and field.
            let terms = index.engine.segments().len() * 1000;
            assert!(expansions <= terms * fields * (planned + 1), "{name}: {expansions} expansions");
        }
    }
    let (planned, _, _) = index.engine.plan_size(&cases[0].1, &strict);
    assert_eq!(planned, 1, "a repeated word is planned once");
    let a_repeated = index.search(&cases[0].1, "news", 5).expect("search");
    assert_eq!(a_repeated, index.search(&["water".to_string()], "news", 5).expect("search"), "and ranks as once");
}

/// The search page corrects at most [`limits::MAX_CORRECTED_WORDS`] unknown words: past that it
/// looks for no near word at all.
#[test]
fn the_page_corrects_only_a_few_unknown_words() {
    let index = forgiving_index(true);
    let two = forgiven(&index, "vacination cloinic");
    assert_eq!(two.suggestion.as_deref(), Some("vaccination clinic"));
    let many = forgiven(&index, "vacination cloinic vacinaton cloinik");
    assert_eq!(many.suggestion, None, "{many:?}");
}

/// docs/spec/api-spec.md#search-page-ranking: a word also finds the other words of its groups, in
/// any of the four languages, below the word as written; the API matches words as written.
#[test]
fn the_page_finds_other_words_for_the_same_thing_below_the_word_itself() {
    use super::synonyms::Synonyms;
    let docs = vec![
        doc("services", "health-centre", "Amani Health Centre", "Outpatient clinic and maternity."),
        doc("services", "kliniki", "Kliniki ya Amani", "Huduma za afya."),
        doc("services", "water", "Water point repairs", "Report a broken tap."),
    ];
    for lexicon in [true, false] {
        let mut index = index(docs.clone());
        if !lexicon {
            index.engine.without_lexicon();
        }
        let scope = vec!["services".to_string()];
        let forms = index.forms("en").with_synonyms(Synonyms::new(&[], false));
        let search = |q: &str| slugs_of(&index.forgiving(&schema::words(q), &scope, 10, &forms).expect("search"));
        let mut arabic = search("عيادة");
        arabic.sort();
        assert_eq!(arabic, ["health-centre", "kliniki"], "Arabic finds both");
        assert_eq!(search("kliniki"), ["kliniki", "health-centre"], "the word as written first");
        assert_eq!(search("maji"), ["water"]);
        assert!(ids(&index, "kliniki", "services") == ["kliniki"], "the API: as written only");
        // A site's own group, and none when the site replaces the built-in ones.
        let own = vec![vec!["tap".to_string(), "bomba".to_string()]];
        let site = index.forms("en").with_synonyms(Synonyms::new(&own, true));
        let with_own = |q: &str| slugs_of(&index.forgiving(&schema::words(q), &scope, 10, &site).expect("search"));
        assert_eq!(with_own("bomba"), ["water"]);
        assert!(with_own("maji").is_empty());
        // The excerpt marks the other word it matched through.
        let words = schema::words("عيادة");
        let highlight = forgiving::Highlight::new(&words, &forms);
        assert!(highlight.marks("clinic") && !highlight.marks("maternity"));
    }
}

/// The static search's files (`offline`), read back as the browser reads them.
#[cfg(not(target_arch = "wasm32"))]
mod offline_files {
    use std::collections::BTreeMap;

    use serde_json::{json, Map, Value};

    use super::*;
    use crate::content::i18n::Strings;
    use crate::content::SiteConfig;
    use crate::search::matching::Leniency;
    use crate::search::offline::{chunk_at, files, Site, GROUP_CHUNKS, MANIFEST};
    use crate::search::schema::WEIGHTS;

    fn built() -> (SearchIndex, BTreeMap<String, Value>) {
        let index = super::index(vec![
            doc("services", "amani", "Amani Health Centre", "Outpatient clinics. Clean water."),
            doc("news", "well", "Water point repaired", "The water point works again."),
            doc("news", "market", "Market day", "Waterproof sheets for sale."),
        ]);
        let config = SiteConfig { language: "en".into(), ..SiteConfig::default() };
        let strings = Strings(json!({"search_page": {"title": "Search"}}));
        let site = Site { config: &config, help: None, strings: &strings, flat: b"[]" };
        let made = files(&index, &site).expect("the static search is made");
        let parsed =
            made.into_iter().map(|(path, bytes)| (path, serde_json::from_slice(&bytes).expect("JSON"))).collect();
        (index, parsed)
    }

    /// The entry of `word` in the term chunks, as the browser finds it from the manifest.
    fn entry(files: &BTreeMap<String, Value>, word: &str) -> Map<String, Value> {
        let at = chunk_at(files, "t", word).expect("a chunk");
        files[&format!("find/t/{at}.json")][word].as_object().cloned().unwrap_or_default()
    }

    fn decode(flat: &Value, stride: usize) -> Vec<(u32, u64, f32)> {
        let numbers: Vec<u64> = flat.as_array().into_iter().flatten().filter_map(Value::as_u64).collect();
        let mut doc = 0;
        numbers
            .chunks(stride)
            .map(|c| {
                doc += c[0] as u32;
                (doc, c[1], c.get(2).map_or(0.0, |s| *s as f32 / 1000.0))
            })
            .collect()
    }

    #[test]
    fn the_manifest_names_the_segments_chunks_and_rules() {
        let (_, files) = built();
        let manifest = &files[MANIFEST];
        assert_eq!(manifest["format"], 2);
        let segments: Vec<&str> =
            manifest["segments"].as_array().expect("segments").iter().filter_map(|s| s[0].as_str()).collect();
        assert_eq!(segments, ["news", "services"]);
        assert!(manifest["stopWords"].as_array().expect("stop words").contains(&json!("where")));
        assert!(manifest["helpWords"].as_array().is_some_and(|w| !w.is_empty()));
        assert_eq!(manifest["weights"]["docs"], json!(0.2f32));
        for kind in ["terms", "vocab", "known"] {
            let groups = manifest[kind].as_array().expect("groups' starts");
            let letter = &kind[..1];
            assert!(!groups.is_empty(), "{kind}");
            for g in 0..groups.len() {
                let starts = files[&format!("find/{letter}s/{g}.json")].as_array().expect("chunks' starts").len();
                let chunk = |n: usize| format!("find/{letter}/{}.json", g * GROUP_CHUNKS + n);
                assert!((0..starts).all(|n| files.contains_key(&chunk(n))), "{kind}");
            }
        }
        assert!(files.contains_key("find/d/0.json"));
    }

    #[test]
    fn a_words_scores_are_the_engines() {
        let (index, files) = built();
        let water = entry(&files, "water");
        let exact = decode(&water["p"], 3);
        assert_eq!(exact.len(), 2, "{water:?}");
        // The last word also matches as a prefix: the fields of every word it starts.
        let mut prefix: BTreeMap<u32, u64> = BTreeMap::new();
        for word in ["water", "waterproof"] {
            for (doc, mask, _) in decode(&entry(&files, word)["p"], 3) {
                *prefix.entry(doc).or_default() |= mask;
            }
        }
        let mut expected: Vec<(u32, f32)> = prefix
            .iter()
            .map(|(&doc, &mask)| {
                let exact = exact.iter().find(|(d, _, _)| *d == doc).map_or(0.0, |(_, _, s)| *s);
                let prefixed: f32 =
                    (0..WEIGHTS.len()).filter(|f| mask & (1 << f) != 0).map(|f| WEIGHTS[f].1 * 0.5).sum();
                (doc, exact + prefixed)
            })
            .collect();
        expected.sort_by(|a, b| b.1.total_cmp(&a.1));
        let leniency = Leniency { forms: None, min_words: 1, fields: Leniency::ALL_FIELDS };
        let scope = vec!["news".to_string(), "services".to_string()];
        let buckets = index.rank_with(&["water".to_string()], &leniency, &scope, 10).expect("searches");
        let starts = [0u32, 2];
        let mut engine: Vec<(u32, f32)> = buckets
            .iter()
            .zip(starts)
            .flat_map(|(b, start)| b.top.iter().map(move |r| (start + r.address.doc_id, r.score)))
            .collect();
        engine.sort_by(|a, b| b.1.total_cmp(&a.1));
        assert_eq!(engine.len(), expected.len());
        for ((doc, score), (want_doc, want)) in engine.iter().zip(&expected) {
            assert_eq!(doc, want_doc);
            assert!((score - want).abs() < 2e-3, "{score} vs {want}");
        }
    }

    #[test]
    fn forms_and_prefixes_are_written_beside_the_word() {
        let (_, files) = built();
        let clinic = entry(&files, "clinic");
        assert_eq!(clinic["f"], json!(["clinics"]), "{clinic:?}");
        assert_eq!(decode(&clinic["fp"], 2).len(), 1);
        let wa = entry(&files, "wa");
        assert_eq!(decode(&wa["x"], 2).len(), 3, "every document has a word starting with wa");
    }
}
