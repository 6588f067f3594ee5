//! What the data pages and the alerts page show (docs/content.md#data-pages): the generic rule
//! that reads any snapshot of a site's `data/` folder as headline figures, charts and tables
//! ([`shape`]), the charts drawn as inline SVG ([`svg`]), both written as HTML and markdown
//! ([`markup`]), numbers as the interface language writes them ([`numbers`]), and the curated
//! alerts, active ones first ([`alerts()`]).
//!
//! Everything here is pure: the build hands in the parsed snapshot, the interface text and the
//! build time, and writes the pages. Content never seen before must not break a build, so every
//! shape the rule cannot draw is still shown (as a table or a list of facts), and every text is
//! escaped.

pub mod alerts;
pub mod markup;
pub mod numbers;
pub mod shape;
pub mod svg;
pub mod units;

pub use alerts::{alerts, Alert};
pub use markup::{snapshot_html, snapshot_markdown};
pub use shape::{analyse, Cell, Chart, Figure, Kind, Part, Series, Snapshot, Table};
