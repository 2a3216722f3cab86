//! The explorer's tick ([`super::Explorer::step`]): where it heads with nothing else to
//! try — an item it sees, the way its feel for the map leads, a run it plans — and when it
//! gives up where it is.

use glam::Vec3;

use super::feel::{DROP_BELOW, choose_target, hazards};
use super::planned::{brake, coming_at_a_run, planned_out, stand_at};
use super::visits::VisitMap;
use super::{
    ANCHOR_RADIUS, Activity, Explorer, FRESH_VISITS, SKIP_SECONDS, STUCK_SECONDS, TARGET_SECONDS,
    run_to_point,
};
use crate::bot::movement::{MoveRequest, MoveStatus};
use crate::bot::{Percepts, Thing};
use crate::map::level::Level;
use crate::map::{CollisionMap, EntId};
use crate::nav::waypoints::WaypointGraph;
use crate::physics::pmove::PlayerState;
use crate::sim::rng::SimRng;

impl Explorer {
    /// One tick of exploring: the movement request, and whether the bot has stayed within
    /// 64 units of one spot for [`STUCK_SECONDS`] (the caller decides what to do then).
    /// `planner`: the bot's body id and the match's physics where the caller plays planned runs
    /// ([`Explorer::planned_cmd`]) toward items the movement stage cannot get to; `None`, no
    /// runs are planned.
    #[allow(
        clippy::too_many_arguments,
        reason = "each is a separate read-only view the choice needs"
    )]
    pub fn step(
        &mut self,
        map: &CollisionMap,
        graph: &WaypointGraph,
        visits: &VisitMap,
        level: &Level,
        s: &PlayerState,
        percepts: &Percepts,
        status: &MoveStatus,
        rng: &mut SimRng,
        dt: f32,
        planner: Option<(EntId, &crate::physics::PhysicsParams)>,
    ) -> (MoveRequest, bool) {
        self.timer -= dt;
        // Just teleported: somewhere new, where what it gave up on may be in reach (an item
        // given up on from the floor below its ledge may be in sight at the exit of a
        // teleporter up there), and the target it walked toward is behind it.
        if self.exploring && s.teleport_time > 0.0 {
            self.skip.clear();
        }
        if self.exploring && s.teleport_time > crate::physics::teleport::TELEPORT_LOCK - 1.5 * dt {
            self.target = None;
        }
        for k in self.skip.iter_mut() {
            k.1 -= dt;
        }
        self.skip.retain(|k| k.1 > 0.0);
        if (s.origin - self.anchor).length() > ANCHOR_RADIUS {
            self.anchor = s.origin;
            self.still = 0.0;
        } else {
            self.still += dt;
        }
        if visits.visits(s.origin) <= FRESH_VISITS {
            self.bored = 0.0;
        } else {
            self.bored += dt;
        }
        let mut stuck = false;
        if self.still > STUCK_SECONDS {
            self.still = 0.0;
            stuck = true;
        }
        // Waiting for a floor to come back ([`Explorer::moved_floor`] says what to do):
        // nothing else is chosen meanwhile, and standing there is not being stuck.
        if matches!(self.activity, Activity::Floor(..)) {
            self.still = 0.0;
            return (stand_at(s.origin), false);
        }
        let blocked = matches!(status, MoveStatus::Blocked(_));
        // Where an item seen on a ledge above is walked at, the walk ends under it:
        // arrived, and the item not taken (it has no item waypoint yet). Chosen again at
        // once, it held the bot there (an item over a hall drew back every explorer that
        // came in, which stood below it until given up).
        let short = *status == MoveStatus::Arrived
            && self.item.is_some_and(|i| graph.item_waypoint(i).is_none());
        // While it uncovers a teleporter under a plat the movement stage's status is that
        // of that walk, not of a walk to the item: an explorer stopped by the rim of the
        // teleporter's well under the plat planned a run for the item it had been going for
        // and gave the teleporter up. (Only this try: for every try it cost coverage
        // elsewhere.)
        if (blocked || short)
            && !matches!(self.activity, Activity::UnderLift(_))
            && let Some(i) = self.item.take()
        {
            // The movement stage cannot get there (lava, a gap it sees no jump over, a ledge
            // over it): a run planned over the physics may; else the item is left alone for
            // a while.
            if let Some(pl) = planner
                && self.plan_run(map, level, visits, s, pl, i, rng, dt)
            {
                self.item = Some(i);
                return (stand_at(s.origin), false);
            }
            self.skip.push((i, SKIP_SECONDS));
        }
        self.frontier_wait -= dt;
        let across = s.velocity.truncate();
        if self.settling {
            if coming_at_a_run(s) {
                return (brake(across), stuck);
            }
            // Slow enough: the run along its level it braked for, else a fresh choice.
            self.settling = false;
            self.target = None;
            if let Some(pl) = planner
                && self.frontier_run(map, level, visits, s, pl, rng, dt, true)
            {
                return (stand_at(s.origin), stuck);
            }
        }
        if self.target.is_none() || blocked || *status == MoveStatus::Arrived || self.timer <= 0.0 {
            let tries = &self.frontier_tries;
            let spent = |q: Vec3| planned_out(tries, q);
            let (t, it) = choose_target(
                map,
                graph,
                visits,
                level,
                s,
                percepts,
                &self.skip,
                (self.max_drop, self.edge_stops, hazards(self.suit), spent),
                rng,
            );
            // Only where the team has been: a route over the team's graph to a frontier
            // point a waypoint reaches, or else a run planned to the nearest frontier point,
            // where one is found (at most one search per FRONTIER_SECONDS).
            // About to walk off its level (a drop it cannot climb back), a run planned to
            // the nearest place nobody has been on that level first, where one is near.
            let known = it.is_none() && visits.visits(t) > 0;
            let leaving = it.is_none() && s.origin.z - t.z > DROP_BELOW;
            let nearby = |ex: &mut Self, pl, rng: &mut SimRng| {
                (known
                    && ex.frontier_wait <= 0.0
                    && (ex.find_gate(map, graph, level, visits, s)
                        || ex.frontier_run(map, level, visits, s, pl, rng, dt, false)
                        || ex.link_run(map, level, visits, graph, s, pl, rng, dt)))
                    || (leaving && ex.frontier_run(map, level, visits, s, pl, rng, dt, true))
            };
            if planner.is_some()
                && leaving
                && !known
                && coming_at_a_run(s)
                && self.level_frontier(map, level, visits, s).is_some()
            {
                self.settling = true;
                self.target = None;
                return (brake(across), stuck);
            }
            if let Some(pl) = planner
                && nearby(self, pl, rng)
            {
                self.target = None;
                return (stand_at(s.origin), stuck);
            }
            self.target = Some(t);
            self.item = it;
            self.timer = TARGET_SECONDS;
        }
        // An item it goes for is walked at on the bot's own level, wherever the bot now is
        // (a planned run may have carried it up to the item's ledge: below, the target read
        // as a way down, and the bot walked off the ledge again).
        if self.exploring
            && let Some(i) = self.item
            && let Some(v) = percepts.visible.iter().find(|v| v.thing == Thing::Item(i))
        {
            self.target = Some(Vec3::new(v.pos.x, v.pos.y, s.origin.z));
        }
        (run_to_point(self.target.unwrap_or(s.origin)), stuck)
    }
}
