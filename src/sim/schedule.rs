//! The one place that owns the order of a tick. Each stage is timed; the run report shows
//! the breakdown.
//!
//! Order: sense (visibility, reachability) → hear → predict (enemy paths) → control
//! (commands, movement requests or route goals) → brain (goals, aim, trigger) → route (next
//! waypoint) → move (requests into commands) → aim (view apart from the run) → movers (and
//! riders) → physics (pmove) → weapons (shots, missiles, grenades) → triggers (teleports,
//! plat and door fields, buttons, hurt) → items → damage (liquids, drowning, falls, deaths)
//! → respawn → rules (time and frag limits) → drop (waypoints) → cleanup (sound expiry).

use std::time::{Duration, Instant};

use serde::Serialize;

use super::Sim;
use crate::bot::{
    aim, brain, control, hearing, movement, perception, prediction, routing, waypoints,
};
use crate::game::{combat, items, life, movers, rules, triggers};
use crate::physics::stage as physics;

/// A stage of the tick.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Stage {
    /// Visibility and reachability into each bot's percepts.
    Sense,
    /// Sounds into each bot's percepts.
    Hear,
    /// Tracked enemies' predicted paths.
    Predict,
    /// Controllers write user commands or movement requests.
    Control,
    /// The bot brain picks goals, aims and pulls the trigger.
    Brain,
    /// Route goals become movement requests toward the next waypoint.
    Route,
    /// Movement requests become user commands.
    Move,
    /// View turned apart from the run direction.
    Aim,
    /// Movers advance and carry or push players.
    Movers,
    /// Player physics.
    Physics,
    /// Shots, missiles and grenades.
    Weapons,
    /// Trigger volumes.
    Triggers,
    /// Item pickups and respawns.
    Items,
    /// Environment damage and deaths.
    Damage,
    /// Respawning dead players.
    Respawn,
    /// Time and frag limits.
    Rules,
    /// Dropping waypoints (10 Hz per bot) and special waypoints.
    Drop,
    /// Expired sounds leave the list.
    Cleanup,
}

/// The tick order.
pub const TICK_ORDER: [Stage; 18] = [
    Stage::Sense,
    Stage::Hear,
    Stage::Predict,
    Stage::Control,
    Stage::Brain,
    Stage::Route,
    Stage::Move,
    Stage::Aim,
    Stage::Movers,
    Stage::Physics,
    Stage::Weapons,
    Stage::Triggers,
    Stage::Items,
    Stage::Damage,
    Stage::Respawn,
    Stage::Rules,
    Stage::Drop,
    Stage::Cleanup,
];

impl Stage {
    /// Lowercase name for reports.
    pub fn name(self) -> &'static str {
        match self {
            Stage::Sense => "sense",
            Stage::Hear => "hear",
            Stage::Predict => "predict",
            Stage::Control => "control",
            Stage::Brain => "brain",
            Stage::Route => "route",
            Stage::Move => "move",
            Stage::Aim => "aim",
            Stage::Movers => "movers",
            Stage::Physics => "physics",
            Stage::Weapons => "weapons",
            Stage::Triggers => "triggers",
            Stage::Items => "items",
            Stage::Damage => "damage",
            Stage::Respawn => "respawn",
            Stage::Rules => "rules",
            Stage::Drop => "drop",
            Stage::Cleanup => "cleanup",
        }
    }
}

/// Wall-clock time and traces per stage (statistics only: nothing in the state reads them).
#[derive(Clone, Debug, Default)]
pub struct StageTimings {
    /// Total per stage, in [`TICK_ORDER`] order.
    pub total: [Duration; TICK_ORDER.len()],
    /// Traces per stage answered on the scheduling thread (all of them with one thread).
    pub traces: [u64; TICK_ORDER.len()],
    /// Time per stage the scheduling thread spent inside the worker pool: running its share
    /// of the stage's jobs or waiting for the workers' last ones. The rest of the stage's
    /// time is serial: gathering the jobs, writing results back, and the work no job shares
    /// (all of it with one thread, which has no pool).
    pub in_pool: [Duration; TICK_ORDER.len()],
}

impl StageTimings {
    /// Stage names with seconds spent.
    pub fn breakdown(&self) -> Vec<(&'static str, f64)> {
        TICK_ORDER
            .iter()
            .zip(self.total.iter())
            .map(|(s, d)| (s.name(), d.as_secs_f64()))
            .collect()
    }

    /// Stage names with the seconds the scheduling thread spent outside the worker pool:
    /// what a second thread cannot take off it.
    pub fn serial_breakdown(&self) -> Vec<(&'static str, f64)> {
        TICK_ORDER
            .iter()
            .zip(self.total.iter().zip(self.in_pool.iter()))
            .map(|(s, (t, p))| (s.name(), t.saturating_sub(*p).as_secs_f64()))
            .collect()
    }

    /// Stage names with traces spent.
    pub fn traces_breakdown(&self) -> Vec<(&'static str, u64)> {
        TICK_ORDER
            .iter()
            .zip(self.traces.iter())
            .map(|(s, n)| (s.name(), *n))
            .collect()
    }
}

/// Seconds the scheduling thread has spent inside the worker pool so far (0 without one).
fn pool_seconds(sim: &Sim) -> f64 {
    sim.pool
        .as_ref()
        .map(|p| {
            let t = p.time();
            t.caller + t.waited
        })
        .unwrap_or(0.0)
}

/// Runs every stage of one tick in order.
pub fn run_tick(sim: &mut Sim) {
    for (i, stage) in TICK_ORDER.iter().enumerate() {
        let t0 = Instant::now();
        let c0 = sim.cmap.trace_count();
        let p0 = pool_seconds(sim);
        match stage {
            Stage::Sense => perception::perception_system(sim),
            Stage::Hear => hearing::hearing_system(sim),
            Stage::Predict => prediction::prediction_system(sim),
            Stage::Control => control::control_system(sim),
            Stage::Brain => brain::brain_system(sim),
            Stage::Route => routing::routing_system(sim),
            Stage::Move => movement::movement_system(sim),
            Stage::Aim => aim::aim_system(sim),
            Stage::Movers => movers::movers_system(sim),
            Stage::Physics => physics::physics_system(sim),
            Stage::Weapons => combat::weapons_system(sim),
            Stage::Triggers => triggers::triggers_system(sim),
            Stage::Items => {
                let rules = sim.rules.clone();
                items::items_system(sim, &rules)
            }
            Stage::Damage => life::damage_system(sim),
            Stage::Respawn => life::respawn_system(sim),
            Stage::Rules => rules::rules_system(sim),
            Stage::Drop => waypoints::drop_system(sim),
            Stage::Cleanup => sim.sounds.expire(sim.tick + 1),
        }
        sim.timings.total[i] += t0.elapsed();
        sim.timings.traces[i] += sim.cmap.trace_count() - c0;
        // A pool started by this stage counts from zero.
        let p = (pool_seconds(sim) - p0).max(0.0);
        sim.timings.in_pool[i] += Duration::from_secs_f64(p);
    }
}
