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

use std::cmp::Ordering;
use std::collections::{BTreeMap, BinaryHeap, VecDeque};

use glam::Vec3;
use serde::Serialize;

use super::mesh::{AreaFlags, MoverNeed, NavMesh, Reach, ReachKind};
use crate::physics::pmove::PhysicsParams;

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

/// The side of the default clusters' tiles, units.
pub const DEFAULT_TILE: f32 = 768.0;

/// No reachability (end of a route).
const NONE: u32 = u32::MAX;

/// Times to one goal area from the end of every reachability.
#[derive(Clone, Debug, PartialEq)]
pub struct AreaCache {
    /// The goal area.
    pub goal: u32,
    /// What routes may use.
    pub travel: Travel,
    /// Per reachability: seconds from its end to the goal area's centre (`INFINITY`: none).
    pub time: Vec<f32>,
    /// Per reachability: the one to take after it (`u32::MAX`: it ends in the goal area,
    /// or there is no route).
    pub next: Vec<u32>,
    /// The [`Blocked`] revision it is up to date with.
    pub revision: u64,
}

impl AreaCache {
    /// Memory it takes, bytes.
    pub fn bytes(&self) -> usize {
        std::mem::size_of::<AreaCache>() + self.time.len() * 8
    }
}

/// Fills the cache for `goal` by the FIFO update, backwards over the reachabilities
/// `travel` permits.
pub fn build_cache(mesh: &NavMesh, goal: u32, travel: Travel) -> AreaCache {
    build_cache_blocked(mesh, goal, travel, None)
}

/// [`build_cache`] leaving out the reachabilities `blocked` blocks.
pub fn build_cache_blocked(
    mesh: &NavMesh,
    goal: u32,
    travel: Travel,
    blocked: Option<&Blocked>,
) -> AreaCache {
    let n = mesh.reaches().len();
    let mut c = AreaCache {
        goal,
        travel,
        time: vec![f32::INFINITY; n],
        next: vec![NONE; n],
        revision: blocked.map_or(0, |b| b.revision),
    };
    if mesh.areas().get(goal as usize).is_none() {
        return c;
    }
    let usable = |i: u32| usable(mesh, travel, blocked, i);
    let mut queue = VecDeque::new();
    for &i in mesh.reach_ids_to(goal) {
        if usable(i) {
            c.time[i as usize] = best_step(mesh, &c, i).0;
            queue.push_back(i);
        }
    }
    relax(mesh, &mut c, queue, &usable);
    c
}

/// Whether reachability `i` may be taken: `travel` permits it and nothing blocks it.
fn usable(mesh: &NavMesh, travel: Travel, blocked: Option<&Blocked>, i: u32) -> bool {
    travel.permits(mesh, &mesh.reaches()[i as usize])
        && !blocked.is_some_and(|b| b.blocked.get(i as usize).copied().unwrap_or(false))
}

/// The best way on from reachability `i`'s end over the cache's current entries: to the
/// goal area's centre if it ends there (next `NONE`), else through the best reachability
/// out of its end area. Returns (time, next); sets nothing.
fn best_step(mesh: &NavMesh, c: &AreaCache, i: u32) -> (f32, u32) {
    let r = &mesh.reaches()[i as usize];
    let mut best = if r.to == c.goal {
        (
            cross(mesh, c.goal, r.end, mesh.areas()[c.goal as usize].center),
            NONE,
        )
    } else {
        (f32::INFINITY, NONE)
    };
    for &j in mesh.reach_ids_from(r.to) {
        let t = c.time[j as usize];
        if t.is_finite() {
            let q = &mesh.reaches()[j as usize];
            let d = cross(mesh, r.to, r.end, q.start) + q.seconds + t;
            if d < best.0 {
                best = (d, j);
            }
        }
    }
    best
}

/// The FIFO update from the entries in `queue` (their times set): each one's predecessors
/// take the time through it when that is shorter, and are queued in turn.
fn relax(
    mesh: &NavMesh,
    c: &mut AreaCache,
    mut queue: VecDeque<u32>,
    usable: &dyn Fn(u32) -> bool,
) {
    let reaches = mesh.reaches();
    let mut queued = vec![false; reaches.len()];
    for &q in &queue {
        queued[q as usize] = true;
    }
    while let Some(i) = queue.pop_front() {
        queued[i as usize] = false;
        let r = &reaches[i as usize];
        let after = c.time[i as usize] + r.seconds;
        for &j in mesh.reach_ids_to(r.from) {
            if !usable(j) {
                continue;
            }
            let p = &reaches[j as usize];
            let d = after + cross(mesh, r.from, p.end, r.start);
            if d < c.time[j as usize] {
                c.time[j as usize] = d;
                c.next[j as usize] = i;
                if !queued[j as usize] {
                    queued[j as usize] = true;
                    queue.push_back(j);
                }
            }
        }
    }
}

/// Reachabilities that cannot be taken now — blocked by an obstacle — with a revision
/// that counts the changes, so that caches are repaired with exactly the changes since
/// they were last brought up to date.
#[derive(Clone, Debug, Default)]
pub struct Blocked {
    /// Per reachability.
    pub blocked: Vec<bool>,
    /// Changes so far.
    pub revision: u64,
    /// (revision, reachability) of each change, in order.
    log: Vec<(u64, u32)>,
}

impl Blocked {
    /// Nothing blocked, for `mesh`.
    pub fn new(mesh: &NavMesh) -> Blocked {
        Blocked {
            blocked: vec![false; mesh.reaches().len()],
            revision: 0,
            log: Vec::new(),
        }
    }

    /// Blocks (or frees) reachability `i`; true when that changed it.
    pub fn set(&mut self, i: u32, blocked: bool) -> bool {
        match self.blocked.get_mut(i as usize) {
            Some(b) if *b != blocked => {
                *b = blocked;
                self.revision += 1;
                self.log.push((self.revision, i));
                true
            }
            _ => false,
        }
    }

    /// Blocks (or frees) every reachability whose straight path from start to end, swept by
    /// the player's box (and 48 units above it, for a jump's arc), touches the box
    /// `mins..maxs` (a teleport: where it starts or arrives); returns them.
    pub fn set_box(&mut self, mesh: &NavMesh, mins: Vec3, maxs: Vec3, blocked: bool) -> Vec<u32> {
        let mut out = Vec::new();
        let touches = |a: Vec3, b: Vec3| crate::nav::waypoints::segment_hits_box(a, b, mins, maxs);
        for (i, r) in mesh.reaches().iter().enumerate() {
            let hit = if r.kind == ReachKind::Teleport {
                // Start and arrival: the line between them is not travelled.
                touches(r.start, r.start) || touches(r.end, r.end)
            } else {
                touches(r.start, r.end) || touches(r.start + Vec3::Z * 48.0, r.end + Vec3::Z * 48.0)
            };
            if hit {
                self.set(i as u32, blocked);
                out.push(i as u32);
            }
        }
        out
    }

    /// The reachabilities changed after revision `since` (each once, ascending).
    fn changed_since(&self, since: u64) -> Vec<u32> {
        let mut v: Vec<u32> = self
            .log
            .iter()
            .filter(|(rev, _)| *rev > since)
            .map(|(_, i)| *i)
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    }
}

/// Brings `c` up to date with `blocked`, touching only what the changes since its revision
/// affect: entries whose chain runs through a newly blocked reachability are cleared and
/// refilled from their neighbours, newly freed ones are filled, and the FIFO update runs
/// from all of those. The result is what [`build_cache_blocked`] gives (same times).
pub fn repair(mesh: &NavMesh, c: &mut AreaCache, blocked: &Blocked) {
    if c.revision == blocked.revision {
        return;
    }
    let changed = blocked.changed_since(c.revision);
    c.revision = blocked.revision;
    let travel = c.travel;
    let usable = |i: u32| usable(mesh, travel, Some(blocked), i);
    // Entries depending on a newly blocked reachability: it, and everything whose chain of
    // `next` runs through it (found through the reversed `next` links).
    let n = c.time.len();
    let cut: Vec<u32> = changed
        .iter()
        .copied()
        .filter(|&i| blocked.blocked[i as usize] && c.time[i as usize].is_finite())
        .collect();
    let mut stale = vec![false; n];
    if !cut.is_empty() {
        let mut before: Vec<Vec<u32>> = vec![Vec::new(); n];
        for (p, &q) in c.next.iter().enumerate() {
            if q != NONE {
                before[q as usize].push(p as u32);
            }
        }
        let mut stack = cut.clone();
        for &i in &cut {
            stale[i as usize] = true;
        }
        while let Some(i) = stack.pop() {
            for &p in &before[i as usize] {
                if !stale[p as usize] {
                    stale[p as usize] = true;
                    stack.push(p);
                }
            }
        }
        for (i, s) in stale.iter().enumerate() {
            if *s {
                c.time[i] = f32::INFINITY;
                c.next[i] = NONE;
            }
        }
    }
    // Refill the cleared and the freed from what is still known, then update from them.
    let mut seeds: Vec<u32> = (0..n as u32).filter(|&i| stale[i as usize]).collect();
    seeds.extend(
        changed
            .iter()
            .copied()
            .filter(|&i| !blocked.blocked[i as usize] && !stale[i as usize]),
    );
    seeds.sort_unstable();
    seeds.dedup();
    let mut queue = VecDeque::new();
    for i in seeds {
        if !usable(i) {
            continue;
        }
        let (t, next) = best_step(mesh, c, i);
        if t < c.time[i as usize] {
            c.time[i as usize] = t;
            c.next[i as usize] = next;
            queue.push_back(i);
        }
    }
    relax(mesh, c, queue, &usable);
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

/// The point of segment `p`–`q` nearest `x`.
pub fn nearest_on(p: glam::Vec2, q: glam::Vec2, x: glam::Vec2) -> glam::Vec2 {
    let d = q - p;
    let len2 = d.length_squared();
    if len2 < 1e-6 {
        return p;
    }
    p + d * ((x - p).dot(d) / len2).clamp(0.0, 1.0)
}

/// Whether reachability `r` is a walk between floors, which a runner takes in its stride
/// (the movement stage steers it; its measured time is from a standing start).
pub fn floor_walk(mesh: &NavMesh, r: &Reach) -> bool {
    matches!(r.kind, ReachKind::Walk | ReachKind::StepUp)
        && !mesh.areas()[r.from as usize].is_swim()
        && !mesh.areas()[r.to as usize].is_swim()
}

/// How far a runner's line keeps from the ends of the borders it crosses (units): an end is
/// often a wall's corner, which a line through it would scrape.
const BORDER_MARGIN: f32 = 8.0;

/// The border a floor walk crosses, as (left, right) seen along the walk: the edge the two
/// areas' rectangles share, less [`BORDER_MARGIN`] at each end, or the middle of the walk
/// where they share none (their rectangles overlap, on two levels).
pub fn border(mesh: &NavMesh, r: &Reach) -> (glam::Vec2, glam::Vec2) {
    let (a, b) = (&mesh.areas()[r.from as usize], &mesh.areas()[r.to as usize]);
    let (alo, ahi, blo, bhi) = (
        a.mins.truncate(),
        a.maxs.truncate(),
        b.mins.truncate(),
        b.maxs.truncate(),
    );
    let mid = ((r.start + r.end) * 0.5).truncate();
    let near = |p: f32, q: f32| (p - q).abs() < 0.01;
    let (lo, hi) = (alo.max(blo), ahi.min(bhi));
    let (p, q) = if (near(ahi.x, blo.x) || near(bhi.x, alo.x)) && lo.y < hi.y {
        let x = if near(ahi.x, blo.x) { ahi.x } else { alo.x };
        (glam::Vec2::new(x, lo.y), glam::Vec2::new(x, hi.y))
    } else if (near(ahi.y, blo.y) || near(bhi.y, alo.y)) && lo.x < hi.x {
        let y = if near(ahi.y, blo.y) { ahi.y } else { alo.y };
        (glam::Vec2::new(lo.x, y), glam::Vec2::new(hi.x, y))
    } else {
        (mid, mid)
    };
    let (p, q) = if (q - p).length() > 2.0 * BORDER_MARGIN {
        let m = (q - p).normalize() * BORDER_MARGIN;
        (p + m, q - m)
    } else {
        let c = (p + q) * 0.5;
        (c, c)
    };
    // Left of the walk's direction first.
    let d = (r.end - r.start).truncate();
    if d.perp_dot(p - mid) >= 0.0 {
        (p, q)
    } else {
        (q, p)
    }
}

/// The shortest line from `start` to `end` through `borders` ((left, right) pairs, in
/// order): the funnel ("simple stupid funnel") string pull. Returns the corners after
/// `start`, `end` last.
pub fn string_pull(
    start: glam::Vec2,
    borders: &[(glam::Vec2, glam::Vec2)],
    end: glam::Vec2,
) -> Vec<glam::Vec2> {
    // Positive when `c` lies right of the line a -> b.
    let right_of = |a: glam::Vec2, b: glam::Vec2, c: glam::Vec2| -(b - a).perp_dot(c - a);
    let mut gates = Vec::with_capacity(borders.len() + 1);
    gates.extend_from_slice(borders);
    gates.push((end, end));
    let mut corners = Vec::new();
    let (mut apex, mut left, mut right) = (start, start, start);
    let (mut li, mut ri) = (0usize, 0usize);
    let mut i = 0;
    while i < gates.len() {
        let (l, r) = gates[i];
        // The right side closes in.
        if right_of(apex, right, r) <= 0.0 {
            if apex == right || right_of(apex, left, r) > 0.0 {
                right = r;
                ri = i + 1;
            } else {
                // Past the left side: its end is a corner.
                corners.push(left);
                apex = left;
                right = apex;
                ri = li;
                i = li;
                continue;
            }
        }
        // The left side closes in.
        if right_of(apex, left, l) >= 0.0 {
            if apex == left || right_of(apex, right, l) < 0.0 {
                left = l;
                li = i + 1;
            } else {
                corners.push(right);
                apex = right;
                left = apex;
                li = ri;
                i = ri;
                continue;
            }
        }
        i += 1;
    }
    corners.push(end);
    corners
}

/// The shortest line from `start` through the borders `walks` (floor walks, in order)
/// cross to `end`: its corners after `start`, `end` last, each at the height of the walk
/// whose border it lies on.
pub fn corridor(mesh: &NavMesh, start: Vec3, walks: &[u32], end: Vec3) -> Vec<Vec3> {
    let borders: Vec<_> = walks
        .iter()
        .map(|&r| border(mesh, &mesh.reaches()[r as usize]))
        .collect();
    let corners = string_pull(start.truncate(), &borders, end.truncate());
    let n = corners.len();
    corners
        .into_iter()
        .enumerate()
        .map(|(k, c)| {
            if k + 1 == n {
                return end;
            }
            let z = borders
                .iter()
                .zip(walks)
                .find(|((l, r), _)| *l == c || *r == c)
                .map_or(end.z, |(_, &w)| mesh.reaches()[w as usize].end.z);
            c.extend(z)
        })
        .collect()
}

/// Seconds a runner at full speed loses turning its way by the angle θ between `from` and
/// `to` (directions): measured with the player physics on a flat floor, running at 320
/// u/s toward a point far off in the new direction (the time to get 640 units along it,
/// against 2 s), which `0.117 ((1 − cos θ) / 2)²` follows within 5 ms: nothing to speak of
/// up to 60°, 29 ms at 90°, 117 ms at 180°. Faster than full speed (a player come off a
/// landing or a corner at speed) a turn costs in proportion to the speed, as measured the
/// same way: at 180° 130 ms from 360 u/s, 147 from 400, 161 from 450 (the route's runner
/// scales it so, [`run_path_timed`]).
pub fn turn_seconds(from: glam::Vec2, to: glam::Vec2) -> f32 {
    REVERSAL_SECONDS * turn_share(from, to)
}

/// `((1 − cos θ) / 2)²` for the angle θ between `from` and `to` (0 where either is zero):
/// the share of a reversal's cost a running turn by θ costs.
fn turn_share(from: glam::Vec2, to: glam::Vec2) -> f32 {
    let half = half_turn(from, to);
    half * half
}

/// `(1 − cos θ) / 2` for the angle θ between `from` and `to` (0 where either is zero): 0
/// going on straight, ½ at right angles, 1 turning back.
fn half_turn(from: glam::Vec2, to: glam::Vec2) -> f32 {
    let (a, b) = (from.normalize_or_zero(), to.normalize_or_zero());
    if a == glam::Vec2::ZERO || b == glam::Vec2::ZERO {
        return 0.0;
    }
    (1.0 - a.dot(b).clamp(-1.0, 1.0)) * 0.5
}

/// Seconds a reversal at full speed costs (see [`turn_seconds`]).
const REVERSAL_SECONDS: f32 = 0.117;

/// Seconds a runner loses coming at a jump or fall (its commands recorded from a stand,
/// their way) going the opposite way, as a share of it by [`half_turn`] for other angles:
/// it cannot take the run on its way in, so it slows to a stand on the start before it
/// (with a running turn only, a bot's U-turn onto dm4's jump south at (196, -12), come at
/// running west from the super nailgun, took 1.2 times the prediction on 36 of 40 tours).
/// Calibrated on the compiled bots' item tours (seeds 1-40, legs within 10 % of the
/// prediction on dm4/dm6/e1m1): 0.4-0.5 s gives 503-504/396/286-287, 0 gives
/// 477/394/280, 0.6 loses dm4's (435); 0.45 then held on seeds 41-160. Only for runs an
/// [`OnTheRun`] does not take on the way in, where one is given (with the tour's: 0.3 s
/// gives dm4 509, dm6 395 (its nailgun), e1m1 274; 0.45 507/431/276; 0.6 438/431/280).
/// The share is the half turn, not a running turn's square of it: a stand costs the
/// braking whichever way the run goes from it, and a bot come at e1m1's barrier jump at
/// (1148, 2420) at right angles took about 0.5 s braking onto its start, where the square
/// gave 0.11 (tours seeds 1-40 dm4/dm6/e1m1 507/434/299 -> 507/435/301, 41-80
/// 511/435/287 -> 511/436/293; 0.35 s the same, 0.55 loses dm4's, 468).
const RUN_REVERSAL_SECONDS: f32 = 0.45;

/// How far back from a run's start the way a runner brakes onto it is taken
/// ([`RUN_REVERSAL_SECONDS`]): the corridor often ends a few units short of the start with a
/// corner the bot does not turn (dm4's jump east to the lightning gun at (180, -68): 6 units
/// south-west after 108 south, which counted the stand as a 135° reversal where the bot
/// brakes going south, 0.39 s for 0.27; its tour legs took 0.90 of the prediction on every
/// seed). Tours seeds 1-20, legs within 10 %: dm4 233 -> 252 of 260 with 12-24 units (8: as
/// before; 32: 238, the grenade launcher's leg). dm6's super shotgun leg then showed a bot
/// losing a second that the old reversal's 0.38 s at (700, -1044) had covered: flying off
/// the side-sloped ramp at (580, -1053) onto the floor south of it and jumping back up,
/// which the movement stage's counter-steer on slopes ended. Both, seeds 1-40: dm4 468 ->
/// 505 of 520, dm6 438 -> 438 of 440, e1m1 343 -> 343 of 360.
const BRAKE_UNITS: f32 = 16.0;

/// Seconds a runner starting from a stand loses to getting up to speed (measured as
/// [`turn_seconds`] is).
pub const START_SECONDS: f32 = 0.03;

/// A route as a runner takes it, from `from` (moving at `velocity`) to `to` over
/// `reaches`: each run of floor walks is the shortest line through the borders they cross
/// (the movement stage cuts corners the same way, over the route's own floors), at
/// running speed, with the time a turn costs at each corner ([`turn_seconds`]; getting up
/// to speed from a stand, [`START_SECONDS`]); every other reachability takes its measured
/// time from its start to its end (from a stand; a jump or fall come at across its way
/// adds a stand on its start, [`RUN_REVERSAL_SECONDS`]; [`run_path_timed`] may be told how
/// the physics takes it on the run instead), and the straight run (or swim)
/// from where the last one ended to its start is added as the search adds it. Returns the
/// seconds, the path's points and the index of the one the last run (to `to`) starts from.
pub fn run_path(
    mesh: &NavMesh,
    from: Vec3,
    velocity: Vec3,
    to: Vec3,
    reaches: &[u32],
) -> (f32, Vec<Vec3>, usize) {
    run_path_timed(mesh, from, velocity, to, reaches, |_, t| t, None)
}

/// What a route's runner asks of the player physics (the area graph alone cannot tell): for a
/// jump or fall `r` come at by a runner at `from` ([`ON_THE_RUN_BACK`] or less short of its
/// start, along the way there) running at full speed along `heading`, the seconds from
/// `from` until it lands where it takes the run on its way in, without a stand on the start,
/// and its origin on each tick until then (the last where it lands: on the run, often
/// further along than the recorded end); `None` where it would not.
pub type OnTheRun<'a> = &'a dyn Fn(u32, Vec3, glam::Vec2) -> Option<(f32, Vec<Vec3>)>;

/// How far short of a run's start (units along the way there) the runner is put to ask
/// [`OnTheRun`]: about where a compiled bot starts trying a run on the run (it slows onto
/// the start from 80 units; a hair inside that, or rounding puts it beyond).
pub const ON_THE_RUN_BACK: f32 = 78.0;

/// The point `units` back along the polyline `points` from its last point (or its first,
/// where it is shorter), and the length back to it.
fn behind_on(points: &[Vec3], units: f32) -> (Vec3, f32) {
    let Some(&last) = points.last() else {
        return (Vec3::ZERO, 0.0);
    };
    let (mut p, mut len) = (last, 0.0);
    for &q in points.iter().rev().skip(1) {
        let d = (p - q).length();
        if len + d >= units {
            return (p + (q - p) * ((units - len) / d.max(1e-3)), units);
        }
        len += d;
        p = q;
    }
    (p, len)
}

/// A reachability's time for a runner on its way: its recorded time, but for a swim from
/// water to water, the swim across as [`cross`] times it (at swimming speed): the recorded
/// one starts from still water, and a chain of them across a pool counted that start in
/// each (e1m1's pools: a second and a half too many).
fn swum(mesh: &NavMesh, r: &Reach) -> f32 {
    let areas = mesh.areas();
    if r.kind == ReachKind::Swim
        && areas[r.from as usize].is_swim()
        && areas[r.to as usize].is_swim()
    {
        cross(mesh, r.from, r.start, r.end)
    } else {
        r.seconds
    }
}

/// [`run_path`] where a reachability may have to wait: `ready(r, t)` is the time (seconds
/// from the start) at which reachability `r`, got to at `t`, can be taken (a door it needs
/// opens then, or the lift it rides leaves then). A walk that waits ends the run before it
/// (the runner stands at its start until then). `on_the_run`: see [`OnTheRun`] ([`run_path`]
/// has none: the area graph alone cannot tell).
pub fn run_path_timed(
    mesh: &NavMesh,
    from: Vec3,
    velocity: Vec3,
    to: Vec3,
    reaches: &[u32],
    ready: impl Fn(u32, f32) -> f32,
    on_the_run: Option<OnTheRun>,
) -> (f32, Vec<Vec3>, usize) {
    let speed = PhysicsParams::default().max_speed;
    // The way the runner is going where the path goes on (`None`: standing), its length the
    // runner's speed as a share of full speed (1 but at the start, where a player may be
    // going faster: a turn from there costs the more, see [`turn_seconds`]).
    let mut heading =
        (velocity.truncate().length() > 0.25 * speed).then(|| velocity.truncate() / speed);
    let mut seconds = 0.0;
    // The run from `at` (in `area`) through the borders of `walks` to `q`.
    let run_to = |q: Vec3,
                  at: Vec3,
                  area: Option<u32>,
                  walks: &[u32],
                  path: &mut Vec<Vec3>,
                  heading: &mut Option<glam::Vec2>| {
        // A run taken on the run may land past the first walks after it: on from there.
        let from_area = |a: u32| {
            let reach = |w: &u32| &mesh.reaches()[*w as usize];
            match walks.iter().position(|w| reach(w).from == a) {
                Some(k) => &walks[k..],
                None => match walks.iter().position(|w| reach(w).to == a) {
                    Some(k) => &walks[k + 1..],
                    None => walks,
                },
            }
        };
        let walks = area.map_or(walks, from_area);
        let corners = if walks.is_empty() {
            vec![q]
        } else {
            corridor(mesh, at, walks, q)
        };
        let mut last = at;
        let mut t = 0.0;
        for c in corners {
            let leg = (c - last).truncate();
            if leg.length() > 1.0 {
                t += match *heading {
                    Some(h) => turn_seconds(h, leg) * h.length().max(1.0),
                    None => START_SECONDS,
                };
                *heading = Some(leg.normalize());
            }
            t += match (walks.is_empty(), area) {
                (true, Some(a)) => cross(mesh, a, last, c),
                _ => leg.length() / speed,
            };
            last = c;
            path.push(c);
        }
        t
    };
    let mut path = vec![from];
    let (mut at, mut area) = (from, mesh.area_at(from));
    let mut walks: Vec<u32> = Vec::new();
    // Where in `path` the run from `at` begins, and the last reachability's way.
    let (mut run_from, mut flight_from) = (0, 0);
    for &i in reaches {
        let r = &mesh.reaches()[i as usize];
        if floor_walk(mesh, r) {
            if !r.needs.is_empty() {
                // Through a door: on time (the run goes on through the border), or standing
                // at the walk's start until it opens.
                let (mut p, mut h) = (path.clone(), heading);
                let t = seconds + run_to(r.start, at, area, &walks, &mut p, &mut h);
                let open = ready(i, t);
                if open > t {
                    (seconds, path) = (open, p);
                    walks.clear();
                    (at, area) = (r.start, Some(r.from));
                    heading = None;
                    run_from = path.len() - 1;
                    flight_from = run_from;
                }
            }
            walks.push(i);
            continue;
        }
        let mut leg = run_to(r.start, at, area, &walks, &mut path, &mut heading);
        let mut took = swum(mesh, r);
        // The way a run taken on the run goes, tick by tick.
        let mut flight = Vec::new();
        if let (Some(h), Some(c)) = (heading, r.commands.first())
            && r.kind.played()
        {
            // The runner where it is up to `back` units short of the start (on this run's
            // way), going toward the start from there.
            // (Tried from 40 units too: the same on dm4 and dm6, e1m1 within 1 %.)
            let (back, back_len) = behind_on(&path[run_from..], ON_THE_RUN_BACK);
            let d = (r.start - back).truncate();
            let fitted = on_the_run.and_then(|f| f(i, back, if d.length() > 1.0 { d } else { h }));
            match fitted {
                Some((t, way)) if !way.is_empty() => {
                    took = (t - back_len / speed).max(0.0);
                    // From where it passes the start (the run in to it is in the path).
                    let past = way
                        .iter()
                        .position(|p| (*p - r.start).truncate().dot(d) >= 0.0)
                        .unwrap_or(way.len() - 1);
                    flight = way[past..].to_vec();
                }
                _ => {
                    // Come at a run recorded from a stand across its way: a stand on its
                    // start, braked along the way the runner comes at it over the last
                    // [`BRAKE_UNITS`] (not the last corner's: see there).
                    let way = glam::Vec2::from_angle(c.cmd.yaw.to_radians());
                    let (near, _) = behind_on(&path[run_from..], BRAKE_UNITS);
                    let into = match (r.start - near).truncate() {
                        n if n.length() > 1.0 => n,
                        _ => h,
                    };
                    leg += RUN_REVERSAL_SECONDS * half_turn(into, way);
                }
            }
        }
        let open = ready(i, seconds + leg);
        if open > seconds + leg {
            seconds = open + took;
        } else {
            seconds += leg + took;
        }
        walks.clear();
        // (A run's way is in the path for where the runner first touches an item.)
        flight_from = path.len();
        if let Some(&landed) = flight.last() {
            path.extend_from_slice(&flight[..flight.len() - 1]);
            (at, area) = (landed, mesh.area_at(landed).or(Some(r.to)));
        } else {
            (at, area) = (r.end, Some(r.to));
        }
        path.push(at);
        run_from = path.len() - 1;
        // Where a run or a ride comes down the runner is going its way; a teleporter sends
        // it the destination's way, which the reachability does not record.
        heading = (r.kind != ReachKind::Teleport).then(|| {
            match path.len() - flight_from {
                n if n >= 2 => (path[path.len() - 1] - path[path.len() - 2]).truncate(),
                _ => (r.end - r.start).truncate(),
            }
            .normalize_or_zero()
        });
    }
    let last_run = flight_from;
    seconds += run_to(to, at, area, &walks, &mut path, &mut heading);
    (seconds, path, last_run)
}

/// The best first step from `from` (in area `area`) given `time_after(r)`: the time from
/// reachability `r`'s end to the goal. `direct`: the time when no reachability is taken.
fn best_first(
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

/// How cache requests went.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct CacheStats {
    /// Served from a cache held.
    pub hits: u64,
    /// Built.
    pub builds: u64,
    /// Brought up to date with obstacles by repair.
    pub repairs: u64,
    /// Evicted to stay under the memory cap.
    pub evictions: u64,
}

/// Caches per (goal area, travel), least recently used evicted above a memory cap.
#[derive(Clone, Debug)]
pub struct AreaCaches {
    caches: BTreeMap<(u32, Travel), (AreaCache, u64)>,
    clock: u64,
    /// Memory cap, bytes.
    pub cap_bytes: usize,
    /// Counters.
    pub stats: CacheStats,
}

impl AreaCaches {
    /// Empty, with a memory cap.
    pub fn new(cap_bytes: usize) -> AreaCaches {
        AreaCaches {
            caches: BTreeMap::new(),
            clock: 0,
            cap_bytes,
            stats: CacheStats::default(),
        }
    }

    /// Number held.
    pub fn len(&self) -> usize {
        self.caches.len()
    }

    /// True when none is held.
    pub fn is_empty(&self) -> bool {
        self.caches.is_empty()
    }

    /// Memory held, bytes.
    pub fn bytes(&self) -> usize {
        self.caches.values().map(|c| c.0.bytes()).sum()
    }

    /// The cache for `goal` under `travel`, built on first use and repaired (not rebuilt)
    /// when `blocked` has changed since.
    pub fn get(
        &mut self,
        mesh: &NavMesh,
        goal: u32,
        travel: Travel,
        blocked: Option<&Blocked>,
    ) -> &AreaCache {
        self.clock += 1;
        let key = (goal, travel);
        match self.caches.get_mut(&key) {
            Some((c, used)) => {
                *used = self.clock;
                match blocked {
                    Some(b) if b.revision != c.revision => {
                        repair(mesh, c, b);
                        self.stats.repairs += 1;
                    }
                    _ => self.stats.hits += 1,
                }
            }
            None => {
                let c = build_cache_blocked(mesh, goal, travel, blocked);
                self.stats.builds += 1;
                self.caches.insert(key, (c, self.clock));
            }
        }
        // Stay under the cap, oldest first, never evicting the one just asked for.
        self.stats.evictions +=
            crate::nav::routing::evict_lru(&mut self.caches, key, self.cap_bytes, AreaCache::bytes);
        &self.caches[&key].0
    }
}

/// The areas cut into clusters: connected groups of at most `size` areas, grown breadth
/// first over the reachabilities (either way) from the lowest unassigned area. The
/// reachabilities between clusters are the portals.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Clusters {
    /// Cluster of each area.
    pub of_area: Vec<u32>,
    /// Number of clusters.
    pub count: u32,
    /// Reachabilities whose ends lie in different clusters (indices), ascending.
    pub portals: Vec<u32>,
    /// Per cluster: the portals leaving it (indices).
    pub exits: Vec<Vec<u32>>,
    /// Per cluster: the reachabilities ending in it (indices), ascending.
    pub into: Vec<Vec<u32>>,
    /// Per cluster: the portals entering it, as (position in `into`, position in
    /// `portals`).
    pub entries: Vec<Vec<(u32, u32)>>,
    /// Per reachability: its position in `into` of the cluster it ends in.
    pub slot: Vec<u32>,
}

impl Clusters {
    /// Cuts `mesh`'s areas into clusters of at most `size` areas.
    pub fn build(mesh: &NavMesh, size: usize) -> Clusters {
        let n = mesh.areas().len();
        let size = size.max(1);
        let mut of_area = vec![u32::MAX; n];
        let mut count = 0u32;
        for seed in 0..n {
            if of_area[seed] != u32::MAX {
                continue;
            }
            let mut members = 1usize;
            of_area[seed] = count;
            let mut queue = VecDeque::from([seed as u32]);
            while let Some(a) = queue.pop_front() {
                for b in mesh.neighbours(a) {
                    if members >= size {
                        break;
                    }
                    if of_area[b as usize] == u32::MAX {
                        of_area[b as usize] = count;
                        members += 1;
                        queue.push_back(b);
                    }
                }
            }
            count += 1;
        }
        Clusters::from_assignment(mesh, of_area, count)
    }

    /// Clusters given each area's (`of_area`, all below `count`).
    fn from_assignment(mesh: &NavMesh, of_area: Vec<u32>, count: u32) -> Clusters {
        let mut portals = Vec::new();
        let mut exits = vec![Vec::new(); count as usize];
        let mut into = vec![Vec::new(); count as usize];
        let mut entries = vec![Vec::new(); count as usize];
        let mut slot = Vec::with_capacity(mesh.reaches().len());
        for (i, r) in mesh.reaches().iter().enumerate() {
            let (cf, ct) = (of_area[r.from as usize], of_area[r.to as usize]);
            if cf != ct {
                entries[ct as usize].push((into[ct as usize].len() as u32, portals.len() as u32));
                portals.push(i as u32);
                exits[cf as usize].push(i as u32);
            }
            slot.push(into[ct as usize].len() as u32);
            into[ct as usize].push(i as u32);
        }
        Clusters {
            of_area,
            count,
            portals,
            exits,
            into,
            entries,
            slot,
        }
    }

    /// Cuts `mesh`'s areas by square tiles `tile` units on a side (an area belongs to the
    /// tile of its centre), each tile's areas split further into the groups its own
    /// reachabilities connect (separate floors stay separate clusters).
    pub fn tiles(mesh: &NavMesh, tile: f32) -> Clusters {
        let n = mesh.areas().len();
        let key = |a: u32| {
            let c = mesh.areas()[a as usize].center;
            ((c.x / tile).floor() as i32, (c.y / tile).floor() as i32)
        };
        let mut of_area = vec![u32::MAX; n];
        let mut count = 0u32;
        for seed in 0..n as u32 {
            if of_area[seed as usize] != u32::MAX {
                continue;
            }
            let k = key(seed);
            of_area[seed as usize] = count;
            let mut queue = VecDeque::from([seed]);
            while let Some(a) = queue.pop_front() {
                for b in mesh.neighbours(a) {
                    if of_area[b as usize] == u32::MAX && key(b) == k {
                        of_area[b as usize] = count;
                        queue.push_back(b);
                    }
                }
            }
            count += 1;
        }
        Clusters::from_assignment(mesh, of_area, count)
    }
}

/// Inside the cluster of the reachabilities' ends, the times from each reachability ending
/// there to the cluster's exit `exit` (its start, plus its own time) without leaving the
/// cluster, or to the goal area's centre when `exit` is `None` (goal: the area). Indexed by
/// position in `clusters.into[cluster]`.
fn inside(
    mesh: &NavMesh,
    clusters: &Clusters,
    cluster: u32,
    target: Result<u32, u32>,
    travel: Travel,
) -> (Vec<f32>, Vec<u32>) {
    let list = &clusters.into[cluster as usize];
    let slot = |i: u32| clusters.slot[i as usize] as usize;
    let mut time = vec![f32::INFINITY; list.len()];
    let mut next = vec![NONE; list.len()];
    let reaches = mesh.reaches();
    let mut queue = VecDeque::new();
    let mut queued = vec![false; list.len()];
    // Seeds: reachabilities ending where the target is.
    let (area, point, extra, via) = match target {
        Ok(exit) => {
            let q = &reaches[exit as usize];
            (q.from, q.start, q.seconds, exit)
        }
        Err(goal) => (goal, mesh.areas()[goal as usize].center, 0.0, NONE),
    };
    for &j in mesh.reach_ids_to(area) {
        let p = &reaches[j as usize];
        if !travel.permits(mesh, p) {
            continue;
        }
        let k = slot(j);
        time[k] = cross(mesh, area, p.end, point) + extra;
        next[k] = via;
        queued[k] = true;
        queue.push_back(j);
    }
    while let Some(i) = queue.pop_front() {
        let k = slot(i);
        queued[k] = false;
        let r = &reaches[i as usize];
        // An entry into the cluster: what came before it lies outside.
        if clusters.of_area[r.from as usize] != cluster {
            continue;
        }
        let after = time[k] + r.seconds;
        for &j in mesh.reach_ids_to(r.from) {
            let p = &reaches[j as usize];
            if !travel.permits(mesh, p) {
                continue;
            }
            let kj = slot(j);
            let d = after + cross(mesh, r.from, p.end, r.start);
            if d < time[kj] {
                time[kj] = d;
                next[kj] = i;
                if !queued[kj] {
                    queued[kj] = true;
                    queue.push_back(j);
                }
            }
        }
    }
    (time, next)
}

/// Per cluster and exit, the times inside the cluster to that exit, for one travel.
#[derive(Clone, Debug)]
struct ExitTables {
    /// Per cluster, per exit (in `clusters.exits` order): times and next reachabilities by
    /// position in `clusters.into[cluster]`.
    tables: Vec<Vec<(Vec<f32>, Vec<u32>)>>,
}

/// A goal's answer on the hierarchy: the time from the end of every reachability that
/// ends in the goal's cluster (inside it) and from the end of every portal (anywhere).
#[derive(Clone, Debug)]
pub struct HierCache {
    /// The goal area.
    pub goal: u32,
    /// What routes may use.
    pub travel: Travel,
    local: (Vec<f32>, Vec<u32>),
    /// Per portal (by position in `clusters.portals`): seconds from its end to the goal.
    portal_time: Vec<f32>,
}

/// Routing over [`Clusters`]: exit tables per travel, built on first use.
#[derive(Clone, Debug)]
pub struct HierRouter {
    /// The clusters.
    pub clusters: Clusters,
    exit_tables: BTreeMap<Travel, ExitTables>,
}

/// A float ordered for a min-heap, ties by id.
#[derive(PartialEq)]
struct Min(f32, u32);
impl Eq for Min {}
impl PartialOrd for Min {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Min {
    fn cmp(&self, o: &Self) -> Ordering {
        o.0.total_cmp(&self.0).then(o.1.cmp(&self.1))
    }
}

impl HierRouter {
    /// Over `mesh`'s default clusters: [`Clusters::tiles`] of [`DEFAULT_TILE`] units
    /// (measured on dm4 and e1m3 against breadth-first clusters and other tile sizes: the
    /// fewest portals and the cheapest goal searches).
    pub fn for_mesh(mesh: &NavMesh) -> HierRouter {
        HierRouter::with(Clusters::tiles(mesh, DEFAULT_TILE))
    }

    /// Clusters of at most `size` areas over `mesh`, grown breadth first.
    pub fn new(mesh: &NavMesh, size: usize) -> HierRouter {
        HierRouter::with(Clusters::build(mesh, size))
    }

    /// Over the given clusters.
    pub fn with(clusters: Clusters) -> HierRouter {
        HierRouter {
            clusters,
            exit_tables: BTreeMap::new(),
        }
    }

    fn tables(&mut self, mesh: &NavMesh, travel: Travel) -> &ExitTables {
        let clusters = &self.clusters;
        self.exit_tables
            .entry(travel)
            .or_insert_with(|| ExitTables {
                tables: (0..clusters.count)
                    .map(|c| {
                        clusters.exits[c as usize]
                            .iter()
                            .map(|&q| inside(mesh, clusters, c, Ok(q), travel))
                            .collect()
                    })
                    .collect(),
            })
    }

    /// The goal's search: inside its cluster, then over the portals (Dijkstra, backwards
    /// from the portals entering the goal's cluster).
    pub fn goal(&mut self, mesh: &NavMesh, goal: u32, travel: Travel) -> HierCache {
        self.tables(mesh, travel);
        let tables = &self.exit_tables[&travel];
        let cl = &self.clusters;
        let cg = cl.of_area[goal as usize];
        let local = inside(mesh, cl, cg, Err(goal), travel);
        let reaches = mesh.reaches();
        let mut portal_time = vec![f32::INFINITY; cl.portals.len()];
        let mut heap = BinaryHeap::new();
        for &(k, p) in &cl.entries[cg as usize] {
            let t = local.0[k as usize];
            if t < portal_time[p as usize] {
                portal_time[p as usize] = t;
                heap.push(Min(t, p));
            }
        }
        while let Some(Min(t, p)) = heap.pop() {
            if t > portal_time[p as usize] {
                continue;
            }
            // Portal q = cl.portals[p] leaves cluster c: every reachability ending in c that
            // is a portal (an entry) reaches q's start inside c.
            let q = cl.portals[p as usize];
            let c = cl.of_area[reaches[q as usize].from as usize];
            let e = cl.exits[c as usize]
                .binary_search(&q)
                .expect("a portal is an exit of its cluster");
            let (times, _) = &tables.tables[c as usize][e];
            for &(k, pi) in &cl.entries[c as usize] {
                let d = times[k as usize] + t;
                if d < portal_time[pi as usize] {
                    portal_time[pi as usize] = d;
                    heap.push(Min(d, pi));
                }
            }
        }
        HierCache {
            goal,
            travel,
            local,
            portal_time,
        }
    }

    /// Seconds from the end of reachability `r` to the goal, from the hierarchy's tables
    /// (`INFINITY`: no route from there).
    pub fn time_after(&self, mesh: &NavMesh, hc: &HierCache, r: u32) -> f32 {
        let cl = &self.clusters;
        let c = cl.of_area[mesh.reaches()[r as usize].to as usize];
        let k = cl.slot[r as usize] as usize;
        let mut best = if c == cl.of_area[hc.goal as usize] {
            hc.local.0[k]
        } else {
            f32::INFINITY
        };
        let tables = &self.exit_tables[&hc.travel].tables[c as usize];
        for (e, &q) in cl.exits[c as usize].iter().enumerate() {
            let Ok(p) = cl.portals.binary_search(&q) else {
                continue;
            };
            best = best.min(tables[e].0[k] + hc.portal_time[p]);
        }
        best
    }

    /// Seconds from point `from` to the goal area's centre, and the first reachability to
    /// take (`None` inside the goal area when walking straight there is quickest).
    pub fn seconds_from(
        &self,
        mesh: &NavMesh,
        hc: &HierCache,
        from: Vec3,
    ) -> Option<(f32, Option<u32>)> {
        let a = mesh.area_at(from)?;
        let g = &mesh.areas()[hc.goal as usize];
        let direct = (a == hc.goal).then(|| cross(mesh, a, from, g.center));
        best_first(mesh, a, from, hc.travel, direct, |i| {
            self.time_after(mesh, hc, i)
        })
    }
}

/// Seconds from point `from` to the goal area's centre over a flat cache (as
/// [`HierRouter::seconds_from`] answers on the hierarchy).
pub fn seconds_from(mesh: &NavMesh, cache: &AreaCache, from: Vec3) -> Option<(f32, Option<u32>)> {
    let a = mesh.area_at(from)?;
    let g = &mesh.areas()[cache.goal as usize];
    let direct = (a == cache.goal).then(|| cross(mesh, a, from, g.center));
    best_first(mesh, a, from, cache.travel, direct, |i| {
        cache.time[i as usize]
    })
}
