//! What the hosts that serve a build need besides its files: `_headers` for a CDN (`cdn`), the
//! nginx snippet (`nginx`) and the layout of a Worker deploy's upload ([`upload`]).

pub(crate) mod cdn;
pub(crate) mod nginx;
pub mod upload;

use portal_core::dist::manifest::{Manifest, Routes};

use crate::build::write::file::{Group, OutFile};

/// `_headers` and the nginx snippet over `own`, the URLs that may need rules of their own (not
/// those of records, see `Group::record_scale`): made alike by clean builds and rebuilds.
pub fn files(manifest: &Manifest, own: &Routes) -> [OutFile; 2] {
    [cdn::headers_file(manifest, own), nginx::snippet(manifest, own)].map(|f| f.in_group(Group::Layout))
}
