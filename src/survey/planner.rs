//! The survey's planner check: the travel-time planner (reference 004) over every directed
//! pair of the map's weapons, beside the area graph's route time for the same pair — does
//! the planner find what the graph connects, and how close does it come to its time.

use std::sync::Arc;

use serde::Serialize;

use crate::aas::NavMesh;
use crate::map::level::ItemKind;
use crate::map::{CollisionMap, Level};
use crate::physics::PhysicsParams;
use crate::planner::times::{PairTime, items, table};
use crate::planner::{AreaMetric, PlanConfig};

/// How many of the worst pairs a survey keeps.
const WORST: usize = 3;

/// The planner over a map's weapon pairs.
#[derive(Clone, Debug, Default, Serialize)]
pub struct PlannerSummary {
    /// Expansions per pair.
    pub expansions: usize,
    /// Directed weapon pairs.
    pub pairs: usize,
    /// Pairs the area graph routes ([`crate::planner::times::graph_time`]).
    pub connected: usize,
    /// Of those, pairs the planner found.
    pub found: usize,
    /// Of those, found within 5 % of the graph's time.
    pub within_5pct: usize,
    /// Pairs where the planner's time is below the graph's.
    pub planner_quicker: usize,
    /// The median of planner time / graph time over the connected pairs found.
    pub median_ratio: Option<f32>,
    /// The worst connected pairs: not found first, then the largest ratio.
    pub worst: Vec<PairTime>,
}

/// The planner's table over every directed pair of `level`'s weapons (`expansions` each,
/// seeded by `seed`, one thread), summed against the area graph `mesh`.
pub fn weapon_pairs(
    level: &Arc<Level>,
    cmap: &CollisionMap,
    mesh: &Arc<NavMesh>,
    expansions: usize,
    seed: u64,
) -> PlannerSummary {
    let all = items(level, cmap);
    let weapons: Vec<usize> = all
        .iter()
        .filter(|r| level.items[r.index].kind == ItemKind::Weapon)
        .map(|r| r.index)
        .collect();
    let cfg = PlanConfig {
        expansions,
        seed,
        area_metric: Some(Arc::new(AreaMetric::new(Arc::clone(mesh), level))),
        ..Default::default()
    };
    let physics = PhysicsParams::default();
    let rows = table(
        level,
        cmap,
        &all,
        &weapons,
        &cfg,
        &physics,
        None,
        1,
        |_, _| {},
    );
    summarise(rows, expansions)
}

/// The summary of a pair table.
fn summarise(rows: Vec<PairTime>, expansions: usize) -> PlannerSummary {
    let ratio = |r: &PairTime| r.rrt.zip(r.graph).map(|(p, g)| p / g.max(1e-3));
    let connected: Vec<&PairTime> = rows.iter().filter(|r| r.graph.is_some()).collect();
    let mut ratios: Vec<f32> = connected.iter().filter_map(|r| ratio(r)).collect();
    ratios.sort_by(f32::total_cmp);
    let badness = |r: &PairTime| ratio(r).unwrap_or(f32::INFINITY);
    let mut worst: Vec<&PairTime> = connected
        .iter()
        .copied()
        .filter(|r| badness(r) > 1.05)
        .collect();
    worst.sort_by(|a, b| badness(b).total_cmp(&badness(a)));
    PlannerSummary {
        expansions,
        pairs: rows.len(),
        connected: connected.len(),
        found: ratios.len(),
        within_5pct: ratios.iter().filter(|&&x| x <= 1.05).count(),
        planner_quicker: rows
            .iter()
            .filter(|r| r.best_from == Some("planner"))
            .count(),
        median_ratio: ratios.get(ratios.len() / 2).copied(),
        worst: worst.into_iter().take(WORST).cloned().collect(),
    }
}
