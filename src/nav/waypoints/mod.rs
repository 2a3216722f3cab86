//! The waypoint graph (reference 000 §9.1): waypoints with a number, an origin (where a
//! player's origin is when standing there), a kind, and **reversed reachability links** — a
//! link stored on V naming W means "one can travel from W to V in a straight line" — each
//! with its distance, travel type and terrain weight. A spatial hash answers "waypoints near
//! p" without scanning them all.
//!
//! Entry points: [`WaypointGraph::add`], [`WaypointGraph::link`], [`WaypointGraph::near`],
//! [`WaypointGraph::stats`], and the JSON file format in [`super::waypoint_file`].
//!
//! Files: this one (the graph, its links and obstacles), `spatial` (queries by place),
//! `components` (connected parts, strays, counts, merging).

mod components;
mod spatial;

use std::collections::BTreeMap;

pub use components::GraphStats;
use glam::Vec3;
use serde::{Deserialize, Serialize};

/// Side of a spatial hash cell.
const CELL: f32 = 128.0;

fn cell_of(p: Vec3) -> (i32, i32, i32) {
    (
        (p.x / CELL).floor() as i32,
        (p.y / CELL).floor() as i32,
        (p.z / CELL).floor() as i32,
    )
}

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
mod tests;
