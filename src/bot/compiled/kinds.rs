//! Following one reachability by its kind: walks and steps up steered along the route's
//! floors ([`walk_across`]), swims steered across a border ([`swim_across`]), and the runs
//! the compiler recorded played ([`play_run`]). [`super::follow`] chooses among them with
//! one `match` on the kind.

use crate::aas::MoverNeed;
use crate::aas::run::APPROACH;
use crate::physics::movers::Phase;
use crate::physics::pmove::{PLAYER_MAXS, PLAYER_MINS};
use glam::{Vec2, Vec3};

use crate::aas::route::{Travel, border, nearest_on};
use crate::aas::{NavMesh, ReachKind};
use crate::physics::pmove::{PlayerState, UserCmd};

use super::cmd::{brake, yaw_to};
use super::ctx::FollowCtx;
use super::detour::Follow;
use super::guard::{guard, kept_on, moving, over_floor};
use super::query::NavQuery;
use super::start::{
    READY_DISTANCE, READY_SPEED, ROUND_ACROSS, ROUND_NEAR, SETTLE_RATE, behind_start, fall_heading,
    onto_start, settled_onto, slowing, stop_below,
};
use super::state::{AreaNav, Step};
use super::steer::{
    Ahead, Aim, head_for, head_to, kept, lookahead, past, straight_over, taken_from_outside,
};
use super::{APPROACH_SECONDS, ARRIVE, NEARER_SPEED, RUN_SPEED, WAIT_SHARE};
use crate::aas::run::turned;
use crate::aas::run::{NEAR_LEVEL, PAST_START, command_at, fit, fit_on_the_run, run_in};
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

/// Where a swimmer at `origin` crosses swim reachability `reach` (start, end): between two
/// swim areas side by side, at the point of their shared border nearest it, at its depth
/// kept within both areas' spans, the run shifted there and level (the reachability was
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
        origin.z.clamp(lo, hi)
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
fn play_from_start(st: &mut AreaNav, reach: &crate::aas::Reach) -> Step {
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

/// [`follow`] without the braking after a run.
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
