//! Physics: player movement ([`pmove()`], pure), its prediction ([`predict`]), mover state
//! machines ([`movers`]), the environment's damage rules ([`damage`]) and the teleport rule
//! ([`teleport`]).

pub mod damage;
pub mod movers;
pub mod pmove;
pub mod predict;
pub mod stage;
pub mod teleport;

pub use pmove::{PhysicsParams, PlayerState, UserCmd, pmove};
