//! Doors: walking through one that opens as one comes near or stands open
//! ([`super::Explorer::doorway`]) and shooting a secret door open
//! ([`super::Explorer::secret_door`]).

use super::buttons::DETOUR_SPEED;
use glam::Vec3;

use crate::map::{CollisionMap, Contents};
use crate::physics::pmove::PlayerState;

use super::planned::{RunPlanner, plan_try, standing_goal};
use super::views::{DoorwayView, ShootableView};
use super::visits::VisitMap;
use super::{
    Activity, BUTTON_RANGE, BUTTON_SECONDS, ButtonGo, Detour, Explorer, FRESH_VISITS, run_to_point,
    tried_out,
};
use crate::bot::movement::{MoveRequest, MoveStatus};

/// Seconds an explorer spends shooting at one button or trigger with health, in all.
pub(super) const SHOT_SECONDS: f32 = 2.0;

/// An explorer shoots a closed secret door within this distance of its gun...
pub(super) const SECRET_RANGE: f32 = 768.0;

/// ...and for this many seconds walks into the door's opening while it is open.
pub(super) const SECRET_SECONDS: f32 = 12.0;

/// An explorer walking into a secret door's opening is there within this distance of the
/// opening's middle (across the floor), and goes on its own way.
pub const DOOR_STOOD: f32 = 24.0;

/// How far above the gun (units) an opening door's centre may be and still be shot: one
/// higher is opening out of the way.
const OPENING_ABOVE_GUN: f32 = 64.0;

impl Explorer {
    /// Doors, as a player new to a map tries them: a closed door in sight within
    /// [`BUTTON_RANGE`] that opens when a player comes near, or an open one seen through its
    /// opening, with nobody yet where walking through it leads (but for a glance:
    /// [`FRESH_VISITS`]), is walked through (a closed
    /// one opens as the bot comes near) until the bot stands beyond it or its time is up
    /// ([`BUTTON_SECONDS`] and a second per 160 units of the way), at most [`BUTTON_TRIES`]
    /// times per door. Where walking straight to an open one is blocked, the bot is routed
    /// round to its near side ([`Explorer::detour_step`]). Returns what to do while at it.
    /// One trace per door in range when not going through one.
    pub fn doorway(
        &mut self,
        map: &CollisionMap,
        visits: &VisitMap,
        doors: &[DoorwayView],
        s: &PlayerState,
        moved: (&MoveStatus, (Option<Vec3>, bool)),
        dt: f32,
    ) -> Option<ButtonGo> {
        if let Activity::Doorway(index, beyond, left) = self.activity {
            self.activity = Activity::Nothing;
            let mut left = left - dt;
            if left <= 0.0 || (beyond - s.origin).truncate().length() < 32.0 {
                self.detour = None;
                return None;
            }
            // Round to the near side of an open door when the straight way is blocked (a
            // closed one opens as the bot comes near: walked into).
            let near_side = doors.iter().find(|d| d.index == index && d.open).map(|d| {
                if d.sides[0] == beyond {
                    d.sides[1]
                } else {
                    d.sides[0]
                }
            });
            let go = match self.detour_step(|| near_side, s, moved, &mut left) {
                Detour::GiveUp => return None,
                Detour::Route(q) => ButtonGo::Route(q),
                Detour::Walk => ButtonGo::walk_to(beyond),
            };
            self.activity = Activity::Doorway(index, beyond, left);
            return Some(go);
        }
        let eye = s.origin + Vec3::new(0.0, 0.0, 22.0);
        if self.busy() {
            return None;
        }
        let tries = &self.doorway_tries;
        let spent = |d: &DoorwayView| tried_out(tries, d.index);
        // The side away from the bot is where walking through leads.
        let beyond = |d: &DoorwayView| {
            let [a, b] = d.sides;
            if a.distance_squared(s.origin) >= b.distance_squared(s.origin) {
                a
            } else {
                b
            }
        };
        let (_, d, far) = doors
            .iter()
            .filter(|d| !spent(d))
            .map(|d| (d.centre.distance(eye), d, beyond(d)))
            // Nobody beyond it but for a glance ([`FRESH_VISITS`]): one bot that touched
            // doors open and left at once left the room behind them as unknown as before,
            // and no other tried them.
            .filter(|(dist, _, far)| *dist <= BUTTON_RANGE && visits.visits(*far) <= FRESH_VISITS)
            .filter(|(_, d, _)| {
                // A closed door is seen itself; an open one, through its opening.
                let t = map.trace_ray(eye, d.centre, Contents::SOLID, None);
                if d.open {
                    t.fraction >= 1.0
                } else {
                    t.ent == Some(d.id)
                }
            })
            .min_by(|a, b| a.0.total_cmp(&b.0))?;
        plan_try(&mut self.doorway_tries, d.index);
        // Time to get there at half running speed (round whatever is in the way), and then
        // for the door to open.
        let time = BUTTON_SECONDS + (far - s.origin).truncate().length() / DETOUR_SPEED;
        self.activity = Activity::Doorway(d.index, far, time);
        Some(ButtonGo::walk_to(far))
    }

    /// Secret doors, as a player who knows them plays: a closed shootable door in sight
    /// within [`SECRET_RANGE`], where the bot can walk into its opening
    /// ([`ShootableView::walked_through_from`]), is shot (the view to aim along is returned); for
    /// [`SECRET_SECONDS`] after, the bot waits while the door it shot moves out of the way and
    /// walks into its opening once it is open, until it stands there ([`DOOR_STOOD`]) or is
    /// teleported. A button or trigger with health in sight and
    /// ready is shot too, for [`SHOT_SECONDS`] at most in all (it fires something somewhere;
    /// nothing to walk into). Returns `Some(request)` to replace the explorer's own
    /// (`Some(None)`: stand still), and the view. One trace per shootable in range.
    pub fn secret_door(
        &mut self,
        map: &CollisionMap,
        doors: &[ShootableView],
        s: &PlayerState,
        dt: f32,
    ) -> (Option<Option<MoveRequest>>, Option<(f32, f32)>) {
        if let Some((index, left)) = self.door {
            let left = left - dt;
            self.door = None;
            // Aim below the opening: a point on the hatch's top reads as the near side of a
            // gap to the movement stage, which stops at the edge.
            let below = |d: &ShootableView| d.home_centre - Vec3::new(0.0, 0.0, 64.0);
            // Done once the bot stands in the opening, or was teleported (a teleporter
            // behind the door took it elsewhere): else a door before a teleporter held the
            // bots it sent on still at the exit for as long as the door moved, and then
            // walked them back to the opening's spot.
            let through = |d: &ShootableView| {
                s.teleport_time > 0.0 || (below(d) - s.origin).truncate().length() < DOOR_STOOD
            };
            if left > 0.0
                && let Some(d) = doors.iter().find(|d| d.index == index && !d.closed)
                && !through(d)
            {
                self.door = Some((index, left));
                if !d.open {
                    // Riding a moving secret door blocks it (doors.qc hurts the rider and
                    // the door stays put), so stand aside until it is out of the way.
                    return (Some(None), None);
                }
                return (Some(Some(run_to_point(below(d)))), None);
            }
        }
        // The gun is 16 units above the origin (Quake's `self.origin + '0 0 16'`).
        let gun = s.origin + Vec3::new(0.0, 0.0, 16.0);
        // Never the door underfoot (it would carry the bot into its way) nor one overhead (a
        // hatch opened from below leads nowhere a player can go); a button or trigger may
        // be high on a wall.
        let spent = |d: &ShootableView| {
            !d.opening
                && self
                    .shot
                    .iter()
                    .any(|k| k.0 == d.index && k.1 >= SHOT_SECONDS)
        };
        for d in doors.iter().filter(|d| {
            d.closed
                && s.on_ground != Some(d.id)
                && (!d.opening || d.centre.z < gun.z + OPENING_ABOVE_GUN)
                && !spent(d)
        }) {
            let to = d.centre - gun;
            if to.length() > SECRET_RANGE {
                continue;
            }
            // Solid only: the line starts inside the bot's own body.
            let t = map.trace_ray(gun, d.centre, Contents::SOLID, None);
            if t.ent != Some(d.id) || (d.opening && !d.walked_through_from(map, s.origin)) {
                continue;
            }
            // Shot from a stand where a run brought the bot to the door's front: on an
            // 8-unit ledge the tick's walk would step it off.
            let stand = d.opening && self.door_front == Some(d.index);
            if d.opening {
                self.door = Some((d.index, SECRET_SECONDS));
            } else {
                match self.shot.iter_mut().find(|k| k.0 == d.index) {
                    Some(k) => k.1 += dt,
                    None => self.shot.push((d.index, dt)),
                }
            }
            let yaw = to.y.atan2(to.x).to_degrees();
            let pitch = -(to.z.atan2(to.truncate().length())).to_degrees();
            return (stand.then_some(None), Some((yaw, pitch)));
        }
        (None, None)
    }

    /// A closed door in a wall in sight within [`SECRET_RANGE`] that the bot cannot walk
    /// into from where it is ([`ShootableView::walked_through_from`]), with a floor to
    /// stand on right in front of its face on the bot's side
    /// ([`ShootableView::front_stand`]): a run planned over the physics to stand there
    /// (standing, not passing it on the way down), from where [`Explorer::secret_door`]
    /// shoots it, from a stand, and walks in. Such a door may stand over a narrow ledge
    /// high above the hall in front of it, reached only by a drop from above. At most
    /// [`BUTTON_TRIES`] plans per door and visit cell planned from, none while the bot is
    /// at something else ([`Explorer::busy`]). True when a run was planned
    /// ([`Explorer::planned_cmd`] plays it). One trace per closed door in range.
    pub fn door_front(
        &mut self,
        map: &CollisionMap,
        visits: &VisitMap,
        doors: &[ShootableView],
        s: &PlayerState,
        planner: RunPlanner<'_>,
        dt: f32,
    ) -> bool {
        let RunPlanner {
            level,
            me,
            physics,
            rng,
        } = planner;
        let world = (map, level, visits);
        // Shot from its front and open now: a run through it too, past its far face (on a
        // ledge the movement stage, turning off a corner of the opening, stepped off).
        if let Some(index) = self.door_front
            && let Some((shot, _)) = self.door
        {
            if shot != index {
                self.door_front = None;
                return false;
            }
            let Some(d) = doors.iter().find(|d| d.index == index && d.open) else {
                return false;
            };
            self.door_front = None;
            let Some(stand) = d.beyond_stand(map, s.origin) else {
                return false;
            };
            if self.run_to(world, s, (me, physics), &standing_goal(stand), rng, dt) {
                self.door = None;
                return true;
            }
            return false;
        }
        if self.busy() || self.door.is_some() || s.on_ground.is_none() {
            return false;
        }
        let gun = s.origin + Vec3::new(0.0, 0.0, 16.0);
        let cell = VisitMap::cell(s.origin);
        let tries = &self.door_front_tries;
        let Some((d, stand)) = doors
            .iter()
            .filter(|d| d.closed && d.opening && s.on_ground != Some(d.id))
            .filter(|d| !tried_out(tries, (d.index, cell)))
            .filter(|d| d.centre.distance(gun) <= SECRET_RANGE)
            .filter(|d| map.trace_ray(gun, d.centre, Contents::SOLID, None).ent == Some(d.id))
            .filter(|d| !d.walked_through_from(map, s.origin))
            .filter(|d| !d.leads_where_known(map, visits, s.origin))
            .find_map(|d| d.front_stand(map, s.origin).map(|p| (d, p)))
        else {
            return false;
        };
        plan_try(&mut self.door_front_tries, (d.index, cell));
        let index = d.index;
        if self.run_to(world, s, (me, physics), &standing_goal(stand), rng, dt) {
            self.door_front = Some(index);
            return true;
        }
        false
    }
}
