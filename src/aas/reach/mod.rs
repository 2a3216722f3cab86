//! Reachabilities between areas, each verified by the player physics. Entry points:
//! [`run_reach`] (replay a reachability's commands), and the compile's `build`.
//!
//! Candidates:
//! - **touching areas** (a cell of one beside a cell of the other): walk, step up (≤ 18),
//!   barrier jump (≤ 48 up), walk off a ledge (any drop), swim, water jump; up to three
//!   places along the shared border are tried, the middle one first;
//! - **near drops**: a walk off a ledge onto a lower floor a diagonal or two cells away that
//!   no touching pair joins it to (a strip along a wall), aimed along the line between them;
//! - **gaps**: from a ledge cell, the first floor across a drop within 256 units in each of
//!   eight directions, no higher than a jump reaches: a running jump, taken at each of the
//!   last three ticks the runner is still on the ledge, the latest first;
//! - **teleporters**: from each area inside a working `trigger_teleport` to where the
//!   teleported player lands;
//! - **plats**: from the area on a lowered `func_plat` to the floors beside its top, riding
//!   it as the mover code moves it.
//!
//! Each candidate is run through `pmove` (teleport triggers applied as the simulation does)
//! from a player standing still at the start, with its commands, tick by tick. The first tick
//! the player stands (or swims) in the target area ends the run: the ticks so far are the
//! travel time and the commands are cut there. A run that never arrives is dropped.
//!
//! Files: `replay` (running a reachability's commands), `ctx` (the verifier), `touching`
//! (candidates between touching areas and near drops), `jumps` (gaps, run-ups, landings),
//! `movers` (teleporters, plats, trains and what a reachability needs of movers).

mod ctx;
mod jumps;
mod movers;
mod replay;
mod touching;

use crate::physics::pmove::{PLAYER_MAXS, PLAYER_MINS};

use super::mesh::{AreaFlags, CompileStats, NavMesh, Reach, ReachKind};
use super::world::{NavWorld, par_map};
pub use ctx::MAX_FALL;
use ctx::{Ctx, Job, keep_quickest};
use jumps::gaps;
pub(crate) use jumps::landings;
use movers::{carries, needs, onto_held_plat, rides};
pub use replay::{Arrival, clear_of_box, run_reach};
pub(crate) use touching::new_ways;
use touching::{near_drops, touching};

/// Every candidate, verified; in a fixed order (the mesh sorts them).
pub(crate) fn build(
    world: &NavWorld,
    mesh: &NavMesh,
    threads: usize,
    stats: &mut CompileStats,
    progress: &mut dyn FnMut(&str, u64, u64),
) -> (Vec<Reach>, Vec<Reach>) {
    let areas = mesh.areas();
    let verify = |job: &Job,
                  walks: Option<&std::collections::BTreeSet<(u32, u32)>>|
     -> (Option<(Reach, Option<u32>)>, u64) {
        let mut ticks = 0u64;
        // The world the job runs in: where its start (or its end) needs a mover moved.
        let moved = match job {
            Job::Touch { from, to, .. } | Job::Gap { from, to, .. } => {
                areas[*from as usize].moved.or(areas[*to as usize].moved)
            }
            Job::Teleport { from } | Job::Push { from, .. } | Job::Carry { from, .. } => {
                areas[*from as usize].moved
            }
            Job::Ride { .. } => None,
        };
        let ctx = Ctx {
            world,
            mesh,
            dt: 1.0 / mesh.params.tick_rate as f32,
            moved,
            walks,
        };
        let r = match job {
            Job::Touch { from, to, places } => ctx.touch(*from, *to, places, &mut ticks),
            Job::Gap {
                from,
                to,
                cell,
                dir,
            } => ctx.gap(*from, *to, *cell, *dir, &mut ticks),
            Job::Teleport { from } => ctx.teleport(*from, &mut ticks),
            Job::Push { from, push } => ctx.push(*from, *push, &mut ticks),
            Job::Ride {
                from,
                to,
                plat,
                cell,
            } => ctx.ride(*from, *to, *plat, *cell, &mut ticks),
            Job::Carry {
                from,
                to,
                mover,
                leg,
            } => ctx.carry(*from, *to, *mover, *leg, &mut ticks),
        };
        (r.map(|r| (r, moved)), ticks)
    };
    let mut reaches = Vec::new();
    let mut run = |jobs: Vec<Job>,
                   stage: &str,
                   walks: Option<&std::collections::BTreeSet<(u32, u32)>>,
                   reaches: &mut Vec<Reach>| {
        let total = jobs.len() as u64;
        let done = par_map(
            &jobs,
            threads,
            |j| verify(j, walks),
            |n| progress(stage, n as u64, total),
        );
        stats.candidates += total;
        for (r, t) in done {
            stats.ticks_simulated += t;
            match r {
                Some((mut r, moved)) => {
                    needs(world, mesh, moved, &mut r);
                    reaches.push(r);
                }
                None => stats.dropped += 1,
            }
        }
    };
    let touch_jobs = touching(mesh);
    let adjacent: std::collections::BTreeSet<(u32, u32)> = touch_jobs
        .iter()
        .filter_map(|j| match j {
            Job::Touch { from, to, .. } => Some((*from, *to)),
            _ => None,
        })
        .collect();
    run(touch_jobs, "walk/swim reachabilities", None, &mut reaches);
    let walkable: std::collections::BTreeSet<(u32, u32)> =
        reaches.iter().map(|r| (r.from, r.to)).collect();
    let walks: std::collections::BTreeSet<(u32, u32)> = reaches
        .iter()
        .filter(|r| matches!(r.kind, ReachKind::Walk | ReachKind::StepUp))
        .map(|r| (r.from, r.to))
        .collect();
    let mut special = gaps(mesh, &walkable);
    special.extend(
        mesh.areas()
            .iter()
            .filter(|a| a.flags.has(AreaFlags::TELEPORTER))
            .map(|a| Job::Teleport { from: a.id }),
    );
    special.extend(push_jobs(world, mesh));
    special.extend(rides(world, mesh));
    special.extend(carries(world, mesh));
    run(
        special,
        "jump/teleport/plat reachabilities",
        Some(&walks),
        &mut reaches,
    );
    // Two candidates can end as the same (from, to, kind) (running jumps start where their
    // run-up does): the quickest stays.
    keep_quickest(&mut reaches);
    let mut near = Vec::new();
    run(
        near_drops(mesh, &adjacent),
        "near-drop reachabilities",
        Some(&walks),
        &mut near,
    );
    keep_quickest(&mut near);
    for list in [&mut reaches, &mut near] {
        let before = list.len();
        list.retain(|r| !onto_held_plat(world, mesh, r));
        stats.dropped += (before - list.len()) as u64;
    }
    (reaches, near)
}

/// A push job for every area a standing player can touch a push from: the area's floor box
/// overlaps the push's box grown by the player's.
fn push_jobs(world: &NavWorld, mesh: &NavMesh) -> Vec<Job> {
    let mut jobs = Vec::new();
    for (pi, p) in world.pushes.iter().enumerate() {
        let (lo, hi) = (p.mins - PLAYER_MAXS, p.maxs - PLAYER_MINS);
        for a in mesh.areas() {
            let (amn, amx) = (a.mins, a.maxs);
            if amn.x <= hi.x
                && amx.x >= lo.x
                && amn.y <= hi.y
                && amx.y >= lo.y
                && amn.z <= hi.z
                && amx.z + 24.0 >= lo.z
            {
                jobs.push(Job::Push {
                    from: a.id,
                    push: pi as u32,
                });
            }
        }
    }
    jobs
}
