//! A progress bar on stderr (indicatif's), drawn only when stderr is a terminal: done/total
//! in the work's own unit, elapsed time and an estimate of the time left. It reads the
//! clock for display only (the simulation never does).

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A bar over `total` steps.
pub struct Progress {
    bar: ProgressBar,
}

impl Progress {
    /// A bar over `total` ticks; `quiet` (machine output on stdout) draws nothing.
    pub fn new(total: u64, quiet: bool) -> Progress {
        Progress::counting(total, quiet, "ticks")
    }

    /// A bar over `total` steps counted in `unit` (e.g. "matches", "floors: rows").
    pub fn counting(total: u64, quiet: bool, unit: &str) -> Progress {
        let target = if quiet || !std::io::stderr().is_terminal() {
            ProgressDrawTarget::hidden()
        } else {
            ProgressDrawTarget::stderr_with_hz(4)
        };
        let bar = ProgressBar::with_draw_target(Some(total), target);
        let style = ProgressStyle::with_template(&format!(
            "[{{bar:30}}] {{percent:>3}}% {{pos}}/{{len}} {unit}, {{elapsed}} elapsed, about {{eta}} left"
        ))
        .expect("the template is valid")
        .progress_chars("#>-");
        bar.set_style(style);
        Progress { bar }
    }

    /// `done` steps so far.
    pub fn tick(&mut self, done: u64) {
        self.bar.set_position(done);
    }

    /// Runs `f` (which prints) with the bar out of the way.
    pub fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        self.bar.suspend(f)
    }

    /// Clears the bar.
    pub fn done(&self) {
        self.bar.finish_and_clear();
    }
}
