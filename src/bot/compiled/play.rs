//! Playing the runs the compiler recorded (jumps, falls, teleporters, rides): one list of
//! steps per kind ([`JUMP`], [`FALL`], [`TELEPORT`], [`RECORDED`]), each step saying what
//! to do this tick or passing to the next ([`play`]); and whether the movers a run needs
//! are ready.

use crate::aas::MoverNeed;
use crate::aas::run::APPROACH;
use crate::physics::movers::Phase;
use crate::physics::pmove::{PLAYER_MAXS, PLAYER_MINS};
use glam::{Vec2, Vec3};

use crate::aas::{NavMesh, ReachKind};
use crate::physics::pmove::{PlayerState, UserCmd};

use super::cmd::{brake, yaw_to};
use super::ctx::FollowCtx;
use super::guard::{kept_on, over_floor};
use super::query::NavQuery;
use super::start::{
    READY_DISTANCE, READY_SPEED, ROUND_ACROSS, ROUND_NEAR, SETTLE_RATE, behind_start, fall_heading,
    onto_start, settled_onto, slowing, stop_below,
};
use super::state::{AreaNav, Step};
use super::{APPROACH_SECONDS, ARRIVE, NEARER_SPEED, RUN_SPEED, WAIT_SHARE};
use crate::aas::run::turned;
use crate::aas::run::{command_at, fit, fit_on_the_run, run_in};

use super::kinds::{Leg, fall_from_here, go, swim_to};

/// One step of playing a recorded run: what to do this tick, or `None` to go on to the
/// next step.
pub(super) type RunStep =
    fn(&FollowCtx, &mut NavQuery<'_>, &mut AreaNav, &PlayerState, &Leg) -> Option<Step>;

/// A running jump or barrier jump: waits for the movers it needs, takes the jump on the
/// way in where it fits, backs off and runs in where the bot comes at it across its way or
/// a stand falls short, else slows to a stand on the start and plays it.
pub(super) const JUMP: &[RunStep] = &[
    wait_for_plat,
    fall_now,
    run_in_again,
    go_to_start,
    take_on_the_run,
    round_behind,
    brake_down_slope,
    slow_onto_start,
    wait_for_movers,
    fit_from_stand,
];

/// A walk off a ledge or a water jump: as a jump, without backing off to run in.
pub(super) const FALL: &[RunStep] = &[
    wait_for_plat,
    fall_now,
    go_to_start,
    take_on_the_run,
    brake_down_slope,
    slow_onto_start,
    wait_for_movers,
    fit_from_stand,
];

/// A run into a teleporter: taken on the way in where it fits, else from a stand.
pub(super) const TELEPORT: &[RunStep] = &[
    wait_for_plat,
    go_to_start,
    take_on_the_run,
    brake_down_slope,
    slow_onto_start,
    wait_for_movers,
    fit_from_stand,
];

/// A ride on a plat or train, a jump pad, or a swim out of the water: from a stand on the
/// start once the movers are where they were when it was recorded, played as recorded.
pub(super) const RECORDED: &[RunStep] = &[
    wait_for_plat,
    go_to_start,
    brake_down_slope,
    slow_onto_start,
    wait_for_movers,
    fit_from_stand,
];

/// A recorded run, through `phases` in order (each keeps its own kind checks; a kind's list
/// leaves out only those that never act for it): the first that acts decides the tick, and
/// once none does, the commands are played from the start.
pub(super) fn play(
    phases: &[RunStep],
    ctx: &FollowCtx,
    nav: &mut NavQuery<'_>,
    st: &mut AreaNav,
    s: &PlayerState,
    leg: &Leg,
) -> Step {
    for phase in phases {
        if let Some(step) = phase(ctx, nav, st, s, leg) {
            return step;
        }
    }
    play_from_start(st, leg.reach)
}

/// A plat the reachability needs down and is not: waited for off its trigger.
fn wait_for_plat(
    ctx: &FollowCtx,
    nav: &mut NavQuery<'_>,
    st: &mut AreaNav,
    s: &PlayerState,
    leg: &Leg,
) -> Option<Step> {
    let Leg { mesh, reach, .. } = *leg;
    let dt = ctx.dt;
    if let Some(p) = plat_wait(ctx, nav, mesh, reach) {
        // A plat the reachability needs down is not: waited for off its trigger,
        // which would hold it up (standing on it at the top, or under it).
        st.held += dt * WAIT_SHARE;
        return Some(if (p - s.origin).truncate().length() > READY_DISTANCE {
            go(p)
        } else {
            Step::Cmd(brake(s))
        });
    }
    None
}

/// A hop whose next reachability is a fall that lands from where the bot already is: that fall, now.
fn fall_now(
    ctx: &FollowCtx,
    nav: &mut NavQuery<'_>,
    st: &mut AreaNav,
    s: &PlayerState,
    leg: &Leg,
) -> Option<Step> {
    let Leg {
        mesh,
        goal_area,
        travel,
        reach,
        swimming,
        ..
    } = *leg;
    // A hop (onto a lip) whose next is a fall that lands from where the bot is already: the
    // fall now (come down beside a lip, the bot hopped up, walked back to the fall's start
    // and walked off from a stand).
    if !swimming
        && s.on_ground.is_some()
        && reach.kind.played()
        && let Some((next, turn)) = fall_from_here(ctx, nav, st, reach, s, goal_area, travel)
    {
        st.reach = Some(next);
        st.held = 0.0;
        st.approach = 0.0;
        st.turn = turn;
        st.lead = None;
        st.skip = 0;
        st.played = Some(1);
        return Some(Step::Cmd(turned(
            command_at(&mesh.reaches()[next as usize], 0),
            turn,
        )));
    }
    None
}

/// Backed off behind a jump's start: on back, then running in.
fn run_in_again(
    ctx: &FollowCtx,
    _nav: &mut NavQuery<'_>,
    st: &mut AreaNav,
    s: &PlayerState,
    leg: &Leg,
) -> Option<Step> {
    let Leg {
        mesh,
        r,
        reach,
        swimming,
        ..
    } = *leg;
    let dt = ctx.dt;
    if let Some((b, false)) = st.backup
        && b == r
        && !swimming
    {
        st.held += dt;
        let p = behind_start(ctx, mesh, reach).unwrap_or(s.origin);
        if (p - s.origin).truncate().length() > ARRIVE && st.approach < APPROACH_SECONDS {
            st.approach += dt;
            return Some(go(p));
        }
        // Backed off: run in (the fit on the run below takes it from here).
        st.backup = Some((r, true));
        st.approach = 0.0;
        return Some(Step::Cmd(run_in(yaw_to(s.origin, reach.start), s.pitch)));
    }
    None
}

/// Far from the start (or swimming to it): going there.
fn go_to_start(
    ctx: &FollowCtx,
    _nav: &mut NavQuery<'_>,
    st: &mut AreaNav,
    s: &PlayerState,
    leg: &Leg,
) -> Option<Step> {
    let Leg {
        reach,
        swimming,
        to_start,
        flat,
        ..
    } = *leg;
    let dt = ctx.dt;
    if swimming {
        st.held += dt;
        if to_start.length() > ARRIVE {
            return Some(swim_to(s, reach.start));
        }
    } else if flat > APPROACH {
        st.held += dt;
        return Some(go(reach.start));
    }
    None
}

/// Near the start and moving: the run taken on the way in where it fits.
fn take_on_the_run(
    ctx: &FollowCtx,
    nav: &mut NavQuery<'_>,
    st: &mut AreaNav,
    s: &PlayerState,
    leg: &Leg,
) -> Option<Step> {
    let Leg {
        mesh,
        reach,
        swimming,
        ..
    } = *leg;
    let speed = s.velocity.truncate().length();
    // On the run: near the start, a jump or fall that lands from the bot's state as
    // it is (moving), run in to the start first, is played without stopping — a
    // stand on the start costs the braking and the run-up again.
    if !swimming
        && reach.needs.is_empty()
        && (reach.kind.played() || reach.kind == ReachKind::Teleport)
        && speed > READY_SPEED
        && let Some((lead, turn, skip, ..)) =
            fit_on_the_run(&ctx.world(), mesh, nav.teleporters, reach, s)
    {
        st.turn = turn;
        st.lead = (lead.0 > 0).then_some(lead);
        st.skip = skip;
        st.played = Some(1);
        return Some(Step::Cmd(if lead.0 > 0 {
            run_in(lead.1, s.pitch)
        } else {
            turned(command_at(reach, skip), turn)
        }));
    }
    None
}

/// At a jump's start coming across its way: round to behind it to run in.
fn round_behind(
    ctx: &FollowCtx,
    _nav: &mut NavQuery<'_>,
    st: &mut AreaNav,
    s: &PlayerState,
    leg: &Leg,
) -> Option<Step> {
    let Leg {
        mesh,
        r,
        reach,
        swimming,
        flat,
        ..
    } = *leg;
    let dt = ctx.dt;
    let speed = s.velocity.truncate().length();
    if !swimming
        && flat <= ROUND_NEAR
        && matches!(reach.kind, ReachKind::Jump | ReachKind::BarrierJump)
        && reach.needs.is_empty()
        && speed > READY_SPEED
        && st.backup.is_none_or(|b| b.0 != r)
        && let Some(first) = reach.commands.first()
        && Vec2::from_angle(first.cmd.yaw.to_radians())
            .dot(s.velocity.truncate().normalize_or_zero())
            < ROUND_ACROSS
        && settled_onto(ctx, mesh, s, reach.start)
            .is_none_or(|stood| fit(&ctx.world(), mesh, reach, &stood).is_none())
        && let Some(p) = behind_start(ctx, mesh, reach)
    {
        // At a jump's start coming across its way, fast, where the stand that slowing onto
        // it ends in would not fit it either: round to behind the start at once and run in
        // along it, not a stand on the start first (barrier jumps up onto ledges, reached
        // across their way).
        st.held += dt;
        st.backup = Some((r, false));
        st.approach = 0.0;
        return Some(go(p));
    }
    None
}

/// Coming down a slope onto the start too fast to stop by slowing: braking.
fn brake_down_slope(
    ctx: &FollowCtx,
    _nav: &mut NavQuery<'_>,
    st: &mut AreaNav,
    s: &PlayerState,
    leg: &Leg,
) -> Option<Step> {
    let Leg {
        mesh,
        r,
        reach,
        swimming,
        ..
    } = *leg;
    let dt = ctx.dt;
    // Down a slope onto the start, too fast to stop on it by slowing (a barrier jump at the
    // foot of a sloped hall, come at running down it).
    if !swimming
        && s.on_ground.is_some()
        && let Some(c) = stop_below(
            ctx,
            mesh,
            s,
            reach.start,
            fall_heading(mesh, Some(r)),
            (&[], &[]),
        )
    {
        st.held += dt;
        st.approach += dt;
        return Some(Step::Cmd(c));
    }
    None
}

/// Slowing to a stand on the start.
fn slow_onto_start(
    ctx: &FollowCtx,
    _nav: &mut NavQuery<'_>,
    st: &mut AreaNav,
    s: &PlayerState,
    leg: &Leg,
) -> Option<Step> {
    let Leg {
        mesh,
        reach,
        swimming,
        flat,
        ..
    } = *leg;
    let dt = ctx.dt;
    let speed = s.velocity.truncate().length();
    if !swimming && (flat > READY_DISTANCE || speed > READY_SPEED) && st.approach < APPROACH_SECONDS
    {
        // Slow to a stand on the start: toward it, the wished speed falls with the
        // distance left (about what ground friction takes off; wishing toward the
        // start brakes hard after an overshoot); across the way to it, the wish is
        // against the speed the bot has, so motion sideways from the way it came is
        // braked, not circled round the start while friction takes it off.
        st.held += dt;
        st.approach += dt;
        return Some(Step::Cmd(slowing(ctx, mesh, s, reach.start)));
    }
    None
}

/// Waiting for the movers the reachability needs.
fn wait_for_movers(
    ctx: &FollowCtx,
    _nav: &mut NavQuery<'_>,
    st: &mut AreaNav,
    s: &PlayerState,
    leg: &Leg,
) -> Option<Step> {
    let Leg { mesh, reach, .. } = *leg;
    let dt = ctx.dt;
    if !movers_ready(mesh, &reach.needs, ctx) {
        // Waiting for the lift or door counts against the reachability at a quarter
        // of the time (a door that never opens is given up on in the end).
        st.held += dt * WAIT_SHARE;
        return Some(Step::Cmd(onto_start(s, reach)));
    }
    None
}

/// On the start: the recorded commands tried as they are, then turned a little; else nearer, backing off, or giving the reachability up.
fn fit_from_stand(
    ctx: &FollowCtx,
    _nav: &mut NavQuery<'_>,
    st: &mut AreaNav,
    s: &PlayerState,
    leg: &Leg,
) -> Option<Step> {
    let Leg {
        mesh,
        r,
        reach,
        flat,
        ..
    } = *leg;
    let dt = ctx.dt;
    // The commands were verified from the start exactly; from where the bot stands
    // they are tried first as they are, then turned a little, and played the first
    // way that gets there (kinds that ride movers or teleport are played as they
    // are: their runs depend on more than the geometry).
    st.turn = 0.0;
    if reach.kind.played() {
        match fit(&ctx.world(), mesh, reach, s) {
            Some(turn) => st.turn = turn,
            None if flat > 1.0 && st.approach < APPROACH_SECONDS => {
                // Nearer the start may do.
                st.held += dt;
                st.approach += dt;
                let nearer = UserCmd {
                    forward_move: (flat * SETTLE_RATE).clamp(NEARER_SPEED, RUN_SPEED),
                    yaw: yaw_to(s.origin, reach.start),
                    pitch: s.pitch,
                    ..Default::default()
                };
                return Some(Step::Cmd(kept_on(ctx, mesh, s, nearer, &[])));
            }
            None => {
                if matches!(reach.kind, ReachKind::Jump | ReachKind::BarrierJump)
                    && st.backup.is_none_or(|b| b.0 != r)
                    && let Some(p) = behind_start(ctx, mesh, reach)
                {
                    // From a stand it falls short: back off and run in (the
                    // run's fit on the run finds where to jump).
                    st.backup = Some((r, false));
                    st.approach = 0.0;
                    return Some(go(p));
                }
                st.avoid(r);
                st.reach = None;
                return Some(go(s.origin));
            }
        }
    }
    None
}

/// On the start, ready: the recorded commands played from the first, turned as the fit
/// found.
pub(super) fn play_from_start(st: &mut AreaNav, reach: &crate::aas::Reach) -> Step {
    st.played = Some(1);
    st.lead = None;
    st.skip = 0;
    Step::Cmd(turned(
        reach.commands.first().map(|c| c.cmd).unwrap_or_default(),
        st.turn,
    ))
}

/// Whether the movers a reachability needs are where they were when it was verified
/// (`mover(id)`: the state of the mover with that id).
pub(super) fn movers_ready(mesh: &NavMesh, needs: &[MoverNeed], ctx: &FollowCtx) -> bool {
    let mover = ctx.mover;
    needs.iter().all(|n| match *n {
        // A plat waits low to be ridden (a train at its first stop).
        MoverNeed::Down(id) => mover(id).is_none_or(|m| {
            matches!(
                m.phase,
                Phase::AtA | Phase::TrainWaiting | Phase::TrainIdle | Phase::Fixed
            ) && (m.phase != Phase::TrainWaiting || m.corner.is_some())
        }),
        MoverNeed::Moved(p) => mesh.positions.get(p as usize).is_none_or(|pos| {
            mover(pos.mover).is_none_or(|m| {
                (m.offset - pos.offset).length() < 2.0
                    && !matches!(
                        m.phase,
                        Phase::ToA | Phase::ToB | Phase::TrainMoving | Phase::SecretIn
                    )
            })
        }),
        // A door the bot waits at opens as it comes near (the others are blocked in
        // routing while closed).
        MoverNeed::Open(id) => (ctx.door_open)(id),
        // A fired mover or teleporter is what the reachability's own run fires.
        MoverNeed::Key(_) | MoverNeed::Fired(_) | MoverNeed::Teleporter(_) => true,
    })
}

/// Where to wait for a plat that reachability `reach` needs down (a [`MoverNeed::Down`]) while
/// it is not, where its start is in the plat's trigger (a player in it holds a raised plat
/// up: plats.qc's `plat_center_touch`): the point nearest the start, straight out across x
/// or y, where a player's box is clear of the trigger, on a floor. `None`: no such wait.
pub(super) fn plat_wait(
    ctx: &FollowCtx,
    nav: &NavQuery<'_>,
    mesh: &NavMesh,
    reach: &crate::aas::Reach,
) -> Option<Vec3> {
    reach.needs.iter().find_map(|n| {
        let MoverNeed::Down(id) = *n else {
            return None;
        };
        if (ctx.mover)(id).is_none_or(|m| m.phase == Phase::AtA) {
            return None;
        }
        let &(_, tmin, tmax) = nav.plat_triggers.iter().find(|t| t.0 == id)?;
        let p = reach.start;
        let (lo, hi) = (
            tmin - PLAYER_MAXS - Vec3::ONE,
            tmax - PLAYER_MINS + Vec3::ONE,
        );
        if p.cmplt(lo).any() || p.cmpgt(hi).any() {
            return None;
        }
        crate::aas::reach::clear_of_box(tmin.truncate(), tmax.truncate(), p.truncate())
            .map(|q| q.extend(p.z))
            .into_iter()
            .filter(|q| over_floor(mesh, *q))
            .min_by(|a, b| (*a - p).length().total_cmp(&(*b - p).length()))
    })
}

/// Whether the mover an elevator reachability rides (the one under its start area) stands
/// still where it is, waiting out a timer before it moves back (a door fired open waits its
/// `wait`, a plat at the top its 3 s): the ride was measured from the moment it moves.
pub(super) fn carrier_waits(mesh: &NavMesh, reach: &crate::aas::Reach, ctx: &FollowCtx) -> bool {
    reach.kind == ReachKind::Elevator
        && mesh.areas()[reach.from as usize]
            .mover
            .and_then(|id| (ctx.mover)(id))
            .is_some_and(|m| m.phase == Phase::AtB && m.timer > 0.0 && m.timer.is_finite())
}
