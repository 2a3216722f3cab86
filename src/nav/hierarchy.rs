//! Hierarchical routing (reference 001's clusters and portals): the graph is split into
//! clusters, and routes are computed at two levels — an **area level** inside each cluster
//! (the distance from every member to each of the cluster's portals, over the cluster's own
//! links, computed once) and a **portal level** between clusters (portals joined by those
//! in-cluster distances and by the links that cross clusters). A distance to a goal is then the
//! shorter of the route inside the goal's cluster and the best route out through a portal,
//! across the portal level, and into the goal — identical to flat routing, while a single
//! query touches only the goal's cluster, the portals and the start's cluster.
//!
//! The partition rule: clusters are cells of a spatial grid (`cell` units on a side, half that
//! in height); a portal is a waypoint with a link (either way) to a waypoint of another
//! cluster. Teleporter and elevator links thus make their ends portals naturally.
//!
//! Entry points: [`Hierarchy::build`], [`Hierarchy::distance`], [`Hierarchy::distances`].

use std::cmp::Ordering;
use std::collections::{BTreeMap, BinaryHeap, VecDeque};

use glam::Vec3;

use super::routing::{RouteParams, TravelFlags, link_cost};
use super::waypoints::WaypointGraph;

/// The two-level view of a graph for one set of travel flags.
#[derive(Clone, Debug)]
pub struct Hierarchy {
    /// Cluster of each waypoint.
    pub cluster_of: Vec<u32>,
    /// Members of each cluster.
    pub members: Vec<Vec<u32>>,
    /// Portals of each cluster (waypoint numbers).
    pub portals: Vec<Vec<u32>>,
    /// Position of each waypoint in its cluster's member list.
    pos: Vec<u32>,
    /// Per cluster, per portal (in `portals` order): distance from each member to it.
    local: Vec<Vec<Vec<f32>>>,
    /// Portal level, reversed, by waypoint: for portal q, (p, cost) with p -> q.
    rev_edges: Vec<Vec<(u32, f32)>>,
    flags: TravelFlags,
    params: RouteParams,
    /// The graph revision it was built at.
    pub revision: u64,
}

/// A `BinaryHeap` entry (distance or score, number): least first, ties by the lower number
/// (deterministic). The planner's goal queue uses it too.
#[derive(PartialEq)]
pub(crate) struct Entry(pub(crate) f32, pub(crate) u32);

impl Eq for Entry {}

impl PartialOrd for Entry {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

impl Ord for Entry {
    fn cmp(&self, o: &Self) -> Ordering {
        o.0.total_cmp(&self.0).then(o.1.cmp(&self.1))
    }
}

fn cell_key(p: Vec3, cell: f32) -> (i32, i32, i32) {
    (
        (p.x / cell).floor() as i32,
        (p.y / cell).floor() as i32,
        (p.z / (cell * 0.5)).floor() as i32,
    )
}

/// Distances to `target` from the waypoints of cluster `c` over the cluster's own links.
#[allow(
    clippy::too_many_arguments,
    reason = "one search; its scope is passed explicitly"
)]
fn local_search(
    g: &WaypointGraph,
    cluster_of: &[u32],
    pos: &[u32],
    size: usize,
    c: u32,
    target: u32,
    init: f32,
    flags: TravelFlags,
    p: &RouteParams,
) -> Vec<f32> {
    let mut dist = vec![f32::INFINITY; size];
    let mut queued = vec![false; size];
    dist[pos[target as usize] as usize] = init;
    let mut queue = VecDeque::from([target]);
    while let Some(v) = queue.pop_front() {
        let pv = pos[v as usize] as usize;
        queued[pv] = false;
        for l in &g.get(v).expect("waypoint").links {
            if cluster_of[l.from as usize] != c {
                continue;
            }
            let Some(cost) = link_cost(l, flags, p) else {
                continue;
            };
            let pw = pos[l.from as usize] as usize;
            let d = dist[pv] + cost;
            if d < dist[pw] {
                dist[pw] = d;
                if !queued[pw] {
                    queued[pw] = true;
                    queue.push_back(l.from);
                }
            }
        }
    }
    dist
}

impl Hierarchy {
    /// Splits the graph into clusters of `cell` units and computes the area level and the
    /// portal level for `flags`.
    pub fn build(
        g: &WaypointGraph,
        cell: f32,
        flags: TravelFlags,
        params: RouteParams,
    ) -> Hierarchy {
        let n = g.len();
        let mut keys: BTreeMap<(i32, i32, i32), u32> = BTreeMap::new();
        for w in g.waypoints() {
            let k = cell_key(w.origin, cell);
            let next = keys.len() as u32;
            keys.entry(k).or_insert(next);
        }
        // Number clusters in key order so that the partition does not depend on insertion.
        let order: BTreeMap<(i32, i32, i32), u32> = keys
            .keys()
            .enumerate()
            .map(|(i, k)| (*k, i as u32))
            .collect();
        let cluster_of: Vec<u32> = g
            .waypoints()
            .iter()
            .map(|w| order[&cell_key(w.origin, cell)])
            .collect();
        let nc = order.len();
        let mut members = vec![Vec::new(); nc];
        let mut pos = vec![0u32; n];
        for w in 0..n as u32 {
            let c = cluster_of[w as usize] as usize;
            pos[w as usize] = members[c].len() as u32;
            members[c].push(w);
        }
        let mut is_portal = vec![false; n];
        for w in g.waypoints() {
            for l in &w.links {
                if link_cost(l, flags, &params).is_some()
                    && cluster_of[l.from as usize] != cluster_of[w.number as usize]
                {
                    is_portal[l.from as usize] = true;
                    is_portal[w.number as usize] = true;
                }
            }
        }
        let portals: Vec<Vec<u32>> = members
            .iter()
            .map(|m| {
                m.iter()
                    .copied()
                    .filter(|&w| is_portal[w as usize])
                    .collect()
            })
            .collect();
        let local: Vec<Vec<Vec<f32>>> = (0..nc)
            .map(|c| {
                portals[c]
                    .iter()
                    .map(|&p| {
                        local_search(
                            g,
                            &cluster_of,
                            &pos,
                            members[c].len(),
                            c as u32,
                            p,
                            0.0,
                            flags,
                            &params,
                        )
                    })
                    .collect()
            })
            .collect();
        let mut rev_edges: Vec<Vec<(u32, f32)>> = vec![Vec::new(); n];
        for c in 0..nc {
            for (qi, &q) in portals[c].iter().enumerate() {
                for &p in &portals[c] {
                    let d = local[c][qi][pos[p as usize] as usize];
                    if p != q && d.is_finite() {
                        rev_edges[q as usize].push((p, d));
                    }
                }
            }
        }
        for w in g.waypoints() {
            for l in &w.links {
                if cluster_of[l.from as usize] != cluster_of[w.number as usize]
                    && let Some(cost) = link_cost(l, flags, &params)
                {
                    rev_edges[w.number as usize].push((l.from, cost));
                }
            }
        }
        Hierarchy {
            cluster_of,
            members,
            portals,
            pos,
            local,
            rev_edges,
            flags,
            params,
            revision: g.revision,
        }
    }

    /// Distances inside the goal's cluster to the goal.
    fn goal_cluster(&self, g: &WaypointGraph, goal: u32) -> Vec<f32> {
        let gc = self.cluster_of[goal as usize];
        local_search(
            g,
            &self.cluster_of,
            &self.pos,
            self.members[gc as usize].len(),
            gc,
            goal,
            0.0,
            self.flags,
            &self.params,
        )
    }

    /// Dijkstra over the portal level from the goal cluster's portals. `until(p, d)` is told
    /// each portal as it is settled and returns false to stop early. Returns the distances
    /// (by waypoint; `f32::INFINITY` for what was not reached).
    fn portal_level(
        &self,
        goal: u32,
        dl: &[f32],
        mut until: impl FnMut(u32, f32) -> bool,
    ) -> Vec<f32> {
        let gc = self.cluster_of[goal as usize] as usize;
        let mut dist = vec![f32::INFINITY; self.cluster_of.len()];
        let mut heap = BinaryHeap::new();
        for &q in &self.portals[gc] {
            let d = dl[self.pos[q as usize] as usize];
            if d.is_finite() {
                dist[q as usize] = d;
                heap.push(Entry(d, q));
            }
        }
        while let Some(Entry(d, q)) = heap.pop() {
            if d > dist[q as usize] {
                continue;
            }
            if !until(q, d) {
                break;
            }
            for &(p, c) in &self.rev_edges[q as usize] {
                let nd = d + c;
                if nd < dist[p as usize] {
                    dist[p as usize] = nd;
                    heap.push(Entry(nd, p));
                }
            }
        }
        dist
    }

    /// Distance from `x` to `goal` (`None` with no route). Only the goal's cluster, the part
    /// of the portal level nearer the goal than `x`, and `x`'s cluster are looked at.
    pub fn distance(&self, g: &WaypointGraph, x: u32, goal: u32) -> Option<f32> {
        let dl = self.goal_cluster(g, goal);
        let c = self.cluster_of[x as usize] as usize;
        let px = self.pos[x as usize] as usize;
        let mut best = if c as u32 == self.cluster_of[goal as usize] {
            dl[px]
        } else {
            f32::INFINITY
        };
        self.portal_level(goal, &dl, |p, d| {
            if d >= best {
                return false; // nothing settled later can be shorter
            }
            if self.cluster_of[p as usize] as usize == c
                && let Some(pi) = self.portals[c].iter().position(|&q| q == p)
            {
                best = best.min(self.local[c][pi][px] + d);
            }
            true
        });
        Some(best).filter(|d| d.is_finite())
    }

    /// Distances to `goal` from every waypoint (`f32::INFINITY`: no route).
    pub fn distances(&self, g: &WaypointGraph, goal: u32) -> Vec<f32> {
        let dl = self.goal_cluster(g, goal);
        let pd = self.portal_level(goal, &dl, |_, _| true);
        let gc = self.cluster_of[goal as usize];
        (0..self.cluster_of.len())
            .map(|x| {
                let c = self.cluster_of[x] as usize;
                let px = self.pos[x] as usize;
                let mut best = if c as u32 == gc {
                    dl[px]
                } else {
                    f32::INFINITY
                };
                for (pi, p) in self.portals[c].iter().enumerate() {
                    best = best.min(self.local[c][pi][px] + pd[*p as usize]);
                }
                best
            })
            .collect()
    }

    /// Number of portal waypoints.
    pub fn portal_count(&self) -> usize {
        self.portals.iter().map(Vec::len).sum()
    }
}
