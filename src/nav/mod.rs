//! Navigation pieces that stand on the collision world: straight-line reachability
//! ([`reach`]). Waypoints, routing caches and clusters come with their issues.

pub mod reach;

pub use reach::{Blocked, ReachParams, Reachability, reachable};
