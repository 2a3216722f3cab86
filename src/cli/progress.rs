//! A progress bar on stderr, drawn only when stderr is a terminal. It reads the clock for
//! display only (the simulation never does).

use std::io::{IsTerminal, Write};
use std::time::Instant;

/// A bar over `total` steps.
pub struct Progress {
    on: bool,
    total: u64,
    last: Instant,
    shown: bool,
    unit: String,
}

impl Progress {
    /// A bar over `total` steps; `quiet` (machine output on stdout) draws nothing.
    pub fn new(total: u64, quiet: bool) -> Progress {
        Progress {
            on: std::io::stderr().is_terminal() && !quiet,
            total,
            last: Instant::now(),
            shown: false,
            unit: "tick".into(),
        }
    }

    /// A bar over `total` steps counted in `unit` (e.g. "floors: row").
    pub fn counting(total: u64, quiet: bool, unit: &str) -> Progress {
        Progress {
            unit: unit.into(),
            ..Progress::new(total, quiet)
        }
    }

    /// `done` steps so far (redrawn every 64 steps at most, 4 times a second).
    pub fn tick(&mut self, done: u64) {
        self.tick_every(done, 64);
    }

    /// `done` steps so far, redrawn every `every` steps at most, 4 times a second.
    pub fn tick_every(&mut self, done: u64, every: u64) {
        if !self.on || !done.is_multiple_of(every) || self.last.elapsed().as_secs_f32() < 0.25 {
            return;
        }
        self.last = Instant::now();
        self.shown = true;
        let pct = 100.0 * done as f64 / self.total.max(1) as f64;
        eprint!(
            "\r[{:<30}] {pct:5.1}% {} {done}/{}",
            "#".repeat((pct / 100.0 * 30.0) as usize),
            self.unit,
            self.total
        );
        let _ = std::io::stderr().flush();
    }

    /// Clears the bar.
    pub fn done(&self) {
        if self.shown {
            eprint!("\r{:<70}\r", "");
        }
    }
}
