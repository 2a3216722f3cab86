//! Planned runs: where walking cannot get to a seen item or to where nobody has been, a run
//! planned with the travel-time planner ([`PlannedRun`]) and played command by command
//! ([`super::Explorer::planned_cmd`]).

use glam::Vec3;

use crate::map::level::Level;
use crate::map::{CollisionMap, EntId};
use crate::nav::waypoints::WaypointGraph;
use crate::physics::pmove::{PLAYER_MINS, PlayerState};
use crate::sim::rng::SimRng;

use super::feel::DROP_BELOW;
use super::visits::VisitMap;
use super::{Explorer, RUN_SPEED};
use crate::bot::movement::{MoveRequest, MoveTarget};

/// Commands found by the travel-time planner ([`crate::planner`]) and the origins they lead
/// through; the physics is deterministic, so played from the same state they go the same way.
#[derive(Clone, Debug)]
pub struct PlannedRun {
    /// One command per tick.
    pub cmds: Vec<crate::physics::UserCmd>,
    /// The origin before each command (and after the last).
    pub path: Vec<Vec3>,
    /// The next command.
    pub next: usize,
}

impl PlannedRun {
    /// This tick's command while the bot is where the plan said it would be; `None` once the
    /// run is over or off course.
    pub fn next_cmd(&mut self, s: &PlayerState) -> Option<crate::physics::UserCmd> {
        let on_course = self
            .path
            .get(self.next)
            .is_some_and(|p| p.distance(s.origin) <= PLAN_TOLERANCE);
        if self.next >= self.cmds.len() || !on_course {
            return None;
        }
        self.next += 1;
        Some(self.cmds[self.next - 1])
    }

    /// Plans a run from `s` into `goal`'s region over the `floor` points around the
    /// straight line between them ([`PLAN_TUBE`]), [`PLAN_EXPANSIONS`] expansions; `me` is
    /// the bot's body. A run that touches one of the goal's teleporters is sent where it
    /// leads (and so does not get there by it). `None` where none is found, or where the
    /// tick `dt` is not the planner's step. `physics`: the match's.
    #[allow(
        clippy::too_many_arguments,
        reason = "each is a separate input of the plan"
    )]
    pub fn plan(
        map: &CollisionMap,
        floor: &[Vec3],
        s: &PlayerState,
        me: EntId,
        goal: &RunGoal,
        seed: u64,
        dt: f32,
        physics: &crate::physics::PhysicsParams,
    ) -> Option<PlannedRun> {
        let cfg = crate::planner::PlanConfig {
            expansions: PLAN_EXPANSIONS,
            seed,
            stop_at_first: true,
            goal_bias: PLAN_GOAL_BIAS,
            me: Some(me),
            teleporters: goal.teleporters.clone(),
            goal_standing: goal.standing,
            // The first run found is played as found (shortening it is unmeasured here).
            shortcuts: false,
            ..Default::default()
        };
        let goal = &goal.region;
        // One planner step per tick.
        if (dt - cfg.step).abs() > 1e-4 {
            return None;
        }
        let (a, ab) = (s.origin, goal.centre() - s.origin);
        let free: Vec<Vec3> = floor
            .iter()
            .copied()
            .filter(|p| {
                // Around the segment, a little behind the bot (a run-up) and past the goal.
                let t = ((*p - a).dot(ab) / ab.length_squared().max(1.0))
                    .clamp(-PLAN_BEHIND, PLAN_PAST);
                p.distance(a + ab * t) < PLAN_TUBE
            })
            .collect();
        let plan = crate::planner::plan(map, physics, &free, *s, Some(goal), &cfg);
        let cmds = plan.controls();
        (!cmds.is_empty()).then(|| PlannedRun {
            cmds,
            path: plan.path(),
            next: 0,
        })
    }
}

/// Standing at `p` (an explorer about to play a planned run, from the next tick).
pub(super) fn stand_at(p: Vec3) -> MoveRequest {
    MoveRequest {
        target: MoveTarget::Point(p),
        speed: 0.0,
        known: false,
        wade: false,
        to_target: false,
    }
}

/// Running against `across`, the motion over the floor (not zero), no faster than the bot
/// moves: the quickest stop. A wish at full speed against a slower motion overshot it
/// (pmove's acceleration adds up to half the wished speed a tick at 20 Hz, friction takes
/// 20 u/s): a bot settling at under about 160 u/s was sent back the other way every tick
/// and rocked at 80-100 u/s, never under [`SETTLE_SPEED`], until given up as stuck.
pub(super) fn brake(across: glam::Vec2) -> MoveRequest {
    MoveRequest {
        target: MoveTarget::Direction(-across.normalize().extend(0.0)),
        speed: across.length().min(RUN_SPEED),
        known: false,
        wade: false,
        to_target: false,
    }
}

/// Whether a bot runs over the floor faster than [`SETTLE_SPEED`] (on the ground, not
/// swimming): one that brakes before it plans.
pub(super) fn coming_at_a_run(s: &PlayerState) -> bool {
    s.velocity.truncate().length() > SETTLE_SPEED && s.on_ground.is_some() && s.water_level < 2
}

/// Whether frontier point `q` lies off the level of a bot at `o`: more than [`DROP_BELOW`]
/// under it or [`LEVEL_UP`] over it, or farther than [`LEVEL_RANGE`] across.
pub(super) fn off_level(o: Vec3, q: Vec3) -> bool {
    q.z < o.z - DROP_BELOW || q.z > o.z + LEVEL_UP || (q - o).truncate().length() > LEVEL_RANGE
}

/// Where a run is planned to ([`PlannedRun::plan`]).
#[derive(Clone, Debug)]
pub struct RunGoal {
    /// The region the player's box is to touch.
    pub region: crate::planner::Goal,
    /// Teleporters in the plan: a run that touches one of them goes where it leads.
    pub teleporters: Vec<crate::planner::Teleporter>,
    /// Touched only standing on the ground ([`crate::planner::PlanConfig::goal_standing`]).
    pub standing: bool,
}

impl RunGoal {
    /// Touching `region` at all, with no teleporters in the plan.
    pub fn touch(region: crate::planner::Goal) -> RunGoal {
        RunGoal {
            region,
            teleporters: Vec::new(),
            standing: false,
        }
    }
}

/// A run's goal of standing at `stand` (an origin): the feet's level a few units round it,
/// which a box standing on the floor there touches and one falling past it does not, as it
/// is not standing.
pub(super) fn standing_goal(stand: Vec3) -> RunGoal {
    let feet = stand + Vec3::new(0.0, 0.0, PLAYER_MINS.z);
    RunGoal {
        standing: true,
        ..RunGoal::touch(crate::planner::Goal {
            mins: feet - STAND_GOAL_HALF,
            maxs: feet + STAND_GOAL_HALF,
        })
    }
}

/// Whether runs toward the frontier point `q`'s cell were planned [`PLAN_TRIES`] times.
pub fn planned_out(tries: &[((i32, i32, i32), u32)], q: Vec3) -> bool {
    tries
        .iter()
        .any(|t| t.0 == VisitMap::cell(q) && t.1 >= PLAN_TRIES)
}

/// Counts a try of a planned run toward `key` in `tries`; false (and nothing counted) once
/// [`PLAN_TRIES`] are spent.
pub fn plan_try<K: PartialEq + Copy>(tries: &mut Vec<(K, u32)>, key: K) -> bool {
    let k = match tries.iter().position(|t| t.0 == key) {
        Some(k) => k,
        None => {
            tries.push((key, 0));
            tries.len() - 1
        }
    };
    if tries[k].1 >= PLAN_TRIES {
        return false;
    }
    tries[k].1 += 1;
    true
}

/// What an explorer plans a run with ([`Explorer::teleporter`], [`Explorer::door_front`]).
pub struct RunPlanner<'a> {
    /// The level (its floor points, [`VisitMap::floor`], are what the run is planned over).
    pub level: &'a Level,
    /// The bot's body.
    pub me: EntId,
    /// The match's physics.
    pub physics: &'a crate::physics::PhysicsParams,
    /// The bot's random stream (the plan's seed).
    pub rng: &'a mut SimRng,
}

/// Seconds between an explorer's runs planned toward the frontier.
pub(super) const FRONTIER_SECONDS: f32 = 4.0;

/// A place nobody has been is on an explorer's level from [`DROP_BELOW`] under it to this
/// height over it (steps up count; a drop down does not) ([`Explorer::frontier_run`]
/// before a drop).
pub(super) const LEVEL_UP: f32 = 128.0;

/// And within this distance across.
pub(super) const LEVEL_RANGE: f32 = 768.0;

/// Places on its level an explorer about to drop off it plans runs to, nearest first, at
/// most ([`Explorer::frontier_run`]).
pub(super) const LEVEL_TRIES: usize = 3;

/// Distance within which the waypoint nearest an explorer stands for where it is
/// ([`Explorer::link_run`]).
pub(super) const LINK_FROM: f32 = 256.0;

/// Tries of a planned run per item and bot.
pub const PLAN_TRIES: u32 = 3;

/// Faster than this across the floor, an explorer whose chosen walk drops off its level to
/// where the team has not been brakes (on the ground, one or two ticks against its motion)
/// before it plans a run to the places left on that level ([`Explorer::frontier_run`]): a
/// walk arrives at full speed, and a run planned from a bot at 300 u/s a few units from the
/// edge falls in whatever it does (explorers at the mouth of a narrow way along the edge of
/// a pit dropped in).
pub const SETTLE_SPEED: f32 = 60.0;

/// Expansions of one planned run (at most about a tenth of a second on dm4).
pub(super) const PLAN_EXPANSIONS: usize = 10_000;

/// Free space sampled by a planned run: floor points within this distance of the straight
/// line from the bot to the item (found as often as with a disc around both, in less time).
pub(super) const PLAN_TUBE: f32 = 256.0;

/// The share of an explorer's planned runs' expansions grown toward the goal (reference
/// 004's goal bias).
const PLAN_GOAL_BIAS: f32 = 0.3;

/// How far behind the bot (a share of the way to the goal) the floor a run is planned on
/// reaches: room for a run-up ...
const PLAN_BEHIND: f32 = 0.3;

/// ... and how far past the goal (the way's end is 1).
const PLAN_PAST: f32 = 1.1;

/// Half the box round a standing goal's feet (units): a box standing on the floor there
/// touches it, one falling past does not, as it is not standing.
const STAND_GOAL_HALF: Vec3 = Vec3::new(2.0, 2.0, 1.0);

/// The box round an unvisited point a run to it ends in: across and below ...
const FRONTIER_BELOW: Vec3 = Vec3::new(32.0, 32.0, 24.0);

/// ... and across and above.
const FRONTIER_ABOVE: Vec3 = Vec3::new(32.0, 32.0, 32.0);

/// Off the planned path by more than this (pushed by another player, a mover): the run is
/// dropped.
pub(super) const PLAN_TOLERANCE: f32 = 16.0;

impl Explorer {
    /// Where walking about leads only where the team has been, a run planned over the
    /// physics toward the nearest frontier point nobody has visited (up to [`PLAN_TRIES`]
    /// per point, then the next nearest; at most one plan per [`FRONTIER_SECONDS`]): the
    /// ledge only a jump reaches, the far end of a corridor the local choice keeps turning
    /// away from. With `on_level` (the bot's chosen walk drops off its level), toward the
    /// nearest such points on its level instead ([`DROP_BELOW`] under it to [`LEVEL_UP`]
    /// over it, within [`LEVEL_RANGE`] across), up to [`LEVEL_TRIES`] of them this tick
    /// and with no wait: start's corridor under its pool leads on to the Nightmare hall by
    /// a passage off its end, and explorers there dropped into the pit below it instead
    /// (one that comes at a run brakes first: [`SETTLE_SPEED`]).
    /// The run ends standing in the goal, not falling past it. True when one was found.
    #[allow(
        clippy::too_many_arguments,
        reason = "each is a separate read-only view the plan needs"
    )]
    pub(super) fn frontier_run(
        &mut self,
        map: &CollisionMap,
        level: &Level,
        visits: &VisitMap,
        s: &PlayerState,
        (me, physics): (EntId, &crate::physics::PhysicsParams),
        rng: &mut SimRng,
        dt: f32,
        on_level: bool,
    ) -> bool {
        if !on_level {
            if self.frontier_wait > 0.0 {
                return false;
            }
            self.frontier_wait = FRONTIER_SECONDS;
        }
        let o = s.origin;
        let off_level = |q: Vec3| on_level && off_level(o, q);
        let mut now: Vec<(i32, i32, i32)> = Vec::new();
        for _ in 0..if on_level { LEVEL_TRIES } else { 1 } {
            let tries = &self.frontier_tries;
            let spent =
                |q: Vec3| planned_out(tries, q) || off_level(q) || now.contains(&VisitMap::cell(q));
            let Some(q) = visits.nearest_unvisited_but(level, map, o, spent) else {
                return false;
            };
            plan_try(&mut self.frontier_tries, VisitMap::cell(q));
            now.push(VisitMap::cell(q));
            let goal = RunGoal {
                standing: true,
                ..RunGoal::touch(crate::planner::Goal {
                    mins: q - FRONTIER_BELOW,
                    maxs: q + FRONTIER_ABOVE,
                })
            };
            let world = (map, level, visits);
            if self.run_to(world, s, (me, physics), &goal, rng, dt) {
                return true;
            }
        }
        false
    }

    /// Where the team has been everywhere near, a run planned over the physics toward the
    /// nearest waypoint that the team's graph has no route to from the one nearest the bot
    /// (up to [`PLAN_TRIES`] per waypoint, then the next nearest): most often the storey
    /// above, left by a drop whose way back up nobody has walked. Explorers link only the
    /// waypoints they walk between, so such a storey stays one-way however well it is
    /// covered; the waypoints the run drops close the loop. True when one was found.
    #[allow(
        clippy::too_many_arguments,
        reason = "each is a separate read-only view the plan needs"
    )]
    pub(super) fn link_run(
        &mut self,
        map: &CollisionMap,
        level: &Level,
        visits: &VisitMap,
        graph: &WaypointGraph,
        s: &PlayerState,
        (me, physics): (EntId, &crate::physics::PhysicsParams),
        rng: &mut SimRng,
        dt: f32,
    ) -> bool {
        let o = s.origin;
        let Some((here, _)) = graph.nearest(o, LINK_FROM) else {
            return false;
        };
        let routed = graph.routed_from(here);
        let tries = &self.link_tries;
        let q = graph
            .waypoints()
            .iter()
            .filter(|w| !routed[w.number as usize] && !planned_out(tries, w.origin))
            .map(|w| {
                let d = w.origin - o;
                (d.x * d.x + d.y * d.y + 4.0 * d.z * d.z, w.origin)
            })
            .min_by(|a, b| a.0.total_cmp(&b.0))
            .map(|n| n.1);
        let Some(q) = q else {
            return false;
        };
        plan_try(&mut self.link_tries, VisitMap::cell(q));
        let goal = RunGoal {
            standing: true,
            ..RunGoal::touch(crate::planner::Goal {
                mins: q - FRONTIER_BELOW,
                maxs: q + FRONTIER_ABOVE,
            })
        };
        self.run_to((map, level, visits), s, (me, physics), &goal, rng, dt)
    }

    /// The nearest frontier point nobody has visited on the bot's level that a run may
    /// still be planned to (what [`Explorer::frontier_run`] with `on_level` tries first).
    pub(super) fn level_frontier(
        &self,
        map: &CollisionMap,
        level: &Level,
        visits: &VisitMap,
        s: &PlayerState,
    ) -> Option<Vec3> {
        let spent = |q: Vec3| planned_out(&self.frontier_tries, q) || off_level(s.origin, q);
        visits.nearest_unvisited_but(level, map, s.origin, spent)
    }

    /// Plans a run from `s` into `goal` ([`PlannedRun::plan`]) over the level's floor
    /// points ([`VisitMap::floor`]), seeded from the bot's stream, and, where one is found,
    /// lets go of what the bot was trying ([`Explorer::let_go`]). True when one was found.
    pub(super) fn run_to(
        &mut self,
        (map, level, visits): (&CollisionMap, &Level, &VisitMap),
        s: &PlayerState,
        (me, physics): (EntId, &crate::physics::PhysicsParams),
        goal: &RunGoal,
        rng: &mut SimRng,
        dt: f32,
    ) -> bool {
        let seed = rng.next_u64();
        let floor = visits.floor(level, map);
        // A goal that names no teleporters has the level's working ones in its plan (but
        // the one that is the goal): a run planned as if they were not there went through
        // them and was sent elsewhere (runs onto the sill between a pair of teleporters
        // were taken by the wrong one, back to the start).
        let mut goal = goal.clone();
        if goal.teleporters.is_empty() {
            let region = (goal.region.mins, goal.region.maxs);
            goal.teleporters = crate::planner::teleporters(level)
                .into_iter()
                .filter(|t| (t.mins, t.maxs) != region)
                .collect();
        }
        self.run = PlannedRun::plan(map, floor, s, me, &goal, seed, dt, physics);
        if self.run.is_some() {
            self.let_go();
        }
        self.run.is_some()
    }

    /// This tick's command of a planned run, while the bot is where the plan said it would
    /// be; `None` (and the run dropped) once it is over or off course.
    pub fn planned_cmd(&mut self, s: &PlayerState) -> Option<crate::physics::UserCmd> {
        let c = self.run.as_mut()?.next_cmd(s);
        if c.is_none() {
            self.run = None;
        }
        c
    }

    /// Plans a run from `s` to item `i`'s pickup box over the floor around the straight line
    /// between them (at most [`PLAN_TRIES`] times per item). True when one was found.
    #[allow(
        clippy::too_many_arguments,
        reason = "each is a separate read-only view the plan needs"
    )]
    pub(super) fn plan_run(
        &mut self,
        map: &CollisionMap,
        level: &Level,
        visits: &VisitMap,
        s: &PlayerState,
        (me, physics): (EntId, &crate::physics::PhysicsParams),
        i: usize,
        rng: &mut SimRng,
        dt: f32,
    ) -> bool {
        if !plan_try(&mut self.planned, i) {
            return false;
        }
        let item = &level.items[i];
        let (mn, mx) = item.kind.bounds();
        let goal = crate::planner::Goal {
            mins: item.origin + mn,
            maxs: item.origin + mx,
        };
        let world = (map, level, visits);
        self.run_to(world, s, (me, physics), &RunGoal::touch(goal), rng, dt)
    }
}
