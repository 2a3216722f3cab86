//! The learned graph's routable share against what the map allows. A waypoint is routable
//! when it lies in the graph's largest strongly connected part (every waypoint there has a
//! route to every other). A map may hold places no player gets back into once out of them —
//! a spawn ledge, a drop a single-player level never leads back to — and a graph that learned
//! them cannot join them to the rest: those waypoints are **one-way**, told apart by the
//! compiled area graph, every reachability allowed (so a place it joins by any way at all
//! is still asked of the explorers).

use serde::Serialize;

use crate::aas::NavMesh;
use crate::nav::waypoints::WaypointGraph;

/// The routable part of a learned graph, and the waypoints the map lets no graph join to it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Routable {
    /// Waypoints in the graph.
    pub waypoints: usize,
    /// Of them, those in its largest strongly connected part.
    pub routable: usize,
    /// Of the others, those standing in compiled areas outside the strongly connected set
    /// of areas where most of the routable part stands: no way the compiler found leads
    /// from there back into it, or from it to there.
    pub one_way: usize,
}

impl Routable {
    /// Routable share of the waypoints the map allows to be routable, 0..1 (1 for an
    /// empty graph).
    pub fn share(&self) -> f64 {
        let allowed = self.waypoints.saturating_sub(self.one_way);
        if allowed == 0 {
            1.0
        } else {
            self.routable as f64 / allowed as f64
        }
    }

    /// One line: the share and its counts.
    pub fn to_text(&self) -> String {
        format!(
            "one-way     {} waypoints in places the compiled graph never leads back to; of the \
             other {}, {} routable ({:.1} %)",
            self.one_way,
            self.waypoints - self.one_way,
            self.routable,
            100.0 * self.share(),
        )
    }

    /// Routable share of all the waypoints, 0..1 (1 for an empty graph).
    pub fn raw_share(&self) -> f64 {
        if self.waypoints == 0 {
            1.0
        } else {
            self.routable as f64 / self.waypoints as f64
        }
    }
}

/// Measures `graph`'s routable part against `mesh`: the strongly connected sets of compiled
/// areas (every reachability, teleporters and movers included); the set holding the most
/// of the routable waypoints' areas (ties: the lowest area) is the one the others are asked
/// to join. A stray waypoint over no area (in the air, over a hazard) is not excused.
pub fn routable(mesh: &NavMesh, graph: &WaypointGraph) -> Routable {
    let comps = graph.strong_components();
    let Some(main) = comps.first() else {
        return Routable::default();
    };
    let n = mesh.areas().len() as u32;
    let nodes: Vec<u32> = (0..n).collect();
    let sets = pathfinding::directed::strongly_connected_components::strongly_connected_components(
        &nodes,
        |&a| {
            mesh.reachabilities_from(a)
                .map(|r| r.to)
                .collect::<Vec<_>>()
        },
    );
    let mut set_of = vec![usize::MAX; n as usize];
    for (i, s) in sets.iter().enumerate() {
        for &a in s {
            set_of[a as usize] = i;
        }
    }
    let area = |w: u32| {
        graph
            .get(w)
            .and_then(|w| mesh.area_under(w.origin))
            .map(|(_, a)| set_of[a as usize])
    };
    // The set most of the routable part stands in, by count (ties: the set of the lowest
    // area, a deterministic choice).
    let mut count = vec![0usize; sets.len()];
    for &w in main {
        if let Some(s) = area(w) {
            count[s] += 1;
        }
    }
    let target = (0..sets.len()).filter(|&s| count[s] > 0).max_by(|&a, &b| {
        count[a]
            .cmp(&count[b])
            .then(sets[b].iter().min().cmp(&sets[a].iter().min()))
    });
    let in_main: std::collections::BTreeSet<u32> = main.iter().copied().collect();
    let one_way = (0..graph.len() as u32)
        .filter(|w| !in_main.contains(w))
        .filter(|&w| matches!((area(w), target), (Some(s), Some(t)) if s != t))
        .count();
    Routable {
        waypoints: graph.len(),
        routable: main.len(),
        one_way,
    }
}
