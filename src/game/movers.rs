//! The movers stage and the ways movers are set off: plats, doors, buttons, trains and secret
//! doors advance by their state machines ([`crate::physics::movers`]) and carry or push the
//! players in their way ([`movers_system`]); touches and triggers use them ([`use_mover`]),
//! targets fire in chains ([`fire_targets`], Quake's SUB_UseTargets), and damage opens
//! shootable secret doors and doors with health, presses buttons with health and fires
//! triggers with health ([`damage_mover`]).
//!
//! The stage reads [`Vitals`]; writes [`MoverSlot`], [`Motion`] (riders), mover offsets and
//! player bodies in the collision map, trigger activation, events, sounds, and crushes.

use std::sync::Arc;

use glam::Vec3;

use crate::map::EntId;
use crate::map::level::MoverKind;
use crate::physics::movers::{Carry, MoverEvent, carry};
use crate::physics::pmove::{PLAYER_MAXS, PLAYER_MINS};
use crate::sim::components::{Motion, MoverSlot, Vitals};
use crate::sim::sound::SoundKind;
use crate::sim::{Player, Sim, SimEvent};

use super::life::hurt;

/// Uses mover `index` (a touch or a trigger), recording when that starts it moving.
pub fn use_mover(sim: &mut Sim, index: usize) {
    let level = Arc::clone(&sim.level);
    let def = &level.movers[index];
    if let Ok(slot) = sim.world.query_one_mut::<&mut MoverSlot>(sim.movers[index])
        && slot.state.use_mover(def) == Some(MoverEvent::Started)
    {
        sim.events.push(SimEvent::MoverStart { mover: def.id.0 });
        let (mn, mx) = sim
            .cmap
            .mover_bounds(def.id)
            .unwrap_or((def.mins, def.maxs));
        sim.sound(SoundKind::Mover, (mn + mx) * 0.5, Some(def.id));
        // A secret door fires its targets as it starts to open (a door that targets itself
        // is away from home by then, so this ends), a trigger with health as it is shot.
        if let (MoverKind::SecretDoor { .. } | MoverKind::ShotTrigger, Some(t)) =
            (&def.kind, &def.target)
        {
            fire_targets(sim, t);
        }
    }
}

/// Damage reached the mover with trace id `id`: a shootable secret door opens (Quake gives
/// it 10,000 health and opens it from its pain function, so any hit does), a button or
/// trigger with health is pressed or fires (id's maps give them 1); a door with
/// health opens with the doors linked to it, while it is closed or closing (doors.qc
/// kills it at any damage, since id's maps give such doors 1 health, and takes damage
/// again once it starts back down).
pub fn damage_mover(sim: &mut Sim, id: EntId) {
    use crate::physics::movers::Phase;
    let level = Arc::clone(&sim.level);
    let Some(index) = level.movers.iter().position(|m| m.id == id) else {
        return;
    };
    let def = &level.movers[index];
    match def.kind {
        MoverKind::Door {
            shootable: true, ..
        } => {
            let shut = sim
                .world
                .get::<&MoverSlot>(sim.movers[index])
                .is_ok_and(|m| matches!(m.state.phase, Phase::AtA | Phase::ToA));
            if shut {
                for &d in &def.linked {
                    use_mover(sim, d);
                }
            }
        }
        _ if def.kind.is_shootable() => use_mover(sim, index),
        _ => {}
    }
}

/// Fires every mover and trigger named `target` (Quake's SUB_UseTargets). A door fired
/// opens with the doors linked to it (doors.qc `door_fire` walks the whole chain).
pub fn fire_targets(sim: &mut Sim, target: &str) {
    let level = Arc::clone(&sim.level);
    let mut used: Vec<usize> = Vec::new();
    for (i, def) in level.movers.iter().enumerate() {
        if def.targetname.as_deref() == Some(target) {
            match def.kind {
                MoverKind::Door { .. } => used.extend(&def.linked),
                _ => used.push(i),
            }
        }
    }
    used.sort_unstable();
    used.dedup();
    for i in used {
        use_mover(sim, i);
    }
    for (i, t) in level.triggers.iter().enumerate() {
        if t.targetname.as_deref() == Some(target) {
            sim.triggers[i].active = true;
        }
    }
}

/// Movers advance; players standing on one, or in its way, are carried with it. When a
/// carried player would end inside something the mover is blocked: it stays put, takes its
/// blocked action (plats and doors turn back) and hurts the player.
pub fn movers_system(sim: &mut Sim) {
    let level = Arc::clone(&sim.level);
    let dt = sim.dt;
    for mi in 0..sim.movers.len() {
        let def = &level.movers[mi];
        let me = sim.movers[mi];
        let Ok(old) = sim.world.get::<&MoverSlot>(me).map(|m| m.state) else {
            continue;
        };
        let (new, event) = old.step(def, &level.path_corners, dt);
        let delta = new.offset - old.offset;
        let mut blocker = None;
        if delta != Vec3::ZERO {
            sim.cmap_mut().set_mover_offset(def.id, new.offset);
            // Players moved so far, with where they were.
            let mut moved: Vec<(Player, Vec3)> = Vec::new();
            for &p in &sim.players {
                let Ok((m, v)) = sim.world.query_one_mut::<(&mut Motion, &Vitals)>(p.entity) else {
                    continue;
                };
                if !v.alive {
                    continue;
                }
                let to = match carry(
                    &sim.cmap,
                    def.id,
                    delta,
                    m.0.origin,
                    m.0.on_ground,
                    Some(p.id),
                ) {
                    Carry::Untouched => continue,
                    Carry::Blocked => {
                        blocker = Some(p);
                        break;
                    }
                    Carry::Carried(to) => to,
                };
                moved.push((p, m.0.origin));
                m.0.origin = to;
                std::sync::Arc::make_mut(&mut sim.cmap).set_body(
                    p.id,
                    to,
                    PLAYER_MINS,
                    PLAYER_MAXS,
                );
            }
            if let Some(b) = blocker {
                // Undo: the mover and everyone it pushed go back.
                sim.cmap_mut().set_mover_offset(def.id, old.offset);
                for (p, origin) in moved {
                    if let Ok(mut m) = sim.world.get::<&mut Motion>(p.entity) {
                        m.0.origin = origin;
                    }
                    sim.cmap_mut()
                        .set_body(p.id, origin, PLAYER_MINS, PLAYER_MAXS);
                }
                if let Ok(mut slot) = sim.world.get::<&mut MoverSlot>(me) {
                    slot.state.blocked(def);
                }
                hurt(sim, b, def.dmg, "crushed");
                continue;
            }
        }
        if let Ok(mut slot) = sim.world.get::<&mut MoverSlot>(me) {
            slot.state = new;
        }
        if event == Some(MoverEvent::ReachedB)
            && let (MoverKind::Button { .. }, Some(t)) = (&def.kind, def.target.as_deref())
        {
            fire_targets(sim, t);
        }
    }
}
