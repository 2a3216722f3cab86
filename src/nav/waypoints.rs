//! The waypoint graph (reference 000 §9.1): waypoints with a number, an origin (where a
//! player's origin is when standing there), a kind, and **reversed reachability links** — a
//! link stored on V naming W means "one can travel from W to V in a straight line" — each
//! with its distance, travel type and terrain weight. A spatial hash answers "waypoints near
//! p" without scanning them all.
//!
//! Entry points: [`WaypointGraph::add`], [`WaypointGraph::link`], [`WaypointGraph::near`],
//! [`WaypointGraph::stats`], and the JSON file format in [`super::waypoint_file`].

use std::collections::BTreeMap;

use glam::Vec3;
use serde::{Deserialize, Serialize};

/// What a waypoint marks.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum WaypointKind {
    /// A place a bot has been.
    Normal,
    /// The bottom centre of an important item (weapons and powerups).
    Item {
        /// Item class, e.g. `weapon_rocketlauncher`.
        class: String,
        /// Index of the item in the map's item list.
        item: usize,
    },
    /// The bottom centre of a teleporter.
    Teleporter {
        /// Index of the trigger in the map's trigger list.
        trigger: usize,
    },
    /// On an elevator (plat) in its bottom position: usable only while the plat is down.
    ElevatorBottom {
        /// Index of the plat in the map's mover list.
        mover: usize,
    },
    /// On an elevator in its top position.
    ElevatorTop {
        /// Index of the plat in the map's mover list.
        mover: usize,
    },
}

impl WaypointKind {
    /// Short name for reports.
    pub fn name(&self) -> &'static str {
        match self {
            WaypointKind::Normal => "normal",
            WaypointKind::Item { .. } => "item",
            WaypointKind::Teleporter { .. } => "teleporter",
            WaypointKind::ElevatorBottom { .. } => "elevator_bottom",
            WaypointKind::ElevatorTop { .. } => "elevator_top",
        }
    }
}

/// How a link is travelled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Travel {
    /// Walking (steps up to 18).
    Walk,
    /// Jumping (one jump or a chain).
    Jump,
    /// Dropping down.
    Fall,
    /// Swimming part of the way.
    Swim,
    /// Through a teleporter.
    Teleport,
    /// Riding an elevator.
    Elevator,
}

impl Travel {
    /// All travel types.
    pub const ALL: [Travel; 6] = [
        Travel::Walk,
        Travel::Jump,
        Travel::Fall,
        Travel::Swim,
        Travel::Teleport,
        Travel::Elevator,
    ];

    /// From a reachability answer (`None` when unreachable).
    pub fn from_reach(r: super::Reachability) -> Option<Travel> {
        use super::Reachability::*;
        Some(match r {
            Walk => Travel::Walk,
            Fall => Travel::Fall,
            Jump | JumpChain(_) => Travel::Jump,
            Swim => Travel::Swim,
            Unreachable(_) => return None,
        })
    }
}

/// A reversed reachability link, stored on the waypoint it leads to.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Link {
    /// The waypoint one travels from.
    pub from: u32,
    /// Distance travelled (for teleports: what a player runs in the teleport's duration).
    pub distance: f32,
    /// How.
    pub travel: Travel,
    /// Terrain weight multiplying the distance for routing (1 = plain floor).
    #[serde(default = "one")]
    pub weight: f32,
    /// How many run-time obstacles block it (not saved: obstacles belong to a run).
    #[serde(skip)]
    pub blocked: u16,
}

fn one() -> f32 {
    1.0
}

/// One waypoint.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Waypoint {
    /// Its number (its index in the graph).
    pub number: u32,
    /// A player origin standing there.
    pub origin: Vec3,
    /// What it marks.
    pub kind: WaypointKind,
    /// Reversed links: where one can come from.
    pub links: Vec<Link>,
}

/// Side of a spatial hash cell.
const CELL: f32 = 128.0;

/// Nearer first, ties to the lower number: the order of [`WaypointGraph::near`].
fn nearer(a: &(u32, f32), b: &(u32, f32)) -> std::cmp::Ordering {
    a.1.total_cmp(&b.1).then(a.0.cmp(&b.0))
}

fn cell_of(p: Vec3) -> (i32, i32, i32) {
    (
        (p.x / CELL).floor() as i32,
        (p.y / CELL).floor() as i32,
        (p.z / CELL).floor() as i32,
    )
}

/// Counts describing a graph.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct GraphStats {
    /// Waypoints in all.
    pub waypoints: usize,
    /// Waypoints per kind.
    pub by_kind: BTreeMap<&'static str, usize>,
    /// Links in all.
    pub links: usize,
    /// Links per travel type.
    pub links_by_travel: BTreeMap<String, usize>,
    /// Weakly connected components.
    pub components: usize,
    /// Waypoints in the largest strongly connected component: every one of them has a route
    /// to every other (the part of the graph a routing bot can go round in).
    pub largest_strong: usize,
}

impl GraphStats {
    /// Four lines for people: waypoints by kind, links by travel type, components, and the
    /// routable part.
    pub fn to_text(&self) -> String {
        let kinds: Vec<String> = self
            .by_kind
            .iter()
            .map(|(k, v)| format!("{v} {k}"))
            .collect();
        let travel: Vec<String> = self
            .links_by_travel
            .iter()
            .map(|(k, v)| format!("{v} {k}"))
            .collect();
        format!(
            "waypoints   {} ({})\nlinks       {} ({})\ncomponents  {}\nroutable    {} of {} waypoints all have routes to each other (largest strongly connected part)\n",
            self.waypoints,
            kinds.join(", "),
            self.links,
            travel.join(", "),
            self.components,
            self.largest_strong,
            self.waypoints
        )
    }
}

/// One change to a graph, as routing caches replay them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Change {
    /// A waypoint was added (with no links yet).
    Waypoint(u32),
    /// A link `from -> to` was added, made cheaper, or unblocked.
    Link {
        /// Where one travels from.
        from: u32,
        /// Where to.
        to: u32,
    },
    /// A link `from -> to` was blocked by an obstacle.
    Blocked {
        /// Where one travels from.
        from: u32,
        /// Where to.
        to: u32,
    },
}

/// A fixed-seed hasher for the waypoint columns: the same on every run. FxHash, not xxh3:
/// twox-hash's streaming xxh3 allocates its buffer on each new hasher, and every lookup
/// makes one (25 per `near` query: measured as a malloc and a free per column).
type ColumnHasher = rustc_hash::FxBuildHasher;

/// The graph of one map.
#[derive(Clone, Debug, Default)]
pub struct WaypointGraph {
    waypoints: Vec<Waypoint>,
    /// Waypoint numbers by column of [`CELL`]-wide squares (x, y). Only looked up, never
    /// walked, so a hash map's order cannot leak into results.
    grid: std::collections::HashMap<(i32, i32), Vec<u32>, ColumnHasher>,
    /// Bumped on every change, so caches know when to look again.
    pub revision: u64,
    /// Every change, in order: change `i` took the graph to revision `i + 1`.
    changes: Vec<Change>,
    /// Run-time obstacles (boxes) by id.
    obstacles: BTreeMap<u32, (Vec3, Vec3)>,
    next_obstacle: u32,
}

/// Whether a player box moving along the segment `a`→`b` (both player origins) touches the
/// box `mins..maxs` (slab test against the box grown by the player's half extents).
pub fn segment_hits_box(a: Vec3, b: Vec3, mins: Vec3, maxs: Vec3) -> bool {
    segment_enters_box(a, b, mins, maxs).is_some()
}

/// How far along the segment `a`→`b` (0 at `a`, 1 at `b`; both player origins) a player box
/// moving along it first touches the box `mins..maxs`; `None` where it never does.
pub fn segment_enters_box(a: Vec3, b: Vec3, mins: Vec3, maxs: Vec3) -> Option<f32> {
    use crate::physics::pmove::{PLAYER_MAXS, PLAYER_MINS};
    // The player's box relative to its origin is PLAYER_MINS..PLAYER_MAXS: grow the obstacle.
    let lo = mins - PLAYER_MAXS;
    let hi = maxs - PLAYER_MINS;
    let d = b - a;
    let (mut t0, mut t1) = (0.0f32, 1.0f32);
    for i in 0..3 {
        if d[i].abs() < 1e-6 {
            if a[i] < lo[i] || a[i] > hi[i] {
                return None;
            }
        } else {
            let (mut ta, mut tb) = ((lo[i] - a[i]) / d[i], (hi[i] - a[i]) / d[i]);
            if ta > tb {
                std::mem::swap(&mut ta, &mut tb);
            }
            t0 = t0.max(ta);
            t1 = t1.min(tb);
            if t0 > t1 {
                return None;
            }
        }
    }
    Some(t0)
}

impl WaypointGraph {
    /// An empty graph.
    pub fn new() -> WaypointGraph {
        WaypointGraph::default()
    }

    /// The waypoints, by number.
    pub fn waypoints(&self) -> &[Waypoint] {
        &self.waypoints
    }

    /// Waypoint `n`.
    pub fn get(&self, n: u32) -> Option<&Waypoint> {
        self.waypoints.get(n as usize)
    }

    /// Number of waypoints.
    pub fn len(&self) -> usize {
        self.waypoints.len()
    }

    /// True when there is none.
    pub fn is_empty(&self) -> bool {
        self.waypoints.is_empty()
    }

    /// Adds a waypoint and returns its number.
    pub fn add(&mut self, origin: Vec3, kind: WaypointKind) -> u32 {
        let n = self.waypoints.len() as u32;
        self.waypoints.push(Waypoint {
            number: n,
            origin,
            kind,
            links: Vec::new(),
        });
        let c = cell_of(origin);
        self.grid.entry((c.0, c.1)).or_default().push(n);
        self.record(Change::Waypoint(n));
        n
    }

    fn record(&mut self, c: Change) {
        self.changes.push(c);
        self.revision += 1;
    }

    /// The changes since `revision` (all of them from 0).
    pub fn changes_since(&self, revision: u64) -> &[Change] {
        let start = (revision as usize).min(self.changes.len());
        &self.changes[start..]
    }

    /// Records that one can travel from `from` to `to`; a second link between the same pair
    /// with the same travel type keeps the cheaper one. Returns whether the graph changed.
    /// Self-links are ignored, and so are links with a negative or non-finite distance or
    /// a weight that is not positive ([`WaypointGraph::from_waypoints`] refuses them too):
    /// route costs are never negative, which the routing caches' repairs rely on.
    pub fn link(&mut self, from: u32, to: u32, distance: f32, travel: Travel, weight: f32) -> bool {
        if from == to
            || !(distance >= 0.0 && distance.is_finite() && weight > 0.0 && weight.is_finite())
            || from as usize >= self.waypoints.len()
            || to as usize >= self.waypoints.len()
        {
            return false;
        }
        let links = &mut self.waypoints[to as usize].links;
        // One link per pair and travel type: a walk and a jump between the same waypoints are
        // different ways (a bot may be allowed only one of them).
        if let Some(l) = links
            .iter_mut()
            .find(|l| l.from == from && l.travel == travel)
        {
            if distance * weight < l.distance * l.weight {
                *l = Link {
                    from,
                    distance,
                    travel,
                    weight,
                    blocked: l.blocked,
                };
                self.record(Change::Link { from, to });
                return true;
            }
            return false;
        }
        let blocked = self
            .obstacles
            .values()
            .filter(|(mn, mx)| {
                segment_hits_box(
                    self.waypoints[from as usize].origin,
                    self.waypoints[to as usize].origin,
                    *mn,
                    *mx,
                )
            })
            .count() as u16;
        let links = &mut self.waypoints[to as usize].links;
        links.push(Link {
            from,
            distance,
            travel,
            weight,
            blocked,
        });
        self.record(Change::Link { from, to });
        true
    }

    /// Adds a run-time obstacle: every link whose straight path it blocks is disabled until it
    /// is removed. Returns its id.
    pub fn add_obstacle(&mut self, mins: Vec3, maxs: Vec3) -> u32 {
        let id = self.next_obstacle;
        self.next_obstacle += 1;
        self.obstacles.insert(id, (mins, maxs));
        self.mark(mins, maxs, true);
        id
    }

    fn link_mut(&mut self, from: u32, to: u32) -> Option<&mut Link> {
        self.waypoints
            .get_mut(to as usize)?
            .links
            .iter_mut()
            .find(|l| l.from == from)
    }

    /// Blocks the link `from -> to` for good (bots could not follow it), as an obstacle
    /// would; the caches that use it are repaired. False when there is no such link or it is
    /// already blocked.
    pub fn block_link(&mut self, from: u32, to: u32) -> bool {
        let Some(l) = self.link_mut(from, to) else {
            return false;
        };
        if l.blocked > 0 {
            return false;
        }
        l.blocked = 1;
        self.record(Change::Blocked { from, to });
        true
    }

    /// Lifts a block set by [`WaypointGraph::block_link`] (obstacles keep theirs). False
    /// when there is no such link or it is not blocked.
    pub fn unblock_link(&mut self, from: u32, to: u32) -> bool {
        let Some(l) = self.link_mut(from, to) else {
            return false;
        };
        if l.blocked == 0 {
            return false;
        }
        l.blocked -= 1;
        if l.blocked == 0 {
            self.record(Change::Link { from, to });
        }
        true
    }

    /// Removes an obstacle; links it alone blocked work again. False for an unknown id.
    pub fn remove_obstacle(&mut self, id: u32) -> bool {
        match self.obstacles.remove(&id) {
            Some((mn, mx)) => {
                self.mark(mn, mx, false);
                true
            }
            None => false,
        }
    }

    fn mark(&mut self, mins: Vec3, maxs: Vec3, block: bool) {
        let mut changed = Vec::new();
        for to in 0..self.waypoints.len() {
            let b = self.waypoints[to].origin;
            for li in 0..self.waypoints[to].links.len() {
                let from = self.waypoints[to].links[li].from;
                let a = self.waypoints[from as usize].origin;
                if !segment_hits_box(a, b, mins, maxs) {
                    continue;
                }
                let l = &mut self.waypoints[to].links[li];
                if block {
                    l.blocked += 1;
                    if l.blocked == 1 {
                        changed.push(Change::Blocked {
                            from,
                            to: to as u32,
                        });
                    }
                } else {
                    l.blocked = l.blocked.saturating_sub(1);
                    if l.blocked == 0 {
                        changed.push(Change::Link {
                            from,
                            to: to as u32,
                        });
                    }
                }
            }
        }
        for c in changed {
            self.record(c);
        }
    }

    /// Links `a` and `b` in each direction whose straight-line reachability holds (travel
    /// type from the reachability answer, weight 1). Returns the number of links added.
    pub fn link_reachable(
        &mut self,
        map: &crate::map::CollisionMap,
        a: u32,
        b: u32,
        p: &super::ReachParams,
    ) -> usize {
        if a == b {
            return 0;
        }
        let (Some(wa), Some(wb)) = (self.get(a), self.get(b)) else {
            return 0;
        };
        let (pa, pb) = (wa.origin, wb.origin);
        let d = pa.distance(pb);
        let mut added = 0;
        if let Some(t) = Travel::from_reach(super::reachable(map, pa, pb, p)) {
            added += self.link(a, b, d, t, 1.0) as usize;
        }
        if let Some(t) = Travel::from_reach(super::reachable(map, pb, pa, p)) {
            added += self.link(b, a, d, t, 1.0) as usize;
        }
        added
    }

    /// Whether a link from `from` to `to` exists.
    pub fn has_link(&self, from: u32, to: u32) -> bool {
        self.get(to)
            .is_some_and(|w| w.links.iter().any(|l| l.from == from))
    }

    /// Waypoints within `radius` of `p`, nearest first (ties by number).
    pub fn near(&self, p: Vec3, radius: f32) -> Vec<(u32, f32)> {
        let mut out = Vec::new();
        self.each_within(p, radius, |n, d| out.push((n, d)));
        out.sort_by(nearer);
        out
    }

    /// The first `k` of [`WaypointGraph::near`] (the same waypoints in the same order),
    /// without sorting the others: most searches try only the nearest few.
    pub fn near_k(&self, p: Vec3, radius: f32, k: usize) -> Vec<(u32, f32)> {
        if k == 0 {
            return Vec::new();
        }
        let mut out = Vec::new();
        // Ring by ring of columns around `p`'s, nearest first: once `k` are found nearer
        // than any column outside the rings so far can hold, the rest need no look (most
        // searches want the nearest 4–8 of a dense graph, within 320–512 units: 49–81
        // columns in all).
        let c = cell_of(p);
        let rings = (radius / CELL).ceil() as i32;
        for j in 0..=rings {
            self.each_in_ring(p, c, j, radius, |n, d| out.push((n, d)));
            if j < rings && out.len() >= k {
                // The distance across from `p` to the edge of the square the rings cover
                // (less a hair for the rounding of a distance): every waypoint outside it
                // lies at least that far.
                let (lo, hi) = (c.0 - j, c.1 - j);
                let edge = (p.x - lo as f32 * CELL)
                    .min((lo + 2 * j + 1) as f32 * CELL - p.x)
                    .min(p.y - hi as f32 * CELL)
                    .min((hi + 2 * j + 1) as f32 * CELL - p.y)
                    - 0.01;
                if out.iter().filter(|x| x.1 < edge).count() >= k {
                    break;
                }
            }
        }
        if out.len() > k {
            // The order is total (distance, then number), so the k smallest are one set.
            out.select_nth_unstable_by(k, nearer);
            out.truncate(k);
        }
        out.sort_by(nearer);
        out
    }

    /// How many waypoints lie within `radius` of `p` (the length of [`WaypointGraph::near`]).
    pub fn count_within(&self, p: Vec3, radius: f32) -> usize {
        let mut n = 0;
        self.each_within(p, radius, |_, _| n += 1);
        n
    }

    /// The first of [`WaypointGraph::near`], found without a list.
    pub fn nearest(&self, p: Vec3, radius: f32) -> Option<(u32, f32)> {
        let nearest_in = |r: i32| {
            let mut best: Option<(u32, f32)> = None;
            self.each_within_columns(p, r, radius, |n, d| {
                if best.is_none_or(|b| nearer(&(n, d), &b).is_lt()) {
                    best = Some((n, d));
                }
            });
            best
        };
        // The 3 × 3 columns around `p` first: every point outside them lies at least a
        // column's width away across, so a waypoint nearer than that is the answer (9
        // lookups instead of 25 at the usual radius).
        if radius > CELL {
            let best = nearest_in(1);
            if best.is_some_and(|(_, d)| d < CELL) {
                return best;
            }
        }
        nearest_in((radius / CELL).ceil() as i32)
    }

    /// Calls `f` with every waypoint within `radius` of `p` and its distance, in no
    /// particular order.
    fn each_within(&self, p: Vec3, radius: f32, f: impl FnMut(u32, f32)) {
        self.each_within_columns(p, (radius / CELL).ceil() as i32, radius, f);
    }

    /// [`WaypointGraph::each_within`] over the columns exactly `j` columns from `c` (`p`'s)
    /// across or along: the ring of a square of side `2j + 1`.
    fn each_in_ring(
        &self,
        p: Vec3,
        c: (i32, i32, i32),
        j: i32,
        radius: f32,
        mut f: impl FnMut(u32, f32),
    ) {
        // One lookup per column (x, y); the distance test drops the other floors.
        let mut column = |x: i32, y: i32| {
            for &n in self.grid.get(&(x, y)).into_iter().flatten() {
                let d = self.waypoints[n as usize].origin.distance(p);
                if d <= radius {
                    f(n, d);
                }
            }
        };
        if j == 0 {
            column(c.0, c.1);
            return;
        }
        for x in c.0 - j..=c.0 + j {
            column(x, c.1 - j);
            column(x, c.1 + j);
        }
        for y in c.1 - j + 1..c.1 + j {
            column(c.0 - j, y);
            column(c.0 + j, y);
        }
    }

    /// [`WaypointGraph::each_within`] over the columns at most `r` from `p`'s.
    fn each_within_columns(&self, p: Vec3, r: i32, radius: f32, mut f: impl FnMut(u32, f32)) {
        let c = cell_of(p);
        for j in 0..=r {
            self.each_in_ring(p, c, j, radius, &mut f);
        }
    }

    /// The item waypoint of level item `item`, if the graph has one.
    pub fn item_waypoint(&self, item: usize) -> Option<u32> {
        self.find_kind(|k| matches!(k, WaypointKind::Item { item: i, .. } if *i == item))
    }

    /// The first waypoint of a kind matching `pred`.
    pub fn find_kind(&self, pred: impl Fn(&WaypointKind) -> bool) -> Option<u32> {
        self.waypoints
            .iter()
            .find(|w| pred(&w.kind))
            .map(|w| w.number)
    }

    /// Weakly connected components (links taken both ways).
    pub fn components(&self) -> usize {
        self.component_sizes().len()
    }

    /// Sizes of the connected components (links taken both ways), largest first.
    pub fn component_sizes(&self) -> Vec<usize> {
        let n = self.waypoints.len();
        let mut parent: Vec<usize> = (0..n).collect();
        fn find(p: &mut [usize], mut i: usize) -> usize {
            while p[i] != i {
                p[i] = p[p[i]];
                i = p[i];
            }
            i
        }
        for w in &self.waypoints {
            for l in &w.links {
                let (a, b) = (
                    find(&mut parent, w.number as usize),
                    find(&mut parent, l.from as usize),
                );
                if a != b {
                    parent[a.max(b)] = a.min(b);
                }
            }
        }
        let mut size = vec![0usize; n];
        for i in 0..n {
            size[find(&mut parent, i)] += 1;
        }
        let mut sizes: Vec<usize> = size.into_iter().filter(|&c| c > 0).collect();
        sizes.sort_unstable_by(|a, b| b.cmp(a));
        sizes
    }

    /// Sizes of the strongly connected components (waypoints that all have routes to each
    /// other, links taken in their direction), largest first.
    pub fn strong_component_sizes(&self) -> Vec<usize> {
        self.strong_components().iter().map(Vec::len).collect()
    }

    /// The strongly connected components, largest first (ties: lowest waypoint first), each
    /// in waypoint order.
    pub fn strong_components(&self) -> Vec<Vec<u32>> {
        let n = self.waypoints.len();
        // Links are stored on their target; successors are needed per source.
        let mut succ: Vec<Vec<u32>> = vec![Vec::new(); n];
        for w in &self.waypoints {
            for l in &w.links {
                succ[l.from as usize].push(w.number);
            }
        }
        let nodes: Vec<u32> = (0..n as u32).collect();
        let mut comps =
            pathfinding::directed::strongly_connected_components::strongly_connected_components(
                &nodes,
                |&v| succ[v as usize].iter().copied(),
            );
        for c in &mut comps {
            c.sort_unstable();
        }
        comps.sort_unstable_by(|a, b| b.len().cmp(&a.len()).then(a[0].cmp(&b[0])));
        comps
    }

    /// Ties the waypoints outside the routable part (the largest strongly connected
    /// component) to it: each is linked, in each direction whose straight-line reachability
    /// holds, with its `k` nearest routable waypoints within `radius`; repeated while that
    /// joins any (a joined room lets its neighbours join next), at most `rounds` times.
    /// Explorers link only the waypoints they walk between, so a room entered by a long
    /// drop, or left by a way taken once, often stays one-way. Returns the links added.
    pub fn connect_strays(
        &mut self,
        map: &crate::map::CollisionMap,
        radius: f32,
        k: usize,
        rounds: usize,
    ) -> usize {
        let params = super::ReachParams {
            max_distance: radius * 2.0,
            ..Default::default()
        };
        let mut added = 0;
        for _ in 0..rounds {
            let comps = self.strong_components();
            let Some(core) = comps.first() else { break };
            let mut in_core = vec![false; self.waypoints.len()];
            for &n in core {
                in_core[n as usize] = true;
            }
            let before = core.len();
            for n in 0..self.waypoints.len() as u32 {
                if in_core[n as usize] {
                    continue;
                }
                let at = self.waypoints[n as usize].origin;
                let near: Vec<u32> = self
                    .near(at, radius)
                    .into_iter()
                    .filter(|(m, _)| in_core[*m as usize])
                    .take(k)
                    .map(|(m, _)| m)
                    .collect();
                for m in near {
                    added += self.link_reachable(map, m, n, &params);
                }
            }
            if self.strong_component_sizes().first().copied().unwrap_or(0) == before {
                break;
            }
        }
        added
    }

    /// Counts by kind, links by travel type, components.
    pub fn stats(&self) -> GraphStats {
        let mut s = GraphStats {
            waypoints: self.waypoints.len(),
            components: self.components(),
            largest_strong: self.strong_component_sizes().first().copied().unwrap_or(0),
            ..Default::default()
        };
        for w in &self.waypoints {
            *s.by_kind.entry(w.kind.name()).or_insert(0) += 1;
            for l in &w.links {
                s.links += 1;
                *s.links_by_travel
                    .entry(format!("{:?}", l.travel).to_lowercase())
                    .or_insert(0) += 1;
            }
        }
        s
    }

    /// Adds every waypoint and link of `other`, renumbered after this graph's. Returns the
    /// number the first of them got.
    pub fn merge(&mut self, other: &WaypointGraph) -> u32 {
        let base = self.waypoints.len() as u32;
        for w in &other.waypoints {
            self.add(w.origin, w.kind.clone());
        }
        for w in &other.waypoints {
            for l in &w.links {
                self.link(
                    l.from + base,
                    w.number + base,
                    l.distance,
                    l.travel,
                    l.weight,
                );
            }
        }
        base
    }

    /// Builds a graph from waypoints as stored (numbers must be 0..n in order, links in range).
    pub fn from_waypoints(waypoints: Vec<Waypoint>) -> Result<WaypointGraph, String> {
        let n = waypoints.len();
        let mut g = WaypointGraph::new();
        for (i, w) in waypoints.iter().enumerate() {
            if w.number as usize != i {
                return Err(format!("waypoint {i} is numbered {}", w.number));
            }
            if !w.origin.is_finite() {
                return Err(format!("waypoint {i} has a non-finite origin"));
            }
            for l in &w.links {
                if l.from as usize >= n {
                    return Err(format!(
                        "waypoint {i} links from {}, which does not exist",
                        l.from
                    ));
                }
                if !(l.distance.is_finite()
                    && l.distance >= 0.0
                    && l.weight.is_finite()
                    && l.weight > 0.0)
                {
                    return Err(format!(
                        "waypoint {i}: link from {} has a bad distance or weight",
                        l.from
                    ));
                }
            }
        }
        for w in &waypoints {
            g.add(w.origin, w.kind.clone());
        }
        for w in waypoints {
            for l in &w.links {
                g.changes.push(Change::Link {
                    from: l.from,
                    to: w.number,
                });
                g.revision += 1;
            }
            g.waypoints[w.number as usize].links = w.links;
        }
        Ok(g)
    }
}

/// The graph's size, then every waypoint's origin and links, in number order.
impl crate::sim::hash::StateHash for WaypointGraph {
    fn hash_state(&self, h: &mut crate::sim::hash::StateHasher) {
        h.u64(self.len() as u64);
        for w in self.waypoints() {
            h.vec3(w.origin);
            for l in &w.links {
                h.u64(l.from as u64);
                h.f32(l.distance);
                h.u64(l.travel as u64);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_are_reversed_and_deduplicated() {
        let mut g = WaypointGraph::new();
        let a = g.add(Vec3::ZERO, WaypointKind::Normal);
        let b = g.add(Vec3::new(100., 0., 0.), WaypointKind::Normal);
        assert!(g.link(a, b, 100.0, Travel::Walk, 1.0));
        // Stored on b, naming a.
        assert_eq!(g.get(b).unwrap().links[0].from, a);
        assert!(g.get(a).unwrap().links.is_empty());
        assert!(g.has_link(a, b) && !g.has_link(b, a));
        assert!(
            !g.link(a, b, 120.0, Travel::Walk, 1.0),
            "a longer duplicate is dropped"
        );
        assert!(
            g.link(a, b, 90.0, Travel::Walk, 1.0),
            "a shorter one replaces it"
        );
        assert_eq!(g.get(b).unwrap().links.len(), 1);
        assert!(
            g.link(a, b, 80.0, Travel::Jump, 1.0),
            "another travel type is another link"
        );
        assert_eq!(g.get(b).unwrap().links.len(), 2);
        assert!(!g.link(a, a, 1.0, Travel::Walk, 1.0));
        assert!(!g.link(a, 9, 1.0, Travel::Walk, 1.0));
    }

    #[test]
    fn near_uses_the_grid_and_sorts_by_distance() {
        let mut g = WaypointGraph::new();
        for i in 0..50 {
            g.add(Vec3::new(i as f32 * 40.0, 0., 0.), WaypointKind::Normal);
        }
        let n = g.near(Vec3::new(205., 0., 0.), 100.0);
        let nums: Vec<u32> = n.iter().map(|x| x.0).collect();
        assert_eq!(nums, vec![5, 6, 4, 7, 3]);
    }

    #[test]
    fn the_nearest_few_are_the_first_of_near() {
        // Seeded clouds with ties (waypoints on a coarse lattice, probes on it too): a dense
        // one, and a sparse one where the nearest often lies beyond the 3 × 3 columns that
        // `nearest` looks in first.
        let mut rng = crate::sim::rng::SimRng::new(7, 0);
        for spacing in [16.0, 96.0] {
            let mut g = WaypointGraph::new();
            for _ in 0..400 {
                let q = |r: &mut crate::sim::rng::SimRng| (r.range(-20.0, 20.0).round()) * spacing;
                let p = Vec3::new(q(&mut rng), q(&mut rng), q(&mut rng) * 0.25);
                g.add(p, WaypointKind::Normal);
            }
            for _ in 0..200 {
                let p = Vec3::new(
                    (rng.range(-20.0, 20.0).round()) * spacing * 0.5,
                    (rng.range(-20.0, 20.0).round()) * spacing * 0.5,
                    0.0,
                );
                for radius in [0.0, 40.0, 128.0, 129.0, 200.0, 256.0, 320.0, 512.0, 600.0] {
                    let all = g.near(p, radius);
                    assert_eq!(g.nearest(p, radius), all.first().copied());
                    assert_eq!(g.count_within(p, radius), all.len());
                    for k in [0, 1, 2, 4, 6, 8, 32, 1000] {
                        let want: Vec<_> = all.iter().copied().take(k).collect();
                        assert_eq!(g.near_k(p, radius, k), want, "{p} {radius} {k}");
                    }
                }
            }
        }
    }

    #[test]
    fn links_that_would_cost_less_than_nothing_are_refused() {
        let mut g = WaypointGraph::new();
        let a = g.add(Vec3::ZERO, WaypointKind::Normal);
        let b = g.add(Vec3::X * 64.0, WaypointKind::Normal);
        let rev = g.revision;
        for (d, w) in [
            (-1.0, 1.0),
            (64.0, 0.0),
            (64.0, -2.0),
            (f32::NAN, 1.0),
            (64.0, f32::INFINITY),
        ] {
            assert!(!g.link(a, b, d, Travel::Walk, w), "{d} {w}");
        }
        assert_eq!(g.revision, rev);
        assert!(!g.has_link(a, b));
        assert!(g.link(a, b, 64.0, Travel::Walk, 1.0));
        assert!(g.link(a, b, 0.0, Travel::Jump, 1.0));
    }

    #[test]
    fn components_and_merge() {
        let mut g = WaypointGraph::new();
        let a = g.add(Vec3::ZERO, WaypointKind::Normal);
        let b = g.add(Vec3::X, WaypointKind::Normal);
        let _c = g.add(Vec3::Y * 500.0, WaypointKind::Normal);
        g.link(a, b, 1.0, Travel::Walk, 1.0);
        assert_eq!(g.components(), 2);
        let mut h = WaypointGraph::new();
        let base = h.merge(&g);
        assert_eq!(base, 0);
        let base = h.merge(&g);
        assert_eq!(base, 3);
        assert_eq!(h.len(), 6);
        assert!(h.has_link(3, 4));
        assert_eq!(h.components(), 4);
    }
}
