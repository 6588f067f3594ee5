//! `portal import FORMAT SOURCE --collection C`: a one-time migration of a table or export into
//! record files (docs/content.md#importing-once). The rows are read and mapped exactly as a
//! `sources:` entry reads them (see [`crate::load::sources`]), each checked as a record, and
//! written as `content/<collection>/<slug>.md`. Nothing is written when a row is not a record, two
//! rows share a slug, or a file is already there (unless `--force`), so an import is all or
//! nothing and never overwrites someone's work by surprise.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use portal_core::content::{ContentError, DataSource};

use crate::load::sources::{self, Front, Remote};

/// What to import.
#[derive(Debug, Clone)]
pub struct Import {
    /// The source as a `sources:` entry would name it (`from` a path or a URL).
    pub source: DataSource,
    /// The content folder to write into.
    pub content: PathBuf,
    /// Whether existing files may be replaced.
    pub force: bool,
}

/// Why an import wrote nothing.
#[derive(Debug)]
pub enum Refused {
    /// Rows that are not records, or slugs two rows share.
    Content(Vec<ContentError>),
    /// Files already there (without `--force`).
    Existing(Vec<PathBuf>),
    /// The files could not be written.
    Io(anyhow::Error),
}

/// Reads the source and writes its records; returns the files written.
pub fn run(import: &Import) -> Result<Vec<PathBuf>, Refused> {
    let cache = sources::remote::copies_in(&sources::remote::cache_beside(&import.content));
    let remote = Remote { cache: Some(cache), offline: false };
    let fronts = sources::fronts(Path::new("."), &import.source, &remote).map_err(Refused::Content)?;
    let folder = import.content.join(&import.source.collection);
    let mut planned: BTreeMap<String, (String, Front)> = BTreeMap::new();
    let mut errors = Vec::new();
    for (place, front) in fronts {
        if let Some((first, _)) = planned.get(&front.slug) {
            let message =
                format!("{place}: the slug `{}` is also {first}'s; choose a unique column with --id", front.slug);
            errors.push(ContentError::new(&import.source.from, 1, message));
            continue;
        }
        planned.insert(front.slug.clone(), (place, front));
    }
    if !errors.is_empty() {
        return Err(Refused::Content(errors));
    }
    let targets: Vec<(PathBuf, &Front)> =
        planned.values().map(|(_, front)| (folder.join(format!("{}.md", front.slug)), front)).collect();
    let existing: Vec<PathBuf> =
        targets.iter().filter(|(path, _)| path.exists()).map(|(path, _)| path.clone()).collect();
    if !existing.is_empty() && !import.force {
        return Err(Refused::Existing(existing));
    }
    std::fs::create_dir_all(&folder).with_context(|| format!("creating {}", folder.display())).map_err(Refused::Io)?;
    for (path, front) in &targets {
        std::fs::write(path, file_text(front)?)
            .with_context(|| format!("writing {}", path.display()))
            .map_err(Refused::Io)?;
    }
    Ok(targets.into_iter().map(|(path, _)| path).collect())
}

/// The keys a record file shows first, as people write them; the others follow in name order.
const FIRST: &[&str] = &["title", "summary", "date", "updated", "category", "tags"];

/// A record file: the front matter as YAML between `---` lines, then the body.
fn file_text(front: &Front) -> Result<String, Refused> {
    let first = |key: &String| FIRST.iter().position(|k| k == key).unwrap_or(FIRST.len());
    let mut keys: Vec<&String> = front.fields.keys().collect();
    keys.sort_by_key(|key| first(key));
    let mut mapping = serde_yaml::Mapping::new();
    for key in keys {
        let value =
            serde_yaml::to_value(&front.fields[key.as_str()]).context("writing front matter").map_err(Refused::Io)?;
        mapping.insert(serde_yaml::Value::String(key.clone()), value);
    }
    let yaml = serde_yaml::to_string(&mapping).context("writing front matter").map_err(Refused::Io)?;
    let body = front.body.as_deref().unwrap_or_default().trim_end();
    Ok(format!("---\n{yaml}---\n{}{}", body, if body.is_empty() { "" } else { "\n" }))
}

/// A `--map` argument, `field=Column`.
pub fn parse_map(text: &str) -> Result<(String, String), String> {
    let (field, column) = text.split_once('=').ok_or_else(|| format!("`{text}`: write it as field=Column"))?;
    let (field, column) = (field.trim(), column.trim());
    if field.is_empty() || column.is_empty() {
        return Err(format!("`{text}`: both the field and the column are needed (field=Column)"));
    }
    Ok((field.to_string(), column.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_map_argument_names_a_field_and_a_column() {
        assert_eq!(parse_map("contact.phone = Phone (main)"), Ok(("contact.phone".into(), "Phone (main)".into())));
        assert!(parse_map("title").is_err());
        assert!(parse_map("=Name").is_err());
    }
}
