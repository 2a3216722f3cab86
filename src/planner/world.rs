//! What the planner plans over: the collision world with its plats ([`Lifts`]), the
//! teleporters, and the area graph's times as a metric ([`AreaMetric`]).

use std::time::Instant;

use crate::aas::route::{AreaCache, Blocked, build_cache_blocked};
use crate::map::EntId;
use glam::Vec3;

use super::config::Metric;
use crate::map::CollisionMap;
use crate::map::collision::touches;
use crate::map::level::{MoverDef, MoverKind, PathCorner, TriggerKind};
use crate::physics::movers::{Carry, MoverState, Phase, carry};
use crate::physics::pmove::{PLAYER_MAXS, PLAYER_MINS, PhysicsParams, PlayerState, UserCmd, pmove};

/// The movers that move while a plan runs — every plat (a player on it raises it; a
/// targeted one waiting at the top is sent down by it, as in the simulation) and every
/// train that runs by itself — with where they start.
#[derive(Clone, Debug, Default)]
pub struct Lifts {
    /// The movers.
    pub defs: Vec<MoverDef>,
    /// Per mover, the box of its plat field (what a player touches to raise it).
    pub fields: Vec<Option<(Vec3, Vec3)>>,
    /// The map's path corners (trains' stops).
    pub corners: Vec<PathCorner>,
    /// Per mover, its state when the map starts.
    pub start: Vec<MoverState>,
    /// Per mover, the box it sweeps (its box at both ends, or at every corner of a train's
    /// path): a player near it may wait for it.
    pub tracks: Vec<(Vec3, Vec3)>,
}

/// The map's plats and self-running trains ([`Lifts`]).
pub fn lifts(level: &crate::map::Level) -> Lifts {
    let mut out = Lifts {
        corners: level.path_corners.clone(),
        ..Default::default()
    };
    for (i, def) in level.movers.iter().enumerate() {
        let start = MoverState::spawn(def, &level.path_corners);
        let moving = match def.kind {
            MoverKind::Plat { .. } => true,
            MoverKind::Train { .. } => start.phase == Phase::TrainWaiting,
            _ => false,
        };
        if !moving {
            continue;
        }
        let field = level.triggers.iter().find_map(|t| match t.kind {
            TriggerKind::PlatRaise { mover } if mover == i && t.targetname.is_none() => {
                Some((t.mins, t.maxs))
            }
            _ => None,
        });
        let stops: Vec<Vec3> = match def.kind {
            MoverKind::Train { .. } => MoverState::train_stops(def, &level.path_corners)
                .into_iter()
                .map(|(_, o)| o)
                .collect(),
            _ => {
                let (a, b) = MoverState::ends(def);
                vec![a, b]
            }
        };
        let track = stops.iter().fold(
            (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY)),
            |(lo, hi), o| (lo.min(def.mins + *o), hi.max(def.maxs + *o)),
        );
        out.defs.push(def.clone());
        out.fields.push(field);
        out.start.push(start);
        out.tracks.push(track);
    }
    out
}

/// Where the planner's steps happen: the map, and a copy of it whose moving movers are set
/// from each node's states (only when there are [`Lifts`]).
pub(super) struct World<'a> {
    pub(super) base: &'a CollisionMap,
    pub(super) moving: Option<CollisionMap>,
}

impl<'a> World<'a> {
    pub(super) fn new(base: &'a CollisionMap, lifts: &Lifts) -> World<'a> {
        World {
            base,
            moving: (!lifts.defs.is_empty()).then(|| base.clone()),
        }
    }

    /// One step from `s` holding `cmd`, in the simulation's order: the lifts advance by
    /// their state machines (from `movers`, updated here) and carry the player or are
    /// blocked by it, the physics moves the player, then triggers act — a plat field raises
    /// its plat, a teleporter sends the player on.
    pub(super) fn advance(
        &mut self,
        physics: &PhysicsParams,
        cfg: &PlanConfig,
        s: &PlayerState,
        movers: &mut [MoverState],
        cmd: &UserCmd,
    ) -> PlayerState {
        let lifts = &*cfg.lifts;
        let mut s = *s;
        let map = match self.moving.as_mut() {
            Some(m) => {
                for (d, st) in lifts.defs.iter().zip(movers.iter()) {
                    m.set_mover_offset(d.id, st.offset);
                }
                for (d, st) in lifts.defs.iter().zip(movers.iter_mut()) {
                    let (new, _) = st.step(d, &lifts.corners, cfg.step);
                    let delta = new.offset - st.offset;
                    if delta != Vec3::ZERO {
                        m.set_mover_offset(d.id, new.offset);
                        match carry(m, d.id, delta, s.origin, s.on_ground, cfg.me) {
                            Carry::Untouched => {}
                            Carry::Carried(to) => s.origin = to,
                            Carry::Blocked => {
                                m.set_mover_offset(d.id, st.offset);
                                st.blocked(d);
                                continue;
                            }
                        }
                    }
                    *st = new;
                }
                &*m
            }
            None => self.base,
        };
        let (mut next, _) = pmove(&s, cmd, map, physics, cfg.step, cfg.me);
        let (mn, mx) = (next.origin + PLAYER_MINS, next.origin + PLAYER_MAXS);
        for ((d, st), field) in lifts.defs.iter().zip(movers.iter_mut()).zip(&lifts.fields) {
            if let Some((a, b)) = field
                && touches(mn, mx, *a, *b)
            {
                st.use_mover(d);
            }
        }
        if let Some(p) = crate::physics::push::push_at(&cfg.pushes, next.origin) {
            next = crate::physics::push::pushed(&next, p.velocity);
        }
        if let Some(t) = cfg
            .teleporters
            .iter()
            .find(|t| touches(mn, mx, t.mins, t.maxs))
        {
            next = crate::physics::teleport::teleported(&next, t.origin, t.yaw);
        }
        next
    }
}

/// Whether a mover moved or changed what it does between two states.
pub(super) fn changed(a: &MoverState, b: &MoverState) -> bool {
    a.offset != b.offset || a.phase != b.phase
}

/// Route times between areas for [`Metric::Area`]: per query area, the time from every
/// area's centre to its centre over the compiled area graph (a flat cache, made on first
/// use and kept: a pure function of the mesh, so plans stay deterministic however the
/// tables are shared).
#[derive(Debug)]
pub struct AreaMetric {
    /// The compiled navigation.
    pub mesh: std::sync::Arc<crate::aas::NavMesh>,
    /// The reachabilities the planner's world leaves out ([`shut_at_start`]): every route
    /// asked of the metric (its tables, the seed, [`super::times::graph_time`]) goes round
    /// them.
    pub shut: Blocked,
    pub(super) tables: std::sync::Mutex<std::collections::BTreeMap<u32, std::sync::Arc<Vec<f32>>>>,
}

impl AreaMetric {
    /// Over `mesh`, compiled for `level`.
    pub fn new(mesh: std::sync::Arc<crate::aas::NavMesh>, level: &crate::map::Level) -> AreaMetric {
        AreaMetric {
            shut: shut_at_start(&mesh, level),
            mesh,
            tables: Default::default(),
        }
    }

    /// The flat route cache to area `goal` under `travel`, round [`AreaMetric::shut`].
    pub fn cache(&self, goal: u32, travel: crate::aas::route::Travel) -> AreaCache {
        build_cache_blocked(&self.mesh, goal, travel, Some(&self.shut))
    }

    /// The area at (or up to 96 units under) `p` ([`crate::aas::NavMesh::area_under`]).
    pub fn area_under(&self, p: Vec3) -> Option<u32> {
        self.mesh.area_under(p).map(|(_, a)| a)
    }

    /// Seconds from each area's centre to area `goal`'s (`INFINITY`: no route).
    pub fn table(&self, goal: u32) -> std::sync::Arc<Vec<f32>> {
        use crate::aas::route::{Travel, cross};
        if let Some(t) = self.tables.lock().expect("no panics inside").get(&goal) {
            return std::sync::Arc::clone(t);
        }
        let mesh = &*self.mesh;
        let cache = self.cache(goal, Travel::ALL);
        let t: Vec<f32> = (0..mesh.areas().len() as u32)
            .map(|a| {
                if a == goal {
                    return 0.0;
                }
                let c = mesh.areas()[a as usize].center;
                mesh.reach_ids_from(a)
                    .iter()
                    .map(|&i| {
                        let r = &mesh.reaches()[i as usize];
                        cross(mesh, a, c, r.start) + r.seconds + cache.time[i as usize]
                    })
                    .fold(f32::INFINITY, f32::min)
            })
            .collect();
        let t = std::sync::Arc::new(t);
        self.tables
            .lock()
            .expect("no panics inside")
            .insert(goal, std::sync::Arc::clone(&t));
        t
    }
}

/// The reachabilities that need something the planner never does — fire a trigger or a
/// button, carry a key — while the map starts without it: through a door or a secret door
/// that opens only when fired (or over one a firing moves into place), on a plat a trigger
/// sends down, into a teleporter a trigger switches on. The planner plans in the world as a match
/// starts it ([`planning_map`], [`lifts`]); the area graph's times are compared with its
/// plans in that same world, so a way that waits on a trigger (a door a relay opens 40 s
/// after one) is not counted as a way.
pub fn shut_at_start(mesh: &crate::aas::NavMesh, level: &crate::map::Level) -> Blocked {
    use crate::aas::MoverNeed;
    let at_spawn = |id: u32| {
        let k = level.movers.iter().position(|m| m.id.0 == id)?;
        let def = &level.movers[k];
        // Left where it starts by the planning map ([`planning_map`]).
        let fired_only = matches!(
            def.kind,
            MoverKind::Door {
                touch_opens: false,
                ..
            } | MoverKind::SecretDoor {
                shootable: false,
                ..
            }
        );
        let rest = crate::physics::movers::MoverState::spawn(def, &level.path_corners).offset;
        Some((def, fired_only, rest))
    };
    let needs_firing = |n: &MoverNeed| match *n {
        MoverNeed::Key(_) | MoverNeed::Fired(_) | MoverNeed::Teleporter(_) => true,
        MoverNeed::Open(id) => at_spawn(id).is_some_and(|(def, fired_only, rest)| {
            let (MoverKind::Door { open, .. } | MoverKind::SecretDoor { open, .. }) = def.kind
            else {
                return false;
            };
            fired_only && (rest - open).length() >= 1.0
        }),
        MoverNeed::Moved(p) => mesh.positions.get(p as usize).is_some_and(|pos| {
            pos.corner.is_none()
                && at_spawn(pos.mover).is_some_and(|(_, fired_only, rest)| {
                    fired_only && (rest - pos.offset).length() >= 1.0
                })
        }),
        MoverNeed::Down(_) => false,
    };
    let mut shut = Blocked::new(mesh);
    for (i, r) in mesh.reaches().iter().enumerate() {
        if r.needs.iter().any(needs_firing) {
            shut.set(i as u32, true);
        }
    }
    shut
}

/// The geometry the planner runs in: the map with every door that opens on approach, and
/// every secret door that opens when shot, standing open (a player walking up to one finds
/// it opening, or shoots it on the way; the seconds that takes are not counted); the other
/// movers where the match starts them ([`lifts`] move from there during a plan).
pub fn planning_map(level: &crate::map::Level, cmap: &CollisionMap) -> CollisionMap {
    let mut m = cmap.clone();
    // Movers where the match starts them (plats lowered, trains at their first corner):
    // a map draws plats raised and trains anywhere.
    crate::physics::movers::place_at_spawn(level, &mut m);
    for def in &level.movers {
        match def.kind {
            MoverKind::Door {
                open,
                touch_opens: true,
                start_open: false,
                ..
            }
            | MoverKind::SecretDoor {
                open,
                shootable: true,
                ..
            } => m.set_mover_offset(def.id, open),
            _ => {}
        }
    }
    m
}

/// A teleporter the planner can take: its trigger box and where it sends a player.
#[derive(Clone, Copy, Debug)]
pub struct Teleporter {
    /// Trigger minimum corner.
    pub mins: Vec3,
    /// Trigger maximum corner.
    pub maxs: Vec3,
    /// Arrival origin.
    pub origin: Vec3,
    /// Facing on arrival.
    pub yaw: f32,
}

/// The map's working teleporters (those that need no trigger to switch them on).
pub fn teleporters(level: &crate::map::Level) -> Vec<Teleporter> {
    level
        .triggers
        .iter()
        .filter(|t| t.targetname.is_none())
        .filter_map(|t| match t.kind {
            crate::map::level::TriggerKind::Teleport { dest: Some(d) } => {
                let dst = &level.teleport_dests[d];
                Some(Teleporter {
                    mins: t.mins,
                    maxs: t.maxs,
                    origin: dst.origin,
                    yaw: dst.yaw,
                })
            }
            _ => None,
        })
        .collect()
}

/// What a plan is asked to do.
#[derive(Clone, Debug)]
pub struct PlanConfig {
    /// Seconds of physics per edge (the reference's 50 ms).
    pub step: f32,
    /// Expansions to make.
    pub expansions: usize,
    /// Stop early at this wall-clock time (not deterministic).
    pub deadline: Option<Instant>,
    /// Seed of the planner's random stream.
    pub seed: u64,
    /// Nearness of nodes to samples.
    pub metric: Metric,
    /// Share of samples drawn at the goal.
    pub goal_bias: f32,
    /// Stop at the first solution instead of improving it.
    pub stop_at_first: bool,
    /// Teleporters to take (see [`teleporters`]).
    pub teleporters: Vec<Teleporter>,
    /// Push volumes (`trigger_push`, [`crate::physics::push::pushes`]): each sets the
    /// velocity of a player touching it, every step (a PUSH_ONCE push is taken as always
    /// there: the plan does not know who used it first).
    pub pushes: Vec<crate::physics::push::Push>,
    /// The body the planned player has in the map, if any (ignored by its own moves: a bot
    /// planning in a running simulation).
    pub me: Option<EntId>,
    /// The area graph's times for [`Metric::Area`].
    pub area_metric: Option<std::sync::Arc<AreaMetric>>,
    /// Movers that move while the plan runs ([`lifts`]; none by default).
    pub lifts: std::sync::Arc<Lifts>,
    /// With [`PlanConfig::area_metric`], start the tree with the area graph's route to the
    /// goal, run through the physics ([`super::seed`]).
    pub route_seed: bool,
    /// After the search, shorten the best branch by straight runs verified to the goal
    /// ([`super::shortcut`]).
    pub shortcuts: bool,
    /// The goal counts only for a player standing on the ground: a region to stand on a
    /// narrow ledge beside a drop is otherwise touched on the way down past it.
    pub goal_standing: bool,
}

impl Default for PlanConfig {
    fn default() -> Self {
        PlanConfig {
            step: 0.05,
            expansions: 200_000,
            deadline: None,
            seed: 0,
            // Euclidean found weapon pairs more often and a ledge sooner than height ×3
            // (docs/tuning.md).
            metric: Metric::Euclidean,
            goal_bias: 0.1,
            stop_at_first: false,
            teleporters: Vec::new(),
            pushes: Vec::new(),
            me: None,
            area_metric: None,
            route_seed: true,
            shortcuts: true,
            lifts: Default::default(),
            goal_standing: false,
        }
    }
}
