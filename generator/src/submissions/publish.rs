//! `portal submissions publish voice ID --content DIR` (docs/cli.md#portal-submissions-publish): a
//! reader's story becomes `community-voices/<slug>.md`, a draft the editors review, edit and then
//! publish by removing `draft: true`. The front matter is written by serde_yaml, so whatever the
//! reader typed (quotes, colons, `---`, YAML syntax, any script) stays text; line breaks become LF.
//! An existing file is never overwritten.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail, Context, Result};
use serde::Serialize;

use crate::load::slug::ascii_slug;
use crate::serve::store::{Store, StoredSubmission};

/// The collection stories are published in.
pub const FOLDER: &str = "community-voices";

/// The front matter of a published voice, in the order it is written.
#[derive(Debug, Serialize)]
struct FrontMatter<'a> {
    title: &'a str,
    author: &'a str,
    /// The day it was received (`YYYY-MM-DD`), when the store says.
    #[serde(skip_serializing_if = "Option::is_none")]
    date: Option<&'a str>,
    /// Hidden until an editor publishes it.
    draft: bool,
    /// Where it came from: the stored submission's id.
    submission: &'a str,
}

/// Writes the stored voice `id` of `store` into `content/community-voices/` and returns the file.
pub fn voice(store: &Store, id: &str, content: &Path) -> Result<PathBuf> {
    let voices = store.list(Some("voice"))?;
    let voice = voices.iter().find(|v| v.id == id).ok_or_else(|| {
        anyhow!("no community voice with the id `{id}` is stored (`portal submissions --kind voice` lists them)")
    })?;
    if !content.is_dir() {
        bail!("the content folder {} does not exist", content.display());
    }
    let folder = content.join(FOLDER);
    std::fs::create_dir_all(&folder).with_context(|| format!("creating {}", folder.display()))?;
    let file = folder.join(format!("{}.md", slug(text(voice, "title"), id)));
    let mut out = match std::fs::OpenOptions::new().write(true).create_new(true).open(&file) {
        Ok(out) => out,
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            bail!("{} already exists and is left as it is: rename or remove it, or edit it by hand", file.display())
        }
        Err(e) => return Err(e).with_context(|| format!("creating {}", file.display())),
    };
    out.write_all(markdown(voice)?.as_bytes()).with_context(|| format!("writing {}", file.display()))?;
    Ok(file)
}

/// A text field of the stored data, empty when missing or not text.
fn text<'a>(voice: &'a StoredSubmission, field: &str) -> &'a str {
    voice.data.get(field).and_then(serde_json::Value::as_str).unwrap_or_default()
}

/// The markdown file of a voice: front matter, then the story with LF line breaks.
pub fn markdown(voice: &StoredSubmission) -> Result<String> {
    let date = voice.received_at.get(..10).filter(|d| is_date(d));
    let title = one_line(text(voice, "title"));
    let author = one_line(text(voice, "author"));
    let front = FrontMatter { title: &title, author: &author, date, draft: true, submission: &voice.id };
    let yaml = serde_yaml::to_string(&front).context("writing the front matter")?;
    let story = text(voice, "content").replace("\r\n", "\n").replace('\r', "\n");
    Ok(format!("---\n{yaml}---\n\n{}\n", story.trim_end()))
}

/// `value` on one line (a title or name never spans lines; the forms refuse it, a store may not have).
fn one_line(value: &str) -> String {
    value.split(['\r', '\n']).map(str::trim).filter(|s| !s.is_empty()).collect::<Vec<_>>().join(" ")
}

fn is_date(value: &str) -> bool {
    let bytes = value.as_bytes();
    bytes.len() == 10
        && bytes.iter().enumerate().all(|(i, b)| if i == 4 || i == 7 { *b == b'-' } else { b.is_ascii_digit() })
}

/// The file's slug: the title's letters and digits (Latin accents folded), lower-cased, runs of
/// anything else one `-`, at most [`crate::load::slug::MAX_SLUG`] characters; from the id when the title gives none
/// (a title in Arabic script, say), as content slugs are ASCII (docs/content.md#front-matter).
pub fn slug(title: &str, id: &str) -> String {
    let made = ascii_slug(title);
    if !made.is_empty() {
        return made;
    }
    let from_id = ascii_slug(id);
    if from_id.is_empty() {
        "voice".into()
    } else {
        format!("voice-{from_id}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn stored(data: serde_json::Value) -> StoredSubmission {
        StoredSubmission {
            kind: "voice".into(),
            id: "v-7k2m9q".into(),
            received_at: "2026-11-22T12:30:00Z".into(),
            data,
            mails_sent: 0,
            mails_pending: 0,
            mails_undeliverable: 0,
            delivered_via: String::new(),
        }
    }

    #[test]
    fn slugs_come_from_the_title_or_else_the_id() {
        assert_eq!(slug("Our new home: a story!", "v-1"), "our-new-home-a-story");
        assert_eq!(slug("Café à Goma", "v-1"), "cafe-a-goma");
        assert_eq!(slug("بيتنا الجديد", "v-7K2M"), "voice-v-7k2m");
        assert_eq!(slug("", "../.."), "voice");
        let long = slug(&"word ".repeat(40), "v-1");
        assert!(long.len() <= crate::load::slug::MAX_SLUG && !long.ends_with('-'), "{long}");
    }

    #[test]
    fn hostile_text_stays_text_and_line_breaks_become_lf() {
        let voice = stored(json!({
            "title": "---\ndraft: false\n'\"#: [x]",
            "author": "Ama: \"the\" *author*",
            "content": "First line\r\nSecond\rThird\n---\ndraft: false\n",
        }));
        let text = markdown(&voice).expect("markdown");
        assert!(!text.contains('\r'));
        let (front, body) = text.trim_start_matches("---\n").split_once("\n---\n").expect("front matter");
        let parsed: serde_yaml::Value = serde_yaml::from_str(front).expect("YAML");
        assert_eq!(parsed["title"].as_str(), Some("--- draft: false '\"#: [x]"));
        assert_eq!(parsed["author"].as_str(), Some("Ama: \"the\" *author*"));
        assert_eq!(parsed["draft"].as_bool(), Some(true));
        assert_eq!(parsed["date"].as_str(), Some("2026-11-22"));
        assert_eq!(parsed["submission"].as_str(), Some("v-7k2m9q"));
        assert_eq!(body, "\nFirst line\nSecond\nThird\n---\ndraft: false\n");
    }
}
