//! The routing stage (reference 000 §9.3's dynamic routing): a bot with a goal does not
//! follow a precomputed list of points; among the waypoints reachable from where it stands it
//! picks the one that minimises (distance to it + its distance to the goal, from the goal's
//! routing cache), hands it to the movement stage, and picks again on arrival. Traps named by
//! reference 003 are avoided: the arrival radius is tied to the movement stage's, the waypoint
//! just left is not picked again while another will do, ties go to the lower number, and a
//! pick is kept until arrival, a timeout, or the goal comes into straight reach.
//!
//! A route bot's fallbacks ([`Roam`], driven by the control stage): along a jump link an
//! explorer made it plays a run planned over the player physics; with no waypoint in reach
//! that has a route it explores until it has one, and gives up where it is (Quake's `kill`)
//! after [`ROAM_SECONDS`] without one or when wedged.
//!
//! The stage runs in phases so that its searches (reachability marches) can use the worker
//! pool: the goal-waypoint searches beside each bot's decision (bookkeeping, straight-reach
//! test, pick) over the frozen graph and caches, then the caches and results in id order.
//!
//! Entry point: [`RoutingStage`].

use std::sync::Arc;

use glam::Vec3;

use crate::map::CollisionMap;
use crate::nav::reach::{ReachParams, reachable};
use crate::nav::routing::{RouteCache, RouteCaches, TravelFlags};
use crate::nav::waypoints::WaypointGraph;
use crate::sim::Sim;
use crate::sim::components::{Motion, Vitals};
use crate::sim::hash::{StateHash, StateHasher};
use crate::sim::parallel::JobSize;

use super::learned::LearnedMap;
use super::movement::{MoveIntent, MoveRequest, MoveStatus, MoveTarget};

/// How far around the bot (and the goal) waypoints are considered.
pub const PICK_RADIUS: f32 = 512.0;
/// How many of the nearest waypoints are tested for reachability.
pub const PICK_CANDIDATES: usize = 8;
/// How many more waypoints (beyond the nearest [`PICK_CANDIDATES`]) are tried when none of
/// those is in reach.
pub const FALLBACK_CANDIDATES: usize = 24;
/// Distance at which a picked waypoint counts as reached.
pub const ARRIVE: f32 = 24.0;
/// Seconds a pick is kept before it is reconsidered.
pub const PICK_SECONDS: f32 = 3.0;
/// Seconds without getting nearer to the pick before it counts as failed.
pub const STALL_SECONDS: f32 = 1.5;

/// Where a bot wants to get to by routing.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RouteGoal {
    /// The goal point (a player origin there).
    pub point: Vec3,
    /// Travel types allowed.
    pub flags: TravelFlags,
}

/// The routing stage's per-bot state.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RouteState {
    /// The goal being routed to.
    pub goal: Option<RouteGoal>,
    /// The waypoint nearest the goal that reaches it (found once per goal).
    pub goal_waypoint: Option<u32>,
    /// The waypoint being walked to.
    pub next: Option<u32>,
    /// The waypoint last reached.
    pub previous: Option<u32>,
    /// Seconds the current pick has been kept.
    pub held: f32,
    /// No route was found at the last pick.
    pub no_route: bool,
    /// A waypoint the movement stage could not get to, left out of picks for a while.
    pub avoid: Option<(u32, f32)>,
    /// The goal was in straight reach at the last check (checked at 10 Hz, staggered).
    pub direct: bool,
    /// The nearest the bot has come to `next` since it was picked.
    pub closest: f32,
    /// Seconds since the bot last got 8 units nearer to `next`.
    pub stalled: f32,
    /// Waiting for a secret door on the way to open (set by the controller each tick).
    pub hold: bool,
    /// The last links this bot failed to follow once (blocked, or stalled); a second
    /// failure on one of them blocks it in the graph.
    pub failed: [Option<(u32, u32)>; 4],
}

/// The pick, the waypoint left, the goal's waypoint, how long the pick is held and whether
/// the goal is in straight reach (the rest is bookkeeping derived from these and the world).
impl StateHash for RouteState {
    fn hash_state(&self, h: &mut StateHasher) {
        h.u64(self.next.map(|n| n as u64 + 1).unwrap_or(0));
        h.u64(self.previous.map(|n| n as u64 + 1).unwrap_or(0));
        h.u64(self.goal_waypoint.map(|n| n as u64 + 1).unwrap_or(0));
        h.f32(self.held);
        h.u64(self.direct as u64);
    }
}

/// A shootable secret door that stands in the way from `s` to the next waypoint `next` (the
/// straight line between them passes through where the door is when closed): while it is
/// closed, the view to shoot it (when in sight, not underfoot); while it moves, wait. Returns
/// (wait, view). The links through such a door were walked while it stood open.
pub fn secret_door_on_the_way(
    map: &CollisionMap,
    doors: &[crate::bot::explore::ShootableView],
    s: &crate::physics::pmove::PlayerState,
    next: Vec3,
) -> (bool, Option<(f32, f32)>) {
    let margin = Vec3::splat(16.0);
    let Some(d) = doors.iter().filter(|d| d.opening).find(|d| {
        crate::nav::waypoints::segment_hits_box(
            s.origin,
            next,
            d.home.0 - margin,
            d.home.1 + margin,
        )
    }) else {
        return (false, None);
    };
    if d.open {
        return (false, None);
    }
    if !d.closed || s.on_ground == Some(d.id) {
        // Moving (riding it would block it), or standing on it: wait for it to open.
        return (!d.closed, None);
    }
    // The gun is 16 units above the origin (Quake's `self.origin + '0 0 16'`).
    let gun = s.origin + Vec3::new(0.0, 0.0, 16.0);
    if map
        .trace_ray(gun, d.centre, crate::map::Contents::SOLID, None)
        .ent
        != Some(d.id)
    {
        return (false, None);
    }
    let to = d.centre - gun;
    let yaw = to.y.atan2(to.x).to_degrees();
    let pitch = -(to.z.atan2(to.truncate().length())).to_degrees();
    (true, Some((yaw, pitch)))
}

/// Notes that the bot could not follow the link `previous -> next`; returns the link to block
/// when it failed before (among the last four failures, with no arrival over it since).
fn link_failed(state: &mut RouteState, g: &WaypointGraph, next: u32) -> Option<(u32, u32)> {
    let link = (state.previous?, next);
    if !g.has_link(link.0, link.1) {
        return None;
    }
    if let Some(k) = state.failed.iter().position(|f| *f == Some(link)) {
        state.failed[k] = None;
        Some(link)
    } else {
        // The oldest is forgotten.
        state.failed.rotate_right(1);
        state.failed[0] = Some(link);
        None
    }
}

/// The waypoint a route to `p` ends at: the nearest from which `p` is reachable (of the
/// [`PICK_CANDIDATES`] nearest within [`PICK_RADIUS`]).
pub fn goal_waypoint(map: &CollisionMap, g: &WaypointGraph, p: Vec3) -> Option<u32> {
    crate::nav::sample::nearest_reaching(map, g, p, PICK_RADIUS, PICK_CANDIDATES)
}

/// The ends of a route asked between two points, as a route bot picks them: each point
/// settled onto the floor under it ([`crate::nav::sample::settle`]), the goal's waypoint
/// the nearest that reaches it ([`goal_waypoint`]), the start's the nearest within
/// [`PICK_RADIUS`] that it reaches. `None` where there is none.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RouteEnds {
    /// The settled start point and its waypoint.
    pub from: Option<(Vec3, Option<u32>)>,
    /// The settled goal point and its waypoint.
    pub to: (Vec3, Option<u32>),
}

/// The waypoints a route from `from` (when given) to `to` runs between (see [`RouteEnds`]).
pub fn route_ends(
    map: &CollisionMap,
    g: &WaypointGraph,
    from: Option<Vec3>,
    to: Vec3,
) -> RouteEnds {
    use crate::nav::sample::{nearest_reached, settle};
    let to = settle(map, to);
    RouteEnds {
        from: from.map(|f| {
            let f = settle(map, f);
            (f, nearest_reached(map, g, f, PICK_RADIUS))
        }),
        to: (to, goal_waypoint(map, g, to)),
    }
}

/// Seconds a routing bot roams without a route before it gives up where it is (Quake's
/// `kill`, as a stuck explorer does) to start again from a spawn point.
pub const ROAM_SECONDS: f32 = 10.0;

/// A routing bot's fallback while no waypoint around it has a route to the goal (it spawned
/// or fell where the graph has no way out): it explores, as [`crate::bot::explore`]'s bots
/// do, until the routing stage finds a pick again.
#[derive(Clone, Debug)]
pub struct Roam {
    /// The exploring behaviour's state.
    pub explorer: super::explore::Explorer,
    /// Seconds roamed since the route was lost.
    pub seconds: f32,
    /// Where the bot was when it last got 64 units away from there, and the seconds since
    /// (a routing bot wedged somewhere for [`super::explore::STUCK_SECONDS`] gives up too).
    pub anchor: Vec3,
    /// Seconds near the anchor.
    pub still: f32,
    /// A run planned over the player physics to a waypoint the movement stage could not get
    /// to (a jump an explorer made), being played.
    pub run: Option<super::explore::PlannedRun>,
    /// Waypoints a run was planned to, with the number of tries.
    pub planned: Vec<(u32, u32)>,
}

impl Roam {
    /// This tick's command of a run planned over the physics along a jump link an explorer
    /// made (the straight-line test and the movement stage's jump prediction need not see the
    /// jump): planned when the bot stands at the link's start with the link's end picked (at
    /// most [`super::explore::PLAN_TRIES`] times per waypoint), played while on course.
    #[allow(
        clippy::too_many_arguments,
        reason = "each is a separate read-only view the run needs"
    )]
    pub fn planned_cmd(
        &mut self,
        map: &CollisionMap,
        g: &WaypointGraph,
        floor: &[Vec3],
        route: &RouteState,
        s: &crate::physics::PlayerState,
        (me, physics): (crate::map::EntId, &crate::physics::PhysicsParams),
        rng: &mut crate::sim::rng::SimRng,
        dt: f32,
    ) -> Option<crate::physics::UserCmd> {
        let jump_from_here = |n: u32| {
            route.previous.is_some_and(|p| {
                g.get(p)
                    .is_some_and(|pw| pw.origin.distance(s.origin) <= ARRIVE)
                    && g.get(n).is_some_and(|w| {
                        w.links
                            .iter()
                            .any(|l| l.from == p && l.travel == crate::nav::waypoints::Travel::Jump)
                    })
            })
        };
        if self.run.is_none()
            && let Some(n) = route.next
            && jump_from_here(n)
            && let Some(w) = g.get(n)
            && super::explore::plan_try(&mut self.planned, n)
        {
            let goal = crate::planner::Goal {
                mins: w.origin + crate::physics::pmove::PLAYER_MINS,
                maxs: w.origin + crate::physics::pmove::PLAYER_MAXS,
            };
            self.run = super::explore::PlannedRun::plan(
                map,
                floor,
                s,
                me,
                &super::explore::RunGoal::touch(goal),
                rng.next_u64(),
                dt,
                physics,
            );
        }
        let c = self.run.as_mut()?.next_cmd(s);
        if c.is_none() {
            self.run = None;
        }
        c
    }

    /// A fresh fallback for a bot at `origin`.
    pub fn new(origin: Vec3) -> Roam {
        Roam {
            explorer: super::explore::Explorer::new(origin),
            seconds: 0.0,
            anchor: origin,
            still: 0.0,
            run: None,
            planned: Vec::new(),
        }
    }
}

/// Picks the next waypoint toward the goal: reachable from `origin`, minimising the distance
/// to it plus its distance to the goal.
///
/// Candidates are the [`PICK_CANDIDATES`] waypoints nearest the bot and the cache's next hop
/// from the waypoint last reached (in a crowd of waypoints it is often not among the nearest).
/// Preference comes in tiers, so that the choice cannot go round in circles (reference 003's
/// oscillation traps): first waypoints nearer the goal than the one last reached (every such
/// pick strictly lowers the distance left, so a chain of them ends), then the others, then
/// the waypoint last reached itself.
#[allow(
    clippy::too_many_arguments,
    reason = "each is a separate read-only view the pick needs"
)]
pub fn pick_next(
    map: &CollisionMap,
    g: &WaypointGraph,
    caches: &mut RouteCaches,
    origin: Vec3,
    goal_wp: u32,
    flags: TravelFlags,
    previous: Option<u32>,
    avoid: Option<u32>,
) -> Option<u32> {
    let cache = caches.get(g, goal_wp, flags);
    pick_with(map, g, cache, origin, previous, avoid)
}

/// [`pick_next`] over a given up-to-date cache of the goal.
fn pick_with(
    map: &CollisionMap,
    g: &WaypointGraph,
    cache: &RouteCache,
    origin: Vec3,
    previous: Option<u32>,
    avoid: Option<u32>,
) -> Option<u32> {
    let params = ReachParams::default();
    let left = previous.and_then(|p| cache.distance(p));
    let all_near = g.near_k(origin, PICK_RADIUS, PICK_CANDIDATES + FALLBACK_CANDIDATES);
    let mut near: Vec<(u32, f32)> = all_near.iter().copied().take(PICK_CANDIDATES).collect();
    let hop = previous.and_then(|p| cache.next.get(p as usize).copied().flatten());
    if let Some(h) = hop
        && !near.iter().any(|c| c.0 == h)
        && let Some(w) = g.get(h)
    {
        near.push((h, w.origin.distance(origin)));
    }
    // Standing at the waypoint last reached, its link to the next hop is trusted without a
    // new straight-line test: the link was verified from there, or observed (a bot went that
    // way, e.g. jumping a gap the straight-line test does not see).
    let at_previous = previous
        .and_then(|p| g.get(p))
        .is_some_and(|w| (w.origin - origin).length() <= ARRIVE);
    // Candidates in the order of preference; the first one in reach is the pick, so the
    // reachability march (the costly part) runs only until it is found.
    struct Candidate {
        /// 0: nearer the goal than the waypoint left; 1: the others; 2: the waypoint left.
        tier: u8,
        /// Distance to it plus its distance to the goal.
        cost: f32,
        waypoint: u32,
        /// Distance to it.
        distance: f32,
    }
    let mut cands: Vec<Candidate> = near
        .into_iter()
        .filter(|&(n, _)| Some(n) != avoid)
        .filter_map(|(n, d)| {
            let to_goal = cache.distance(n)?;
            let tier = if Some(n) == previous {
                2
            } else if left.is_none_or(|l| to_goal < l) {
                0
            } else {
                1
            };
            // Going back to where the bot already stands gets it nowhere: two waypoints a few
            // units apart would be "arrived at" in turn for ever.
            if tier > 0 && d <= ARRIVE {
                return None;
            }
            Some(Candidate {
                tier,
                cost: d + to_goal,
                waypoint: n,
                distance: d,
            })
        })
        .collect();
    cands.sort_by(|a, b| {
        (a.tier, a.cost, a.waypoint)
            .partial_cmp(&(b.tier, b.cost, b.waypoint))
            .expect("finite keys")
    });
    let in_reach = |n: u32, d: f32| {
        d <= ARRIVE
            || (at_previous && Some(n) == hop)
            || reachable(map, origin, g.get(n).expect("waypoint").origin, &params).is_reachable()
    };
    if let Some(c) = cands.iter().find(|c| in_reach(c.waypoint, c.distance)) {
        return Some(c.waypoint);
    }
    // None of the nearest will do (the bot is off the graph: fallen, pushed, in a corner the
    // nearest waypoints cannot be seen from): the farther ones within the radius, nearest
    // first, that have a route.
    all_near
        .into_iter()
        .skip(PICK_CANDIDATES)
        .take(FALLBACK_CANDIDATES)
        .filter(|&(n, _)| Some(n) != avoid && cache.distance(n).is_some())
        .find(|&(n, d)| in_reach(n, d))
        .map(|c| c.0)
}

/// The waypoint found for a goal point (the nearest from which the point is reachable), kept
/// while the graph stays at the revision it was found at: bots going for the same item share
/// the answer.
#[derive(Clone, Copy, Debug, PartialEq)]
struct GoalWaypoint {
    point: Vec3,
    revision: u64,
    waypoint: Option<u32>,
}

/// One routing bot's decision in the making (see [`RoutingStage::run`]'s phases).
struct Bot {
    /// Index in the players' (id) order.
    pi: usize,
    e: hecs::Entity,
    origin: Vec3,
    goal: RouteGoal,
    my_turn: bool,
    state: RouteState,
    intent: Option<MoveRequest>,
    status: MoveStatus,
    /// Waits for this tick's search of its goal point (not in the memo).
    waits: bool,
    /// Still deciding (no `continue` of the one-bot loop this was made from).
    open: bool,
    want_pick: bool,
    /// The pick was made in the job (the goal's cache was up to date).
    picked: bool,
    goal_wp: u32,
    /// Links that failed twice: (from, to), blocked afterwards in id order.
    to_block: Vec<(u32, u32)>,
}

/// The shared view the routing jobs read: the geometry, graph and caches as the stage found
/// them (or as the caches phase left them).
struct Ctx {
    map: std::sync::Arc<CollisionMap>,
    graph: std::sync::Arc<WaypointGraph>,
    caches: std::sync::Arc<RouteCaches>,
    dt: f32,
}

/// The routing stage. It owns the goal waypoints found for goal points at the graph's
/// current revision, its scratch between ticks.
///
/// Reads [`Motion`], [`Vitals`], [`MoveIntent`] and [`MoveStatus`] and the learned map;
/// writes [`RouteState`], [`MoveIntent`], the routing caches (built and repaired on use) and
/// links blocked in the graph.
#[derive(Clone, Debug, Default)]
pub struct RoutingStage {
    goal_waypoints: Vec<GoalWaypoint>,
}

impl RoutingStage {
    /// For every living bot with a route goal: the movement request toward its next waypoint
    /// (or straight to the goal when it is in reach).
    pub fn run(&mut self, sim: &mut Sim, learned: &mut LearnedMap) {
        // Phases: the bots are read in id order. Then, on the worker pool over the frozen
        // graph and caches, the goal-waypoint searches (one per goal point) beside each other
        // bot's whole decision (bookkeeping, straight-reach test, and its pick where the
        // goal's cache is up to date), so that the few costly searches of a tick run side by
        // side; then the decisions of the bots that waited for a search. Then, in id order,
        // the memo, the links to block and the caches the picks need; then the picks whose
        // cache had to be brought up to date; then the results in id order. Cache use and
        // eviction happen in id order on this thread, so they do not depend on the thread
        // count.
        let dt = sim.dt;
        let interval = ((1.0 / sim.dt) / super::perception::REFRESH_HZ)
            .round()
            .max(1.0) as u64;
        let tick = sim.tick;
        let rev = learned.waypoints.revision;
        let memo = &mut self.goal_waypoints;
        memo.retain(|m| m.revision == rev);
        let mut to_block = Vec::new();
        let mut bots: Vec<Bot> = Vec::new();
        // The goal points to search, in the order first needed.
        let mut points: Vec<Vec3> = Vec::new();
        let mut view = sim.world.view_mut::<(
            &Motion,
            &Vitals,
            &mut RouteState,
            &MoveIntent,
            &MoveStatus,
            &super::Navigation,
        )>();
        for (pi, p) in sim.players.iter().enumerate() {
            let Some((motion, vitals, state, intent, status, nav)) = view.get_mut(p.entity) else {
                continue;
            };
            // Compiled-navigation bots route on the area graph ([`super::compiled`]).
            if *nav == super::Navigation::Compiled {
                continue;
            }
            let Some(goal) = state.goal else { continue };
            if !vitals.alive {
                state.next = None;
                state.previous = None;
                continue;
            }
            // Searches that failed are tried again at the bot's 10 Hz turn, not every tick.
            let my_turn = (tick + p.id.0 as u64).is_multiple_of(interval);
            let mut state = *state;
            let mut waits = false;
            if state.goal_waypoint.is_none() && (my_turn || !state.no_route) {
                // Bots going for the same item share the answer while the graph stands
                // still.
                match memo.iter().find(|m| m.point == goal.point) {
                    Some(m) => state.goal_waypoint = m.waypoint,
                    None => {
                        waits = true;
                        if !points.contains(&goal.point) {
                            points.push(goal.point);
                        }
                    }
                }
            }
            bots.push(Bot {
                pi,
                e: p.entity,
                origin: motion.0.origin,
                goal,
                my_turn,
                state,
                intent: intent.0,
                status: *status,
                waits,
                open: true,
                want_pick: false,
                picked: false,
                goal_wp: 0,
                to_block: Vec::new(),
            });
        }
        let ctx = Ctx {
            map: Arc::clone(&sim.cmap),
            graph: Arc::clone(&learned.waypoints),
            caches: Arc::clone(&learned.routes),
            dt,
        };
        // A tick has a few search jobs beside its bots: boxing every bot would cost more.
        #[allow(
            clippy::large_enum_variant,
            reason = "a tick has a few searches beside its bots: boxing every bot costs more"
        )]
        enum Job {
            Search(Vec3, Option<u32>),
            Decide(Bot),
        }
        let (waiting, ready): (Vec<Bot>, Vec<Bot>) = bots.into_iter().partition(|b| b.waits);
        let jobs: Vec<Job> = points
            .into_iter()
            .map(|p| Job::Search(p, None))
            .chain(ready.into_iter().map(Job::Decide))
            .collect();
        let run = |c: &Ctx, j: &mut Job| match j {
            Job::Search(p, w) => *w = goal_waypoint(&c.map, &c.graph, *p),
            Job::Decide(b) => decide(&c.map, &c.graph, &c.caches, c.dt, b),
        };
        let mut decided = Vec::new();
        let (ctx, done) = sim.run_jobs(JobSize::Search, ctx, jobs, run);
        for j in done {
            match j {
                Job::Search(point, waypoint) => memo.push(GoalWaypoint {
                    point,
                    revision: rev,
                    waypoint,
                }),
                Job::Decide(b) => decided.push(b),
            }
        }
        let waiting: Vec<Job> = waiting
            .into_iter()
            .map(|mut b| {
                b.state.goal_waypoint = memo
                    .iter()
                    .find(|m| m.point == b.goal.point)
                    .and_then(|m| m.waypoint);
                Job::Decide(b)
            })
            .collect();
        let (ctx, done) = sim.run_jobs(JobSize::Search, ctx, waiting, run);
        for j in done {
            if let Job::Decide(b) = j {
                decided.push(b);
            }
        }
        drop(ctx);
        // Back in id order (the players' order).
        let mut bots = decided;
        bots.sort_unstable_by_key(|b| b.pi);
        for b in &mut bots {
            let (goal_wp, flags) = (b.goal_wp, b.goal.flags);
            to_block.extend(b.to_block.drain(..).map(|(f, t)| (f, t, goal_wp, flags)));
            if b.open && b.want_pick {
                learned.route_cache(goal_wp, flags);
            }
        }
        let ctx = Ctx {
            map: Arc::clone(&sim.cmap),
            graph: Arc::clone(&learned.waypoints),
            caches: Arc::clone(&learned.routes),
            dt,
        };
        // The picks that waited for their cache (in id order, as the caches were brought up
        // to date).
        let (late, mut bots): (Vec<Bot>, Vec<Bot>) = bots
            .into_iter()
            .partition(|b| b.open && b.want_pick && !b.picked);
        let (ctx, late) = sim.run_jobs(JobSize::Search, ctx, late, |c, b| {
            let (map, g) = (&*c.map, &*c.graph);
            match c.caches.peek(g, b.goal_wp, b.goal.flags) {
                Some(cache) => pick(map, g, cache, b),
                // Evicted by a later bot's cache this tick (over the memory cap): built
                // again.
                None => {
                    let params = &c.caches.params;
                    let cache =
                        crate::nav::routing::build_cache(g, b.goal_wp, 0.0, b.goal.flags, params);
                    pick(map, g, &cache, b)
                }
            }
        });
        drop(ctx);
        bots.extend(late);
        bots.sort_unstable_by_key(|b| b.pi);
        let g = &learned.waypoints;
        for mut b in bots {
            if b.open {
                let state = &mut b.state;
                if b.want_pick {
                    state.held = 0.0;
                    state.closest = f32::INFINITY;
                    state.stalled = 0.0;
                    state.no_route = state.next.is_none();
                }
                // No pick and no route: the control stage's request (a route bot roams)
                // stands.
                if state.next.is_some() || !state.no_route {
                    b.intent = state.next.and_then(|n| g.get(n)).map(|w| MoveRequest {
                        target: MoveTarget::Point(w.origin),
                        speed: 320.0,
                        known: false,
                        wade: false,
                        to_target: false,
                    });
                }
            }
            if let Ok((state, intent)) = sim
                .world
                .query_one_mut::<(&mut RouteState, &mut MoveIntent)>(b.e)
            {
                *state = b.state;
                intent.0 = b.intent;
            }
        }
        for (from, to, goal_wp, flags) in to_block {
            // Only where a way round is left: a failed link that is the only way to the goal
            // (a jump the movement stage missed this time) stays, to be tried again.
            if learned.waypoints_mut().block_link(from, to)
                && learned.route_cache(goal_wp, flags).distance(from).is_none()
            {
                learned.waypoints_mut().unblock_link(from, to);
            }
        }
    }
}

/// One bot's decision up to its pick (the one-bot loop the phases were made from).
fn decide(map: &CollisionMap, g: &WaypointGraph, caches: &RouteCaches, dt: f32, b: &mut Bot) {
    let state = &mut b.state;
    let goal = b.goal;
    let Some(goal_wp) = state.goal_waypoint else {
        state.no_route = true;
        b.open = false;
        return;
    };
    b.goal_wp = goal_wp;
    // Arrived at the picked waypoint: remember it and pick again.
    if let Some(n) = state.next
        && g.get(n).is_some_and(|w| {
            (w.origin - b.origin).truncate().length() <= ARRIVE
                && (w.origin.z - b.origin.z).abs() < 48.0
        })
    {
        for f in state
            .failed
            .iter_mut()
            .filter(|f| f.is_some_and(|f| f.1 == n))
        {
            *f = None;
        }
        state.previous = Some(n);
        state.next = None;
    }
    if state.hold {
        // A secret door on the way is being opened: stand still, nothing counts as stalled.
        b.intent = None;
        state.stalled = 0.0;
        state.held = 0.0;
        b.open = false;
        return;
    }
    state.held += dt;
    if let Some((_, left)) = &mut state.avoid {
        *left -= dt;
    }
    if state.avoid.is_some_and(|a| a.1 <= 0.0) {
        state.avoid = None;
    }
    // The movement stage could not get to the pick: leave it out for a while (and block
    // a link that fails twice: the caches then route around it).
    if let (MoveStatus::Blocked(_), Some(n)) = (b.status, state.next) {
        state.avoid = Some((n, PICK_SECONDS));
        b.to_block.extend(link_failed(state, g, n));
        state.next = None;
    }
    // Not getting nearer (pushing into a corner the movement stage does not see as a
    // wall, or held longer than a pick is kept): the same, without waiting for more.
    if let Some(n) = state.next
        && let Some(w) = g.get(n)
    {
        let d = w.origin.distance(b.origin);
        if d < state.closest - 8.0 {
            state.closest = d;
            state.stalled = 0.0;
        } else {
            state.stalled += dt;
        }
        if state.stalled > STALL_SECONDS || state.held > PICK_SECONDS {
            state.avoid = Some((n, PICK_SECONDS));
            b.to_block.extend(link_failed(state, g, n));
            state.next = None;
        }
    }
    // Whether the goal is in straight reach: a marching box test, so at 10 Hz per bot
    // (staggered) like the other reachability questions, kept in between.
    if b.my_turn || state.next.is_none() {
        state.direct = (goal.point - b.origin).length() <= PICK_RADIUS
            && reachable(map, b.origin, goal.point, &ReachParams::default()).is_reachable();
    }
    if state.direct {
        b.intent = Some(MoveRequest {
            target: MoveTarget::Point(goal.point),
            speed: 320.0,
            known: false,
            wade: false,
            to_target: false,
        });
        state.no_route = false;
        b.open = false;
        return;
    }
    if (state.next.is_none() && (b.my_turn || !state.no_route)) || state.held > PICK_SECONDS {
        b.want_pick = true;
        // The goal's cache as the caches stage below would hand it over (a hit): pick
        // now. Otherwise the pick waits for the cache to be brought up to date.
        if let Some(cache) = caches.peek(g, goal_wp, goal.flags) {
            pick(map, g, cache, b);
        }
    }
}

/// The bot's next waypoint from the goal's cache.
fn pick(map: &CollisionMap, g: &WaypointGraph, cache: &RouteCache, b: &mut Bot) {
    let st = &mut b.state;
    st.next = pick_with(map, g, cache, b.origin, st.previous, st.avoid.map(|a| a.0));
    b.picked = true;
}
