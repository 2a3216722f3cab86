//! Spawning a match: the level's movers where they start, its items dropped to the floor
//! (those the rules take out never appear), and the players in id order — each with the
//! engine's components ([`Sim::spawn_player`]), the game's ([`GameState::player_components`])
//! and the bot layer's ([`crate::bot::spawn::insert_components`]) — at their start, their spawn
//! point, or a free one the world's stream picks.

use std::sync::Arc;

use glam::Vec3;

use crate::bot::Senses;
use crate::bot::compiled::Navigation;
use crate::bot::control::ControllerConfig;
use crate::game::{GameState, MatchRules};
use crate::map::EntId;
use crate::nav::sample::{drop_to_floor, free_spot_near, resting_on};
use crate::physics::pmove::PlayerState;
use crate::sim::{Sim, SimError, SimEvent};

/// Why a match could not be set up.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum MatchError {
    /// A player asked for a spawn point that does not exist.
    #[error("player {player:?}: spawn point {index} does not exist (the map has {count})")]
    NoSuchSpawn {
        /// The player.
        player: String,
        /// Asked index.
        index: usize,
        /// How many there are.
        count: usize,
    },
    /// The map has no spawn point and a player needs one.
    #[error("the map has no info_player_deathmatch or info_player_start for player {0:?}")]
    NoSpawnPoints(String),
    /// A player navigates (or hears) on the compiled area graph and the match was given
    /// none.
    #[error(
        "player {0:?} has navigation = \"compiled\" or hearing_model = \"path\" but the match has no compiled navigation (give the scenario a `nav` file, or let it compile one)"
    )]
    NoNavigation(String),
    /// The compiled navigation was made at another tick rate (its commands are per tick).
    #[error(
        "the compiled navigation was made at {nav} Hz but the match runs at {tick_rate} Hz (compile it with --tick-rate {tick_rate})"
    )]
    NavTickRate {
        /// The .nav file's tick rate.
        nav: u32,
        /// The match's.
        tick_rate: u32,
    },
    /// The world could not be set up.
    #[error(transparent)]
    World(#[from] SimError),
}

/// One player to put in the world.
#[derive(Clone, Debug)]
pub struct PlayerConfig {
    /// Name for reports.
    pub name: String,
    /// Its controller.
    pub controller: ControllerConfig,
    /// Spawn point index; `None` lets the world choose (seeded).
    pub spawn: Option<usize>,
    /// Exact start origin and yaw, overriding `spawn` (tests use it).
    pub start: Option<(Vec3, f32)>,
    /// Field of view, sight distance and hearing.
    pub senses: Senses,
    /// How it finds its way: learned waypoints (the default) or the compiled area graph.
    pub navigation: Navigation,
}

/// Spawns the level's movers and items into `sim` (movers first: items dropped to the floor
/// land on plats where they start).
pub fn spawn_world(sim: &mut Sim, rules: &MatchRules) {
    sim.spawn_movers();
    let level = Arc::clone(&sim.level);
    for (i, def) in level.items.iter().enumerate() {
        let origin = drop_to_floor(&sim.cmap, def.origin, def.kind.bounds());
        let rides = resting_on(&sim.cmap, origin, def.kind.bounds());
        // Items the rules take out never appear.
        let available = !rules.removed_items.contains(&def.classname);
        sim.spawn_item(i, origin, rides, available);
    }
}

/// Spawns `players` in id order (ids follow the movers'), each at its start, its spawn point,
/// or a free spawn point chosen with the world's stream (more players than spawn points:
/// beside a taken one rather than inside another player). A spawn at a spawn point is an
/// event.
pub fn spawn_players(sim: &mut Sim, players: &[PlayerConfig]) -> Result<(), MatchError> {
    let first = sim.level.movers.len() as u32 + 1;
    let items = sim.level.items.len();
    for (i, pc) in players.iter().enumerate() {
        let id = EntId(first + i as u32);
        let (origin, yaw, spot) = match (pc.start, pc.spawn) {
            (Some((o, y)), _) => (o, y, None),
            (None, Some(ix)) => {
                let sp = sim
                    .level
                    .spawns
                    .get(ix)
                    .ok_or_else(|| MatchError::NoSuchSpawn {
                        player: pc.name.clone(),
                        index: ix,
                        count: sim.level.spawns.len(),
                    })?;
                (sp.origin, sp.yaw, Some(ix))
            }
            (None, None) => {
                let ix = sim
                    .choose_spawn()
                    .ok_or_else(|| MatchError::NoSpawnPoints(pc.name.clone()))?;
                let sp = sim.level.spawns[ix];
                // Stuck for good inside another player, or a telefrag at the start, would
                // spoil the match.
                (free_spot_near(&sim.cmap, sp.origin), sp.yaw, Some(ix))
            }
        };
        let p = sim.spawn_player(id, &pc.name, PlayerState::at(origin, yaw));
        sim.world
            .insert(p.entity, GameState::player_components())
            .expect("player entity just spawned");
        crate::bot::spawn::insert_components(
            &mut sim.world,
            p.entity,
            &pc.controller,
            pc.senses,
            origin,
            yaw,
            items,
        );
        crate::bot::spawn::set_navigation(&mut sim.world, p.entity, pc.navigation);
        if let Some(spot) = spot {
            sim.events.push(SimEvent::Spawn { player: id.0, spot });
        }
    }
    Ok(())
}
