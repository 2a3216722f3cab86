//! Enemy prediction: for each bot, the players it tracks (the nearest visible ones, and
//! players it heard and located) are run forward with the same player physics from their last
//! known state, as if they kept doing what they were doing (running the way they move), so
//! the brain can aim where an enemy will be and chase where it went. The cost is bounded: at
//! most [`TRACK_MAX`] enemies, a [`HORIZON`] of 1 s in 0.1 s steps, refreshed at 10 Hz
//! staggered across bots.
//!
//! Entry point: [`PredictionStage`].

use std::sync::Arc;

use glam::Vec3;
use serde::Serialize;

use crate::map::EntId;
use crate::physics::pmove::PlayerState;
use crate::physics::predict::{PredictParams, predict, run_toward};
use crate::sim::Sim;
use crate::sim::components::{Motion, Vitals};
use crate::sim::hash::{StateHash, StateHasher};
use crate::sim::parallel::JobSize;

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
/// A player this far from where its shared path starts has jumped (teleport, respawn).
const TELEPORTED: f32 = 64.0;

/// An enemy's path predicted in the current refresh interval, shared by every bot that
/// refreshes in it.
#[derive(Clone, Debug, PartialEq)]
pub struct SharedPath {
    /// Whose.
    pub enemy: EntId,
    /// The tick it was predicted at.
    pub tick: u64,
    /// The enemy's state then (the path starts from it).
    pub state: PlayerState,
    /// Predicted origins every [`STEP`] seconds after `tick`.
    pub path: Vec<Vec3>,
}

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
    /// Predicted origins every [`STEP`] seconds after `seen_tick`.
    pub path: Vec<Vec3>,
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
    /// Predicted origin `seconds` after it was seen (clamped to the horizon).
    pub fn predicted_at(&self, seconds: f32) -> Vec3 {
        if seconds <= 0.0 || self.path.is_empty() {
            return self.state.origin;
        }
        let i = ((seconds / STEP).ceil() as usize).clamp(1, self.path.len()) - 1;
        self.path[i]
    }
}

/// The path of a player at `state`, assumed to keep running the way it moves.
pub fn predict_enemy(
    sim_map: &crate::map::CollisionMap,
    state: &PlayerState,
    physics: &crate::physics::PhysicsParams,
    me: Option<EntId>,
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
        horizon: HORIZON,
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

/// The prediction stage. It owns the paths predicted in the current refresh interval
/// ([`SharedPath`], by enemy id), its scratch between ticks.
///
/// Reads [`Motion`], [`Vitals`] and [`Percepts`]; writes [`Tracking`].
#[derive(Clone, Debug, Default)]
pub struct PredictionStage {
    paths: Vec<SharedPath>,
}

impl PredictionStage {
    /// Updates every living bot's tracked enemies and their predicted paths (10 Hz per bot,
    /// staggered).
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
        let physics = sim.params;
        let tick = sim.tick;
        // One job per bot due a refresh: its percepts (read) and tracking (taken out).
        struct Job {
            e: hecs::Entity,
            alive: bool,
            percepts: Percepts,
            tracking: Tracking,
        }
        let mut jobs = Vec::new();
        let mut view = sim.world.view_mut::<(&Percepts, &mut Tracking, &Vitals)>();
        for p in &sim.players {
            if !(tick + p.id.0 as u64).is_multiple_of(interval) {
                continue;
            }
            let Some((percepts, tracking, vitals)) = view.get_mut(p.entity) else {
                continue;
            };
            jobs.push(Job {
                e: p.entity,
                alive: vitals.alive,
                percepts: percepts.clone(),
                tracking: std::mem::take(tracking),
            });
        }
        let living = |id: EntId| bodies.iter().any(|b| b.id == id && b.alive);
        // A seen enemy's path depends only on its state at the tick's start: predict each
        // once, however many bots see it (the jobs then share the paths).
        let mut seen: Vec<EntId> = jobs
            .iter()
            .filter(|j| j.alive)
            .flat_map(|j| {
                j.percepts
                    .visible
                    .iter()
                    .filter_map(|v| match v.thing {
                        Thing::Player(pid) => Some(pid),
                        Thing::Item(_) => None,
                    })
                    .take(TRACK_MAX)
            })
            .filter(|pid| living(*pid))
            .collect();
        seen.sort_unstable();
        seen.dedup();
        // Paths predicted in this refresh interval are reused (bots refresh on alternate
        // ticks, so most enemies would be predicted twice): the tracker then holds the state
        // and tick the path starts from, so `predicted_at` stays exact. One that jumped
        // (teleported or respawned) since is predicted again.
        let mut paths = std::mem::take(&mut self.paths);
        paths.retain(|c| {
            c.tick + interval > tick
                && bodies.iter().any(|b| {
                    b.id == c.enemy
                        && b.alive
                        && b.state.origin.distance(c.state.origin) <= TELEPORTED
                })
        });
        seen.retain(|id| !paths.iter().any(|c| c.enemy == *id));
        struct Shared {
            cmap: std::sync::Arc<crate::map::CollisionMap>,
            bodies: Vec<Body>,
            physics: crate::physics::PhysicsParams,
        }
        let shared = Shared {
            cmap: Arc::clone(&sim.cmap),
            bodies,
            physics,
        };
        // Each is a search over the player physics (tens of microseconds), worth a worker
        // even when only a few are due.
        let (shared, fresh) = sim.run_jobs(
            JobSize::Search,
            shared,
            seen.into_iter().map(|id| (id, Vec::new())).collect(),
            |sh, (pid, path)| {
                let st = sh.bodies.iter().find(|b| b.id == *pid).expect("seen").state;
                *path = predict_enemy(&sh.cmap, &st, &sh.physics, Some(*pid));
            },
        );
        for (id, path) in fresh {
            let state = shared
                .bodies
                .iter()
                .find(|b| b.id == id)
                .expect("seen")
                .state;
            paths.push(SharedPath {
                enemy: id,
                tick,
                state,
                path,
            });
        }
        paths.sort_unstable_by_key(|c| c.enemy);
        struct Ctx {
            cmap: std::sync::Arc<crate::map::CollisionMap>,
            bodies: Vec<Body>,
            paths: Vec<SharedPath>,
            physics: crate::physics::PhysicsParams,
            tick: u64,
            memory_ticks: u64,
        }
        let ctx = Ctx {
            cmap: shared.cmap,
            bodies: shared.bodies,
            paths,
            physics,
            tick,
            memory_ticks,
        };
        let (ctx, jobs) = sim.run_jobs(JobSize::Bot, ctx, jobs, |ctx, job| {
            let (cmap, bodies, physics, paths) = (&*ctx.cmap, &ctx.bodies, ctx.physics, &ctx.paths);
            let (tick, memory_ticks) = (ctx.tick, ctx.memory_ticks);
            let (percepts, tracking) = (&job.percepts, &mut job.tracking);
            if !job.alive {
                tracking.enemies.clear();
                return;
            }
            // Seen now: the nearest visible players.
            let mut now: Vec<(EntId, PlayerState)> = percepts
                .visible
                .iter()
                .filter_map(|v| match v.thing {
                    Thing::Player(pid) => bodies
                        .iter()
                        .find(|b| b.id == pid && b.alive)
                        .map(|b| (pid, b.state)),
                    Thing::Item(_) => None,
                })
                .take(TRACK_MAX)
                .collect();
            let seen_now = now.len();
            // Heard and located: position known, motion as last tracked.
            for h in &percepts.heard {
                let (Some(src), Some(pos)) = (h.source, h.position) else {
                    continue;
                };
                if now.len() >= TRACK_MAX
                    || now.iter().any(|n| n.0 == src)
                    || !bodies.iter().any(|b| b.id == src)
                {
                    continue;
                }
                let mut st = tracking
                    .enemies
                    .iter()
                    .find(|t| t.id == src)
                    .map(|t| t.state)
                    .unwrap_or(PlayerState::at(pos, 0.0));
                st.origin = pos;
                st.on_ground = None;
                now.push((src, st));
            }
            let mut next: Vec<TrackedEnemy> = now
                .into_iter()
                .enumerate()
                .map(
                    |(k, (pid, st))| match paths.iter().find(|p| p.enemy == pid) {
                        // Seen ones (the first `seen_now`) share the interval's prediction.
                        Some(p) if k < seen_now => TrackedEnemy {
                            id: pid,
                            seen_tick: p.tick,
                            state: p.state,
                            path: p.path.clone(),
                        },
                        // Located ones start from where they were heard.
                        _ => TrackedEnemy {
                            id: pid,
                            seen_tick: tick,
                            state: st,
                            path: predict_enemy(cmap, &st, &physics, Some(pid)),
                        },
                    },
                )
                .collect();
            // Keep remembering the ones lost from view for a while (their old prediction
            // stands).
            for t in &tracking.enemies {
                if next.len() < TRACK_MAX
                    && !next.iter().any(|n| n.id == t.id)
                    && tick - t.seen_tick <= memory_ticks
                {
                    next.push(t.clone());
                }
            }
            tracking.enemies = next;
        });
        self.paths = ctx.paths;
        for job in jobs {
            if let Ok(mut t) = sim.world.get::<&mut Tracking>(job.e) {
                *t = job.tracking;
            }
        }
    }
}
