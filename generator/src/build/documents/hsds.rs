//! The HSDS 3.0 API as built files (docs/standards.md#hsds): its root, the first page of each list
//! and one data file of every item, which the core's handlers page, filter and search. A big site
//! adds seven files, not one per item.

use anyhow::Result;
use portal_core::content::SiteConfig;
use portal_core::standards::hsds::{self, list_item, Paging};
use serde_json::Value;

use crate::build::write::file::OutFile;

/// The HSDS files of the `services` records `items` (as the API lists them, in its order).
pub fn files(items: &[Value], site: &SiteConfig) -> Result<Vec<OutFile>> {
    let first = Paging::default();
    let data = hsds::data_file(items, site, first.per_page);
    let mut files = vec![OutFile::at(hsds::ROOT, hsds::root(site).to_string().into_bytes())?];
    for (kind, total, firsts) in &data.kinds {
        let contents = firsts.iter().map(|item| list_item(*kind, item)).collect();
        files.push(OutFile::at(kind.list_path(), first.envelope(*total, contents).to_string().into_bytes())?);
    }
    files.push(OutFile::internal(hsds::DATA_FILE, data.bytes));
    Ok(files)
}
