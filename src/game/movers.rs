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
use crate::sim::components::{ItemSlot, Motion, MoverSlot, Vitals};
use crate::sim::sound::SoundKind;
use crate::sim::{DelayedUse, Player, Sim, SimEvent};

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
        if let MoverKind::SecretDoor { .. } | MoverKind::ShotTrigger = def.kind {
            use_targets(
                sim,
                def.target.as_deref(),
                def.killtarget.as_deref(),
                def.delay,
            );
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

/// How deep firing may chain through relays and triggers fired by name: a relay that
/// fires itself would loop for ever in Quake; here the chain stops.
const CHAIN_DEPTH: u32 = 32;

/// What an entity does as it fires (Quake's SUB_UseTargets): after its `delay` (a
/// [`DelayedUse`] waits it out), removes whatever its `killtarget` names
/// ([`kill_named`]), then fires everything its `target` names ([`fire_targets`]).
pub fn use_targets(sim: &mut Sim, target: Option<&str>, killtarget: Option<&str>, delay: f32) {
    use_targets_at(sim, target, killtarget, delay, 0);
}

fn use_targets_at(
    sim: &mut Sim,
    target: Option<&str>,
    killtarget: Option<&str>,
    delay: f32,
    depth: u32,
) {
    if delay > 0.0 {
        sim.delayed.push(DelayedUse {
            left: delay,
            target: target.map(str::to_string),
            killtarget: killtarget.map(str::to_string),
        });
        return;
    }
    if let Some(k) = killtarget {
        kill_named(sim, k);
    }
    if let Some(t) = target {
        fire_at(sim, t, depth);
    }
}

/// Removes the triggers, relays and counters named `name` (a killtarget; brush entities
/// stay, the level warns of those).
pub fn kill_named(sim: &mut Sim, name: &str) {
    let level = Arc::clone(&sim.level);
    for (i, t) in level.triggers.iter().enumerate() {
        if t.targetname.as_deref() == Some(name) {
            let rt = &mut sim.triggers[i];
            rt.removed = true;
            rt.active = false;
        }
    }
    for (i, r) in level.relays.iter().enumerate() {
        if r.targetname.as_deref() == Some(name) {
            sim.relays[i].removed = true;
        }
    }
}

/// Firings whose delay has run out go off, oldest first; the rest wait `dt` less.
pub fn delayed_uses(sim: &mut Sim) {
    if sim.delayed.is_empty() {
        return;
    }
    let dt = sim.dt;
    let mut due = Vec::new();
    sim.delayed.retain_mut(|d| {
        d.left -= dt;
        // Within a thousandth of a tick of its time counts as there (float seconds).
        let now = d.left <= dt * 1e-3;
        if now {
            due.push(std::mem::take(d));
        }
        !now
    });
    for d in due {
        use_targets(sim, d.target.as_deref(), d.killtarget.as_deref(), 0.0);
    }
}

/// Fires every mover, trigger and relay named `target` (Quake's SUB_UseTargets calling each
/// one's use function). A door fired opens with the doors linked to it (doors.qc
/// `door_fire` walks the whole chain); a `trigger_once` or `trigger_multiple` goes off as
/// if touched (multi_use); a named teleporter or push starts working; a `trigger_relay`
/// fires its own targets; a `trigger_counter` counts down and fires them when it reaches 0.
pub fn fire_targets(sim: &mut Sim, target: &str) {
    fire_at(sim, target, 0);
}

fn fire_at(sim: &mut Sim, target: &str, depth: u32) {
    use crate::map::level::{RelayKind, TriggerKind};
    if depth >= CHAIN_DEPTH {
        return;
    }
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
        if t.targetname.as_deref() != Some(target) || sim.triggers[i].removed {
            continue;
        }
        match t.kind {
            TriggerKind::Multiple { .. } | TriggerKind::Once
                if matches!(t.classname.as_str(), "trigger_multiple" | "trigger_once") =>
            {
                multi_trigger(sim, i, depth + 1);
            }
            _ => sim.triggers[i].active = true,
        }
    }
    for (i, r) in level.relays.iter().enumerate() {
        if r.targetname.as_deref() != Some(target) || sim.relays[i].removed {
            continue;
        }
        if let RelayKind::Counter { .. } = r.kind {
            let rt = &mut sim.relays[i];
            rt.count = rt.count.saturating_sub(1);
            if rt.count > 0 {
                continue;
            }
            rt.removed = true;
        }
        use_targets_at(
            sim,
            r.target.as_deref(),
            r.killtarget.as_deref(),
            r.delay,
            depth + 1,
        );
    }
}

/// Trigger `index` (a `trigger_once` or `trigger_multiple`) goes off, touched or fired by
/// name (triggers.qc multi_trigger): unless it went off less than its `wait` ago, or is a
/// `trigger_once` already spent, it fires its targets.
pub fn multi_trigger(sim: &mut Sim, index: usize, depth: u32) {
    use crate::map::level::TriggerKind;
    let level = Arc::clone(&sim.level);
    let t = &level.triggers[index];
    let rt = &mut sim.triggers[index];
    match t.kind {
        TriggerKind::Multiple { wait } => {
            if rt.rearm > 0.0 || rt.spent {
                return;
            }
            // multi_trigger removes one with no wait after it fires.
            if wait > 0.0 {
                rt.rearm = wait;
            } else {
                rt.spent = true;
            }
        }
        TriggerKind::Once => {
            if rt.spent {
                return;
            }
            rt.spent = true;
        }
        _ => return,
    }
    use_targets_at(
        sim,
        t.target.as_deref(),
        t.killtarget.as_deref(),
        t.delay,
        depth,
    );
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
        if delta != Vec3::ZERO {
            // What rests on it rides along.
            for &e in &sim.items {
                if let Ok(mut item) = sim.world.get::<&mut ItemSlot>(e)
                    && item.rides == Some(def.id)
                {
                    item.origin += delta;
                }
            }
        }
        if event == Some(MoverEvent::ReachedB) && matches!(def.kind, MoverKind::Button { .. }) {
            use_targets(
                sim,
                def.target.as_deref(),
                def.killtarget.as_deref(),
                def.delay,
            );
        }
    }
}
