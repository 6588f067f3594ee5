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
    let kobo = r#"[{"_uuid": "5c1d-77", "group_service/name": "Legal aid desk", "group_service/phone": "0772 000 111", "_geolocation": [0.61, 30.65]}]"#;
    write(&content, "sources/kobo.json", kobo);
    let points = r#"{"type": "FeatureCollection", "features": [{"type": "Feature", "geometry": {"type": "Point", "coordinates": [30.65, 0.61]}, "properties": {"name": "Market day", "when": "2026-12-03T09:00:00+03:00"}}]}"#;
    write(&content, "sources/points.geojson", points);
    let built = build(&content, &out);
    assert!(built.status.success(), "{}", String::from_utf8_lossy(&built.stderr));
    let desk = json(&out.join("api/services/5c1d-77.json")).to_string();
    assert!(desk.contains("Legal aid desk") && desk.contains("\"group_service_phone\":\"0772 000 111\""), "{desk}");
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
