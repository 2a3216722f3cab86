//! Following a route: each tick, the command that takes a compiled bot along the first
//! reachability of its route ([`follow`]), with waits for the movers it needs.

use crate::aas::run::APPROACH;
use std::sync::Arc;

use glam::Vec3;

use crate::aas::route::{Travel, cross};
use crate::aas::{NavMesh, ReachKind};
use crate::physics::pmove::PlayerState;
use crate::physics::push::push_at;

use super::cmd::{brake, hop_toward, stand};
use super::ctx::FollowCtx;
use super::detour::{SWIM_OUT_EXTRA, detour, detour_past_coming, start_detour};
use super::guard::guard;
use super::kinds::{Leg, go, swim_across, walk_across};
use super::play::{FALL, JUMP, RECORDED, TELEPORT, carrier_waits, play, play_from_start};
use super::query::{Answer, NavQuery};
use super::start::{onto_start, overshoots, slowing, steered};
use super::state::{AreaNav, Detour, Step};
use super::steer::{climbing_out, head_for, head_to, kept, lookahead, taken_from_outside};
use super::{AT_DOOR, NEAR_END, NEAR_END_RISE, WAIT_SHARE};
use crate::aas::run::turned;
use crate::aas::run::{landed_below, run_in};
use crate::bot::movement::{MoveRequest, MoveTarget};

/// One tick of following the route to `goal` for a bot in state `s` (pure but for the
/// goal searches it asks of `nav`): [`follow_route`], then, just after a reachability's
/// commands were played (a jump, a fall, a teleport, a lift), braking while the bot moves
/// fast in another direction than the route's next one — it landed at speed, often on a
/// ledge whose way on turns, and would slide off.
pub fn follow(
    ctx: &FollowCtx,
    nav: &mut NavQuery<'_>,
    st: &mut AreaNav,
    s: &PlayerState,
    goal: Vec3,
    travel: Travel,
) -> Step {
    let mut detoured = None;
    if let Some(d) = st.detour {
        if d.left == 0 {
            // Given up: the way through that door is left out for a while.
            st.detour = None;
            st.avoid(d.reach);
        } else {
            st.detour = Some(Detour {
                left: d.left - 1,
                ..d
            });
            detoured = detour(ctx, nav, st, s, d, travel, follow_route);
            if detoured.is_none() {
                st.detour = None;
            }
        }
    }
    // A detour's runs land like the route's: the same settling after them (steering on in
    // the air toward the opener, a bot that jumped onto a ledge on its way to shoot a
    // trigger came down beside the ledge, into the water below).
    let step = match detoured {
        Some(step) => step,
        None => follow_route(ctx, nav, st, s, goal, travel),
    };
    if !st.settle {
        return step;
    }
    if s.water_level >= 2 || st.played.is_some() {
        st.settle = false;
        return step;
    }
    if s.on_ground.is_none() {
        // Coming down at the end of the run: no steering until it lands.
        return Step::Cmd(stand(s));
    }
    let v = s.velocity.truncate();
    let want = match step {
        Step::Go(MoveRequest {
            target: MoveTarget::Point(p),
            ..
        }) => (p - s.origin).truncate(),
        Step::Go(MoveRequest {
            target: MoveTarget::Direction(d),
            ..
        }) => d.truncate(),
        _ => v,
    };
    if v.length() > SETTLE_SPEED && v.normalize_or_zero().dot(want.normalize_or_zero()) < 0.5 {
        // Wishing against the motion brakes hard (pmove's acceleration toward the wish).
        return Step::Cmd(brake(s));
    }
    st.settle = false;
    step
}

/// Speed (u/s) under which a bot that has just landed from a reachability's run goes on
/// without braking.
pub(super) const SETTLE_SPEED: f32 = 120.0;

pub(super) fn follow_route(
    ctx: &FollowCtx,
    nav: &mut NavQuery<'_>,
    st: &mut AreaNav,
    s: &PlayerState,
    goal: Vec3,
    travel: Travel,
) -> Step {
    let dt = ctx.dt;
    for a in st.avoid.iter_mut() {
        if let Some((_, left)) = a {
            *left -= dt;
            if *left <= 0.0 {
                *a = None;
            }
        }
    }
    if st.goal.map(|g| g.0) != Some(goal) {
        let Some(ga) = nav.mesh.area_at(goal) else {
            st.goal = None;
            return Step::NoRoute;
        };
        st.goal = Some((goal, ga));
        st.reach = None;
        st.played = None;
    }
    let (_, goal_area) = st.goal.expect("set above");
    let mesh = Arc::clone(nav.mesh);
    // Sent on by a teleporter this tick (walked into one, or at the end of a teleport's
    // run): whatever was followed is behind; the route goes on from where it comes down.
    if s.teleport_time > crate::physics::teleport::TELEPORT_LOCK - 0.5 * dt
        && let Some(r) = st.reach
    {
        if st.played.is_some() {
            st.landing = Some(r);
        }
        st.reach = None;
        st.played = None;
        st.lead = None;
        st.skip = 0;
        st.settle = false;
        st.area = None;
    }
    // Thrown by the jump pad it makes for: the pad has taken it before it stood on the
    // run's start, and the throw is the run (steering back to the start in the air would
    // fight it and bring the bot down on the pad again).
    if st.played.is_none()
        && let Some(r) = st.reach
        && mesh.reaches()[r as usize].kind == ReachKind::JumpPad
        && push_at(ctx.pushes, s.origin).is_some()
    {
        // Played as recorded: no fit turned it (a turn left from an earlier run would).
        st.turn = 0.0;
        return play_from_start(st, &mesh.reaches()[r as usize]);
    }
    // Playing a reachability's commands: on to the end of them.
    if let (Some(r), Some(k)) = (st.reach, st.played)
        && let Some(step) = play_on(ctx, &mesh, st, s, r, k)
    {
        return step;
    }
    let swimming = s.water_level >= 2;
    // A run that did not land where it should is not tried again for a while.
    if let Some(r) = st.landing
        && (s.on_ground.is_some() || swimming)
        && !climbing_out(&mesh, &mesh.reaches()[r as usize], s)
    {
        st.landing = None;
        let to = mesh.reaches()[r as usize].to;
        if !mesh
            .area_at(s.origin)
            .is_some_and(|a| mesh.walk_joined(to, a))
        {
            st.avoid(r);
        }
    }
    let area = mesh.area_at(s.origin).or(st.area);
    if s.on_ground.is_none() && !swimming {
        return airborne(ctx, nav, st, s, &mesh, area, (goal, goal_area), travel);
    }
    st.area = area;
    let Some(area) = area else {
        return Step::NoRoute;
    };
    if area == goal_area {
        st.reach = None;
        // On a narrow floor (a bridge, a ledge), momentum from the way in can carry a bot
        // over its side on the way to the goal: guarded as a route over it is.
        if !swimming && let Some(c) = guard(ctx, &mesh, s, |_| goal, &[area]) {
            return Step::Cmd(c);
        }
        return go(goal);
    }
    let r = match choose(ctx, nav, st, s, &mesh, area, (goal, goal_area), travel) {
        Ok(r) => r,
        Err(step) => return step,
    };
    let reach = &mesh.reaches()[r as usize];
    let limit = 2.0 * (cross(&mesh, area, s.origin, reach.start) + reach.seconds) + 3.0;
    if st.held > limit {
        st.avoid(r);
        st.reach = None;
        return go(s.origin);
    }
    let to_start = reach.start - s.origin;
    let flat = to_start.truncate().length();
    let leg = Leg {
        mesh: &mesh,
        goal,
        goal_area,
        travel,
        area,
        r,
        reach,
        swimming,
        to_start,
        flat,
    };
    if nav.doors.is_blocked(r) {
        return at_shut_door(ctx, nav, st, s, &leg);
    }
    // One way of following for each kind of reachability: the movement stage steers walks,
    // steps up and swims that stay in (or go into) the water; every other kind plays the
    // commands the compiler recorded.
    match reach.kind {
        ReachKind::Walk | ReachKind::StepUp | ReachKind::Swim if steered(&mesh, reach) => {
            st.held += dt;
            if swimming {
                swim_across(s, &leg)
            } else {
                walk_across(ctx, nav, st, s, &leg, follow_route)
            }
        }
        ReachKind::WaterJump if swimming => {
            st.held += dt;
            Step::Cmd(hop_toward(s, reach.end))
        }
        ReachKind::Jump | ReachKind::BarrierJump => play(JUMP, ctx, nav, st, s, &leg),
        ReachKind::WalkOffLedge | ReachKind::WaterJump => play(FALL, ctx, nav, st, s, &leg),
        ReachKind::Teleport => play(TELEPORT, ctx, nav, st, s, &leg),
        ReachKind::Walk
        | ReachKind::StepUp
        | ReachKind::Swim
        | ReachKind::Elevator
        | ReachKind::JumpPad => play(RECORDED, ctx, nav, st, s, &leg),
    }
}

/// Playing reachability `r`'s commands at tick `k` of them: the next command, or `None`
/// once the bot is where the run leads (or the commands are spent), with the run marked
/// as landing.
pub(super) fn play_on(
    ctx: &FollowCtx,
    mesh: &NavMesh,
    st: &mut AreaNav,
    s: &PlayerState,
    r: u32,
    k: u32,
) -> Option<Step> {
    let reach = &mesh.reaches()[r as usize];
    let (lead, lead_yaw) = st.lead.unwrap_or((0, 0.0));
    if k < lead {
        st.played = Some(k + 1);
        return Some(Step::Cmd(run_in(lead_yaw, s.pitch)));
    }
    // The run is over once the bot is where it leads (the commands were cut there
    // for a player from a stand; a bot that came in running gets there sooner, and
    // the rest of them would carry it on): sent on by the teleporter, or on the
    // ground (or swimming) in its end area, or near its end in one a walk joins to it.
    let there = k > lead
        && if reach.kind == ReachKind::Teleport {
            s.teleport_time > 0.0
        } else {
            (s.on_ground.is_some() || s.water_level >= 2)
                && mesh.area_at(s.origin).is_some_and(|a| {
                    a == reach.to
                        || (a != reach.from
                            && mesh.walk_joined(reach.to, a)
                            && (s.origin - reach.end).truncate().length() <= NEAR_END
                            && (s.origin.z - reach.end.z).abs() <= NEAR_END_RISE)
                        || (reach.kind == ReachKind::WalkOffLedge
                            && s.on_ground.is_some()
                            && landed_below(mesh, reach, s.origin, a))
                })
        };
    if k == lead + 1 && !there && carrier_waits(mesh, reach, ctx) {
        // On a door or plat that will carry it but still waits where it stands (a door
        // fired open waits its `wait` before it goes back): the ride's commands start
        // when it moves, as they were measured.
        return Some(Step::Cmd(turned(
            reach.commands.first().map(|c| c.cmd).unwrap_or_default(),
            st.turn,
        )));
    }
    let mut left = k - lead + st.skip;
    for run in reach.commands.iter().filter(|_| !there) {
        if left < run.ticks {
            st.played = Some(k + 1);
            return Some(Step::Cmd(turned(run.cmd, st.turn)));
        }
        left -= run.ticks;
    }
    if !there
        && reach.kind == ReachKind::Swim
        && s.on_ground.is_none()
        && left < SWIM_OUT_EXTRA
        && let Some(last) = reach.commands.last()
    {
        // A swim out of the water still in it when its commands end (come at from other
        // than where it was measured, higher or lower in the water) keeps on at it a
        // little: one that ended a few units short of its end sent the bot back to its
        // start to try again.
        st.played = Some(k + 1);
        return Some(Step::Cmd(turned(last.cmd, st.turn)));
    }
    st.reach = None;
    st.played = None;
    st.lead = None;
    st.skip = 0;
    // After a jump or fall, no steering until it lands (the run's arc is the one
    // measured); a teleported bot comes down where the route goes on from, and steers
    // for it in the air (Quake's air control brakes hard against the exit's speed).
    st.settle = reach.kind != ReachKind::Teleport;
    st.landing = Some(r);
    None
}

/// In the air: the fall or jump decides where the bot lands; it keeps heading on.
#[expect(
    clippy::too_many_arguments,
    reason = "the follower's state and the route's goal, each read here"
)]
pub(super) fn airborne(
    ctx: &FollowCtx,
    nav: &mut NavQuery<'_>,
    st: &mut AreaNav,
    s: &PlayerState,
    mesh: &NavMesh,
    area: Option<u32>,
    (goal, goal_area): (Vec3, u32),
    travel: Travel,
) -> Step {
    // In the air: the fall or jump decides where it lands; keep heading on — along
    // the walks ahead where it walks (running down stairs, a bot is in the air over
    // most steps: heading for the walk's own end, which the line along the walks may
    // have passed, turned it back), else to the run's end.
    let hc = if st.through_doors {
        nav.goal_through_doors(goal_area, travel)
    } else {
        nav.goal(goal_area, travel)
    };
    let walk = match st.reach {
        Some(r) if st.played.is_none() => area.map(|a| (r, a)),
        // Nothing followed (sent on by a teleporter): the way on from the floor below.
        None => mesh.area_under(s.origin).and_then(|(q, a)| {
            let avoid = st.avoid;
            nav.first_step(&hc, a, q, |r| {
                avoid.iter().any(|x| x.is_some_and(|x| x.0 == r))
            })
            .map(|(_, r)| (r, a))
        }),
        _ => None,
    };
    if let Some((r, a)) = walk {
        let reach = &mesh.reaches()[r as usize];
        if !steered(mesh, reach) {
            return go(reach.start);
        }
        if let Some(ahead) = lookahead(nav, &hc, st, a, r, s.origin) {
            let (p, aim) = head_for(mesh, s.origin, &ahead, (goal, goal_area));
            return head_to(ctx, mesh, s, p, aim, &ahead.areas);
        }
    }
    let to = st
        .reach
        .map(|r| mesh.reaches()[r as usize].end)
        .unwrap_or(goal);
    go(to)
}

/// The reachability to follow from `area`: the one being followed where it is kept (see
/// [`kept`]), otherwise the quickest way on from here. `Err`: what to do instead (no
/// route, or a detour to fire a door's opener).
#[expect(
    clippy::too_many_arguments,
    reason = "the follower's state and the route's goal, each read here"
)]
pub(super) fn choose(
    ctx: &FollowCtx,
    nav: &mut NavQuery<'_>,
    st: &mut AreaNav,
    s: &PlayerState,
    mesh: &NavMesh,
    area: u32,
    (goal, goal_area): (Vec3, u32),
    travel: Travel,
) -> Result<u32, Step> {
    // Keep the reachability being followed (see [`kept`]); otherwise the quickest way on
    // from here.
    // A reachability whose start a mover stands on (see [`start_taken`]) is kept only from
    // its own area.
    let keep = st
        .reach
        .filter(|&r| kept(mesh, st, r, area, s.origin) && !taken_from_outside(ctx, nav, r, area));
    match keep {
        Some(r) => Ok(r),
        None => {
            let avoid = st.avoid;
            let was = st.reach.filter(|&r| !st.avoided(r));
            let first = |nav: &NavQuery<'_>, a: &Answer| {
                let skip = |r: u32| avoid.iter().any(|x| x.is_some_and(|x| x.0 == r));
                let (t, r) = nav.first_step(a, area, s.origin, skip)?;
                // Strayed over a border beside the floor walk it followed: back over
                // that border where that is quicker than this area's own way.
                Some(
                    was.and_then(|w| nav.back_over_border(a, area, s.origin, w, t, skip))
                        .unwrap_or(r),
                )
            };
            let open_way = nav.goal(goal_area, travel);
            let mut found = first(nav, &open_way);
            st.through_doors = found.is_none() && nav.doors.count > 0;
            if st.through_doors {
                // Cut off by closed doors: the way through them.
                let a = nav.goal_through_doors(goal_area, travel);
                found = first(nav, &a);
            }
            let Some(r) = found else {
                st.reach = None;
                return Err(Step::NoRoute);
            };
            st.reach = Some(r);
            st.held = 0.0;
            st.approach = 0.0;
            let moving = nav.doors_moving(ctx);
            if st.through_doors && st.detour.is_none() && (!moving || nav.doors_coming(ctx)) {
                // Cut off by a shut door that something fires: off to fire it from here,
                // not from in front of it. While a door is on its way open or shut the way
                // may be about to change: then only to an opener whose way waits on a door
                // coming into place (the bridge a bot has just slid out: the way through
                // doors as if open heads off elsewhere meanwhile, for about half a second
                // each way).
                let avoid = st.avoid;
                let skip = |x: u32| avoid.iter().any(|a| a.is_some_and(|a| a.0 == x));
                if let Some(b) = nav.first_blocked(s.origin, goal_area, travel, skip) {
                    let step = if moving {
                        detour_past_coming(ctx, nav, st, s, b, travel, follow_route)
                    } else {
                        start_detour(ctx, nav, st, s, b, goal, travel, follow_route)
                    };
                    if let Some(step) = step {
                        return Err(step);
                    }
                }
            }
            Ok(r)
        }
    }
}

/// A door on the way is shut: off to fire what opens it, or to the reachability's start to
/// open it (shoot a secret door in sight) or wait for it.
pub(super) fn at_shut_door(
    ctx: &FollowCtx,
    nav: &mut NavQuery<'_>,
    st: &mut AreaNav,
    s: &PlayerState,
    leg: &Leg,
) -> Step {
    let Leg {
        mesh,
        goal,
        travel,
        r,
        reach,
        flat,
        ..
    } = *leg;
    let dt = ctx.dt;
    // Through a closed door that something fires (a button, a trigger): off to fire it
    // first, the quickest of them to get to.
    if st.detour.is_none()
        && let Some(step) = start_detour(ctx, nav, st, s, r, goal, travel, follow_route)
    {
        return step;
    }
    // Through a closed door: to its start, then open it (shoot a secret door in sight) or
    // wait for it. Braked onto the start from where running on would carry the bot past it:
    // coasting from full speed slides about 50 units, into the way a secret door swings
    // open (one pushed a bot into the corner behind it, where the way on needed the door
    // shut again).
    if flat > AT_DOOR && !(flat <= APPROACH && overshoots(ctx, s, reach.start)) {
        st.held += dt;
        return go(reach.start);
    }
    st.held += dt * WAIT_SHARE;
    let wait = if reach.kind == ReachKind::Elevator {
        onto_start(s, reach)
    } else {
        slowing(ctx, mesh, s, reach.start)
    };
    let (_, view) = crate::bot::routing::secret_door_on_the_way(ctx.map, ctx.doors, s, reach.end);
    match view {
        Some(v) => Step::Shoot(v, wait),
        None => Step::Cmd(wait),
    }
}
