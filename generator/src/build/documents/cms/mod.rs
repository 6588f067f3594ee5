//! The browser editor (docs/editing.md): with a `cms:` block in site.yaml, the build writes the
//! CMS's page at `/admin` and its configuration at `/admin/config.yml`; without one, neither.
//!
//! The page loads the CMS from its documented CDN, pinned to an exact release with Subresource
//! Integrity, and is served with a policy of its own (`portal_core::http::headers::cms_security`)
//! that allows what the CMS needs and nothing more; every other page keeps the site's policy.

pub mod config;
pub mod shape;

use anyhow::Result;
use portal_core::content::text::escape;
use portal_core::content::{Cms, SiteConfig};
use portal_core::http::headers::CMS_ADMIN;

use crate::build::model::Model;
use crate::build::write::file::OutFile;
use crate::load::Content;

pub use portal_core::content::cms::{release, ADMIN_PAGE as ADMIN, CDN};

/// Its configuration, relative to the page's folder.
pub const CONFIG: &str = "/admin/config.yml";

/// The CMS's page and configuration, when `site.yaml` has a `cms:` block.
pub fn files(content: &Content, model: &Model) -> Result<Vec<OutFile>> {
    let Some(cms) = &content.site.cms else { return Ok(Vec::new()) };
    let config = config::config(&content.site, cms, &content.strings, model, &content.root);
    let yaml = serde_yaml::to_string(&config)?;
    let mut page = OutFile::at(ADMIN, admin_page(&content.site, cms).into_bytes())?;
    page.headers = Some(CMS_ADMIN.to_string());
    let mut config = OutFile::at(CONFIG, yaml.into_bytes())?;
    config.headers = Some(CMS_ADMIN.to_string());
    Ok(vec![page, config])
}

/// The page that loads the CMS: its script and the link to the configuration, and a notice that
/// says plainly what is wrong when the script cannot load (offline, the CDN blocked, the file
/// changed under its integrity hash). The notice needs no script of its own, which the page's
/// policy would refuse: a style rule hides it once the CMS has added its app after the script.
pub fn admin_page(site: &SiteConfig, cms: &Cms) -> String {
    let release = release(cms.app);
    let language = escape(&site.language);
    let title = escape(&site.title);
    format!(
        "<!doctype html>\n<html lang=\"{language}\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <meta name=\"robots\" content=\"noindex\">\n<title>{title}: content manager</title>\n\
         <link href=\"admin/config.yml\" type=\"text/yaml\" rel=\"cms-config-url\">\n\
         <style>body:has(> script ~ :not(script, style, link)) > .cms-status {{ display: none }}\n\
         .cms-status {{ font: 1rem/1.5 system-ui, sans-serif; max-width: 40rem; margin: 2rem auto; padding: 0 1rem }}</style>\n\
         </head>\n<body>\n\
         <noscript>The content manager needs JavaScript.</noscript>\n\
         <div class=\"cms-status\" role=\"status\"><p>The content manager is loading.</p>\n\
         <p>If this message stays, the content manager's script could not be loaded from {cdn}: check the \
         internet connection, or ask whoever runs this network or browser to allow {cdn}, then reload the \
         page. The published site is not affected.</p></div>\n\
         <script src=\"{url}\" integrity=\"{integrity}\" crossorigin=\"anonymous\"></script>\n</body>\n</html>\n",
        cdn = escape(CDN),
        url = release.url(),
        integrity = release.integrity,
    )
}
