//! Onto a run's start: slowing a bot to a stand on the start of a run it will play as
//! recorded ([`slowing`], [`onto_start`]), braking where it would overshoot, and the checks
//! that it has settled there.

use glam::{Vec2, Vec3};

use crate::aas::{NavMesh, ReachKind};
use crate::map::EntId;
use crate::physics::pmove::{PLAYER_MAXS, PLAYER_MINS, PlayerState, UserCmd, pmove};

use super::cmd::{brake, stand, yaw_to};
use super::ctx::FollowCtx;
use super::guard::{kept_on, over_floor};
use super::{APPROACH_SECONDS, ARRIVE, RUN_SPEED};
use crate::aas::run::{STEP, run_in};

/// How near the start (units across) and how slow (u/s) a bot must be to play the commands.
pub(super) const READY_DISTANCE: f32 = 6.0;

pub(super) const READY_SPEED: f32 = 40.0;

/// Slowing onto a start, the speed wished toward it per unit of distance left (1/s), chosen
/// on the compiled item tours (docs/tuning.md).
pub(super) const SETTLE_RATE: f32 = 6.0;

/// Where a bot backs off to before running in to jump `reach`: [`RUN_IN_BACK`] units behind
/// its start along its heading, over a floor at the start's level and clear of walls;
/// `None` where there is no such room.
pub(super) fn behind_start(
    ctx: &FollowCtx,
    mesh: &NavMesh,
    reach: &crate::aas::Reach,
) -> Option<Vec3> {
    let heading = Vec2::from_angle(reach.commands.first()?.cmd.yaw.to_radians());
    let p = reach.start - (heading * RUN_IN_BACK).extend(0.0);
    let clear = ctx
        .map
        .trace(
            reach.start,
            p,
            PLAYER_MINS,
            PLAYER_MAXS,
            crate::map::Contents::MASK_PLAYER_NO_BODIES,
            ctx.me,
        )
        .fraction
        >= 1.0;
    let level = mesh.area_at(p).is_some_and(|a| {
        (mesh.areas()[a as usize].floor_z(p.truncate()) - reach.start.z).abs() <= 2.0 + STEP
    });
    (clear && level && over_floor(mesh, p)).then_some(p)
}

/// Within this distance (units) of a jump's start, a bot coming at it across its way (its
/// motion's cosine with the jump's heading under [`ROUND_ACROSS`]) goes round to back off
/// and run in at once where the stand that slowing onto the start would bring it to does
/// not fit the jump ([`settled_onto`]). Farther out, it goes round before a fit on the run
/// has been tried from nearer (docs/tuning.md).
pub(super) const ROUND_NEAR: f32 = 24.0;

/// See [`ROUND_NEAR`]: 60 degrees or more off the jump's heading.
pub(super) const ROUND_ACROSS: f32 = 0.5;

/// The command that slows a bot in state `s` to a stand on `start`: toward it, the wished
/// speed falls with the distance left (about what ground friction takes off; wishing
/// toward the start brakes hard after an overshoot); across the way to it, the wish is
/// against the speed the bot has, so motion sideways from the way it came is braked, not
/// circled round the start while friction takes it off. Kept from sliding off a ledge.
pub(super) fn slowing(ctx: &FollowCtx, mesh: &NavMesh, s: &PlayerState, start: Vec3) -> UserCmd {
    let to_start = (start - s.origin).truncate();
    let dir = to_start.normalize_or_zero();
    let v = s.velocity.truncate();
    let side = v - dir * v.dot(dir);
    let wish =
        (dir * (to_start.length() * SETTLE_RATE).min(RUN_SPEED) - side).clamp_length_max(RUN_SPEED);
    let slow = UserCmd {
        forward_move: wish.length(),
        yaw: wish.y.atan2(wish.x).to_degrees(),
        pitch: s.pitch,
        ..Default::default()
    };
    kept_on(ctx, mesh, s, slow, &[])
}

/// Braking ahead of a start to stop on that lies below the bot, down stairs or a slope (a
/// runner is in the air most of the way down, where it cannot brake): where running on one
/// more tick and braking after would stop it past the start ([`overshoots`]), it brakes
/// now. Not where the way there turns (the line to the start is no guide to where the bot
/// goes: down a spiral stair), and not for a fall off a ledge that leads the way the bot
/// comes (going on past its start falls as the run would; `heading`: the fall's yaw).
/// `None`: no need, or the start is not below.
pub(super) fn stop_below(
    ctx: &FollowCtx,
    mesh: &NavMesh,
    s: &PlayerState,
    start: Vec3,
    heading: Option<f32>,
    (areas, walks): (&[u32], &[u32]),
) -> Option<UserCmd> {
    if s.origin.z - start.z <= DOWNHILL {
        return None;
    }
    let to_start = (start - s.origin).truncate();
    let d = to_start.length();
    let dir = to_start.normalize_or_zero();
    if s.velocity.truncate().dot(dir) <= READY_SPEED || d > BRAKE_RANGE {
        return None;
    }
    if heading.is_some_and(|y| Vec2::from_angle(y.to_radians()).dot(dir) > 0.7) {
        return None;
    }
    // The walks ahead in a straight line (their corners within 15 % of the straight way).
    if !walks.is_empty() {
        let mut last = s.origin;
        let path: f32 = crate::aas::route::corridor(mesh, s.origin, walks, start)
            .iter()
            .map(|c| {
                let l = (*c - last).truncate().length();
                last = *c;
                l
            })
            .sum();
        if path > 1.15 * d {
            return None;
        }
    }
    overshoots(ctx, s, start).then(|| kept_on(ctx, mesh, s, brake(s), areas))
}

/// Height (units) a start must lie below a bot for [`stop_below`] to brake for it.
pub(super) const DOWNHILL: f32 = 4.0;

/// How far off (units across) [`stop_below`] looks at a start.
pub(super) const BRAKE_RANGE: f32 = 320.0;

/// The yaw a walk off a ledge (reachability `r`) heads off at; `None` for other kinds.
pub(super) fn fall_heading(mesh: &NavMesh, r: Option<u32>) -> Option<f32> {
    let reach = &mesh.reaches()[r? as usize];
    (reach.kind == ReachKind::WalkOffLedge).then(|| reach.commands.first().map(|c| c.cmd.yaw))?
}

/// Whether a bot in state `s` that runs on toward `start` one tick more and then brakes
/// (on the floor; in the air it can only fall) comes to a stop more than [`ARRIVE`] past it.
pub(super) fn overshoots(ctx: &FollowCtx, s: &PlayerState, start: Vec3) -> bool {
    let dir = (start - s.origin).truncate().normalize_or_zero();
    let step = |p: &PlayerState, c: &UserCmd| pmove(p, c, ctx.map, &ctx.physics, ctx.dt, ctx.me).0;
    let mut p = step(s, &run_in(yaw_to(s.origin, start), s.pitch));
    for _ in 0..40 {
        if p.on_ground.is_some() && p.velocity.truncate().length() < READY_SPEED {
            break;
        }
        let c = if p.on_ground.is_some() {
            brake(&p)
        } else {
            stand(&p)
        };
        p = step(&p, &c);
    }
    (p.origin - start).truncate().dot(dir) > ARRIVE
}

/// Where [`slowing`] brings a bot in state `s` to a stand on `start` (within
/// [`READY_DISTANCE`], under [`READY_SPEED`]), run through the player physics; `None`
/// where it is not there within [`APPROACH_SECONDS`].
pub(super) fn settled_onto(
    ctx: &FollowCtx,
    mesh: &NavMesh,
    s: &PlayerState,
    start: Vec3,
) -> Option<PlayerState> {
    let mut p = *s;
    for _ in 0..(APPROACH_SECONDS / ctx.dt).ceil() as u32 {
        if (start - p.origin).truncate().length() <= READY_DISTANCE
            && p.velocity.truncate().length() <= READY_SPEED
        {
            return Some(p);
        }
        p = pmove(
            &p,
            &slowing(ctx, mesh, &p, start),
            ctx.map,
            &ctx.physics,
            ctx.dt,
            ctx.me,
        )
        .0;
    }
    None
}

/// How far (units) behind a jump's start a bot backs off to run in.
pub(super) const RUN_IN_BACK: f32 = 48.0;

/// Whether the movement stage steers reachability `r` (the others play their recorded
/// commands): walks, steps up, and swims that do not climb out of the water (getting out
/// takes the water jump the recorded run makes, which steering toward a point does not).
pub(super) fn steered(mesh: &NavMesh, r: &crate::aas::Reach) -> bool {
    match r.kind {
        ReachKind::Walk | ReachKind::StepUp => true,
        ReachKind::Swim => {
            !mesh.areas()[r.from as usize].is_swim() || mesh.areas()[r.to as usize].is_swim()
        }
        _ => false,
    }
}

/// Waiting at reachability `reach`'s start for a mover: standing, or, on a ride's carrier
/// (an elevator reachability; standing on a mover, not the world) and off the start,
/// stepping back over it. A lift that set off under a bot still coming in carries it off
/// the start, and a rider at the edge can jam it against the shaft: a blocked door goes
/// back, and a touch door touched again sets off again, up and down for good. Other kinds
/// wait where they are: a start at the top of a plat that is going down is not stepped onto
/// from the plat (it carries the bot down).
pub(super) fn onto_start(s: &PlayerState, reach: &crate::aas::Reach) -> UserCmd {
    let start = reach.start;
    let flat = (start - s.origin).truncate().length();
    if reach.kind != ReachKind::Elevator
        || s.on_ground.is_none_or(|e| e == EntId::WORLD)
        || flat <= READY_DISTANCE
    {
        return stand(s);
    }
    UserCmd {
        forward_move: (flat * SETTLE_RATE).min(RUN_SPEED),
        yaw: yaw_to(s.origin, start),
        pitch: s.pitch,
        ..Default::default()
    }
}
