//! The `botarena` command line: one file per command, each parsing its arguments, calling the
//! library and printing — data to stdout; errors, warnings, progress and "wrote FILE" to
//! stderr. Exit status 0 on success, 1 when the command's own work failed ([`Failed`]), 2
//! for bad usage or bad input. No command does the domain work itself.

mod batch;
mod bench;
mod explore;
mod lint;
mod map;
mod nav;
mod progress;
mod reach;
mod render;
mod replay;
mod route;
mod run;
mod survey;
mod times;
mod view;
mod waypoints;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// What a command returns: nothing, or an error to print.
pub type Outcome = Result<(), Box<dyn std::error::Error>>;

/// A command that failed at its own work, not at what it was asked: a replay that
/// diverges, an output that could not be written. Exit status 1; every other error is bad
/// usage or bad input (a file that is missing or not what it should be, a value out of
/// range), exit status 2, as clap gives its own.
#[derive(Debug)]
pub struct Failed(pub String);

impl std::fmt::Display for Failed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Failed {}

/// Writes an output file; a failure is the command's ([`Failed`]), named with the path.
pub fn write_out(path: &std::path::Path, bytes: impl AsRef<[u8]>) -> Outcome {
    std::fs::write(path, bytes)
        .map_err(|e| Box::new(Failed(format!("{}: {e}", path.display()))) as _)
}

/// The level's compiled navigation: the `.nav` file given (checked against the level), else
/// compiled here at the default parameters.
pub fn nav_or_compile(
    nav: Option<&std::path::Path>,
    level: &botarena::map::Level,
    cmap: &botarena::map::CollisionMap,
) -> Result<botarena::aas::NavMesh, Box<dyn std::error::Error>> {
    Ok(match nav {
        Some(f) => botarena::aas::file::load_for(f, level)?,
        None => botarena::aas::compile(
            level,
            cmap,
            &botarena::aas::CompileParams::default(),
            &mut |_, _, _| {},
        )?,
    })
}

/// Headless, deterministic Quake arena simulation for bot AI.
///
/// Loads Quake .map files (id standard or Valve 220, as TrenchBroom writes them), simulates
/// players with Quake 1 physics, movers, teleporters, liquids and items, and runs scenario
/// files — deathmatches between bots that see, hear, learn the map and route — tick by tick
/// with a state hash after every tick, recorded to replays that verify. Start with
/// `botarena run scenarios/default.toml`.
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
        command: map::Command,
    },
    /// Compiled navigation (reference 001's areas and reachabilities): compile a map to a
    /// .nav file, count one.
    Nav {
        #[command(subcommand)]
        command: nav::Command,
    },
    /// Let bots that know nothing explore a map and drop waypoints; writes the graph and
    /// prints coverage (waypoints by kind, links, components, items with a waypoint).
    Explore(explore::Args),
    /// Draw a map top-down as SVG (brush outlines shaded by height, liquids, movers,
    /// teleporters, items, spawn points), optionally with a waypoint graph or compiled
    /// navigation (.nav: areas by flag, reachabilities by type) over it.
    Render(render::Args),
    /// Check a map's flow for level designers: a leak (the way out, --pointfile for
    /// TrenchBroom), items some spawn point cannot reach (with why), spawn points far (in
    /// route seconds) from every weapon, one-way traps, items only a lift or a long fall
    /// leads to, and each spawn's time to its nearest weapon and armour (text, --json,
    /// --svg).
    Lint(lint::Args),
    /// Distances from every waypoint of a waypoint file to a goal waypoint (the reference's
    /// cache update algorithm), and the path from a start waypoint.
    ///
    /// With a map, `--from x,y,z --to x,y,z` routes between points: from the nearest waypoint
    /// the start reaches to the nearest waypoint that reaches the goal.
    Route(route::Args),
    /// Waypoint files: grid seeding, merging, counts.
    Waypoints {
        #[command(subcommand)]
        command: waypoints::Command,
    },
    /// Run a scenario file (a deathmatch) and print the scoreboard, final state hash, speed and
    /// per-stage cost; --record writes a replay.
    Run(run::Args),
    /// Measure ticks per second for 1, 8, 32 and 128 brain bots on the arena (and dm4 where
    /// id's maps are present), with 1 and 2 threads (or those of --threads), what following
    /// the compiled area graph costs beside learning the map (dm4), trace rates and
    /// navigation compile times; prints a table.
    Bench(bench::Args),
    /// Travel times between items for level designers (a kinodynamic RRT over the player
    /// physics) beside the compiled area graph's route time, and the quicker of the two
    /// with its source: the directed table for the chosen items, or with --from/--to one
    /// pair and its tree as a picture. With --waypoints, also the route distance / 320 u/s
    /// and a bot sent there through the simulation.
    Times(times::Args),
    /// Where a player can get from an item within T seconds (the planner's tree, drawn by
    /// time).
    Reach(reach::Args),
    /// Run one match per seed across worker threads and write one JSON line per finished
    /// match (written as each finishes, so stopping with Ctrl-C keeps every finished line).
    Batch(batch::Args),
    /// Read a replay: a summary, `--verify` to re-simulate and check every tick (exit status
    /// 1 naming the first tick and entity that differ), `--json` to dump header and events.
    Replay(replay::Args),
    /// Watch a recorded match: re-simulates the replay (checking every tick against the
    /// recording) and writes one self-contained HTML page (no network needed) that plays it
    /// top-down: players, trails, shots, pickups, a kill feed, a live scoreboard, a timeline
    /// with play/pause/speed/scrub and jump-to-event, following a player, a height filter and
    /// layers for waypoints, routes, sight lines, heard sounds and a death heatmap.
    View(view::Args),
    /// How bots do on each of many maps (files, or folders of them), one row a map: load
    /// warnings, the compiled area graph, lint's findings by kind, compiled-navigation item
    /// tours (legs predicted, reached, within 10 % of the prediction, deaths, the worst legs),
    /// explorers' coverage (items marked, routable waypoints, floor covered), an 8-bot
    /// brain match (deaths, suicides, the longest a bot stood still) and the travel-time
    /// planner over the weapon pairs (found, within 5 % of the area graph's time). Maps run
    /// in parallel, one thread each.
    Survey(survey::Args),
}

/// Parses the command line, runs the command, and turns an error into its message on stderr
/// and exit status 1 ([`Failed`]) or 2 (anything else: bad usage or input).
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Map { command } => map::run(command),
        Command::Nav { command } => nav::run(command),
        Command::Explore(args) => explore::run(args),
        Command::Render(args) => render::run(args),
        Command::Lint(args) => lint::run(args),
        Command::Route(args) => route::run(args),
        Command::Waypoints { command } => waypoints::run(command),
        Command::Run(args) => run::run(args),
        Command::Bench(args) => bench::run(args),
        Command::Times(args) => times::run(args),
        Command::Reach(args) => reach::run(args),
        Command::Batch(args) => batch::run(args),
        Command::Replay(args) => replay::run(args),
        Command::View(args) => view::run(args),
        Command::Survey(args) => survey::run(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(if e.is::<Failed>() { 1 } else { 2 })
        }
    }
}
