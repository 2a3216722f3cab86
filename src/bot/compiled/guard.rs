//! The edge guard: a command that would carry the bot off the floors under its route within
//! a few ticks is turned or slowed ([`guard`], [`kept_on`]).

use crate::physics::pmove::STEP_SIZE;
use glam::Vec3;

use super::RUN_SPEED;
use super::cmd::{brake, stand, yaw_to};
use super::ctx::FollowCtx;
use crate::aas::NavMesh;
use crate::physics::pmove::{PlayerState, UserCmd, pmove};

/// Ticks a walking bot's command is run ahead through the physics where the way is narrow.
pub(super) const GUARD_TICKS: u32 = 4;

/// Whether `p` is over an area's own cells, within a step of its floor (or in a swim area):
/// strictly, unlike [`NavMesh::area_at`], which also answers for an origin a cell beside an
/// area (a player against a wall) — one that is beside a ledge is falling off it.
pub(super) fn over_floor(mesh: &NavMesh, p: Vec3) -> bool {
    let Some((ix, iy)) = mesh.frame.cell_of(p.truncate()) else {
        return false;
    };
    mesh.areas_in_cell(ix, iy).iter().any(|&a| {
        let ar = &mesh.areas()[a as usize];
        if ar.is_swim() {
            p.z >= ar.mins.z - STEP_SIZE && p.z <= ar.maxs.z + STEP_SIZE
        } else {
            (p.z - ar.floor_z(p.truncate())).abs() <= STEP_SIZE
        }
    })
}

/// Whether `p` is over the cells of one of `areas` (grounded ones), at or above its floor
/// less a step.
pub(super) fn over_route(mesh: &NavMesh, areas: &[u32], p: Vec3) -> bool {
    let Some((ix, iy)) = mesh.frame.cell_of(p.truncate()) else {
        return false;
    };
    areas.iter().any(|&id| {
        let ar = &mesh.areas()[id as usize];
        !ar.is_swim()
            && (ar.cell_min[0]..=ar.cell_max[0]).contains(&ix)
            && (ar.cell_min[1]..=ar.cell_max[1]).contains(&iy)
            && p.z >= ar.floor_z(p.truncate()) - STEP_SIZE
    })
}

/// Whether area `a` is narrow enough (a ledge strip, two cells or less across) that a bot
/// at running speed can overshoot it.
pub(super) fn narrow(mesh: &NavMesh, a: u32) -> bool {
    let ar = &mesh.areas()[a as usize];
    ar.flags.has(crate::aas::AreaFlags::LEDGE)
        || ar.cell_max[0] - ar.cell_min[0] < 2
        || ar.cell_max[1] - ar.cell_min[1] < 2
}

/// Where the route runs over narrow floors (`areas`, the route's areas from here on):
/// heading along the route as `aim` gives it (the point to head for from an origin) at
/// full speed is run [`GUARD_TICKS`] ahead through the player physics, aimed again every
/// tick, and when the player would leave every floor (momentum carrying it off a ledge
/// where the way turns), the first of half speed, a quarter, an eighth, standing, and
/// braking against the motion that keeps it on one is returned instead (as the first
/// tick's command). `None`: heading for `aim(origin)` as the movement stage does is safe.
pub(super) fn guard(
    ctx: &FollowCtx,
    mesh: &NavMesh,
    s: &PlayerState,
    aim: impl Fn(Vec3) -> Vec3,
    areas: &[u32],
) -> Option<UserCmd> {
    if s.on_ground.is_none() || s.water_level > 0 || !areas.iter().any(|&a| narrow(mesh, a)) {
        return None;
    }
    // A teleporter's area ends the look ahead: its trigger sends the player on before
    // whatever lies past it matters (walking into one is a route's way on).
    let teleports = |p: Vec3| {
        mesh.area_at(p).is_some_and(|a| {
            mesh.areas()[a as usize]
                .flags
                .has(crate::aas::AreaFlags::TELEPORTER)
        })
    };
    let toward = |q: &PlayerState, speed: f32| UserCmd {
        forward_move: speed,
        yaw: yaw_to(q.origin, aim(q.origin)),
        pitch: s.pitch,
        ..Default::default()
    };
    // The first tick's command, then (None) heading on at the same speed.
    let on_floor = |first: &UserCmd, speed: Option<f32>| {
        let mut q = *s;
        for k in 0..GUARD_TICKS {
            let c = match (k, speed) {
                (0, _) | (_, None) => *first,
                (_, Some(v)) => toward(&q, v),
            };
            q = pmove(&q, &c, ctx.map, &ctx.physics, ctx.dt, ctx.me).0;
            if teleports(q.origin) {
                return true;
            }
            // Standing (against a wall, an origin can be a little beyond the cells of
            // the area it stands in), over an area's own cells, or coming down onto one
            // of the route's (running down stairs, a bot is in the air over most steps).
            if q.on_ground.is_none()
                && !over_floor(mesh, q.origin)
                && !over_route(mesh, areas, q.origin)
            {
                return false;
            }
        }
        true
    };
    if on_floor(&toward(s, RUN_SPEED), Some(RUN_SPEED)) {
        return None;
    }
    let brake = brake(s);
    [160.0, 80.0, 40.0, 0.0]
        .into_iter()
        .map(|v| toward(s, v))
        .find(|c| on_floor(c, Some(c.forward_move)))
        .or_else(|| on_floor(&brake, None).then_some(brake))
        // Where even standing reads as off every floor (an origin against a wall, past
        // its area's cells, a step's edge), a bot that has nearly stopped has nothing
        // to slide off: it steers on as it would.
        .or(moving(s).then_some(brake))
}

/// Speed (u/s) under which [`guard`] does not brake a bot it finds off every floor.
pub(super) const GUARD_SLOW: f32 = 40.0;

/// Whether a bot moves at [`GUARD_SLOW`] or more across.
pub(super) fn moving(s: &PlayerState) -> bool {
    s.velocity.truncate().length() >= GUARD_SLOW
}

/// `c`, or braking (else standing) where holding `c` for [`GUARD_TICKS`] would carry a
/// bot on the ground off every floor: slowing onto a run's start on a ledge, a bot that
/// comes in fast from the side would slide over the edge. Coming down onto one of the
/// route's floors (`areas`, those it runs over from here) is staying on: a walk off a
/// ledge onto the floor below is in the air a step's height above it and more.
pub(super) fn kept_on(
    ctx: &FollowCtx,
    mesh: &NavMesh,
    s: &PlayerState,
    c: UserCmd,
    areas: &[u32],
) -> UserCmd {
    if s.on_ground.is_none() || s.water_level > 0 {
        return c;
    }
    let stays = |c: &UserCmd| {
        let mut q = *s;
        (0..GUARD_TICKS).all(|_| {
            q = pmove(&q, c, ctx.map, &ctx.physics, ctx.dt, ctx.me).0;
            q.on_ground.is_some() || over_floor(mesh, q.origin) || over_route(mesh, areas, q.origin)
        })
    };
    if stays(&c) {
        return c;
    }
    let brake = brake(s);
    if stays(&brake) { brake } else { stand(s) }
}

/// How far past a walk's end a bot heads (more than the movement stage's arrival radius).
pub(super) const PAST: f32 = 20.0;
