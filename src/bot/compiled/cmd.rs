//! The plainest commands: standing, braking, and the yaw toward a point.

use super::RUN_SPEED;
use crate::physics::pmove::{PlayerState, UserCmd};
use glam::Vec3;

pub(super) fn yaw_to(from: Vec3, to: Vec3) -> f32 {
    let d = to - from;
    d.y.atan2(d.x).to_degrees()
}

/// Standing still, looking where it looks.
pub(super) fn stand(s: &PlayerState) -> UserCmd {
    UserCmd {
        yaw: s.yaw,
        pitch: s.pitch,
        ..Default::default()
    }
}

/// Wishing full speed against the motion: pmove's acceleration toward the wish brakes
/// hard (on top of friction).
pub(super) fn brake(s: &PlayerState) -> UserCmd {
    let v = s.velocity.truncate();
    if v.length() < 1.0 {
        // Nothing to brake (a wish against no motion would run off at full speed).
        return stand(s);
    }
    UserCmd {
        forward_move: RUN_SPEED,
        yaw: (-v).y.atan2(-v.x).to_degrees(),
        pitch: s.pitch,
        ..Default::default()
    }
}

/// Out of a liquid by a water jump toward `p` (beyond the ledge): swimming level at it and
/// up. pmove lifts the player out as soon as it is waist deep facing the ledge, from
/// wherever in the liquid it comes at it, so the recorded start need not be reached first
/// (a swimmer drifts, and one steered to a point below the surface bobbed about it).
pub(super) fn hop_toward(s: &PlayerState, p: Vec3) -> UserCmd {
    UserCmd {
        forward_move: RUN_SPEED,
        up_move: RUN_SPEED,
        jump: true,
        yaw: yaw_to(s.origin, p),
        pitch: 0.0,
        ..Default::default()
    }
}
