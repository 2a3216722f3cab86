//! Measuring speed on the user's machine: the cases `botarena bench` and the criterion
//! benches share (whole ticks for 1–128 brain bots on the shipped arena and on id's dm4, trace
//! rates), the table they print, and the BENCHMARKS.md they write.
//!
//! Method: a case builds the world, puts its bots on start points spread over the map's floor
//! (spawn points alone are too few for 128 bots), runs `warmup` ticks untimed (bots spread,
//! drop their first waypoints) and then times `ticks` ticks of the full schedule. Times are
//! wall-clock; nothing in the simulation reads them.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use glam::Vec3;
use serde::Serialize;

use crate::bot::brain::Skill;
use crate::bot::control::ControllerConfig;
use crate::map::{Contents, MapData, build_level};
use crate::nav::sample::floor_points;
use crate::physics::pmove::{PLAYER_MAXS, PLAYER_MINS};
use crate::tick::{Match, MatchConfig, PlayerConfig};

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

/// A simulation of `bots` brain bots on `map`, spread over its floor, with `threads` worker
/// threads.
pub fn bench_sim(map: &Path, bots: usize, threads: usize, seed: u64) -> Result<Match, String> {
    let data = MapData::load(map).map_err(|e| e.to_string())?;
    let (level, cmap) = build_level(data);
    // Points 48 units apart: two players (32 wide) never overlap.
    let points = floor_points(&level, &cmap, 48.0);
    if points.len() < bots {
        return Err(format!(
            "{}: floor for {} bots, {bots} asked",
            map.display(),
            points.len()
        ));
    }
    // Spread: take every k-th point so the bots cover the map.
    let stride = (points.len() / bots.max(1)).max(1);
    let players = (0..bots)
        .map(|i| PlayerConfig {
            name: format!("bot{i}"),
            // They never react to each other (reaction 10 s), so all stay alive: the load
            // is perceiving, predicting, routing and learning the map for every bot, not a
            // crowd of corpses (a 128-bot melee kills most of them within seconds).
            controller: ControllerConfig::Brain(Skill {
                reaction: 10.0,
                ..Skill::default()
            }),
            spawn: None,
            start: Some((points[(i * stride) % points.len()], (i * 37 % 360) as f32)),
            senses: Default::default(),
        })
        .collect();
    let cfg = MatchConfig::new(seed, players);
    let mut m = Match::new(Arc::new(level), cmap, &cfg).map_err(|e| e.to_string())?;
    m.sim.threads = threads;
    Ok(m)
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
    /// The target for this case, if the issue sets one.
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
}

/// Runs a whole-tick case.
pub fn run_case(
    map: &BenchMap,
    bots: usize,
    threads: usize,
    warmup: u64,
    ticks: u64,
) -> Result<BenchResult, String> {
    let mut sim = bench_sim(&map.path, bots, threads, 1)?;
    for _ in 0..warmup {
        sim.step();
    }
    sim.timings = Default::default();
    let pool_time = |m: &Match| m.sim.pool.as_ref().map(|p| p.time()).unwrap_or_default();
    let before = pool_time(&sim);
    let start = Instant::now();
    for _ in 0..ticks {
        sim.step();
    }
    let secs = start.elapsed().as_secs_f64();
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
        target: target(&map.name, bots, threads),
        pool_busy_us: per_tick(after.busy, before.busy),
        pool_waited_us: per_tick(after.waited, before.waited),
        serial_us,
        serial_stages: serial,
    })
}

/// The targets (2 cores, release build, 20 Hz): 8 bots on dm4 ≥ 5,000 ticks/s,
/// 32 bots ≥ 1,000, 128 bots ≥ 150.
pub fn target(map: &str, bots: usize, _threads: usize) -> Option<f64> {
    match (map, bots) {
        ("dm4", 8) => Some(5000.0),
        (_, 32) => Some(1000.0),
        (_, 128) => Some(150.0),
        _ => None,
    }
}

/// Trace throughput: rays and player-box sweeps between random floor points (seeded), per
/// second.
pub fn trace_rates(map: &Path, n: usize) -> Result<(f64, f64), String> {
    let data = MapData::load(map).map_err(|e| e.to_string())?;
    let (level, cmap) = build_level(data);
    let pts = floor_points(&level, &cmap, 96.0);
    if pts.len() < 2 {
        return Err("too few floor points".into());
    }
    let mut rng = crate::sim::rng::SimRng::new(7, 0);
    let pairs: Vec<(Vec3, Vec3)> = (0..n)
        .map(|_| {
            let a = pts[rng.below(pts.len())];
            let b = pts[rng.below(pts.len())];
            // Realistic lengths: up to 512 units toward the other point.
            let d = (b - a).clamp_length_max(512.0);
            (a, a + d)
        })
        .collect();
    let t0 = Instant::now();
    let mut hit = 0usize;
    for (a, b) in &pairs {
        hit += (cmap.trace_ray(*a, *b, Contents::MASK_SIGHT, None).fraction < 1.0) as usize;
    }
    let ray = n as f64 / t0.elapsed().as_secs_f64();
    let t0 = Instant::now();
    for (a, b) in &pairs {
        hit += (cmap
            .trace(
                *a,
                *b,
                PLAYER_MINS,
                PLAYER_MAXS,
                Contents::MASK_PLAYER,
                None,
            )
            .fraction
            < 1.0) as usize;
    }
    let sweep = n as f64 / t0.elapsed().as_secs_f64();
    std::hint::black_box(hit);
    Ok((ray, sweep))
}

/// The machine, in words (CPU model and cores).
pub fn machine() -> String {
    let model = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|c| {
            c.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|s| s.trim().to_string())
        })
        .unwrap_or_else(|| std::env::consts::ARCH.to_string());
    format!(
        "{model}, {} cores available, {}",
        crate::sim::parallel::default_threads(),
        std::env::consts::OS
    )
}
