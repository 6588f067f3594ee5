//! How `portal build` and `portal check` report to people and to pipelines: plain `file:line:
//! message` lines, GitHub Actions annotations (`--format github`) or JSON (`--format json`).

use portal_core::content::ContentError;
use serde_json::json;

use crate::build::BuildReport;

/// The output format of build and check results.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Format {
    /// `file:line: message` on stderr and a one-line summary.
    #[default]
    Human,
    /// GitHub Actions workflow commands, so errors show on the file and line of a pull request.
    Github,
    /// One JSON document on stdout.
    Json,
}

/// Escapes a value for a GitHub workflow command property or message.
fn github_escape(text: &str, property: bool) -> String {
    let text = text.replace('%', "%25").replace('\r', "%0D").replace('\n', "%0A");
    if property {
        text.replace(':', "%3A").replace(',', "%2C")
    } else {
        text
    }
}

/// The JSON form of content problems.
fn json_list(problems: &[ContentError]) -> Vec<serde_json::Value> {
    problems.iter().map(|e| json!({"file": e.file, "line": e.line, "message": e.message})).collect()
}

/// Reports warnings (problems that did not stop the build) for people and workflows; the JSON
/// format carries them in its summary document instead.
pub fn warnings(format: Format, warnings: &[ContentError]) {
    match format {
        Format::Human => {
            for w in warnings {
                eprintln!("{}:{}: warning: {}", w.file, w.line, w.message);
            }
        }
        Format::Github => {
            for w in warnings {
                println!(
                    "::warning file={},line={},title=portal::{}",
                    github_escape(&w.file, true),
                    w.line,
                    github_escape(&w.message, false)
                );
            }
        }
        Format::Json => {}
    }
}

/// Reports content errors (all of them).
pub fn content_errors(format: Format, errors: &[ContentError]) {
    match format {
        Format::Human => {
            for error in errors {
                eprintln!("{error}");
            }
            eprintln!("portal: {} content error(s); nothing was written", errors.len());
        }
        Format::Github => {
            for e in errors {
                println!(
                    "::error file={},line={},title=portal::{}",
                    github_escape(&e.file, true),
                    e.line,
                    github_escape(&e.message, false)
                );
            }
            eprintln!("portal: {} content error(s); nothing was written", errors.len());
        }
        Format::Json => {
            println!("{}", json!({"status": "error", "kind": "content", "errors": json_list(errors)}));
        }
    }
}

/// Reports a usage or I/O failure.
pub fn failure(format: Format, error: &anyhow::Error) {
    match format {
        Format::Json => println!("{}", json!({"status": "error", "kind": "io", "message": format!("{error:#}")})),
        Format::Github => println!("::error title=portal::{}", github_escape(&format!("{error:#}"), false)),
        Format::Human => eprintln!("portal: {error:#}"),
    }
}

/// Reports a successful build: records per collection, entries, files, bytes and time.
pub fn built(format: Format, report: &BuildReport, out: &std::path::Path) {
    warnings(format, &report.warnings);
    let records: usize = report.collections.iter().map(|(_, n)| n).sum();
    if format == Format::Json {
        let per: serde_json::Map<String, serde_json::Value> =
            report.collections.iter().map(|(c, n)| (c.to_string(), json!(n))).collect();
        println!(
            "{}",
            json!({
                "status": "ok", "out": out.display().to_string(), "records": records, "collections": per,
                "entries": report.entries, "files": report.write.files, "bytes": report.write.bytes,
                "written": report.write.written, "removed": report.write.removed,
                "uploaded": report.write.uploaded, "rebuilt": report.rebuilt, "milliseconds": report.elapsed.as_millis() as u64,
                "warnings": json_list(&report.warnings),
            })
        );
        return;
    }
    let per: Vec<String> = report.collections.iter().filter(|(_, n)| *n > 0).map(|(c, n)| format!("{c} {n}")).collect();
    println!(
        "portal: {} {records} records ({}) and {} encyclopedia entries into {}: {} files, {} bytes ({} written, {} removed; a Worker deploy uploads {}) in {} ms",
        if report.rebuilt { "rebuilt" } else { "built" },
        per.join(", "),
        report.entries,
        out.display(),
        report.write.files,
        report.write.bytes,
        report.write.written,
        report.write.removed,
        report.write.uploaded,
        report.elapsed.as_millis()
    );
}

/// Reports a successful check.
pub fn checked(format: Format, rendered: &crate::build::Rendered) {
    warnings(format, &rendered.warnings);
    let (records, entries) = (rendered.counted.records, rendered.counted.entries);
    let content_dir = &rendered.counted.root;
    match format {
        Format::Json => println!(
            "{}",
            json!({"status": "ok", "records": records, "entries": entries, "files": rendered.files.len(),
                   "warnings": json_list(&rendered.warnings)})
        ),
        _ => println!(
            "portal: {} is valid ({records} published records, {entries} encyclopedia entries)",
            content_dir.display()
        ),
    }
}
