//! A content error pinned to a file and line, the form every content problem is reported in.

/// One problem in the content folder, shown as `file:line: message`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct ContentError {
    /// The file, as the user named it (relative to where `portal` runs when possible).
    pub file: String,
    /// The 1-based line inside the file.
    pub line: usize,
    /// What is wrong, and where possible how to fix it.
    pub message: String,
}

impl ContentError {
    /// An error at `file:line`.
    pub fn new(file: impl Into<String>, line: usize, message: impl Into<String>) -> Self {
        ContentError { file: file.into(), line: line.max(1), message: message.into() }
    }
}

impl std::fmt::Display for ContentError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}: {}", self.file, self.line, self.message)
    }
}

impl std::error::Error for ContentError {}
