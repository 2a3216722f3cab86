//! Plats and moving floors: riding a plat that leads where nobody has been
//! ([`super::Explorer::lift`]), uncovering what lies under one waiting down
//! ([`super::Explorer::under_lift`]) and crossing a floor that slid away once it is back
//! ([`super::Explorer::moved_floor`]).

use super::{EIGHTH, MIN_WALK};
use glam::Vec3;

use super::feel::walk_run;
use super::planned::{plan_try, stand_at};
use super::views::{FloorView, LiftView, TeleporterView};
use super::visits::VisitMap;
use super::{Activity, ButtonGo, Explorer, FEEL, RUN_SPEED, TARGET_SECONDS, THERE, tried_out};
use crate::map::level::Level;
use crate::map::{CollisionMap, Contents, EntId};
use crate::physics::pmove::{PLAYER_MAXS, PLAYER_MINS, PlayerState, STEP_SIZE};

/// How far off an explorer sees a plat it goes to ride.
pub(super) const LIFT_RANGE: f32 = 768.0;

/// Seconds an explorer tries to get onto a plat and ride it up before giving up on it.
pub(super) const LIFT_SECONDS: f32 = 12.0;

/// Slower than this across the floor, a bot at a plat counts as stopped (held by an edge, a
/// post, or standing where it came to rest).
pub(super) const STOPPED_SPEED: f32 = 30.0;

/// How far out from a plat's side an explorer uncovering a teleporter under it steps back
/// off ([`Explorer::under_lift`]).
pub(super) const UNDER_LIFT_OFF: f32 = 40.0;

/// How far above a teleporter's top the feet of an explorer walking in under a plat may
/// be (standing on a rim round it) before it counts as off on another level.
pub(super) const UNDER_LIFT_RIM: f32 = 64.0;

/// A teleporter under a plat waiting down that an explorer uncovers ([`Explorer::under_lift`]).
#[derive(Clone, Copy, Debug)]
pub struct UnderLift {
    /// The teleporter (trigger index).
    pub teleporter: usize,
    /// The plat (mover index).
    pub lift: usize,
    /// Where the bot steps back off the plat once it rises: [`UNDER_LIFT_OFF`] out from
    /// the middle of the plat's side nearest where the bot saw it from, at that height.
    pub back: Vec3,
    /// The plat has left its bottom with the bot on it.
    pub raised: bool,
    /// Where the bot walks on the plat first, round a post between it and the middle.
    pub via: Option<Vec3>,
    /// The bot has stepped back off the rising plat onto the ground: from then on a jump
    /// is toward the teleporter, not back to [`UnderLift::back`].
    pub off: bool,
    /// Seconds left.
    pub left: f32,
}

/// How far up from its bottom a plat carries a rider before the rider is off its side, at
/// most: a plat can carry one into beams round its shaft's mouth (and then turn back down,
/// blocked).
pub(super) const STEP_OFF_RISE: f32 = 32.0;

/// How far out from the middle of plat `l`'s side `d` (a unit axis) an explorer
/// uncovering a teleporter under it steps back off: [`UNDER_LIFT_OFF`] past the edge.
pub(super) fn step_off_point(l: &LiftView, d: Vec3) -> Vec3 {
    l.top + d * (d.x.abs() * l.half.x + d.y.abs() * l.half.y + UNDER_LIFT_OFF)
}

/// Where an explorer that saw a teleporter under plat `l` from `from` steps back off it
/// ([`UnderLift::back`]): out from the middle of the side `from` lies off.
pub fn step_back(l: &LiftView, from: Vec3) -> Vec3 {
    let off = from - l.top;
    let side = if off.x.abs() * l.half.y >= off.y.abs() * l.half.x {
        Vec3::X * off.x.signum()
    } else {
        Vec3::Y * off.y.signum()
    };
    step_off_point(l, side)
}

/// Where an explorer standing at `from` on plat `l`, which has started up, steps off it
/// instead ([`UnderLift::back`]): out from the middle of the side whose edge is nearest of
/// those a player leaving the plat [`STEP_OFF_RISE`] up has headroom past (the nearest
/// where none has).
pub fn step_off(map: &CollisionMap, l: &LiftView, from: Vec3) -> Vec3 {
    let off = from - l.top;
    let up = l.top.with_z(l.top.z + STEP_OFF_RISE - PLAYER_MINS.z + 1.0);
    let headroom = |d: Vec3| {
        let tr = map.trace(
            up,
            up + (step_off_point(l, d) - l.top),
            PLAYER_MINS,
            PLAYER_MAXS,
            Contents::MASK_PLAYER_NO_BODIES,
            Some(l.id),
        );
        !tr.start_solid && tr.fraction >= 1.0
    };
    // Nearest edge first (the bot's distance to it).
    let gap = |d: Vec3| d.x.abs() * l.half.x + d.y.abs() * l.half.y - off.dot(d);
    let mut sides = [Vec3::X, Vec3::NEG_X, Vec3::Y, Vec3::NEG_Y];
    sides.sort_by(|&a, &b| gap(a).total_cmp(&gap(b)));
    let side = sides.into_iter().find(|&d| headroom(d)).unwrap_or(sides[0]);
    step_off_point(l, side)
}

/// Seconds an explorer waits for a floor that slid away to come back and walks to the place
/// on it it waited for ([`Explorer::moved_floor`]): a door-floor's travel both ways and its
/// wait.
pub(super) const FLOOR_SECONDS: f32 = 15.0;

/// How near across (units) the point a bot walks out from under a lift by counts as
/// reached.
const VIA_REACHED: f32 = 8.0;

/// How far back from a floor mover (units) a bot on a pressure plate steps to wait.
const PLATE_BACK: f32 = 64.0;

impl Explorer {
    /// Teleporters under plats, as a player new to a map finds them: a working teleporter
    /// that sends a player where nobody has been, within [`LIFT_RANGE`], hidden from the
    /// bot by a plat waiting down over it (the trace to its middle ends on the plat) while
    /// the bot is at the teleporter's height, is uncovered: the bot walks onto the plat's
    /// middle (jumping on where it stops against the plat's edge) until it starts up, steps
    /// back off over the middle of the side it came from, and walks in under the rising
    /// plat (jumping on where it stops: a rim round the teleporter) until it is sent on. A
    /// teleporter in a well under the plat that leaves a pit may be the only way on:
    /// explorers that came down into the pit rode the plat up and out. A post in the way on
    /// the plat is walked round ([`UnderLift::via`]); the side stepped back off is chosen
    /// again once the plat starts up ([`step_off`]); a jump at the rim of the well is
    /// steered over it in the air. At most [`BUTTON_TRIES`] times per teleporter (counted
    /// with [`Explorer::teleporter`]'s), for at most [`LIFT_SECONDS`] each, and over when
    /// the plat is down again before the bot got in. One trace per teleporter in range when
    /// not at one.
    pub fn under_lift(
        &mut self,
        map: &CollisionMap,
        visits: &VisitMap,
        (lifts, teleporters): (&[LiftView], &[TeleporterView]),
        s: &PlayerState,
        dt: f32,
    ) -> Option<ButtonGo> {
        if let Activity::UnderLift(mut u) = self.activity {
            self.activity = Activity::Nothing;
            u.left -= dt;
            let l = lifts.iter().find(|l| l.index == u.lift)?;
            let t = teleporters.iter().find(|t| t.index == u.teleporter)?;
            let on = s.on_ground == Some(l.id);
            // Out of time, teleported, or back down before the bot got in: covered again.
            if u.left <= 0.0 || s.origin.distance(t.dest) < 64.0 || (u.raised && l.waiting) {
                return None;
            }
            if on && !l.waiting && !u.raised {
                u.raised = true;
                u.back = step_off(map, l, s.origin).with_z(u.back.z);
            }
            self.activity = Activity::UnderLift(u);
            // Stopped on the ground short of where it goes: against an edge higher than the
            // movement stage jumps (a plat standing over a pit's floor, a rim closing the
            // teleporter's well under it), so jump on toward it.
            let run_at = |to: Vec3, jump: bool| {
                let dir = (to - s.origin).truncate().normalize_or_zero().extend(0.0);
                ButtonGo::Press(crate::physics::predict::run_toward(dir, RUN_SPEED, jump))
            };
            let jump_on = |to: Vec3| run_at(to, !s.jump_held);
            let stopped = s.on_ground.is_some() && s.velocity.truncate().length() < STOPPED_SPEED;
            if !u.raised {
                let middle = l.rider();
                if on && l.in_field(s.origin) {
                    return Some(ButtonGo::stand(s.yaw));
                }
                if !on && stopped {
                    return Some(jump_on(middle));
                }
                // Stopped on the plat short of its field: a post at a corner is in the way
                // (a plat may slide down round four), so in along the other axis first, to
                // the middle's line, and from there to the middle.
                if on && stopped && u.via.is_none() {
                    let off = (s.origin - l.top).abs();
                    let out_y = off.y * l.half.x > off.x * l.half.y;
                    u.via = Some(if out_y {
                        Vec3::new(middle.x, s.origin.y, middle.z)
                    } else {
                        Vec3::new(s.origin.x, middle.y, middle.z)
                    });
                }
                if u.via
                    .is_some_and(|p| (p - s.origin).truncate().length() < VIA_REACHED)
                {
                    u.via = None;
                }
                self.activity = Activity::UnderLift(u);
                return Some(ButtonGo::walk_to(u.via.unwrap_or(middle)));
            }
            u.off |= !on && s.on_ground.is_some();
            self.activity = Activity::UnderLift(u);
            if !u.off {
                return Some(ButtonGo::walk_to(u.back));
            }
            // Off the plat: in under it from the teleporter's height (or a rim round it);
            // stepped off onto another level (the plat already up there), it is over.
            let feet = s.origin.z + PLAYER_MINS.z;
            if feet > t.maxs.z + UNDER_LIFT_RIM || s.origin.z + PLAYER_MAXS.z <= t.mins.z {
                return None;
            }
            let to = Vec3::new(t.centre.x, t.centre.y, s.origin.z);
            if stopped {
                return Some(jump_on(to));
            }
            // In the air off a jump at the rim, steered on over it: walked back toward the
            // plat's side, a standing jump (30 u/s in the air at most) came down where it
            // left: the rim's top was reached again and again, never crossed.
            if s.on_ground.is_none() {
                return Some(run_at(to, false));
            }
            return Some(ButtonGo::walk_to(to));
        }
        if self.busy() {
            return None;
        }
        let eye = s.origin + Vec3::new(0.0, 0.0, 22.0);
        let level = |t: &TeleporterView| {
            s.origin.z + PLAYER_MINS.z < t.maxs.z && s.origin.z + PLAYER_MAXS.z > t.mins.z
        };
        let tries = &self.teleporter_tries;
        let (t, l) = teleporters
            .iter()
            .filter(|t| !tried_out(tries, t.index) && level(t))
            .filter(|t| t.centre.distance(eye) <= LIFT_RANGE && !t.leads_where_known(visits))
            .filter_map(|t| {
                let hit = map.trace_ray(eye, t.centre, Contents::SOLID, None).ent?;
                let l = lifts.iter().find(|l| l.id == hit && l.waiting)?;
                (s.on_ground != Some(l.id) && t.maxs.z <= l.top.z).then_some((t, l))
            })
            .min_by(|a, b| {
                a.0.centre
                    .distance(eye)
                    .total_cmp(&b.0.centre.distance(eye))
            })?;
        plan_try(&mut self.teleporter_tries, t.index);
        // Stepped back off over the middle of the plat's side nearest the bot, clear of its
        // edge: a corner may have a post in the way in from there.
        let back = step_back(l, s.origin);
        self.activity = Activity::UnderLift(UnderLift {
            teleporter: t.index,
            lift: l.index,
            back: back.with_z(s.origin.z),
            raised: false,
            via: None,
            off: false,
            left: LIFT_SECONDS,
        });
        Some(ButtonGo::walk_to(l.rider()))
    }

    /// Floors that slid away, as a player new to a map waits for them: where the nearest
    /// place nobody has been (a frontier point within [`LIFT_RANGE`], seen, on the bot's
    /// level) is on the top of a [`FloorView`] that is not closed now, the bot stands where
    /// it is until the floor is back and then walks to that place, until someone has been
    /// there or [`FLOOR_SECONDS`] have passed, at most [`BUTTON_TRIES`] times per floor.
    /// Explorers that pressed a plate before such a floor saw it slide away, turned to the
    /// nearest place they could get to and never came back. Costs nothing while every floor
    /// is closed; while one is away, a search of the frontier points and at most one trace
    /// per tick when not waiting.
    pub fn moved_floor(
        &mut self,
        map: &CollisionMap,
        (level, visits): (&Level, &VisitMap),
        floors: &[FloorView],
        s: &PlayerState,
        dt: f32,
    ) -> Option<ButtonGo> {
        if let Activity::Floor(index, q, left, crossing) = self.activity {
            self.activity = Activity::Nothing;
            let left = left - dt;
            let f = floors.iter().find(|f| f.index == index)?;
            // On it: it is crossed as any floor (walking onto one may fire it, and the wall
            // it carries the bot to stops it).
            let d = q - s.origin;
            let there = d.truncate().length() < THERE && d.z.abs() < THERE;
            if left <= 0.0 || there || s.on_ground == Some(f.id) || visits.visits(q) > 0 {
                return None;
            }
            // Once the floor is back the bot goes for it, whatever fires it on the way (a
            // plate before it slides it away as the bot comes on, which carries the bot).
            let crossing = crossing || f.home_now;
            self.activity = Activity::Floor(index, q, left, crossing);
            if crossing {
                return Some(ButtonGo::walk_to(q));
            }
            // Waiting: standing on a pressure plate that fires the floor (a button pressed
            // by touch) holds it away, so not on a mover but a step back from the floor.
            if s.on_ground.is_some_and(|g| g != EntId::WORLD) {
                let back = (s.origin - q).truncate().normalize_or_zero().extend(0.0);
                return Some(ButtonGo::walk_to(s.origin + back * PLATE_BACK));
            }
            return Some(ButtonGo::Walk(stand_at(s.origin)));
        }
        if self.busy() || floors.iter().all(|f| f.home_now) {
            return None;
        }
        let eye = s.origin + Vec3::new(0.0, 0.0, 22.0);
        let tries = &self.floor_tries;
        let q = visits.nearest_unvisited(level, map, s.origin)?;
        if q.distance(eye) > LIFT_RANGE || (q.z - s.origin.z).abs() > STEP_SIZE {
            return None;
        }
        let f = floors
            .iter()
            .find(|f| !f.home_now && f.under(q) && !tried_out(tries, f.index))?;
        if map.trace_ray(eye, q, Contents::SOLID, None).fraction < 1.0 {
            return None;
        }
        plan_try(&mut self.floor_tries, f.index);
        self.activity = Activity::Floor(f.index, q, FLOOR_SECONDS, false);
        Some(ButtonGo::Walk(stand_at(s.origin)))
    }

    /// Plats, as a player new to a map tries them: a plat waiting down in sight within
    /// [`LIFT_RANGE`] whose top, when up, stands where nobody has been is walked onto and
    /// ridden (standing still on it, walked on into its field where stopped outside it)
    /// until it is up, or [`LIFT_SECONDS`] have passed, at most [`BUTTON_TRIES`] times per
    /// plat. The drop stage marks the ride (elevator waypoints). Returns what to do while
    /// at it. One trace per plat in range when not riding one.
    pub fn lift(
        &mut self,
        map: &CollisionMap,
        visits: &VisitMap,
        lifts: &[LiftView],
        s: &PlayerState,
        dt: f32,
    ) -> Option<ButtonGo> {
        if let Activity::Lift(index, left) = self.activity {
            self.activity = Activity::Nothing;
            let left = left - dt;
            let l = lifts.iter().find(|l| l.index == index)?;
            let on = s.on_ground == Some(l.id);
            if on && l.up {
                // Up: step off onto the level the plat serves (the longest walk on it that
                // does not go down), not back over the edge it came up by.
                let (travel, end) = (0..8)
                    .map(|k| {
                        let a = (EIGHTH * k as f32).to_radians();
                        walk_run(map, s.origin, Vec3::new(a.cos(), a.sin(), 0.0), FEEL, 1.0)
                    })
                    .max_by(|a, b| a.0.total_cmp(&b.0))?;
                if travel < MIN_WALK {
                    return None;
                }
                self.target = Some(end);
                self.timer = TARGET_SECONDS;
                return Some(ButtonGo::walk_to(end));
            }
            if left <= 0.0 || (!on && !l.waiting) {
                return None;
            }
            self.activity = Activity::Lift(index, left);
            let middle = l.rider();
            // Stopped on a plat still down outside its field (on its edge): the plat starts
            // up only once a player touches the field, and one standing there waited the
            // try out. Walked on into the middle.
            let stopped = s.velocity.truncate().length() < STOPPED_SPEED;
            if on && l.waiting && stopped && !l.in_field(s.origin) {
                return Some(ButtonGo::walk_to(middle));
            }
            if on {
                // Riding: stand still in the middle.
                return Some(ButtonGo::stand(s.yaw));
            }
            return Some(ButtonGo::walk_to(middle));
        }
        let eye = s.origin + Vec3::new(0.0, 0.0, 22.0);
        if self.busy() {
            return None;
        }
        let tries = &self.lift_tries;
        let spent = |l: &LiftView| tried_out(tries, l.index);
        let l = lifts
            .iter()
            .filter(|l| l.waiting && !spent(l))
            .filter(|l| visits.visits(l.high_top + Vec3::new(0.0, 0.0, 24.0)) == 0)
            .map(|l| (l.top.distance(eye), l))
            .filter(|(d, _)| *d <= LIFT_RANGE)
            .filter(|(_, l)| {
                let above = l.top + Vec3::new(0.0, 0.0, 8.0);
                map.trace_ray(eye, above, Contents::SOLID, None).fraction >= 1.0
            })
            .min_by(|a, b| a.0.total_cmp(&b.0))?
            .1;
        plan_try(&mut self.lift_tries, l.index);
        self.activity = Activity::Lift(l.index, LIFT_SECONDS);
        Some(ButtonGo::walk_to(l.rider()))
    }
}
