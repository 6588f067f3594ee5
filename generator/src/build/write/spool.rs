//! Copies of the files a big build packs, set aside as they are written (docs/deploying.md#memory).
//! A pack holds its files in path order, which is not the order they are made in, so the packs are
//! made last. Reading the loose files back then costs a disk read each once the output outgrows the
//! memory that caches it (a million records write some 38 GB); the copies, compressed (LZ4, a
//! little over half of the bytes on realistic content) into one unnamed file of the build cache,
//! are read back in the order they were written instead, a stream the disk serves quickly. A copy
//! is kept as a pack stores a file ([`packs::compress`]), so a pack is filled with the copies as
//! they lie here.

use std::path::Path;

use anyhow::Result;
use portal_core::dist::packs;

use crate::load::shelf::{Place, Shelf};

/// The compressed copies of a build's packable files.
#[derive(Debug)]
pub struct Spool {
    shelf: Shelf,
}

impl Spool {
    /// A spool in `dir` (the build cache), or in the system's temporary folder.
    pub fn new(dir: &Path) -> Result<Self> {
        Ok(Spool { shelf: Shelf::new(dir)? })
    }

    /// Sets aside a copy of `bytes`.
    pub fn keep(&self, bytes: &[u8]) -> Result<Place> {
        self.shelf.put_bytes(&packs::compress(bytes))
    }

    /// The bytes set aside at `place`.
    pub fn get(&self, place: Place) -> Result<Vec<u8>> {
        let stored = self.stored(place)?;
        packs::expand(&stored).map_err(|e| anyhow::anyhow!("reading a copy back from the build's spool: {e}"))
    }

    /// The copy at `place` as a pack stores it.
    pub fn stored(&self, place: Place) -> Result<Vec<u8>> {
        self.shelf.get_bytes(place)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn copies_come_back_as_they_went() {
        let dir = tempfile::tempdir().expect("dir");
        let spool = Spool::new(dir.path()).expect("spool");
        let page = "<p>Café \u{202e} \r\n</p>".repeat(100).into_bytes();
        let places: Vec<Place> = [&page[..], b"", b"{}"].iter().map(|b| spool.keep(b).expect("kept")).collect();
        assert_eq!(spool.get(places[0]).expect("read"), page);
        assert_eq!(spool.get(places[1]).expect("read"), b"");
        assert_eq!(spool.get(places[2]).expect("read"), b"{}");
    }
}
