//! The HSDS 3.0 API as built files (docs/standards.md#hsds): its root, the first page of each list
//! and one data file of every item, which the core's handlers page, filter and search. A big site
//! adds seven files, not one per item.

use anyhow::Result;
use portal_core::content::SiteConfig;
use portal_core::standards::hsds::{self, list_item, Kind, Paging};
use serde_json::Value;

use crate::build::write::file::OutFile;

/// The HSDS files of the `services` records `items` (as the API lists them, in its order).
pub fn files(items: &[Value], site: &SiteConfig) -> Result<Vec<OutFile>> {
    let data = hsds::dataset(items, site);
    let mut files = vec![OutFile::at(hsds::ROOT, hsds::root(site).to_string().into_bytes())?];
    let first = Paging::default();
    for kind in Kind::ALL {
        let all = data.items(kind);
        let contents = all[first.window(all.len())].iter().map(|item| list_item(kind, item)).collect();
        files.push(OutFile::at(kind.list_path(), first.envelope(all.len(), contents).to_string().into_bytes())?);
    }
    files.push(OutFile::internal(hsds::DATA_FILE, serde_json::to_vec(&data)?));
    Ok(files)
}
