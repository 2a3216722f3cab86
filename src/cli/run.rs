//! `botarena run`: a scenario's match, its report, and optionally its replay.

use std::path::PathBuf;
use std::time::Instant;

use botarena::replay::Recorder;
use botarena::scenario::report::{EventCounter, RunReport};
use botarena::scenario::{Scenario, run_match};

use super::Outcome;
use super::progress::Progress;

#[derive(clap::Args)]
pub struct Args {
    /// The scenario (TOML), e.g. scenarios/default.toml.
    scenario: PathBuf,
    /// Number of ticks to run (default: the scenario's `ticks`).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=botarena::scenario::MAX_TICKS))]
    ticks: Option<u64>,
    /// Print the summary as JSON on stdout (with the run's costs, as --profile shows).
    #[arg(long)]
    json: bool,
    /// Also print the run's costs after the scoreboard: speed, each stage's share of the
    /// time and its traces per tick, the time outside the worker pool.
    #[arg(long)]
    profile: bool,
    /// Record a replay (state hash per tick and events) to this file.
    #[arg(long)]
    record: Option<PathBuf>,
    /// Worker threads for the per-bot stages (default: the scenario's `threads`, else one
    /// thread below 64 players and the machine's cores from 64). Results are the same for
    /// any number.
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=256))]
    threads: Option<u16>,
    /// Gravity integration, overriding the scenario's `[physics] integration`: `exact` (the
    /// parabola at any tick rate) or `quake` (QuakeWorld's; with a scenario at
    /// `tick_rate = 72`, the physics players have). Not with --record: a replay re-runs the
    /// scenario file, so put it there.
    #[arg(long, conflicts_with = "record")]
    integration: Option<String>,
    /// Write the state hash after every tick to this file, one per line (tick 1 first), as
    /// the final hash is written: to compare a run tick by tick with another program's
    /// (the Python module's `Match.hash()`).
    #[arg(long)]
    hashes: Option<PathBuf>,
}

pub fn run(args: Args) -> Outcome {
    let Args {
        scenario: path,
        ticks,
        json,
        profile,
        record,
        threads,
        integration,
        hashes,
    } = args;
    let mut scenario = Scenario::load(&path)?;
    if let Some(i) = integration {
        scenario.physics.integration = botarena::physics::pmove::Integration::from_name(&i)
            .map_err(|m| format!("--integration {m}"))?;
    }
    let mut m = scenario.build()?;
    if let Some(t) = threads {
        m.sim.threads = usize::from(t);
    }
    let ticks = ticks.unwrap_or(scenario.ticks);
    let mut events = EventCounter::default();
    events.add(&m.sim.events);
    let mut recorder = match &record {
        Some(_) => {
            let text = std::fs::read_to_string(&path)?;
            Some(Recorder::new(&scenario, &text, &m))
        }
        None => None,
    };
    let mut hash_lines = hashes.as_ref().map(|_| String::new());
    let mut progress = Progress::new(ticks, json);
    let start = Instant::now();
    run_match(&mut m, ticks, |m| {
        events.add(&m.sim.events);
        if let Some(r) = recorder.as_mut() {
            r.record(m);
        }
        if let Some(h) = hash_lines.as_mut() {
            h.push_str(&botarena::scenario::report::hash_hex(m.state_hash()));
            h.push('\n');
        }
        progress.tick(m.tick());
    });
    progress.done();
    let wall = start.elapsed().as_secs_f64();
    if let (Some(r), Some(file)) = (recorder, &record) {
        r.finish()
            .save(file)
            .map_err(|e| super::Failed(format!("{}: {e}", file.display())))?;
    }
    if let (Some(h), Some(file)) = (hash_lines, &hashes) {
        super::write_out(file, h)?;
    }
    let report = RunReport::new(
        &m,
        &format!("{} ({})", scenario.name, path.display()),
        &scenario.map.display().to_string(),
        wall,
        &events,
    );
    if json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print!("{}", report.to_text(profile));
        if let Some(file) = &record {
            println!("replay      {} ({} ticks)", file.display(), m.tick());
        }
    }
    Ok(())
}
