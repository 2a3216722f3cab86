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
/// threads; they never react to each other (reaction 10 s), so none dies.
pub fn bench_match(map: &Path, bots: usize, threads: usize, seed: u64) -> Result<Match, String> {
    // They never react to each other (reaction 10 s), so all stay alive: the load is
    // perceiving, predicting, routing and learning the map for every bot, not a crowd of
    // corpses (a 128-bot melee kills most of them within seconds).
    let skill = Skill {
        reaction: 10.0,
        ..Skill::default()
    };
    bots_on(map, bots, threads, seed, skill, false)
}

/// A real deathmatch: `bots` brain bots of the default skill (they react, fight, die and
/// respawn) on `map`, starting spread over its floor, with `threads` worker threads.
pub fn real_match(map: &Path, bots: usize, threads: usize, seed: u64) -> Result<Match, String> {
    bots_on(map, bots, threads, seed, Skill::default(), true)
}

/// `bots` brain bots of `skill` on floor points spread over `map`. With `crowd_spawns`,
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
) -> Result<Match, String> {
    let data = MapData::load(map).map_err(|e| e.to_string())?;
    let (mut level, cmap) = build_level(data);
    // Points 48 units apart: two players (32 wide) never overlap, and only those in the
    // level: the floor grid also finds the tops of ceilings and walls outside it, from
    // which a bot walks off into the void and falls for the rest of the run (measured
    // before this: 3 of 8, 30 of 32 and 108 of 128 bots on dm4 after two minutes).
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
            navigation: Default::default(),
        })
        .collect();
    let cfg = MatchConfig::new(seed, players);
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
/// 8 bots on dm4 ≥ 5,000 ticks/s, 32 bots ≥ 1,000, 128 bots ≥ 150. Real matches on dm4:
/// 15 µs per bot-tick for 8 bots on one thread (≥ 8,333 ticks/s), 20 µs for 32 and 128.
pub fn target(map: &str, bots: usize, threads: usize, real: bool) -> Option<f64> {
    match (real, map, bots) {
        (false, "dm4", 8) => Some(5000.0),
        (false, _, 32) => Some(1000.0),
        (false, _, 128) => Some(150.0),
        (true, "dm4", 8) if threads == 1 => Some(1e6 / (15.0 * 8.0)),
        (true, "dm4", 32 | 128) => Some(1e6 / (20.0 * bots as f64)),
        _ => None,
    }
}

/// Warm-up and timed ticks of a real-match case: a minute of play (waypoints exist, fights
/// have started), then a minute timed.
pub const REAL_WARMUP_TICKS: u64 = 1200;
/// See [`REAL_WARMUP_TICKS`].
pub const REAL_TIMED_TICKS: u64 = 1200;

/// Trace throughput: rays and player-box sweeps between random floor points (seeded), per
/// second, with this crate's collision module (`trace`; `line_clear`, the sight question),
/// and the same rays and sweeps with parry3d's own queries over a triangle mesh of the same
/// brushes (its BVH; `cast_local_ray`, `intersects_local_ray`, `cast_shapes` of the player
/// box), so that the faster structure is known.
pub fn trace_rates(map: &Path, n: usize) -> Result<TraceRate, String> {
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
    // A tick's step of a running player (320 u/s at 20 Hz): most sweeps in a match.
    let steps: Vec<(Vec3, Vec3)> = pairs
        .iter()
        .map(|(a, b)| (*a, *a + (*b - *a).clamp_length_max(16.0)))
        .collect();
    let rate_on = |segs: &[(Vec3, Vec3)], f: &mut dyn FnMut(Vec3, Vec3) -> bool| {
        let t0 = Instant::now();
        let hits = segs.iter().filter(|(a, b)| f(*a, *b)).count();
        std::hint::black_box(hits);
        segs.len() as f64 / t0.elapsed().as_secs_f64()
    };
    let rate = |f: &mut dyn FnMut(Vec3, Vec3) -> bool| rate_on(&pairs, f);
    let rays_per_second =
        rate(&mut |a, b| cmap.trace_ray(a, b, Contents::MASK_SIGHT, None).fraction < 1.0);
    let sight_per_second = rate(&mut |a, b| cmap.line_clear(a, b, Contents::MASK_SIGHT));
    let mut sweep = |a: Vec3, b: Vec3| {
        cmap.trace(a, b, PLAYER_MINS, PLAYER_MAXS, Contents::MASK_PLAYER, None)
            .fraction
            < 1.0
    };
    let sweeps_per_second = rate(&mut sweep);
    let step_sweeps_per_second = rate_on(&steps, &mut sweep);
    // Rays see through clip brushes (MASK_SIGHT), players do not (MASK_PLAYER): a mesh each.
    let meshes = (
        brush_mesh(&level, Contents::MASK_SIGHT),
        brush_mesh(&level, Contents::MASK_PLAYER),
    );
    let (parry_rays, parry_sight, parry_sweeps, parry_steps) = match meshes {
        (Some(mesh), Some(solid)) => {
            use parry3d::query::{Ray, RayCast, ShapeCastOptions, cast_shapes};
            use parry3d::shape::Cuboid;
            let r = rate(&mut |a, b| {
                mesh.cast_local_ray(&Ray::new(a, b - a), 1.0, true)
                    .is_some()
            });
            let s = rate(&mut |a, b| !mesh.intersects_local_ray(&Ray::new(a, b - a), 1.0));
            let half = (PLAYER_MAXS - PLAYER_MINS) * 0.5;
            let centre = (PLAYER_MAXS + PLAYER_MINS) * 0.5;
            let player = Cuboid::new(half);
            let still = parry3d::math::Pose::IDENTITY;
            let mut cast = |a: Vec3, b: Vec3| {
                let at = parry3d::math::Pose::from_translation(a + centre);
                matches!(
                    cast_shapes(
                        &at,
                        b - a,
                        &player,
                        &still,
                        Vec3::ZERO,
                        &solid,
                        ShapeCastOptions::with_max_time_of_impact(1.0)
                    ),
                    Ok(Some(_))
                )
            };
            let w = rate(&mut cast);
            let st = rate_on(&steps, &mut cast);
            (Some(r), Some(s), Some(w), Some(st))
        }
        _ => (None, None, None, None),
    };
    Ok(TraceRate {
        map: String::new(),
        rays_per_second,
        sweeps_per_second,
        sight_per_second,
        parry_rays_per_second: parry_rays,
        parry_sight_per_second: parry_sight,
        parry_sweeps_per_second: parry_sweeps,
        step_sweeps_per_second,
        parry_step_sweeps_per_second: parry_steps,
    })
}

/// The map's static brushes whose contents meet `mask` as one parry3d triangle mesh (each
/// face a fan of triangles), or `None` when there are none.
fn brush_mesh(level: &crate::map::Level, mask: Contents) -> Option<parry3d::shape::TriMesh> {
    let mut vertices: Vec<Vec3> = Vec::new();
    let mut indices: Vec<[u32; 3]> = Vec::new();
    for b in level
        .static_brushes
        .iter()
        .filter(|b| b.contents.intersects(mask))
    {
        for p in &b.planes {
            // The face: the brush's corners on this plane, in order around it.
            let mut face: Vec<Vec3> = b
                .vertices
                .iter()
                .copied()
                .filter(|v| (p.normal.dot(*v) - p.dist).abs() < 0.05)
                .collect();
            if face.len() < 3 {
                continue;
            }
            let c = face.iter().copied().sum::<Vec3>() / face.len() as f32;
            let u = (face[0] - c).normalize_or_zero();
            let v = p.normal.cross(u);
            face.sort_by(|x, y| {
                let ax = (*x - c).dot(v).atan2((*x - c).dot(u));
                let ay = (*y - c).dot(v).atan2((*y - c).dot(u));
                ax.total_cmp(&ay)
            });
            let base = vertices.len() as u32;
            vertices.extend(face.iter().copied());
            for k in 1..face.len() as u32 - 1 {
                indices.push([base, base + k, base + k + 1]);
            }
        }
    }
    if indices.is_empty() {
        return None;
    }
    parry3d::shape::TriMesh::new(vertices, indices).ok()
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

/// "slowest – median" of a case's rounds, "–" for a single round.
pub fn spread(rounds: &[f64]) -> String {
    spread_of(rounds, false, 0)
}

/// "slowest – median" of `rounds` with `decimals` places, "–" for fewer than two; the
/// slowest is the largest figure when `larger_is_slower` (seconds), else the smallest
/// (rates).
fn spread_of(rounds: &[f64], larger_is_slower: bool, decimals: usize) -> String {
    let mut v = rounds.to_vec();
    if larger_is_slower {
        v.sort_by(|a, b| b.total_cmp(a));
    } else {
        v.sort_by(f64::total_cmp);
    }
    match (v.first(), v.get(v.len() / 2)) {
        (Some(slow), Some(mid)) if v.len() > 1 => {
            format!("{slow:.decimals$} – {mid:.decimals$}")
        }
        _ => "–".into(),
    }
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

/// Trace throughput on one map: this crate's collision module, and parry3d's queries on the
/// same rays and sweeps ([`trace_rates`]).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct TraceRate {
    /// Map name.
    pub map: String,
    /// Rays per second (`trace` with a zero box: the first hit, its normal and contents).
    pub rays_per_second: f64,
    /// Player-box sweeps per second.
    pub sweeps_per_second: f64,
    /// Sight questions per second (`line_clear`: is anything in the way).
    pub sight_per_second: f64,
    /// parry3d's first-hit ray casts per second on a triangle mesh of the solid brushes.
    pub parry_rays_per_second: Option<f64>,
    /// parry3d's any-hit ray tests per second on that mesh.
    pub parry_sight_per_second: Option<f64>,
    /// parry3d's player-box casts per second on that mesh.
    pub parry_sweeps_per_second: Option<f64>,
    /// Player-box sweeps of a tick's step (16 units) per second: most sweeps in a match.
    pub step_sweeps_per_second: f64,
    /// parry3d's player-box casts of 16 units per second.
    pub parry_step_sweeps_per_second: Option<f64>,
}

/// Compiling one map's navigation (`botarena nav compile`), fastest of the rounds.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct NavCompileTime {
    /// Map name.
    pub map: String,
    /// Worker threads used.
    pub threads: usize,
    /// Seconds of the fastest round.
    pub seconds: f64,
    /// Every round's seconds.
    pub rounds: Vec<f64>,
    /// Areas and reachabilities made (the same every round).
    pub areas: usize,
    /// See `areas`.
    pub reachabilities: usize,
    /// The target in seconds, where there is one (dm4: 1 s).
    pub target: Option<f64>,
    /// Nanoseconds per point → area lookup (`NavMesh::area_at`) over the map's floor points
    /// nudged off the grid, fastest of the rounds (target: under 1000 on dm4).
    pub area_at_ns: f64,
}

/// Points to look areas up at: the map's floor points 24 units apart, each moved by up to
/// ±7 units sideways and 12 up (a fixed sequence), so lookups land anywhere in their cells.
pub fn lookup_points(
    level: &crate::map::Level,
    cmap: &crate::map::CollisionMap,
) -> Vec<glam::Vec3> {
    floor_points(level, cmap, 24.0)
        .into_iter()
        .enumerate()
        .map(|(i, p)| {
            let k = i as f32;
            p + glam::Vec3::new(
                (k * 0.37).sin() * 7.0,
                (k * 0.71).cos() * 7.0,
                (k * 1.3).sin().abs() * 12.0,
            )
        })
        .collect()
}

/// Seconds to compile `map`'s navigation on `threads` threads, what it made (areas,
/// reachabilities) and nanoseconds per `area_at` over its floor points.
pub fn nav_compile_time(map: &Path, threads: usize) -> Result<(f64, usize, usize, f64), String> {
    let data = crate::map::MapData::load(map).map_err(|e| e.to_string())?;
    let (level, cmap) = crate::map::build_level(data);
    let params = crate::aas::CompileParams {
        threads,
        ..Default::default()
    };
    let clock = std::time::Instant::now();
    let mesh = crate::aas::compile(&level, &cmap, &params, &mut |_, _, _| {})
        .map_err(|e| e.to_string())?;
    let seconds = clock.elapsed().as_secs_f64();
    let points = lookup_points(&level, &cmap);
    let reps = (1_000_000 / points.len().max(1)).max(1);
    let clock = std::time::Instant::now();
    let mut found = 0usize;
    for _ in 0..reps {
        found += points
            .iter()
            .filter(|p| mesh.area_at(std::hint::black_box(**p)).is_some())
            .count();
    }
    let ns = clock.elapsed().as_secs_f64() * 1e9 / (reps * points.len()).max(1) as f64;
    std::hint::black_box(found);
    Ok((seconds, mesh.areas().len(), mesh.reaches().len(), ns))
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
    for m in measured {
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
            target: (m.name == "dm4").then_some(1.0),
            area_at_ns: lookup,
        });
    }
    Ok(BenchReport {
        machine: machine(),
        options: opts.clone(),
        maps: maps.into_iter().map(|m| m.name).collect(),
        cases,
        traces,
        nav_compile,
    })
}

impl BenchReport {
    /// The first-seconds case of `map` with `bots` bots on `threads` threads.
    pub fn case(&self, map: &str, bots: usize, threads: usize) -> Option<&BenchResult> {
        self.find(map, bots, threads, false)
    }

    /// The case of `map` with `bots` bots on `threads` threads, real match or not.
    pub fn find(&self, map: &str, bots: usize, threads: usize, real: bool) -> Option<&BenchResult> {
        self.cases
            .iter()
            .find(|r| r.map == map && r.bots == bots && r.threads == threads && r.real == real)
    }

    /// Ticks per second on `threads` threads ÷ on one (first seconds).
    pub fn speedup(&self, map: &str, bots: usize, threads: usize) -> Option<f64> {
        self.speedup_of(map, bots, threads, false)
    }

    /// Ticks per second on `threads` threads ÷ on one, real match or not.
    pub fn speedup_of(&self, map: &str, bots: usize, threads: usize, real: bool) -> Option<f64> {
        let one = self.find(map, bots, 1, real)?;
        let n = self.find(map, bots, threads, real)?;
        Some(n.ticks_per_second / one.ticks_per_second)
    }

    /// The tables a person reads: every case, scaling with threads (more than two counts),
    /// two threads against one, where two threads' time goes, and trace rates.
    pub fn to_text(&self) -> String {
        use std::fmt::Write as _;
        let mut text = String::new();
        let _ = writeln!(text, "machine: {}", self.machine);
        let _ = writeln!(
            text,
            "\nReal matches (bots that fight; a minute's warm-up, a minute timed):\n\n\
             | map | bots | threads | µs per bot-tick | ticks/s | rounds: slowest – median | target µs | met | traces per bot-tick | deaths · alive | largest stages |\n\
             |---|---:|---:|---:|---:|---:|---:|---|---:|---:|---|"
        );
        for r in self.cases.iter().filter(|r| r.real) {
            let stages: Vec<String> = r
                .top_stages
                .iter()
                .map(|(k, v)| format!("{k} {v:.0}%"))
                .collect();
            let target_us = r.target.map(|t| 1e6 / (t * r.bots as f64));
            let _ = writeln!(
                text,
                "| {} | {} | {} | {:.1} | {:.0} | {} | {} | {} | {:.0} | {} · {:.0}% | {} |",
                r.map,
                r.bots,
                r.threads,
                r.us_per_bot_tick,
                r.ticks_per_second,
                spread(&r.rounds),
                target_us
                    .map(|t| format!("{t:.0}"))
                    .unwrap_or_else(|| "–".into()),
                r.met(),
                r.traces_per_bot_tick,
                r.deaths,
                r.alive_percent,
                stages.join(", ")
            );
        }
        let _ = writeln!(
            text,
            "\nFirst seconds (bots that ignore each other, from the start):\n\n\
             | map | bots | threads | ticks/s | rounds: slowest – median | target | met | largest stages |\n|---|---:|---:|---:|---:|---:|---|---|"
        );
        for r in self.cases.iter().filter(|r| !r.real) {
            let stages: Vec<String> = r
                .top_stages
                .iter()
                .map(|(k, v)| format!("{k} {v:.0}%"))
                .collect();
            let _ = writeln!(
                text,
                "| {} | {} | {} | {:.0} | {} | {} | {} | {} |",
                r.map,
                r.bots,
                r.threads,
                r.ticks_per_second,
                spread(&r.rounds),
                r.target
                    .map(|t| format!("{t:.0}"))
                    .unwrap_or_else(|| "–".into()),
                r.met(),
                stages.join(", ")
            );
        }
        let threads = &self.options.threads;
        if threads.len() > 2 {
            let _ = writeln!(
                text,
                "\nScaling with threads: ticks/s (and ÷ one thread).\n\n| map | bots | {} |\n|---|---:|{}",
                threads
                    .iter()
                    .map(|t| format!("{t} thr"))
                    .collect::<Vec<_>>()
                    .join(" | "),
                "---:|".repeat(threads.len())
            );
            for real in [true, false] {
                for m in &self.maps {
                    for bots in [8, 32, 128] {
                        let cells: Vec<String> = threads
                            .iter()
                            .map(|&t| {
                                match (
                                    self.find(m, bots, t, real),
                                    self.speedup_of(m, bots, t, real),
                                ) {
                                    (Some(r), Some(x)) => {
                                        format!("{:.0} ({x:.2}×)", r.ticks_per_second)
                                    }
                                    _ => String::new(),
                                }
                            })
                            .collect();
                        let name = if real {
                            format!("{m}, real")
                        } else {
                            m.clone()
                        };
                        let _ = writeln!(text, "| {name} | {bots} | {} |", cells.join(" | "));
                    }
                }
            }
        }
        let _ = writeln!(
            text,
            "\n| map | 2 threads ÷ 1 thread, 32 bots | 128 bots | real match, 8 bots | 32 | 128 | target (32 bots) |\n|---|---:|---:|---:|---:|---:|---:|"
        );
        for m in &self.maps {
            let f = |x: Option<f64>| x.map(|v| format!("{v:.2}×")).unwrap_or_default();
            let _ = writeln!(
                text,
                "| {m} | {} | {} | {} | {} | {} | ≥ 1.70× |",
                f(self.speedup(m, 32, 2)),
                f(self.speedup(m, 128, 2)),
                f(self.speedup_of(m, 8, 2, true)),
                f(self.speedup_of(m, 32, 2, true)),
                f(self.speedup_of(m, 128, 2, true))
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
        for two in self.cases.iter().filter(|r| r.threads == 2) {
            let Some(one) = self.find(&two.map, two.bots, 1, two.real) else {
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
                if two.real {
                    format!("{}, real", two.map)
                } else {
                    two.map.clone()
                },
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
        if !self.traces.is_empty() {
            let _ = writeln!(
                text,
                "\nTraces, µs each (and per second), this crate's collision module beside parry3d's \
             queries over a triangle mesh of the same brushes, on the same segments (targets on \
             dm4: ray ≤ 0.5 µs, box sweep ≤ 1 µs):\n\n\
             | map | ray (first hit) | parry3d ray | sight (any hit) | parry3d any hit | player-box sweep | parry3d box cast | 16-unit sweep | parry3d, 16 units |\n\
             |---|---:|---:|---:|---:|---:|---:|---:|---:|"
            );
            let us = |r: f64| format!("{:.2} ({:.0})", 1e6 / r.max(1e-9), r);
            let opt = |r: Option<f64>| r.map(us).unwrap_or_else(|| "–".into());
            for t in &self.traces {
                let _ = writeln!(
                    text,
                    "| {} | {} | {} | {} | {} | {} | {} | {} | {} |",
                    t.map,
                    us(t.rays_per_second),
                    opt(t.parry_rays_per_second),
                    us(t.sight_per_second),
                    opt(t.parry_sight_per_second),
                    us(t.sweeps_per_second),
                    opt(t.parry_sweeps_per_second),
                    us(t.step_sweeps_per_second),
                    opt(t.parry_step_sweeps_per_second)
                );
            }
        }
        if !self.nav_compile.is_empty() {
            let _ = writeln!(
                text,
                "\n| map | nav compile s | rounds: slowest – median | threads | areas | reachabilities | target s | met | area_at ns |\n|---|---:|---:|---:|---:|---:|---:|---|---:|"
            );
            for n in &self.nav_compile {
                let _ = writeln!(
                    text,
                    "| {} | {:.3} | {} | {} | {} | {} | {} | {} | {:.0} |",
                    n.map,
                    n.seconds,
                    spread_of(&n.rounds, true, 3),
                    n.threads,
                    n.areas,
                    n.reachabilities,
                    n.target.map_or("–".to_string(), |t| format!("{t:.1}")),
                    match n.target {
                        Some(t) if n.seconds <= t => "yes",
                        Some(_) => "no",
                        None => "",
                    },
                    n.area_at_ns
                );
            }
        }
        text
    }

    /// The report as JSON: the machine, every case, trace rates, and two threads' speed-up
    /// at 32 bots per map.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "machine": self.machine,
            "cases": self.cases,
            "traces": self.traces,
            "nav_compile": self.nav_compile,
            "speedup_2_threads_32_bots": self.maps.iter()
                .map(|m| (m.clone(), self.speedup(m, 32, 2)))
                .collect::<std::collections::BTreeMap<_, _>>(),
        })
    }

    /// BENCHMARKS.md: how to regenerate it, the method, and [`BenchReport::to_text`].
    pub fn to_markdown(&self) -> String {
        let quick = self.options.quick;
        let scale = self.options.scale();
        format!(
            "# Benchmarks\n\nRegenerate with `cargo run --release -- bench --markdown BENCHMARKS.md` \
             (add `--quick` for a rough run). Criterion benches of single stages: `cargo bench`.\n\n\
             ## Method\n\nRelease build, 20 Hz ticks. **Real matches** lead: 8, 32 and 128 brain \
             bots of the default skill (they react, fight, die and respawn at the spawn points; \
             where the bots outnumber the map's spawn points more than twice, their starting \
             points are spawn points too, or most would spend the match dead) start on floor \
             points spread over the map, play {} ticks untimed (a minute: \
             waypoints exist, fights have started), then {} ticks (a minute of play) are timed; \
             µs per bot-tick is the tick's time ÷ bots, traces per bot-tick count every stage's \
             traces made (a reachability answered from the memo of answers made none), deaths and the share of bot-ticks alive show that they fought. The targets \
             (issue 23): 15 µs per bot-tick for 8 bots on dm4 on one thread, 20 µs for 32 and \
             128. **First seconds** follow: each case builds the map, puts brain bots that \
             never react to each other (reaction 10 s, so none dies and every bot costs its full \
             share; a real melee is cheaper as the dead do nothing) on \
             floor points spread over the map (a 48-unit grid, only the points the spawn points \
             can walk to: the grid alone also finds ceilings' tops outside the level; spawn \
             points are too few for 128 bots), \
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
             thread count (tests/matches.rs compares every tick's hash for 1, 2 and 4 threads). \
             Navigation compile (`botarena nav compile`, default settings, on the most threads \
             asked for): loading the map is not timed, the fastest of the rounds counts, and \
             the file is the same for any thread count (tests/aas.rs); `area_at`: a million \
             point → area lookups over the map's floor points (24 units apart, each moved by up \
             to 7 units sideways and 12 up), fastest round.\n\n\
             ## Results\n\n{}",
            REAL_WARMUP_TICKS / scale,
            REAL_TIMED_TICKS / scale,
            100 / scale,
            if quick { "a fifth of " } else { "" },
            if quick { ", divided by 5 here" } else { "" },
            200_000 / scale,
            self.to_text()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::{BenchOptions, BenchReport, BenchResult, TraceRate, parse_threads, spread};

    fn case(bots: usize, threads: usize, tps: f64, serial_us: f64) -> BenchResult {
        BenchResult {
            map: "dm4".into(),
            bots,
            threads,
            ticks: 400,
            ticks_per_second: tps,
            rounds: vec![tps * 0.9, tps],
            top_stages: vec![("sense".into(), 30.0)],
            target: super::target("dm4", bots, threads, false),
            pool_busy_us: 0.0,
            pool_waited_us: 0.0,
            serial_us,
            serial_stages: vec![("physics".into(), serial_us)],
            real: false,
            us_per_bot_tick: 1e6 / (tps * bots as f64),
            traces_per_bot_tick: 100.0,
            deaths: 0,
            alive_percent: 100.0,
        }
    }

    #[test]
    fn a_report_reads_its_cases_as_tables_json_and_markdown() {
        let r = BenchReport {
            machine: "test box".into(),
            options: BenchOptions::all(true),
            maps: vec!["dm4".into()],
            cases: vec![
                case(32, 1, 1000.0, 1000.0),
                case(32, 2, 1250.0, 200.0),
                BenchResult {
                    real: true,
                    target: super::target("dm4", 8, 1, true),
                    ..case(8, 1, 5000.0, 200.0)
                },
            ],
            traces: vec![TraceRate {
                map: "dm4".into(),
                rays_per_second: 1e6,
                sweeps_per_second: 5e5,
                sight_per_second: 2e6,
                parry_rays_per_second: Some(4e5),
                step_sweeps_per_second: 1e7,
                ..Default::default()
            }],
            nav_compile: vec![super::NavCompileTime {
                map: "dm4".into(),
                threads: 2,
                seconds: 0.3,
                rounds: vec![0.3, 0.4, 0.35],
                areas: 378,
                reachabilities: 1615,
                target: Some(1.0),
                area_at_ns: 70.0,
            }],
        };
        assert_eq!(r.speedup("dm4", 32, 2), Some(1.25));
        assert_eq!(r.speedup("dm4", 128, 2), None);
        let text = r.to_text();
        assert!(text.starts_with("machine: test box\n"), "{text}");
        assert!(
            text.contains("| dm4 | 32 | 1 | 1000 | 900 – 1000 | 1000 | yes | sense 30% |"),
            "{text}"
        );
        assert!(
            text.contains("| dm4 | 1.25× |  |  |  |  | ≥ 1.70× |"),
            "{text}"
        );
        // The real match leads, in µs per bot-tick against its target (15 µs: 8,333 ticks/s).
        assert!(text.find("Real matches") < text.find("First seconds"));
        assert!(
            text.contains("| dm4 | 8 | 1 | 25.0 | 5000 | 4500 – 5000 | 15 | **no** | 100 | 0 · 100% | sense 30% |"),
            "{text}"
        );
        // One thread's tick is 1000 µs; 200 µs serial leaves 1000 / (200 + 800 / 2) at best.
        assert!(text.contains("| 1.67× |"), "{text}");
        assert!(
            text.contains("| dm4 | 1.00 (1000000) | 2.50 (400000) | 0.50 (2000000) | – | 2.00 (500000) | – | 0.10 (10000000) | – |"),
            "{text}"
        );
        assert!(
            text.contains("| dm4 | 0.300 | 0.400 – 0.350 | 2 | 378 | 1615 | 1.0 | yes | 70 |"),
            "{text}"
        );
        let json = r.to_json();
        assert_eq!(json["speedup_2_threads_32_bots"]["dm4"], 1.25);
        assert_eq!(json["cases"].as_array().unwrap().len(), 3);
        let md = r.to_markdown();
        assert!(md.starts_with("# Benchmarks") && md.contains("divided by 5 here"));
        assert!(md.ends_with(&text));
    }

    #[test]
    fn a_spread_is_the_slowest_and_the_median_round() {
        assert_eq!(spread(&[]), "–");
        assert_eq!(spread(&[900.0]), "–");
        assert_eq!(spread(&[1000.0, 800.0, 950.0, 1020.0, 990.0]), "800 – 990");
        assert_eq!(spread(&[10.0, 5.0]), "5 – 10");
    }

    #[test]
    fn thread_lists_are_sorted_without_repeats_and_start_at_one() {
        assert_eq!(parse_threads("1,2").unwrap(), vec![1, 2]);
        assert_eq!(parse_threads("16, 4,8,4").unwrap(), vec![1, 4, 8, 16]);
        assert_eq!(parse_threads("2").unwrap(), vec![1, 2]);
        for bad in ["0", "1,x", "", "-1", "1025"] {
            assert!(parse_threads(bad).is_err(), "{bad:?}");
        }
    }
}
