//! The `botarena` command line: map statistics and scenario runs.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use clap::{Parser, Subcommand};

use botarena::map::info::MapInfo;
use botarena::map::{MapData, build_level};
use botarena::scenario::Scenario;
use botarena::scenario::report::{EventCounter, RunReport};

/// Headless, deterministic Quake arena simulation for bot AI.
///
/// Loads Quake .map files (id standard or Valve 220, as TrenchBroom writes them), simulates
/// players with Quake 1 physics, movers, teleporters, liquids and items, and runs scenario
/// files tick by tick with a state hash after every tick.
#[derive(Parser)]
#[command(name = "botarena", version, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Questions about a map file.
    Map {
        #[command(subcommand)]
        command: MapCommand,
    },
    /// Run a scenario file and print a summary (final state hash, speed, per-player figures).
    Run {
        /// The scenario (TOML), e.g. scenarios/default.toml.
        scenario: PathBuf,
        /// Number of ticks to run (default: the scenario's `ticks`).
        #[arg(long)]
        ticks: Option<u64>,
        /// Print the summary as JSON on stdout.
        #[arg(long)]
        json: bool,
    },
}

#[derive(Subcommand)]
enum MapCommand {
    /// Brush, entity-by-class, liquid and trigger counts, bounds and load warnings.
    Info {
        /// The .map file.
        file: PathBuf,
        /// Print as JSON on stdout.
        #[arg(long)]
        json: bool,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Map {
            command: MapCommand::Info { file, json },
        } => map_info(file, json),
        Command::Run {
            scenario,
            ticks,
            json,
        } => run(scenario, ticks, json),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(1)
        }
    }
}

fn map_info(file: PathBuf, json: bool) -> Result<(), Box<dyn std::error::Error>> {
    let data = MapData::load(&file)?;
    let (level, cmap) = build_level(data);
    let info = MapInfo::new(&level, &cmap);
    if json {
        println!("{}", serde_json::to_string_pretty(&info)?);
    } else {
        print!("{}", info.to_text());
    }
    Ok(())
}

fn run(path: PathBuf, ticks: Option<u64>, json: bool) -> Result<(), Box<dyn std::error::Error>> {
    let scenario = Scenario::load(&path)?;
    let mut sim = scenario.build()?;
    let ticks = ticks.unwrap_or(scenario.ticks);
    let mut events = EventCounter::default();
    events.add(&sim.events);
    let show_progress = std::io::stderr().is_terminal() && !json;
    let start = Instant::now();
    let mut last_shown = start;
    for t in 0..ticks {
        sim.step();
        events.add(&sim.events);
        // Progress goes to stderr and reads the clock only for display; the state never does.
        if show_progress && t % 256 == 0 && last_shown.elapsed().as_secs_f32() > 0.25 {
            last_shown = Instant::now();
            let pct = 100.0 * (t + 1) as f64 / ticks as f64;
            eprint!(
                "\r[{:<30}] {pct:5.1}% tick {}/{ticks}",
                "#".repeat((pct / 100.0 * 30.0) as usize),
                t + 1
            );
            let _ = std::io::stderr().flush();
        }
    }
    if show_progress && last_shown != start {
        eprint!("\r{:<70}\r", "");
    }
    let wall = start.elapsed().as_secs_f64();
    let report = RunReport::new(
        &sim,
        &format!("{} ({})", scenario.name, path.display()),
        &scenario.map.display().to_string(),
        wall,
        &events,
    );
    if json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print!("{}", report.to_text());
    }
    Ok(())
}
