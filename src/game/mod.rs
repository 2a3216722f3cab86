//! Deathmatch: weapons and pickups ([`weapons`]), shooting, projectiles and damage
//! ([`combat`]), bouncing grenades in rapier3d ([`grenades`]) and match rules ([`rules`]).

pub mod combat;
pub mod grenades;
pub mod items;
pub mod life;
pub mod movers;
pub mod rules;
pub mod triggers;
pub mod weapons;

pub use combat::{Aim, Combat};
pub use rules::MatchRules;
pub use weapons::{Inventory, Weapon};
