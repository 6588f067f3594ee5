//! The staging folder of a clean build (docs/deploying.md#how-a-build-is-written): every output is
//! written there as it is made, and the folder takes the place of the output folder only once the
//! build is complete. A build that fails (a broken template, a record that does not validate, a
//! URL two files claim) removes it and leaves the last build's files as they were.
//!
//! It sits beside the output folder (`.dist.staging` for `dist`), on the same file system, so the
//! switch is a rename: of the whole folder when there was no output folder, of each file into an
//! empty one, and into an earlier build only of the files whose bytes changed (the others keep
//! their times, so uploads and copies stay small), the files no longer made then removed.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use portal_core::dist::manifest::MANIFEST_FILE;
use rayon::prelude::*;

use crate::build::write::written::{digest, Written};

/// A staging folder, removed unless the build switches to it.
#[derive(Debug)]
pub struct Staging {
    folder: PathBuf,
    out: PathBuf,
}

/// What switching changed in the output folder.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Switched {
    /// Files written (new or changed).
    pub written: usize,
    /// Stale files removed.
    pub removed: usize,
}

impl Staging {
    /// An empty staging folder for a build into `out` (one an interrupted build left is removed).
    pub fn new(out: &Path) -> Result<Staging> {
        let absolute = std::path::absolute(out).with_context(|| format!("finding {}", out.display()))?;
        let name = absolute.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "dist".into());
        let parent = absolute.parent().map(Path::to_path_buf).unwrap_or_else(|| absolute.clone());
        let folder = parent.join(format!(".{name}.staging"));
        if folder.exists() {
            std::fs::remove_dir_all(&folder).with_context(|| format!("removing {}", folder.display()))?;
        }
        std::fs::create_dir_all(&folder).with_context(|| format!("creating {}", folder.display()))?;
        Ok(Staging { folder, out: out.to_path_buf() })
    }

    /// The folder outputs are written into.
    pub fn path(&self) -> &Path {
        &self.folder
    }

    /// Puts the staged build in the output folder's place; `files` are every file staged.
    pub fn switch(self, files: &[Written], pool: &rayon::ThreadPool) -> Result<Switched> {
        let all = Switched { written: files.len(), removed: 0 };
        if !self.out.exists() {
            std::fs::rename(&self.folder, &self.out)
                .with_context(|| format!("renaming {} to {}", self.folder.display(), self.out.display()))?;
            return Ok(all);
        }
        let empty =
            std::fs::read_dir(&self.out).with_context(|| format!("reading {}", self.out.display()))?.next().is_none();
        if empty {
            for entry in
                std::fs::read_dir(&self.folder).with_context(|| format!("reading {}", self.folder.display()))?
            {
                let entry = entry.with_context(|| format!("reading {}", self.folder.display()))?;
                move_file(&entry.path(), &self.out.join(entry.file_name()))?;
            }
            return Ok(all);
        }
        self.merge(files, pool)
    }

    /// Moves into an earlier build the files whose bytes changed, the manifest last (a server never
    /// reads a manifest ahead of its files), then removes the files no longer made.
    fn merge(&self, files: &[Written], pool: &rayon::ThreadPool) -> Result<Switched> {
        let (head, rest): (Vec<&Written>, Vec<&Written>) = files.iter().partition(|w| w.file() == MANIFEST_FILE);
        let moved: Vec<bool> =
            pool.install(|| rest.par_iter().map(|w| self.move_if_changed(w)).collect::<Result<_>>())?;
        let mut written = moved.iter().filter(|m| **m).count();
        for w in head {
            written += usize::from(self.move_if_changed(w)?);
        }
        let keep: HashSet<PathBuf> = files.iter().map(|w| self.out.join(w.file())).collect();
        let removed = remove_stale(&self.out, &keep)?;
        Ok(Switched { written, removed })
    }

    /// Moves a staged file over the output folder's, unless that one has the same bytes.
    fn move_if_changed(&self, w: &Written) -> Result<bool> {
        let to = self.out.join(w.file());
        let same = std::fs::metadata(&to).is_ok_and(|m| m.len() == w.len)
            && std::fs::read(&to).is_ok_and(|old| digest(&old) == w.hash);
        if same {
            return Ok(false);
        }
        if let Some(parent) = to.parent() {
            std::fs::create_dir_all(parent).with_context(|| format!("creating {}", parent.display()))?;
        }
        move_file(&self.folder.join(w.file()), &to)?;
        Ok(true)
    }
}

impl Drop for Staging {
    /// Removes what is left of the staging folder: all of it after a failure, the unchanged
    /// copies after a switch into an earlier build.
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.folder);
    }
}

/// Renames `from` to `to`; copies it where a rename cannot (another file system: an output folder
/// that is a mount point).
fn move_file(from: &Path, to: &Path) -> Result<()> {
    if std::fs::rename(from, to).is_ok() {
        return Ok(());
    }
    if from.is_dir() {
        for entry in walkdir::WalkDir::new(from).min_depth(1) {
            let entry = entry.with_context(|| format!("reading {}", from.display()))?;
            let target = to.join(entry.path().strip_prefix(from).unwrap_or(entry.path()));
            if entry.file_type().is_dir() {
                std::fs::create_dir_all(&target).with_context(|| format!("creating {}", target.display()))?;
            } else {
                std::fs::copy(entry.path(), &target).with_context(|| format!("writing {}", target.display()))?;
            }
        }
        return Ok(());
    }
    std::fs::copy(from, to).with_context(|| format!("writing {}", to.display()))?;
    Ok(())
}

/// Removes the files of `out` not in `keep`, and the folders left empty.
fn remove_stale(out: &Path, keep: &HashSet<PathBuf>) -> Result<usize> {
    let mut removed = 0;
    let mut dirs = Vec::new();
    // Everything not made now goes, a build cache an older version kept here included: the
    // output folder holds only what may be published.
    for entry in walkdir::WalkDir::new(out).min_depth(1) {
        let entry = entry.with_context(|| format!("reading {}", out.display()))?;
        let path = entry.path();
        if entry.file_type().is_dir() {
            dirs.push((entry.depth(), path.to_path_buf()));
        } else if !keep.contains(path) {
            std::fs::remove_file(path).with_context(|| format!("removing stale {}", path.display()))?;
            removed += 1;
        }
    }
    dirs.sort_by_key(|(depth, _)| std::cmp::Reverse(*depth));
    for (_, dir) in &dirs {
        // Only empty folders go; a non-empty one simply stays.
        let _ = std::fs::remove_dir(dir);
    }
    Ok(removed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::build::write::file::OutFile;

    fn stage(staging: &Staging, files: &[(&str, &str)]) -> Vec<Written> {
        files
            .iter()
            .map(|(name, text)| {
                let file = OutFile::internal(*name, text.as_bytes().to_vec());
                crate::build::write::sink::put(&staging.path().join(name), &file.bytes).expect("staged");
                Written::of(&file)
            })
            .collect()
    }

    fn pool() -> rayon::ThreadPool {
        rayon::ThreadPoolBuilder::new().num_threads(2).build().expect("pool")
    }

    #[test]
    fn a_failed_build_leaves_the_last_one_and_no_staging() {
        let dir = tempfile::tempdir().expect("temp dir");
        let out = dir.path().join("dist");
        std::fs::create_dir_all(&out).expect("dist");
        std::fs::write(out.join("index.html"), "old").expect("old");
        let staging = Staging::new(&out).expect("staging");
        stage(&staging, &[("index.html", "new")]);
        let folder = staging.path().to_path_buf();
        drop(staging);
        assert!(!folder.exists(), "the staging folder goes");
        assert_eq!(std::fs::read_to_string(out.join("index.html")).expect("kept"), "old");
    }

    #[test]
    fn a_switch_into_an_earlier_build_moves_only_what_changed() {
        let dir = tempfile::tempdir().expect("temp dir");
        let out = dir.path().join("dist");
        let first = Staging::new(&out).expect("staging");
        let files = stage(&first, &[("a/same.html", "same"), ("b.html", "before"), ("gone.html", "x")]);
        assert_eq!(first.switch(&files, &pool()).expect("switched").written, 3);
        let stamp = |name: &str| std::fs::metadata(out.join(name)).and_then(|m| m.modified()).expect("time");
        let same_before = stamp("a/same.html");
        let second = Staging::new(&out).expect("staging");
        let files = stage(&second, &[("a/same.html", "same"), ("b.html", "after"), ("c/new.html", "new")]);
        let switched = second.switch(&files, &pool()).expect("switched");
        assert_eq!(switched, Switched { written: 2, removed: 1 });
        assert_eq!(stamp("a/same.html"), same_before, "an unchanged file is not rewritten");
        assert_eq!(std::fs::read_to_string(out.join("b.html")).expect("b"), "after");
        assert!(out.join("c/new.html").exists() && !out.join("gone.html").exists());
        assert!(!dir.path().join(".dist.staging").exists());
    }
}
