//! `--watch`: rebuild when content or templates change, then swap the served build. Each rebuild
//! prints its warnings; a failed one prints its errors and the last good build keeps serving.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result};
use notify::{RecursiveMode, Watcher};

use super::ServerState;
use crate::build::{build, BuildError, BuildOptions};
use crate::progress::Progress;
use crate::report::Format;

/// Quiet time after the last change before rebuilding (editors write files in bursts).
const DEBOUNCE: Duration = Duration::from_millis(150);

/// Starts watching; the returned watcher must be kept alive for as long as watching should go on.
pub fn start(options: BuildOptions, state: Arc<ServerState>) -> Result<notify::RecommendedWatcher> {
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
    let mut watcher = notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
        if event.is_ok_and(|e| !e.kind.is_access()) {
            let _ = tx.send(());
        }
    })
    .context("starting the file watcher")?;
    let mut roots: Vec<PathBuf> = vec![options.content.clone()];
    roots.extend(options.templates.clone().filter(|t| t.is_dir()));
    for root in &roots {
        watcher.watch(root, RecursiveMode::Recursive).with_context(|| format!("watching {}", root.display()))?;
    }
    tokio::spawn(async move {
        while rx.recv().await.is_some() {
            while let Ok(Some(())) = tokio::time::timeout(DEBOUNCE, rx.recv()).await {}
            rebuild(&options, &state).await;
        }
    });
    Ok(watcher)
}

async fn rebuild(options: &BuildOptions, state: &ServerState) {
    let job = options.clone();
    let result = tokio::task::spawn_blocking(move || build(&job, &Progress::hidden(), false)).await;
    match result {
        Ok(Ok(report)) => match state.reload().await {
            // The warnings of each rebuild, as `portal build` prints them: an editor who saves a
            // page with a missing image hears of it here, not only on the next full build.
            Ok(()) if !report.warnings.is_empty() => {
                crate::report::warnings(Format::Human, &report.warnings);
                eprintln!(
                    "portal: rebuilt in {} ms ({} files written, {} removed) with {} warning(s)",
                    report.elapsed.as_millis(),
                    report.write.written,
                    report.write.removed,
                    report.warnings.len()
                )
            }
            Ok(()) => eprintln!(
                "portal: rebuilt in {} ms ({} files written, {} removed)",
                report.elapsed.as_millis(),
                report.write.written,
                report.write.removed
            ),
            Err(e) => eprintln!("portal: rebuilt, but reloading failed: {e:#}"),
        },
        Ok(Err(BuildError::Content(errors))) => {
            for error in &errors {
                eprintln!("{error}");
            }
            eprintln!("portal: rebuild failed with {} error(s); still serving the last good build", errors.len());
        }
        Ok(Err(BuildError::Io(e))) => {
            eprintln!("portal: rebuild failed: {e:#}; still serving the last good build")
        }
        Err(e) => eprintln!("portal: rebuild crashed: {e}"),
    }
}
