//! Enemy prediction: for each bot, the players it tracks (the nearest visible ones, and
//! players it heard and located) are run forward with the same player physics from their last
//! known state, as if they kept doing what they were doing (running the way they move), so
//! the brain can aim where an enemy will be and chase where it went. The cost is bounded: at
//! most [`TRACK_MAX`] enemies, a [`HORIZON`] of 1 s in 0.1 s steps, refreshed at 10 Hz
//! staggered across bots.
//!
//! Entry point: [`prediction_system`].

use glam::Vec3;
use serde::Serialize;

use crate::map::EntId;
use crate::physics::pmove::PlayerState;
use crate::physics::predict::{PredictParams, predict, run_toward};
use crate::sim::Sim;
use crate::sim::components::{Motion, Vitals};

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

/// Predicted paths shared by every bot refreshing within one interval: (enemy, tick, its
/// state then, path), by enemy id.
pub type EnemyPaths = Vec<(EntId, u64, PlayerState, Vec<Vec3>)>;

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

/// Updates every living bot's tracked enemies and their predicted paths.
pub fn prediction_system(sim: &mut Sim) {
    let interval = ((1.0 / sim.dt) / REFRESH_HZ).round().max(1.0) as u64;
    let memory_ticks = (MEMORY / sim.dt).round() as u64;
    let states: Vec<(EntId, PlayerState, bool)> = sim
        .players
        .iter()
        .map(|p| {
            let (id, e) = (p.id, p.entity);
            let s = sim
                .world
                .get::<&Motion>(e)
                .map(|m| m.0)
                .unwrap_or(PlayerState::at(Vec3::ZERO, 0.0));
            let alive = sim
                .world
                .get::<&Vitals>(e)
                .map(|v| v.alive)
                .unwrap_or(false);
            (id, s, alive)
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
        let (id, e) = (p.id, p.entity);
        if !(tick + id.0 as u64).is_multiple_of(interval) {
            continue;
        }
        let Some((percepts, tracking, vitals)) = view.get_mut(e) else {
            continue;
        };
        jobs.push(Job {
            e,
            alive: vitals.alive,
            percepts: percepts.clone(),
            tracking: std::mem::take(tracking),
        });
    }
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
        .filter(|pid| states.iter().any(|s| s.0 == *pid && s.2))
        .collect();
    seen.sort_unstable();
    seen.dedup();
    // Paths predicted in this refresh interval are reused (bots refresh on alternate ticks,
    // so most enemies would be predicted twice): the tracker then holds the state and tick
    // the path starts from, so `predicted_at` stays exact. One that jumped (teleported or
    // respawned) since is predicted again.
    let mut cache = std::mem::take(&mut sim.enemy_paths);
    cache.retain(|c| {
        c.1 + interval > tick
            && states
                .iter()
                .any(|s| s.0 == c.0 && s.2 && s.1.origin.distance(c.2.origin) <= TELEPORTED)
    });
    seen.retain(|id| !cache.iter().any(|c| c.0 == *id));
    struct Shared {
        cmap: std::sync::Arc<crate::map::CollisionMap>,
        states: Vec<(EntId, PlayerState, bool)>,
        physics: crate::physics::PhysicsParams,
    }
    let shared = std::sync::Arc::new(Shared {
        cmap: sim.cmap.clone(),
        states,
        physics,
    });
    // Each is a search over the player physics (tens of microseconds), worth a worker even
    // when only a few are due.
    let fresh: Vec<(EntId, Vec<Vec3>)> = sim.run_jobs(
        crate::sim::parallel::JobSize::Search,
        &shared,
        seen.into_iter().map(|id| (id, Vec::new())).collect(),
        |sh, (pid, path)| {
            let st = sh.states.iter().find(|s| s.0 == *pid).expect("seen").1;
            *path = predict_enemy(&sh.cmap, &st, &sh.physics, Some(*pid));
        },
    );
    let Ok(shared) = std::sync::Arc::try_unwrap(shared) else {
        unreachable!("the pool let go of the shared view")
    };
    for (id, path) in fresh {
        let st = shared.states.iter().find(|s| s.0 == id).expect("seen").1;
        cache.push((id, tick, st, path));
    }
    cache.sort_unstable_by_key(|c| c.0);
    struct Ctx {
        cmap: std::sync::Arc<crate::map::CollisionMap>,
        states: Vec<(EntId, PlayerState, bool)>,
        paths: Vec<(EntId, u64, PlayerState, Vec<Vec3>)>,
        physics: crate::physics::PhysicsParams,
        tick: u64,
        memory_ticks: u64,
    }
    let ctx = std::sync::Arc::new(Ctx {
        cmap: shared.cmap,
        states: shared.states,
        paths: cache,
        physics,
        tick,
        memory_ticks,
    });
    let jobs = sim.run_jobs(
        crate::sim::parallel::JobSize::Bot,
        &ctx,
        jobs,
        |ctx, job| {
            let (cmap, states, physics, paths) = (&*ctx.cmap, &ctx.states, ctx.physics, &ctx.paths);
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
                    Thing::Player(pid) => states
                        .iter()
                        .find(|s| s.0 == pid && s.2)
                        .map(|s| (pid, s.1)),
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
                    || !states.iter().any(|s| s.0 == src)
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
                .map(|(k, (pid, st))| match paths.iter().find(|p| p.0 == pid) {
                    // Seen ones (the first `seen_now`) share the interval's prediction.
                    Some(p) if k < seen_now => TrackedEnemy {
                        id: pid,
                        seen_tick: p.1,
                        state: p.2,
                        path: p.3.clone(),
                    },
                    // Located ones start from where they were heard.
                    _ => TrackedEnemy {
                        id: pid,
                        seen_tick: tick,
                        state: st,
                        path: predict_enemy(cmap, &st, &physics, Some(pid)),
                    },
                })
                .collect();
            // Keep remembering the ones lost from view for a while (their old prediction stands).
            for t in &tracking.enemies {
                if next.len() < TRACK_MAX
                    && !next.iter().any(|n| n.id == t.id)
                    && tick - t.seen_tick <= memory_ticks
                {
                    next.push(t.clone());
                }
            }
            tracking.enemies = next;
        },
    );
    let Ok(ctx) = std::sync::Arc::try_unwrap(ctx) else {
        unreachable!("the pool let go of the shared view")
    };
    sim.enemy_paths = ctx.paths;
    for job in jobs {
        if let Ok(mut t) = sim.world.get::<&mut Tracking>(job.e) {
            *t = job.tracking;
        }
    }
}
