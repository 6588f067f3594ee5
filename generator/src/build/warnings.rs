//! The problems that do not stop a build (unless it is `--strict`): those the content's loading
//! found, and those about the site's settings (no `base_url`, the example one of `portal init`, a
//! map without places).

use std::path::Path;

use portal_core::content::ContentError;

use crate::build::pages;
use crate::build::BuildError;
use crate::load::Content;

/// The warnings of a build: those of `loaded` and those about the site's settings.
pub fn site_warnings(content: &Content, root: &Path, loaded: Vec<ContentError>) -> Vec<ContentError> {
    let mut warnings = loaded;
    warnings.extend(pages::map::warnings(content));
    if content.site.base_url.trim().is_empty() {
        warnings.push(missing_base_url(root));
    } else if content.site.base() == crate::init::EXAMPLE_BASE_URL {
        warnings.push(example_base_url(root));
    }
    warnings.sort();
    warnings
}

/// A `--strict` build's `warnings` as its errors, if there are any.
pub(crate) fn strict(warnings: &[ContentError]) -> Result<(), BuildError> {
    if warnings.is_empty() {
        return Ok(());
    }
    Err(BuildError::Content(
        warnings
            .iter()
            .map(|w| ContentError::new(w.file.clone(), w.line, format!("{} (--strict)", w.message)))
            .collect(),
    ))
}

/// The `base_url` of a site made by `portal init` that still names the example address: its
/// feeds, sitemap, canonical links and offline copies would point at someone else's site.
fn example_base_url(content: &Path) -> ContentError {
    let file = content.join("site.yaml");
    let line = std::fs::read_to_string(&file)
        .ok()
        .and_then(|text| text.lines().position(|l| l.trim_start().starts_with("base_url:")))
        .map_or(1, |i| i + 1);
    ContentError::new(
        file.display().to_string(),
        line,
        format!(
            "`base_url` is still the example address of `portal init` ({}): set the address your site is \
             published at, which the sitemap, the news feed, canonical links and offline copies use",
            crate::init::EXAMPLE_BASE_URL
        ),
    )
}

/// The warning for a site without `base_url`: sitemap, feed and canonical links can only be
/// site-relative then.
fn missing_base_url(content: &Path) -> ContentError {
    let file = content.join("site.yaml");
    ContentError::new(
        file.display().to_string(),
        1,
        "`base_url` is not set: the sitemap, the news feed, canonical links and the API documents need the site's \
         public address (e.g. base_url: https://community.example, or --base-url); until then they use \
         site-relative links",
    )
}
