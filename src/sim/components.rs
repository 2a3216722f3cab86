//! ECS components the engine needs. Players carry [`Id`], [`Name`], [`Motion`], [`Command`],
//! [`Vitals`], [`PlayerStats`], [`Still`] and their [`PlayerRng`]; movers a [`MoverSlot`]; items
//! an [`ItemSlot`]. Systems never trust hecs iteration order: they walk the sorted entity lists
//! the [`super::Sim`] keeps.

use glam::Vec3;
use serde::Serialize;

use crate::map::EntId;
use crate::physics::damage::EnvTimers;
use crate::physics::movers::MoverState;
use crate::physics::{PlayerState, UserCmd};

use super::hash::{StateHash, StateHasher};
use super::rng::SimRng;

/// Stable id (also the body id in the collision map).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Id(pub EntId);

/// A player's name.
#[derive(Clone, Debug)]
pub struct Name(pub String);

/// The player's movement state; only the physics stage writes it.
#[derive(Clone, Copy, Debug)]
pub struct Motion(pub PlayerState);

/// This tick's user command, written by the controller stage.
#[derive(Clone, Copy, Debug, Default)]
pub struct Command(pub UserCmd);

/// Health, armour, life and the environment's damage timers.
#[derive(Clone, Copy, Debug)]
pub struct Vitals {
    /// Health points (100 at spawn).
    pub health: f32,
    /// Armour points.
    pub armor: f32,
    /// Fraction of damage armour takes (0.3 green, 0.6 yellow, 0.8 red).
    pub armor_type: f32,
    /// Alive or waiting to respawn.
    pub alive: bool,
    /// Seconds until respawn while dead.
    pub respawn_in: f32,
    /// Liquid, drowning and fall damage timers.
    pub env: EnvTimers,
}

impl Vitals {
    /// A freshly spawned player.
    pub fn spawned() -> Vitals {
        Vitals {
            health: 100.0,
            armor: 0.0,
            armor_type: 0.0,
            alive: true,
            respawn_in: 0.0,
            env: EnvTimers::new(),
        }
    }
}

/// Per-player counters for the run report.
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct Stats {
    /// Units travelled (sum of per-tick displacement, teleports excluded).
    pub distance: f32,
    /// Jumps started.
    pub jumps: u32,
    /// Teleporter uses.
    pub teleports: u32,
    /// Items picked up.
    pub pickups: u32,
    /// Deaths.
    pub deaths: u32,
    /// Damage taken.
    pub damage_taken: f32,
    /// Ticks spent in a liquid (water level ≥ 1).
    pub ticks_in_liquid: u32,
    /// Ticks spent riding a mover.
    pub ticks_on_mover: u32,
    /// Frags: +1 per kill of another player, −1 per suicide or death by the world.
    pub frags: i32,
    /// Other players killed.
    pub kills: u32,
    /// Deaths scored against oneself (own weapon, hazards, the `kill` command).
    pub suicides: u32,
    /// Health and armour taken from other players.
    pub damage_dealt: f32,
    /// Shots fired.
    pub shots: u32,
    /// Waypoints this player dropped.
    pub waypoints_dropped: u32,
    /// Longest time alive without getting 64 units from one spot, seconds.
    pub longest_still: f32,
}

/// The spawn point (index into the level's) a dead player asks to come back at: the respawn
/// stage takes it where it is free (else draws one as always) and clears it. Only exploring
/// bots ask (the control stage: the spawn point whose surroundings their team knows least).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SpawnWish(pub Option<usize>);

/// Where a player was when it last got 64 units away from there, and for how long it has
/// stayed within 64 units of it (alive).
#[derive(Clone, Copy, Debug, Default)]
pub struct Still {
    /// The spot.
    pub anchor: Vec3,
    /// Seconds within 64 units of it.
    pub seconds: f32,
}

/// Cumulative statistics for one player.
#[derive(Clone, Copy, Debug)]
pub struct PlayerStats(pub Stats);

/// What the last physics step reported for a player.
#[derive(Clone, Copy, Debug, Default)]
pub struct LastMove(pub crate::physics::pmove::MoveEvents);

/// The player's own random stream.
#[derive(Clone, Debug)]
pub struct PlayerRng(pub SimRng);

/// A mover entity: index into `Level::movers` and its state.
#[derive(Clone, Copy, Debug)]
pub struct MoverSlot {
    /// Index of its definition.
    pub def: usize,
    /// Current state.
    pub state: MoverState,
}

/// An item entity.
#[derive(Clone, Copy, Debug)]
pub struct ItemSlot {
    /// Index into `Level::items`.
    pub def: usize,
    /// Origin: dropped to the floor, then carried by the mover it rests on.
    pub origin: Vec3,
    /// The mover it rests on, which carries it as it moves (Quake's pushers move what stands
    /// on them, items included: an item on a plat or a hatch rides along).
    pub rides: Option<crate::map::EntId>,
    /// Can be picked up now.
    pub available: bool,
    /// Ticks until it respawns (`u64::MAX`: never). Whole ticks, so that a 30 s respawn
    /// is exactly 600 ticks at 20 Hz rather than an f32 sum of 0.05 s steps. While a
    /// megahealth rots ([`ItemSlot::rotting`]) it counts down to the next rot instead.
    pub respawn_ticks: u64,
    /// A taken megahealth rotting its taker's health down to 100 (items.qc
    /// `item_megahealth_rot`): the taker, whose health drops a point each second from 5 s
    /// after the pickup while above 100; the 20-s respawn starts when the rot ends.
    pub rotting: Option<crate::map::EntId>,
}

impl StateHash for Motion {
    fn hash_state(&self, h: &mut StateHasher) {
        let s = &self.0;
        h.vec3(s.origin);
        h.vec3(s.velocity);
        h.f32(s.yaw);
        h.f32(s.pitch);
        h.u64(s.on_ground.map(|g| g.0 as u64 + 1).unwrap_or(0));
        h.u64(s.water_level as u64 | (s.water_type.0 as u64) << 8);
        h.u64(s.jump_held as u64);
        h.f32(s.water_jump_time);
        h.f32(s.teleport_time);
    }
}

impl StateHash for Vitals {
    fn hash_state(&self, h: &mut StateHasher) {
        h.f32(self.health);
        h.f32(self.armor);
        h.f32(self.armor_type);
        h.u64(self.alive as u64);
        h.f32(self.respawn_in);
        h.f32(self.env.liquid_cooldown);
        h.f32(self.env.air_left);
        h.f32(self.env.drown_cooldown);
        h.f32(self.env.drown_damage);
    }
}

impl StateHash for PlayerRng {
    fn hash_state(&self, h: &mut StateHasher) {
        self.0.hash_state(h);
    }
}

/// Frags, kills and deaths steer the match (limits, scoring); the other counters only
/// report it.
impl StateHash for PlayerStats {
    fn hash_state(&self, h: &mut StateHasher) {
        h.u64(self.0.frags as i64 as u64);
        h.u64(self.0.kills as u64 | (self.0.deaths as u64) << 32);
    }
}

impl StateHash for MoverSlot {
    fn hash_state(&self, h: &mut StateHasher) {
        h.vec3(self.state.offset);
        h.u64(self.state.phase as u64);
        h.f32(self.state.timer);
        h.u64(self.state.corner.map(|c| c as u64 + 1).unwrap_or(0));
    }
}

impl StateHash for ItemSlot {
    fn hash_state(&self, h: &mut StateHasher) {
        h.u64(self.available as u64);
        h.u64(self.respawn_ticks);
        h.u64(self.rotting.map(|e| e.0 as u64 + 1).unwrap_or(0));
    }
}
