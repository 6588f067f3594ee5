//! The format of `dist/`, the folder `portal build` writes and every server reads: the manifest
//! and its sharded route index, files split into parts, small files bundled into packs, and the
//! stable hash their layouts depend on.

pub mod manifest;
pub mod packs;
pub mod parts;
mod route_index;
mod stable_hash;

pub use manifest::{Asset, Manifest, Routes};
pub use route_index::RouteIndex;
pub use stable_hash::fnv1a;
