//! Detours: when a door the route needs is shut, the bot goes to fire what opens it
//! ([`super::openers`]) and comes back to its route.

use glam::Vec3;

use crate::aas::route::Travel;
use crate::map::EntId;
use crate::physics::pmove::{PLAYER_MINS, PlayerState, UserCmd, pmove};

use super::cmd::{stand, yaw_to};
use super::ctx::{FollowCtx, door_coming, door_shut};
use super::openers::{Opener, SHOT_HEIGHT};
use super::query::NavQuery;
use super::state::{AreaNav, Detour, Step};
use crate::aas::run::{NEAR_LEVEL, run_in};

/// The route follower a detour routes by to the opener (the follower itself: a detour is
/// part of following a route, handed it so that this file need not name it).
pub(super) type Follow =
    fn(&FollowCtx, &mut NavQuery<'_>, &mut AreaNav, &PlayerState, Vec3, Travel) -> Step;

/// Seconds beyond twice the route time to an opener after which going to fire a door
/// with it is given up.
pub(super) const DETOUR_SLACK: f32 = 5.0;

/// Distance (units across) from the place a trigger is shot from within which a bot that
/// does not see the trigger walks onto the place itself (the movement stage's arrival
/// radius, 16, and a little).
pub(super) const ONTO_PLACE: f32 = 20.0;

/// Speed (units/s) a bot walks onto the place a trigger is shot from: about 5 units a tick,
/// so that it stops near where it first sees the trigger.
pub(super) const ONTO_PLACE_SPEED: f32 = 100.0;

/// Ticks a swim out of the water keeps on at its last command when its commands end with
/// the bot still in the water.
pub(super) const SWIM_OUT_EXTRA: u32 = 6;

/// Distance (units across) from a button's front within which a bot runs at its face.
pub(super) const PRESS_RANGE: f32 = 20.0;

/// One tick of going to fire the shut door `d` (mover index, opener) with its opener: to a
/// button's front and then into its face; into a trigger; shooting a button or trigger with
/// health once the gun sees it, going toward it till then. `None` once the door is fired
/// (it moves or stands open) or the opener cannot be got to.
pub(super) fn detour(
    ctx: &FollowCtx,
    nav: &mut NavQuery<'_>,
    st: &mut AreaNav,
    s: &PlayerState,
    Detour {
        door, opener: k, ..
    }: Detour,
    travel: Travel,
    again: Follow,
) -> Option<Step> {
    if !door_shut(ctx, door as usize) {
        return None;
    }
    let opener = *nav
        .doors
        .needed
        .iter()
        .find(|d| d.mover == door as usize)?
        .openers
        .get(k as usize)?;
    match opener {
        Opener::Button { front, centre, .. } => {
            if (front - s.origin).truncate().length() <= PRESS_RANGE
                && (front.z - s.origin.z).abs() <= NEAR_LEVEL
            {
                return Some(Step::Cmd(run_in(yaw_to(s.origin, centre), s.pitch)));
            }
            routed(again(ctx, nav, st, s, front, travel))
        }
        Opener::Touch { at, .. } => routed(again(ctx, nav, st, s, at, travel)),
        Opener::Plate { at, jump, .. } => {
            // On the plate, or under the ceiling button: stand (jumping into the button,
            // once on the ground again).
            if (at - s.origin).truncate().length() <= PRESS_RANGE
                && (at.z - s.origin.z).abs() <= NEAR_LEVEL
            {
                let mut c = stand(s);
                c.jump = jump && s.on_ground.is_some();
                return Some(Step::Cmd(c));
            }
            routed(again(ctx, nav, st, s, at, travel))
        }
        Opener::Shot {
            index,
            centre,
            place,
        } => {
            // The shot leaves after this tick's move, from where standing brings the bot (a
            // bot come onto a ledge at a run slides on before it fires, and a trigger aimed
            // at from the ledge's edge may then lie behind the ledge: a miss, and half a
            // second to the next shot).
            let stand_cmd = stand(s);
            let next = pmove(s, &stand_cmd, ctx.map, &ctx.physics, ctx.dt, ctx.me).0;
            let gun = next.origin + Vec3::Z * (SHOT_HEIGHT + PLAYER_MINS.z);
            let id = ctx.mover_ids.get(index).map(|&i| EntId(i));
            if id.is_some()
                && ctx
                    .map
                    .trace_ray(gun, centre, crate::map::Contents::SOLID, None)
                    .ent
                    == id
            {
                let to = centre - gun;
                let yaw = to.y.atan2(to.x).to_degrees();
                let pitch = -(to.z.atan2(to.truncate().length())).to_degrees();
                return Some(Step::Shoot((yaw, pitch), stand_cmd));
            }
            // Near the place but not seeing the trigger from here: onto the place itself at
            // a walk (the movement stage takes a point within its arrival radius as
            // reached; a bot a few units off the place stood there unseeing until the
            // detour was given up).
            let off = (place - s.origin).truncate();
            if off.length() <= ONTO_PLACE && (place.z - s.origin.z).abs() <= NEAR_LEVEL {
                if off.length() < 1.0 {
                    return Some(Step::Cmd(stand_cmd));
                }
                return Some(Step::Cmd(UserCmd {
                    yaw: yaw_to(s.origin, place),
                    pitch: s.pitch,
                    forward_move: ONTO_PLACE_SPEED,
                    ..Default::default()
                }));
            }
            routed(again(ctx, nav, st, s, place, travel))
        }
    }
}

/// Off to fire the shut door that blocked reachability `r` needs on the way to `goal`,
/// with the opener [`NavQuery::choose_opener`] chooses: the first tick of the detour,
/// or `None` (the door is not shut, nothing that fires it can be got to).
#[expect(
    clippy::too_many_arguments,
    reason = "the follower's state, the route's goal and the follower to route by"
)]
pub(super) fn start_detour(
    ctx: &FollowCtx,
    nav: &mut NavQuery<'_>,
    st: &mut AreaNav,
    s: &PlayerState,
    r: u32,
    goal: Vec3,
    travel: Travel,
    again: Follow,
) -> Option<Step> {
    // Whether the door is still to be fired first: choosing its opener asks for routes.
    if !door_shut(ctx, nav.doors.openers_for(r)?.0) {
        return None;
    }
    let (door, k, t, r) = match nav.choose_opener(r, s.origin, goal, travel) {
        Some((door, k, t)) => (door, k, t, r),
        None => nav.chained_opener(s.origin, r, travel, |d| door_shut(ctx, d))?,
    };
    begin_detour(ctx, nav, st, s, (door, k, t, r), travel, again)
}

/// Off to fire the shut door blocked reachability `r` needs with an opener whose way
/// waits on a door coming into place now ([`NavQuery::opener_past_coming`]): the first
/// tick of the detour, or `None`.
pub(super) fn detour_past_coming(
    ctx: &FollowCtx,
    nav: &mut NavQuery<'_>,
    st: &mut AreaNav,
    s: &PlayerState,
    r: u32,
    travel: Travel,
    again: Follow,
) -> Option<Step> {
    if !door_shut(ctx, nav.doors.openers_for(r)?.0) {
        return None;
    }
    let (door, k, t) = nav.opener_past_coming(s.origin, r, travel, |d| door_coming(ctx, d))?;
    begin_detour(ctx, nav, st, s, (door, k, t, r), travel, again)
}

/// The first tick of a detour to door `door`'s opener `k` (`t` seconds away) for
/// reachability `r`, or `None` (the opener cannot be got to).
pub(super) fn begin_detour(
    ctx: &FollowCtx,
    nav: &mut NavQuery<'_>,
    st: &mut AreaNav,
    s: &PlayerState,
    (door, k, t, r): (usize, usize, f32, u32),
    travel: Travel,
    again: Follow,
) -> Option<Step> {
    let d = Detour {
        door: door as u32,
        opener: k as u32,
        reach: r,
        left: ((2.0 * t + DETOUR_SLACK) / ctx.dt).ceil() as u32,
    };
    st.detour = Some(d);
    let step = detour(ctx, nav, st, s, d, travel, again);
    if step.is_none() {
        st.detour = None;
    }
    step
}

/// A step on the way somewhere, `None` where there is no way.
pub(super) fn routed(step: Step) -> Option<Step> {
    (step != Step::NoRoute).then_some(step)
}
