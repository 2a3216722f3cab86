//! Buttons: going to press one that fires something ([`super::Explorer::button`]), routed
//! round over the team's graph where walking straight there is blocked.

use glam::Vec3;

use crate::map::{CollisionMap, Contents, EntId};
use crate::physics::pmove::{PLAYER_MAXS, PlayerState};

use super::planned::plan_try;
use super::views::{BUTTON_FRONT, ButtonView, DOOR_LEVEL};
use super::{
    Activity, BUTTON_RANGE, BUTTON_SECONDS, ButtonGo, Detour, Explorer, RUN_SPEED, tried_out,
};
use crate::bot::movement::MoveStatus;

/// Within this distance (flat and in height) of the point of a detour, a bot walks on
/// straight again ([`Explorer::detour`]).
pub(super) const DETOUR_NEAR: f32 = 48.0;

/// Units a second a detour is given (below running speed: the way round is longer than the
/// straight line).
pub(super) const DETOUR_SPEED: f32 = 160.0;

/// Within this distance (flat, origin to the button's centre) an explorer runs straight
/// into the button.
pub const PRESS_RANGE: f32 = 96.0;

impl Explorer {
    /// A try's way there: walked straight until the movement stage is blocked (a slime
    /// pool between, a wall with the way round out of sight), then routed over the team's
    /// graph to `point()` (where the try walks on from) until the bot stands by it.
    /// `routed`: the goal the routing stage last worked on, and whether it found no route.
    /// A detour adds the time to go its way at [`DETOUR_SPEED`] to the try's `left`.
    pub(super) fn detour_step(
        &mut self,
        point: impl FnOnce() -> Option<Vec3>,
        s: &PlayerState,
        (mstatus, routed): (&MoveStatus, (Option<Vec3>, bool)),
        left: &mut f32,
    ) -> Detour {
        let near = |q: Vec3| {
            let d = q - s.origin;
            d.truncate().length() <= DETOUR_NEAR && d.z.abs() <= DETOUR_NEAR
        };
        if let Some(q) = self.detour.take() {
            if routed.0 == Some(q) && routed.1 {
                return Detour::GiveUp;
            }
            if near(q) {
                return Detour::Walk;
            }
            self.detour = Some(q);
            return Detour::Route(q);
        }
        if matches!(mstatus, MoveStatus::Blocked(_))
            && let Some(q) = point()
            && !near(q)
        {
            self.detour = Some(q);
            *left = left.max(BUTTON_SECONDS) + (q - s.origin).length() / DETOUR_SPEED;
            return Detour::Route(q);
        }
        Detour::Walk
    }

    /// Buttons, as a player new to a map tries them: a ready button in sight within
    /// [`BUTTON_RANGE`] that fires something is walked into until it is pressed (by anyone)
    /// or [`BUTTON_SECONDS`] have passed, at most [`BUTTON_TRIES`] times per button; where
    /// walking straight there is blocked (a button across a slime pool), the bot is routed
    /// round to the floor in front of it ([`Explorer::detour_step`]), and so it is from the
    /// start where that floor is on another level than the bot's ([`DOOR_LEVEL`]). Doors
    /// that only a button opens (directly or through the triggers it fires) lead to much of
    /// the single-player maps. Returns the request to replace the explorer's own while
    /// going to one. One trace per ready button in range when not going to one.
    #[allow(
        clippy::too_many_arguments,
        reason = "each is a separate read-only view the choice needs"
    )]
    pub fn button(
        &mut self,
        map: &CollisionMap,
        buttons: &[ButtonView],
        s: &PlayerState,
        (mstatus, routed): (&MoveStatus, (Option<Vec3>, bool)),
        me: Option<EntId>,
        dt: f32,
    ) -> Option<ButtonGo> {
        let toward = |b: &ButtonView| {
            let flat = (b.centre - s.origin).truncate();
            if b.shot {
                return ButtonGo::walk_to(
                    b.front(s.origin.z)
                        .unwrap_or(Vec3::new(b.centre.x, b.centre.y, s.origin.z)),
                );
            }
            // A button in a wall is pressed from in front of its face: from the side or
            // from behind (a doorway beside it, the next room), running at its centre runs
            // into the wall around it. In front is less than a half width plus
            // BUTTON_FRONT out from the face's plane, and within the face's width.
            if let Some(front) = b.front(s.origin.z) {
                let along = (s.origin - b.centre).truncate().dot(b.push.truncate());
                let off = (s.origin - front).truncate();
                let ahead = along < -(b.depth + PLAYER_MAXS.x)
                    && off.length() <= BUTTON_FRONT + PLAYER_MAXS.x;
                if !ahead {
                    return ButtonGo::walk_to(front);
                }
            }
            if flat.length() <= PRESS_RANGE {
                ButtonGo::Press(crate::physics::predict::run_toward(
                    flat.extend(0.0),
                    RUN_SPEED,
                    false,
                ))
            } else {
                ButtonGo::walk_to(Vec3::new(b.centre.x, b.centre.y, s.origin.z))
            }
        };
        if let Activity::Button(index, left) = self.activity {
            self.activity = Activity::Nothing;
            let mut left = left - dt;
            let Some(b) = buttons.iter().find(|b| b.index == index && b.ready) else {
                self.detour = None;
                return None;
            };
            if left <= 0.0 {
                self.detour = None;
                return None;
            }
            let point = || b.stand_point(map, me);
            let go = match self.detour_step(point, s, (mstatus, routed), &mut left) {
                Detour::GiveUp => return None,
                Detour::Route(q) => ButtonGo::Route(q),
                Detour::Walk => toward(b),
            };
            self.activity = Activity::Button(index, left);
            return Some(go);
        }
        let eye = s.origin + Vec3::new(0.0, 0.0, 22.0);
        if self.busy() {
            return None;
        }
        let tries = &self.button_tries;
        let spent = |b: &ButtonView| tried_out(tries, b.index);
        let b = buttons
            .iter()
            .filter(|b| b.ready && !spent(b))
            .map(|b| (b.centre.distance(eye), b))
            .filter(|(d, _)| *d <= BUTTON_RANGE)
            .filter(|(_, b)| map.trace_ray(eye, b.centre, Contents::SOLID, None).ent == Some(b.id))
            .min_by(|a, b| a.0.total_cmp(&b.0))?
            .1;
        plan_try(&mut self.button_tries, b.index);
        // A button pressed from a floor on another level than the bot's (high on the wall
        // over a hall, pressed from a ledge) is routed to over the team's graph from the
        // start: walked at, the bot stood below it for the whole try, and went back to it
        // from wherever it had got to.
        if !b.shot
            && let Some(q) = b.stand_point(map, me)
            && (q.z - s.origin.z).abs() > DOOR_LEVEL
        {
            self.detour = Some(q);
            self.activity = Activity::Button(
                b.index,
                BUTTON_SECONDS + (q - s.origin).length() / DETOUR_SPEED,
            );
            return Some(ButtonGo::Route(q));
        }
        self.activity = Activity::Button(b.index, BUTTON_SECONDS);
        Some(toward(b))
    }
}
