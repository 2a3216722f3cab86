//! A reachability's run taken on the run: a jump, fall, water jump or teleport the compiler
//! recorded from a stand, taken instead from a moving player's state near its start, with
//! the run-in, a turn of its commands and a cut run-up found by running the player physics
//! ([`fit_on_the_run`]). The compiled bots' follower plays what it finds; a route's
//! prediction asks the same of each run on its way ([`run_on_the_run`], [`on_the_run`]),
//! so both time a run the same way. Beside the replay of a reachability
//! ([`super::reach::run_reach`]).
//!
//! Entry points: [`RunWorld`], [`fit_on_the_run`], [`run_on_the_run`], [`on_the_run`].

use glam::{Vec2, Vec3};

use super::{NavMesh, ReachKind};
use crate::map::{CollisionMap, EntId};
use crate::physics::pmove::{PLAYER_MAXS, PLAYER_MINS, PhysicsParams, PlayerState, UserCmd, pmove};

/// What a run's fit reads of the world: its geometry as it is, the movement constants, the
/// tick length and the player's own body (traces ignore it).
#[derive(Clone, Copy)]
pub struct RunWorld<'a> {
    /// The geometry as it is this tick.
    pub map: &'a CollisionMap,
    /// Movement constants.
    pub physics: PhysicsParams,
    /// Tick length, seconds.
    pub dt: f32,
    /// The player's own body.
    pub me: Option<EntId>,
}

/// Distance from a reachability's start at which a bot stops steering round obstacles and
/// slows to a stand on the start; within it a run may be taken on the run.
pub const APPROACH: f32 = 80.0;

/// `c` with its view turned by `turn` degrees.
pub fn turned(c: UserCmd, turn: f32) -> UserCmd {
    UserCmd {
        yaw: c.yaw + turn,
        ..c
    }
}

/// Height from a reachability's start within which a bot counts as on its level (two
/// steps of a stair).
pub const NEAR_LEVEL: f32 = 32.0;

/// A step's height (units): how far below an area's lowest origin a falling player has
/// missed it.
pub const STEP: f32 = 18.0;

/// Turns (degrees) tried on a run's commands, in order.
pub const FIT_TURNS: [f32; 7] = [0.0, 2.0, -2.0, 4.0, -4.0, 8.0, -8.0];

/// How far past a run's start (units across) a bot going its way still tries it from
/// where it is.
pub const PAST_START: f32 = 32.0;

/// Running in at yaw `yaw` (degrees): the first ticks of a run taken on the run.
pub fn run_in(yaw: f32, pitch: f32) -> UserCmd {
    UserCmd {
        forward_move: 320.0,
        yaw,
        pitch,
        ..Default::default()
    }
}

/// A run (`reach`: a jump, a fall, a water jump or a teleport) taken from a moving bot's
/// state `s` short of its start: running in toward the start for about the ticks it takes
/// to get there (a tick fewer or more too) with its commands turned as [`FIT_TURNS`] give,
/// or for fewer ticks (the run started earlier, on the run-up) with them as they are, or
/// (a jump) at once with its run-up cut short ([`run_up`]). Of the ways that arrive as
/// [`fit`] asks, the one that lands soonest (for a teleport, the first that
/// [`fit_teleport`] sends): ((run-in ticks, run-in yaw), turn, run-up ticks left out,
/// ticks until it lands counting the run-in; 0 for a teleport). `None`: none does from
/// here, or the start is beyond [`APPROACH`] or behind the bot's motion.
pub fn fit_on_the_run(
    ctx: &RunWorld,
    mesh: &NavMesh,
    teleporters: &[crate::aas::Teleporter],
    reach: &crate::aas::Reach,
    s: &PlayerState,
) -> Option<((u32, f32), f32, u32, u32)> {
    let to_start = (reach.start - s.origin).truncate();
    let flat = to_start.length();
    if flat > APPROACH || (reach.start.z - s.origin.z).abs() > NEAR_LEVEL {
        return None;
    }
    let v = s.velocity.truncate();
    if flat > 1.0 && v.dot(to_start) <= 0.0 {
        // Just past the start, going its way: from here as it is.
        let heading = Vec2::from_angle(reach.commands.first()?.cmd.yaw.to_radians());
        if flat > PAST_START || v.dot(heading) <= 0.0 {
            return None;
        }
        let fitted = if reach.kind == ReachKind::Teleport {
            fit_teleport(ctx, teleporters, reach, s).map(|t| (t, 0))
        } else {
            fit_turned(ctx, mesh, reach, s, &FIT_TURNS, 0, None)
        };
        return fitted.map(|(t, ticks)| ((0, s.yaw), t, 0, ticks));
    }
    let yaw = if flat > 1.0 {
        to_start.y.atan2(to_start.x).to_degrees()
    } else {
        s.yaw
    };
    // Ticks of running in until the start is passed.
    let d = to_start.normalize_or_zero();
    let step_in = |q: &PlayerState| {
        pmove(
            q,
            &run_in(yaw, s.pitch),
            ctx.map,
            &ctx.physics,
            ctx.dt,
            ctx.me,
        )
        .0
    };
    let mut q = *s;
    let mut n = 0u32;
    while (reach.start - q.origin).truncate().dot(d) > 0.0 && n < 16 {
        q = step_in(&q);
        n += 1;
    }
    // About at the start first (a tick short or over too), its commands turned as
    // [`FIT_TURNS`] give; then jumps taken earlier, on the run up, as they are: the
    // recorded run is from a stand, and at running speed a jump onto a ledge behind a lip
    // meets the lip's face rising and drifts over it at air speed, or falls back, where one
    // taken further back clears it.
    let mut leads: Vec<(u32, &[f32], u32)> = [n, n.saturating_sub(1), n + 1]
        .into_iter()
        .enumerate()
        .filter(|&(i, l)| i == 0 || l != n)
        .map(|(_, l)| (l, &FIT_TURNS[..], 0))
        .chain(
            (0..n.saturating_sub(1))
                .rev()
                .map(|l| (l, &FIT_TURNS[..1], 0)),
        )
        .collect();
    // Taken from here with the run-up cut short: the recorded jump gets up to speed from a
    // stand before it takes off, which a bot that comes in running has done.
    leads.extend((1..=run_up(reach)).map(|k| (0, &FIT_TURNS[..], k)));
    // The way that lands soonest (a teleport: the first that is sent).
    let mut best: Option<((u32, f32), f32, u32, u32)> = None;
    for (lead, turns, skip) in leads {
        let mut p = *s;
        let mut ok = true;
        for _ in 0..lead {
            p = step_in(&p);
            if p.on_ground.is_none() && p.water_level < 2 {
                ok = false;
                break;
            }
        }
        if !ok {
            continue;
        }
        if reach.kind == ReachKind::Teleport {
            if let Some(turn) = fit_teleport(ctx, teleporters, reach, &p) {
                return Some(((lead, yaw), turn, 0, 0));
            }
            continue;
        }
        if let Some((turn, ticks)) = fit_turned(ctx, mesh, reach, &p, turns, skip, None)
            && best.is_none_or(|b| lead + ticks < b.0.0 + b.2)
        {
            best = Some(((lead, yaw), turn, ticks, skip));
        }
    }
    best.map(|(lead, turn, ticks, skip)| (lead, turn, skip, lead.0 + ticks))
}

/// For a runner at `from` (within [`APPROACH`] of `reach`'s start, on its level) running at
/// full speed along `heading`, where it takes the run on its way in as the movement stage
/// does ([`fit_on_the_run`] from there, moving so): the seconds until it lands and its
/// origin on each tick until then (the last where it lands). `None` where that does not fit
/// (the bot slows to a stand on the start and plays the run as recorded), for runs that
/// are not jumps or falls, and for those that need a mover. The route's prediction asks
/// this of each run it comes to on the way.
pub fn run_on_the_run(
    ctx: &RunWorld,
    mesh: &NavMesh,
    reach: &crate::aas::Reach,
    from: Vec3,
    heading: Vec2,
) -> Option<(f32, Vec<Vec3>)> {
    if !reach.kind.played() || !reach.needs.is_empty() || heading == Vec2::ZERO {
        return None;
    }
    // Settled onto the floor from a little above (a point given on it may lie a hair
    // inside), through the body of the player it is for (it may stand there now).
    let mut s =
        crate::nav::sample::stand_still_as(ctx.map, &ctx.physics, from + Vec3::Z * 8.0, ctx.me);
    if s.on_ground.is_none() || s.water_level >= 2 {
        return None;
    }
    s.velocity = (heading.normalize() * ctx.physics.max_speed).extend(0.0);
    s.yaw = heading.y.atan2(heading.x).to_degrees();
    let ((lead, yaw), turn, skip, ticks) = fit_on_the_run(ctx, mesh, &[], reach, &s)?;
    // Played again as the bot plays it (run in, then the commands turned, the run-up's
    // first ticks left out), for the way it goes.
    let mut trail = Vec::with_capacity(ticks as usize);
    for _ in 0..lead {
        s = pmove(
            &s,
            &run_in(yaw, s.pitch),
            ctx.map,
            &ctx.physics,
            ctx.dt,
            ctx.me,
        )
        .0;
        trail.push(s.origin);
    }
    fit_turned(ctx, mesh, reach, &s, &[turn], skip, Some(&mut trail))?;
    debug_assert_eq!(trail.len(), ticks as usize);
    Some((trail.len() as f32 * ctx.dt, trail))
}

/// [`run_on_the_run`] by reachability index: what a route's prediction asks
/// ([`crate::aas::route::OnTheRun`]).
pub fn on_the_run<'a>(
    ctx: &'a RunWorld,
    mesh: &'a NavMesh,
) -> impl Fn(u32, Vec3, Vec2) -> Option<(f32, Vec<Vec3>)> + 'a {
    move |i, at, heading| run_on_the_run(ctx, mesh, &mesh.reaches()[i as usize], at, heading)
}

/// Ticks a fall that lands beside its end area is followed, held still, to see that the bot
/// stays on that floor (at running speed, friction has taken three quarters of it).
pub const SLIDE_TICKS: u32 = 6;

/// How far (units) from a fall's recorded end it may come down beside its end area.
pub const LANDED_NEAR: f32 = 64.0;

/// Whether a fall off a ledge (`reach`) that came down at `p`, in area `a`, landed where it
/// leads: below its start, on its end area's level, a walk or two from it and near its end
/// (not down a slope the other way below the ledge, come at running).
pub fn landed_below(mesh: &NavMesh, reach: &crate::aas::Reach, p: Vec3, a: u32) -> bool {
    let to = &mesh.areas()[reach.to as usize];
    a != reach.from
        && p.z < reach.start.z - STEP
        && (p - reach.end).truncate().length() <= LANDED_NEAR
        && (to.mins.z - STEP..=to.maxs.z + STEP).contains(&p.z)
        && walks_to(mesh, reach.to, a)
}

/// Whether a run that ends in area `to` did as well landing in `a`: `to` itself, or an area
/// one or two walks from it either way (a jump at running speed carries on past a strip of
/// floor at a ledge's lip into the room beyond, whose route is asked again from there).
pub fn walks_to(mesh: &NavMesh, to: u32, a: u32) -> bool {
    mesh.walk_joined(to, a)
        || mesh
            .neighbours(to)
            .any(|b| mesh.walk_joined(to, b) && mesh.walk_joined(b, a))
}

/// `reach`'s command at tick `k` of its run (the last one past its end).
pub fn command_at(reach: &crate::aas::Reach, k: u32) -> UserCmd {
    let mut left = k;
    for run in &reach.commands {
        if left < run.ticks {
            return run.cmd;
        }
        left -= run.ticks;
    }
    reach.commands.last().map(|c| c.cmd).unwrap_or_default()
}

/// Ticks of a jump's recorded run that get the player up to speed before it jumps (its first
/// command, where the next one jumps); 0 for other runs.
pub fn run_up(reach: &crate::aas::Reach) -> u32 {
    match reach.commands.as_slice() {
        [first, next, ..]
            if matches!(reach.kind, ReachKind::Jump | ReachKind::BarrierJump)
                && !first.cmd.jump
                && next.cmd.jump =>
        {
            first.ticks
        }
        _ => 0,
    }
}

/// The first of [`FIT_TURNS`] under which `reach`'s commands, run through the player
/// physics from the bot's state `s` on the geometry as it is, end in the reachability's end
/// area (standing, coming down onto it, or swimming there) and land there or in an area
/// [`walks_to`] it, on its level; `None` when none does.
pub fn fit(
    ctx: &RunWorld,
    mesh: &NavMesh,
    reach: &crate::aas::Reach,
    s: &PlayerState,
) -> Option<f32> {
    fit_turned(ctx, mesh, reach, s, &FIT_TURNS, 0, None).map(|(turn, _)| turn)
}

/// [`fit`] over the given turns only, the first `skip` ticks of the commands left out,
/// with the ticks the first that fits takes to land; `trail` (given one turn) gets the
/// player's origin on each of them.
pub fn fit_turned(
    ctx: &RunWorld,
    mesh: &NavMesh,
    reach: &crate::aas::Reach,
    s: &PlayerState,
    turns: &[f32],
    skip: u32,
    mut trail: Option<&mut Vec<Vec3>>,
) -> Option<(f32, u32)> {
    let to = &mesh.areas()[reach.to as usize];
    let fall = reach.kind == ReachKind::WalkOffLedge && !to.is_swim();
    let arrived = |p: &PlayerState| {
        let settled = if to.is_swim() {
            p.water_level >= 2
        } else {
            p.on_ground.is_some() || p.velocity.z <= 0.0
        };
        settled && mesh.area_at(p.origin) == Some(reach.to)
    };
    // A fall that came down beside its end area, on its level, and stays there as friction
    // stops it: taken from beside its recorded start, or faster, a fall comes down further
    // along, past a narrow end area, in one a walk or two on; not on a ledge it slides off.
    // (Jumps are not landed so: fewer legs held their predicted time.)
    let beside = |p: &PlayerState, c: &UserCmd| {
        let here = |q: &PlayerState| {
            q.on_ground.is_some()
                && mesh
                    .area_at(q.origin)
                    .is_some_and(|a| landed_below(mesh, reach, q.origin, a))
        };
        if !here(p) {
            return false;
        }
        let idle = UserCmd {
            yaw: c.yaw,
            ..Default::default()
        };
        let mut q = *p;
        for _ in 0..SLIDE_TICKS {
            q = pmove(&q, &idle, ctx.map, &ctx.physics, ctx.dt, ctx.me).0;
        }
        here(&q)
    };
    turns.iter().copied().find_map(|turn| {
        let mut p = *s;
        let mut ticks = 0u32;
        let mut left_out = skip;
        let mut airborne = false;
        for run in &reach.commands {
            let c = turned(run.cmd, turn);
            for _ in 0..run.ticks {
                if left_out > 0 {
                    left_out -= 1;
                    continue;
                }
                p = pmove(&p, &c, ctx.map, &ctx.physics, ctx.dt, ctx.me).0;
                ticks += 1;
                if let Some(t) = trail.as_deref_mut() {
                    t.push(p.origin);
                }
                if fall && airborne && p.on_ground.is_some() && beside(&p, &c) {
                    return Some((turn, ticks));
                }
                airborne |= p.on_ground.is_none() && p.water_level < 2;
                if p.velocity.z < 0.0 && p.origin.z < to.mins.z - STEP {
                    // Falling below the end area: it cannot come down onto it any more.
                    return None;
                }
                if arrived(&p) {
                    // Over the end area coming down is not enough: it must land there (a
                    // jump that tops out over a ledge's edge without the speed to get onto
                    // it falls back).
                    let idle = UserCmd {
                        yaw: c.yaw,
                        ..Default::default()
                    };
                    for _ in 0..40 {
                        if p.on_ground.is_some() || p.water_level >= 2 {
                            break;
                        }
                        p = pmove(&p, &idle, ctx.map, &ctx.physics, ctx.dt, ctx.me).0;
                        ticks += 1;
                        if let Some(t) = trail.as_deref_mut() {
                            t.push(p.origin);
                        }
                    }
                    // Landed on the end area's level: a neighbour a step below it is where
                    // a jump onto a narrow ledge falls back to. Never back in the area it
                    // is jumped from: a sloped floor may rise to within a step of the ledge
                    // further on, where a bot come in running flies on and comes down.
                    let landed = (p.on_ground.is_some() || p.water_level >= 2)
                        && p.origin.z >= to.mins.z - STEP
                        && mesh
                            .area_at(p.origin)
                            .is_some_and(|a| a != reach.from && walks_to(mesh, reach.to, a));
                    return landed.then_some((turn, ticks));
                }
            }
        }
        None
    })
}

/// For a teleport, the first of [`FIT_TURNS`] under which its commands, run through the
/// player physics from the bot's state `s`, take it into a teleporter that sends it where
/// the recorded run was sent (the destination nearest where that run came down; triggers
/// that share it send alike); `None` when none does. Walking into a teleporter needs no
/// stand first: the trigger takes the player however it comes.
pub fn fit_teleport(
    ctx: &RunWorld,
    teleporters: &[crate::aas::Teleporter],
    reach: &crate::aas::Reach,
    s: &PlayerState,
) -> Option<f32> {
    let off = |t: &crate::aas::Teleporter| (t.dest.truncate() - reach.end.truncate()).length();
    let dest = teleporters
        .iter()
        .min_by(|a, b| off(a).total_cmp(&off(b)))?
        .dest;
    let sends = |p: &PlayerState| {
        teleporters.iter().any(|t| {
            t.dest == dest
                && crate::map::collision::touches(
                    p.origin + PLAYER_MINS,
                    p.origin + PLAYER_MAXS,
                    t.mins,
                    t.maxs,
                )
        })
    };
    FIT_TURNS.into_iter().find(|&turn| {
        let mut p = *s;
        reach.commands.iter().any(|run| {
            let c = turned(run.cmd, turn);
            (0..run.ticks).any(|_| {
                p = pmove(&p, &c, ctx.map, &ctx.physics, ctx.dt, ctx.me).0;
                sends(&p)
            })
        })
    })
}
