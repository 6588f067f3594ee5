//! `portal`: builds a content folder into `dist/` and serves it.
//!
//! [`load`] reads `content/` into the core's model, [`build`] renders every static endpoint into
//! `dist/` with its manifest, and [`serve`] runs the core's handlers natively over `dist/`.
//! Data flows one way: content, model, dist, handlers.

pub mod build;
pub mod html;
pub mod images;
pub mod import;
pub mod init;
pub mod load;
pub mod markdown;
pub mod positioned;
pub mod progress;
pub mod report;
pub mod sanitize;
#[cfg(feature = "serve")]
pub mod serve;
pub mod snapshot;
#[cfg(feature = "serve")]
pub mod submissions;
pub mod theme;
