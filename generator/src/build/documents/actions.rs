//! The build's part of the action endpoints: the `GET /api/export` description and the mail
//! templates the submission handlers render (copied to `_portal/mail/`, internal files).
//!
//! The templates of `templates/mail/` are compiled in; a file of the same name under
//! `--templates DIR/mail/` overrides one.

use std::path::Path;

use anyhow::{Context, Result};
use portal_core::forms::mail::MAIL_DIR;
use portal_core::handlers::export::description;

use crate::build::write::file::OutFile;

/// The built-in mail templates, by file name.
const BUILT_IN: [(&str, &str); 6] = [
    ("voice-editors.txt", include_str!("../../../../templates/mail/voice-editors.txt")),
    ("voice-editors.html", include_str!("../../../../templates/mail/voice-editors.html")),
    ("booking-visitor.txt", include_str!("../../../../templates/mail/booking-visitor.txt")),
    ("booking-visitor.html", include_str!("../../../../templates/mail/booking-visitor.html")),
    ("booking-copy.txt", include_str!("../../../../templates/mail/booking-copy.txt")),
    ("booking-copy.html", include_str!("../../../../templates/mail/booking-copy.html")),
];

/// The export description and the mail templates.
pub fn files(templates: Option<&Path>) -> Result<Vec<OutFile>> {
    let mut files = vec![OutFile::at("/api/export", description().to_string().into_bytes())?];
    for (name, built_in) in BUILT_IN {
        let custom = templates.map(|dir| dir.join("mail").join(name)).filter(|path| path.is_file());
        let bytes = match custom {
            Some(path) => std::fs::read(&path).with_context(|| format!("reading {}", path.display()))?,
            None => built_in.as_bytes().to_vec(),
        };
        files.push(OutFile::internal(format!("{MAIL_DIR}/{name}"), bytes));
    }
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_template_core_renders_is_built_in() {
        for stem in portal_core::forms::mail::TEMPLATES {
            for ext in ["txt", "html"] {
                let name = format!("{stem}.{ext}");
                assert!(BUILT_IN.iter().any(|(n, _)| *n == name), "{name}");
            }
        }
        let files = files(None).expect("built-in");
        assert_eq!(files.len(), 1 + BUILT_IN.len());
    }

    #[test]
    fn a_template_folder_overrides_by_name() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::create_dir_all(dir.path().join("mail")).expect("mkdir");
        std::fs::write(dir.path().join("mail/booking-copy.txt"), "Subject: custom\n\nbody").expect("write");
        let files = files(Some(dir.path())).expect("files");
        let copy = files.iter().find(|f| f.file.ends_with("booking-copy.txt")).expect("copy");
        assert_eq!(copy.bytes, b"Subject: custom\n\nbody");
    }
}
