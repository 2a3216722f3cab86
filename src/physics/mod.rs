//! Physics: player movement ([`pmove()`], pure, with the player hull and Quake's
//! constants), its prediction ([`predict`]), mover state machines ([`movers`]), the
//! environment's damage rules ([`damage`]), the teleport and push rules ([`teleport`],
//! [`push`]) — all pure
//! functions of state — and the physics stage that applies `pmove` to every player each tick
//! ([`stage`]).

pub mod damage;
pub mod movers;
pub mod pmove;
pub mod predict;
pub mod push;
pub mod stage;
pub mod teleport;

pub use pmove::{PhysicsParams, PlayerState, UserCmd, pmove};
