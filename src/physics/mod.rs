//! Physics: player movement ([`pmove()`], pure), its prediction ([`predict`]), mover state
//! machines ([`movers`]) and the environment's damage rules ([`damage`]).

pub mod damage;
pub mod movers;
pub mod pmove;
pub mod predict;

pub use pmove::{PhysicsParams, PlayerState, UserCmd, pmove};
