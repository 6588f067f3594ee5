//! The manifest's head (`dist/_portal/manifest.json`, see `portal_core::dist::manifest`): what
//! every server reads of a build before any of its files: the site's settings, strings, menu,
//! header sets and the count of route-index shards.

use portal_core::content::time::DateTime;
use portal_core::dist::manifest::{shard_count, Manifest, MANIFEST_FORMAT};

use crate::build::documents::discovery;
use crate::build::model::Model;
use crate::build::pages;
use crate::load::Content;

/// The manifest head of a build of `routes` URLs.
pub fn head(
    content: &Content,
    model: &Model,
    intros: &pages::intro::Intros,
    generated_at: DateTime,
    routes: usize,
) -> Manifest {
    Manifest {
        format: MANIFEST_FORMAT,
        generated_at: generated_at.rfc3339(),
        site: content.site.clone(),
        strings: content.strings.clone(),
        navigation: pages::navigation::main_menu(content, model),
        header_sets: discovery::header_sets(&content.site),
        not_found_page: Some(pages::NOT_FOUND_FILE.to_string()),
        route_shards: shard_count(routes),
        intros: intros.per_request(),
        help: intros.help.clone(),
    }
}
