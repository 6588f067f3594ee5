//! How the build's outputs reach the output folder: the output file and its group ([`file`]), the
//! sink a clean build writes each file into as it is made ([`sink`]), what is kept of each file
//! written ([`written`]), the staging folder that takes the output folder's place once the build is
//! complete ([`staging`]), the compressed copies a big build packs from ([`spool`]), the rewriting
//! of site links into relative paths ([`links`]) with the file of each URL ([`resolver`]), the
//! outputs no build may write ([`collisions`]), the manifest's head ([`manifest`]) and the route
//! index ([`routes`]).

pub mod claims;
pub mod collisions;
pub mod file;
pub mod links;
pub mod manifest;
pub mod resolver;
pub mod routes;
pub mod sink;
pub mod spool;
pub mod staging;
pub mod written;
