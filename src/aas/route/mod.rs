//! Routing on the compiled area graph (reference 001 §routing), in seconds.
//!
//! A route is a chain of reachabilities. Its time is each reachability's measured time plus,
//! inside each area, the straight walk (or swim) from where the player arrived to where the
//! next reachability starts — areas are convex, so that line stays inside — at full running
//! speed (swimming: Quake's 0.7 of it). Because that crossing depends on where the previous
//! reachability ended, the search runs over reachabilities, not areas: for a goal area, a
//! cache holds for every reachability the time from its end to the goal area's centre and
//! the reachability to take after it ([`AreaCache`]), filled backwards from the goal by the
//! FIFO update the waypoint caches use (reference 000 §9.3).
//!
//! [`AreaCaches`] keeps caches per (goal area, travel) under a memory cap, least recently
//! used evicted, as the waypoint caches do; reachabilities an obstacle blocks ([`Blocked`])
//! are left out, and a cache is repaired with exactly the changes since it was last used
//! ([`repair`]), not rebuilt. [`Clusters`] cuts the areas into clusters whose
//! crossing reachabilities are the portals (Q3 and Doom 3 put portals on areas; with
//! reachability-to-reachability times the crossing reachabilities are the natural ones):
//! [`HierCache`] answers from a search inside the goal's cluster plus a search over the
//! portals, joined by per-cluster tables of times to each exit — exactly the flat answer,
//! for less work per goal on a large map.
//!
//! Entry points: [`Travel`], [`build_cache`], [`route`], [`AreaCaches`], [`Clusters`],
//! [`HierRouter`].
//!
//! Files: `cache` (flat caches and their repair), `path` (path geometry), `time` (the
//! runner's time model), `hier` (clusters, portals and the hierarchy).

mod cache;
mod hier;
mod path;
mod time;

use glam::Vec3;
use serde::Serialize;

use super::mesh::{AreaFlags, MoverNeed, NavMesh, Reach, ReachKind};
use crate::physics::pmove::PhysicsParams;
pub use cache::{
    AreaCache, AreaCaches, Blocked, CacheStats, DEFAULT_TILE, build_cache, build_cache_blocked,
    repair,
};
pub use hier::{Clusters, HierCache, HierRouter, seconds_from};
pub use path::{border, corridor, floor_walk, nearest_on, string_pull};
pub use time::{ON_THE_RUN_BACK, OnTheRun, START_SECONDS, run_path, run_path_timed, turn_seconds};

/// No reachability (end of a route).
const NONE: u32 = u32::MAX;

/// What a route may use: reachability kinds (a bit per [`ReachKind::ALL`] index), whether
/// it may go into slime and lava (Q3's `TFL_SLIME` and `TFL_LAVA`: a reachability into an
/// area of that liquid), and whether locked doors count (their key is needed; a deathmatch
/// bot never has one).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct Travel(pub u16);

impl Travel {
    const KEYS: u16 = 1 << 15;
    const KINDS: u16 = (1 << ReachKind::ALL.len()) - 1;
    /// Into slime.
    pub const SLIME: Travel = Travel(1 << 13);
    /// Into lava.
    pub const LAVA: Travel = Travel(1 << 14);
    /// Every kind, into slime and lava too, no locked doors.
    pub const ALL: Travel = Travel(Self::KINDS | Self::SLIME.0 | Self::LAVA.0);

    fn bit(k: ReachKind) -> u16 {
        1 << ReachKind::ALL.iter().position(|x| *x == k).unwrap_or(0)
    }

    /// Whether reachabilities of kind `k` may be used.
    pub fn allows(self, k: ReachKind) -> bool {
        self.0 & Self::bit(k) != 0
    }

    /// The same without kind `k`.
    pub fn without(self, k: ReachKind) -> Travel {
        Travel(self.0 & !Self::bit(k))
    }

    /// The same, through locked doors too (a holder of their keys).
    pub fn with_keys(self) -> Travel {
        Travel(self.0 | Self::KEYS)
    }

    /// Both sets' permissions.
    pub fn with(self, other: Travel) -> Travel {
        Travel(self.0 | other.0)
    }

    /// The same, into neither slime nor lava.
    pub fn dry(self) -> Travel {
        Travel(self.0 & !(Self::SLIME.0 | Self::LAVA.0))
    }

    /// Whether a route may go into area `area`: slime and lava only where permitted.
    pub fn enters(self, mesh: &NavMesh, area: u32) -> bool {
        let f = mesh.areas()[area as usize].flags;
        (self.0 & Self::SLIME.0 != 0 || !f.has(AreaFlags::SLIME))
            && (self.0 & Self::LAVA.0 != 0 || !f.has(AreaFlags::LAVA))
    }

    /// Whether reachability `r` of `mesh` may be used: its kind, its keys and the liquid
    /// it goes into.
    pub fn permits(self, mesh: &NavMesh, r: &Reach) -> bool {
        self.allows(r.kind)
            && (self.0 & Self::KEYS != 0 || !r.needs.iter().any(|n| matches!(n, MoverNeed::Key(_))))
            && self.enters(mesh, r.to)
    }

    /// Parses kind names (`walk,step_up,barrier_jump,jump,walk_off_ledge,swim,water_jump,
    /// teleport,elevator,jump_pad`), `slime`, `lava`, `all` (every kind, slime and lava),
    /// and `keys`.
    pub fn parse(s: &str) -> Result<Travel, String> {
        let mut t = 0u16;
        for name in s.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            match name {
                "all" => t |= Travel::ALL.0,
                "keys" => t |= Self::KEYS,
                "slime" => t |= Self::SLIME.0,
                "lava" => t |= Self::LAVA.0,
                _ => {
                    let k = ReachKind::ALL
                        .iter()
                        .find(|k| k.name() == name)
                        .ok_or_else(|| {
                            let names: Vec<_> = ReachKind::ALL.iter().map(|k| k.name()).collect();
                            format!(
                                "unknown travel type {name:?} ({}, slime, lava, all or keys)",
                                names.join(", ")
                            )
                        })?;
                    t |= Self::bit(*k);
                }
            }
        }
        Ok(Travel(t))
    }
}

/// Seconds to cross area `area` in a straight line from `a` to `b`: running on a floor
/// (horizontal distance), swimming in liquid.
pub fn cross(mesh: &NavMesh, area: u32, a: Vec3, b: Vec3) -> f32 {
    let speed = PhysicsParams::default().max_speed;
    if mesh.areas()[area as usize].is_swim() {
        (b - a).length() / (speed * 0.7)
    } else {
        (b - a).truncate().length() / speed
    }
}

/// A route from a point: its time and the reachabilities to take, in order.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Route {
    /// Seconds to the goal point, as the search counts them: each reachability's measured
    /// time (a walk's from a standing start) and straight runs between them.
    pub seconds: f32,
    /// Reachability indices (into [`NavMesh::reaches`]), first to last.
    pub reaches: Vec<u32>,
    /// Seconds a runner takes along it ([`run_path`]): what a player following the route
    /// at running speed takes (the prediction a bot's arrival is timed against).
    pub run_seconds: f32,
    /// The runner's path: the start, the corners of its walks, each other reachability's
    /// start and end, the goal point.
    pub path: Vec<Vec3>,
    /// The index in `path` of the point the last run to the goal point starts from (the
    /// start, or the end of the last reachability that is not a walk).
    pub last_run: usize,
}

/// The best first step from `from` (in area `area`) given `time_after(r)`: the time from
/// reachability `r`'s end to the goal. `direct`: the time when no reachability is taken.
pub fn best_first(
    mesh: &NavMesh,
    area: u32,
    from: Vec3,
    travel: Travel,
    direct: Option<f32>,
    time_after: impl Fn(u32) -> f32,
) -> Option<(f32, Option<u32>)> {
    let mut best: Option<(f32, Option<u32>)> = direct.map(|d| (d, None));
    for &i in mesh.reach_ids_from(area) {
        let r = &mesh.reaches()[i as usize];
        if !travel.permits(mesh, r) {
            continue;
        }
        let t = cross(mesh, area, from, r.start) + r.seconds + time_after(i);
        if t.is_finite() && best.is_none_or(|b| t < b.0) {
            best = Some((t, Some(i)));
        }
    }
    best
}

/// The route from point `from` to point `to` over a cache for `to`'s area: the quickest
/// first reachability, then the cache's chain; its time ends at `to` (the cache's last leg
/// to the area's centre is replaced by the leg to `to`). `None`: either point is in no
/// area, `to` is not in the cache's goal area, or no route exists.
pub fn route(mesh: &NavMesh, cache: &AreaCache, from: Vec3, to: Vec3) -> Option<Route> {
    route_moving(mesh, cache, from, Vec3::ZERO, to)
}

/// [`route`] for a player at `from` moving at `velocity`: the same reachabilities, the
/// runner's time counting the turn from the way it is going ([`run_path`]).
pub fn route_moving(
    mesh: &NavMesh,
    cache: &AreaCache,
    from: Vec3,
    velocity: Vec3,
    to: Vec3,
) -> Option<Route> {
    let a = mesh.area_at(from)?;
    if mesh.area_at(to)? != cache.goal {
        return None;
    }
    let g = &mesh.areas()[cache.goal as usize];
    let direct = (a == cache.goal).then(|| cross(mesh, a, from, to));
    let (mut seconds, first) = best_first(mesh, a, from, cache.travel, direct, |i| {
        cache.time[i as usize]
    })?;
    let mut reaches = Vec::new();
    let mut at = first;
    while let Some(i) = at {
        reaches.push(i);
        if reaches.len() > cache.time.len() {
            return None; // cannot happen with positive times; never loop forever
        }
        at = Some(cache.next[i as usize]).filter(|&n| n != NONE);
    }
    if let Some(&last) = reaches.last() {
        let end = mesh.reaches()[last as usize].end;
        seconds += cross(mesh, cache.goal, end, to) - cross(mesh, cache.goal, end, g.center);
    }
    let (run_seconds, path, last_run) = run_path(mesh, from, velocity, to, &reaches);
    Some(Route {
        seconds,
        reaches,
        run_seconds,
        path,
        last_run,
    })
}
