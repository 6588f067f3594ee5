//! `sources:` in site.yaml (docs/content.md#sources): rows of tables and exports become records
//! like any other, and a publisher's mistakes are content errors naming the row.

use std::path::Path;
use std::process::{Command, Output};

use serde_json::Value;

fn build(content: &Path, out: &Path) -> Output {
    let cache = out.with_extension("cache");
    Command::new(env!("CARGO_BIN_EXE_portal"))
        .args(["build", "--content", &content.to_string_lossy(), "--out", &out.to_string_lossy()])
        .args(["--cache-dir", &cache.to_string_lossy()])
        .env("SOURCE_DATE_EPOCH", "1790000000")
        .output()
        .expect("portal runs")
}

fn write(root: &Path, path: &str, text: &str) {
    let path = root.join(path);
    std::fs::create_dir_all(path.parent().expect("a parent")).expect("folders");
    std::fs::write(path, text).expect("write");
}

fn portal(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_portal"))
        .args(args)
        .env("SOURCE_DATE_EPOCH", "1790000000")
        .output()
        .expect("portal runs")
}

fn json(path: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))).expect("JSON")
}

const SITE: &str = "title: Sources\nbase_url: https://sources.example\n";

/// A services directory as organisations export it: spaces after the commas of the header, a
/// byte order mark, Windows line endings, a phone cell with words, an unmapped column.
const DIRECTORY: &str = "\u{feff}Organization Name, Services Provided, Phone, Org ID, Opening Hours\r\n\
Amani Health Centre,\"Outpatient clinics, maternity\",+256 700 000001 (ask for Grace),AHC-1,Mon-Fri 8-17\r\n\
Water Point B-12, Safe water ,,WP-12,\r\n";

#[test]
fn rows_of_a_csv_become_records_with_their_other_columns_kept() {
    let dir = tempfile::tempdir().expect("temp");
    let (content, out) = (dir.path().join("content"), dir.path().join("dist"));
    let site = format!(
        "{SITE}sources:\n  - collection: services\n    from: sources/directory.csv\n    id: Org ID\n    map:\n      \
         title: Organization Name\n      summary: Services Provided\n      contact.phone: Phone\n"
    );
    write(&content, "site.yaml", &site);
    write(&content, "sources/directory.csv", DIRECTORY);
    write(&content, "services/written.md", "---\ntitle: A service written by hand\n---\nBody.\n");
    let built = build(&content, &out);
    assert!(built.status.success(), "{}", String::from_utf8_lossy(&built.stderr));
    let amani = json(&out.join("api/services/ahc-1.json"));
    let text = amani.to_string();
    assert!(text.contains("Amani Health Centre") && text.contains("Outpatient clinics, maternity"), "{text}");
    assert!(text.contains("+256 700 000001 (ask for Grace)"), "the phone cell is kept whole: {text}");
    assert!(text.contains("\"opening_hours\"") && text.contains("Mon-Fri 8-17"), "unmapped columns are kept: {text}");
    assert!(!text.contains("org_id"), "the id column is the slug, not a field: {text}");
    let water = json(&out.join("api/services/wp-12.json")).to_string();
    assert!(water.contains("\"Safe water\""), "cells are trimmed: {water}");
    assert!(out.join("services/ahc-1.html").is_file() && out.join("services/written.html").is_file());
    let page = std::fs::read_to_string(out.join("services/ahc-1.html")).expect("page");
    assert!(page.contains("Amani Health Centre"));
}

#[test]
fn a_publishers_mistakes_are_errors_naming_the_row_and_the_fix() {
    let dir = tempfile::tempdir().expect("temp");
    let (content, out) = (dir.path().join("content"), dir.path().join("dist"));
    let site = format!(
        "{SITE}sources:\n  - collection: services\n    from: sources/directory.csv\n    map:\n      \
         title: Organization Name\n      summary: Services Provided\n"
    );
    write(&content, "site.yaml", &site);
    let rows = "Organization Name,Services Provided\nClinic,Care\n,No name here\nClinic,Care again\n";
    write(&content, "sources/directory.csv", rows);
    let built = build(&content, &out);
    let errors = String::from_utf8_lossy(&built.stderr);
    assert!(!built.status.success());
    let file = content.join("sources/directory.csv").display().to_string();
    assert!(errors.contains(&format!("{file}:3")) && errors.contains("title"), "a row without a title: {errors}");
    assert!(errors.contains(&format!("{file}:4")) && errors.contains("duplicate slug `clinic`"), "{errors}");

    let typo = site.replace("Services Provided", "Service Provided");
    write(&content, "site.yaml", &typo);
    let built = build(&content, &out);
    let errors = String::from_utf8_lossy(&built.stderr);
    assert!(errors.contains("site.yaml") && errors.contains("did you mean `Services Provided`"), "{errors}");
}

#[test]
fn a_kobo_export_and_a_geojson_file_are_sources_too() {
    let dir = tempfile::tempdir().expect("temp");
    let (content, out) = (dir.path().join("content"), dir.path().join("dist"));
    let site = format!(
        "{SITE}sources:\n  - collection: services\n    from: sources/kobo.json\n    id: _uuid\n    map:\n      \
         title: group_service/name\n  - collection: events\n    from: sources/points.geojson\n    \
         format: geojson\n    map:\n      title: name\n      start: when\n"
    );
    write(&content, "site.yaml", &site);
    let kobo = r#"[{"_uuid": "5c1d-77", "group_service/name": "Legal aid desk", "group_service/phone": "0772 000 111",
        "group_contact/phone": "0772 999 000", "meta/instanceID": "uuid:5c1d-77", "_geolocation": [0.61, 30.65]}]"#;
    write(&content, "sources/kobo.json", kobo);
    let points = r#"{"type": "FeatureCollection", "features": [{"type": "Feature", "geometry": {"type": "Point", "coordinates": [30.65, 0.61]}, "properties": {"name": "Market day", "when": "2026-12-03T09:00:00+03:00"}}]}"#;
    write(&content, "sources/points.geojson", points);
    let built = build(&content, &out);
    assert!(built.status.success(), "{}", String::from_utf8_lossy(&built.stderr));
    let document = json(&out.join("api/services/5c1d-77.json"));
    let desk = &document["data"]["services"][0];
    let text = desk.to_string();
    assert!(text.contains("Legal aid desk"), "{text}");
    // A form's `group/field` column is its field's name; a second one of that name keeps its group.
    let phones = [&desk["phone"], &desk["group_contact_phone"]];
    assert!(phones.contains(&&Value::from("0772 000 111")) && phones.contains(&&Value::from("0772 999 000")), "{text}");
    assert!(
        text.contains("\"latitude\":0.61") && text.contains("\"longitude\":30.65"),
        "_geolocation is the place: {text}"
    );
    let page = std::fs::read_to_string(out.join("services/5c1d-77.html")).expect("page");
    assert!(desk["_instanceid"] == "uuid:5c1d-77" && !page.contains("uuid:5c1d"), "form metadata stays off the page");
    let event = json(&out.join("api/events/market-day.json")).to_string();
    assert!(event.contains("\"latitude\":0.61") && event.contains("2026-12-03T09:00:00+03:00"), "{event}");
}

/// `fixtures/sources/directory.xlsx`: a sheet `Directory` made with openpyxl (a padded header
/// cell, a date cell, a phone typed as a number, a row without a name).
#[test]
fn a_spreadsheets_rows_are_records_and_its_errors_name_the_cell() {
    let dir = tempfile::tempdir().expect("temp");
    let (content, out) = (dir.path().join("content"), dir.path().join("dist"));
    let xlsx = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/sources/directory.xlsx");
    std::fs::create_dir_all(content.join("sources")).expect("folder");
    std::fs::copy(xlsx, content.join("sources/directory.xlsx")).expect("copy");
    let site = |title: &str| {
        format!("{SITE}sources:\n  - collection: services\n    from: sources/directory.xlsx\n    map:\n      title: {title}\n")
    };
    write(&content, "site.yaml", &site("Organization Name"));
    let built = build(&content, &out);
    let errors = String::from_utf8_lossy(&built.stderr);
    let file = content.join("sources/directory.xlsx").display().to_string();
    // The error is on the file (a spreadsheet has no lines), its message names the cell.
    assert!(!built.status.success() && errors.contains(&format!("{file}:1: {file} Directory!A4")), "{errors}");

    write(&content, "site.yaml", &site("Services Provided"));
    let built = build(&content, &out);
    assert!(built.status.success(), "{}", String::from_utf8_lossy(&built.stderr));
    let clinic = json(&out.join("api/services/outpatient-clinics.json")).to_string();
    assert!(clinic.contains("\"organization_name\":\"Amani Health Centre\""), "{clinic}");
    assert!(clinic.contains("\"opened\":\"2024-05-01\""), "a date cell reads as a date: {clinic}");
    let desk = json(&out.join("api/services/free-legal-advice.json")).to_string();
    assert!(desk.contains("\"phone\":\"772000111\""), "a number cell reads as written: {desk}");
}

#[test]
fn a_changed_source_builds_again_with_its_new_rows() {
    let dir = tempfile::tempdir().expect("temp");
    let (content, out) = (dir.path().join("content"), dir.path().join("dist"));
    let site =
        format!("{SITE}sources:\n  - collection: jobs\n    from: sources/jobs.tsv\n    map:\n      title: Job\n");
    write(&content, "site.yaml", &site);
    write(&content, "sources/jobs.tsv", "Job\tEmployer\nDriver\tAmani\n");
    assert!(build(&content, &out).status.success());
    assert!(out.join("api/jobs/driver.json").is_file());
    write(&content, "sources/jobs.tsv", "Job\tEmployer\nNurse\tAmani\n");
    let built = build(&content, &out);
    assert!(built.status.success(), "{}", String::from_utf8_lossy(&built.stderr));
    assert!(out.join("api/jobs/nurse.json").is_file() && !out.join("api/jobs/driver.json").exists());
}

/// A server on 127.0.0.1 answering each request with what `answer` makes of its head (request
/// line and headers, lower-cased): a status, a media type and a body. It keeps the paths asked
/// for, until it is stopped: then its port refuses connections, as a server gone away does.
struct Server {
    address: String,
    asked: std::sync::Arc<std::sync::Mutex<Vec<String>>>,
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

/// What a [`Server`] answers: a status line's rest (`200 OK`), extra header lines, a body.
type Answer = (&'static str, String, String);

impl Server {
    fn start(answer: impl Fn(&str, &str) -> Answer + Send + 'static) -> Server {
        use std::io::{Read, Write};
        use std::sync::atomic::Ordering;
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a port");
        let address = listener.local_addr().expect("an address").to_string();
        let asked = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let (seen, stopped) = (asked.clone(), stop.clone());
        let thread = std::thread::spawn(move || {
            for stream in listener.incoming() {
                if stopped.load(Ordering::SeqCst) {
                    break;
                }
                let Ok(mut stream) = stream else { continue };
                let mut request = Vec::new();
                let mut buffer = [0u8; 1024];
                while !request.windows(4).any(|w| w == b"\r\n\r\n") {
                    match stream.read(&mut buffer) {
                        Ok(0) | Err(_) => break,
                        Ok(n) => request.extend_from_slice(&buffer[..n]),
                    }
                }
                let head = String::from_utf8_lossy(&request).to_string();
                let path = head.split_whitespace().nth(1).unwrap_or_default().to_string();
                seen.lock().expect("lock").push(path.clone());
                let (status, headers, body) = answer(&path, &head.to_ascii_lowercase());
                let head = format!(
                    "HTTP/1.1 {status}\r\n{headers}Content-Length: {}\r\nConnection: close\r\n\r\n",
                    body.len()
                );
                let _ = stream.write_all(head.as_bytes()).and_then(|()| stream.write_all(body.as_bytes()));
            }
        });
        Server { address, asked, stop, thread: Some(thread) }
    }

    fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.address)
    }

    fn stop(&mut self) {
        self.stop.store(true, std::sync::atomic::Ordering::SeqCst);
        let _ = std::net::TcpStream::connect(&self.address);
        if let Some(thread) = self.thread.take() {
            thread.join().expect("the server stops");
        }
    }
}

#[test]
fn a_source_at_a_url_is_kept_in_the_cache_and_used_when_the_server_is_gone() {
    let dir = tempfile::tempdir().expect("temp");
    let (content, out) = (dir.path().join("content"), dir.path().join("dist"));
    // One CSV with an ETag: asked again with it, the server answers 304.
    let full = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let counted = full.clone();
    let mut server = Server::start(move |_, head| {
        let etag = "ETag: \"v1\"\r\n".to_string();
        if head.contains("if-none-match: \"v1\"") {
            return ("304 Not Modified", etag, String::new());
        }
        counted.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        (
            "200 OK",
            format!("Content-Type: text/csv\r\n{etag}"),
            "Name,Phone\nAmani Clinic,0772 000 001\nWater Point B-12,\n".into(),
        )
    });
    let url = server.url("/data/dump.csv?token=1");
    let site = format!("{SITE}sources:\n  - collection: services\n    from: {url}\n    map: {{title: Name}}\n");
    write(&content, "site.yaml", &site);
    let built = build(&content, &out);
    assert!(built.status.success(), "{}", String::from_utf8_lossy(&built.stderr));
    assert!(out.join("api/services/amani-clinic.json").is_file(), "the format comes from the URL's path");
    let published = walkdir::WalkDir::new(&out).into_iter().filter_map(Result::ok).filter(|e| e.file_type().is_file());
    let leaks: Vec<_> =
        published.filter(|e| std::fs::read(e.path()).is_ok_and(|b| b.windows(7).any(|w| w == b"token=1"))).collect();
    assert!(leaks.is_empty(), "a source's URL (and its key) is never published: {leaks:?}");
    let again = build(&content, &out);
    assert!(
        again.status.success() && full.load(std::sync::atomic::Ordering::SeqCst) == 1,
        "the second build asks with the ETag and gets 304"
    );

    server.stop();
    let offline = build(&content, &out);
    let said = String::from_utf8_lossy(&offline.stderr);
    assert!(offline.status.success(), "{said}");
    assert!(said.contains("warning") && said.contains(&url) && said.contains("using the copy"), "{said}");
    assert!(out.join("api/services/water-point-b-12.json").is_file(), "the cached rows are published, not nothing");

    let fresh = dir.path().join("elsewhere");
    let built = build(&content, &fresh);
    let said = String::from_utf8_lossy(&built.stderr);
    assert!(!built.status.success() && said.contains(&url) && said.contains("no copy"), "{said}");
    assert!(!fresh.join("api/services").exists(), "no collection is published empty");

    let cache = out.with_extension("cache");
    let (content, cache) = (content.to_string_lossy(), cache.to_string_lossy());
    let args = ["build", "--content", &content, "--out", &fresh.to_string_lossy(), "--cache-dir", &cache, "--offline"];
    let built = portal(&args);
    assert!(built.status.success(), "--offline builds from the cache: {}", String::from_utf8_lossy(&built.stderr));
    assert!(!String::from_utf8_lossy(&built.stderr).contains("could not be fetched"), "--offline fetches nothing");
}

#[test]
fn a_source_without_rows_is_a_warning_naming_it() {
    let dir = tempfile::tempdir().expect("temp");
    let (content, out) = (dir.path().join("content"), dir.path().join("dist"));
    write(&content, "site.yaml", &format!("{SITE}sources:\n  - collection: jobs\n    from: sources/jobs.csv\n"));
    write(&content, "sources/jobs.csv", "title,employer\n");
    let built = build(&content, &out);
    let said = String::from_utf8_lossy(&built.stderr);
    assert!(built.status.success() && said.contains("`sources/jobs.csv` has no rows"), "{said}");
}

#[test]
fn import_writes_record_files_once_and_never_over_someones_work() {
    let dir = tempfile::tempdir().expect("temp");
    let content = dir.path().join("content");
    write(&content, "site.yaml", SITE);
    let csv = dir.path().join("directory.csv");
    std::fs::write(&csv, DIRECTORY).expect("write");
    let (csv, folder) = (csv.to_string_lossy().to_string(), content.to_string_lossy().to_string());
    let import = |extra: &[&str]| {
        let mut args = vec!["import", "csv", &csv, "--collection", "services", "--content", &folder];
        args.extend_from_slice(&[
            "--map",
            "title=Organization Name",
            "--map",
            "summary=Services Provided",
            "--id",
            "Org ID",
        ]);
        args.extend_from_slice(extra);
        portal(&args)
    };
    let done = import(&[]);
    assert!(done.status.success(), "{}", String::from_utf8_lossy(&done.stderr));
    let amani = std::fs::read_to_string(content.join("services/ahc-1.md")).expect("a record file");
    assert!(amani.starts_with("---\ntitle: Amani Health Centre\nsummary: Outpatient clinics, maternity\n"), "{amani}");
    assert!(
        amani.contains("phone: +256 700 000001 (ask for Grace)")
            || amani.contains("phone: '+256 700 000001 (ask for Grace)'"),
        "{amani}"
    );

    std::fs::write(content.join("services/ahc-1.md"), "---\ntitle: Edited by hand\n---\n").expect("edit");
    let again = import(&[]);
    let said = String::from_utf8_lossy(&again.stderr);
    assert!(!again.status.success() && said.contains("ahc-1.md") && said.contains("--force"), "{said}");
    assert!(std::fs::read_to_string(content.join("services/ahc-1.md")).expect("read").contains("Edited by hand"));
    assert!(import(&["--force"]).status.success());
    assert!(std::fs::read_to_string(content.join("services/ahc-1.md")).expect("read").contains("Amani Health Centre"));

    let out = dir.path().join("dist");
    let built = build(&content, &out);
    assert!(built.status.success(), "imported files build: {}", String::from_utf8_lossy(&built.stderr));
    assert!(json(&out.join("api/services/wp-12.json")).to_string().contains("Safe water"));

    let bad = dir.path().join("bad.csv");
    std::fs::write(&bad, "Organization Name,Services Provided,Org ID\n,No name,X-1\n").expect("write");
    let bad = bad.to_string_lossy().to_string();
    let args = [
        "import",
        "csv",
        &bad,
        "--collection",
        "services",
        "--content",
        &folder,
        "--map",
        "title=Organization Name",
        "--id",
        "Org ID",
    ];
    let refused = portal(&args);
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(!refused.status.success() && said.contains(&format!("{bad}:2")) && said.contains("title"), "{said}");
    assert!(!content.join("services/x-1.md").exists(), "nothing is written when a row is not a record");
}

/// Open Referral's HSDS 3.0 example datapackage (`fixtures/sources/hsds-example`, CC BY-SA 4.0),
/// copied into `content/sources/hsds`.
fn hsds_example(content: &Path) -> std::path::PathBuf {
    let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/sources/hsds-example");
    let folder = content.join("sources/hsds");
    std::fs::create_dir_all(&folder).expect("folder");
    for entry in std::fs::read_dir(example).expect("the example") {
        let path = entry.expect("an entry").path();
        std::fs::copy(&path, folder.join(path.file_name().expect("a name"))).expect("copy");
    }
    folder
}

/// The record of `GET /api/services/<slug>` as built.
fn service(out: &Path, slug: &str) -> Value {
    json(&out.join(format!("api/services/{slug}.json")))["data"]["services"][0].clone()
}

const COUNSELLING: &str = "ac148810-d857-441c-9679-408f346de14b";

#[test]
fn an_hsds_datapackage_becomes_services_that_keep_their_ids() {
    let dir = tempfile::tempdir().expect("temp");
    let (content, out) = (dir.path().join("content"), dir.path().join("dist"));
    let folder = hsds_example(&content);
    write(
        &content,
        "site.yaml",
        &format!("{SITE}sources:\n  - collection: services\n    from: sources/hsds\n    format: hsds\n"),
    );
    let built = build(&content, &out);
    assert!(built.status.success(), "{}", String::from_utf8_lossy(&built.stderr));
    let service = service(&out, "community-counselling");
    assert_eq!(service["title"], "Community Counselling");
    assert_eq!(service["hsds_id"], COUNSELLING);
    assert!(service["summary"].as_str().is_some_and(|s| s.starts_with("Counselling Services provided")), "{service}");
    assert_eq!(service["phone"], "+44 1234 234567", "the export's quotes are not the number's");
    assert_eq!(service["email"], "email@example.com");
    assert_eq!(service["website"], "http://example.com/counselling");
    assert_eq!(service["hours"], "Thu, Fri 10:00-18:00");
    assert_eq!(service["organization"]["name"], "Example Organization Inc.");
    assert_eq!(service["location"]["name"], "MyCity Civic Center");
    assert!(service["location"].get("latitude").is_none(), "latitude 100 is no place on Earth: {service}");
    assert_eq!(service["updated"], "2023-03-15T10:30:45.123Z");

    let hsds = json(&out.join("_portal/hsds.json"));
    let published = &hsds["services"][0];
    assert_eq!(published["id"], COUNSELLING, "/api/hsds publishes the original id");
    assert_eq!(published["organization_id"], "d9d5e0f5-d3ce-4f73-9a2f-4dd0ecc6c610");
    assert_eq!(published["schedules"][0]["byday"], "TH,FR");
    assert_eq!(json(&out.join("api/hsds/services.json"))["contents"][0]["id"], COUNSELLING);

    // A service without a name is an error naming its table and row.
    let services = std::fs::read_to_string(folder.join("services.csv")).expect("services");
    let nameless =
        services.lines().nth(1).expect("a row").replace("Community Counselling,", ",").replace("ac148810", "bd259921");
    // And a second service with the first one's id.
    let again = services.lines().nth(1).expect("a row").replace("Community Counselling,", "Counselling again,");
    std::fs::write(folder.join("services.csv"), format!("{services}{nameless}\n{again}\n")).expect("write");
    let built = build(&content, &out);
    let errors = String::from_utf8_lossy(&built.stderr);
    let file = folder.join("services.csv").display().to_string();
    assert!(!built.status.success() && errors.contains(&format!("{file}:3")) && errors.contains("title"), "{errors}");
    let twice = format!("{file}:4: {file}:4: HSDS id `{COUNSELLING}` is the id of {file}:2 too");
    assert!(errors.contains(&twice), "{errors}");

    // Settings of a table source, or no datapackage where `from` points, are errors in site.yaml.
    for (entry, expected) in [
        ("from: sources/hsds\n    format: hsds\n    map:\n      title: name", "`format: hsds` maps HSDS fields itself"),
        ("from: sources/elsewhere\n    format: hsds", "no HSDS datapackage at"),
    ] {
        write(&content, "site.yaml", &format!("{SITE}sources:\n  - collection: services\n    {entry}\n"));
        let built = build(&content, &out);
        let errors = String::from_utf8_lossy(&built.stderr);
        assert!(!built.status.success() && errors.contains("site.yaml:5") && errors.contains(expected), "{errors}");
    }
}

/// A tiny HSDS API on 127.0.0.1: `/services?page=N` lists one service a page (as Open Referral's
/// `service_list.json` does, not nested), `/services/{id}` gives it nested (`service_full.json`).
/// Its base URL is `server.url("/hsds")`.
fn hsds_api() -> Server {
    let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/sources/hsds-example");
    let list = json(&example.join("service_list.json"));
    let full = json(&example.join("service_full.json"));
    let second = "0b5b8d0c-5c1e-4a53-9d1a-5b0f6c1a2e77";
    let with = |mut item: Value, id: &str, name: &str| {
        item["id"] = Value::from(id);
        item["name"] = Value::from(name);
        item
    };
    let listed = list["contents"][0].clone();
    let pages =
        [with(listed.clone(), COUNSELLING, "Community Counselling"), with(listed, second, "Drop-in Counselling")];
    let details = [with(full.clone(), COUNSELLING, "Community Counselling"), with(full, second, "Drop-in Counselling")];
    Server::start(move |path, _| {
        let body = match path {
            p if p.starts_with("/hsds/services?page=") => {
                let n: usize =
                    p["/hsds/services?page=".len()..].split('&').next().and_then(|n| n.parse().ok()).unwrap_or(1);
                let mut page = list.clone();
                page["contents"] = serde_json::json!([pages[n.clamp(1, 2) - 1]]);
                page["total_pages"] = Value::from(2);
                page["page_number"] = Value::from(n);
                page["last_page"] = Value::from(n >= 2);
                Some(page)
            }
            p => details
                .iter()
                .find(|d| p == format!("/hsds/services/{}", d["id"].as_str().unwrap_or_default()))
                .cloned(),
        };
        let json = "Content-Type: application/json\r\n".to_string();
        match body {
            Some(body) => ("200 OK", json, body.to_string()),
            None => ("404 Not Found", json, "{}".to_string()),
        }
    })
}

#[test]
fn an_hsds_api_is_read_page_by_page() {
    let dir = tempfile::tempdir().expect("temp");
    let (content, out) = (dir.path().join("content"), dir.path().join("dist"));
    let api = hsds_api();
    let (base, asked) = (api.url("/hsds"), api.asked.clone());
    write(
        &content,
        "site.yaml",
        &format!("{SITE}sources:\n  - collection: services\n    from: {base}/\n    format: hsds\n"),
    );
    let built = build(&content, &out);
    assert!(built.status.success(), "{}", String::from_utf8_lossy(&built.stderr));
    let fetched = asked.lock().expect("lock").clone();
    assert_eq!(
        fetched,
        [
            "/hsds/services?page=1&full=true".to_string(),
            format!("/hsds/services/{COUNSELLING}"),
            "/hsds/services?page=2&full=true".to_string(),
            "/hsds/services/0b5b8d0c-5c1e-4a53-9d1a-5b0f6c1a2e77".to_string(),
        ]
    );
    let second = service(&out, "drop-in-counselling");
    assert_eq!(second["hsds_id"], "0b5b8d0c-5c1e-4a53-9d1a-5b0f6c1a2e77");
    assert_eq!(second["hours"], "Thu, Fri 10:00-18:00", "the nested service was read: {second}");
    assert_eq!(second["category"], "name", "the example's one taxonomy term is called `name`");
    let ids: Vec<Value> = json(&out.join("_portal/hsds.json"))["services"]
        .as_array()
        .map(|s| s.iter().map(|s| s["id"].clone()).collect())
        .unwrap_or_default();
    assert!(
        ids.contains(&Value::from(COUNSELLING)) && ids.contains(&Value::from("0b5b8d0c-5c1e-4a53-9d1a-5b0f6c1a2e77")),
        "{ids:?}"
    );

    // The API may have changed while nothing in the content folder did: the next build asks again.
    let built = build(&content, &out);
    assert!(built.status.success(), "{}", String::from_utf8_lossy(&built.stderr));
    assert_eq!(asked.lock().expect("lock").len(), 8, "every build fetches the API again");

    // A server that is not there fails the build naming the URL.
    let gone = std::net::TcpListener::bind("127.0.0.1:0").expect("a port").local_addr().expect("an address");
    write(
        &content,
        "site.yaml",
        &format!("{SITE}sources:\n  - collection: services\n    from: http://{gone}\n    format: hsds\n"),
    );
    let built = build(&content, &out);
    let errors = String::from_utf8_lossy(&built.stderr);
    assert!(!built.status.success() && errors.contains(&format!("http://{gone}/services?page=1")), "{errors}");
}

/// Data no one here wrote: Open Referral's example `services.csv` and `locations.csv` read as
/// plain CSV (Windows line endings, commas and quotes inside cells, empty cells, a latitude of 100).
#[test]
fn a_published_directorys_tables_read_as_plain_csv() {
    let dir = tempfile::tempdir().expect("temp");
    let (content, out) = (dir.path().join("content"), dir.path().join("dist"));
    let folder = hsds_example(&content);
    let site = format!(
        "{SITE}sources:\n  - {{collection: services, from: sources/hsds/services.csv, id: id, map: {{title: name, summary: description}}}}\n  \
         - {{collection: resources, from: sources/hsds/locations.csv, id: id, map: {{title: name, summary: description}}}}\n"
    );
    write(&content, "site.yaml", &site);
    let built = build(&content, &out);
    assert!(built.status.success(), "{}", String::from_utf8_lossy(&built.stderr));
    let rows = std::fs::read_to_string(folder.join("services.csv")).expect("services").lines().count() - 1;
    let listing = json(&out.join("api/services.json"));
    assert_eq!(listing["count"].as_u64(), Some(rows as u64), "every row is a record: {listing}");
    let counselling = service(&out, COUNSELLING);
    assert!(counselling["summary"].as_str().is_some_and(|s| s.contains("anxiety, depression")), "{counselling}");
    assert_eq!(counselling["alternate_name"], "MyCity Counselling Services");
    let place = json(&out.join("api/resources/3a19ff88-4620-4d17-9830-ac1d859eb5d5.json")).to_string();
    assert!(
        place.contains("MyCity Civic Center") && place.contains("\"latitude\":\"100\""),
        "kept as written: {place}"
    );
}
