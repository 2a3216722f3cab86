//! Movement (reference 002 §10.3): turns a bot's movement request — a nearby point or a
//! direction, with a wanted speed — into this tick's user command, the way a player would:
//!
//! - **swim** when waist deep (water level ≥ 2), steering toward the target through a funnel:
//!   when the way ahead is blocked, try up, down, left and right;
//! - **on ground**, feel ahead at the feet: a barrier no higher than a step is walked over, one
//!   up to jump height is jumped onto, anything higher is walked around (45° then 90° to
//!   either side, keeping the side chosen while it works) or reported `Blocked(Wall)`; on a
//!   known way (a compiled route) a side step comes before the jump, and a bot running
//!   across the way it wishes is not jumped there (the jump would carry it on along its
//!   motion) but slid along by the physics;
//! - **look ahead** along the heading for gaps, lava and slime (not slime for a request
//!   that wades: an explorer in the biosuit); predict a running jump over
//!   them with [`crate::physics::predict`]; jump at the edge when the prediction lands on
//!   ground or in water (backing up for a run-up first when standing too slow at the edge),
//!   otherwise brake and report `Blocked(Gap)` or `Blocked(Hazard)`;
//! - **hold the edge** (explorers) when turning toward a target no lower: where the run's
//!   momentum would carry the bot off a ledge its heading stays on, wish against that motion
//!   instead;
//! - **jump on the last tick on the ground** (explorers) before a drop deeper than
//!   [`LEVEL_GAP`] on the way to a target no lower, where the jump lands on the bot's level
//!   (a gap narrower than the player's box, a lip before the edge);
//! - movers, teleporters and item touches are left to the physics.
//!
//! Entry points: [`steer`] (pure, for tests and worker threads) and [`movement_system`].
//!
//! Files: this one (requests, status, the stage), `probe` (the ground ahead), `steer`
//! (the command toward the target).

mod probe;
mod steer;

use std::sync::Arc;

use glam::Vec3;
use serde::Serialize;

use crate::map::{CollisionMap, Contents, EntId};
use crate::physics::pmove::{PhysicsParams, UserCmd};
use crate::sim::Sim;
use crate::sim::components::{Command, Motion, Vitals};
use crate::sim::hash::{StateHash, StateHasher};
use crate::sim::parallel::JobSize;
pub use probe::ScanMemo;
pub use steer::{SteerCtx, steer};

/// Where a bot wants to go.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub enum MoveTarget {
    /// A nearby point (a player origin there).
    Point(Vec3),
    /// A direction to keep going.
    Direction(Vec3),
}

/// A movement request, written by the brain (or a controller) before the movement stage.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct MoveRequest {
    /// Where to.
    pub target: MoveTarget,
    /// Wanted speed, units per second (at most 320).
    pub speed: f32,
    /// The straight way to the target is known to be walkable (a compiled route's line
    /// through the borders of its own floors): no look ahead for gaps and hazards on it,
    /// which near a wall mistakes the wall's foot for a drop.
    #[serde(skip)]
    pub known: bool,
    /// Slime is no hazard (an explorer in the biosuit): walked and dropped into like water.
    #[serde(skip)]
    pub wade: bool,
    /// Walls are felt no farther than the target: a wall beyond where the bot is going is
    /// no reason to stop short of it or step round (a compiled bot's requests: its route
    /// knows the way; a button just beyond a full stride's feel held a bot blocked before
    /// it until it was killed as stuck). Explorers and waypoint bots feel a full stride:
    /// their targets lie against the walls and ledges they learn by running at them (with
    /// the limit, explorers marked fewer items and covered less floor).
    #[serde(skip)]
    pub to_target: bool,
}

/// The request component: `None` leaves the command to the controller.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MoveIntent(pub Option<MoveRequest>);

/// Why a bot cannot go on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum BlockReason {
    /// A wall it can neither jump onto nor walk around.
    Wall,
    /// A gap it cannot jump.
    Gap,
    /// Lava or slime it cannot jump.
    Hazard,
}

/// What the movement stage made of the request this tick.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub enum MoveStatus {
    /// No request.
    #[default]
    Idle,
    /// Going.
    Moving,
    /// At the target point.
    Arrived,
    /// Cannot go on.
    Blocked(BlockReason),
    /// In the air (jumping or falling).
    InAir,
    /// Swimming.
    Swimming,
}

/// Movement state kept between ticks (the side an obstacle is being walked around, a run-up
/// being taken).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MoveMemory {
    /// -1 left, +1 right, 0 none.
    pub avoid_side: i8,
    /// Ticks the side stays chosen.
    pub avoid_ticks: u32,
    /// Ticks left of backing away from an edge to take a run-up.
    pub runup_ticks: u32,
    /// Hung in the air against a steep slope: no wish until it lands (see [`steer`]).
    pub let_go: bool,
    /// The heading of a jump a match bot took across a gap or a hazard toward a target on its
    /// level, wished along until it lands or swims (see [`steer`]).
    pub leap: Option<Vec3>,
    /// The floor ahead the last scan found clear ([`ScanMemo`]).
    pub scan: Option<ScanMemo>,
}

impl StateHash for MoveMemory {
    fn hash_state(&self, h: &mut StateHasher) {
        h.u64(self.avoid_side as u64 | (self.avoid_ticks as u64) << 8 | (self.let_go as u64) << 40);
    }
}

/// How far a bot backs away from an edge to get to full speed before jumping it.
pub const RUN_UP: f32 = 64.0;

/// A drop deeper than this toward a target on the bot's own level is one an explorer
/// ([`MoveParams::hold_edges`]) jumps across from its last tick on the ground, where a jump
/// lands on that level (see [`steer`]).
pub const LEVEL_GAP: f32 = 64.0;

/// Tuning of the movement stage; every bot carries its own (an exploring bot walks off
/// deeper drops than a match bot, see [`super::explore::MAX_DROP`]).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct MoveParams {
    /// Distance at which a target point counts as reached.
    pub arrive_radius: f32,
    /// How far ahead gaps and hazards are looked for (a running player needs about 80 units
    /// to stop).
    pub lookahead: f32,
    /// Deepest drop walked off without a second thought.
    pub max_drop: f32,
    /// Highest barrier jumped onto (analytic jump peak 45.6, with a margin).
    pub max_jump_height: f32,
    /// Hold the edge when turning on a ledge (see [`steer`]): an exploring bot's, whose
    /// walks run along ledges' edges; a match bot's movement is as it was.
    pub hold_edges: bool,
}

impl Default for MoveParams {
    fn default() -> Self {
        MoveParams {
            arrive_radius: 16.0,
            lookahead: 128.0,
            max_drop: 200.0,
            max_jump_height: 40.0,
            hold_edges: false,
        }
    }
}

const MASK: Contents = Contents::MASK_PLAYER_NO_BODIES;

/// The movement stage: for every living bot with a movement request, this tick's command
/// and movement status. Reads [`MoveIntent`], [`Motion`], [`Vitals`] and the bot's
/// [`MoveParams`]; writes [`Command`], [`MoveStatus`] and [`MoveMemory`].
pub fn movement_system(sim: &mut Sim) {
    // One job per living bot with a request: its state and memory out of the world, steered
    // on the worker pool against the frozen geometry, results back in entity order.
    struct Job {
        e: hecs::Entity,
        id: EntId,
        req: MoveRequest,
        state: crate::physics::PlayerState,
        mem: MoveMemory,
        params: MoveParams,
        out: Option<(UserCmd, MoveStatus)>,
    }
    let mut jobs = Vec::new();
    let mut view = sim.world.view_mut::<(
        &MoveIntent,
        &Motion,
        &Vitals,
        &mut MoveStatus,
        &MoveMemory,
        &MoveParams,
    )>();
    for p in &sim.players {
        let (id, e) = (p.id, p.entity);
        let Some((intent, motion, vitals, status, mem, params)) = view.get_mut(e) else {
            continue;
        };
        match intent.0 {
            Some(req) if vitals.alive => jobs.push(Job {
                e,
                id,
                req,
                state: motion.0,
                mem: *mem,
                params: *params,
                out: None,
            }),
            _ => *status = MoveStatus::Idle,
        }
    }
    struct Ctx {
        map: std::sync::Arc<CollisionMap>,
        physics: PhysicsParams,
        dt: f32,
    }
    let ctx = Ctx {
        map: Arc::clone(&sim.cmap),
        physics: sim.params,
        dt: sim.dt,
    };
    let (_, jobs) = sim.run_jobs(JobSize::Bot, ctx, jobs, |c, j| {
        let ctx = SteerCtx {
            map: &c.map,
            physics: c.physics,
            params: j.params,
            dt: c.dt,
            me: Some(j.id),
        };
        j.out = Some(steer(&ctx, &j.state, &j.req, &mut j.mem));
    });
    for j in jobs {
        if let Ok((cmd, status, mem)) = sim
            .world
            .query_one_mut::<(&mut Command, &mut MoveStatus, &mut MoveMemory)>(j.e)
            && let Some((c, st)) = j.out
        {
            cmd.0 = c;
            *status = st;
            *mem = j.mem;
        }
    }
}
