//! Exploration: what a bot with no goal does so that bots spread out and cover the map. It
//! heads for a visible, reachable weapon or powerup that has no item waypoint yet; otherwise
//! it feels along eight directions (starting at a seeded random angle) and picks the one that
//! goes far on safe floor and ends where there are few waypoints. An item it could not reach
//! is left alone for a while; a bot that stays put too long gives up where it is, as a Quake
//! player stuck somewhere does with the `kill` command, and respawns.
//!
//! Entry point: [`choose_target`].

use std::collections::BTreeMap;

use glam::Vec3;

use crate::map::CollisionMap;
use crate::map::level::{ItemKind, Level};
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
    it.kind == ItemKind::Weapon
        || (it.kind == ItemKind::Powerup && it.classname != "item_artifact_envirosuit")
}

/// Seconds an item that could not be reached is left alone.
pub const SKIP_SECONDS: f32 = 20.0;
/// Seconds without getting 64 units away before a bot gives up where it is (Quake's `kill`).
pub const STUCK_SECONDS: f32 = 12.0;

/// Side of a cell of the visit map.
pub const VISIT_CELL: f32 = 128.0;

/// How often bots have been in each 128-unit cell (sampled at 10 Hz): exploration's memory of
/// where the team has been, so that bots head for what nobody has seen.
#[derive(Clone, Debug, Default)]
pub struct VisitMap {
    cells: BTreeMap<(i32, i32, i32), u32>,
}

impl VisitMap {
    fn cell(p: Vec3) -> (i32, i32, i32) {
        (
            (p.x / VISIT_CELL).floor() as i32,
            (p.y / VISIT_CELL).floor() as i32,
            (p.z / VISIT_CELL).floor() as i32,
        )
    }

    /// Counts a visit at `p`.
    pub fn visit(&mut self, p: Vec3) {
        *self.cells.entry(Self::cell(p)).or_insert(0) += 1;
    }

    /// Visits counted in the cell of `p`.
    pub fn visits(&self, p: Vec3) -> u32 {
        self.cells.get(&Self::cell(p)).copied().unwrap_or(0)
    }

    /// Cells visited at least once.
    pub fn cells(&self) -> usize {
        self.cells.len()
    }
}

/// The next point to explore toward, and the item it is for if any. Items in `skip` are
/// left alone.
#[allow(clippy::too_many_arguments)] // each is a separate read-only view the choice needs
pub fn choose_target(
    map: &CollisionMap,
    graph: &WaypointGraph,
    visits: &VisitMap,
    level: &Level,
    s: &PlayerState,
    percepts: &Percepts,
    skip: &[(usize, f32)],
    rng: &mut SimRng,
) -> (Vec3, Option<usize>) {
    // An unmarked important item in reach comes first.
    for r in &percepts.reachable {
        if let Thing::Item(i) = r.thing
            && wants_item_waypoint(level, i)
            && !skip.iter().any(|k| k.0 == i)
            && graph
                .find_kind(|k| matches!(k, WaypointKind::Item { item, .. } if *item == i))
                .is_none()
            && let Some(v) = percepts.visible.iter().find(|v| v.thing == r.thing)
        {
            return (Vec3::new(v.pos.x, v.pos.y, s.origin.z), Some(i));
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
        // Far, to places few have been and with few waypoints.
        let crowd = graph.near(end, CROWD_RADIUS).len() as f32;
        let seen =
            visits.visits(end) as f32 + visits.visits(s.origin + dir * travel * 0.5) as f32 * 0.5;
        let score = travel * 0.5 + 600.0 / (1.0 + seen) - 20.0 * crowd + rng.range(0.0, 40.0);
        if best.is_none_or(|b| score > b.0) {
            best = Some((score, end));
        }
    }
    let target = best.map(|b| b.1).unwrap_or_else(|| {
        let a = rng.range(0.0, std::f32::consts::TAU);
        s.origin + Vec3::new(a.cos(), a.sin(), 0.0) * 128.0
    });
    (target, None)
}
