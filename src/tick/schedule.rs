//! The one place that owns the order of a tick and what each stage is handed. Each stage is
//! timed and its traces counted; the run report shows the breakdown.
//!
//! Order: sense (visibility, reachability) → hear → predict (enemy paths) → control
//! (commands, movement requests or route goals) → brain (goals, aim, trigger) → route (next
//! waypoint) → move (requests into commands) → aim (view apart from the run) → movers (and
//! riders) → physics (pmove) → weapons (shots, missiles, grenades) → triggers (teleports,
//! plat and door fields, buttons, hurt) → items → damage (liquids, drowning, falls, deaths)
//! → respawn → rules (time and frag limits) → drop (waypoints) → cleanup (sound expiry).

use std::time::{Duration, Instant};

use serde::Serialize;

use crate::bot::compiled::CompiledNav;
use crate::bot::learned::LearnedMap;
use crate::bot::perception::PerceptionStage;
use crate::bot::prediction::PredictionStage;
use crate::bot::routing::RoutingStage;
use crate::bot::{aim, brain, control, hearing, movement, waypoints};
use crate::game::{GameState, combat, items, life, movers, rules, triggers};
use crate::physics::stage as physics;
use crate::sim::Sim;

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
    /// Route goals become movement requests toward the next waypoint (or, for a
    /// compiled-navigation bot, along its route on the area graph).
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
    /// Traces per stage that reachability answers taken from the memo stood in for (they
    /// cost that many when first computed; see [`crate::map::collision::memo_traces_on_this_thread`]).
    /// How many the memo answers depends on the thread count; `traces + memo` does not.
    pub memo: [u64; TICK_ORDER.len()],
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

/// The stages that keep scratch between ticks (never hashed: derived from the last ticks'
/// state, so a replay rebuilds it exactly).
#[derive(Clone, Debug, Default)]
pub struct Stages {
    /// Lines of sight between players in the current refresh interval.
    pub perception: PerceptionStage,
    /// Enemy paths predicted in the current refresh interval.
    pub prediction: PredictionStage,
    /// Goal waypoints found at the graph's current revision.
    pub routing: RoutingStage,
}

/// Runs every stage of one tick in order, timing each and counting its traces. Each stage
/// gets the parts of the match it reads and writes: the shared world always, and the game
/// state, the learned map or its own scratch where it needs them.
pub fn run_tick(
    sim: &mut Sim,
    game: &mut GameState,
    learned: &mut LearnedMap,
    mut nav: Option<&mut CompiledNav>,
    stages: &mut Stages,
    timings: &mut StageTimings,
) {
    // One clock reading per stage boundary, each stage's end the next one's start: the
    // readings were 5 % of a small match's tick when each stage took two.
    let mut t0 = Instant::now();
    for (i, stage) in TICK_ORDER.iter().enumerate() {
        let c0 = sim.cmap.trace_count();
        let m0 = crate::map::collision::memo_traces_on_this_thread();
        let p0 = pool_seconds(sim);
        match stage {
            Stage::Sense => stages.perception.run(sim),
            Stage::Hear => hearing::hearing_system(sim, nav.as_deref_mut().map(CompiledNav::query)),
            Stage::Predict => stages.prediction.run(sim),
            Stage::Control => control::control_system(sim, learned),
            Stage::Brain => brain::brain_system(
                sim,
                learned,
                nav.as_deref_mut().map(CompiledNav::query),
                &game.rules,
            ),
            Stage::Route => {
                stages.routing.run(sim, learned);
                // The doors' state follows the movers once a tick, before routes are asked.
                if let Some(n) = nav.as_deref_mut() {
                    n.doors.update(|i| sim.mover_state(i));
                }
                crate::bot::compiled::route_system(sim, nav.as_deref_mut().map(CompiledNav::query));
            }
            Stage::Move => movement::movement_system(sim),
            Stage::Aim => aim::aim_system(sim),
            Stage::Movers => movers::movers_system(sim),
            Stage::Physics => physics::physics_system(sim),
            Stage::Weapons => combat::weapons_system(sim, &mut game.combat),
            Stage::Triggers => triggers::triggers_system(sim),
            Stage::Items => items::items_system(sim, &game.rules),
            Stage::Damage => life::damage_system(sim),
            Stage::Respawn => life::respawn_system(sim),
            Stage::Rules => rules::rules_system(sim, &game.rules, &mut game.over),
            Stage::Drop => waypoints::drop_system(sim, learned),
            Stage::Cleanup => sim.sounds.expire(sim.tick + 1),
        }
        let t1 = Instant::now();
        timings.total[i] += t1 - t0;
        t0 = t1;
        timings.traces[i] += sim.cmap.trace_count() - c0;
        timings.memo[i] += crate::map::collision::memo_traces_on_this_thread() - m0;
        // A pool started by this stage counts from zero.
        let p = (pool_seconds(sim) - p0).max(0.0);
        timings.in_pool[i] += Duration::from_secs_f64(p);
    }
}
