//! Measuring speed on the user's machine: the cases `botarena bench` and the criterion
//! benches share (whole ticks for 1–128 brain bots on the shipped arena and on id's dm4, trace
//! rates), the table they print, and the BENCHMARKS.md they write.
//!
//! Method: a case builds the world, puts its bots on start points spread over the map's floor
//! (spawn points alone are too few for 128 bots), runs `warmup` ticks untimed (bots spread,
//! drop their first waypoints) and then times `ticks` ticks of the full schedule. Times are
//! wall-clock; nothing in the simulation reads them.
//!
//! Files: this one (the cases and the run), `traces` (trace rates, nav compile times),
//! `report` (the table and the JSON record).

mod follow;
mod report;
mod traces;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use glam::Vec3;
use serde::Serialize;

use crate::bot::Navigation;
use crate::bot::brain::Skill;
use crate::bot::control::ControllerConfig;
use crate::map::{Contents, MapData, build_level};
use crate::nav::sample::floor_points;
use crate::tick::{Match, MatchConfig, PlayerConfig};
pub use follow::{FOLLOW_BOTS, FOLLOW_TARGET, FollowCost, follow_cost, follow_us};
pub use report::{machine, spread};
pub use traces::{NavCompileTime, TraceRate, lookup_points, nav_compile_time, trace_rates};

/// A map to measure on.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BenchMap {
    /// Short name.
    pub name: String,
    /// The file.
    pub path: PathBuf,
}

/// The maps there are: the shipped arena, and dm4 where id's maps are present
/// (`$BOTARENA_QUAKE_MAPS` or `../shared/quake-maps`).
pub fn bench_maps(root: &Path) -> Vec<BenchMap> {
    let mut maps = vec![BenchMap {
        name: "arena".into(),
        path: root.join("maps/arena.map"),
    }];
    let dir = std::env::var_os("BOTARENA_QUAKE_MAPS")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("../shared/quake-maps"));
    let dm4 = dir.join("dm4.map");
    if dm4.is_file() {
        maps.push(BenchMap {
            name: "dm4".into(),
            path: dm4,
        });
    }
    maps
}

/// Maps made today with TrenchBroom and ericw-tools whose navigation compile is timed too
/// (LibreQuake's deathmatch maps, under the Quake maps' `librequake/`), with the target a
/// level designer waits at most.
pub fn compile_only_maps(root: &Path) -> Vec<BenchMap> {
    let dir = std::env::var_os("BOTARENA_QUAKE_MAPS")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("../shared/quake-maps"))
        .join("librequake");
    let mut out: Vec<BenchMap> = (1..=6)
        .map(|n| BenchMap {
            name: format!("lqdm{n}"),
            path: dir.join(format!("lqdm{n}.map")),
        })
        .filter(|m| m.path.is_file())
        .collect();
    out.sort_by(|a, b| a.name.cmp(&b.name));
    out
}

/// Seconds a navigation compile of a map made today may take (issue: today's maps).
const COMPILE_TARGET_TODAY: f64 = 5.0;

/// A simulation of `bots` brain bots on `map`, spread over its floor, with `threads` worker
/// threads; they never react to each other (reaction 10 s), so none dies.
pub fn bench_match(map: &Path, bots: usize, threads: usize, seed: u64) -> Result<Match, String> {
    // They never react to each other (reaction 10 s), so all stay alive: the load is
    // perceiving, predicting, routing and learning the map for every bot, not a crowd of
    // corpses (a 128-bot melee kills most of them within seconds).
    let skill = Skill {
        reaction: 10.0,
        ..Skill::default()
    };
    bots_on(map, bots, threads, seed, skill, false, Navigation::Learned)
}

/// A real deathmatch: `bots` brain bots of the default skill (they react, fight, die and
/// respawn) on `map`, starting spread over its floor, with `threads` worker threads.
pub fn real_match(map: &Path, bots: usize, threads: usize, seed: u64) -> Result<Match, String> {
    bots_on(
        map,
        bots,
        threads,
        seed,
        Skill::default(),
        true,
        Navigation::Learned,
    )
}

/// `bots` brain bots of `skill` on floor points spread over `map`, finding their way by
/// `navigation` (compiled: the map's area graph is compiled here). With `crowd_spawns`,
/// when the bots outnumber the map's spawn points more than twice, their starting points
/// become spawn points too: a deathmatch map's handful of spawns would have 32 or 128 bots
/// respawn into each other's fire and spend most of the match dead.
fn bots_on(
    map: &Path,
    bots: usize,
    threads: usize,
    seed: u64,
    skill: Skill,
    crowd_spawns: bool,
    navigation: Navigation,
) -> Result<Match, String> {
    let data = MapData::load(map).map_err(|e| e.to_string())?;
    let (mut level, cmap) = build_level(data);
    // Points 48 units apart: two players (32 wide) never overlap, and only those in the
    // level: the floor grid also finds the tops of ceilings and walls outside it, from
    // which a bot walks off into the void and falls for the rest of the run.
    let points = playable(&level, &cmap, floor_points(&level, &cmap, 48.0), 48.0);
    if points.len() < bots {
        return Err(format!(
            "{}: floor for {} bots, {bots} asked",
            map.display(),
            points.len()
        ));
    }
    // Spread: take every k-th point so the bots cover the map.
    let stride = (points.len() / bots.max(1)).max(1);
    let start = |i: usize| (points[(i * stride) % points.len()], (i * 37 % 360) as f32);
    if crowd_spawns && bots > 2 * level.spawns.len() {
        level
            .spawns
            .extend((0..bots).map(|i| crate::map::level::SpawnPoint {
                origin: start(i).0,
                yaw: start(i).1,
            }));
    }
    let players = (0..bots)
        .map(|i| PlayerConfig {
            name: format!("bot{i}"),
            controller: ControllerConfig::Brain(skill),
            spawn: None,
            start: Some(start(i)),
            senses: Default::default(),
            navigation,
        })
        .collect();
    let mut cfg = MatchConfig::new(seed, players);
    if navigation == Navigation::Compiled {
        let params = crate::aas::CompileParams {
            tick_rate: cfg.tick_rate,
            ..Default::default()
        };
        let mesh = crate::aas::compile(&level, &cmap, &params, &mut |_, _, _| {})
            .map_err(|e| format!("{}: {e}", map.display()))?;
        cfg.nav = Some(Arc::new(mesh));
    }
    let mut m = Match::new(Arc::new(level), cmap, &cfg).map_err(|e| e.to_string())?;
    m.sim.threads = threads;
    Ok(m)
}

/// The floor `points` (a grid `spacing` apart) a player can walk to from the level's spawn
/// points: a flood over neighbouring points (next columns, at most a stair's rise apart,
/// with a clear line between them at knee height), seeded with the point nearest each
/// spawn point that it sees. Ceilings' and walls' tops outside the level are cut off from
/// the spawns by the brushes between; a map without spawns keeps every point.
pub fn playable(
    level: &crate::map::Level,
    cmap: &crate::map::CollisionMap,
    points: Vec<Vec3>,
    spacing: f32,
) -> Vec<Vec3> {
    if level.spawns.is_empty() || points.is_empty() {
        return points;
    }
    let key = |p: Vec3| {
        (
            (p.x / spacing).round() as i64,
            (p.y / spacing).round() as i64,
        )
    };
    let mut columns: std::collections::BTreeMap<(i64, i64), Vec<usize>> = Default::default();
    for (i, p) in points.iter().enumerate() {
        columns.entry(key(*p)).or_default().push(i);
    }
    let knee = Vec3::new(0.0, 0.0, 16.0);
    let sees =
        |a: Vec3, b: Vec3| cmap.line_clear(a + knee, b + knee, Contents::MASK_PLAYER_NO_BODIES);
    let mut reached = vec![false; points.len()];
    let mut queue = std::collections::VecDeque::new();
    for s in &level.spawns {
        let nearest = points
            .iter()
            .enumerate()
            .filter(|(_, p)| (**p - s.origin).length() < 4.0 * spacing && sees(s.origin, **p))
            .min_by(|a, b| {
                (*a.1 - s.origin)
                    .length()
                    .total_cmp(&(*b.1 - s.origin).length())
            });
        if let Some((i, _)) = nearest
            && !reached[i]
        {
            reached[i] = true;
            queue.push_back(i);
        }
    }
    while let Some(i) = queue.pop_front() {
        let p = points[i];
        let (cx, cy) = key(p);
        for dx in -1..=1 {
            for dy in -1..=1 {
                let Some(col) = columns.get(&(cx + dx, cy + dy)) else {
                    continue;
                };
                for &j in col {
                    let q = points[j];
                    // Up a stair's rise, or down any drop (falling is a way too).
                    if !reached[j] && q.z - p.z <= 18.0 && sees(p, q) {
                        reached[j] = true;
                        queue.push_back(j);
                    }
                }
            }
        }
    }
    points
        .into_iter()
        .zip(reached)
        .filter_map(|(p, r)| r.then_some(p))
        .collect()
}

/// One measured case.
#[derive(Clone, Debug, Serialize)]
pub struct BenchResult {
    /// Map name.
    pub map: String,
    /// Bots.
    pub bots: usize,
    /// Worker threads.
    pub threads: usize,
    /// Ticks timed.
    pub ticks: u64,
    /// Ticks per wall-clock second.
    pub ticks_per_second: f64,
    /// Ticks per second of every round of this case, in the order measured (`botarena
    /// bench` keeps the fastest round as `ticks_per_second`; these show the spread).
    pub rounds: Vec<f64>,
    /// Share of the time per stage (the five largest), percent.
    pub top_stages: Vec<(String, f64)>,
    /// The target for this case, if there is one ([`target`]).
    pub target: Option<f64>,
    /// Microseconds per tick the worker pool's threads spent running jobs, summed over the
    /// threads (0 on one thread: no pool).
    pub pool_busy_us: f64,
    /// Microseconds per tick the calling thread waited for the workers' last jobs.
    pub pool_waited_us: f64,
    /// Microseconds per tick the scheduling thread spent outside the worker pool: serial
    /// work, which more threads cannot shorten (the whole tick on one thread).
    pub serial_us: f64,
    /// The stages with the most serial time, microseconds per tick (the four largest).
    pub serial_stages: Vec<(String, f64)>,
    /// A real match ([`real_match`]: bots that fight, after a minute's warm-up) rather
    /// than the first seconds of bots that ignore each other.
    pub real: bool,
    /// Microseconds per bot per tick (a tick's time ÷ bots).
    pub us_per_bot_tick: f64,
    /// Traces per bot per tick, all stages.
    pub traces_per_bot_tick: f64,
    /// Deaths during the timed ticks (a real match has fights).
    pub deaths: u64,
    /// Share of bot-ticks alive during the timed ticks, percent (the dead cost little).
    pub alive_percent: f64,
}

impl BenchResult {
    /// "yes" or "**no**" against the case's target, "" where it has none.
    fn met(&self) -> &'static str {
        match self.target {
            Some(t) if self.ticks_per_second >= t => "yes",
            Some(_) => "**no**",
            None => "",
        }
    }
}

/// Runs a whole-tick case: the first seconds of bots that ignore each other, or (`real`) a
/// real match after `warmup` ticks.
pub fn run_case(
    map: &BenchMap,
    bots: usize,
    threads: usize,
    warmup: u64,
    ticks: u64,
    real: bool,
) -> Result<BenchResult, String> {
    let mut sim = if real {
        real_match(&map.path, bots, threads, 1)?
    } else {
        bench_match(&map.path, bots, threads, 1)?
    };
    for _ in 0..warmup {
        sim.step();
    }
    sim.timings = Default::default();
    let pool_time = |m: &Match| m.sim.pool.as_ref().map(|p| p.time()).unwrap_or_default();
    let before = pool_time(&sim);
    let mut deaths = 0u64;
    let mut alive = 0u64;
    let start = Instant::now();
    for _ in 0..ticks {
        sim.step();
        // Counting is cheap beside a tick (a scan of this tick's events and vitals).
        deaths += sim
            .sim
            .events
            .iter()
            .filter(|e| matches!(e, crate::sim::SimEvent::Death { .. }))
            .count() as u64;
        alive += (0..sim.sim.players.len())
            .filter(|&i| sim.sim.player_vitals(i).is_some_and(|v| v.alive))
            .count() as u64;
    }
    let secs = start.elapsed().as_secs_f64();
    let traces: u64 = sim.timings.traces.iter().sum();
    let bot_ticks = (bots as u64 * ticks).max(1) as f64;
    let after = pool_time(&sim);
    let per_tick = |a: f64, b: f64| (a - b) * 1e6 / ticks.max(1) as f64;
    let total: f64 = sim.timings.breakdown().iter().map(|b| b.1).sum();
    let mut stages: Vec<(String, f64)> = sim
        .timings
        .breakdown()
        .into_iter()
        .map(|(k, v)| (k.to_string(), 100.0 * v / total.max(1e-12)))
        .collect();
    stages.sort_by(|a, b| b.1.total_cmp(&a.1));
    stages.truncate(5);
    let mut serial: Vec<(String, f64)> = sim
        .timings
        .serial_breakdown()
        .into_iter()
        .map(|(k, v)| (k.to_string(), v * 1e6 / ticks.max(1) as f64))
        .collect();
    let serial_us = serial.iter().map(|s| s.1).sum();
    serial.sort_by(|a, b| b.1.total_cmp(&a.1));
    serial.truncate(4);
    Ok(BenchResult {
        map: map.name.clone(),
        bots,
        threads,
        ticks,
        ticks_per_second: ticks as f64 / secs.max(1e-12),
        rounds: Vec::new(),
        top_stages: stages,
        target: target(&map.name, bots, threads, real),
        pool_busy_us: per_tick(after.busy, before.busy),
        pool_waited_us: per_tick(after.waited, before.waited),
        serial_us,
        serial_stages: serial,
        real,
        us_per_bot_tick: secs * 1e6 / bot_ticks,
        traces_per_bot_tick: traces as f64 / bot_ticks,
        deaths,
        alive_percent: 100.0 * alive as f64 / bot_ticks,
    })
}

/// The speed targets in ticks per second (2 cores, release build, 20 Hz). First seconds:
/// 8 bots on dm4 ≥ 5,000 ticks/s, 32 bots ≥ 1,000, 128 bots ≥ 150. Real matches on dm4, one
/// thread: 10 µs per bot-tick for 8 bots (≥ 10,000 ticks/s), 13 µs for 32 and 128 (a cost
/// per bot that stays flat as the match grows).
pub fn target(map: &str, bots: usize, threads: usize, real: bool) -> Option<f64> {
    match (real, map, bots) {
        (false, "dm4", 8) => Some(5000.0),
        (false, _, 32) => Some(1000.0),
        (false, _, 128) => Some(150.0),
        (true, "dm4", 8) if threads == 1 => Some(1e6 / (REAL_TARGET_US_8 * 8.0)),
        (true, "dm4", 32 | 128) if threads == 1 => Some(1e6 / (REAL_TARGET_US_128 * bots as f64)),
        _ => None,
    }
}

/// The real-match target for 8 bots on dm4, one thread, in µs per bot-tick.
pub const REAL_TARGET_US_8: f64 = 10.0;

/// The real-match target for 32 and 128 bots on dm4, one thread, in µs per bot-tick.
pub const REAL_TARGET_US_128: f64 = 13.0;

/// Warm-up and timed ticks of a real-match case: a minute of play (waypoints exist, fights
/// have started), then a minute timed.
pub const REAL_WARMUP_TICKS: u64 = 1200;

/// See [`REAL_WARMUP_TICKS`].
pub const REAL_TIMED_TICKS: u64 = 1200;

/// `--threads 1,2,4`: the thread counts to measure, sorted, without repeats, 1 always among
/// them (the speed-ups are against it).
pub fn parse_threads(list: &str) -> Result<Vec<usize>, String> {
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

/// The repository folder the bench reads `maps/` from: `dir` when it has the shipped arena,
/// else the one this binary was built from.
pub fn root_from(dir: &Path) -> PathBuf {
    if dir.join("maps/arena.map").is_file() {
        dir.to_path_buf()
    } else {
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
    }
}

/// What `botarena bench` measures.
#[derive(Clone, Debug, PartialEq)]
pub struct BenchOptions {
    /// A fifth of the ticks and one round (a rough figure in seconds).
    pub quick: bool,
    /// Thread counts ([`parse_threads`]).
    pub threads: Vec<usize>,
    /// Only these maps (empty: all).
    pub maps: Vec<String>,
    /// Only these bot counts (empty: all).
    pub bots: Vec<usize>,
    /// Real matches (`Some(true)`), first seconds (`Some(false)`), or both.
    pub real: Option<bool>,
    /// Leave out the trace rates and navigation compile times.
    pub matches_only: bool,
}

impl BenchOptions {
    /// Every case, on 1 and 2 threads (what `botarena bench` measures by default).
    pub fn all(quick: bool) -> BenchOptions {
        BenchOptions {
            quick,
            threads: vec![1, 2],
            maps: Vec::new(),
            bots: Vec::new(),
            real: None,
            matches_only: false,
        }
    }

    /// Whether a case is among those asked for.
    fn wants(&self, map: &str, bots: usize, real: bool) -> bool {
        (self.maps.is_empty() || self.maps.iter().any(|m| m == map))
            && (self.bots.is_empty() || self.bots.contains(&bots))
            && self.real.is_none_or(|r| r == real)
    }
}

impl BenchOptions {
    /// Rounds per case: five (the fastest counts), one when quick.
    pub fn rounds(&self) -> usize {
        if self.quick { 1 } else { 5 }
    }

    /// The divisor of ticks and trace counts: 5 when quick.
    fn scale(&self) -> u64 {
        if self.quick { 5 } else { 1 }
    }
}

/// A whole `botarena bench` run: every case's best round, trace rates, and where it ran.
#[derive(Clone, Debug)]
pub struct BenchReport {
    /// The machine, in words.
    pub machine: String,
    /// What was asked.
    pub options: BenchOptions,
    /// Map names, in the order measured.
    pub maps: Vec<String>,
    /// One per (map, bots, threads), the fastest round with every round's figure.
    pub cases: Vec<BenchResult>,
    /// Trace rates per map.
    pub traces: Vec<TraceRate>,
    /// Navigation compile times per map (all threads asked for).
    pub nav_compile: Vec<NavCompileTime>,
    /// Route following's cost beside learning the map, on dm4 ([`follow_cost`]).
    pub follow: Vec<FollowCost>,
}

/// Runs every case of `botarena bench` on the maps under `root`: 1, 8, 32 and 128 bots for
/// each thread count (one bot on one thread only), in rounds over all the cases (see the
/// method in [`BenchReport::to_markdown`]), then the trace rates. `progress` is called with
/// (runs done, runs in all) after each run.
pub fn run_bench(
    root: &Path,
    opts: &BenchOptions,
    mut progress: impl FnMut(usize, usize),
) -> Result<BenchReport, String> {
    let maps: Vec<BenchMap> = bench_maps(root)
        .into_iter()
        .filter(|m| opts.maps.is_empty() || opts.maps.contains(&m.name))
        .collect();
    if let Some(missing) = opts
        .maps
        .iter()
        .find(|n| !maps.iter().any(|m| &m.name == *n))
    {
        return Err(format!(
            "no bench map {missing:?} here (arena, and dm4 where id's maps are present)"
        ));
    }
    let scale = opts.scale();
    let mut cases = Vec::new();
    // Real matches first (what users run), then the first seconds.
    for m in &maps {
        for bots in [8usize, 32, 128] {
            for &threads in &opts.threads {
                if !opts.wants(&m.name, bots, true) {
                    continue;
                }
                cases.push((
                    m.clone(),
                    bots,
                    threads,
                    REAL_WARMUP_TICKS / scale,
                    REAL_TIMED_TICKS / scale,
                    true,
                ));
            }
        }
    }
    for m in &maps {
        for (bots, ticks) in [(1usize, 2000u64), (8, 1000), (32, 400), (128, 150)] {
            for &threads in &opts.threads {
                if bots == 1 && threads > 1 || !opts.wants(&m.name, bots, false) {
                    continue;
                }
                cases.push((m.clone(), bots, threads, 100 / scale, ticks / scale, false));
            }
        }
    }
    // The same deterministic run in rounds, keeping the fastest: on a shared machine the
    // slow runs measure the neighbours. The rounds go over every case in turn, so a slow
    // spell (they last seconds here) costs each case one round at most, and the one- and
    // two-thread runs of a case are measured minutes apart as often as each other.
    let rounds = opts.rounds();
    let mut best: Vec<Option<BenchResult>> = vec![None; cases.len()];
    for round in 0..rounds {
        for (i, (m, bots, threads, warmup, ticks, real)) in cases.iter().enumerate() {
            let r = run_case(m, *bots, *threads, *warmup, *ticks, *real)?;
            let mut all = best[i]
                .as_ref()
                .map(|b| b.rounds.clone())
                .unwrap_or_default();
            all.push(r.ticks_per_second);
            if best[i]
                .as_ref()
                .is_none_or(|b| r.ticks_per_second > b.ticks_per_second)
            {
                best[i] = Some(r);
            }
            if let Some(b) = best[i].as_mut() {
                b.rounds = all;
            }
            progress(round * cases.len() + i + 1, rounds * cases.len());
        }
    }
    let cases = best
        .into_iter()
        .map(|b| b.expect("at least one round"))
        .collect();
    let mut traces = Vec::new();
    let measured: &[BenchMap] = if opts.matches_only { &[] } else { &maps };
    for m in measured {
        traces.push(TraceRate {
            map: m.name.clone(),
            ..trace_rates(&m.path, 200_000 / scale as usize)?
        });
    }
    let threads = opts.threads.iter().copied().max().unwrap_or(1);
    let mut nav_compile = Vec::new();
    let today = if opts.matches_only || !opts.maps.is_empty() {
        Vec::new()
    } else {
        compile_only_maps(root)
    };
    for m in measured.iter().chain(&today) {
        let mut rounds_s = Vec::new();
        let mut made = (0, 0);
        let mut lookup = f64::INFINITY;
        for _ in 0..rounds {
            let (t, a, r, ns) = nav_compile_time(&m.path, threads)?;
            rounds_s.push(t);
            made = (a, r);
            lookup = lookup.min(ns);
        }
        nav_compile.push(NavCompileTime {
            map: m.name.clone(),
            threads,
            seconds: rounds_s.iter().copied().fold(f64::INFINITY, f64::min),
            rounds: rounds_s,
            areas: made.0,
            reachabilities: made.1,
            target: if m.name == "dm4" {
                Some(1.0)
            } else {
                today
                    .iter()
                    .any(|t| t.name == m.name)
                    .then_some(COMPILE_TARGET_TODAY)
            },
            area_at_ns: lookup,
        });
    }
    // Route following beside learning: real matches on dm4, asked for with the real ones.
    let mut follow = Vec::new();
    for m in maps.iter().filter(|m| m.name == "dm4") {
        if opts.wants(&m.name, FOLLOW_BOTS, true) {
            follow.push(follow_cost(m, rounds, scale)?);
        }
    }
    Ok(BenchReport {
        machine: machine(),
        options: opts.clone(),
        maps: maps.into_iter().map(|m| m.name).collect(),
        cases,
        traces,
        nav_compile,
        follow,
    })
}

#[cfg(test)]
mod tests;
