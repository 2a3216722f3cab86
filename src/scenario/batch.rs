//! Many matches of one scenario, one per seed, spread over worker threads (`botarena
//! batch`): each finished match becomes one JSON line of its run report, handed over as it
//! finishes so that an interrupted batch keeps every finished line.
//!
//! Entry points: [`parse_seeds`], [`run_batch`].

use std::time::Instant;

use super::report::{EventCounter, RunReport};
use super::{Scenario, run_match};

/// Most seeds one batch runs.
pub const MAX_SEEDS: usize = 1_000_000;

/// Parses `A-B` or `A..=B` (both inclusive) or `A` into the seeds it names; `A..B` is
/// refused with a message saying which to write.
pub fn parse_seeds(s: &str) -> Result<Vec<u64>, String> {
    let num = |t: &str| {
        t.trim()
            .parse::<u64>()
            .map_err(|_| format!("--seeds {s:?}: {t:?} is not a seed (expected A-B, A..=B or A)"))
    };
    let seeds: Vec<u64> = if let Some((a, b)) = s.split_once("..=") {
        (num(a)?..=num(b)?).collect()
    } else if let Some((a, b)) = s.split_once("..") {
        // Rust's `A..B` leaves B out, a reader's "1..5" often does not: refused, not guessed.
        return Err(format!(
            "--seeds {s:?}: write {a}..={b} or {a}-{b} (both include {b}), or {a}..={} to leave it out",
            num(b)?.saturating_sub(1)
        ));
    } else if let Some((a, b)) = s.split_once('-') {
        (num(a)?..=num(b)?).collect()
    } else {
        vec![num(s)?]
    };
    if seeds.is_empty() {
        return Err(format!("--seeds {s:?} names no seed"));
    }
    if seeds.len() > MAX_SEEDS {
        return Err(format!(
            "--seeds {s:?}: {} seeds, at most {MAX_SEEDS}",
            seeds.len()
        ));
    }
    Ok(seeds)
}

/// Runs `scenario` (shown as `name` in the report) with `seed` for up to `ticks` ticks on
/// `threads` threads: the report line `botarena batch` writes for it, as JSON. (Ray tasks
/// of the Python module call it one match at a time.)
pub fn run_one(
    scenario: &Scenario,
    name: &str,
    seed: u64,
    ticks: u64,
    threads: usize,
) -> Result<String, String> {
    let mut sc = scenario.clone();
    sc.seed = seed;
    let mut m = sc.build().map_err(|e| e.to_string())?;
    m.sim.threads = threads;
    let mut events = EventCounter::default();
    events.add(&m.sim.events);
    let start = Instant::now();
    run_match(&mut m, ticks, |m| events.add(&m.sim.events));
    let report = RunReport::new(
        &m,
        name,
        &sc.map.display().to_string(),
        start.elapsed().as_secs_f64(),
        &events,
    );
    serde_json::to_string(&report).map_err(|e| e.to_string())
}

/// The name a batch's reports give `scenario`.
pub fn report_name(scenario: &Scenario) -> String {
    format!("{} ({})", scenario.name, scenario.path.display())
}

/// Runs `scenario` once per seed for `ticks` ticks (default: the scenario's), on `threads`
/// threads (default: the machine's cores): one match per worker while there are more matches
/// than threads, the spare threads shared out to each match otherwise (results are the same
/// for any thread count). `line` gets each finished match's report as one JSON line, in the
/// order they finish, on the calling thread. A match that cannot be built (a bad map or
/// spawn) ends the batch with its error. Returns the matches run.
pub fn run_batch(
    scenario: &Scenario,
    seeds: &[u64],
    threads: Option<usize>,
    ticks: Option<u64>,
    mut line: impl FnMut(String) -> Result<(), String>,
) -> Result<u64, String> {
    let ticks = ticks.unwrap_or(scenario.ticks);
    let threads = threads.unwrap_or_else(crate::sim::parallel::default_threads);
    let workers = threads.min(seeds.len()).max(1);
    let per_match = (threads / seeds.len().max(1)).max(1);
    let (job_tx, job_rx) = crossbeam::channel::unbounded::<u64>();
    for &s in seeds {
        job_tx.send(s).map_err(|e| e.to_string())?;
    }
    drop(job_tx);
    let (res_tx, res_rx) = crossbeam::channel::unbounded::<Result<String, String>>();
    let name = report_name(scenario);
    let handles: Vec<_> = (0..workers)
        .map(|_| {
            let (job_rx, res_tx, scenario, name) = (
                job_rx.clone(),
                res_tx.clone(),
                scenario.clone(),
                name.clone(),
            );
            std::thread::spawn(move || {
                for seed in job_rx {
                    let one = run_one(&scenario, &name, seed, ticks, per_match);
                    if res_tx.send(one).is_err() {
                        return;
                    }
                }
            })
        })
        .collect();
    drop(res_tx);
    let mut done = 0u64;
    for r in res_rx {
        line(r?)?;
        done += 1;
    }
    for h in handles {
        let _ = h.join();
    }
    Ok(done)
}

#[cfg(test)]
mod tests {
    use super::parse_seeds;

    #[test]
    fn seeds_are_ranges_or_one_number() {
        assert_eq!(parse_seeds("3").unwrap(), vec![3]);
        assert_eq!(parse_seeds("1-4").unwrap(), vec![1, 2, 3, 4]);
        assert_eq!(parse_seeds("1..=4").unwrap(), vec![1, 2, 3, 4]);
        let e = parse_seeds("1..5").unwrap_err();
        assert!(e.contains("1..=5 or 1-5") && e.contains("1..=4"), "{e}");
        for bad in ["", "x", "4-1", "4..=1", "1..=x", "-3", "0-2000000"] {
            assert!(parse_seeds(bad).is_err(), "{bad:?}");
        }
    }
}
