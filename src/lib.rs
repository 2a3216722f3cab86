//! botarena: a headless, deterministic Quake arena simulation for bot AI.
//!
//! The library is in layers; each imports only from those before it (checked by
//! `tests/layers.rs`, with one documented exception: the physics stage beside `pmove`
//! reads the world's components):
//!
//! | layer | what it is for |
//! |---|---|
//! | [`map`] | `.map` parsing, brushes, entities, the one collision module (`trace`, `point_contents`) |
//! | [`physics`] | player movement as one pure function, prediction, mover state machines, environment damage, teleports; the physics stage |
//! | [`sim`] | the shared world state: ECS world, clock, random streams, sounds, events, state-hash layout, worker pool |
//! | [`nav`] | "what is here" sampling, straight-line reachability, the waypoint graph and its file, grid seeding, routing caches |
//! | [`planner`] | the travel-time planner (an RRT over the player physics) and item time tables |
//! | [`game`] | deathmatch: weapons, combat, items, life and death, movers and triggers, rules |
//! | [`bot`] | one stage per file: perception, hearing, prediction, control, brain, routing, movement, aim, waypoint dropping, exploration; what the bots learned of the map |
//! | [`tick`] | a running [`Match`]: spawning, the schedule (the one owner of the stage order), the state hash |
//! | [`render`] | SVG pictures of maps, waypoint graphs and planner trees |
//! | [`scenario`], [`replay`], [`bench`](mod@bench) | scenario files and runs (explore, tours, batches, reports); replays that verify; speed measurement |
//! | [`agent`] | what an outside program reads of a running match: player records, events, the scoreboard, observation vectors (the Python module's base) |
//!
//! The binary's command line (`src/cli/`) parses, calls these and prints.

#![cfg_attr(not(test), deny(clippy::print_stdout, clippy::print_stderr))]

pub mod aas;
pub mod agent;
pub mod bench;
pub mod bot;
pub mod game;
pub mod lint;
pub mod map;
pub mod nav;
pub mod physics;
pub mod planner;
pub mod render;
pub mod replay;
pub mod scenario;
pub mod sim;
pub mod survey;
pub mod tick;
pub mod view;

pub use map::{CollisionMap, Contents, EntId, Level, MapData, MapError, Trace};
pub use physics::{PhysicsParams, PlayerState, UserCmd, pmove};
pub use sim::Sim;
pub use tick::{Match, MatchConfig};
