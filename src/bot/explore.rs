//! Exploration: what a bot with no goal does so that bots spread out and cover the map. It
//! heads for a visible, reachable weapon or powerup that has no item waypoint yet; otherwise
//! it feels along eight directions (starting at a seeded random angle) and picks the one that
//! goes far and ends where there are few waypoints.
//!
//! Entry point: [`choose_target`].

use glam::Vec3;

use crate::map::level::{ItemKind, Level};
use crate::map::CollisionMap;
use crate::nav::waypoints::{WaypointGraph, WaypointKind};
use crate::physics::pmove::PlayerState;
use crate::sim::rng::SimRng;

use super::movement::{MoveParams, safe_run};
use super::{Percepts, Thing};

/// How far a direction is felt.
pub const FEEL: f32 = 512.0;
/// Waypoints within this distance of a direction's end count against it.
pub const CROWD_RADIUS: f32 = 192.0;
/// Seconds before a target is given up.
pub const TARGET_SECONDS: f32 = 4.0;

/// Whether an item is one that gets an item waypoint (weapons and powerups but the biosuit).
pub fn wants_item_waypoint(level: &Level, item: usize) -> bool {
    let it = &level.items[item];
    it.kind == ItemKind::Weapon || (it.kind == ItemKind::Powerup && it.classname != "item_artifact_envirosuit")
}

/// The next point to explore toward.
pub fn choose_target(
    map: &CollisionMap,
    graph: &WaypointGraph,
    level: &Level,
    s: &PlayerState,
    percepts: &Percepts,
    rng: &mut SimRng,
) -> Vec3 {
    // An unmarked important item in reach comes first.
    for r in &percepts.reachable {
        if let Thing::Item(i) = r.thing
            && wants_item_waypoint(level, i)
            && graph.find_kind(|k| matches!(k, WaypointKind::Item { item, .. } if *item == i)).is_none()
            && let Some(v) = percepts.visible.iter().find(|v| v.thing == r.thing)
        {
            return Vec3::new(v.pos.x, v.pos.y, s.origin.z);
        }
    }
    let start = rng.range(0.0, 360.0);
    let mut best: Option<(f32, Vec3)> = None;
    for k in 0..8 {
        let a = (start + 45.0 * k as f32).to_radians();
        let dir = Vec3::new(a.cos(), a.sin(), 0.0);
        // Only as far as the floor is safe: no pits, lava or slime.
        let travel = safe_run(map, s.origin, dir, FEEL, MoveParams::default().max_drop) - 16.0;
        if travel < 48.0 {
            continue;
        }
        let end = s.origin + dir * travel;
        let crowd = graph.near(end, CROWD_RADIUS).len() as f32;
        let score = travel - 60.0 * crowd + rng.range(0.0, 40.0);
        if best.is_none_or(|b| score > b.0) {
            best = Some((score, end));
        }
    }
    best.map(|b| b.1).unwrap_or_else(|| {
        let a = rng.range(0.0, std::f32::consts::TAU);
        s.origin + Vec3::new(a.cos(), a.sin(), 0.0) * 128.0
    })
}
