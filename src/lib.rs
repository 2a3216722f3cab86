//! botarena: a headless, deterministic Quake arena simulation for bot AI.
//!
//! Quake `.map` files load into a collision world ([`map`]); players move by Quake 1 physics
//! as one pure function ([`physics`]); a hecs world runs a fixed schedule of systems every
//! tick ([`sim`]); scenario files describe runs ([`scenario`]). See DESIGN notes in the
//! README for the data flow of one tick.

pub mod bench;
pub mod bot;
pub mod game;
pub mod map;
pub mod nav;
pub mod physics;
pub mod planner;
pub mod render;
pub mod replay;
pub mod scenario;
pub mod sim;
pub mod tick;

pub use map::{CollisionMap, Contents, EntId, Level, MapData, MapError, Trace};
pub use physics::{PhysicsParams, PlayerState, UserCmd, pmove};
pub use sim::Sim;
pub use tick::{Match, MatchConfig};
