//! Enemy prediction: for each bot, the players it tracks (the nearest visible ones, and
//! players it heard and located) with the state they were last known in, refreshed at 10 Hz
//! staggered across bots; their paths forward — run with the same player physics, as if
//! they kept doing what they were doing (running the way they move) — are predicted when
//! asked for ([`TrackedEnemy::predicted_at`], [`TrackedEnemy::path`]): the brain asks when an
//! enemy leaves its sight, to chase where it went. At most [`TRACK_MAX`] enemies, a
//! [`HORIZON`] of 1 s in 0.1 s steps.
//!
//! Paths are not predicted ahead for every tracked enemy at every refresh: that was a
//! quarter of a real match's cost (dm4, 8 bots: 6.5 µs per bot-tick, 29 traces), for a
//! path the brain read only at the moment an enemy slipped out of view.
//!
//! Entry point: [`PredictionStage`].

use glam::Vec3;
use serde::Serialize;

use crate::map::{CollisionMap, EntId};
use crate::physics::PhysicsParams;
use crate::physics::pmove::PlayerState;
use crate::physics::predict::{PredictParams, predict, run_toward};
use crate::sim::Sim;
use crate::sim::components::{Motion, Vitals};
use crate::sim::hash::{StateHash, StateHasher};

use super::perception::REFRESH_HZ;
use super::{Percepts, Thing};

/// Most enemies tracked per bot.
pub const TRACK_MAX: usize = 3;
/// Seconds ahead predicted.
pub const HORIZON: f32 = 1.0;
/// Seconds of prediction step (the reference's 0.1 s).
pub const STEP: f32 = 0.1;
/// Seconds an unseen enemy stays tracked.
pub const MEMORY: f32 = 2.0;
/// A player as the frozen view of the tick's start has it.
#[derive(Clone, Copy, Debug)]
struct Body {
    id: EntId,
    state: PlayerState,
    alive: bool,
}

/// One tracked enemy.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TrackedEnemy {
    /// Who.
    pub id: EntId,
    /// Tick it was last seen or located.
    pub seen_tick: u64,
    /// Its state then (velocity unknown when only heard: kept from before, else zero).
    pub state: PlayerState,
}

/// The enemies a bot tracks.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Tracking {
    /// Nearest first when refreshed.
    pub enemies: Vec<TrackedEnemy>,
}

/// Who is tracked, since when, and from which state (paths follow from these).
impl StateHash for Tracking {
    fn hash_state(&self, h: &mut StateHasher) {
        for en in &self.enemies {
            h.u64(en.id.0 as u64);
            h.u64(en.seen_tick);
            h.vec3(en.state.origin);
            h.vec3(en.state.velocity);
        }
    }
}

impl TrackedEnemy {
    /// Predicted origins every [`STEP`] seconds after it was seen, for [`HORIZON`] seconds,
    /// through `map` as it is now.
    pub fn path(&self, map: &CollisionMap, physics: &PhysicsParams) -> Vec<Vec3> {
        predict_enemy(map, &self.state, physics, Some(self.id), HORIZON)
    }

    /// Predicted origin `seconds` after it was seen (rounded up to a [`STEP`], clamped to the
    /// horizon): the last of the path's first steps, so the same point [`TrackedEnemy::path`]
    /// has there.
    pub fn predicted_at(&self, map: &CollisionMap, physics: &PhysicsParams, seconds: f32) -> Vec3 {
        if seconds <= 0.0 {
            return self.state.origin;
        }
        let steps = (seconds / STEP).ceil().clamp(1.0, (HORIZON / STEP).round());
        predict_enemy(map, &self.state, physics, Some(self.id), steps * STEP)
            .last()
            .copied()
            .unwrap_or(self.state.origin)
    }
}

/// The path of a player at `state`, assumed to keep running the way it moves, every
/// [`STEP`] seconds for `horizon` seconds.
pub fn predict_enemy(
    sim_map: &CollisionMap,
    state: &PlayerState,
    physics: &PhysicsParams,
    me: Option<EntId>,
    horizon: f32,
) -> Vec<Vec3> {
    let flat = Vec3::new(state.velocity.x, state.velocity.y, 0.0);
    let speed = flat.length().min(physics.max_speed);
    let cmd = if speed > 1.0 {
        run_toward(flat / flat.length(), speed, false)
    } else {
        crate::physics::UserCmd {
            yaw: state.yaw,
            ..Default::default()
        }
    };
    let params = PredictParams {
        step: STEP,
        horizon,
        stop_on_land: false,
        stop_on_wall: false,
        ..Default::default()
    };
    predict(sim_map, state, &[cmd], physics, &params, me)
        .states
        .iter()
        .map(|s| s.origin)
        .collect()
}

/// The prediction stage: keeps each bot's tracked enemies (who, when last known, in which
/// state); paths follow from those when asked for.
///
/// Reads [`Motion`], [`Vitals`] and [`Percepts`]; writes [`Tracking`].
#[derive(Clone, Debug, Default)]
pub struct PredictionStage;

impl PredictionStage {
    /// Updates every living bot's tracked enemies (10 Hz per bot, staggered).
    pub fn run(&mut self, sim: &mut Sim) {
        let interval = ((1.0 / sim.dt) / REFRESH_HZ).round().max(1.0) as u64;
        let memory_ticks = (MEMORY / sim.dt).round() as u64;
        let bodies: Vec<Body> = sim
            .players
            .iter()
            .map(|p| {
                let state = sim
                    .world
                    .get::<&Motion>(p.entity)
                    .map(|m| m.0)
                    .unwrap_or(PlayerState::at(Vec3::ZERO, 0.0));
                let alive = sim
                    .world
                    .get::<&Vitals>(p.entity)
                    .map(|v| v.alive)
                    .unwrap_or(false);
                Body {
                    id: p.id,
                    state,
                    alive,
                }
            })
            .collect();
        let tick = sim.tick;
        // A few list operations a bot: not worth the worker pool.
        let mut view = sim.world.view_mut::<(&Percepts, &mut Tracking, &Vitals)>();
        for p in &sim.players {
            if !(tick + p.id.0 as u64).is_multiple_of(interval) {
                continue;
            }
            let Some((percepts, tracking, vitals)) = view.get_mut(p.entity) else {
                continue;
            };
            if !vitals.alive {
                tracking.enemies.clear();
                continue;
            }
            track(percepts, tracking, &bodies, tick, memory_ticks);
        }
    }
}

/// One bot's refresh: the nearest visible living players as they are at the tick's start,
/// then players heard and located (position known, motion as last tracked), then the ones
/// lost from view within [`MEMORY`] as they were last known.
fn track(
    percepts: &Percepts,
    tracking: &mut Tracking,
    bodies: &[Body],
    tick: u64,
    memory_ticks: u64,
) {
    let mut next: Vec<TrackedEnemy> = percepts
        .visible
        .iter()
        .filter_map(|v| match v.thing {
            Thing::Player(pid) => {
                bodies
                    .iter()
                    .find(|b| b.id == pid && b.alive)
                    .map(|b| TrackedEnemy {
                        id: pid,
                        seen_tick: tick,
                        state: b.state,
                    })
            }
            Thing::Item(_) => None,
        })
        .take(TRACK_MAX)
        .collect();
    for h in &percepts.heard {
        let (Some(src), Some(pos)) = (h.source, h.position) else {
            continue;
        };
        if next.len() >= TRACK_MAX
            || next.iter().any(|n| n.id == src)
            || !bodies.iter().any(|b| b.id == src)
        {
            continue;
        }
        let mut state = tracking
            .enemies
            .iter()
            .find(|t| t.id == src)
            .map(|t| t.state)
            .unwrap_or(PlayerState::at(pos, 0.0));
        state.origin = pos;
        state.on_ground = None;
        next.push(TrackedEnemy {
            id: src,
            seen_tick: tick,
            state,
        });
    }
    for t in &tracking.enemies {
        if next.len() < TRACK_MAX
            && !next.iter().any(|n| n.id == t.id)
            && tick - t.seen_tick <= memory_ticks
        {
            next.push(t.clone());
        }
    }
    tracking.enemies = next;
}
