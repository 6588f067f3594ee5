//! `content/static/**` as files of the build: each copied to the same path (`static/media/well.jpg`
//! is `dist/media/well.jpg`, served at `/media/well.jpg` with the media type of its extension), and
//! the resized variants of its JPEG and PNG images under `_img/<width>/` (see [`crate::images`]).
//! Sources are read and decoded once each, in parallel. A static file whose URL or file is also a
//! built page's is a content error naming both. Each is served with the security headers of
//! static files (`portal_core::http::headers::STATIC_FILES`; an SVG sandboxed).

use std::collections::HashMap;

use anyhow::Context;
use portal_core::content::ContentError;
use portal_core::http::headers::static_set;
use portal_core::http::media;
use rayon::prelude::*;

use crate::build::write::file::{Group, OutFile};
use crate::build::write::written::Written;
use crate::build::BuildError;
use crate::images::{make_variants, variant_file, variant_widths};
use crate::load::statics::StaticFiles;

/// The static files and the variants of their images.
pub fn files(statics: &StaticFiles) -> Result<Vec<OutFile>, BuildError> {
    let made: Vec<Result<Vec<OutFile>, BuildError>> = statics
        .0
        .par_iter()
        .map(|(rel, file)| {
            let bytes = std::fs::read(&file.path).with_context(|| format!("reading {}", file.path.display()))?;
            let mut out = Vec::new();
            if !variant_widths(rel, file.size).is_empty() {
                let variants = make_variants(rel, &bytes).map_err(|e| {
                    BuildError::Content(vec![ContentError::new(
                        file.path.display().to_string(),
                        1,
                        format!("cannot make smaller copies of this image: {e:#}"),
                    )])
                })?;
                for (width, variant) in variants {
                    let name = variant_file(rel, width);
                    out.push(OutFile::served(format!("/{name}"), name, media::of_file(rel), variant));
                }
            }
            out.push(OutFile::served(format!("/{rel}"), rel.clone(), media::of_file(rel), bytes));
            Ok(out)
        })
        .collect();
    let mut files = Vec::new();
    let mut errors = Vec::new();
    for result in made {
        match result {
            Ok(mut out) => files.append(&mut out),
            Err(BuildError::Content(mut problems)) => errors.append(&mut problems),
            Err(other) => return Err(other),
        }
    }
    if errors.is_empty() {
        Ok(files.into_iter().map(|f| f.in_group(Group::Statics)).map(with_security_headers).collect())
    } else {
        errors.sort();
        Err(BuildError::Content(errors))
    }
}

/// `file` with the security headers of static files (an SVG's sandboxed): a file opened on its own
/// is held to the policy of the pages (SECURITY.md, "What content may run").
fn with_security_headers(mut file: OutFile) -> OutFile {
    file.headers = Some(static_set(&file.content_type).to_string());
    file
}

/// Checks that no static file among `files` takes the URL or the file of another output of the
/// build.
pub fn check_clashes(files: &[Written], sources: &StaticFiles) -> Result<(), BuildError> {
    // The static files are few and the files built many (millions on a big site): the names of the
    // first are looked for among the second, the last file built with the name standing.
    let statics: Vec<&Written> = files.iter().filter(|f| f.group == Group::Statics).collect();
    // Each static file's names: its file (0), then its URL (1).
    let mut names: HashMap<&str, Vec<(usize, usize)>> = HashMap::new();
    for (i, f) in statics.iter().enumerate() {
        names.entry(f.file()).or_default().push((i, 0));
        names.entry(f.route().unwrap_or("")).or_default().push((i, 1));
    }
    let mut taken: Vec<[Option<&Written>; 2]> = vec![[None; 2]; statics.len()];
    for built in files.iter().filter(|f| f.group != Group::Statics) {
        for name in std::iter::once(built.file()).chain(built.route()) {
            for &(i, which) in names.get(name).into_iter().flatten() {
                taken[i][which] = Some(built);
            }
        }
    }
    let mut errors = Vec::new();
    for (f, [by_file, by_route]) in statics.into_iter().zip(taken) {
        let Some(other) = by_file.or(by_route) else { continue };
        let source = sources.0.get(f.file()).map_or_else(|| f.file().to_string(), |s| s.path.display().to_string());
        let what = match other.route() {
            Some(route) => format!("the page or file the build writes for {route} ({})", other.file()),
            None => format!("the build's own {}", other.file()),
        };
        errors.push(ContentError::new(
            source,
            1,
            format!("this static file would be published at /{} and clash with {what}; rename or move it", f.file()),
        ));
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(BuildError::Content(errors))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_static_file_that_takes_a_page_is_an_error_naming_both() {
        let page = Written::of(&OutFile::served("/news", "news.html", "text/html; charset=utf-8", b"page".to_vec()));
        let of_statics = |f: OutFile| Written::of(&f.in_group(Group::Statics));
        let clash =
            of_statics(OutFile::served("/news.html", "news.html", "text/html; charset=utf-8", b"mine".to_vec()));
        let fine = of_statics(OutFile::served("/media/a.jpg", "media/a.jpg", "image/jpeg", b"jpg".to_vec()));
        let Err(BuildError::Content(errors)) = check_clashes(&[clash, fine.clone(), page], &StaticFiles::default())
        else {
            panic!("a clash must be an error");
        };
        assert_eq!(errors.len(), 1);
        assert!(errors[0].message.contains("/news (news.html)"), "{}", errors[0].message);
        assert!(check_clashes(&[fine], &StaticFiles::default()).is_ok());
    }
}
