//! Grid seeding (the grid waypoints of reference 003, turned into a tool): waypoints on every
//! walkable floor at a fixed spacing, found by box traces down each column (several floors per
//! column), linked to neighbours whose straight-line reachability holds, with terrain weights
//! as that reference does (water and the edges of lava cost more). The result uses the same
//! graph and file format as dynamically dropped waypoints, so the two can be merged.
//!
//! Entry point: [`seed_grid`].

use glam::Vec3;
use serde::Serialize;

use crate::map::{CollisionMap, Contents};
use crate::physics::pmove::{PLAYER_MAXS, PLAYER_MINS, STEP_SIZE};

use super::reach::{ReachParams, reachable};
use super::waypoints::{Travel, WaypointGraph, WaypointKind};

/// How to lay the grid.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct GridParams {
    /// Distance between columns.
    pub spacing: f32,
    /// Whether links get terrain weights.
    pub terrain_weights: bool,
    /// Weight of a link that touches water.
    pub water_weight: f32,
    /// Weight of a link with lava within [`GridParams::lava_radius`].
    pub lava_weight: f32,
    /// How near lava counts as near.
    pub lava_radius: f32,
}

impl Default for GridParams {
    fn default() -> Self {
        GridParams {
            spacing: 64.0,
            terrain_weights: true,
            water_weight: 1.5,
            lava_weight: 2.0,
            lava_radius: 64.0,
        }
    }
}

const MASK: Contents = Contents::MASK_PLAYER_NO_BODIES;

/// Standing origins on every floor of the column at (x, y), top to bottom.
fn floors(map: &CollisionMap, x: f32, y: f32, top: f32, bottom: f32) -> Vec<Vec3> {
    let mut out = Vec::new();
    let mut z = top;
    while z > bottom {
        let start = Vec3::new(x, y, z);
        let t = map.trace(
            start,
            Vec3::new(x, y, bottom),
            PLAYER_MINS,
            PLAYER_MAXS,
            MASK,
            None,
        );
        if t.start_solid {
            z -= 16.0;
            continue;
        }
        if t.fraction >= 1.0 {
            break;
        }
        let o = t.end_pos;
        // The box can come to rest on a ledge's edge with its centre over the drop (the side
        // of a staircase): a waypoint there sends bots along the edge, off which they fall.
        // Only floor under the centre, within a step, counts; an edge is passed by.
        let under = map.trace_ray(
            o,
            o + Vec3::new(0.0, 0.0, PLAYER_MINS.z - STEP_SIZE - 1.0),
            MASK,
            None,
        );
        if under.fraction >= 1.0 {
            z = o.z - 1.0;
            continue;
        }
        if t.normal.z >= 0.7 {
            // Inside the map there is a ceiling or sky above; on the roof there is only void.
            let up = map.trace_ray(o, Vec3::new(x, y, top + 256.0), Contents::SOLID, None);
            let feet = map.point_contents(o + Vec3::new(0.0, 0.0, PLAYER_MINS.z + 1.0));
            if up.fraction < 1.0 && !feet.intersects(Contents::LAVA | Contents::SLIME) {
                out.push(o);
            }
        }
        // Continue under this floor.
        z = o.z + PLAYER_MINS.z - PLAYER_MAXS.z - 1.0;
    }
    out
}

fn terrain_weight(map: &CollisionMap, p: Vec3, g: &GridParams) -> f32 {
    let feet = p + Vec3::new(0.0, 0.0, PLAYER_MINS.z + 1.0);
    let mut w: f32 = 1.0;
    if map.point_contents(feet).intersects(Contents::WATER)
        || map.point_contents(p).intersects(Contents::WATER)
    {
        w = w.max(g.water_weight);
    }
    let r = g.lava_radius;
    let near_lava = (0..8).any(|i| {
        let a = i as f32 * std::f32::consts::FRAC_PI_4;
        let q = feet + Vec3::new(a.cos() * r, a.sin() * r, -24.0);
        map.point_contents(q).intersects(Contents::LAVA)
    });
    if near_lava {
        w = w.max(g.lava_weight);
    }
    w
}

/// Lays and links a grid of waypoints over the whole map.
pub fn seed_grid(map: &CollisionMap, g: &GridParams) -> WaypointGraph {
    let (lo, hi) = map.bounds();
    let mut graph = WaypointGraph::new();
    let spacing = g.spacing.max(16.0);
    let nx = ((hi.x - lo.x) / spacing).floor() as i32;
    let ny = ((hi.y - lo.y) / spacing).floor() as i32;
    for ix in 0..=nx {
        for iy in 0..=ny {
            let x = lo.x + spacing * (ix as f32 + 0.5);
            let y = lo.y + spacing * (iy as f32 + 0.5);
            for o in floors(map, x, y, hi.z - PLAYER_MAXS.z - 1.0, lo.z) {
                graph.add(o, WaypointKind::Normal);
            }
        }
    }
    let params = ReachParams {
        max_distance: spacing * 2.0,
        ..Default::default()
    };
    let weights: Vec<f32> = graph
        .waypoints()
        .iter()
        .map(|w| {
            if g.terrain_weights {
                terrain_weight(map, w.origin, g)
            } else {
                1.0
            }
        })
        .collect();
    let n = graph.len() as u32;
    for a in 0..n {
        let pa = graph.get(a).expect("in range").origin;
        for (b, d) in graph.near(pa, spacing * 1.5) {
            if b == a {
                continue;
            }
            let pb = graph.get(b).expect("in range").origin;
            if let Some(travel) = Travel::from_reach(reachable(map, pa, pb, &params)) {
                let w = weights[a as usize].max(weights[b as usize]);
                graph.link(a, b, d, travel, w);
            }
        }
    }
    graph
}

/// Ties waypoints `a` (e.g. an explored graph) to the other waypoints of the same graph
/// (e.g. a grid merged in after them): each waypoint of `a` is linked, in each direction whose
/// reachability holds, with its `k` nearest waypoints outside `a` within `radius`. Returns the
/// number of links added.
pub fn stitch(
    map: &CollisionMap,
    graph: &mut WaypointGraph,
    a: std::ops::Range<u32>,
    radius: f32,
    k: usize,
) -> usize {
    let params = ReachParams {
        max_distance: radius * 2.0,
        ..Default::default()
    };
    let mut added = 0;
    for n in a.clone() {
        let pn = graph.get(n).expect("in range").origin;
        let near: Vec<(u32, f32)> = graph
            .near(pn, radius)
            .into_iter()
            .filter(|(m, _)| !a.contains(m))
            .take(k)
            .collect();
        for (m, _) in near {
            added += graph.link_reachable(map, n, m, &params);
        }
    }
    added
}
