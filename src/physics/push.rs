//! Quake's `trigger_push` (triggers.qc `trigger_push_touch`): a living player or a grenade
//! touching the volume has its velocity *set* to the push's (`speed × 10` along its
//! direction) every tick it touches; a PUSH_ONCE push is removed after its first touch.
//! One pure function that the simulation's trigger stage, the compiled reachabilities and
//! the travel-time planner all use, beside the teleport rule.

use glam::Vec3;

use crate::map::collision::touches;
use crate::map::level::{Level, TriggerKind};

use super::pmove::{PLAYER_MAXS, PLAYER_MINS, PlayerState};

/// A push volume of a level.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Push {
    /// Box minimum.
    pub mins: Vec3,
    /// Box maximum.
    pub maxs: Vec3,
    /// The velocity it gives.
    pub velocity: Vec3,
    /// Removed after its first touch.
    pub once: bool,
    /// Its index in the level's triggers.
    pub trigger: u32,
}

/// The level's push volumes, in map order.
pub fn pushes(level: &Level) -> Vec<Push> {
    level
        .triggers
        .iter()
        .enumerate()
        .filter_map(|(i, t)| match t.kind {
            TriggerKind::Push { velocity, once } => Some(Push {
                mins: t.mins,
                maxs: t.maxs,
                velocity,
                once,
                trigger: i as u32,
            }),
            _ => None,
        })
        .collect()
}

/// The first of `pushes` a player standing at `origin` touches.
pub fn push_at(pushes: &[Push], origin: Vec3) -> Option<&Push> {
    pushes
        .iter()
        .find(|p| touches(origin + PLAYER_MINS, origin + PLAYER_MAXS, p.mins, p.maxs))
}

/// A player's state after a push gives it `velocity`: off the ground when sent upward.
pub fn pushed(s: &PlayerState, velocity: Vec3) -> PlayerState {
    PlayerState {
        velocity,
        on_ground: if velocity.z > 0.0 { None } else { s.on_ground },
        ..*s
    }
}
