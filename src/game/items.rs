//! Items: what picking one up gives (Quake's items.qc — health, megahealth and armour here,
//! weapons, ammunition and powerups through [`Inventory::pickup`]) and the items stage that
//! runs respawn timers, the megahealth's rot and pickups ([`items_system`]), and the ring of
//! shadows' breathing.
//!
//! The stage reads [`Motion`] and [`MatchRules::respawn_scale`]; writes [`ItemSlot`], [`Vitals`],
//! [`Inventory`], [`PlayerStats`], sounds and events.

use std::sync::Arc;

use glam::Vec3;

use crate::map::EntId;
use crate::map::collision::overlaps;
use crate::map::level::ItemKind;
use crate::physics::pmove::{PLAYER_MAXS, PLAYER_MINS};
use crate::sim::components::{ItemSlot, Motion, PlayerRng, PlayerStats, Vitals};
use crate::sim::sound::SoundKind;
use crate::sim::{Sim, SimEvent};

use super::{Inventory, MatchRules};

/// Health a health box gives, up to [`HEALTH_MAX`].
pub const HEALTH_BOX: f32 = 25.0;
/// Health a rotten health box (spawnflag 1) gives, up to [`HEALTH_MAX`].
pub const ROTTEN_BOX: f32 = 15.0;
/// Health above which a health box is left lying.
pub const HEALTH_MAX: f32 = 100.0;
/// Health a megahealth gives, up to [`MEGA_MAX`].
pub const MEGA_BOX: f32 = 100.0;
/// Highest health a megahealth takes a player to.
pub const MEGA_MAX: f32 = 250.0;
/// Seconds from taking a megahealth to its first rot (items.qc: `nextthink = time + 5`).
pub const MEGA_ROT_DELAY: f32 = 5.0;
/// Seconds between rots of one point (items.qc: `nextthink = time + 1`).
pub const MEGA_ROT_EVERY: f32 = 1.0;

/// What an `item_health` gives: 15 for a rotten box (spawnflag 1), 25 otherwise (items.qc
/// `item_health`; spawnflag 2, the megahealth, is [`MEGA_BOX`]).
pub fn health_box(spawnflags: u32) -> f32 {
    if spawnflags & 1 != 0 {
        ROTTEN_BOX
    } else {
        HEALTH_BOX
    }
}

/// What an armour class gives: the share of damage it takes and its points (green armour
/// 0.3 × 100, yellow 0.6 × 150, red 0.8 × 200).
pub fn armor_of(class: &str) -> (f32, f32) {
    match class {
        "item_armor1" => (0.3, 100.0),
        "item_armor2" => (0.6, 150.0),
        _ => (0.8, 200.0),
    }
}

/// Adds `amount` health up to `max`; false (the box stays) when already at `max`.
fn heal(v: &mut Vitals, amount: f32, max: f32) -> bool {
    if v.health >= max {
        return false;
    }
    v.health = (v.health + amount).min(max);
    true
}

/// A living player's box, read once per stage.
struct PlayerBox {
    id: EntId,
    entity: hecs::Entity,
    mins: Vec3,
    maxs: Vec3,
}

/// Items: respawn timers run; a living player overlapping an available item's box picks it
/// up (lowest id first). Health is only taken when it heals, armour only when it is better
/// than what is worn.
pub fn items_system(sim: &mut Sim, rules: &MatchRules) {
    let respawn_scale = rules.respawn_scale;
    let level = Arc::clone(&sim.level);
    let dt = sim.dt;
    let (tick, rate) = (sim.tick, sim.tick_rate());
    // Living players' boxes, read once: nothing here moves or kills a player, and asking the
    // world for every item and player pair cost more than the rest of the stage.
    // One view for them all: a query per player prepared the query every time.
    let boxes: Vec<PlayerBox> = {
        let view = sim.world.view::<(&Motion, &Vitals)>();
        sim.players
            .iter()
            .filter_map(|p| {
                let (m, v) = view.get(p.entity)?;
                v.alive.then_some(PlayerBox {
                    id: p.id,
                    entity: p.entity,
                    mins: m.0.origin + PLAYER_MINS,
                    maxs: m.0.origin + PLAYER_MAXS,
                })
            })
            .collect()
    };
    // The slots, read once and written back once (a world lookup per item cost as much as
    // the stage's work on small matches).
    let mut slots: Vec<Option<ItemSlot>> = {
        let view = sim.world.view::<&ItemSlot>();
        sim.items.iter().map(|&e| view.get(e).copied()).collect()
    };
    let ticks = |secs: f32| ((secs / dt).round() as u64).max(1);
    let respawn_of = |secs: f32| ((secs * respawn_scale / dt).round() as u64).max(1);
    for slot in slots.iter_mut() {
        let Some(slot) = slot else {
            continue;
        };
        let def = &level.items[slot.def];
        if !slot.available {
            slot.respawn_ticks = slot.respawn_ticks.saturating_sub(1);
            if slot.respawn_ticks > 0 {
                continue;
            }
            if let Some(owner) = slot.rotting {
                // items.qc item_megahealth_rot: a point a second while the taker is above
                // its maximum, then the respawn wait begins.
                let above = sim.player_by_id(owner).and_then(|p| {
                    let mut v = sim.world.get::<&mut Vitals>(p.entity).ok()?;
                    (v.health > HEALTH_MAX).then(|| v.health -= 1.0)
                });
                if above.is_some() {
                    slot.respawn_ticks = ticks(MEGA_ROT_EVERY);
                } else {
                    slot.rotting = None;
                    slot.respawn_ticks = def.respawn.map(respawn_of).unwrap_or(u64::MAX);
                }
                continue;
            }
            slot.available = true;
            sim.sounds
                .emit(SoundKind::ItemRespawn, slot.origin, None, tick, rate);
            continue;
        }
        let (imn, imx) = def.kind.bounds();
        // Quake grows item boxes by a unit sideways when linking them.
        let grow = Vec3::new(1.0, 1.0, 0.0);
        let (imn, imx) = (slot.origin + imn - grow, slot.origin + imx + grow);
        for b in &boxes {
            if !overlaps(b.mins, b.maxs, imn, imx) {
                continue;
            }
            let Ok((v, st, inv)) = sim
                .world
                .query_one_mut::<(&mut Vitals, &mut PlayerStats, &mut Inventory)>(b.entity)
            else {
                continue;
            };
            let taken = match def.kind {
                ItemKind::Health => heal(v, health_box(def.spawnflags), HEALTH_MAX),
                ItemKind::MegaHealth => heal(v, MEGA_BOX, MEGA_MAX),
                ItemKind::Armor => {
                    let (ty, val) = armor_of(&def.classname);
                    // Quake: take it only when it is better than what is worn.
                    if v.armor_type * v.armor >= ty * val {
                        false
                    } else {
                        v.armor_type = ty;
                        v.armor = val;
                        true
                    }
                }
                _ => inv.pickup(&def.classname, def.spawnflags, tick, rate),
            };
            if taken {
                st.0.pickups += 1;
                slot.available = false;
                if def.kind == ItemKind::MegaHealth {
                    slot.rotting = Some(b.id);
                    slot.respawn_ticks = ticks(MEGA_ROT_DELAY);
                } else {
                    slot.respawn_ticks = def.respawn.map(respawn_of).unwrap_or(u64::MAX);
                }
                sim.events.push(SimEvent::Pickup {
                    player: b.id.0,
                    item: def.classname.clone(),
                });
                sim.sounds
                    .emit(SoundKind::ItemPickup, slot.origin, Some(b.id), tick, rate);
                break;
            }
        }
    }
    let mut view = sim.world.view_mut::<&mut ItemSlot>();
    for (&e, slot) in sim.items.iter().zip(slots) {
        if let (Some(s), Some(slot)) = (view.get_mut(e), slot) {
            *s = slot;
        }
    }
    drop(view);
    ring_breath(sim);
}

/// Seconds between the ring of shadows' breaths: 1 plus up to 3 more at random (client.qc
/// CheckPowerups: `invisible_sound = time + ((random() * 3) + 1)`).
pub const BREATH_MIN: f32 = 1.0;

/// The ring of shadows' breathing: a living holder makes a [`SoundKind::Breath`] every 1–4 s
/// (drawn from its own stream), in id order.
fn ring_breath(sim: &mut Sim) {
    let (tick, rate) = (sim.tick, sim.tick_rate());
    let mut breaths = Vec::new();
    let mut view = sim
        .world
        .view_mut::<(&Motion, &Vitals, &mut Inventory, &mut PlayerRng)>();
    for p in &sim.players {
        let Some((m, v, inv, rng)) = view.get_mut(p.entity) else {
            continue;
        };
        if !v.alive || tick >= inv.ring_until || tick < inv.breath_at {
            continue;
        }
        let wait = BREATH_MIN + 3.0 * rng.0.unit();
        inv.breath_at = tick + ((wait * rate).round() as u64).max(1);
        breaths.push((m.0.origin, p.id));
    }
    drop(view);
    for (at, id) in breaths {
        sim.sounds.emit(SoundKind::Breath, at, Some(id), tick, rate);
    }
}
