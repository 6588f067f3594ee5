//! Loading `content/encyclopedia/*.md` (docs/content.md#encyclopedia-entries): entries validated
//! like records plus their sources, aliases and language; then every `related` slug must name a
//! published entry.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use portal_core::content::{ContentError, Entry, ENTRY_KEYS, KNOWN_KEYS};
use portal_core::search::schema::fold;

use super::images;
use super::records::{key_line, locate, near_misses, parse_source, path_slug, read_text, stray_file, Format};
use super::statics::StaticFiles;
use crate::markdown;

/// The encyclopedia folder inside the content folder.
pub const FOLDER: &str = "encyclopedia";

/// Parses one entry file's text.
pub fn parse(slug: &str, file: &str, text: &str, allow: &[String]) -> Result<Entry, Vec<ContentError>> {
    let parsed = parse_source(file, Format::Markdown, text)?;
    let known: Vec<&str> = KNOWN_KEYS.iter().chain(ENTRY_KEYS).copied().collect();
    let mut errors = near_misses(file, &parsed, &known, allow);
    let entry = Entry::from_fields(slug, parsed.fields, parsed.body);
    let mut entry = match entry {
        Ok(entry) if errors.is_empty() => entry,
        Ok(_) => return Err(errors),
        Err(issues) => {
            errors.extend(locate(file, parsed.source, parsed.first_line, issues));
            errors.sort();
            return Err(errors);
        }
    };
    entry.record.file = file.to_string();
    if let Some(body) = &entry.record.body {
        entry.record.html = Some(markdown::to_html(body));
    }
    Ok(entry)
}

/// Loads every published entry (and drafts when `drafts` is set), in title order; all problems are
/// collected into `errors`, problems with their images into `warnings`.
pub fn load(
    content: &Path,
    drafts: bool,
    statics: &StaticFiles,
    allow: &[String],
    errors: &mut Vec<ContentError>,
    warnings: &mut Vec<ContentError>,
) -> Vec<Entry> {
    let dir = content.join(FOLDER);
    let files = entry_files(&dir, errors);
    type Parsed = (PathBuf, Result<Entry, Vec<ContentError>>, Vec<ContentError>);
    let parsed: Vec<Parsed> = super::read_ahead::par_map(
        &files,
        |path| path.as_path(),
        |path| {
            let file = path.display().to_string();
            let mut found = Vec::new();
            let result = read_text(path).map_err(|e| vec![e]).and_then(|text| {
                let entry = parse(&path_slug(&dir, path), &file, &text, allow)?;
                let mut problems = Vec::new();
                images::check(&entry.record, path, &text, statics, &mut problems, &mut found);
                if problems.is_empty() {
                    Ok(entry)
                } else {
                    Err(problems)
                }
            });
            (path.clone(), result, found)
        },
    );
    let mut entries: Vec<(PathBuf, Entry)> = Vec::new();
    let mut failed: Vec<(PathBuf, Vec<String>)> = Vec::new();
    let mut seen: HashMap<String, PathBuf> = HashMap::new();
    for (path, result, found) in parsed {
        match result {
            Ok(entry) if entry.record.draft && !drafts => {}
            Ok(entry) => {
                warnings.extend(found);
                if let Some(first) = seen.insert(entry.record.slug.clone(), path.clone()) {
                    errors.push(ContentError::new(
                        path.display().to_string(),
                        key_line(&path, "slug"),
                        format!(
                            "duplicate slug `{}` in the encyclopedia: {} already uses it",
                            entry.record.slug,
                            first.display()
                        ),
                    ));
                    continue;
                }
                entries.push((path, entry));
            }
            Err(mut problems) => {
                errors.append(&mut problems);
                failed.push((path.clone(), related_of(&path)));
            }
        }
    }
    let published: Vec<(PathBuf, Vec<String>)> =
        entries.iter().map(|(path, entry)| (path.clone(), entry.related.clone())).collect();
    check_related(&entries, published.iter().chain(&failed), errors);
    let mut entries: Vec<Entry> = entries.into_iter().map(|(_, entry)| entry).collect();
    entries.sort_by_cached_key(|e| (fold(&e.record.title), e.record.slug.clone()));
    entries
}

/// Loads one entry file (every problem of the file), checking its images against `static/`.
pub fn load_one(
    content: &Path,
    path: &Path,
    statics: &StaticFiles,
    allow: &[String],
    warnings: &mut Vec<ContentError>,
) -> Result<Entry, Vec<ContentError>> {
    let file = path.display().to_string();
    let text = read_text(path).map_err(|e| vec![e])?;
    let entry = parse(&path_slug(&content.join(FOLDER), path), &file, &text, allow)?;
    let mut problems = Vec::new();
    images::check(&entry.record, path, &text, statics, &mut problems, warnings);
    if problems.is_empty() {
        Ok(entry)
    } else {
        Err(problems)
    }
}

/// The `related` slugs an entry that failed to load names, so they are checked with its other
/// problems (every problem of a file is reported, not only the first).
fn related_of(path: &Path) -> Vec<String> {
    let Ok(text) = read_text(path) else { return Vec::new() };
    let Ok(parsed) = parse_source(&path.display().to_string(), Format::Markdown, &text) else { return Vec::new() };
    let related = parsed.fields.get("related").and_then(|v| v.as_array());
    related.into_iter().flatten().filter_map(|v| v.as_str().map(str::to_string)).collect()
}

/// Every `related` slug must name a published entry.
fn check_related<'a>(
    entries: &[(PathBuf, Entry)],
    lists: impl Iterator<Item = &'a (PathBuf, Vec<String>)>,
    errors: &mut Vec<ContentError>,
) {
    let known: std::collections::HashSet<&str> = entries.iter().map(|(_, e)| e.record.slug.as_str()).collect();
    for (path, related_slugs) in lists {
        for related in related_slugs {
            if !known.contains(related.as_str()) {
                errors.push(ContentError::new(
                    path.display().to_string(),
                    key_line(path, "related"),
                    format!("`related` names `{related}`, which is not a published encyclopedia entry"),
                ));
            }
        }
    }
}

/// The entry files of the encyclopedia folder `dir`, sorted; a folder or a stray file is an error.
pub fn entry_files(dir: &Path, errors: &mut Vec<ContentError>) -> Vec<PathBuf> {
    let Ok(read) = std::fs::read_dir(dir) else { return Vec::new() };
    let mut files = Vec::new();
    for entry in read.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') {
            continue;
        }
        if path.is_dir() {
            errors.push(ContentError::new(
                path.display().to_string(),
                1,
                "encyclopedia entries are not nested: move these files up",
            ));
        } else {
            match stray_file(&path, &[Format::Markdown]) {
                None => files.push(path),
                Some(message) => errors.push(ContentError::new(path.display().to_string(), 1, message)),
            }
        }
    }
    files.sort();
    files
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_source_names_the_file_and_line() {
        let errors = parse("asylum", "encyclopedia/asylum.md", "---\ntitle: Asylum\nsummary: x\n---\nBody\n", &[])
            .expect_err("no sources");
        assert_eq!(errors[0].to_string(), "encyclopedia/asylum.md:1: missing `sources`: every encyclopedia entry cites at least one source ({title, url, publisher?, date?})");
        let errors = parse("asylum", "e.md", "---\ntitle: A\nsources: []\n---\n", &[]).expect_err("empty sources");
        assert_eq!(errors[0].line, 3);
    }
}
