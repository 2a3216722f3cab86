//! The aim stage (after movement, before the physics): a player whose [`Aim`] asks to look
//! somewhere other than where it runs — a brain bot fighting while it strafes, an explorer
//! shooting a secret door — turns its view there and keeps its run by turning the forward and
//! side speeds into the view's frame.
//!
//! Reads [`Aim`]; writes [`Command`].

use crate::game::Aim;
use crate::physics::pmove::angle_vectors;
use crate::sim::Sim;
use crate::sim::components::Command;

/// The aim stage (after movement): a bot that looks somewhere else than where it runs keeps
/// its run by turning its forward and side speeds into the view's frame.
pub fn aim_system(sim: &mut Sim) {
    let mut view = sim.world.view_mut::<(&Aim, &mut Command)>();
    for p in &sim.players {
        let Some((aim, cmd)) = view.get_mut(p.entity) else {
            continue;
        };
        let Some((yaw, pitch)) = aim.view else {
            continue;
        };
        let c = &mut cmd.0;
        let (f, r) = angle_vectors(c.yaw, 0.0);
        let wish = f * c.forward_move + r * c.side_move;
        let (f2, r2) = angle_vectors(yaw, 0.0);
        c.forward_move = wish.dot(f2);
        c.side_move = wish.dot(r2);
        c.yaw = yaw;
        c.pitch = pitch;
    }
}
