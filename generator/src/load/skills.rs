//! Agent skills (`content/skills/<name>.md`, SKILL.md format, docs/spec/api-spec.md#discovery): front matter `name` and
//! `description`, then markdown instructions, published as files agents can fetch.

use std::path::Path;

use portal_core::content::{is_valid_slug, ContentError};
use serde_json::Value;

use super::front_matter::{key_lines, split, yaml_object};

/// The skills folder inside the content folder.
pub const FOLDER: &str = "skills";

/// One skill.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skill {
    /// Its name (the file stem).
    pub name: String,
    /// What it is for, as agents see it in the index.
    pub description: String,
    /// The file as written: served byte for byte.
    pub text: String,
}

/// Parses one skill file.
pub fn parse(stem: &str, file: &str, text: &str) -> Result<Skill, ContentError> {
    let at = |line: usize, message: String| ContentError::new(file, line, message);
    let parts = split(text).map_err(|m| at(1, m))?;
    let fields = yaml_object(parts.yaml).map_err(|e| at(e.line + parts.first_line - 1, e.message))?;
    let lines = key_lines(parts.yaml);
    let line_of = |key: &str| lines.get(key).map_or(1, |l| l + parts.first_line - 1);
    let text_field = |key: &str| match fields.get(key) {
        Some(Value::String(v)) if !v.trim().is_empty() => Ok(v.trim().to_string()),
        _ => Err(at(line_of(key), format!("a skill needs a non-empty `{key}` string in its front matter"))),
    };
    let name = text_field("name")?;
    if name != stem || !is_valid_slug(&name) || name.contains('/') {
        return Err(at(
            line_of("name"),
            format!("skill `name` must be the file name `{stem}` (lower-case letters, digits, hyphens)"),
        ));
    }
    Ok(Skill { name, description: text_field("description")?, text: text.to_string() })
}

/// Loads every skill, sorted by name; problems go into `errors`.
pub fn load(content: &Path, errors: &mut Vec<ContentError>) -> Vec<Skill> {
    let Ok(read) = std::fs::read_dir(content.join(FOLDER)) else { return Vec::new() };
    let mut paths: Vec<_> =
        read.flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|e| e == "md")).collect();
    paths.sort();
    let mut skills = Vec::new();
    for path in paths {
        let file = path.display().to_string();
        let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        match super::file::read_other(&path) {
            Ok(text) => match parse(&stem, &file, &text) {
                Ok(skill) => skills.push(skill),
                Err(e) => errors.push(e),
            },
            Err(e) => errors.push(e),
        }
    }
    skills
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_skill_needs_a_matching_name_and_a_description() {
        let ok = parse("using-the-api", "s.md", "---\nname: using-the-api\ndescription: How to.\n---\nSteps.\n")
            .expect("valid");
        assert_eq!(ok.description, "How to.");
        let wrong = parse("x", "s.md", "---\nname: other\ndescription: d\n---\n").expect_err("name");
        assert_eq!(wrong.line, 2);
        let missing = parse("x", "s.md", "---\nname: x\n---\n").expect_err("description");
        assert!(missing.message.contains("description"));
    }
}
