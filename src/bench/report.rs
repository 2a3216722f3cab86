//! The benchmark's report: the table a person reads, the JSON record, and the machine it
//! ran on.

use super::{BenchReport, BenchResult, REAL_TIMED_TICKS, REAL_WARMUP_TICKS};

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

/// "slowest – median" of a case's rounds, "–" for a single round.
pub fn spread(rounds: &[f64]) -> String {
    spread_of(rounds, false, 0)
}

/// "slowest – median" of `rounds` with `decimals` places, "–" for fewer than two; the
/// slowest is the largest figure when `larger_is_slower` (seconds), else the smallest
/// (rates).
pub(super) fn spread_of(rounds: &[f64], larger_is_slower: bool, decimals: usize) -> String {
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
        for f in &self.follow {
            let _ = writeln!(
                text,
                "\nRoute following on {} ({} brain bots of the default skill, a real match, one \
                 thread), µs per bot-tick:\n\n\
                 | navigation | µs per bot-tick | rounds: slowest – median |\n|---|---:|---:|\n\
                 | learned (drops waypoints) | {:.1} | {} |\n\
                 | compiled (area graph) | {:.1} | {} |\n\n\
                 Compiled ÷ learned: {:.2}× (target ≤ {:.1}×: {}).",
                f.map,
                f.bots,
                f.learned_us,
                spread_of(&f.learned_rounds, true, 1),
                f.compiled_us,
                spread_of(&f.compiled_rounds, true, 1),
                f.ratio,
                f.target,
                if f.ratio <= f.target {
                    "met"
                } else {
                    "not met"
                }
            );
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
            "follow": self.follow,
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
             traces made (a reachability answered from the memo of answers made none), deaths and the share of bot-ticks alive show that they fought. The targets, \
             on one thread: {} µs per bot-tick for 8 bots on dm4, {} µs for 32 and 128 (a cost \
             per bot that stays flat as the match grows). **First seconds** follow: each case builds the map, puts brain bots that \
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
             asked for; also on LibreQuake's six deathmatch maps, made with TrenchBroom and \
             ericw-tools, target 5 s each): loading the map is not timed, the fastest of the \
             rounds counts, and \
             the file is the same for any thread count (tests/aas.rs); `area_at`: a million \
             point → area lookups over the map's floor points (24 units apart, each moved by up \
             to 7 units sideways and 12 up), fastest round. Route following: the real \
             8-bot dm4 match on one thread, once with bots that learn the map and once with \
             bots on the compiled area graph (compiled before, not timed), in alternating \
             rounds, the fastest of each.\n\n\
             ## Results\n\n{}",
            REAL_WARMUP_TICKS / scale,
            REAL_TIMED_TICKS / scale,
            super::REAL_TARGET_US_8,
            super::REAL_TARGET_US_128,
            100 / scale,
            if quick { "a fifth of " } else { "" },
            if quick { ", divided by 5 here" } else { "" },
            200_000 / scale,
            self.to_text()
        )
    }
}
