//! Following one reachability by its kind: walks and steps up steered along the route's
//! floors ([`walk_across`]) and swims steered across a border ([`swim_across`]); the runs
//! the compiler recorded are played by [`super::play`]. [`super::follow`] chooses among
//! them with one `match` on the kind.

use glam::Vec3;

use crate::aas::route::{Travel, border, nearest_on};
use crate::aas::{NavMesh, ReachKind};
use crate::physics::pmove::{PlayerState, UserCmd};

use super::cmd::yaw_to;
use super::ctx::FollowCtx;
use super::detour::Follow;
use super::guard::{guard, kept_on, moving};
use super::query::NavQuery;
use super::start::{READY_SPEED, fall_heading, stop_below};
use super::state::{AreaNav, Step};
use super::steer::{
    Ahead, Aim, head_for, head_to, kept, lookahead, past, straight_over, taken_from_outside,
};
use super::{ARRIVE, RUN_SPEED};
use crate::aas::run::{NEAR_LEVEL, PAST_START, fit, run_in};
use crate::bot::movement::{MoveRequest, MoveTarget};

/// The route's reachability after `reach` where it is a fall off a ledge that needs no
/// mover, starts within [`PAST_START`] of the bot on its level, and lands as [`crate::aas::run::fit`] asks
/// from the bot's state as it is: (that fall, its turn).
pub(super) fn fall_from_here(
    ctx: &FollowCtx,
    nav: &mut NavQuery<'_>,
    st: &AreaNav,
    reach: &crate::aas::Reach,
    s: &PlayerState,
    goal_area: u32,
    travel: Travel,
) -> Option<(u32, f32)> {
    if reach.to == goal_area {
        return None;
    }
    let hc = if st.through_doors {
        nav.goal_through_doors(goal_area, travel)
    } else {
        nav.goal(goal_area, travel)
    };
    let avoid = st.avoid;
    let (_, next) = nav.first_step(&hc, reach.to, reach.end, |r| {
        avoid.iter().any(|x| x.is_some_and(|x| x.0 == r))
    })?;
    let mesh = nav.mesh;
    let fall = &mesh.reaches()[next as usize];
    let off = fall.start - s.origin;
    if fall.kind != ReachKind::WalkOffLedge
        || !fall.needs.is_empty()
        || off.truncate().length() > PAST_START
        || off.z.abs() > NEAR_LEVEL
    {
        return None;
    }
    fit(&ctx.world(), mesh, fall, s).map(|turn| (next, turn))
}

/// How far inside the depth two swim areas share a swimmer crosses their border (units).
const SWIM_INSIDE: f32 = 8.0;

/// Where a swimmer at `origin` crosses swim reachability `reach` (start, end): between two
/// swim areas side by side, at the point of their shared border nearest it, at its depth
/// kept within both areas' spans (a little inside an opening's edge: there the box rubs
/// on the opening's ceiling or sill and slides along it), the run shifted there and level (the reachability was
/// measured at one place on the border; crossing anywhere along it is as good, and a
/// swimmer that drifted into a narrow column beside the one it followed was sent back along
/// it to that place). Other reachabilities as recorded.
pub(super) fn swim_crossing(
    mesh: &NavMesh,
    reach: &crate::aas::Reach,
    origin: Vec3,
) -> (Vec3, Vec3) {
    let (a, b) = (
        &mesh.areas()[reach.from as usize],
        &mesh.areas()[reach.to as usize],
    );
    if reach.kind != ReachKind::Swim || !a.is_swim() || !b.is_swim() {
        return (reach.start, reach.end);
    }
    let (l, r) = border(mesh, reach);
    let lr = r - l;
    let (lo, hi) = (a.mins.z.max(b.mins.z), a.maxs.z.min(b.maxs.z));
    let z = if lo <= hi {
        // Where one area's span ends inside the other's, that end is the edge of an
        // opening (a tunnel's ceiling, a sill): kept off it. A surface or floor both share
        // bounds nothing.
        let m = SWIM_INSIDE.min((hi - lo) * 0.5);
        let edge = |x: f32, y: f32| if (x - y).abs() > 1.0 { m } else { 0.0 };
        origin
            .z
            .clamp(lo + edge(a.mins.z, b.mins.z), hi - edge(a.maxs.z, b.maxs.z))
    } else {
        reach.start.z
    };
    let on = nearest_on(l, r, origin.truncate()).extend(z);
    // The recorded start's offset across the border (which side it lies on) is kept.
    let across = reach.start.truncate() - (l + lr * 0.5);
    let along = lr.normalize_or_zero();
    let start = on + (across - along * across.dot(along)).extend(0.0);
    let shift = start - reach.start;
    // Across at the swimmer's own depth: the recorded end's rise over its start, carried
    // along a chain of crossings, lifted a swimmer above the areas' tops, where it was
    // taken for being back in the area behind it (and turned back for a crossing it had
    // made).
    let end = (reach.end + shift).truncate().extend(z);
    (start, end)
}

/// Whether `p` is within `r` of the segment from `a` to `b`.
pub(super) fn near_run(p: Vec3, a: Vec3, b: Vec3, r: f32) -> bool {
    let ab = b - a;
    let t = ((p - a).dot(ab) / ab.length_squared().max(1e-6)).clamp(0.0, 1.0);
    (a + ab * t).distance(p) <= r
}

/// A swimmer's way to `p`: to the point, or, where `p` is above or below it within the
/// movement stage's arrival radius across (which takes such a point as arrived at, and the
/// swimmer hung there on the bottom), in its direction.
pub(super) fn swim_to(s: &PlayerState, p: Vec3) -> Step {
    let d = p - s.origin;
    Step::Go(MoveRequest {
        target: if d.truncate().length() <= ARRIVE {
            MoveTarget::Direction(d)
        } else {
            MoveTarget::Point(p)
        },
        speed: RUN_SPEED,
        known: false,
        wade: false,
        to_target: true,
    })
}

/// A walk or step up (or a swim into the water) steered by the movement stage: along the
/// route's floors ahead, to the start of a run to play where one comes, guarded at edges.
pub(super) fn walk_across(
    ctx: &FollowCtx,
    nav: &mut NavQuery<'_>,
    st: &mut AreaNav,
    s: &PlayerState,
    leg: &Leg,
    again: Follow,
) -> Step {
    let Leg {
        mesh,
        goal,
        goal_area,
        travel,
        area,
        r,
        reach,
        flat,
        ..
    } = *leg;
    let hc = if st.through_doors {
        nav.goal_through_doors(goal_area, travel)
    } else {
        nav.goal(goal_area, travel)
    };
    let ahead = lookahead(nav, &hc, st, area, r, s.origin);
    // Near the start of a run to play, on its level and in a straight line
    // over the route's floors: that run is what is followed now (the bot
    // slows onto its start), wherever the border of its area lies.
    if let Some(Ahead {
        point,
        stop: true,
        next: Some(next),
        areas,
        ..
    }) = &ahead
        && straight_over(mesh, areas, s.origin, *point)
        && kept(mesh, st, *next, area, s.origin)
        && !taken_from_outside(ctx, nav, *next, area)
    {
        st.reach = Some(*next);
        st.held = 0.0;
        st.approach = 0.0;
        return again(ctx, nav, st, s, goal, travel);
    }
    // Down stairs toward a start to stop on, fast enough to fly past it: slowed while still
    // on the floor (a teleporter at the foot of stairs was run past and come back to).
    if let Some(Ahead {
        point,
        stop: true,
        areas,
        next,
        walks,
    }) = &ahead
        && s.on_ground.is_some()
        && let Some(c) = stop_below(
            ctx,
            mesh,
            s,
            *point,
            fall_heading(mesh, *next),
            (areas, walks),
        )
    {
        return Step::Cmd(c);
    }
    let aim = |o: Vec3| match &ahead {
        Some(a) => head_for(mesh, o, a, (goal, goal_area)),
        None if flat <= ARRIVE => (past(reach.end, reach.start), Aim::Go),
        None => (reach.start, Aim::Go),
    };
    let areas = match &ahead {
        Some(a) => &a.areas[..],
        None => &[area, reach.to][..],
    };
    match guard(ctx, mesh, s, |o| aim(o).0, areas) {
        Some(c) if c.forward_move == 0.0 && !moving(s) => {
            // Standing is all the line allows, and it is not moving: along the walk as it
            // was measured, where that keeps to the floor. A step up onto a ramp may be a
            // step high only at one end: the line's corner and the point round it both lay
            // where the riser is higher, and a bot stood before it for good.
            let yaw = yaw_to(s.origin, past(reach.end, reach.start));
            let along = [RUN_SPEED, RUN_SPEED / 2.0, RUN_SPEED / 4.0, RUN_SPEED / 8.0]
                .into_iter()
                .map(|v| UserCmd {
                    forward_move: v,
                    yaw,
                    pitch: s.pitch,
                    ..Default::default()
                })
                .find(|&w| kept_on(ctx, mesh, s, w, areas) == w);
            Step::Cmd(along.unwrap_or(c))
        }
        Some(c) => Step::Cmd(c),
        None => {
            let (p, stop) = aim(s.origin);
            // Nearly at a stand on the floor short of where it heads: the movement stage
            // stood it before a wall it reads across the way (a corner the line clips, a
            // secret door standing open), and would again; run straight at the point, the
            // physics slides it along.
            if s.on_ground.is_some()
                && s.velocity.truncate().length() < READY_SPEED
                && (p - s.origin).truncate().length() > ARRIVE
            {
                let c = run_in(yaw_to(s.origin, p), s.pitch);
                return Step::Cmd(kept_on(ctx, mesh, s, c, areas));
            }
            head_to(ctx, mesh, s, p, stop, areas)
        }
    }
}

/// A swim steered across the border between two areas.
pub(super) fn swim_across(s: &PlayerState, leg: &Leg) -> Step {
    let Leg { mesh, reach, .. } = *leg;
    let (start, end) = swim_crossing(mesh, reach, s.origin);
    if near_run(s.origin, start, end, ARRIVE) {
        // Across the border, to a little past the end: the end itself would be
        // "arrived at" short of the border. Near any point of the way from the
        // start to the end, not only the start: a swimmer on its way over turned
        // back for the start once more than the radius past it, to and fro. (A
        // swimmer carried past the end is still within the radius of the point
        // past it: swum toward, not arrived at.)
        swim_to(s, past(end, start))
    } else {
        swim_to(s, start)
    }
}

/// The reachability a compiled bot follows this tick, once it is chosen, with what the
/// kind's way of following reads.
#[derive(Clone, Copy)]
pub(super) struct Leg<'a> {
    pub(super) mesh: &'a NavMesh,
    pub(super) goal: Vec3,
    pub(super) goal_area: u32,
    pub(super) travel: Travel,
    /// The area the bot stands (or swims) in.
    pub(super) area: u32,
    /// The reachability and its record.
    pub(super) r: u32,
    pub(super) reach: &'a crate::aas::Reach,
    pub(super) swimming: bool,
    /// From the bot to the reachability's start, and its length across.
    pub(super) to_start: Vec3,
    pub(super) flat: f32,
}

/// A move request at full speed toward `p`.
pub(super) fn go(p: Vec3) -> Step {
    Step::Go(MoveRequest {
        target: MoveTarget::Point(p),
        speed: RUN_SPEED,
        known: false,
        wade: false,
        to_target: true,
    })
}
