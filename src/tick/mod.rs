//! A running match: the layer that assembles the others. It owns the shared world
//! ([`crate::sim::Sim`]), the deathmatch's state ([`crate::game::GameState`]), what the bots
//! have learned of the map ([`crate::bot::learned::LearnedMap`]) and the stages' scratch, spawns
//! everything ([`spawn`]), runs the stages in the one fixed order ([`schedule`]) and hashes
//! the result ([`hash`]).
//!
//! Entry points: [`Match::new`], [`Match::step`], [`Match::state_hash`].

pub mod hash;
pub mod schedule;
pub mod spawn;

use std::sync::Arc;

use crate::aas::NavMesh;
use crate::bot::Percepts;
use crate::bot::compiled::{CompiledNav, Navigation};
use crate::bot::control::{Controller, ScriptStep};
use crate::bot::learned::LearnedMap;
use crate::bot::movement::MoveStatus;
use crate::bot::prediction::Tracking;
use crate::bot::routing::{RouteState, RoutingStage};
use crate::game::{GameState, MatchRules};
use crate::map::{CollisionMap, Level};
use crate::nav::waypoints::WaypointGraph;
use crate::physics::pmove::PhysicsParams;
use crate::sim::Sim;
use crate::sim::hash::StateHasher;

pub use schedule::{Stage, StageTimings, Stages, TICK_ORDER};

/// Why [`Match::set_command`] refused a command.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum CommandError {
    /// No player has that name.
    #[error("no player named {name:?} (players: {players})")]
    UnknownPlayer {
        /// The name asked for.
        name: String,
        /// The players there are.
        players: String,
    },
    /// The player's commands come from its own controller.
    #[error(
        "player {name:?} is controlled by {controller}, not from outside: give it `controller = \"external\"` in the scenario"
    )]
    NotExternal {
        /// The player.
        name: String,
        /// Its controller.
        controller: &'static str,
    },
    /// A number that is not finite.
    #[error("{field} = {value}: must be a finite number")]
    NotFinite {
        /// Which.
        field: &'static str,
        /// What was given.
        value: f32,
    },
}
pub use spawn::{MatchError, PlayerConfig};

/// Everything a match needs besides the map.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// Seed of every random stream.
    pub seed: u64,
    /// Ticks per second.
    pub tick_rate: u32,
    /// Movement constants.
    pub params: PhysicsParams,
    /// Players in id order.
    pub players: Vec<PlayerConfig>,
    /// Match rules.
    pub rules: MatchRules,
    /// The compiled navigation of the map, for players with `navigation = "compiled"`
    /// (compiled at the match's tick rate: their commands are replayed tick by tick).
    pub nav: Option<Arc<NavMesh>>,
}

impl MatchConfig {
    /// `players` at 20 Hz ticks with Quake's physics and the default match rules.
    pub fn new(seed: u64, players: Vec<PlayerConfig>) -> MatchConfig {
        MatchConfig {
            seed,
            tick_rate: 20,
            params: PhysicsParams::default(),
            players,
            rules: Default::default(),
            nav: None,
        }
    }
}

/// A running match (see the module docs).
pub struct Match {
    /// The shared world state.
    pub sim: Sim,
    /// The deathmatch's state.
    pub game: GameState,
    /// What the bots have learned of the map.
    pub learned: LearnedMap,
    /// The compiled area graph compiled-navigation bots route on (none without such bots).
    pub nav: Option<CompiledNav>,
    /// The stages' scratch.
    pub stages: Stages,
    /// Wall-clock time and traces per stage (statistics only: nothing in the state reads
    /// them).
    pub timings: StageTimings,
}

impl Match {
    /// Builds the world on `level`: movers and items from the level, players at their spawn
    /// points; the bots know nothing of the map yet.
    pub fn new(
        level: Arc<Level>,
        cmap: CollisionMap,
        cfg: &MatchConfig,
    ) -> Result<Match, MatchError> {
        // Players that route on the area graph, or hear along it, need it.
        let needs = cfg.players.iter().find(|p| {
            p.navigation == Navigation::Compiled
                || p.senses.hearing_model == crate::bot::hearing::HearingModel::Path
        });
        let mut nav = match (&cfg.nav, needs) {
            (Some(mesh), _) => {
                if mesh.params.tick_rate != cfg.tick_rate {
                    return Err(MatchError::NavTickRate {
                        nav: mesh.params.tick_rate,
                        tick_rate: cfg.tick_rate,
                    });
                }
                Some(CompiledNav::new(Arc::clone(mesh), &level, &cmap))
            }
            (None, Some(p)) => return Err(MatchError::NoNavigation(p.name.clone())),
            (None, None) => None,
        };
        let mut sim = Sim::new(level, cmap, cfg.seed, cfg.tick_rate, cfg.params)?;
        sim.footsteps = cfg.rules.footsteps;
        spawn::spawn_world(&mut sim, &cfg.rules);
        spawn::spawn_players(&mut sim, &cfg.players)?;
        // The doors as they stand at the start: a route asked for before the first tick (a
        // tour's first prediction) sees the ways they leave open, not every door shut (a
        // lift door may stand where its riders walk on).
        if let Some(nav) = nav.as_mut() {
            nav.doors.update(|i| sim.mover_state(i));
        }
        Ok(Match {
            sim,
            game: GameState::new(cfg.rules.clone()),
            learned: LearnedMap::default(),
            nav,
            stages: Stages::default(),
            timings: StageTimings::default(),
        })
    }

    /// Runs one tick through the schedule.
    pub fn step(&mut self) {
        self.sim.events.clear();
        schedule::run_tick(
            &mut self.sim,
            &mut self.game,
            &mut self.learned,
            self.nav.as_mut(),
            &mut self.stages,
            &mut self.timings,
        );
        self.sim.tick += 1;
    }

    /// Gives the bots a waypoint graph (a file made for this map, a grid): the routing
    /// caches and the routing stage's goal waypoints start afresh over it.
    pub fn set_waypoints(&mut self, graph: WaypointGraph) {
        self.learned.set_waypoints(graph);
        self.stages.routing = RoutingStage::default();
    }

    /// Gives the external player `name` (scenario `controller = "external"`) the command it
    /// holds from the next tick on, until another comes: movement speeds (forward, side, up;
    /// the physics caps them at the maximum speed), view yaw and pitch in degrees, jump and
    /// trigger held, and a weapon to switch to. Refused, with nothing changed, for an unknown
    /// player, a player with another controller, or a number that is not finite.
    pub fn set_command(&mut self, name: &str, cmd: ScriptStep) -> Result<(), CommandError> {
        for (field, value) in [
            ("forward", cmd.forward),
            ("side", cmd.side),
            ("up", cmd.up),
            ("yaw", cmd.yaw),
            ("pitch", cmd.pitch),
        ] {
            if !value.is_finite() {
                return Err(CommandError::NotFinite { field, value });
            }
        }
        let index = self.player_index(name)?;
        self.set_command_at(index, cmd)
    }

    /// [`Match::set_command`] for the player at `index` (its place in id order), the
    /// numbers already checked finite: what an environment stepping many times a second
    /// calls, without looking the name up each time.
    pub fn set_command_at(&mut self, index: usize, cmd: ScriptStep) -> Result<(), CommandError> {
        self.check_external(index)?;
        let entity = self.sim.players[index].entity;
        if let Ok(mut ctrl) = self.sim.world.get::<&mut Controller>(entity)
            && let Controller::External { held } = &mut *ctrl
        {
            *held = ScriptStep { ticks: 0, ..cmd };
        }
        Ok(())
    }

    /// Whether the player at `index` takes commands from outside: `Ok` for an external
    /// player, else the error [`Match::set_command`] gives.
    pub fn check_external(&self, index: usize) -> Result<(), CommandError> {
        let Some(entity) = self.sim.players.get(index).map(|p| p.entity) else {
            return Err(CommandError::UnknownPlayer {
                name: format!("#{index}"),
                players: (0..self.sim.players.len())
                    .filter_map(|i| self.sim.player_name(i))
                    .collect::<Vec<_>>()
                    .join(", "),
            });
        };
        let controller = match self.sim.world.get::<&Controller>(entity) {
            Ok(ctrl) => match &*ctrl {
                Controller::External { .. } => return Ok(()),
                other => other.kind(),
            },
            Err(_) => "none",
        };
        Err(CommandError::NotExternal {
            name: self.sim.player_name(index).unwrap_or_default(),
            controller,
        })
    }

    /// The index of the player called `name` (its place in id order).
    pub fn player_index(&self, name: &str) -> Result<usize, CommandError> {
        // Compared in place: a copy of each name was a third of an environment step's lookups.
        (0..self.sim.players.len())
            .find(|&i| {
                let e = self.sim.players[i].entity;
                self.sim
                    .world
                    .get::<&crate::sim::components::Name>(e)
                    .is_ok_and(|n| n.0 == name)
            })
            .ok_or_else(|| CommandError::UnknownPlayer {
                name: name.to_string(),
                players: (0..self.sim.players.len())
                    .filter_map(|i| self.sim.player_name(i))
                    .collect::<Vec<_>>()
                    .join(", "),
            })
    }

    /// Ticks done.
    pub fn tick(&self) -> u64 {
        self.sim.tick
    }

    /// Simulated seconds so far.
    pub fn time(&self) -> f64 {
        self.sim.time()
    }

    /// Why the match ended, once it has (a time or frag limit).
    pub fn over(&self) -> Option<&'static str> {
        self.game.over
    }

    /// Hash of the whole state (stable for one binary): the tick and every
    /// [`Match::part_hashes`] entry.
    pub fn state_hash(&self) -> u64 {
        let mut h = StateHasher::default();
        h.u64(self.sim.tick);
        for p in self.part_hashes() {
            h.u64(p);
        }
        h.finish()
    }

    /// One hash per player (id order), then one for the rest of the world ([`hash`]).
    pub fn part_hashes(&self) -> Vec<u64> {
        let mut out: Vec<u64> = self
            .sim
            .players
            .iter()
            .map(|&p| hash::player_hash(&self.sim.world, p))
            .collect();
        out.push(hash::world_hash(&self.sim, &self.game, &self.learned));
        out
    }

    /// Names of the parts of [`Match::part_hashes`], in the same order.
    pub fn part_names(&self) -> Vec<String> {
        let mut out: Vec<String> = (0..self.sim.players.len())
            .map(|i| {
                format!(
                    "player {:?} (id {})",
                    self.sim.player_name(i).unwrap_or_default(),
                    self.sim.players[i].id.0
                )
            })
            .collect();
        out.push(hash::WORLD_PART.into());
        out
    }

    /// A copy of a player's routing state.
    pub fn player_route(&self, index: usize) -> Option<RouteState> {
        self.sim.player_component(index)
    }

    /// A player's movement status.
    pub fn player_move_status(&self, index: usize) -> Option<MoveStatus> {
        self.sim.player_component(index)
    }

    /// A copy of a player's tracked enemies.
    pub fn player_tracking(&self, index: usize) -> Option<Tracking> {
        self.sim.player_component(index)
    }

    /// A copy of a player's percepts.
    pub fn player_percepts(&self, index: usize) -> Option<Percepts> {
        self.sim.player_component(index)
    }
}
