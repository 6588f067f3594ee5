//! The build's clock and where its time goes: the build time every output names, and how long each
//! step took with the memory the process held (printed when `PORTAL_TIMINGS` is set).

use std::time::{Duration, Instant};

use portal_core::content::time::DateTime;

/// The build time: `SOURCE_DATE_EPOCH` when set (reproducible builds), else now.
pub fn build_time() -> DateTime {
    let from_env = std::env::var("SOURCE_DATE_EPOCH").ok().and_then(|v| v.trim().parse::<i64>().ok());
    let now = || std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs() as i64);
    DateTime::from_unix(from_env.unwrap_or_else(now))
}

/// How long each step of a build took, the memory the process held after it and the most it held
/// during it, printed to stderr when `PORTAL_TIMINGS` is set (for profiling builds; see
/// BENCHMARKS.md). The most held between two steps is kept too, so that the peak printed is the
/// process's whatever runs outside a timed step.
#[derive(Debug, Default)]
pub(crate) struct Steps {
    done: Vec<(&'static str, Duration, Option<Resident>)>,
    /// The most held outside the steps timed so far, in MiB.
    between: u64,
}

impl Steps {
    pub(crate) fn time<T>(&mut self, name: &'static str, step: impl FnOnce() -> T) -> T {
        let timed = std::env::var_os("PORTAL_TIMINGS").is_some();
        if timed {
            self.note_between();
            Resident::reset_peak();
        }
        let started = Instant::now();
        let result = step();
        let resident = timed.then(Resident::now).flatten();
        self.done.push((name, started.elapsed(), resident));
        result
    }

    /// Keeps the peak since the last step ended.
    fn note_between(&mut self) {
        if let Some(resident) = Resident::now() {
            self.between = self.between.max(resident.peak);
        }
    }

    pub(crate) fn report(&mut self) {
        if std::env::var_os("PORTAL_TIMINGS").is_some() {
            self.note_between();
            let parts: Vec<String> = self
                .done
                .iter()
                .map(|(name, d, resident)| match resident {
                    Some(r) => format!("{name} {} ms ({} MiB, peak {} MiB)", d.as_millis(), r.now, r.peak),
                    None => format!("{name} {} ms", d.as_millis()),
                })
                .collect();
            eprintln!("portal: timings: {}", parts.join(", "));
            let in_steps = self.done.iter().filter_map(|(_, _, r)| r.map(|r| r.peak)).max().unwrap_or(0);
            let between = if self.between > in_steps { " (between two of them)" } else { "" };
            eprintln!("portal: timings: peak of these steps {} MiB{between}", in_steps.max(self.between));
        }
    }
}

/// The memory the process holds (its resident set), where the system says (Linux).
#[derive(Debug, Clone, Copy)]
struct Resident {
    /// Now, in MiB.
    now: u64,
    /// The most since the last [`Resident::reset_peak`] (or the start), in MiB.
    peak: u64,
}

impl Resident {
    fn now() -> Option<Self> {
        let status = std::fs::read_to_string("/proc/self/status").ok()?;
        let mib = |key: &str| -> Option<u64> {
            let line = status.lines().find(|line| line.starts_with(key))?;
            Some(line.split_whitespace().nth(1)?.parse::<u64>().ok()? / 1024)
        };
        Some(Resident { now: mib("VmRSS:")?, peak: mib("VmHWM:")? })
    }

    /// Starts the peak over from the memory held now (Linux's `clear_refs`; elsewhere the peak
    /// is the process's). This also resets what `getrusage` and `/usr/bin/time` report as the
    /// process's peak, so a timed build prints the largest of its steps' peaks at its end.
    fn reset_peak() {
        let _ = std::fs::write("/proc/self/clear_refs", "5");
    }
}

/// Frees `value` on a thread of its own: freeing a big site's outputs and model takes a while, and
/// nothing needs to wait for it (a command exits, a server goes on serving).
pub(crate) fn free_later<T: Send + 'static>(value: T) {
    std::thread::spawn(move || drop(value));
}
