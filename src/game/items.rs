//! Items: what picking one up gives (Quake's items.qc — health, megahealth and armour here,
//! weapons, ammunition and powerups through [`Inventory::pickup`]) and the items stage that
//! runs respawn timers and pickups ([`items_system`]).
//!
//! The stage reads [`Motion`] and [`MatchRules::respawn_scale`]; writes [`ItemSlot`], [`Vitals`],
//! [`Inventory`], [`PlayerStats`], sounds and events.

use std::sync::Arc;

use glam::Vec3;

use crate::map::EntId;
use crate::map::collision::overlaps;
use crate::map::level::ItemKind;
use crate::physics::pmove::{PLAYER_MAXS, PLAYER_MINS};
use crate::sim::components::{ItemSlot, Motion, PlayerStats, Vitals};
use crate::sim::sound::SoundKind;
use crate::sim::{Sim, SimEvent};

use super::{Inventory, MatchRules};

/// Health a health box gives, up to [`HEALTH_MAX`].
pub const HEALTH_BOX: f32 = 25.0;
/// Health above which a health box is left lying.
pub const HEALTH_MAX: f32 = 100.0;
/// Health a megahealth gives, up to [`MEGA_MAX`].
pub const MEGA_BOX: f32 = 100.0;
/// Highest health a megahealth takes a player to.
pub const MEGA_MAX: f32 = 250.0;

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
    let boxes: Vec<PlayerBox> = sim
        .players
        .iter()
        .filter_map(|p| {
            let mut q = sim.world.query_one::<(&Motion, &Vitals)>(p.entity);
            let (m, v) = q.get().ok()?;
            v.alive.then_some(PlayerBox {
                id: p.id,
                entity: p.entity,
                mins: m.0.origin + PLAYER_MINS,
                maxs: m.0.origin + PLAYER_MAXS,
            })
        })
        .collect();
    // The slots, read once and written back once (a world lookup per item cost as much as
    // the stage's work on small matches).
    let mut slots: Vec<Option<ItemSlot>> = {
        let view = sim.world.view::<&ItemSlot>();
        sim.items.iter().map(|&e| view.get(e).copied()).collect()
    };
    for slot in slots.iter_mut() {
        let Some(slot) = slot else {
            continue;
        };
        let def = &level.items[slot.def];
        if !slot.available {
            slot.respawn_ticks = slot.respawn_ticks.saturating_sub(1);
            if slot.respawn_ticks == 0 {
                slot.available = true;
                sim.sounds
                    .emit(SoundKind::ItemRespawn, slot.origin, None, tick, rate);
            }
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
                ItemKind::Health => heal(v, HEALTH_BOX, HEALTH_MAX),
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
                slot.respawn_ticks = def
                    .respawn
                    .map(|secs| ((secs * respawn_scale / dt).round() as u64).max(1))
                    .unwrap_or(u64::MAX);
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
}
