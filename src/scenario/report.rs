//! The summary of a run: final state hash, speed, per-stage cost, per-player figures and
//! event counts, as text for people and JSON for machines.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::Serialize;

use crate::sim::SimEvent;
use crate::sim::components::Stats;
use crate::tick::Match;

/// A state hash as reports, replays' readers and the Python module write it: 16 hex digits.
pub fn hash_hex(h: u64) -> String {
    format!("{h:016x}")
}

/// One player's line.
#[derive(Clone, Debug, Serialize)]
pub struct PlayerReport {
    /// Name.
    pub name: String,
    /// Final origin.
    pub origin: [f32; 3],
    /// Alive at the end.
    pub alive: bool,
    /// Health at the end.
    pub health: f32,
    /// Counters.
    pub stats: Stats,
}

/// A whole run.
#[derive(Clone, Debug, Serialize)]
pub struct RunReport {
    /// Scenario name.
    pub scenario: String,
    /// Map file.
    pub map: String,
    /// Ticks run.
    pub ticks: u64,
    /// Ticks per simulated second.
    pub tick_rate: u32,
    /// Seconds simulated.
    pub sim_seconds: f64,
    /// Seed.
    pub seed: u64,
    /// State hash after the last tick, hex.
    pub final_hash: String,
    /// Wall-clock seconds of the tick loop.
    pub wall_seconds: f64,
    /// Ticks per wall-clock second.
    pub ticks_per_second: f64,
    /// Seconds per stage.
    pub stage_seconds: BTreeMap<&'static str, f64>,
    /// Threads the bot stages ran on.
    pub threads: usize,
    /// Seconds per stage the scheduling thread spent outside the worker pool (serial work:
    /// gathering jobs, writing results back, the stages that run on one thread). Equal to
    /// `stage_seconds` on one thread.
    pub stage_serial_seconds: BTreeMap<&'static str, f64>,
    /// Stage order, for reading `stage_seconds`.
    pub stage_order: Vec<&'static str>,
    /// Traces (rays and box sweeps) per stage, per tick on average: all of them with one
    /// thread; with more, those answered on the scheduling thread.
    pub stage_traces_per_tick: BTreeMap<&'static str, f64>,
    /// Event counts by kind.
    pub events: BTreeMap<&'static str, u64>,
    /// Traces spent by perception, per tick on average.
    pub perception_traces_per_tick: f64,
    /// Sounds made during the run.
    pub sounds: u64,
    /// Why the match ended early (a time or frag limit), if it did.
    pub ended: Option<String>,
    /// Players in id order.
    pub players: Vec<PlayerReport>,
}

/// Counts events by kind as a run goes.
#[derive(Clone, Debug, Default)]
pub struct EventCounter {
    /// Count per kind.
    pub counts: BTreeMap<&'static str, u64>,
}

impl EventCounter {
    /// Adds a tick's events.
    pub fn add(&mut self, events: &[SimEvent]) {
        for e in events {
            let k = match e {
                SimEvent::Pickup { .. } => "pickups",
                SimEvent::Teleport { .. } => "teleports",
                SimEvent::Death { .. } => "deaths",
                SimEvent::Spawn { .. } => "spawns",
                SimEvent::MoverStart { .. } => "mover_starts",
                SimEvent::Jump { .. } => "jumps",
                SimEvent::Damage { .. } => "damage",
                SimEvent::WaypointDrop { .. } => "waypoint_drops",
                SimEvent::MatchEnd { .. } => "match_end",
            };
            *self.counts.entry(k).or_insert(0) += 1;
        }
    }
}

impl RunReport {
    /// Gathers the report after a run.
    pub fn new(
        m: &Match,
        scenario: &str,
        map: &str,
        wall_seconds: f64,
        events: &EventCounter,
    ) -> RunReport {
        let sim = &m.sim;
        let players = (0..sim.players.len())
            .map(|i| {
                let s = sim.player_state(i).expect("player index in range");
                let v = sim.player_vitals(i).expect("player index in range");
                PlayerReport {
                    name: sim.player_name(i).unwrap_or_default(),
                    origin: s.origin.to_array(),
                    alive: v.alive,
                    health: v.health,
                    stats: sim.player_stats(i).unwrap_or_default(),
                }
            })
            .collect();
        let breakdown = m.timings.breakdown();
        RunReport {
            scenario: scenario.to_string(),
            map: map.to_string(),
            ticks: sim.tick,
            tick_rate: (1.0 / sim.dt).round() as u32,
            sim_seconds: sim.time(),
            seed: sim.seed,
            final_hash: hash_hex(m.state_hash()),
            wall_seconds,
            ticks_per_second: if wall_seconds > 0.0 {
                sim.tick as f64 / wall_seconds
            } else {
                0.0
            },
            stage_order: breakdown.iter().map(|b| b.0).collect(),
            stage_seconds: breakdown.into_iter().collect(),
            threads: sim.threads,
            stage_serial_seconds: m.timings.serial_breakdown().into_iter().collect(),
            stage_traces_per_tick: m
                .timings
                .traces_breakdown()
                .into_iter()
                .map(|(k, n)| (k, n as f64 / sim.tick.max(1) as f64))
                .collect(),
            events: events.counts.clone(),
            perception_traces_per_tick: if sim.tick > 0 {
                sim.stats.perception_traces as f64 / sim.tick as f64
            } else {
                0.0
            },
            sounds: sim.sounds.total(),
            ended: m.over().map(str::to_string),
            players,
        }
    }

    /// Readable text: the run, the scoreboard and the events; with `profile`, the run's
    /// costs after them.
    pub fn to_text(&self, profile: bool) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "scenario    {}", self.scenario);
        let _ = writeln!(s, "map         {}", self.map);
        let _ = writeln!(
            s,
            "run         {} ticks at {} Hz = {:.1} s simulated, seed {}",
            self.ticks, self.tick_rate, self.sim_seconds, self.seed
        );
        let _ = writeln!(s, "final hash  {}", self.final_hash);
        if let Some(e) = &self.ended {
            let _ = writeln!(s, "ended       {e} at {:.1} s", self.sim_seconds);
        }
        let _ = writeln!(
            s,
            "\n{:<14} {:>5} {:>5} {:>6} {:>4} {:>5} {:>6} {:>6} {:>8} {:>4} {:>5}  {:<24}",
            "player",
            "frags",
            "kills",
            "deaths",
            "suic",
            "items",
            "dealt",
            "taken",
            "distance",
            "wps",
            "still",
            "origin at the end"
        );
        let mut order: Vec<&PlayerReport> = self.players.iter().collect();
        // Highest frags first; ties keep id order.
        order.sort_by_key(|p| std::cmp::Reverse(p.stats.frags));
        for p in order {
            let o = format!(
                "({:.0} {:.0} {:.0}){}",
                p.origin[0],
                p.origin[1],
                p.origin[2],
                if p.alive { "" } else { " dead" }
            );
            let st = &p.stats;
            let _ = writeln!(
                s,
                "{:<14} {:>5} {:>5} {:>6} {:>4} {:>5} {:>6.0} {:>6.0} {:>8.0} {:>4} {:>5.1}  {:<24}",
                p.name,
                st.frags,
                st.kills,
                st.deaths,
                st.suicides,
                st.pickups,
                st.damage_dealt,
                st.damage_taken,
                st.distance,
                st.waypoints_dropped,
                st.longest_still,
                o
            );
        }
        let ev: Vec<String> = self
            .events
            .iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect();
        let _ = writeln!(
            s,
            "\nevents      {}",
            if ev.is_empty() {
                "none".to_string()
            } else {
                ev.join(", ")
            }
        );
        if profile {
            self.profile_text(&mut s);
        }
        s
    }

    /// The run's costs: speed, each stage's share of the time and traces per tick, what
    /// ran outside the worker pool, perception's traces.
    fn profile_text(&self, s: &mut String) {
        let _ = writeln!(
            *s,
            "speed       {:.0} ticks/s ({:.3} s wall)",
            self.ticks_per_second, self.wall_seconds
        );
        let total: f64 = self.stage_seconds.values().sum();
        let stages: Vec<String> = self
            .stage_order
            .iter()
            .map(|k| {
                let v = self.stage_seconds[k];
                let pct = if total > 0.0 { 100.0 * v / total } else { 0.0 };
                format!("{k} {pct:.0}%")
            })
            .collect();
        let _ = writeln!(*s, "stages      {}", stages.join(", "));
        let traces: Vec<String> = self
            .stage_order
            .iter()
            .filter_map(|k| {
                let v = *self.stage_traces_per_tick.get(k)?;
                (v >= 0.05).then(|| format!("{k} {v:.1}"))
            })
            .collect();
        let _ = writeln!(*s, "traces/tick {}", traces.join(", "));
        if self.threads > 1 {
            let serial: f64 = self.stage_serial_seconds.values().sum();
            let mut largest: Vec<(&str, f64)> = self
                .stage_serial_seconds
                .iter()
                .map(|(k, v)| (*k, *v))
                .collect();
            largest.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(b.0)));
            let per_tick = |v: f64| v * 1e6 / self.ticks.max(1) as f64;
            let top: Vec<String> = largest
                .iter()
                .take(4)
                .map(|(k, v)| format!("{k} {:.0}", per_tick(*v)))
                .collect();
            let _ = writeln!(
                s,
                "serial      {:.0} µs/tick ({:.0}% of stage time) outside the {}-thread pool (largest: {})",
                per_tick(serial),
                if total > 0.0 {
                    100.0 * serial / total
                } else {
                    0.0
                },
                self.threads,
                top.join(", ")
            );
        }
        let _ = writeln!(
            *s,
            "perception  {:.1} traces per tick; {} sounds made",
            self.perception_traces_per_tick, self.sounds
        );
    }
}
