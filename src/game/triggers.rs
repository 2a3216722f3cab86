//! The triggers stage: firings whose delay ran out go off; then trigger volumes touched by
//! living players — teleporters (Quake's teleport_touch, with telefrags), pushes
//! ([`crate::physics::push`]), plat and door fields, `trigger_once` / `trigger_multiple`
//! firing their targets, `trigger_hurt` — and buttons pressed by touching their brushes.
//! Players go in id order, triggers in map order.
//!
//! Reads [`Motion`] and [`Vitals`]; writes trigger run-time state, mover use (through
//! [`super::movers`]), teleported players' [`Motion`] and [`PlayerStats`], bodies, sounds,
//! events, and damage.

use std::sync::Arc;

use glam::Vec3;

use crate::map::collision::{overlaps, touches};
use crate::map::level::{MoverKind, TriggerKind};
use crate::physics::pmove::{PLAYER_MAXS, PLAYER_MINS};
use crate::physics::push::pushed;
use crate::physics::teleport::teleported;
use crate::sim::components::{Motion, PlayerStats, Vitals};
use crate::sim::sound::SoundKind;
use crate::sim::{Player, Sim, SimEvent};

use super::life::{hurt, telefrag};
use super::movers::{delayed_uses, multi_trigger, use_mover};

/// Trigger volumes touched by living players, players in id order and triggers in map order:
/// teleporters, plat and door fields, buttons, trigger_once/multiple, trigger_hurt.
pub fn triggers_system(sim: &mut Sim) {
    let level = Arc::clone(&sim.level);
    let dt = sim.dt;
    for t in &mut sim.triggers {
        t.rearm = (t.rearm - dt).max(0.0);
    }
    delayed_uses(sim);
    for pi in 0..sim.players.len() {
        let p = sim.players[pi];
        let state = match sim.world.query_one_mut::<(&Motion, &Vitals)>(p.entity) {
            Ok((m, v)) if v.alive => m.0,
            _ => continue,
        };
        let (mn, mx) = (state.origin + PLAYER_MINS, state.origin + PLAYER_MAXS);
        for (ti, t) in level.triggers.iter().enumerate() {
            if !touches(mn, mx, t.mins, t.maxs) || !sim.triggers[ti].active {
                continue;
            }
            match &t.kind {
                TriggerKind::Teleport { dest: Some(d) } => {
                    let dest = &level.teleport_dests[*d];
                    teleport(sim, p, dest.origin, dest.yaw);
                    sim.events.push(SimEvent::Teleport {
                        player: p.id.0,
                        trigger: ti,
                        dest: dest.name.clone(),
                    });
                    // The player is elsewhere now; other volumes wait for the next tick.
                    break;
                }
                TriggerKind::PlatRaise { mover } => {
                    use_mover(sim, *mover);
                }
                TriggerKind::DoorField { mover } => {
                    if sim.triggers[ti].rearm > 0.0 {
                        continue;
                    }
                    sim.triggers[ti].rearm = 1.0;
                    for &d in &level.movers[*mover].linked {
                        use_mover(sim, d);
                    }
                }
                TriggerKind::Multiple { .. } | TriggerKind::Once => multi_trigger(sim, ti, 0),
                TriggerKind::Push { velocity, once } => {
                    if let Ok(m) = sim.world.query_one_mut::<&mut Motion>(p.entity) {
                        m.0 = pushed(&m.0, *velocity);
                    }
                    if *once {
                        sim.triggers[ti].active = false;
                    }
                }
                TriggerKind::Hurt { dmg } => {
                    if sim.triggers[ti].rearm <= 0.0 {
                        sim.triggers[ti].rearm = 1.0;
                        if hurt(sim, p, *dmg, "trigger_hurt") {
                            break;
                        }
                    }
                }
                TriggerKind::Teleport { dest: None } | TriggerKind::Inert => {}
            }
        }
        // Buttons are pressed by touching their brushes (the box grown by a unit), but for
        // those with health (buttons.qc gives them no touch function).
        for (mi, def) in level.movers.iter().enumerate() {
            if !matches!(def.kind, MoverKind::Button { shot: false, .. }) {
                continue;
            }
            let Some((bmn, bmx)) = sim.cmap.mover_bounds(def.id) else {
                continue;
            };
            if overlaps(mn - Vec3::ONE, mx + Vec3::ONE, bmn, bmx) {
                use_mover(sim, mi);
            }
        }
    }
}

/// Moves `player` to `origin` facing `yaw` with Quake's teleport push
/// ([`crate::physics::teleport`]), killing anyone standing there (telefrag).
pub fn teleport(sim: &mut Sim, player: Player, origin: Vec3, yaw: f32) {
    let mut from = None;
    if let Ok((m, st)) = sim
        .world
        .query_one_mut::<(&mut Motion, &mut PlayerStats)>(player.entity)
    {
        from = Some(m.0.origin);
        m.0 = teleported(&m.0, origin, yaw);
        st.0.teleports += 1;
    }
    if let Some(f) = from {
        sim.sound(SoundKind::Teleport, f, Some(player.id));
        sim.sound(SoundKind::Teleport, origin, Some(player.id));
    }
    telefrag(sim, player.id, origin);
    sim.cmap_mut()
        .set_body(player.id, origin, PLAYER_MINS, PLAYER_MAXS);
}
