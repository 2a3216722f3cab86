//! The state hash of a match, in parts: one per player (id order), then one for the rest of
//! the world, so that a replay that diverges names the first part that differs. Each part
//! is the listed pieces of state in a fixed order, each writing its own bytes
//! ([`StateHash`], implemented beside its type by the layer that owns it).
//!
//! A player: its id, movement, vitals, random stream, inventory, frags, route (and where a
//! compiled-navigation bot is on its route), movement memory, tracked enemies and percepts.
//! The world: movers, items, triggers, relays and delayed firings, the world's random stream, missiles and grenades,
//! whether the match is over, the waypoint graph and the sounds.

use hecs::{Component, Entity, World};

use crate::bot::Percepts;
use crate::bot::learned::LearnedMap;
use crate::bot::movement::MoveMemory;
use crate::bot::prediction::Tracking;
use crate::bot::routing::RouteState;
use crate::game::{GameState, Inventory};
use crate::sim::components::{ItemSlot, Motion, MoverSlot, PlayerRng, PlayerStats, Vitals};
use crate::sim::hash::{StateHash, StateHasher};
use crate::sim::{Player, Sim};

/// Feeds component `C` of `e` into `h`, when `e` has one.
fn part<C: Component + StateHash>(h: &mut StateHasher, world: &World, e: Entity) {
    if let Ok(c) = world.get::<&C>(e) {
        c.hash_state(h);
    }
}

/// The hash of one player's part.
pub fn player_hash(world: &World, p: Player) -> u64 {
    let mut h = StateHasher::default();
    h.u64(p.id.0 as u64);
    let e = p.entity;
    part::<Motion>(&mut h, world, e);
    part::<Vitals>(&mut h, world, e);
    part::<PlayerRng>(&mut h, world, e);
    part::<Inventory>(&mut h, world, e);
    part::<PlayerStats>(&mut h, world, e);
    part::<RouteState>(&mut h, world, e);
    part::<crate::bot::compiled::AreaNav>(&mut h, world, e);
    part::<MoveMemory>(&mut h, world, e);
    part::<Tracking>(&mut h, world, e);
    part::<Percepts>(&mut h, world, e);
    h.finish()
}

/// The hash of the world's part.
pub fn world_hash(sim: &Sim, game: &GameState, learned: &LearnedMap) -> u64 {
    let mut h = StateHasher::default();
    for &e in &sim.movers {
        part::<MoverSlot>(&mut h, &sim.world, e);
    }
    for &e in &sim.items {
        part::<ItemSlot>(&mut h, &sim.world, e);
    }
    for t in &sim.triggers {
        t.hash_state(&mut h);
    }
    // Levels without relays or delays (every deathmatch map id shipped) add nothing here.
    for r in &sim.relays {
        r.hash_state(&mut h);
    }
    for d in &sim.delayed {
        d.hash_state(&mut h);
    }
    sim.rng.hash_state(&mut h);
    game.combat.hash_state(&mut h);
    h.u64(game.over.is_some() as u64);
    learned.waypoints.hash_state(&mut h);
    sim.sounds.hash_state(&mut h);
    h.finish()
}

/// Names of the world's part, as replays record them.
pub const WORLD_PART: &str =
    "world (movers, items, triggers, missiles, grenades, waypoints, sounds)";
