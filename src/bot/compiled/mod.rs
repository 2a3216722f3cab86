//! Compiled navigation for bots (`navigation = "compiled"`): a bot that knows the map from
//! tick 0 routes on the compiled area graph ([`crate::aas`]) instead of the waypoints it
//! would learn (reference 000). Its route is asked of the cluster/portal hierarchy
//! ([`HierRouter`], exact) in seconds; it follows the first reachability of the quickest
//! route and asks again in every new area it stands in:
//!
//! - a walk, step up or swim is steered by the movement stage: to the reachability's start,
//!   then across the border to its end;
//! - every other kind (jumps, walking off a ledge, water jumps, teleporters, lifts and trains)
//!   plays the commands the compiler verified, from where they were verified: the bot goes
//!   to the start, slows to a stand there, waits for the mover the reachability needs to be
//!   where it was when the run was measured, and plays the commands tick by tick (a jump,
//!   a fall or a run into a teleporter that fits from the bot's own moving state near the
//!   start is played on the run instead);
//! - a reachability the bot fails to get through within twice its time (plus 3 s) is
//!   left out of its choices for [`AVOID_SECONDS`], so the route goes round; one that
//!   fails again, twice as long each time ([`AVOID_DOUBLINGS`]).
//!
//! The brain asks [`NavQuery::seconds`] for its item choice. The hierarchy's goal
//! searches are kept per (goal area, travel) under an LRU cap; they are made in the players'
//! id order on the scheduling thread, and each answer is a pure function of the mesh, so
//! routes do not depend on the thread count.
//!
//! Entry points: [`Navigation`], [`CompiledNav`], [`AreaNav`], [`route_system`].
//!
//! Files, one job each, each importing only from those before it: `travel` (travel
//! flags), `openers` (what opens a door), `state` (per-bot route state), `cmd` (standing,
//! braking), `ctx` (the follower's view of the world), `doors` (which
//! reachabilities shut doors block now), `query` (the shared graph and the route queries
//! over it and the doors), `guard` (the edge guard), `start` (slowing onto a run's start),
//! `steer` (look-ahead and aiming), `detour` (going to fire a door's opener, routed by the
//! follower it is handed), `kinds` (following each kind of reachability), `follow` (the
//! per-tick follower: one `match` on the reachability kind). Runs taken on the run are
//! fitted by [`crate::aas::run`], which the route's prediction shares.

mod cmd;
mod ctx;
mod detour;
mod doors;
mod follow;
mod guard;
mod kinds;
mod openers;
mod play;
mod query;
mod start;
mod state;
mod steer;
mod travel;

use crate::sim::Sim;
use crate::sim::components::{Command, Motion, Vitals};

pub use super::Navigation;
use super::movement::MoveIntent;
use super::routing::RouteState;

/// The running speed a follower wishes (u/s): Quake's `sv_maxspeed`.
const RUN_SPEED: f32 = 320.0;

/// The share of a tick spent waiting for a mover or a door that counts against a
/// reachability's time limit (a door that never opens is given up on in the end).
const WAIT_SHARE: f32 = 0.25;

/// How far from a run's end (units across, and up or down) a bot standing in an area a
/// walk joins to the end's counts as where the run leads.
const NEAR_END: f32 = 48.0;

/// See [`NEAR_END`]: up or down.
const NEAR_END_RISE: f32 = 24.0;

/// Within this distance (units across) of the start of a reachability through a shut
/// door, a bot stops going to it and waits there (or shoots the door).
const AT_DOOR: f32 = 24.0;

/// The slowest a bot walks nearer a run's start from where its commands do not fit (u/s).
const NEARER_SPEED: f32 = 30.0;

/// Seconds a reachability a bot failed to get through is left out of its choices.
pub const AVOID_SECONDS: f32 = 5.0;

/// How many times a reachability failed again doubles the time it is left out (to
/// 40 s): a failure that repeats has a cause the bot's waiting does not remove.
pub const AVOID_DOUBLINGS: u8 = 3;

pub use ctx::{FollowCtx, geometry_ctx};
pub use doors::DoorState;
pub use follow::follow;
pub use openers::{Opener, fired_by_anything, firing_triggers};
pub use query::{Answer, CompiledNav, GOAL_CACHES, NavQuery, RouteAnswers};
pub use state::{AreaNav, Detour, Step};
pub use travel::{travel_for, travel_of};

/// A swim through slime or lava is set off on from dry ground only where this many times
/// the health it costs on the area graph's times ([`NavQuery::liquid_hurt`]) is less
/// than the bot has: a bot swims slower than the graph's runner and not along its line.
pub const LIQUID_HURT_MARGIN: f32 = 1.5;

/// Seconds of slowing onto a start after which the commands are played from where it is.
const APPROACH_SECONDS: f32 = 1.5;

/// The routing stage's part for compiled-navigation bots (after the waypoint bots'): each
/// living one with a route goal follows its route one tick. Reads [`Motion`], [`Vitals`],
/// the movers; writes [`AreaNav`], [`MoveIntent`], [`Command`] (while a reachability's
/// commands play), and [`RouteState`]'s `no_route`; asks its routes of `nav`, over the
/// doors as [`DoorState::update`] left them this tick.
pub fn route_system(sim: &mut Sim, nav: Option<NavQuery<'_>>) {
    let Some(mut nav) = nav else { return };
    let nav = &mut nav;
    let dt = sim.dt;
    // Mover states by id, as they stand this tick.
    let movers: Vec<(u32, crate::physics::movers::MoverState)> = sim
        .level
        .movers
        .iter()
        .enumerate()
        .filter_map(|(i, d)| Some((d.id.0, sim.mover_state(i)?)))
        .collect();
    let mover = |id: u32| movers.iter().find(|m| m.0 == id).map(|m| m.1);
    let door_open = |id: u32| {
        use crate::map::level::MoverKind;
        let Some(i) = sim.level.movers.iter().position(|m| m.id.0 == id) else {
            return true;
        };
        let open = match sim.level.movers[i].kind {
            MoverKind::Door { open, .. } | MoverKind::SecretDoor { open, .. } => open,
            _ => return true,
        };
        mover(id).is_none_or(|m| (m.offset - open).length() < 1.0)
    };
    let doors = super::explore::shootables(sim);
    let mover_ids: Vec<u32> = sim.level.movers.iter().map(|m| m.id.0).collect();
    let mut pushes = crate::physics::push::pushes(&sim.level);
    pushes.retain(|p| {
        let t = sim.triggers[p.trigger as usize];
        t.active && !t.removed
    });
    let mut view = sim.world.view_mut::<(
        &Motion,
        &Vitals,
        &mut AreaNav,
        &mut RouteState,
        &mut MoveIntent,
        &mut Command,
        &mut crate::game::Aim,
        &crate::game::Inventory,
    )>();
    for p in &sim.players {
        let Some((motion, vitals, st, route, intent, cmd, aim, inv)) = view.get_mut(p.entity)
        else {
            continue;
        };
        if st.navigation != Navigation::Compiled {
            continue;
        }
        let goal = match route.goal {
            Some(g) if vitals.alive => g,
            _ => {
                st.goal = None;
                st.reach = None;
                st.played = None;
                st.detour = None;
                continue;
            }
        };
        if route.hold {
            continue;
        }
        let ctx = FollowCtx {
            map: &sim.cmap,
            physics: sim.params,
            dt,
            me: Some(p.id),
            mover: &mover,
            door_open: &door_open,
            doors: &doors,
            mover_ids: &mover_ids,
            pushes: &pushes,
        };
        let travel = nav.or_through_liquids(
            motion.0.origin,
            goal.point,
            travel_for(goal.flags, &motion.0, sim.tick < inv.suit_until),
            vitals.health,
        );
        match follow(&ctx, nav, st, &motion.0, goal.point, travel) {
            Step::Go(req) => {
                route.no_route = false;
                intent.0 = Some(req);
            }
            Step::Cmd(c) => {
                route.no_route = false;
                intent.0 = None;
                cmd.0 = c;
            }
            Step::Shoot(view, c) => {
                route.no_route = false;
                intent.0 = None;
                cmd.0 = c;
                aim.shoot_along(Some(view));
                aim.weapon = Some(inv.opening_weapon(motion.0.water_level > 1));
            }
            Step::NoRoute => {
                route.no_route = true;
            }
        }
    }
}

/// The movement stage's arrival radius (units across): a point nearer is arrived at.
pub(super) const ARRIVE: f32 = 16.0;

#[cfg(test)]
mod tests;
