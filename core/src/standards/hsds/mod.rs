//! The Open Referral HSDS 3.0 API (docs/standards.md#hsds): the published `services` records as
//! HSDS services, with their organizations, places, schedules and taxonomy terms.
//!
//! One pure mapping ([`mapping`]) serves the build, which writes the root, the first page of each
//! list and one data file of every item ([`DATA_FILE`]), and the handlers, which page, filter and
//! find items in that file.

pub mod mapping;
pub mod model;
pub mod paging;
pub mod schedule;

pub use mapping::{data_file, root, DataFile, Organization};
pub use model::{id_of, list_item, Dataset, Kind, DATA_FILE, ROOT, VERSION};
pub use paging::{Paging, DEFAULT_PER_PAGE, MAX_PER_PAGE};
