//! Routing caches (reference 000 §9.3, with the per-goal, per-travel-flag caches of reference
//! 001): for a goal, the distance to the goal from every waypoint and the first waypoint to go
//! to, computed once by the reference's cache update algorithm and kept.
//!
//! The algorithm: start at the waypoint nearest the goal (from which the goal is reachable)
//! with its distance to the goal; keep a FIFO sequence; take waypoints from the front; for
//! each reversed link (a waypoint one can come from) the distance through it is the taken
//! waypoint's distance plus the link's cost; store it when it is the first or a shorter one,
//! and append that waypoint to the sequence unless it is already in it. When the sequence is
//! empty every waypoint has its shortest distance.
//!
//! A link's cost is its distance times its terrain weight, plus a ledge penalty for falls;
//! links whose travel type the bot may not use are skipped. [`RouteCaches`] keeps caches per
//! (goal, travel flags) under a memory cap, evicting the least recently used, and brings a
//! cache up to date with exactly the graph changes that affect it (a new or cheaper link that
//! shortens a route is relaxed from there; a link blocked by an obstacle that a route uses
//! rebuilds the cache; everything else leaves it as it is).
//!
//! Entry points: [`build_cache`], [`RouteCaches::get`], [`TravelFlags`].

use crate::nav::lru::Lru;
use std::collections::VecDeque;

use serde::Serialize;

use super::waypoints::{Change, Link, Travel, WaypointGraph};

/// The travel types a bot may use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct TravelFlags(pub u8);

impl TravelFlags {
    /// Every travel type.
    pub const ALL: TravelFlags = TravelFlags(0b11_1111);

    fn bit(t: Travel) -> u8 {
        1 << (t as u8)
    }

    /// Whether `t` is allowed.
    pub fn allows(self, t: Travel) -> bool {
        self.0 & Self::bit(t) != 0
    }

    /// Only the listed types.
    pub fn only(types: &[Travel]) -> TravelFlags {
        TravelFlags(types.iter().fold(0, |a, t| a | Self::bit(*t)))
    }

    /// All but `t`.
    pub fn without(self, t: Travel) -> TravelFlags {
        TravelFlags(self.0 & !Self::bit(t))
    }

    /// Parses `walk,jump,fall,swim,teleport,elevator` (or `all`).
    pub fn parse(s: &str) -> Result<TravelFlags, String> {
        if s.trim() == "all" {
            return Ok(TravelFlags::ALL);
        }
        let mut f = 0;
        for name in s.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            let t = Travel::ALL
                .iter()
                .find(|t| format!("{t:?}").eq_ignore_ascii_case(name))
                .ok_or_else(|| format!("unknown travel type {name:?} (walk, jump, fall, swim, teleport, elevator or all)"))?;
            f |= Self::bit(*t);
        }
        Ok(TravelFlags(f))
    }
}

/// Costs beyond a link's distance.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct RouteParams {
    /// Added to every fall (reference 001's ledge penalty: a drop cannot be walked back).
    pub ledge_penalty: f32,
}

impl Default for RouteParams {
    fn default() -> Self {
        RouteParams {
            ledge_penalty: 32.0,
        }
    }
}

/// Cost of travelling a link, `None` when the flags forbid it or an obstacle blocks it.
pub fn link_cost(l: &Link, flags: TravelFlags, p: &RouteParams) -> Option<f32> {
    if !flags.allows(l.travel) || l.blocked > 0 {
        return None;
    }
    let penalty = if l.travel == Travel::Fall {
        p.ledge_penalty
    } else {
        0.0
    };
    Some(l.distance * l.weight + penalty)
}

/// Distances to one goal from every waypoint.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RouteCache {
    /// The waypoint nearest the goal that reaches it.
    pub goal: u32,
    /// Its distance to the goal.
    pub goal_distance: f32,
    /// Travel types used.
    pub flags: TravelFlags,
    /// Distance to the goal per waypoint (`f32::INFINITY`: no route).
    pub dist: Vec<f32>,
    /// The waypoint to go to next, per waypoint (`None` at the goal or with no route).
    pub next: Vec<Option<u32>>,
    /// The graph revision it is up to date with.
    pub revision: u64,
}

impl RouteCache {
    /// Distance from waypoint `w` to the goal.
    pub fn distance(&self, w: u32) -> Option<f32> {
        self.dist.get(w as usize).copied().filter(|d| d.is_finite())
    }

    /// The waypoints from `w` to the goal (both included), empty with no route.
    pub fn path(&self, w: u32) -> Vec<u32> {
        if self.distance(w).is_none() {
            return Vec::new();
        }
        let mut out = vec![w];
        let mut at = w;
        while let Some(n) = self.next.get(at as usize).copied().flatten() {
            out.push(n);
            at = n;
            if out.len() > self.dist.len() {
                break; // cannot happen with positive costs; never loop forever
            }
        }
        out
    }

    /// Memory it takes, bytes.
    pub fn bytes(&self) -> usize {
        std::mem::size_of::<RouteCache>() + self.dist.len() * (4 + 8)
    }

    /// Relaxes from the waypoints in `queue` until nothing shortens (the reference's loop).
    fn relax(&mut self, graph: &WaypointGraph, queue: VecDeque<u32>, p: &RouteParams) {
        if queue.is_empty() {
            return; // most repairs: nothing got shorter (and no flags to allocate)
        }
        QUEUED.with(|q| self.relax_with(graph, queue, p, &mut q.borrow_mut()));
    }

    /// [`RouteCache::relax`] with `queued`, all false, as the scratch of which waypoints
    /// are in the queue (left all false: each is cleared as it leaves the queue).
    fn relax_with(
        &mut self,
        graph: &WaypointGraph,
        mut queue: VecDeque<u32>,
        p: &RouteParams,
        queued: &mut Vec<bool>,
    ) {
        if queued.len() < self.dist.len() {
            queued.resize(self.dist.len(), false);
        }
        for &q in &queue {
            queued[q as usize] = true;
        }
        while let Some(v) = queue.pop_front() {
            queued[v as usize] = false;
            let dv = self.dist[v as usize];
            let Some(wp) = graph.get(v) else { continue };
            for l in &wp.links {
                let Some(c) = link_cost(l, self.flags, p) else {
                    continue;
                };
                let w = l.from as usize;
                let d = dv + c;
                if d < self.dist[w] {
                    self.dist[w] = d;
                    self.next[w] = Some(v);
                    if !queued[w] {
                        queued[w] = true;
                        queue.push_back(l.from);
                    }
                }
            }
        }
    }
}

thread_local! {
    /// [`RouteCache::relax`]'s scratch, one flag per waypoint (kept all false between uses:
    /// a graph of thousands would otherwise allocate and clear as many on every repair).
    static QUEUED: std::cell::RefCell<Vec<bool>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Runs the cache update algorithm for `goal` (whose distance to the actual goal point is
/// `goal_distance`) over the links `flags` allow.
pub fn build_cache(
    graph: &WaypointGraph,
    goal: u32,
    goal_distance: f32,
    flags: TravelFlags,
    p: &RouteParams,
) -> RouteCache {
    let n = graph.len();
    let mut c = RouteCache {
        goal,
        goal_distance,
        flags,
        dist: vec![f32::INFINITY; n],
        next: vec![None; n],
        revision: graph.revision,
    };
    if (goal as usize) < n {
        c.dist[goal as usize] = goal_distance;
        c.relax(graph, VecDeque::from([goal]), p);
    }
    c
}

/// How a cache request went.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct CacheStats {
    /// Served from a cache already up to date.
    pub hits: u64,
    /// Built from scratch (first use, or a route it held was blocked).
    pub builds: u64,
    /// Brought up to date by relaxing from changed links.
    pub repairs: u64,
    /// Evicted to stay under the memory cap.
    pub evictions: u64,
}

/// Caches per (goal waypoint, travel flags), least recently used evicted above a memory cap.
#[derive(Clone, Debug)]
pub struct RouteCaches {
    caches: Lru<(u32, TravelFlags), RouteCache>,
    /// What the caches hold, bytes (their sizes summed, kept as they change).
    held: usize,
    /// Memory cap, bytes.
    pub cap_bytes: usize,
    /// Costs.
    pub params: RouteParams,
    /// Counters.
    pub stats: CacheStats,
}

impl RouteCaches {
    /// Empty caches with a memory cap.
    pub fn new(cap_bytes: usize, params: RouteParams) -> RouteCaches {
        RouteCaches {
            caches: Lru::new(),
            held: 0,
            cap_bytes,
            params,
            stats: CacheStats::default(),
        }
    }

    /// Number of caches held.
    pub fn len(&self) -> usize {
        self.caches.len()
    }

    /// True when none is held.
    pub fn is_empty(&self) -> bool {
        self.caches.is_empty()
    }

    /// Memory held, bytes.
    pub fn bytes(&self) -> usize {
        self.held
    }

    /// Whether a cache for (goal, flags) is held.
    pub fn holds(&self, goal: u32, flags: TravelFlags) -> bool {
        self.caches.contains(&(goal, flags))
    }

    /// The cache for `goal` under `flags`, built on first use and brought up to date with
    /// the graph's changes since it was last used.
    pub fn get(&mut self, graph: &WaypointGraph, goal: u32, flags: TravelFlags) -> &RouteCache {
        let key = (goal, flags);
        let p = self.params;
        let hit = match self.caches.get_mut(&key) {
            Some(c) => {
                if c.revision == graph.revision {
                    self.stats.hits += 1;
                    true
                } else {
                    let before = c.bytes();
                    if update(c, graph, &p) {
                        self.stats.builds += 1;
                    } else {
                        self.stats.repairs += 1;
                    }
                    self.held = self.held - before + c.bytes();
                    false
                }
            }
            None => {
                let c = build_cache(graph, goal, 0.0, flags, &p);
                self.stats.builds += 1;
                self.held += c.bytes();
                self.caches.insert(key, c);
                false
            }
        };
        // Only a build or a repair changes a size; the caches are within the cap as the
        // last eviction left them, so below it there is nothing to evict (summing every
        // cache's size on each repair cost more than the repair with hundreds held).
        if !hit && self.held > self.cap_bytes {
            self.stats.evictions +=
                self.caches
                    .evict_to_bytes(key, self.cap_bytes, RouteCache::bytes);
            self.held = self.caches.values().map(RouteCache::bytes).sum();
        }
        self.caches.peek(&key).expect("held: just asked for")
    }

    /// The cache of `goal` under `flags` if it is held and up to date with `graph`, without
    /// counting it as used (for readers sharing the caches, after [`RouteCaches::get`]).
    pub fn peek(
        &self,
        graph: &WaypointGraph,
        goal: u32,
        flags: TravelFlags,
    ) -> Option<&RouteCache> {
        self.caches
            .peek(&(goal, flags))
            .filter(|c| c.revision == graph.revision)
    }
}

/// Replays the graph's changes since the cache's revision: new waypoints extend it, a new or
/// cheaper link that shortens a route is relaxed from there; other changes leave it alone.
/// Returns whether the cache had to be rebuilt.
fn update(c: &mut RouteCache, graph: &WaypointGraph, p: &RouteParams) -> bool {
    let mut queue = VecDeque::new();
    // A blocked link the cache's routes use: rebuild (the affected routes may go anywhere).
    let broken = graph.changes_since(c.revision).iter().any(|ch| {
        matches!(*ch, Change::Blocked { from, to } if c.next.get(from as usize).copied().flatten() == Some(to))
    });
    if broken {
        *c = build_cache(graph, c.goal, c.goal_distance, c.flags, p);
        return true;
    }
    for ch in graph.changes_since(c.revision) {
        match *ch {
            Change::Blocked { .. } => {}
            Change::Waypoint(n) => {
                let need = n as usize + 1;
                if c.dist.len() < need {
                    c.dist.resize(need, f32::INFINITY);
                    c.next.resize(need, None);
                }
            }
            Change::Link { from, to } => {
                let (Some(dt), Some(w)) = (c.dist.get(to as usize).copied(), graph.get(to)) else {
                    continue;
                };
                // No link costs less than nothing (the graph takes none that would, and the
                // ledge penalty is not negative): a route through `to` that is already no
                // shorter than `from`'s needs no look at the links.
                if p.ledge_penalty >= 0.0 && c.dist.get(from as usize).is_some_and(|&df| dt >= df) {
                    continue;
                }
                let best = w
                    .links
                    .iter()
                    .filter(|l| l.from == from)
                    .filter_map(|l| link_cost(l, c.flags, p))
                    .min_by(f32::total_cmp);
                let Some(cost) = best else { continue };
                if (from as usize) < c.dist.len() && dt + cost < c.dist[from as usize] {
                    c.dist[from as usize] = dt + cost;
                    c.next[from as usize] = Some(to);
                    queue.push_back(from);
                }
            }
        }
    }
    if c.dist.len() < graph.len() {
        c.dist.resize(graph.len(), f32::INFINITY);
        c.next.resize(graph.len(), None);
    }
    c.relax(graph, queue, p);
    c.revision = graph.revision;
    false
}

/// A route question named a waypoint the graph does not have.
#[derive(Debug, thiserror::Error, PartialEq)]
#[error("waypoint {waypoint} does not exist (the graph has {count})")]
pub struct NoSuchWaypoint {
    /// Whether it was the start (else the goal).
    pub start: bool,
    /// The number asked.
    pub waypoint: u32,
    /// Waypoints in the graph.
    pub count: usize,
}

/// The answer to `botarena route`: every waypoint's distance to a goal waypoint and its next
/// hop (the reference's cache update algorithm), and the path from a start waypoint.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RouteAnswer {
    /// The goal waypoint.
    pub goal: u32,
    /// The start waypoint, if one was asked.
    pub from: Option<u32>,
    /// Every waypoint's distance to the goal (`None`: no route).
    pub distances: Vec<Option<f32>>,
    /// Every waypoint's next hop toward the goal.
    pub next: Vec<Option<u32>>,
    /// The waypoints from the start to the goal (empty: no route).
    pub path: Option<Vec<u32>>,
    /// The start's distance to the goal.
    pub path_distance: Option<f32>,
    /// Where the question was asked between points: their distances to the start and goal
    /// waypoints.
    #[serde(skip)]
    pub ends: Option<(f32, f32)>,
}

impl RouteAnswer {
    /// Routes over `graph` toward waypoint `goal` with `flags`, from waypoint `from` when
    /// given. `points`: the start and goal points the waypoints were found for, to add the
    /// straight ends.
    pub fn new(
        graph: &WaypointGraph,
        goal: u32,
        from: Option<u32>,
        flags: TravelFlags,
        points: Option<(glam::Vec3, glam::Vec3)>,
    ) -> Result<RouteAnswer, NoSuchWaypoint> {
        let count = graph.len();
        for (start, w) in [(false, Some(goal)), (true, from)] {
            if let Some(w) = w
                && w as usize >= count
            {
                return Err(NoSuchWaypoint {
                    start,
                    waypoint: w,
                    count,
                });
            }
        }
        let cache = build_cache(graph, goal, 0.0, flags, &RouteParams::default());
        let ends = match (from, points) {
            (Some(f), Some((fp, tp))) => Some((
                fp.distance(graph.get(f).expect("checked").origin),
                tp.distance(graph.get(goal).expect("checked").origin),
            )),
            _ => None,
        };
        Ok(RouteAnswer {
            goal,
            from,
            distances: (0..count as u32).map(|w| cache.distance(w)).collect(),
            next: cache.next.clone(),
            path: from.map(|f| cache.path(f)),
            path_distance: from.and_then(|f| cache.distance(f)),
            ends,
        })
    }

    /// The answer as JSON, naming the map.
    pub fn to_json(&self, map: &str) -> serde_json::Value {
        serde_json::json!({
            "map": map,
            "goal": self.goal,
            "distances": self.distances,
            "next": self.next,
            "from": self.from,
            "path": self.path,
            "path_distance": self.path_distance,
        })
    }

    /// The answer as text: a line per waypoint, then the path and, between points, the
    /// whole way with its straight ends.
    pub fn to_text(&self, map: &str) -> String {
        use std::fmt::Write as _;
        let goal = self.goal;
        let mut s = String::new();
        let _ = writeln!(s, "map {map} — distances to waypoint {goal}");
        let _ = writeln!(s, "{:>8} {:>10} {:>6}", "waypoint", "distance", "next");
        for (w, d) in self.distances.iter().enumerate() {
            let _ = match d {
                Some(d) => writeln!(
                    s,
                    "{w:>8} {d:>10.1} {:>6}",
                    self.next[w]
                        .map(|x| x.to_string())
                        .unwrap_or_else(|| "-".into())
                ),
                None => writeln!(s, "{w:>8} {:>10} {:>6}", "no route", "-"),
            };
        }
        if let (Some(f), Some(p)) = (self.from, &self.path) {
            if p.is_empty() {
                let _ = writeln!(s, "no route from {f} to {goal}");
            } else {
                let ids: Vec<String> = p.iter().map(|x| x.to_string()).collect();
                let along = self.path_distance.unwrap_or(0.0);
                let _ = writeln!(
                    s,
                    "path {f} -> {goal}: {} ({along:.1} units)",
                    ids.join(" ")
                );
                if let Some((a, b)) = self.ends {
                    let _ = writeln!(
                        s,
                        "points: {a:.1} to waypoint {f}, {along:.1} along the route, {b:.1} from waypoint {goal}: {:.1} in all",
                        a + along + b
                    );
                }
            }
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nav::waypoints::WaypointKind;
    use glam::Vec3;

    /// The reference's worked example: waypoints 1..6 (0 unused), reversed links with
    /// distances, the goal 5 units from waypoint 1.
    fn example() -> WaypointGraph {
        let mut g = WaypointGraph::new();
        for i in 0..7 {
            g.add(Vec3::new(i as f32, 0.0, 0.0), WaypointKind::Normal);
        }
        // (to, from, distance): a link on `to` naming `from`.
        for (to, from, d) in [
            (1, 2, 7.0),
            (1, 4, 8.0),
            (2, 1, 7.0),
            (2, 3, 14.0),
            (2, 4, 18.0),
            (3, 2, 14.0),
            (3, 4, 12.0),
            (4, 3, 12.0),
            (4, 5, 16.0),
            (5, 4, 16.0),
            (5, 6, 15.0),
            (6, 5, 15.0),
        ] {
            g.link(from, to, d, Travel::Walk, 1.0);
        }
        g
    }

    #[test]
    fn the_reference_worked_example() {
        let g = example();
        let c = build_cache(&g, 1, 5.0, TravelFlags::ALL, &RouteParams::default());
        assert_eq!(&c.dist[1..], &[5.0, 12.0, 25.0, 13.0, 29.0, 44.0]);
        assert_eq!(c.dist[0], f32::INFINITY);
        assert_eq!(c.path(6), vec![6, 5, 4, 1]);
        assert_eq!(c.path(3), vec![3, 4, 1]);
        assert!(c.path(0).is_empty());
    }

    #[test]
    fn flags_skip_forbidden_links_and_falls_pay_the_ledge_penalty() {
        let mut g = WaypointGraph::new();
        for i in 0..3 {
            g.add(Vec3::new(i as f32, 0.0, 0.0), WaypointKind::Normal);
        }
        g.link(1, 0, 10.0, Travel::Swim, 1.0);
        g.link(2, 0, 10.0, Travel::Fall, 2.0);
        let p = RouteParams::default();
        let c = build_cache(&g, 0, 0.0, TravelFlags::ALL, &p);
        assert_eq!(c.dist, vec![0.0, 10.0, 20.0 + p.ledge_penalty]);
        let c = build_cache(&g, 0, 0.0, TravelFlags::ALL.without(Travel::Swim), &p);
        assert_eq!(c.dist[1], f32::INFINITY);
        assert_eq!(
            TravelFlags::parse("walk, jump").unwrap(),
            TravelFlags::only(&[Travel::Walk, Travel::Jump])
        );
        assert!(TravelFlags::parse("fly").is_err());
    }

    #[test]
    fn caches_are_kept_evicted_oldest_first_and_repaired() {
        let mut g = example();
        let one = build_cache(&g, 1, 0.0, TravelFlags::ALL, &RouteParams::default()).bytes();
        let mut rc = RouteCaches::new(2 * one, RouteParams::default());
        rc.get(&g, 1, TravelFlags::ALL);
        rc.get(&g, 2, TravelFlags::ALL);
        rc.get(&g, 1, TravelFlags::ALL);
        assert_eq!(
            rc.stats,
            CacheStats {
                hits: 1,
                builds: 2,
                repairs: 0,
                evictions: 0
            }
        );
        rc.get(&g, 3, TravelFlags::ALL); // over the cap: goal 2 is the least recently used
        assert_eq!(rc.stats.evictions, 1);
        assert!(
            rc.holds(1, TravelFlags::ALL)
                && rc.holds(3, TravelFlags::ALL)
                && !rc.holds(2, TravelFlags::ALL)
        );
        // A shortcut 6 -> 1 shortens routes to 1: the cache is repaired, equal to a fresh one.
        g.link(6, 1, 3.0, Travel::Walk, 1.0);
        let repaired = rc.get(&g, 1, TravelFlags::ALL).clone();
        assert_eq!(rc.stats.repairs, 1);
        let fresh = build_cache(&g, 1, 0.0, TravelFlags::ALL, &RouteParams::default());
        assert_eq!(repaired.dist, fresh.dist);
        assert_eq!(repaired.dist[6], 3.0);
        // A new waypoint extends the cache; its link to 6 gives it a route through 6.
        let n = g.add(Vec3::ZERO, WaypointKind::Normal);
        g.link(n, 6, 100.0, Travel::Walk, 1.0);
        let c = rc.get(&g, 1, TravelFlags::ALL).clone();
        assert_eq!(c.dist.len(), g.len());
        assert_eq!(c.dist[n as usize], 103.0);
        assert_eq!(c.path(n), vec![n, 6, 1]);
        assert_eq!(
            c.dist,
            build_cache(&g, 1, 0.0, TravelFlags::ALL, &RouteParams::default()).dist
        );
    }
}
