//! Teleporters: stepping into one that leads where nobody has been
//! ([`super::Explorer::teleporter`]) and the gates into a teleporter's field.

use glam::Vec3;

use super::lifts::LIFT_RANGE;
use super::planned::{FRONTIER_SECONDS, RunGoal, RunPlanner, plan_try};
use super::views::{TeleporterView, touched_first};
use super::visits::VisitMap;
use super::{Activity, BUTTON_SECONDS, ButtonGo, Explorer, THERE, tried_out};
use crate::map::level::Level;
use crate::map::{CollisionMap, Contents};
use crate::nav::waypoints::WaypointGraph;
use crate::physics::pmove::PlayerState;

/// Seconds an explorer routes toward a frontier point before giving up on it.
pub(super) const GATE_SECONDS: f32 = 20.0;

/// Tries per frontier cell and explorer of a route there.
pub(super) const GATE_TRIES: u32 = 2;

/// How many of the nearest unvisited frontier points with a waypoint within [`GATE_RADIUS`]
/// an explorer tests for a waypoint that reaches them, per choice (each costs up to eight
/// reachability tests: the routing stage's goal test, [`GATE_REACH_RADIUS`] and
/// [`GATE_REACH_CANDIDATES`]).
pub(super) const GATE_CANDIDATES: usize = 8;

/// A frontier point is tested only with a waypoint this near (the drop stage's search
/// radius: beyond it the bot would drop one on the way).
pub(super) const GATE_RADIUS: f32 = 320.0;

/// The routing stage's goal test (the waypoint a route to a point ends at: of this many
/// nearest within [`GATE_REACH_RADIUS`], the first that reaches it; the routing module's
/// `PICK_CANDIDATES` and `PICK_RADIUS`, which tests/explorers_try.rs checks): a frontier
/// point that passes it is one a route leads to.
pub const GATE_REACH_CANDIDATES: usize = 8;

/// See [`GATE_REACH_CANDIDATES`].
pub const GATE_REACH_RADIUS: f32 = 512.0;

impl Explorer {
    /// The place being routed to over the team's graph ([`Explorer::find_gate`]) while the
    /// way there lasts: `None` (and the gate dropped) once someone has been in its cell,
    /// the bot stands by it, the routing stage found no route to it (`routed`: the goal
    /// the routing stage last worked on, and whether it found no route to it), or
    /// [`GATE_SECONDS`] have passed.
    pub fn gate(
        &mut self,
        visits: &VisitMap,
        s: &PlayerState,
        routed: (Option<Vec3>, bool),
        dt: f32,
    ) -> Option<Vec3> {
        let (q, left) = self.gate.as_mut()?;
        *left -= dt;
        // What the routing stage said of this goal (not of the last one).
        let no_route = routed.0 == Some(*q) && routed.1;
        let d = *q - s.origin;
        let there = d.truncate().length() < THERE && d.z.abs() < THERE;
        if *left <= 0.0 || no_route || there || visits.visits(*q) > 0 {
            self.gate = None;
            // Exploring goes on from here with a fresh choice.
            self.target = None;
            self.anchor = s.origin;
            self.still = 0.0;
            return None;
        }
        Some(*q)
    }

    /// Where the way on leads only where the team has been: of the [`GATE_CANDIDATES`]
    /// nearest frontier points nobody has visited with a waypoint within [`GATE_RADIUS`]
    /// (height counting double; each at most [`GATE_TRIES`] times), the first that a
    /// waypoint of the team's graph reaches in a
    /// straight line — the routing stage's own goal test ([`GATE_REACH_CANDIDATES`]),
    /// so that a route there exists where the graph links that waypoint. The way there may
    /// run anywhere the graph does: round a corner, up a stair the local choice turned
    /// from, back through rooms already known. True when one was found (it is then routed to).
    pub(super) fn find_gate(
        &mut self,
        map: &CollisionMap,
        graph: &WaypointGraph,
        level: &Level,
        visits: &VisitMap,
        s: &PlayerState,
    ) -> bool {
        let tries = &self.gate_tries;
        let spent = |q: &Vec3| {
            tries
                .iter()
                .any(|t| t.0 == VisitMap::cell(*q) && t.1 >= GATE_TRIES)
        };
        let mut near: Vec<(f32, Vec3)> = visits
            .frontier(level, map)
            .iter()
            .filter(|q| visits.visits(**q) == 0 && !spent(q))
            .map(|q| {
                let d = *q - s.origin;
                (d.x * d.x + d.y * d.y + 4.0 * d.z * d.z, *q)
            })
            .collect();
        near.sort_by(|a, b| a.0.total_cmp(&b.0));
        // Only points with a waypoint within GATE_RADIUS are tested (a lookup in the graph's
        // grid): those behind a wall from everything the team knows cost nothing.
        let found = near
            .iter()
            .map(|n| n.1)
            .filter(|q| !graph.near_k(*q, GATE_RADIUS, 1).is_empty())
            .take(GATE_CANDIDATES)
            .find(|q| {
                crate::nav::sample::nearest_reaching(
                    map,
                    graph,
                    *q,
                    GATE_REACH_RADIUS,
                    GATE_REACH_CANDIDATES,
                )
                .is_some()
            });
        let Some(q) = found else {
            return false;
        };
        let cell = VisitMap::cell(q);
        match self.gate_tries.iter_mut().find(|t| t.0 == cell) {
            Some(t) => t.1 += 1,
            None => self.gate_tries.push((cell, 1)),
        }
        self.gate = Some((q, GATE_SECONDS));
        self.frontier_wait = FRONTIER_SECONDS;
        true
    }

    /// Teleporters, as a player new to a map tries them: a working teleporter in sight
    /// within [`LIFT_RANGE`] that sends a player where nobody has been is walked into,
    /// until the bot arrives there or [`BUTTON_SECONDS`] have passed, at most
    /// [`BUTTON_TRIES`] times per teleporter (the drop stage marks the way). One beside
    /// another ([`TeleporterView::entry`]) is got into by a run planned over the physics
    /// where `planner` (the level, the bot's body, the physics, the bot's random stream) is
    /// given and one is found, the others being teleporters in the plan (a run that
    /// touches one of them first goes where it leads). Returns what to do while at it
    /// (`None` also when a run was planned: [`Explorer::planned_cmd`] plays it). One trace
    /// per teleporter in range when not going to one.
    pub fn teleporter(
        &mut self,
        map: &CollisionMap,
        visits: &VisitMap,
        teleporters: &[TeleporterView],
        s: &PlayerState,
        planner: Option<RunPlanner<'_>>,
        dt: f32,
    ) -> Option<ButtonGo> {
        let toward = |t: &TeleporterView| ButtonGo::walk_to(t.walk_point(s.origin));
        if let Activity::Teleporter(index, left) = self.activity {
            self.activity = Activity::Nothing;
            let left = left - dt;
            let t = teleporters.iter().find(|t| t.index == index)?;
            if left <= 0.0 || s.origin.distance(t.dest) < 64.0 {
                return None;
            }
            self.activity = Activity::Teleporter(index, left);
            return Some(toward(t));
        }
        let eye = s.origin + Vec3::new(0.0, 0.0, 22.0);
        if self.busy() {
            return None;
        }
        let tries = &self.teleporter_tries;
        let spent = |t: &TeleporterView| tried_out(tries, t.index);
        let straight = |t: &TeleporterView| {
            touched_first(teleporters, s.origin, t.walk_point(s.origin)) == Some(t.index)
        };
        let t = teleporters
            .iter()
            .filter(|t| !spent(t) && !t.leads_where_known(visits))
            .map(|t| (t.centre.distance(eye), t))
            .filter(|(d, _)| *d <= LIFT_RANGE)
            .filter(|(_, t)| map.trace_ray(eye, t.centre, Contents::SOLID, None).fraction >= 1.0)
            // Only one a straight walk at the bot's own height gets into first: from the
            // wrong side of a teleporter beside another, the other is touched first, and
            // one seen from a balcony above it (or from below) is touched by no such walk —
            // walked at, it spent the try. One beside another is planned for from anywhere.
            .filter(|(_, t)| straight(t) || (t.entry.is_some() && planner.is_some()))
            .min_by(|a, b| a.0.total_cmp(&b.0))?
            .1;
        plan_try(&mut self.teleporter_tries, t.index);
        // Beside another, a straight walk is a poor way in even from the right side: a pair
        // of thin triggers on either face of a sill under an arch may be got into from one
        // side only through a gap a few units wide for a player's centre, and the movement
        // stage turned away there and walked round into the other one.
        if t.entry.is_some()
            && let Some(RunPlanner {
                level,
                me,
                physics,
                rng,
            }) = planner
        {
            let goal = crate::planner::Goal {
                mins: t.mins,
                maxs: t.maxs,
            };
            let others = teleporters
                .iter()
                .filter(|o| o.index != t.index)
                .map(|o| crate::planner::Teleporter {
                    mins: o.mins,
                    maxs: o.maxs,
                    origin: o.dest,
                    yaw: o.yaw,
                })
                .collect();
            let world = (map, level, visits);
            let goal = RunGoal {
                teleporters: others,
                ..RunGoal::touch(goal)
            };
            if self.run_to(world, s, (me, physics), &goal, rng, dt) {
                return None;
            }
        }
        if !straight(t) {
            return None;
        }
        self.activity = Activity::Teleporter(t.index, BUTTON_SECONDS);
        Some(toward(t))
    }
}
