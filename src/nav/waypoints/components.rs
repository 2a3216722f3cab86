//! The graph as a whole: its connected and strongly connected parts, tying stray waypoints
//! to the routable part, counts ([`GraphStats`]) and merging graphs.

use std::collections::BTreeMap;

use super::{Change, Waypoint, WaypointGraph};
use serde::Serialize;

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

impl WaypointGraph {
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
        let succ = self.successors();
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
        let params = crate::nav::ReachParams {
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

    /// Per waypoint: whether a route over the links (in their direction, blocked ones too)
    /// leads to it from waypoint `from` (itself included).
    pub fn routed_from(&self, from: u32) -> Vec<bool> {
        let next = self.successors();
        let mut seen = vec![false; next.len()];
        let mut stack = Vec::new();
        if let Some(s) = seen.get_mut(from as usize) {
            *s = true;
            stack.push(from);
        }
        while let Some(v) = stack.pop() {
            for &u in &next[v as usize] {
                if !seen[u as usize] {
                    seen[u as usize] = true;
                    stack.push(u);
                }
            }
        }
        seen
    }

    /// Per waypoint, the waypoints its links lead to (links are stored on their target).
    fn successors(&self) -> Vec<Vec<u32>> {
        let mut succ: Vec<Vec<u32>> = vec![Vec::new(); self.waypoints.len()];
        for w in &self.waypoints {
            for l in &w.links {
                succ[l.from as usize].push(w.number);
            }
        }
        succ
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
