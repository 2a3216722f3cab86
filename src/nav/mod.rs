//! Navigation pieces that stand on the collision world: straight-line reachability
//! ([`reach`]), the waypoint graph ([`waypoints`]) and its file format ([`waypoint_file`]),
//! and grid seeding ([`grid`]). Routing caches and clusters come with their issue.

pub mod grid;
pub mod hierarchy;
pub mod reach;
pub mod routing;
pub mod sample;
pub mod waypoint_file;
pub mod waypoints;

pub use reach::{Blocked, ReachParams, Reachability, reachable};
