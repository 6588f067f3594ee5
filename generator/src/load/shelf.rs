//! Records kept on disk while a build runs (docs/deploying.md#memory): a big site's records do
//! not fit in memory together, so a build writes each one to an unnamed file as it is loaded,
//! keeps only its card and its place in that file, and reads the records back a batch at a time
//! for the steps that need them whole (the API's files, the search index, the pages).

use std::collections::BTreeMap;
use std::fs::File;
use std::path::Path;
use std::sync::Mutex;

use anyhow::{Context, Result};
use rayon::prelude::*;

use crate::positioned::{read_at, write_at};
use serde::de::DeserializeOwned;
use serde::Serialize;

/// The records of a build on a shelf: each collection's places, in API order.
#[derive(Debug)]
pub struct Shelved {
    /// The file.
    pub shelf: Shelf,
    /// Each collection's records.
    pub places: BTreeMap<&'static str, Vec<Place>>,
    /// The encyclopedia's entries, in title order.
    pub entries: Vec<Place>,
}

/// Where a record lies in a [`Shelf`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Place {
    at: u64,
    len: u32,
}

impl Place {
    /// How many bytes lie there.
    pub fn bytes(self) -> u64 {
        u64::from(self.len)
    }
}

/// An unnamed file of records (or of other bytes a build puts aside: see `build::write::spool`), removed
/// by the system when the build ends (or dies).
#[derive(Debug)]
pub struct Shelf {
    file: File,
    end: Mutex<u64>,
}

impl Shelf {
    /// A shelf in `dir` (made if missing), or in the system's temporary folder when `dir` cannot
    /// hold one.
    pub fn new(dir: &Path) -> Result<Self> {
        let file = std::fs::create_dir_all(dir)
            .and_then(|()| tempfile::tempfile_in(dir))
            .or_else(|_| tempfile::tempfile())
            .with_context(|| format!("making a file for the records in {}", dir.display()))?;
        Ok(Shelf { file, end: Mutex::new(0) })
    }

    /// Puts `record` (or an entry) on the shelf.
    pub fn put<T: Serialize>(&self, record: &T) -> Result<Place> {
        self.put_bytes(&serde_json::to_vec(record)?)
    }

    /// The record (or entry) at `place`.
    pub fn get<T: DeserializeOwned>(&self, place: Place) -> Result<T> {
        Ok(serde_json::from_slice(&self.get_bytes(place)?)?)
    }

    /// Puts `bytes` on the shelf, after what is there.
    pub fn put_bytes(&self, bytes: &[u8]) -> Result<Place> {
        let len = u32::try_from(bytes.len()).context("an item of over 4 GiB for the build's working file")?;
        // The place is taken under the lock and written outside it, so writers never wait on
        // each other's disk writes.
        let at = {
            let mut end = self.end.lock().map_err(|_| anyhow::anyhow!("the build's working file failed"))?;
            let at = *end;
            *end += u64::from(len);
            at
        };
        write_at(&self.file, bytes, at).context("writing the build's working file (in the cache folder)")?;
        Ok(Place { at, len })
    }

    /// The bytes at `place`.
    pub fn get_bytes(&self, place: Place) -> Result<Vec<u8>> {
        let mut bytes = vec![0; place.len as usize];
        read_at(&self.file, &mut bytes, place.at).context("reading the build's working file back")?;
        Ok(bytes)
    }

    /// The records at `places`, in their order, read in parallel.
    pub fn get_all<T: DeserializeOwned + Send>(&self, places: &[Place]) -> Result<Vec<T>> {
        places.par_iter().map(|place| self.get(*place)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn records_come_back_as_they_went() {
        let dir = tempfile::tempdir().expect("dir");
        let shelf = Shelf::new(&dir.path().join("cache")).expect("shelf");
        let parse = |text: &str| {
            let format = crate::load::records::Format::Markdown;
            crate::load::records::parse("news", "x", "news/x.md", format, text, &[]).expect("valid")
        };
        let mut first = parse("---\ntitle: \"Café \u{202e} \\\"Amani\\\"\"\ndate: 2026-01-02\n---\r\n# Hi\r\n");
        first.fields.insert("price".into(), json!(0.1 + 0.2));
        first.fields.insert("big".into(), json!(1.0e300));
        first.fields.insert("a".into(), json!(["x", {"z": 1, "b": null}]));
        let second = parse("---\ntitle: Two\n---\n");
        let places = [shelf.put(&first).expect("put"), shelf.put(&second).expect("put")];
        let back: Vec<portal_core::content::Record> = shelf.get_all(&[places[1], places[0]]).expect("get");
        assert_eq!(back, vec![second, first.clone()]);
        let keys: Vec<&String> = back[1].fields.keys().collect();
        assert_eq!(keys, ["title", "date", "price", "big", "a"], "front matter keeps its order");
    }
}
