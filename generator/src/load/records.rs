//! One record file (`.md` with front matter, or `.yaml`/`.yml`/`.json`) into a validated record,
//! with its markdown rendered. Errors carry the file and the line inside it.

use std::path::Path;

use portal_core::content::did_you_mean::near_miss;
use portal_core::content::event::spellings;
use portal_core::content::{known_keys, ContentError, Issue, Record, SiteConfig};
use serde_json::{Map, Value};

use super::front_matter::{self, key_lines};
use super::images;
use super::statics::StaticFiles;
use crate::markdown;

/// The record file formats (docs/content.md#the-content-folder).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Front matter and a markdown body.
    Markdown,
    /// A YAML mapping, no body.
    Yaml,
    /// A JSON object, no body.
    Json,
}

impl Format {
    /// The file endings of the format, as messages list them.
    pub fn extensions(self) -> &'static str {
        match self {
            Format::Markdown => ".md",
            Format::Yaml => ".yaml, .yml",
            Format::Json => ".json",
        }
    }

    /// The format of a file by extension; `None` for files that are not records.
    pub fn of(path: &Path) -> Option<Format> {
        match path.extension()?.to_str()? {
            "md" => Some(Format::Markdown),
            "yaml" | "yml" => Some(Format::Yaml),
            "json" => Some(Format::Json),
            _ => None,
        }
    }
}

/// Why a file in a collection (or the encyclopedia) folder is not published, when it is not:
/// portal publishes only record files there, and a file it would skip silently is an error that
/// names it. `accepted` says which formats the folder takes.
pub fn stray_file(path: &Path, accepted: &[Format]) -> Option<String> {
    if Format::of(path).is_some_and(|f| accepted.contains(&f)) {
        return None;
    }
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let extension = path.extension().map(|e| e.to_string_lossy().to_lowercase()).unwrap_or_default();
    let kinds = accepted.iter().map(|f| f.extensions()).collect::<Vec<_>>().join(", ");
    Some(match extension.as_str() {
        "jpg" | "jpeg" | "png" | "gif" | "webp" | "svg" | "avif" | "mp4" | "mp3" | "pdf" => format!(
            "`{name}` is media in a content folder, where portal publishes nothing: move media to `static/` \
             (e.g. static/media/{name}) and link it from the record (`image: /media/{name}`)"
        ),
        "md" | "markdown" | "yaml" | "yml" | "json" => format!(
            "`{name}` is not published: files here end in lower-case {kinds}; rename it (e.g. to {})",
            Path::new(&name.to_lowercase())
                .with_extension(if extension == "markdown" { "md" } else { &extension })
                .display()
        ),
        _ => format!(
            "`{name}` is not a record file (they end in {kinds}) and portal publishes nothing from it: \
             move it out of the content folder"
        ),
    })
}

/// The default slug: the path inside the collection folder, without extension, lower-cased.
pub fn path_slug(collection_dir: &Path, path: &Path) -> String {
    let relative = path.strip_prefix(collection_dir).unwrap_or(path).with_extension("");
    let parts: Vec<String> = relative.components().map(|c| c.as_os_str().to_string_lossy().to_lowercase()).collect();
    parts.join("/")
}

pub use super::file::read_text;

/// Loads one record file of `collection` (every problem of the file), then checks its images
/// against `static/` (errors with the record's own, warnings pushed into `warnings`). `allow`
/// lists the front-matter keys the site keeps although they look like typos; with the `site`'s
/// settings, what the calendar and JSON-LD cannot use is a warning too.
pub fn load_checked(
    collection: &str,
    collection_dir: &Path,
    path: &Path,
    statics: &StaticFiles,
    allow: &[String],
    site: Option<&SiteConfig>,
    warnings: &mut Vec<ContentError>,
) -> Result<Record, Vec<ContentError>> {
    let file = path.display().to_string();
    let text = read_text(path).map_err(|e| vec![e])?;
    let format = Format::of(path).unwrap_or(Format::Markdown);
    let record = parse(collection, &path_slug(collection_dir, path), &file, format, &text, allow)?;
    let mut errors = Vec::new();
    images::check(&record, path, &text, statics, &mut errors, warnings);
    if let Some(site) = site {
        standards_warnings(&record, site, &file, &text, warnings);
    }
    if errors.is_empty() {
        Ok(record)
    } else {
        Err(errors)
    }
}

/// What the calendar feeds and the schema.org JSON-LD cannot make of a record (an event's times
/// they cannot read; a job or event without what search engines require): warnings on the line
/// of the key at fault, never errors (docs/standards.md).
fn standards_warnings(record: &Record, site: &SiteConfig, file: &str, text: &str, warnings: &mut Vec<ContentError>) {
    use portal_core::content::event;
    use portal_core::standards::json_ld;
    let lines = key_lines(text);
    let line = |message: &str| {
        // The first key the message names.
        let key =
            ["start", "end", "date"].into_iter().filter_map(|k| Some((message.find(&format!("`{k}`"))?, k))).min();
        let key = key.map(|(_, k)| k);
        key.and_then(|k| event::spellings(k).find_map(|k| lines.get(k).copied())).unwrap_or(1)
    };
    let mut messages = if record.collection == "events" { event::problems(&record.fields) } else { Vec::new() };
    messages.extend(json_ld::warnings(record, site));
    for message in messages {
        warnings.push(ContentError::new(file, line(&message), message));
    }
}

/// A record file's front matter and body, with where the front matter starts (for error lines).
pub struct Parsed<'a> {
    /// Front-matter keys in file order.
    pub fields: Map<String, Value>,
    /// The markdown body, when there is one.
    pub body: Option<String>,
    /// The 1-based file line where the front matter text starts.
    pub first_line: usize,
    /// The front matter text (for finding a key's line).
    pub source: &'a str,
}

/// Splits and parses a record file's text (front matter syntax only; no validation).
pub fn parse_source<'a>(file: &str, format: Format, text: &'a str) -> Result<Parsed<'a>, Vec<ContentError>> {
    let at = |line: usize, message: String| vec![ContentError::new(file, line, message)];
    Ok(match format {
        Format::Markdown => {
            let split = front_matter::split(text).map_err(|m| at(1, m))?;
            // A parser that stops at the end of the front matter points past it: clamp to its last line.
            let last_line = split.yaml.lines().count().max(1);
            let fields = front_matter::yaml_object(split.yaml)
                .map_err(|e| at(e.line.min(last_line) + split.first_line - 1, e.message))?;
            let body = split.body.trim_start_matches(['\n', '\r']).trim_end();
            let body = (!body.is_empty()).then(|| portal_core::content::text::clean(body).into_owned());
            Parsed { fields, body, first_line: split.first_line, source: split.yaml }
        }
        Format::Yaml => Parsed {
            fields: front_matter::yaml_object(text).map_err(|e| at(e.line, e.message))?,
            body: None,
            first_line: 1,
            source: text,
        },
        Format::Json => Parsed {
            fields: front_matter::json_object(text).map_err(|e| at(e.line, e.message))?,
            body: None,
            first_line: 1,
            source: text,
        },
    })
}

/// Pins validation issues to `file:line` using the line of the key each concerns.
pub fn locate(file: &str, parsed_source: &str, first_line: usize, issues: Vec<Issue>) -> Vec<ContentError> {
    let lines = key_lines(parsed_source);
    issues
        .into_iter()
        .map(|Issue { key, message }| {
            // An event's `start` may have been written `starts` (portal_core::content::event::ALIASES).
            let line =
                key.and_then(|k| spellings(&k).find_map(|k| lines.get(k).copied())).map_or(1, |l| l + first_line - 1);
            ContentError::new(file, line, message)
        })
        .collect()
}

/// Keys of `fields` that are almost a known key (`Draft`, `sumary`): each an error at its line with
/// the key it was probably meant to be, unless `allow` keeps it.
pub fn near_misses(file: &str, parsed: &Parsed<'_>, known: &[&str], allow: &[String]) -> Vec<ContentError> {
    let issues: Vec<Issue> = parsed
        .fields
        .keys()
        .filter(|key| !known.contains(&key.as_str()) && !allow.iter().any(|a| a == *key))
        .filter_map(|key| {
            let meant = near_miss(key, known.iter().copied())?;
            Some(Issue {
                key: Some(key.clone()),
                message: format!(
                    "unknown front-matter key `{key}`: did you mean `{meant}`? (To keep `{key}` on purpose, list it \
                     in site.yaml under front_matter: allow.)"
                ),
            })
        })
        .collect();
    locate(file, parsed.source, parsed.first_line, issues)
}

/// Parses the text of a record file: every problem of the file, front-matter typos included.
/// Pure, so tests and fuzzers can call it without files.
pub fn parse(
    collection: &str,
    slug: &str,
    file: &str,
    format: Format,
    text: &str,
    allow: &[String],
) -> Result<Record, Vec<ContentError>> {
    let parsed = parse_source(file, format, text)?;
    let mut errors = near_misses(file, &parsed, &known_keys(collection), allow);
    let Parsed { fields, body, first_line, source } = parsed;
    let record = Record::from_fields(collection, slug, fields, body);
    let mut record = match record {
        Ok(record) if errors.is_empty() => record,
        Ok(_) => return Err(errors),
        Err(issues) => {
            errors.extend(locate(file, source, first_line, issues));
            errors.sort();
            return Err(errors);
        }
    };
    record.file = file.to_string();
    if let Some(body) = &record.body {
        record.html = Some(markdown::to_html(body));
    }
    Ok(record)
}

/// The line of a top-level `key:` of a record file, else 1 (for errors found after parsing,
/// such as duplicate slugs or unknown related entries).
pub fn key_line(path: &Path, key: &str) -> usize {
    let Ok(text) = read_text(path) else {
        return 1;
    };
    key_lines(&text).get(key).copied().unwrap_or(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_md(text: &str) -> Result<Record, Vec<ContentError>> {
        parse("news", "x", "news/x.md", Format::Markdown, text, &[])
    }

    #[test]
    fn errors_count_lines_from_the_top_of_the_file() {
        let errors = parse_md("---\ntitle: Ok\nsummary: fine\ndate: 2026-02-31\n---\nbody\n").expect_err("bad date");
        assert_eq!(errors[0].line, 4);
        assert_eq!(errors[0].to_string().split(": ").next(), Some("news/x.md:4"));
        let errors = parse_md("---\ntitle: Ok\nlist: [a\n---\n").expect_err("bad yaml");
        assert!(errors[0].line >= 3, "{errors:?}");
    }

    #[test]
    fn body_is_rendered_and_kept() {
        let r = parse_md("---\ntitle: Café Amani\n---\n\n# Open daily\n").expect("valid");
        assert_eq!(r.body.as_deref(), Some("# Open daily"));
        assert_eq!(r.html.as_deref(), Some("<h1>Open daily</h1>\n"));
        assert_eq!(r.title, "Café Amani");
    }

    #[test]
    fn json_and_yaml_records_have_no_body() {
        let r = parse("news", "x", "x.json", Format::Json, r#"{"title": "T", "b": 1, "a": 2}"#, &[]).expect("json");
        assert!(r.body.is_none());
        let keys: Vec<&String> = r.fields.keys().collect();
        assert_eq!(keys, ["title", "b", "a"]);
        let missing = parse("news", "x", "x.yaml", Format::Yaml, "summary: no title\n", &[]).expect_err("no title");
        assert_eq!(missing[0].line, 1);
    }

    #[test]
    fn nested_paths_make_nested_slugs() {
        let slug = path_slug(Path::new("content/docs"), Path::new("content/docs/API/Getting-Started.md"));
        assert_eq!(slug, "api/getting-started");
    }
}
