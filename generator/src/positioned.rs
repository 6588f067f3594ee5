//! Reading and writing a file at a position without moving its cursor, so that threads share one
//! open file (the build's record file) or write into their own places of one (a pack being filled).

use std::fs::File;

/// Writes all of `bytes` into `file` at `at`.
#[cfg(unix)]
pub fn write_at(file: &File, bytes: &[u8], at: u64) -> std::io::Result<()> {
    std::os::unix::fs::FileExt::write_all_at(file, bytes, at)
}

/// Fills `bytes` from `file` at `at`.
#[cfg(unix)]
pub fn read_at(file: &File, bytes: &mut [u8], at: u64) -> std::io::Result<()> {
    std::os::unix::fs::FileExt::read_exact_at(file, bytes, at)
}

/// Writes all of `bytes` into `file` at `at`.
#[cfg(windows)]
pub fn write_at(file: &File, mut bytes: &[u8], mut at: u64) -> std::io::Result<()> {
    while !bytes.is_empty() {
        let n = std::os::windows::fs::FileExt::seek_write(file, bytes, at)?;
        bytes = &bytes[n..];
        at += n as u64;
    }
    Ok(())
}

/// Fills `bytes` from `file` at `at`.
#[cfg(windows)]
pub fn read_at(file: &File, mut bytes: &mut [u8], mut at: u64) -> std::io::Result<()> {
    while !bytes.is_empty() {
        match std::os::windows::fs::FileExt::seek_read(file, bytes, at)? {
            0 => return Err(std::io::ErrorKind::UnexpectedEof.into()),
            n => {
                bytes = &mut bytes[n..];
                at += n as u64;
            }
        }
    }
    Ok(())
}
