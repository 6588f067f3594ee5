//! Routing: the route table (every route of the spec, what serves it, its description for the
//! OpenAPI document) and the matcher that finds a path's route fast.

mod matcher;
mod table;

pub use table::*;
