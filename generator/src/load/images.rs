//! The images a record shows: front matter `image` (a URL or path, or `{src, alt}`) and the images
//! of its body. A malformed `image`, or one whose URL the site's URL policy refuses
//! (`javascript:`, `data:`...; see crate::sanitize), is a content error; a local path that names no file of
//! `static/` is a warning with the line it is written on (the page still shows the image's alt
//! text, and the build goes on).
//!
//! A path written `//evil.example/x.png` (or `\\evil.example`, `/\x`) is no path of the site: a
//! browser reads it as an address on another host. As `image` it is a content error (it would be
//! published as a local path in some places and as an address in others); in a body, a warning
//! on its line (it stays what it is, an image from another host).

use std::path::Path;

use portal_core::content::url_policy::is_protocol_relative;
use portal_core::content::{ContentError, Record};
use serde_json::Value;

use super::front_matter::key_lines;
use super::statics::{Reference, StaticFiles};
use crate::html;
use crate::sanitize::{allowed_url, URL_SCHEMES};

/// Why an image written without a scheme but with a host is not what its author meant.
const OTHER_HOST: &str = "it names another host without a scheme, so it is no path under static/; \
     write a path with one leading `/` (`/media/x.png`), or the whole address (`https://...`)";

/// A record's `image`, as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImageRef {
    /// The URL or path.
    pub src: String,
    /// The alternative text, when the mapping form gives one.
    pub alt: Option<String>,
}

/// Keys the mapping form of `image` takes.
const IMAGE_KEYS: [&str; 2] = ["src", "alt"];

impl ImageRef {
    /// The `image` of a record's front matter: `Ok(None)` without one, `Err` with the message for
    /// a malformed one or one outside the URL policy. Keys of the mapping other than `src` and
    /// `alt` are ignored (see [`check`]).
    pub fn of(fields: &serde_json::Map<String, Value>) -> Result<Option<ImageRef>, String> {
        let image = Self::written(fields)?;
        match &image {
            Some(ImageRef { src, .. }) if !allowed_url(src) => Err(format!(
                "`image` `{src}` is not published: an image is a path under static/ or a URL starting {}",
                URL_SCHEMES.map(|s| format!("`{s}:`")).join(", ")
            )),
            Some(ImageRef { src, .. }) if is_protocol_relative(src) => {
                Err(format!("`image` `{src}` is not published: {}", OTHER_HOST))
            }
            _ => Ok(image),
        }
    }

    fn written(fields: &serde_json::Map<String, Value>) -> Result<Option<ImageRef>, String> {
        let non_empty = |s: &str| (!s.trim().is_empty()).then(|| s.trim().to_string());
        match fields.get("image") {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(src)) => {
                non_empty(src).map(|src| Some(ImageRef { src, alt: None })).ok_or_else(|| "`image` is empty".into())
            }
            Some(Value::Object(map)) => {
                let src = map.get("src").and_then(Value::as_str).and_then(non_empty);
                let src = src.ok_or("`image` needs `src`: a URL, or a path under static/ such as /media/well.jpg")?;
                let alt = match map.get("alt") {
                    None | Some(Value::Null) => None,
                    Some(Value::String(alt)) => non_empty(alt),
                    Some(_) => return Err("`image.alt` must be text".into()),
                };
                Ok(Some(ImageRef { src, alt }))
            }
            Some(_) => Err("`image` must be a URL or path, or a mapping with `src` and `alt`".into()),
        }
    }

    /// The text read out instead of the image: the mapping's `alt`, else front matter `alt` or
    /// `image_alt`, else the title.
    pub fn alt_text(&self, record: &Record) -> String {
        let field = |key: &str| record.fields.get(key).and_then(Value::as_str).map(str::trim).filter(|a| !a.is_empty());
        self.alt
            .clone()
            .or_else(|| field("alt").or_else(|| field("image_alt")).map(str::to_string))
            .unwrap_or_else(|| record.title.clone())
    }
}

/// The `src` of every image of a rendered body.
pub fn body_images(html_body: &str) -> Vec<String> {
    html::start_tags(html_body, "img")
        .into_iter()
        .filter_map(|range| html::attribute(&html_body[range], "src"))
        .map(|src| html::unescape(&src))
        .collect()
}

/// Checks the images of `record` (loaded from `file`, whose text is `text`): errors for a
/// malformed `image`, warnings for local paths naming no static file.
pub fn check(
    record: &Record,
    file: &Path,
    text: &str,
    statics: &StaticFiles,
    errors: &mut Vec<ContentError>,
    warnings: &mut Vec<ContentError>,
) {
    let name = file.display().to_string();
    let image_line = || key_lines(text).get("image").copied().unwrap_or(1);
    match ImageRef::of(&record.fields) {
        Err(message) => errors.push(ContentError::new(&name, image_line(), message)),
        Ok(Some(image)) => {
            if let Reference::Missing(path) = statics.resolve(&image.src) {
                warnings.push(ContentError::new(&name, image_line(), missing(&image.src, &path)));
            }
            if let Some(Value::Object(map)) = record.fields.get("image") {
                for key in map.keys().filter(|k| !IMAGE_KEYS.contains(&k.as_str())) {
                    warnings.push(ContentError::new(
                        &name,
                        image_line(),
                        format!("`image.{key}` is not used: `image` takes `src` and `alt`"),
                    ));
                }
            }
        }
        Ok(None) => {}
    }
    let Some(body) = record.html.as_deref() else { return };
    for src in body_images(body) {
        let line = || text.lines().position(|l| l.contains(src.as_str())).map_or(1, |i| i + 1);
        if is_protocol_relative(&src) {
            warnings.push(ContentError::new(&name, line(), format!("image `{src}`: {OTHER_HOST}")));
        } else if let Reference::Missing(path) = statics.resolve(&src) {
            warnings.push(ContentError::new(&name, line(), missing(&src, &path)));
        }
    }
}

fn missing(src: &str, path: &str) -> String {
    format!("image `{src}` not found: there is no static/{path} (local images live under the content folder's static/)")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load::records::{parse, Format};

    fn record(text: &str) -> Record {
        parse("news", "x", "news/x.md", Format::Markdown, text, &[]).expect("valid")
    }

    fn run(text: &str) -> (Vec<ContentError>, Vec<ContentError>) {
        let (mut errors, mut warnings) = (Vec::new(), Vec::new());
        check(&record(text), Path::new("news/x.md"), text, &StaticFiles::default(), &mut errors, &mut warnings);
        (errors, warnings)
    }

    #[test]
    fn both_forms_and_the_alt_text_fallbacks() {
        let r = record("---\ntitle: Well\nimage: /media/well.jpg\nimage_alt: A pump\n---\n");
        let image = ImageRef::of(&r.fields).expect("ok").expect("image");
        assert_eq!((image.src.as_str(), image.alt_text(&r).as_str()), ("/media/well.jpg", "A pump"));
        let r = record("---\ntitle: Well\nimage: {src: a.jpg, alt: Children at the pump}\n---\n");
        assert_eq!(ImageRef::of(&r.fields).expect("ok").expect("image").alt_text(&r), "Children at the pump");
        let r = record("---\ntitle: Well\nimage: {src: a.jpg}\n---\n");
        assert_eq!(ImageRef::of(&r.fields).expect("ok").expect("image").alt_text(&r), "Well");
        let r = record("---\ntitle: Well\nimage: a.jpg\nalt: Blue pump\nimage_alt: ignored\n---\n");
        assert_eq!(ImageRef::of(&r.fields).expect("ok").expect("image").alt_text(&r), "Blue pump");
    }

    #[test]
    fn a_malformed_image_is_an_error_on_its_line() {
        let (errors, _) = run("---\ntitle: Well\nimage: [a, b]\n---\n");
        assert_eq!(errors.len(), 1);
        assert_eq!(errors[0].line, 3);
        let (errors, _) = run("---\ntitle: Well\nimage:\n  alt: no source\n---\n");
        assert!(errors[0].message.contains("needs `src`"), "{errors:?}");
    }

    #[test]
    fn an_image_outside_the_url_policy_is_an_error_on_its_line() {
        for image in [
            "\"javascript:alert(1)\"",
            "{src: \" JavaScript:alert(1)\", alt: x}",
            "\"data:image/svg+xml,<svg/>\"",
            "vbscript:x",
        ] {
            let (errors, _) = run(&format!("---\ntitle: Well\nimage: {image}\n---\n"));
            assert_eq!(errors.len(), 1, "{image}");
            assert_eq!(errors[0].line, 3);
            assert!(errors[0].message.contains("is not published"), "{}", errors[0].message);
        }
    }

    #[test]
    fn a_protocol_relative_image_is_no_local_path() {
        for image in ["//evil.example/x.png", "{src: \"//evil.example/x.png\", alt: x}", "'\\\\evil.example/x.png'"] {
            let (errors, _) = run(&format!("---\ntitle: Well\nimage: {image}\n---\n"));
            assert_eq!(errors.len(), 1, "{image}");
            assert_eq!(errors[0].line, 3);
            assert!(errors[0].message.contains("names another host"), "{}", errors[0].message);
        }
        let (errors, warnings) = run("---\ntitle: Well\n---\n\nText.\n\n![A pump](//evil.example/x.png)\n");
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(warnings.iter().map(|w| w.line).collect::<Vec<_>>(), [7]);
        assert!(
            warnings[0].message.contains("`//evil.example/x.png`: it names another host"),
            "{}",
            warnings[0].message
        );
    }

    #[test]
    fn missing_local_images_are_warnings_with_their_line() {
        let (errors, warnings) =
            run("---\ntitle: Well\nimage: /media/gone.jpg\n---\n\nText.\n\n![A pump](media/pump.png)\n");
        assert!(errors.is_empty());
        let lines: Vec<usize> = warnings.iter().map(|w| w.line).collect();
        assert_eq!(lines, [3, 8]);
        assert!(warnings[1].message.contains("static/media/pump.png"), "{}", warnings[1].message);
        let (_, warnings) = run("---\ntitle: Well\nimage: https://example.org/a.jpg\n---\n");
        assert!(warnings.is_empty());
    }
}
