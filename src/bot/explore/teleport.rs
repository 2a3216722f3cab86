//! Teleporters: stepping into one that leads where nobody has been
//! ([`super::Explorer::teleporter`]) and the gates into a teleporter's field.

use super::THERE;
use glam::Vec3;

use crate::map::level::Level;
use crate::map::{CollisionMap, Contents};
use crate::nav::waypoints::WaypointGraph;
use crate::physics::pmove::{PLAYER_MAXS, PLAYER_MINS, PlayerState, STEP_SIZE};

use super::Activity;
use super::Explorer;
use super::buttons::{BUTTON_SECONDS, ButtonGo};
use super::lifts::LIFT_RANGE;
use super::planned::{FRONTIER_SECONDS, RunGoal, RunPlanner, plan_try};
use super::slime::tried_out;
use super::views::TeleporterView;
use super::visits::VisitMap;

/// How near a walk chosen by [`choose_target`] comes to a teleporter's volume at most
/// (its player box, across the floor), unless it starts nearer: a walk brushing past one
/// is taken by it (a player turning away from a wall still drifts on toward it).
pub const TELEPORTER_BERTH: f32 = 16.0;

/// The volumes of the level's teleporters that lead where the team has stood (at the
/// destination or where an arrival comes down, [`stood_where_it_leads`]).
pub fn teleporter_boxes(level: &Level, visits: &VisitMap) -> Vec<(Vec3, Vec3)> {
    use crate::map::level::TriggerKind;
    level
        .triggers
        .iter()
        .filter(|t| match t.kind {
            TriggerKind::Teleport { dest: Some(d) } => {
                let d = &level.teleport_dests[d];
                stood_where_it_leads(visits, d.origin, d.yaw)
            }
            _ => false,
        })
        .map(|t| (t.mins, t.maxs))
        .collect()
}

/// Whether the team has stood where a teleporter to `dest`, facing `yaw` (degrees), sends a
/// player: at the destination, or where an arrival comes down. A teleporter sends players
/// on at 300 units/s the way the destination faces, and visits count only standing: an
/// arrival comes down [`ARRIVAL_RUN`] on, often in the next cell, and nobody stands in its
/// destination's own, so every explorer took such a teleporter twice for somewhere new.
pub fn stood_where_it_leads(visits: &VisitMap, dest: Vec3, yaw: f32) -> bool {
    let (sin, cos) = yaw.to_radians().sin_cos();
    let on = dest + Vec3::new(cos, sin, 0.0) * ARRIVAL_RUN;
    visits.visits(dest) > 0 || visits.visits(on) > 0
}

/// Whether a player walking straight from `from` to `to` comes nearer a teleporter of
/// `boxes` than [`TELEPORTER_BERTH`] (or than it starts, where it starts nearer): walks are
/// felt for where they lead, and one that leads where the team has been sends a player back
/// there (a teleporter back may stand beside the arrival, and explorers that walked along
/// its face were sent back before seeing what lay beyond; nobody went again, the arrival
/// being known). Teleporters to places nobody has stood at are left out
/// ([`teleporter_boxes`]): brushing one is a way somewhere new (in a hall of teleporters,
/// kept off them all, explorers marked every item on half as many runs).
pub fn nears_teleporter(boxes: &[(Vec3, Vec3)], from: Vec3, to: Vec3) -> bool {
    // The gap across the floor between the player's box at `p` and the volume (at
    // heights where they overlap, a step's play either way for stairs walked).
    let gap = |p: Vec3, (lo, hi): (Vec3, Vec3)| -> Option<f32> {
        let (bl, bh) = (p + PLAYER_MINS, p + PLAYER_MAXS);
        if bl.z >= hi.z + STEP_SIZE || bh.z <= lo.z - STEP_SIZE {
            return None;
        }
        let dx = (lo.x - bh.x).max(bl.x - hi.x).max(0.0);
        let dy = (lo.y - bh.y).max(bl.y - hi.y).max(0.0);
        Some(dx.hypot(dy))
    };
    let steps = ((to - from).length() / 8.0).ceil().max(1.0) as usize;
    boxes.iter().any(|&b| {
        let near = gap(from, b).map_or(TELEPORTER_BERTH, |g| g.min(TELEPORTER_BERTH));
        (1..=steps)
            .any(|k| gap(from.lerp(to, k as f32 / steps as f32), b).is_some_and(|g| g < near))
    })
}

/// Seconds an explorer routes toward a frontier point before giving up on it.
pub const GATE_SECONDS: f32 = 20.0;

/// Tries per frontier cell and explorer of a route there.
pub const GATE_TRIES: u32 = 2;

/// How many of the nearest unvisited frontier points with a waypoint within [`GATE_RADIUS`]
/// an explorer tests for a waypoint that reaches them, per choice (each costs up to eight
/// reachability tests: the routing stage's goal test, [`GATE_REACH_RADIUS`] and
/// [`GATE_REACH_CANDIDATES`]).
pub const GATE_CANDIDATES: usize = 8;

/// A frontier point is tested only with a waypoint this near (the drop stage's search
/// radius: beyond it the bot would drop one on the way).
pub const GATE_RADIUS: f32 = 320.0;

/// The routing stage's goal test (the waypoint a route to a point ends at: of this many
/// nearest within [`GATE_REACH_RADIUS`], the first that reaches it; the routing module's
/// `PICK_CANDIDATES` and `PICK_RADIUS`, which tests/explorers_try.rs checks): a frontier
/// point that passes it is one a route leads to.
pub const GATE_REACH_CANDIDATES: usize = 8;

/// See [`GATE_REACH_CANDIDATES`].
pub const GATE_REACH_RADIUS: f32 = 512.0;

/// How far on from a teleporter's destination an arrival comes down, about (sent on at 300
/// units/s, an arrival stands again about 90 units on).
pub const ARRIVAL_RUN: f32 = 96.0;

/// How far a player's box reaches into a teleporter's face at its entry point.
pub const ENTRY_OVERLAP: f32 = 2.0;

/// The teleporter a player walking in a straight line from `from` to `to` touches first,
/// if any (the path sampled every 4 units): from the wrong side of a teleporter beside
/// another, the other one.
pub fn touched_first(teleporters: &[TeleporterView], from: Vec3, to: Vec3) -> Option<usize> {
    let steps = ((to - from).length() / 4.0).ceil().max(1.0) as usize;
    (0..=steps).find_map(|k| {
        let p = from.lerp(to, k as f32 / steps as f32);
        teleporters
            .iter()
            .find(|t| {
                crate::map::collision::overlaps(p + PLAYER_MINS, p + PLAYER_MAXS, t.mins, t.maxs)
            })
            .map(|t| t.index)
    })
}

/// The side a teleporter (trigger `index`, its box) is entered from, where a player's box
/// at the middle of one of its four vertical faces, just overlapping it, would touch
/// another of the `boxes` too (see [`TeleporterView::entry`]): the first face, in the
/// order +x, −x, +y, −y, where the box touches this one alone. `None` where every face
/// touches it alone, or none does.
pub(super) fn entry_side(
    index: usize,
    mins: Vec3,
    maxs: Vec3,
    boxes: &[(usize, Vec3, Vec3)],
) -> Option<(Vec3, Vec3)> {
    let centre = (mins + maxs) * 0.5;
    let half = PLAYER_MAXS.x;
    let faces = [
        (
            Vec3::X,
            Vec3::new(maxs.x + half - ENTRY_OVERLAP, centre.y, centre.z),
        ),
        (
            Vec3::NEG_X,
            Vec3::new(mins.x - half + ENTRY_OVERLAP, centre.y, centre.z),
        ),
        (
            Vec3::Y,
            Vec3::new(centre.x, maxs.y + half - ENTRY_OVERLAP, centre.z),
        ),
        (
            Vec3::NEG_Y,
            Vec3::new(centre.x, mins.y - half + ENTRY_OVERLAP, centre.z),
        ),
    ];
    let alone = |p: Vec3| {
        !boxes.iter().any(|&(i, lo, hi)| {
            i != index && crate::map::collision::overlaps(p + PLAYER_MINS, p + PLAYER_MAXS, lo, hi)
        })
    };
    let clean: Vec<bool> = faces.iter().map(|f| alone(f.1)).collect();
    if clean.iter().all(|c| *c) {
        return None;
    }
    faces.iter().zip(&clean).find(|(_, c)| **c).map(|(f, _)| *f)
}

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
