//! Deathmatch, Quake 1's rules: weapons, ammunition and powerups ([`weapons`]), shooting and
//! projectiles ([`combat`]), bouncing grenades in rapier3d ([`grenades`]), item pickups
//! ([`items`]), life, damage, death and respawn ([`life`]), movers and the triggers that set
//! them off ([`movers`], [`triggers`]), and match rules ([`rules`]).
//!
//! The stages here take the shared world ([`crate::sim::Sim`]) and, where they need them, the
//! match's own state ([`GameState`]: what is in flight, the rules, whether the match is over).

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

/// The deathmatch's own state beside the shared world.
#[derive(Default)]
pub struct GameState {
    /// Missiles and grenades in flight.
    pub combat: Combat,
    /// The match rules.
    pub rules: MatchRules,
    /// Why the match ended, once it has.
    pub over: Option<&'static str>,
}

impl GameState {
    /// A match under `rules` with nothing in flight.
    pub fn new(rules: MatchRules) -> GameState {
        GameState {
            rules,
            ..Default::default()
        }
    }

    /// The components every player gets from the game: the spawn kit and an aim that asks
    /// for nothing.
    pub fn player_components() -> (Inventory, Aim) {
        (Inventory::spawned(), Aim::default())
    }
}
