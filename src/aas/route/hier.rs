//! Clusters and the hierarchy: [`Clusters`] cuts the areas into clusters whose crossing
//! reachabilities are the portals; [`HierRouter`] answers a goal from a search inside its
//! cluster and one over the portals, joined by per-cluster tables of times to each exit
//! ([`HierCache`]) — the flat answer, for less work on a large map.

use std::cmp::Ordering;
use std::collections::{BTreeMap, BinaryHeap, VecDeque};

use glam::Vec3;
use serde::Serialize;

use super::NONE;
use super::cache::{AreaCache, DEFAULT_TILE};
use super::{Travel, best_first, cross};
use crate::aas::mesh::NavMesh;

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
    pub(super) fn from_assignment(mesh: &NavMesh, of_area: Vec<u32>, count: u32) -> Clusters {
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
pub(super) fn inside(
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
pub(super) struct ExitTables {
    /// Per cluster, per exit (in `clusters.exits` order): times and next reachabilities by
    /// position in `clusters.into[cluster]`.
    pub(super) tables: Vec<Vec<(Vec<f32>, Vec<u32>)>>,
}

/// A goal's answer on the hierarchy: the time from the end of every reachability that
/// ends in the goal's cluster (inside it) and from the end of every portal (anywhere).
#[derive(Clone, Debug)]
pub struct HierCache {
    /// The goal area.
    pub goal: u32,
    /// What routes may use.
    pub travel: Travel,
    pub(super) local: (Vec<f32>, Vec<u32>),
    /// Per portal (by position in `clusters.portals`): seconds from its end to the goal.
    pub(super) portal_time: Vec<f32>,
}

/// Routing over [`Clusters`]: exit tables per travel, built on first use.
#[derive(Clone, Debug)]
pub struct HierRouter {
    /// The clusters.
    pub clusters: Clusters,
    pub(super) exit_tables: BTreeMap<Travel, ExitTables>,
}

/// A float ordered for a min-heap, ties by id.
#[derive(PartialEq)]
pub(super) struct Min(f32, u32);

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
    /// (against breadth-first clusters and other tile sizes, the fewest portals and the
    /// cheapest goal searches; docs/tuning.md).
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

    pub(super) fn tables(&mut self, mesh: &NavMesh, travel: Travel) -> &ExitTables {
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
