//! Life and death, the one home of every rule about health: damage through armour (Quake's
//! T_Damage), with quad, pentagram and knockback ([`damage`], [`hurt`]); death and frags
//! (Quake's ClientObituary: [`kill`]); telefrags ([`telefrag`]); the environment's damage
//! stage (lava, slime, drowning, hard landings: [`damage_system`]) and respawning
//! ([`respawn_system`]).
//!
//! Stages here read [`Motion`], [`LastMove`] and [`Inventory`] and write [`Vitals`],
//! [`PlayerStats`] and [`Still`], player bodies in the collision map, sounds and events.

use glam::Vec3;

use crate::game::Inventory;
use crate::map::{Contents, EntId};
use crate::physics::damage::environment_damage;
use crate::physics::pmove::{PLAYER_MAXS, PLAYER_MINS, PlayerState};
use crate::sim::components::{LastMove, Motion, PlayerStats, SpawnWish, Still, Vitals};
use crate::sim::sound::SoundKind;
use crate::sim::{Player, Sim, SimEvent};

/// Seconds a dead player waits before respawning.
pub const RESPAWN_DELAY: f32 = 1.0;

/// Damage about to land on a player.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Damage {
    /// Points before quad and armour.
    pub amount: f32,
    /// The weapon or hazard, for events and the kill feed.
    pub cause: &'static str,
    /// Who did it (`None`: the world).
    pub attacker: Option<EntId>,
    /// Where it came from: the victim is pushed away from there (`None`: no knockback).
    pub from: Option<Vec3>,
}

impl Damage {
    /// Damage from the world (hazards, crushing, `trigger_hurt`): no attacker, no push.
    pub fn world(amount: f32, cause: &'static str) -> Damage {
        Damage {
            amount,
            cause,
            attacker: None,
            from: None,
        }
    }
}

/// The armour's share of `dmg` (its type's share rounded up, at most what is left), taken
/// off the armour; armour used up loses its type.
fn armour_save(v: &mut Vitals, dmg: f32) -> f32 {
    let mut save = (v.armor_type * dmg).ceil();
    if save >= v.armor {
        save = v.armor;
        v.armor_type = 0.0;
    }
    v.armor -= save;
    save
}

/// Takes `dmg` through armour (Quake's T_Damage: armour takes its type's share, rounded up,
/// while it lasts). Returns the health taken.
pub fn apply_damage(v: &mut Vitals, dmg: f32) -> f32 {
    if !v.alive || dmg <= 0.0 {
        return 0.0;
    }
    let save = armour_save(v, dmg);
    let take = (dmg - save).ceil();
    v.health -= take;
    take
}

/// Damages `victim`: quadrupled by the attacker's quad, knockback of 8 u/s per point away
/// from `d.from`, then through armour; a pain sound, or death. Under the pentagram the
/// armour still takes its share and the push still lands (combat.qc T_Damage checks
/// invincibility after both); only health is spared. Returns whether it died.
pub fn damage(sim: &mut Sim, victim: Player, d: Damage) -> bool {
    let tick = sim.tick;
    let Damage {
        mut amount,
        cause,
        attacker,
        from,
    } = d;
    if let Some(a) = attacker.and_then(|a| sim.player_by_id(a))
        && sim
            .world
            .get::<&Inventory>(a.entity)
            .is_ok_and(|inv| inv.quad(tick))
    {
        amount *= 4.0;
    }
    let (dealt, dead, at) = match sim
        .world
        .query_one_mut::<(&mut Vitals, &mut PlayerStats, &mut Motion, &Inventory)>(victim.entity)
    {
        Ok((v, st, m, inv)) if v.alive => {
            if let Some(f) = from {
                let dir = (m.0.origin - f).normalize_or_zero();
                m.0.velocity += dir * amount * 8.0;
            }
            if tick < inv.pent_until {
                // combat.qc T_Damage: armour takes its share and the push lands before the
                // invincibility check returns; health alone is spared.
                armour_save(v, amount);
                return false;
            }
            let before = v.health + v.armor;
            st.0.damage_taken += apply_damage(v, amount);
            let dealt = before - (v.health.max(0.0) + v.armor);
            (dealt, v.health <= 0.0, m.0.origin)
        }
        _ => return false,
    };
    if let Some(a) = attacker.filter(|&a| a != victim.id)
        && let Some(a) = sim.player_by_id(a)
        && let Ok(mut st) = sim.world.get::<&mut PlayerStats>(a.entity)
    {
        st.0.damage_dealt += dealt;
    }
    sim.events.push(SimEvent::Damage {
        player: victim.id.0,
        attacker: attacker.map(|a| a.0),
        amount: dealt,
        cause,
    });
    if dead {
        kill(sim, victim, cause, attacker);
    } else {
        sim.sound(SoundKind::Pain, at, Some(victim.id));
    }
    dead
}

/// Damages `victim` from the world (through armour): a pain sound, or death with `cause`.
/// Returns whether it died.
pub fn hurt(sim: &mut Sim, victim: Player, amount: f32, cause: &'static str) -> bool {
    damage(sim, victim, Damage::world(amount, cause))
}

/// Kills `victim`. Frags follow Quake: +1 to a killer other than the victim, −1 to the victim
/// for its own weapon, the world or the `kill` command.
pub fn kill(sim: &mut Sim, victim: Player, cause: &'static str, attacker: Option<EntId>) {
    let id = victim.id;
    let killer = attacker.filter(|&a| a != id);
    let Ok((v, st, m)) = sim
        .world
        .query_one_mut::<(&mut Vitals, &mut PlayerStats, &mut Motion)>(victim.entity)
    else {
        return;
    };
    if !v.alive {
        return;
    }
    v.alive = false;
    v.health = v.health.min(0.0);
    v.respawn_in = RESPAWN_DELAY;
    st.0.deaths += 1;
    if killer.is_none() {
        st.0.frags -= 1;
        st.0.suicides += 1;
    }
    m.0.velocity = Vec3::ZERO;
    let at = m.0.origin;
    if let Some(k) = killer.and_then(|k| sim.player_by_id(k))
        && let Ok(mut st) = sim.world.get::<&mut PlayerStats>(k.entity)
    {
        st.0.frags += 1;
        st.0.kills += 1;
    }
    sim.sound(SoundKind::Death, at, Some(id));
    sim.cmap_mut().remove_body(id);
    sim.events.push(SimEvent::Death {
        player: id.0,
        cause,
        killer: killer.map(|k| k.0),
    });
}

/// Kills whoever stands where `arriving` is put down at `origin` (a teleport or a respawn:
/// Quake's telefrag), lowest id first.
pub fn telefrag(sim: &mut Sim, arriving: EntId, origin: Vec3) {
    let victims: Vec<EntId> = sim
        .cmap
        .bodies_in_box(origin + PLAYER_MINS, origin + PLAYER_MAXS)
        .filter(|&b| b != arriving)
        .collect();
    for v in victims {
        if let Some(p) = sim.player_by_id(v) {
            kill(sim, p, "telefrag", Some(arriving));
        }
    }
}

/// The environment's damage stage: the void ([`in_the_void`]) kills; lava, slime, drowning
/// and hard landings hurt living players (the biosuit spares slime and drowning and makes
/// lava hurt once a second), in id order.
/// Reads [`Motion`], [`LastMove`], [`Inventory`]; writes [`Vitals`] (and deaths).
pub fn damage_system(sim: &mut Sim) {
    let dt = sim.dt;
    let tick = sim.tick;
    let void = sim.cmap.bounds();
    for pi in 0..sim.players.len() {
        let p = sim.players[pi];
        let Ok((m, v, last, inv)) = sim
            .world
            .query_one_mut::<(&Motion, &mut Vitals, &LastMove, &Inventory)>(p.entity)
        else {
            continue;
        };
        if !v.alive {
            continue;
        }
        // Out of the world through a leak: nothing there holds a player, who would fall for
        // ever; the void kills, as a trigger_hurt would.
        if in_the_void(m.0.origin, void) {
            kill(sim, p, "void", None);
            continue;
        }
        let suit = tick < inv.suit_until;
        let d = environment_damage(&m.0, last.0.landed, &mut v.env, dt, suit);
        let liquid = if m.0.water_type == Contents::LAVA {
            "lava"
        } else {
            "slime"
        };
        // Separate hits, in WaterMove's order then PlayerPostThink's, as Quake makes them.
        for (amount, cause) in [(d.drown, "drowned"), (d.liquid, liquid), (d.fall, "fall")] {
            if amount > 0.0 && hurt(sim, p, amount, cause) {
                break;
            }
        }
    }
}

/// How far beyond every brush of the world (units, any way) the void begins: more than a
/// player's height, so that no player the world holds is in it.
pub const VOID_MARGIN: f32 = 128.0;

/// Whether `origin` is in the void: beyond the world's brushes (`bounds`) by more than
/// [`VOID_MARGIN`], where only a leak in the map leads.
pub fn in_the_void(origin: Vec3, bounds: (Vec3, Vec3)) -> bool {
    let m = Vec3::splat(VOID_MARGIN);
    origin.cmplt(bounds.0 - m).any() || origin.cmpgt(bounds.1 + m).any()
}

/// The respawn stage: dead players wait [`RESPAWN_DELAY`] and come back at a free spawn
/// point (the one asked for in [`SpawnWish`] where it is free, else chosen with the world's
/// stream) with full health and the spawn kit, telefragging
/// whoever stands there. Writes [`Motion`], [`Vitals`], [`Inventory`], [`Still`] and bodies.
pub fn respawn_system(sim: &mut Sim) {
    let dt = sim.dt;
    for pi in 0..sim.players.len() {
        let p = sim.players[pi];
        let ready = match sim.world.get::<&mut Vitals>(p.entity) {
            Ok(mut v) if !v.alive => {
                v.respawn_in -= dt;
                v.respawn_in <= 1e-4
            }
            _ => false,
        };
        if !ready {
            continue;
        }
        // A spawn point asked for (an explorer starting again), where it is free.
        let wish = sim
            .world
            .get::<&mut SpawnWish>(p.entity)
            .ok()
            .and_then(|mut w| w.0.take())
            .filter(|&i| i < sim.level.spawns.len() && sim.spawn_free(i));
        let Some(spot) = wish.or_else(|| sim.choose_spawn()) else {
            continue;
        };
        let sp = sim.level.spawns[spot];
        if let Ok((m, v, inv, still)) =
            sim.world
                .query_one_mut::<(&mut Motion, &mut Vitals, &mut Inventory, &mut Still)>(p.entity)
        {
            m.0 = PlayerState::at(sp.origin, sp.yaw);
            *v = Vitals::spawned();
            *inv = Inventory::spawned();
            *still = Still {
                anchor: sp.origin,
                seconds: 0.0,
            };
        }
        telefrag(sim, p.id, sp.origin);
        sim.cmap_mut()
            .set_body(p.id, sp.origin, PLAYER_MINS, PLAYER_MAXS);
        sim.events.push(SimEvent::Spawn {
            player: p.id.0,
            spot,
        });
    }
}
