//! Quake's teleport rule (triggers.qc `teleport_touch`), one pure function that the
//! simulation's trigger stage and the travel-time planner both use.

use glam::Vec3;

use super::pmove::{PlayerState, angle_vectors};

/// Forward speed given by a teleporter (Quake: 300).
pub const TELEPORT_SPEED: f32 = 300.0;
/// Seconds after a teleport during which backward movement is ignored (Quake: 0.7).
pub const TELEPORT_LOCK: f32 = 0.7;

/// A player's state after a teleporter sends it to `origin` facing `yaw`: pushed forward at
/// [`TELEPORT_SPEED`], backward control locked for [`TELEPORT_LOCK`], in the air.
pub fn teleported(s: &PlayerState, origin: Vec3, yaw: f32) -> PlayerState {
    let (fwd, _) = angle_vectors(yaw, 0.0);
    PlayerState {
        origin,
        yaw,
        pitch: 0.0,
        velocity: fwd * TELEPORT_SPEED,
        on_ground: None,
        teleport_time: TELEPORT_LOCK,
        ..*s
    }
}
