//! Progress bars on a terminal, silence elsewhere (pipelines get clean logs).

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Hands out progress bars, drawn only when stderr is a terminal.
#[derive(Debug, Clone, Copy)]
pub struct Progress {
    enabled: bool,
}

impl Progress {
    /// Bars when stderr is a terminal.
    pub fn for_terminal() -> Self {
        Progress { enabled: std::io::stderr().is_terminal() }
    }

    /// Never draws (tests, `--watch` rebuilds).
    pub fn hidden() -> Self {
        Progress { enabled: false }
    }

    /// A bar for `len` steps of work called `label`.
    pub fn bar(&self, label: &str, len: u64) -> ProgressBar {
        if !self.enabled {
            return ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::hidden());
        }
        let bar = ProgressBar::new(len);
        if let Ok(style) = ProgressStyle::with_template("{prefix:>10} [{bar:30}] {pos}/{len} {elapsed}") {
            bar.set_style(style.progress_chars("=> "));
        }
        bar.set_prefix(label.to_string());
        bar
    }
}
