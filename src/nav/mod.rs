//! Navigation pieces that stand on the collision world: "what is here" ([`sample`]: floor
//! points, dropping to the floor, free spots, the waypoint that reaches a point),
//! straight-line reachability ([`reach`]), the waypoint graph ([`waypoints`]) and its file
//! format ([`waypoint_file`]), grid seeding ([`grid`]), routing caches over the graph
//! ([`routing`], reference 000 §9.3 and 001) and a cluster hierarchy over grid cells
//! ([`hierarchy`]). Nothing here knows a bot or a match.

pub mod grid;
pub mod hierarchy;
pub mod lru;
pub mod reach;
pub mod routing;
pub mod sample;
pub mod waypoint_file;
pub mod waypoints;

pub use reach::{Blocked, ReachParams, Reachability, reachable};
