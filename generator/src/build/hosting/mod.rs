//! What the hosts that serve a build need besides its files: `_headers` for a CDN ([`cdn`]), the
//! nginx snippet ([`nginx`]) and the layout of a Worker deploy's upload ([`upload`]).

pub mod cdn;
pub mod nginx;
pub mod upload;
