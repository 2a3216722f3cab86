//! The `botarena` command line: map statistics and scenario runs.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use clap::{Parser, Subcommand};

use botarena::map::info::MapInfo;
use botarena::map::{MapData, build_level};
use botarena::nav::grid::{GridParams, seed_grid};
use botarena::nav::waypoint_file::{Header, geometry_hash, load, save};
use botarena::nav::waypoints::WaypointGraph;
use botarena::scenario::Scenario;
use botarena::scenario::explore::{ExploreConfig, coverage};
use botarena::scenario::report::{EventCounter, RunReport};

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
        command: MapCommand,
    },
    /// Let bots that know nothing explore a map and drop waypoints; writes the graph and
    /// prints coverage (waypoints by kind, links, components, items with a waypoint).
    Explore {
        /// The .map file.
        map: PathBuf,
        /// Number of exploring bots.
        #[arg(long, default_value_t = 4)]
        bots: usize,
        /// Simulated seconds.
        #[arg(long, default_value_t = 600.0)]
        seconds: f64,
        /// Seed.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Ticks per second.
        #[arg(long, default_value_t = 20)]
        tick_rate: u32,
        /// Where to write the waypoint file (JSON).
        #[arg(long)]
        out: PathBuf,
        /// Print the coverage as JSON.
        #[arg(long)]
        json: bool,
        /// Skip the closing pass that links stray waypoints (outside the largest strongly
        /// connected part) with routable ones nearby where straight-line reachability holds.
        #[arg(long)]
        no_connect: bool,
    },
    /// Draw a map top-down as SVG (brush outlines shaded by height, liquids, movers,
    /// teleporters, items, spawn points), optionally with a waypoint graph over it.
    Render {
        /// The .map file.
        map: PathBuf,
        /// A waypoint file made for this map to draw over it.
        #[arg(long)]
        waypoints: Option<PathBuf>,
        /// Where to write the SVG.
        #[arg(short, long)]
        out: PathBuf,
        /// Picture width in pixels.
        #[arg(long, default_value_t = 1200.0)]
        width: f32,
    },
    /// Distances from every waypoint of a waypoint file to a goal waypoint (the reference's
    /// cache update algorithm), and the path from a start waypoint.
    ///
    /// With a map, `--from x,y,z --to x,y,z` routes between points: from the nearest waypoint
    /// the start reaches to the nearest waypoint that reaches the goal.
    Route(RouteArgs),
    /// Waypoint files: grid seeding, merging, counts.
    Waypoints {
        #[command(subcommand)]
        command: WaypointsCommand,
    },
    /// Run a scenario file (a deathmatch) and print the scoreboard, final state hash, speed and
    /// per-stage cost; --record writes a replay.
    Run {
        /// The scenario (TOML), e.g. scenarios/default.toml.
        scenario: PathBuf,
        /// Number of ticks to run (default: the scenario's `ticks`).
        #[arg(long)]
        ticks: Option<u64>,
        /// Print the summary as JSON on stdout.
        #[arg(long)]
        json: bool,
        /// Record a replay (state hash per tick and events) to this file.
        #[arg(long)]
        record: Option<PathBuf>,
        /// Worker threads for the per-bot stages (default: the scenario's `threads`, else
        /// the machine's cores). Results are the same for any number.
        #[arg(long, value_parser = clap::value_parser!(u16).range(1..=256))]
        threads: Option<u16>,
    },
    /// Measure ticks per second for 1, 8, 32 and 128 brain bots on the arena (and dm4 where
    /// id's maps are present), with 1 and 2 threads (or those of --threads), and trace rates;
    /// prints a table.
    Bench {
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
        /// A fifth of the ticks (a rough figure in seconds).
        #[arg(long)]
        quick: bool,
        /// Also write the results, machine and method as Markdown to this file
        /// (BENCHMARKS.md is made with `botarena bench --markdown BENCHMARKS.md`).
        #[arg(long)]
        markdown: Option<PathBuf>,
        /// Thread counts to measure, comma-separated (1 is always measured: the speed-ups
        /// are against it), e.g. `1,2,4,8,16` on a machine with more cores.
        #[arg(long, value_name = "LIST", default_value = "1,2")]
        threads: String,
    },
    /// Travel times between items for level designers (a kinodynamic RRT over the player
    /// physics): the directed table for the chosen items, or with --from/--to one pair and
    /// its tree as a picture. With --waypoints, also the route distance / 320 u/s and a bot
    /// sent there through the simulation.
    Times(TimesArgs),
    /// Where a player can get from an item within T seconds (the planner's tree, drawn by
    /// time).
    Reach {
        /// The .map file.
        map: PathBuf,
        /// The item to start at (index, class or class#k).
        #[arg(long)]
        from: String,
        /// Seconds.
        #[arg(long, default_value_t = 3.0)]
        seconds: f32,
        /// Expansions of the tree.
        #[arg(long, default_value_t = 20000)]
        samples: usize,
        /// Seed.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// The picture to write.
        #[arg(long)]
        svg: PathBuf,
    },
    /// Run one match per seed across worker threads and write one JSON line per finished
    /// match (written as each finishes, so stopping with Ctrl-C keeps every finished line).
    Batch {
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
    },
    /// Read a replay: a summary, `--verify` to re-simulate and check every tick (exit status
    /// 1 naming the first tick and entity that differ), `--json` to dump header and events.
    Replay {
        /// The replay file (written by `run --record`).
        file: PathBuf,
        /// Re-simulate and compare every tick's state hash.
        #[arg(long)]
        verify: bool,
        /// Print JSON on stdout (the header and events; with --verify, the result).
        #[arg(long)]
        json: bool,
    },
}

#[derive(clap::Args)]
struct TimesArgs {
    /// The .map file.
    map: PathBuf,
    /// Items (indices, classes or class#k), comma-separated; default: weapons, powerups,
    /// armour and megahealth.
    #[arg(long, value_delimiter = ',')]
    items: Vec<String>,
    /// One pair: from this item...
    #[arg(long, requires = "to")]
    from: Option<String>,
    /// ...to this one.
    #[arg(long, requires = "from")]
    to: Option<String>,
    /// Expansions per pair (deterministic; default 200000: enough for every pair of dm6's
    /// weapons, about 1 s a pair).
    #[arg(long, conflicts_with = "budget_ms")]
    samples: Option<usize>,
    /// Wall-clock budget per pair in milliseconds instead (not deterministic).
    #[arg(long)]
    budget_ms: Option<u64>,
    /// Seed.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Metric: `euclidean` (default) or `height` (height differences ×3).
    #[arg(long, default_value = "euclidean")]
    metric: String,
    /// A waypoint file for the map: adds the route and bot estimates.
    #[arg(long)]
    waypoints: Option<PathBuf>,
    /// Worker threads (default: the machine's cores).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=256))]
    threads: Option<u16>,
    /// JSON on stdout.
    #[arg(long, conflicts_with = "csv")]
    json: bool,
    /// CSV on stdout.
    #[arg(long)]
    csv: bool,
    /// With --from/--to: draw the tree and the path.
    #[arg(long, requires = "from")]
    svg: Option<PathBuf>,
}

#[derive(Subcommand)]
enum WaypointsCommand {
    /// Lay waypoints on every walkable floor at a spacing and link neighbours that reach
    /// each other (with terrain weights for water and lava edges).
    Grid {
        /// The .map file.
        map: PathBuf,
        /// Distance between grid columns, units.
        #[arg(long, default_value_t = 64.0)]
        spacing: f32,
        /// Leave all link weights at 1.
        #[arg(long)]
        no_terrain_weights: bool,
        /// Where to write the waypoint file (JSON).
        #[arg(long)]
        out: PathBuf,
        /// Print the summary as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Merge waypoint files made for the same map into one.
    Merge {
        /// The files.
        #[arg(required = true, num_args = 2..)]
        files: Vec<PathBuf>,
        /// With the map: link the first file's waypoints to the others' within this many
        /// units wherever reachability holds (e.g. an explored graph into a grid).
        #[arg(long, requires = "map")]
        stitch: Option<f32>,
        /// The .map file (needed for --stitch).
        #[arg(long)]
        map: Option<PathBuf>,
        /// Where to write the merged file.
        #[arg(long)]
        out: PathBuf,
    },
    /// Counts of a waypoint file.
    Info {
        /// The waypoint file.
        file: PathBuf,
        /// Print as JSON.
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
            record,
            threads,
        } => run(scenario, ticks, json, record, threads.map(usize::from)),
        Command::Replay { file, verify, json } => replay(file, verify, json),
        Command::Times(args) => times(args),
        Command::Reach {
            map,
            from,
            seconds,
            samples,
            seed,
            svg,
        } => reach(map, &from, seconds, samples, seed, svg),
        Command::Bench {
            json,
            quick,
            markdown,
            threads,
        } => bench(json, quick, markdown, &threads),
        Command::Batch {
            scenario,
            seeds,
            threads,
            ticks,
            out,
        } => batch(scenario, &seeds, threads.map(usize::from), ticks, out),
        Command::Explore {
            map,
            bots,
            seconds,
            seed,
            tick_rate,
            out,
            json,
            no_connect,
        } => explore(
            map,
            ExploreConfig {
                bots,
                seconds,
                seed,
                tick_rate,
                every: 10.0,
                connect: !no_connect,
            },
            out,
            json,
        ),
        Command::Waypoints { command } => waypoints(command),
        Command::Route(args) => route(args),
        Command::Render {
            map,
            waypoints,
            out,
            width,
        } => render(map, waypoints, out, width),
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

/// A progress bar on stderr, drawn only when stderr is a terminal; it reads the clock for
/// display only (the simulation never does).
struct Progress {
    on: bool,
    total: u64,
    last: Instant,
    shown: bool,
}

impl Progress {
    fn new(total: u64, quiet: bool) -> Progress {
        Progress {
            on: std::io::stderr().is_terminal() && !quiet,
            total,
            last: Instant::now(),
            shown: false,
        }
    }

    fn tick(&mut self, done: u64) {
        self.tick_every(done, 64);
    }

    fn tick_every(&mut self, done: u64, every: u64) {
        if !self.on || !done.is_multiple_of(every) || self.last.elapsed().as_secs_f32() < 0.25 {
            return;
        }
        self.last = Instant::now();
        self.shown = true;
        let pct = 100.0 * done as f64 / self.total.max(1) as f64;
        eprint!(
            "\r[{:<30}] {pct:5.1}% tick {done}/{}",
            "#".repeat((pct / 100.0 * 30.0) as usize),
            self.total
        );
        let _ = std::io::stderr().flush();
    }

    fn done(&self) {
        if self.shown {
            eprint!("\r{:<70}\r", "");
        }
    }
}

fn run(
    path: PathBuf,
    ticks: Option<u64>,
    json: bool,
    record: Option<PathBuf>,
    threads: Option<usize>,
) -> Result<(), Box<dyn std::error::Error>> {
    let scenario = Scenario::load(&path)?;
    let mut sim = scenario.build()?;
    if let Some(t) = threads {
        sim.sim.threads = t;
    }
    let ticks = ticks.unwrap_or(scenario.ticks);
    let mut events = EventCounter::default();
    events.add(&sim.sim.events);
    let mut recorder = match &record {
        Some(_) => {
            let text = std::fs::read_to_string(&path)?;
            Some(botarena::replay::Recorder::new(&scenario, &text, &sim))
        }
        None => None,
    };
    let mut progress = Progress::new(ticks, json);
    let start = Instant::now();
    botarena::scenario::run_match(&mut sim, ticks, |sim| {
        events.add(&sim.sim.events);
        if let Some(r) = recorder.as_mut() {
            r.record(sim);
        }
        progress.tick(sim.tick());
    });
    progress.done();
    let wall = start.elapsed().as_secs_f64();
    if let (Some(r), Some(file)) = (recorder, &record) {
        r.finish().save(file)?;
    }
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
        if let Some(file) = &record {
            println!("replay      {} ({} ticks)", file.display(), sim.tick());
        }
    }
    Ok(())
}

/// `--threads 1,2,4`: the thread counts, sorted, 1 included.
fn thread_list(list: &str) -> Result<Vec<usize>, String> {
    let mut out = vec![1];
    for part in list.split(',') {
        match part.trim().parse::<usize>() {
            Ok(n) if (1..=1024).contains(&n) => out.push(n),
            _ => {
                return Err(format!(
                    "--threads {list:?}: expected thread counts from 1 to 1024, comma-separated, \
                     e.g. 1,2,4"
                ));
            }
        }
    }
    out.sort_unstable();
    out.dedup();
    Ok(out)
}

/// "slowest – median" of a case's rounds, "–" for a single round.
fn spread(rounds: &[f64]) -> String {
    let mut rounds = rounds.to_vec();
    rounds.sort_by(f64::total_cmp);
    match (rounds.first(), rounds.get(rounds.len() / 2)) {
        (Some(lo), Some(mid)) if rounds.len() > 1 => format!("{lo:.0} – {mid:.0}"),
        _ => "–".into(),
    }
}

fn bench(
    json: bool,
    quick: bool,
    markdown: Option<PathBuf>,
    threads: &str,
) -> Result<(), Box<dyn std::error::Error>> {
    use botarena::bench::*;
    let thread_counts = thread_list(threads)?;
    let root = std::env::current_dir()?;
    let root = if root.join("maps/arena.map").is_file() {
        root
    } else {
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
    };
    let maps = bench_maps(&root);
    let scale = if quick { 5 } else { 1 };
    let mut cases = Vec::new();
    for m in &maps {
        for (bots, ticks) in [(1usize, 2000u64), (8, 1000), (32, 400), (128, 150)] {
            for &threads in &thread_counts {
                if bots == 1 && threads > 1 {
                    continue;
                }
                cases.push((m.clone(), bots, threads, ticks / scale));
            }
        }
    }
    // The same deterministic run five times per case, keeping the fastest: on a shared
    // machine the slow runs measure the neighbours. The rounds go over every case in turn, so
    // a slow spell (they last seconds here) costs each case one round at most, and the one-
    // and two-thread runs of a case are measured minutes apart as often as each other.
    let rounds = if quick { 1 } else { 5 };
    let mut best: Vec<Option<BenchResult>> = vec![None; cases.len()];
    let mut progress = Progress::new((cases.len() * rounds) as u64, json);
    for round in 0..rounds {
        for (i, (m, bots, threads, ticks)) in cases.iter().enumerate() {
            let r = run_case(m, *bots, *threads, 100 / scale, *ticks)?;
            let mut rounds = best[i]
                .as_ref()
                .map(|b| b.rounds.clone())
                .unwrap_or_default();
            rounds.push(r.ticks_per_second);
            if best[i]
                .as_ref()
                .is_none_or(|b| r.ticks_per_second > b.ticks_per_second)
            {
                best[i] = Some(r);
            }
            if let Some(b) = best[i].as_mut() {
                b.rounds = rounds;
            }
            progress.tick_every((round * cases.len() + i) as u64 + 1, 1);
        }
    }
    let results: Vec<BenchResult> = best
        .into_iter()
        .map(|b| b.expect("at least one round"))
        .collect();
    progress.done();
    let mut traces = Vec::new();
    for m in &maps {
        let (ray, sweep) = trace_rates(&m.path, 200_000 / scale as usize)?;
        traces.push((m.name.clone(), ray, sweep));
    }
    let speedup_with = |map: &str, bots: usize, threads: usize| {
        let one = results
            .iter()
            .find(|r| r.map == map && r.bots == bots && r.threads == 1)?;
        let n = results
            .iter()
            .find(|r| r.map == map && r.bots == bots && r.threads == threads)?;
        Some(n.ticks_per_second / one.ticks_per_second)
    };
    let speedup = |map: &str, bots: usize| speedup_with(map, bots, 2);
    let mut text = String::new();
    {
        use std::fmt::Write as _;
        let _ = writeln!(text, "machine: {}", machine());
        let _ = writeln!(
            text,
            "\n| map | bots | threads | ticks/s | rounds: slowest – median | target | met | largest stages |\n|---|---:|---:|---:|---:|---:|---|---|"
        );
        for r in &results {
            let stages: Vec<String> = r
                .top_stages
                .iter()
                .map(|(k, v)| format!("{k} {v:.0}%"))
                .collect();
            let spread = spread(&r.rounds);
            let _ = writeln!(
                text,
                "| {} | {} | {} | {:.0} | {spread} | {} | {} | {} |",
                r.map,
                r.bots,
                r.threads,
                r.ticks_per_second,
                r.target
                    .map(|t| format!("{t:.0}"))
                    .unwrap_or_else(|| "–".into()),
                match r.target {
                    Some(t) if r.ticks_per_second >= t => "yes",
                    Some(_) => "**no**",
                    None => "",
                },
                stages.join(", ")
            );
        }
        if thread_counts.len() > 2 {
            let _ = writeln!(
                text,
                "\nScaling with threads: ticks/s (and ÷ one thread).\n\n| map | bots | {} |\n|---|---:|{}",
                thread_counts
                    .iter()
                    .map(|t| format!("{t} thr"))
                    .collect::<Vec<_>>()
                    .join(" | "),
                "---:|".repeat(thread_counts.len())
            );
            for m in &maps {
                for bots in [8, 32, 128] {
                    let cells: Vec<String> = thread_counts
                        .iter()
                        .map(|&t| {
                            let r = results
                                .iter()
                                .find(|r| r.map == m.name && r.bots == bots && r.threads == t);
                            match (r, speedup_with(&m.name, bots, t)) {
                                (Some(r), Some(x)) => {
                                    format!("{:.0} ({x:.2}×)", r.ticks_per_second)
                                }
                                _ => String::new(),
                            }
                        })
                        .collect();
                    let _ = writeln!(text, "| {} | {bots} | {} |", m.name, cells.join(" | "));
                }
            }
        }
        let _ = writeln!(
            text,
            "\n| map | 2 threads ÷ 1 thread, 32 bots | 128 bots | target (32 bots) |\n|---|---:|---:|---:|"
        );
        for m in &maps {
            let f = |x: Option<f64>| x.map(|v| format!("{v:.2}×")).unwrap_or_default();
            let _ = writeln!(
                text,
                "| {} | {} | {} | ≥ 1.70× |",
                m.name,
                f(speedup(&m.name, 32)),
                f(speedup(&m.name, 128))
            );
        }
        let _ = writeln!(
            text,
            "\nWhere two threads' time goes (µs per tick): the jobs on the pool, summed over both \
             threads; the main thread waiting for the worker's last jobs; and the serial work, \
             the main thread's time outside the pool (gathering jobs and writing results back, \
             the stages that run on one thread, calls with too few jobs to share). \"At best\" \
             is what two threads would give if the jobs split evenly at no cost: one thread's \
             tick ÷ (serial + the rest of one thread's tick ÷ 2).\n\n\
             | map | bots | one thread: tick | two threads: tick | jobs, both threads | main waited | serial (largest stages) | at best |\n\
             |---|---:|---:|---:|---:|---:|---|---:|"
        );
        for two in results.iter().filter(|r| r.threads == 2) {
            let Some(one) = results
                .iter()
                .find(|r| r.map == two.map && r.bots == two.bots && r.threads == 1)
            else {
                continue;
            };
            let t1 = 1e6 / one.ticks_per_second;
            let serial = two.serial_us.min(t1);
            let largest: Vec<String> = two
                .serial_stages
                .iter()
                .map(|(k, v)| format!("{k} {v:.0}"))
                .collect();
            let _ = writeln!(
                text,
                "| {} | {} | {:.0} | {:.0} | {:.0} | {:.0} | {:.0} ({}) | {:.2}× |",
                two.map,
                two.bots,
                t1,
                1e6 / two.ticks_per_second,
                two.pool_busy_us,
                two.pool_waited_us,
                two.serial_us,
                largest.join(", "),
                t1 / (serial + (t1 - serial) / 2.0).max(1e-9)
            );
        }
        let _ = writeln!(
            text,
            "\n| map | rays/s | player-box sweeps/s |\n|---|---:|---:|"
        );
        for (m, ray, sweep) in &traces {
            let _ = writeln!(text, "| {m} | {ray:.0} | {sweep:.0} |");
        }
    }
    if json {
        let out = serde_json::json!({
            "machine": machine(),
            "cases": results,
            "traces": traces.iter().map(|(m, r, s)| serde_json::json!({"map": m, "rays_per_second": r, "sweeps_per_second": s})).collect::<Vec<_>>(),
            "speedup_2_threads_32_bots": maps.iter().map(|m| (m.name.clone(), speedup(&m.name, 32))).collect::<std::collections::BTreeMap<_, _>>(),
        });
        println!("{}", serde_json::to_string_pretty(&out)?);
    } else {
        print!("{text}");
    }
    if let Some(file) = markdown {
        let doc = format!(
            "# Benchmarks\n\nRegenerate with `cargo run --release -- bench --markdown BENCHMARKS.md` \
             (add `--quick` for a rough run). Criterion benches of single stages: `cargo bench`.\n\n\
             ## Method\n\nRelease build, 20 Hz ticks. Each case builds the map, puts brain bots that \
             never react to each other (reaction 10 s, so none dies and every bot costs its full \
             share; a real melee is cheaper as the dead do nothing) on \
             floor points spread over the map (a 48-unit grid; spawn points are too few for 128 bots), \
             runs {} ticks untimed (bots spread out and drop their first waypoints), then times \
             {}the whole schedule for 1 / 8 / 32 / 128 bots: 2000 / 1000 / 400 / 150 ticks{}. \
             Each case runs five times (the same deterministic run; five rounds over all the \
             cases, so a slow spell of a few seconds falls on one round) and the fastest counts: \
             this machine is shared and its timings vary by tens of percent from run to run \
             (the slowest and the median round are given beside it; a whole run of the bench \
             can also fall in a slow spell, so a case near its target may pass in one run and \
             not in the next). \
             Bots start knowing nothing of the map, so these are the first seconds of a match: \
             exploring, dropping waypoints and fighting. Trace rates: {} rays and player-box sweeps \
             between seeded floor points at most 512 units apart. Results are the same for any \
             thread count (tests/matches.rs compares every tick's hash for 1, 2 and 4 threads).\n\n\
             ## Results\n\n{text}",
            100 / scale,
            if quick { "a fifth of " } else { "" },
            if quick { ", divided by 5 here" } else { "" },
            200_000 / scale
        );
        std::fs::write(&file, doc).map_err(|e| format!("{}: {e}", file.display()))?;
        eprintln!("wrote {}", file.display());
    }
    Ok(())
}

fn plan_config(args: &TimesArgs) -> Result<botarena::planner::PlanConfig, String> {
    use botarena::planner::{Metric, PlanConfig};
    let metric = match args.metric.as_str() {
        "height" => Metric::Height(3.0),
        "euclidean" => Metric::Euclidean,
        m => return Err(format!("--metric {m:?}: expected height or euclidean")),
    };
    let mut cfg = PlanConfig {
        seed: args.seed,
        metric,
        ..Default::default()
    };
    match (args.samples, args.budget_ms) {
        (Some(0), _) => return Err("--samples must be at least 1".into()),
        (Some(n), _) => cfg.expansions = n,
        (None, Some(ms)) => {
            cfg.expansions = usize::MAX;
            cfg.deadline = Some(Instant::now() + std::time::Duration::from_millis(ms));
        }
        (None, None) => {}
    }
    Ok(cfg)
}

fn times(args: TimesArgs) -> Result<(), Box<dyn std::error::Error>> {
    use botarena::planner::times::*;
    let data = MapData::load(&args.map)?;
    let (level, cmap) = build_level(data);
    let level = std::sync::Arc::new(level);
    let all = items(&level, &cmap);
    let mut cfg = plan_config(&args)?;
    let graph = match &args.waypoints {
        Some(f) => Some(load(f, Some((&level.map.name, &geometry_hash(&level))))?.1),
        None => None,
    };
    if let (Some(a), Some(b)) = (&args.from, &args.to) {
        let from = select(&all, std::slice::from_ref(a))?;
        let to = select(&all, std::slice::from_ref(b))?;
        let (fa, fb) = (&all[from[0]], &all[to[0]]);
        let open = botarena::planner::planning_map(&level, &cmap);
        let free = botarena::nav::sample::floor_points(&level, &open, 64.0);
        cfg.teleporters = botarena::planner::teleporters(&level);
        let physics = Default::default();
        let plan = plan_pair(&open, &physics, &free, fa, fb, &cfg);
        let (route, bot) = match &graph {
            Some(g) => botarena::scenario::tour::compare(&level, &cmap, g, fa, fb),
            None => (None, None),
        };
        let fmt = |t: Option<f32>| {
            t.map(|t| format!("{t:.2} s"))
                .unwrap_or_else(|| "not found".into())
        };
        if args.json {
            println!(
                "{}",
                serde_json::to_string_pretty(&serde_json::json!({
                    "from": fa.label, "to": fb.label, "rrt": plan.time(), "expansions": plan.expansions,
                    "first_at": plan.first_at, "route": route, "bot": bot,
                    "path": plan.path().iter().map(|p| p.to_array()).collect::<Vec<_>>(),
                }))?
            );
        } else {
            println!(
                "{} -> {}: planner {} ({} expansions, first solution after {}), route/320 {}, bot {}",
                fa.label,
                fb.label,
                fmt(plan.time()),
                plan.expansions,
                plan.first_at
                    .map(|f| f.to_string())
                    .unwrap_or_else(|| "–".into()),
                fmt(route),
                fmt(bot)
            );
        }
        if let Some(file) = &args.svg {
            let drawing = botarena::render::TreeDrawing {
                nodes: plan
                    .nodes
                    .iter()
                    .map(|n| {
                        (
                            n.state.origin,
                            (n.parent != u32::MAX)
                                .then(|| plan.nodes[n.parent as usize].state.origin),
                            n.steps as f32 * plan.step,
                        )
                    })
                    .collect(),
                path: plan.path(),
                until: None,
                caption: format!(
                    "{} → {}: {} states, {}",
                    fa.label,
                    fb.label,
                    plan.nodes.len(),
                    fmt(plan.time())
                ),
            };
            let svg = botarena::render::render_map(
                &level,
                &botarena::render::Overlay {
                    waypoints: None,
                    tree: Some(&drawing),
                },
                1200.0,
            );
            std::fs::write(file, svg).map_err(|e| format!("{}: {e}", file.display()))?;
            eprintln!("wrote {}", file.display());
        }
        return Ok(());
    }
    let selection = if args.items.is_empty() {
        default_selection(&level, &all)
    } else {
        select(&all, &args.items)?
    };
    if selection.len() < 2 {
        return Err(format!(
            "{} item(s) chosen: a table needs at least two",
            selection.len()
        )
        .into());
    }
    let threads = args
        .threads
        .map(usize::from)
        .unwrap_or_else(botarena::sim::parallel::default_threads);
    let pairs = selection.len() * (selection.len() - 1);
    let mut progress = Progress::new(pairs as u64, args.json || args.csv);
    let rows = table(
        &level,
        &cmap,
        &all,
        &selection,
        &cfg,
        graph
            .as_ref()
            .map(|g| {
                let level = &level;
                move |map: &botarena::CollisionMap,
                      a: &botarena::planner::times::ItemRef,
                      b: &botarena::planner::times::ItemRef| {
                    botarena::scenario::tour::compare(level, map, g, a, b)
                }
            })
            .as_ref()
            .map(|c| c as &botarena::planner::times::Compare),
        threads,
        |n, _| progress.tick_every(n as u64, 1),
    );
    progress.done();
    let cell = |t: Option<f32>| t.map(|t| format!("{t:.2}")).unwrap_or_default();
    if args.json {
        println!("{}", serde_json::to_string_pretty(&rows)?);
    } else if args.csv {
        println!("from,to,rrt_seconds,expansions,first_at,route_seconds,bot_seconds");
        for r in &rows {
            println!(
                "{},{},{},{},{},{},{}",
                r.from,
                r.to,
                cell(r.rrt),
                r.expansions,
                r.first_at.map(|f| f.to_string()).unwrap_or_default(),
                cell(r.route),
                cell(r.bot)
            );
        }
    } else {
        println!(
            "{:<28} {:<28} {:>8} {:>8} {:>8}",
            "from", "to", "planner", "route", "bot"
        );
        let show = |t: Option<f32>| t.map(|t| format!("{t:.2} s")).unwrap_or_else(|| "–".into());
        for r in &rows {
            println!(
                "{:<28} {:<28} {:>8} {:>8} {:>8}",
                r.from,
                r.to,
                r.rrt
                    .map(|t| format!("{t:.2} s"))
                    .unwrap_or_else(|| "not found".into()),
                show(r.route),
                show(r.bot)
            );
        }
        println!(
            "{} of {} pairs found; {} expansions per pair{}",
            rows.iter().filter(|r| r.rrt.is_some()).count(),
            rows.len(),
            if cfg.deadline.is_some() {
                "up to a time budget".to_string()
            } else {
                cfg.expansions.to_string()
            },
            if graph.is_none() {
                " (give --waypoints for route and bot estimates)"
            } else {
                ""
            }
        );
    }
    Ok(())
}

fn reach(
    map: PathBuf,
    from: &str,
    seconds: f32,
    samples: usize,
    seed: u64,
    svg: PathBuf,
) -> Result<(), Box<dyn std::error::Error>> {
    use botarena::planner::times::*;
    if !(seconds.is_finite() && seconds > 0.0) {
        return Err(format!("--seconds {seconds}: must be a positive number").into());
    }
    let data = MapData::load(&map)?;
    let (level, cmap) = build_level(data);
    let level = std::sync::Arc::new(level);
    let all = items(&level, &cmap);
    let f = select(&all, &[from.to_string()])?;
    let fa = &all[f[0]];
    let open = botarena::planner::planning_map(&level, &cmap);
    let free = botarena::nav::sample::floor_points(&level, &open, 64.0);
    let physics = Default::default();
    let cfg = botarena::planner::PlanConfig {
        expansions: samples,
        seed,
        teleporters: botarena::planner::teleporters(&level),
        ..Default::default()
    };
    let start = botarena::nav::sample::stand_still(&open, &physics, fa.stand);
    let plan = botarena::planner::plan(&open, &physics, &free, start, None, &cfg);
    let within: Vec<_> = plan
        .nodes
        .iter()
        .filter(|n| n.steps as f32 * plan.step <= seconds)
        .collect();
    let drawing = botarena::render::TreeDrawing {
        nodes: within
            .iter()
            .map(|n| {
                (
                    n.state.origin,
                    (n.parent != u32::MAX).then(|| plan.nodes[n.parent as usize].state.origin),
                    n.steps as f32 * plan.step,
                )
            })
            .collect(),
        path: Vec::new(),
        until: Some(seconds),
        caption: format!(
            "reached from {} within {seconds} s ({} of {} states)",
            fa.label,
            within.len(),
            plan.nodes.len()
        ),
    };
    let doc = botarena::render::render_map(
        &level,
        &botarena::render::Overlay {
            waypoints: None,
            tree: Some(&drawing),
        },
        1200.0,
    );
    std::fs::write(&svg, doc).map_err(|e| format!("{}: {e}", svg.display()))?;
    println!(
        "{} states within {seconds} s of {} ({} expansions); wrote {}",
        within.len(),
        fa.label,
        plan.expansions,
        svg.display()
    );
    Ok(())
}

/// Parses `A..B`, `A..=B` or `A` into the seeds it names.
fn parse_seeds(s: &str) -> Result<Vec<u64>, String> {
    let num = |t: &str| {
        t.trim()
            .parse::<u64>()
            .map_err(|_| format!("--seeds {s:?}: {t:?} is not a seed (expected A..B, A..=B or A)"))
    };
    let seeds: Vec<u64> = if let Some((a, b)) = s.split_once("..=") {
        (num(a)?..=num(b)?).collect()
    } else if let Some((a, b)) = s.split_once("..") {
        (num(a)?..num(b)?).collect()
    } else {
        vec![num(s)?]
    };
    if seeds.is_empty() {
        return Err(format!("--seeds {s:?} names no seed"));
    }
    if seeds.len() > 1_000_000 {
        return Err(format!(
            "--seeds {s:?}: {} seeds, at most 1000000",
            seeds.len()
        ));
    }
    Ok(seeds)
}

fn batch(
    path: PathBuf,
    seeds: &str,
    threads: Option<usize>,
    ticks: Option<u64>,
    out: PathBuf,
) -> Result<(), Box<dyn std::error::Error>> {
    let seeds = parse_seeds(seeds)?;
    let scenario = Scenario::load(&path)?;
    // Fail on a bad map or spawn before any worker starts.
    scenario.build()?;
    let ticks = ticks.unwrap_or(scenario.ticks);
    let workers = threads
        .unwrap_or_else(botarena::sim::parallel::default_threads)
        .min(seeds.len())
        .max(1);
    // More matches than workers: one match per worker, each on one thread.
    let per_match =
        (threads.unwrap_or_else(botarena::sim::parallel::default_threads) / seeds.len()).max(1);
    let mut file = std::fs::File::create(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    let (job_tx, job_rx) = crossbeam::channel::unbounded::<u64>();
    for &s in &seeds {
        job_tx.send(s)?;
    }
    drop(job_tx);
    let (res_tx, res_rx) = crossbeam::channel::unbounded::<Result<String, String>>();
    let name = format!("{} ({})", scenario.name, path.display());
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
                    let mut sc = scenario.clone();
                    sc.seed = seed;
                    let line = (|| -> Result<String, String> {
                        let mut sim = sc.build().map_err(|e| e.to_string())?;
                        sim.sim.threads = per_match;
                        let mut events = EventCounter::default();
                        events.add(&sim.sim.events);
                        let start = Instant::now();
                        botarena::scenario::run_match(&mut sim, ticks, |sim| {
                            events.add(&sim.sim.events)
                        });
                        let report = RunReport::new(
                            &sim,
                            &name,
                            &sc.map.display().to_string(),
                            start.elapsed().as_secs_f64(),
                            &events,
                        );
                        serde_json::to_string(&report).map_err(|e| e.to_string())
                    })();
                    if res_tx.send(line).is_err() {
                        return;
                    }
                }
            })
        })
        .collect();
    drop(res_tx);
    let mut progress = Progress::new(seeds.len() as u64, false);
    let mut done = 0u64;
    for r in res_rx {
        let line = r?;
        // One write per finished match: an interrupted batch keeps whole lines.
        file.write_all(format!("{line}\n").as_bytes())?;
        done += 1;
        progress.tick_every(done, 1);
    }
    progress.done();
    for h in handles {
        let _ = h.join();
    }
    eprintln!("{done} matches written to {}", out.display());
    Ok(())
}

fn replay(file: PathBuf, verify: bool, json: bool) -> Result<(), Box<dyn std::error::Error>> {
    use botarena::replay::Replay;
    let r = Replay::load(&file)?;
    let h = &r.header;
    if verify {
        let mut progress = Progress::new(h.ticks, json);
        let v = r.verify(|t| progress.tick(t))?;
        progress.done();
        if json {
            println!("{}", serde_json::to_string_pretty(&v)?);
        }
        return match &v.divergence {
            None => {
                if !json {
                    println!(
                        "ok: {} ticks of {} match the recording",
                        v.ticks, h.scenario_path
                    );
                }
                Ok(())
            }
            Some(d) => Err(format!("{}: replay diverged at {d}", file.display()).into()),
        };
    }
    if json {
        let out = serde_json::json!({ "header": h, "events": r.events });
        println!("{}", serde_json::to_string_pretty(&out)?);
        return Ok(());
    }
    let mut kinds: std::collections::BTreeMap<String, u64> = Default::default();
    for e in &r.events {
        if let Some(obj) = e["event"].as_object()
            && let Some(k) = obj.keys().next()
        {
            *kinds.entry(k.clone()).or_insert(0) += 1;
        }
    }
    println!("replay      {}", file.display());
    println!("scenario    {}", h.scenario_path);
    println!(
        "run         {} ticks at {} Hz, seed {}, recorded by botarena {}",
        h.ticks, h.tick_rate, h.seed, h.botarena
    );
    println!(
        "final hash  {:016x}",
        r.hashes.last().copied().unwrap_or_default()
    );
    println!("parts       {}", h.parts.join("; "));
    let ev: Vec<String> = kinds.iter().map(|(k, v)| format!("{k} {v}")).collect();
    println!("events      {}", ev.join(", "));
    Ok(())
}

fn explore(
    map: PathBuf,
    cfg: ExploreConfig,
    out: PathBuf,
    json: bool,
) -> Result<(), Box<dyn std::error::Error>> {
    let ExploreConfig {
        bots,
        seconds,
        seed,
        tick_rate,
        ..
    } = cfg;
    if bots == 0 || bots > 256 {
        return Err(format!("--bots {bots}: must be 1..=256").into());
    }
    if !(seconds > 0.0 && seconds.is_finite()) {
        return Err(format!("--seconds {seconds}: must be a positive number").into());
    }
    if !(1..=1000).contains(&tick_rate) {
        return Err(format!("--tick-rate {tick_rate}: must be 1..=1000").into());
    }
    let data = MapData::load(&map)?;
    let (level, cmap) = build_level(data);
    let level = std::sync::Arc::new(level);
    let hash = geometry_hash(&level);
    let show = std::io::stderr().is_terminal();
    let sim = botarena::scenario::explore::explore(level.clone(), cmap, &cfg, |sim| {
        if show {
            let st = sim.learned.waypoints.stats();
            let pct = 100.0 * sim.time() / seconds;
            eprint!(
                "\r[{:<30}] {pct:5.1}% {:>5.0} s  {} waypoints, {} links, {} components   ",
                "#".repeat((pct / 100.0 * 30.0) as usize),
                sim.time(),
                st.waypoints,
                st.links,
                st.components
            );
            let _ = std::io::stderr().flush();
        }
    })?;
    if show {
        eprintln!();
    }
    save(&sim.learned.waypoints, &level.map.name, &hash, &out)?;
    let mut report = coverage(
        &level,
        &sim.sim.cmap,
        &sim.learned.waypoints,
        bots,
        sim.time(),
        seed,
    );
    report.links_connected = sim.sim.stats.links_connected as usize;
    if json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print!("{}", report.to_text());
        println!("written     {}", out.display());
    }
    Ok(())
}

fn waypoints(cmd: WaypointsCommand) -> Result<(), Box<dyn std::error::Error>> {
    match cmd {
        WaypointsCommand::Grid {
            map,
            spacing,
            no_terrain_weights,
            out,
            json,
        } => {
            if !(16.0..=1024.0).contains(&spacing) {
                return Err(format!("--spacing {spacing}: must be 16..=1024").into());
            }
            let data = MapData::load(&map)?;
            let (level, cmap) = build_level(data);
            let params = GridParams {
                spacing,
                terrain_weights: !no_terrain_weights,
                ..Default::default()
            };
            let graph = seed_grid(&cmap, &params);
            save(&graph, &level.map.name, &geometry_hash(&level), &out)?;
            let report = coverage(&level, &cmap, &graph, 0, 0.0, 0);
            if json {
                println!("{}", serde_json::to_string_pretty(&report.graph)?);
            } else {
                // The coverage lines about exploration (bots, items) do not apply to a grid.
                let text = report.to_text();
                let lines: Vec<&str> = text
                    .lines()
                    .skip(1)
                    .filter(|l| !l.starts_with("items"))
                    .collect();
                print!("{}", lines.join("\n"));
                println!("\nwritten     {}", out.display());
            }
            Ok(())
        }
        WaypointsCommand::Merge {
            files,
            out,
            stitch,
            map,
        } => {
            let mut merged = WaypointGraph::new();
            let mut header: Option<Header> = None;
            let mut first_len = 0;
            for f in &files {
                let expect = header
                    .as_ref()
                    .map(|h| (h.map.clone(), h.geometry_hash.clone()));
                let (h, g) = load(f, expect.as_ref().map(|(m, x)| (m.as_str(), x.as_str())))?;
                merged.merge(&g);
                if header.is_none() {
                    first_len = merged.len() as u32;
                }
                header.get_or_insert(h);
            }
            let h = header.expect("at least two files");
            if let (Some(radius), Some(m)) = (stitch, &map) {
                if !(16.0..=1024.0).contains(&radius) {
                    return Err(format!("--stitch {radius}: must be 16..=1024").into());
                }
                let (level, cmap) = build_level(MapData::load(m)?);
                if level.map.name != h.map || geometry_hash(&level) != h.geometry_hash {
                    return Err(format!(
                        "{}: the waypoint files were made for map {:?}, not this one",
                        m.display(),
                        h.map
                    )
                    .into());
                }
                let added =
                    botarena::nav::grid::stitch(&cmap, &mut merged, 0..first_len, radius, 6);
                println!("stitched {added} links");
            }
            save(&merged, &h.map, &h.geometry_hash, &out)?;
            let st = merged.stats();
            println!(
                "merged {} files: {} waypoints, {} links, {} components -> {}",
                files.len(),
                st.waypoints,
                st.links,
                st.components,
                out.display()
            );
            Ok(())
        }
        WaypointsCommand::Info { file, json } => {
            let (h, g) = load(&file, None)?;
            let st = g.stats();
            if json {
                println!("{}", serde_json::to_string_pretty(&st)?);
            } else {
                println!("map         {} (geometry {})", h.map, h.geometry_hash);
                let kinds: Vec<String> =
                    st.by_kind.iter().map(|(k, v)| format!("{v} {k}")).collect();
                println!("waypoints   {} ({})", st.waypoints, kinds.join(", "));
                let travel: Vec<String> = st
                    .links_by_travel
                    .iter()
                    .map(|(k, v)| format!("{v} {k}"))
                    .collect();
                println!("links       {} ({})", st.links, travel.join(", "));
                println!("components  {}", st.components);
                println!(
                    "routable    {} of {} waypoints all have routes to each other (largest strongly connected part)",
                    st.largest_strong, st.waypoints
                );
            }
            Ok(())
        }
    }
}

fn render(
    map: PathBuf,
    waypoints: Option<PathBuf>,
    out: PathBuf,
    width: f32,
) -> Result<(), Box<dyn std::error::Error>> {
    if !(100.0..=20000.0).contains(&width) {
        return Err(format!("--width {width}: must be 100..=20000").into());
    }
    let data = MapData::load(&map)?;
    let (level, _) = build_level(data);
    let graph = match &waypoints {
        Some(f) => Some(load(f, Some((&level.map.name, &geometry_hash(&level))))?.1),
        None => None,
    };
    let svg = botarena::render::render_map(
        &level,
        &botarena::render::Overlay {
            waypoints: graph.as_ref(),
            tree: None,
        },
        width,
    );
    std::fs::write(&out, svg).map_err(|e| format!("{}: {e}", out.display()))?;
    println!("wrote {}", out.display());
    Ok(())
}

/// Arguments of `botarena route`.
#[derive(clap::Args)]
struct RouteArgs {
    /// The .map file (needed for --from/--to points).
    map: Option<PathBuf>,
    /// The waypoint file.
    #[arg(long)]
    waypoints: PathBuf,
    /// The goal waypoint's number.
    #[arg(long, conflicts_with = "to")]
    to_waypoint: Option<u32>,
    /// A start waypoint: print its path to the goal.
    #[arg(long, conflicts_with = "from")]
    from_waypoint: Option<u32>,
    /// Start point `x,y,z` (a player origin; needs the map).
    #[arg(long, requires = "map", allow_hyphen_values = true)]
    from: Option<String>,
    /// Goal point `x,y,z` (a player origin; needs the map).
    #[arg(long, requires = "map", allow_hyphen_values = true)]
    to: Option<String>,
    /// Allowed travel types, e.g. `walk,jump,fall` (default: all).
    #[arg(long, default_value = "all")]
    flags: String,
    /// Print as JSON.
    #[arg(long)]
    json: bool,
}

fn parse_point(name: &str, s: &str) -> Result<glam::Vec3, String> {
    let v: Vec<f32> = s
        .split(',')
        .map(|t| t.trim().parse::<f32>())
        .collect::<Result<_, _>>()
        .map_err(|_| format!("{name} {s:?}: expected x,y,z"))?;
    match v[..] {
        [x, y, z] if v.iter().all(|c| c.is_finite()) => Ok(glam::Vec3::new(x, y, z)),
        _ => Err(format!("{name} {s:?}: expected x,y,z")),
    }
}

fn route(args: RouteArgs) -> Result<(), Box<dyn std::error::Error>> {
    use botarena::bot::routing::goal_waypoint;
    use botarena::nav::routing::{RouteParams, TravelFlags, build_cache};
    use botarena::nav::sample::nearest_reached;
    let RouteArgs {
        map,
        waypoints: file,
        to_waypoint,
        from_waypoint,
        from,
        to,
        flags,
        json,
    } = args;
    let flags = TravelFlags::parse(&flags).map_err(|e| format!("--flags: {e}"))?;
    let from_p = from
        .as_deref()
        .map(|s| parse_point("--from", s))
        .transpose()?;
    let to_p = to.as_deref().map(|s| parse_point("--to", s)).transpose()?;
    let (header, graph) = match &map {
        Some(m) => {
            let (level, _) = build_level(MapData::load(m)?);
            load(&file, Some((&level.map.name, &geometry_hash(&level))))?
        }
        None => load(&file, None)?,
    };
    let cmap = match &map {
        Some(m) => Some(build_level(MapData::load(m)?).1),
        None => None,
    };
    // Points are settled onto the floor under them (a user's z is rarely exact), then become
    // waypoints: the start's nearest waypoint it reaches, the goal's nearest that reaches it.
    let settle = |p: glam::Vec3| match &cmap {
        Some(cm) => botarena::nav::sample::settle(cm, p),
        None => p,
    };
    let (from_p, to_p) = (from_p.map(settle), to_p.map(settle));
    let (to, from) = match (&cmap, to_p, from_p) {
        (Some(cm), Some(tp), fp) => {
            let goal = goal_waypoint(cm, &graph, tp)
                .ok_or_else(|| format!("no waypoint within reach of --to {tp}"))?;
            let start = match fp {
                Some(f) => Some(
                    nearest_reached(cm, &graph, f, botarena::bot::routing::PICK_RADIUS)
                        .ok_or_else(|| format!("no waypoint within reach of --from {f}"))?,
                ),
                None => from_waypoint,
            };
            (goal, start)
        }
        (_, None, _) => match to_waypoint {
            Some(t) => (t, from_waypoint),
            None => return Err("give --to-waypoint N, or a map with --to x,y,z".into()),
        },
        (None, Some(_), _) => return Err("--to x,y,z needs the map".into()),
    };

    let n = graph.len() as u32;
    for (name, w) in [("--to-waypoint", Some(to)), ("--from-waypoint", from)] {
        if let Some(w) = w
            && w >= n
        {
            return Err(format!(
                "{name} {w}: {} has waypoints 0..{}",
                file.display(),
                n.saturating_sub(1)
            )
            .into());
        }
    }
    let cache = build_cache(&graph, to, 0.0, flags, &RouteParams::default());
    let path = from.map(|f| cache.path(f));
    if json {
        let dist: Vec<Option<f32>> = (0..n).map(|w| cache.distance(w)).collect();
        let v = serde_json::json!({
            "map": header.map,
            "goal": to,
            "distances": dist,
            "next": cache.next,
            "from": from,
            "path": path,
            "path_distance": from.and_then(|f| cache.distance(f)),
        });
        println!("{}", serde_json::to_string_pretty(&v)?);
        return Ok(());
    }
    println!("map {} — distances to waypoint {to}", header.map);
    println!("{:>8} {:>10} {:>6}", "waypoint", "distance", "next");
    for w in 0..n {
        match cache.distance(w) {
            Some(d) => println!(
                "{w:>8} {d:>10.1} {:>6}",
                cache.next[w as usize]
                    .map(|x| x.to_string())
                    .unwrap_or_else(|| "-".into())
            ),
            None => println!("{w:>8} {:>10} {:>6}", "no route", "-"),
        }
    }
    if let (Some(f), Some(p)) = (from, path) {
        if p.is_empty() {
            println!("no route from {f} to {to}");
        } else {
            let ids: Vec<String> = p.iter().map(|x| x.to_string()).collect();
            println!(
                "path {f} -> {to}: {} ({:.1} units)",
                ids.join(" "),
                cache.distance(f).unwrap_or(0.0)
            );
            if let (Some(fp), Some(tp)) = (from_p, to_p) {
                let a = fp.distance(graph.get(f).expect("waypoint").origin);
                let b = tp.distance(graph.get(to).expect("waypoint").origin);
                let along = cache.distance(f).unwrap_or(0.0);
                println!(
                    "points: {a:.1} to waypoint {f}, {along:.1} along the route, {b:.1} from waypoint {to}: {:.1} in all",
                    a + along + b
                );
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{spread, thread_list};

    #[test]
    fn a_spread_is_the_slowest_and_the_median_round() {
        assert_eq!(spread(&[]), "–");
        assert_eq!(spread(&[900.0]), "–");
        assert_eq!(spread(&[1000.0, 800.0, 950.0, 1020.0, 990.0]), "800 – 990");
        assert_eq!(spread(&[10.0, 5.0]), "5 – 10");
    }

    #[test]
    fn thread_lists_are_sorted_without_repeats_and_start_at_one() {
        assert_eq!(thread_list("1,2").unwrap(), vec![1, 2]);
        assert_eq!(thread_list("16, 4,8,4").unwrap(), vec![1, 4, 8, 16]);
        assert_eq!(thread_list("2").unwrap(), vec![1, 2]);
        for bad in ["0", "1,x", "", "-1", "1025"] {
            assert!(thread_list(bad).is_err(), "{bad:?}");
        }
    }
}
