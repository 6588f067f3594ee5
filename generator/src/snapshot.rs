//! Offline snapshots: the built site packed into one `.tar.gz` with a manifest of SHA-256
//! checksums and the build time, checked by `portal verify` and served by `portal serve --dist FILE`
//! straight from memory, for places with little or no connectivity.

use std::collections::{BTreeMap, HashMap};
use std::io::Read;
use std::path::Path;

use anyhow::{bail, Context, Result};
use bytes::Bytes;
use flate2::read::GzDecoder;
use flate2::write::GzEncoder;
use flate2::Compression;
use portal_core::dist::manifest::{Manifest, MANIFEST_FILE};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// The snapshot's own manifest, the first entry of the archive.
pub const SNAPSHOT_MANIFEST: &str = "snapshot.json";

/// What a snapshot says about itself.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SnapshotManifest {
    /// Format version.
    pub format: u32,
    /// The build time of the packed site.
    pub generated_at: String,
    /// The site's title and base URL, for people finding the file later.
    pub site: String,
    /// SHA-256 (hex) of every file, by path inside the build folder.
    pub files: BTreeMap<String, String>,
}

fn sha256(bytes: &[u8]) -> String {
    Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}

/// Packs the build folder `dist` into `out`; returns the number of files.
pub fn pack(dist: &Path, out: &Path) -> Result<usize> {
    let manifest: Manifest = serde_json::from_slice(
        &std::fs::read(dist.join(MANIFEST_FILE))
            .with_context(|| format!("{} is not a build folder", dist.display()))?,
    )
    .context("reading the build manifest")?;
    let mut files = BTreeMap::new();
    // Neither the parts of large files nor the packs of small ones that a Worker upload uses (the copy has every file whole, as `portal serve` reads them).
    let left_out = [portal_core::dist::parts::PARTS_DIR, portal_core::dist::packs::PACKS_DIR].map(|dir| dist.join(dir));
    let walk = walkdir::WalkDir::new(dist).sort_by_file_name().into_iter();
    for entry in walk.filter_entry(|e| !left_out.iter().any(|dir| e.path() == dir)) {
        let entry = entry.with_context(|| format!("reading {}", dist.display()))?;
        if entry.file_type().is_file() {
            let relative = entry.path().strip_prefix(dist).unwrap_or(entry.path()).to_string_lossy().replace('\\', "/");
            files.insert(
                relative,
                std::fs::read(entry.path()).with_context(|| format!("reading {}", entry.path().display()))?,
            );
        }
    }
    let snapshot = SnapshotManifest {
        format: 1,
        generated_at: manifest.generated_at.clone(),
        site: format!("{} <{}>", manifest.site.title, manifest.site.base()),
        files: files.iter().map(|(path, bytes)| (path.clone(), sha256(bytes))).collect(),
    };
    let mtime =
        portal_core::content::time::parse_content_date(&manifest.generated_at).map_or(0, |d| d.unix.max(0) as u64);
    let file = std::fs::File::create(out).with_context(|| format!("creating {}", out.display()))?;
    let mut archive = tar::Builder::new(GzEncoder::new(file, Compression::default()));
    let mut append = |path: &str, bytes: &[u8]| -> Result<()> {
        let mut header = tar::Header::new_gnu();
        header.set_size(bytes.len() as u64);
        header.set_mode(0o644);
        header.set_mtime(mtime);
        header.set_cksum();
        archive.append_data(&mut header, path, bytes).with_context(|| format!("adding {path}"))
    };
    append(SNAPSHOT_MANIFEST, &serde_json::to_vec_pretty(&snapshot)?)?;
    for (path, bytes) in &files {
        append(path, bytes)?;
    }
    archive.into_inner().context("finishing the archive")?.finish().context("finishing the archive")?;
    Ok(files.len())
}

/// A snapshot read and checked: every file present with its recorded checksum, nothing extra.
pub struct Snapshot {
    /// Its manifest.
    pub manifest: SnapshotManifest,
    /// Every file's bytes by path.
    pub files: HashMap<String, Bytes>,
}

/// Reads `path` and verifies it; any mismatch is an error naming the files at fault.
pub fn open(path: &Path) -> Result<Snapshot> {
    let file = std::fs::File::open(path).with_context(|| format!("opening {}", path.display()))?;
    let mut archive = tar::Archive::new(GzDecoder::new(file));
    let mut files = HashMap::new();
    let mut manifest = None;
    for entry in archive.entries().context("reading the archive")? {
        let mut entry = entry.context("reading the archive")?;
        // An archive re-packed with `tar` (`tar czf copy.tar.gz -C unpacked .`) lists its folders
        // and names files `./a/b`: folders are not files, and `./` is no part of a name.
        if entry.header().entry_type().is_dir() {
            continue;
        }
        let name = entry.path().context("reading an entry name")?.to_string_lossy().into_owned();
        let name = name.trim_start_matches("./").to_string();
        let mut bytes = Vec::new();
        entry.read_to_end(&mut bytes).with_context(|| format!("reading {name}"))?;
        if name == SNAPSHOT_MANIFEST {
            manifest = Some(serde_json::from_slice::<SnapshotManifest>(&bytes).context("reading snapshot.json")?);
        } else {
            files.insert(name, Bytes::from(bytes));
        }
    }
    let Some(manifest) = manifest else {
        bail!("{} has no {SNAPSHOT_MANIFEST}: not a portal snapshot", path.display())
    };
    let mut problems = Vec::new();
    for (name, expected) in &manifest.files {
        match files.get(name) {
            None => problems.push(format!("{name}: missing")),
            Some(bytes) if &sha256(bytes) != expected => problems.push(format!("{name}: checksum mismatch")),
            Some(_) => {}
        }
    }
    problems
        .extend(files.keys().filter(|n| !manifest.files.contains_key(*n)).map(|n| format!("{n}: not in the manifest")));
    if !problems.is_empty() {
        problems.sort();
        bail!("{} failed verification:\n  {}", path.display(), problems.join("\n  "));
    }
    if !files.contains_key(MANIFEST_FILE) {
        bail!("{} holds no build manifest ({MANIFEST_FILE})", path.display());
    }
    Ok(Snapshot { manifest, files })
}
