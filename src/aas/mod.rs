//! Compiled navigation (reference 001's Area Awareness System, built another way): the map's
//! free space for a standing or swimming player cut into convex areas, a point → area lookup,
//! and reachabilities between areas, each one a command sequence whose travel time was
//! measured by running the player physics.
//!
//! How the areas are made ([`build`]): a Recast-style heightfield of the hull-expanded world.
//! Every column of an 8-unit grid is swept top to bottom with the player's box through the
//! collision module, so each floor found is exactly where a standing player's origin can be
//! (the Minkowski sum of brushes and box, bevels included — the same answer `pmove` gets);
//! liquid columns give swim spans from the bottom to the surface. Spans on the same floor
//! plane with the same flags are merged greedily into rectangles: a rectangle of cells on one
//! plane is convex, and a player walks straight between any two of its points.
//!
//! How reachabilities are made ([`reach`]): candidates between areas that touch (walk, step
//! up, barrier jump, walk off a ledge, swim, water jump), across gaps (running jump), through
//! teleporters and on plats (elevator) are each run through `pmove` (with teleport triggers
//! and the plat's own motion) from a player standing at the start; a run that does not end
//! standing (or swimming) in the target area is dropped, and the ticks it took are the
//! reachability's travel time.
//!
//! Entry points: [`compile`], [`NavMesh`] ([`NavMesh::area_at`], [`NavMesh::areas`],
//! [`NavMesh::reachabilities_from`], [`NavMesh::reachabilities_to`]), [`file`] (the `.nav`
//! file), [`reach::run_reach`] (replays a reachability's commands).

pub mod build;
pub mod file;
pub mod mesh;
pub mod reach;
pub mod route;
pub mod run;
pub mod world;

pub use build::{CompileError, compile};
pub use mesh::{
    Area, AreaFlags, CmdRun, CompileParams, CompileStats, Frame, MoverNeed, MoverPosition, NavMesh,
    Reach, ReachKind,
};
pub use world::{NavWorld, Teleporter, teleporters};
