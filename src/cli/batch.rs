//! `botarena batch`: a match per seed, a JSON line each, written as each finishes.

use std::io::Write;
use std::path::PathBuf;

use botarena::scenario::Scenario;
use botarena::scenario::batch::{parse_seeds, run_batch};

use super::Outcome;
use super::progress::Progress;

#[derive(clap::Args)]
pub struct Args {
    /// The scenario (TOML).
    scenario: PathBuf,
    /// Seeds: `A..B` (B excluded), `A..=B` or one number.
    #[arg(long)]
    seeds: String,
    /// Worker threads (default: the machine's cores).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=256))]
    threads: Option<u16>,
    /// Ticks per match (default: the scenario's `ticks`).
    #[arg(long)]
    ticks: Option<u64>,
    /// The JSON-lines file to write (replaced).
    #[arg(long)]
    out: PathBuf,
}

pub fn run(args: Args) -> Outcome {
    let seeds = parse_seeds(&args.seeds)?;
    let scenario = Scenario::load(&args.scenario)?;
    // Fail on a bad map or spawn before the output file is replaced.
    scenario.build()?;
    let out = &args.out;
    let mut file = std::fs::File::create(out).map_err(|e| format!("{}: {e}", out.display()))?;
    let mut progress = Progress::new(seeds.len() as u64, false);
    let mut written = 0u64;
    let done = run_batch(
        &scenario,
        &seeds,
        args.threads.map(usize::from),
        args.ticks,
        |line| {
            // One write per finished match: an interrupted batch keeps whole lines.
            file.write_all(format!("{line}\n").as_bytes())
                .map_err(|e| format!("{}: {e}", out.display()))?;
            written += 1;
            progress.tick_every(written, 1);
            Ok(())
        },
    )?;
    progress.done();
    eprintln!("{done} matches written to {}", out.display());
    Ok(())
}
