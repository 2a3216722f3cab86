//! Following a route: each tick, the command that takes a compiled bot along the first
//! reachability of its route ([`follow`]), with waits for the movers it needs.

use std::sync::Arc;

use glam::{Vec2, Vec3};

use crate::aas::route::{Travel, border, cross, nearest_on};
use crate::aas::{MoverNeed, NavMesh, ReachKind};
use crate::map::{CollisionMap, EntId};
use crate::physics::movers::Phase;
use crate::physics::pmove::{PLAYER_MAXS, PLAYER_MINS, PhysicsParams, PlayerState, UserCmd};

use super::detour::{SWIM_OUT_EXTRA, detour, detour_past_coming, start_detour};
use super::fit::{NEAR_LEVEL, PAST_START, command_at, fit, fit_on_the_run, landed_below, run_in};
use super::guard::{guard, kept_on, moving, over_floor, turned};
use super::query::{Answer, CompiledNav};
use super::start::{
    READY_DISTANCE, READY_SPEED, ROUND_ACROSS, ROUND_NEAR, behind_start, brake, fall_heading,
    onto_start, overshoots, settled_onto, slowing, stand, steered, stop_below, yaw_to,
};
use super::state::{AreaNav, Detour, Step};
use super::steer::{
    ARRIVE, Ahead, Aim, climbing_out, head_for, head_to, kept, lookahead, past, straight_over,
    taken_from_outside,
};
use super::{APPROACH, APPROACH_SECONDS};
use crate::bot::movement::{MoveRequest, MoveTarget};

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
    nav: &CompiledNav,
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

/// The route's reachability after `reach` where it is a fall off a ledge that needs no
/// mover, starts within [`PAST_START`] of the bot on its level, and lands as [`fit`] asks
/// from the bot's state as it is: (that fall, its turn).
pub(super) fn fall_from_here(
    ctx: &FollowCtx,
    nav: &mut CompiledNav,
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
    let mesh = &*nav.mesh;
    let fall = &mesh.reaches()[next as usize];
    let off = fall.start - s.origin;
    if fall.kind != ReachKind::WalkOffLedge
        || !fall.needs.is_empty()
        || off.truncate().length() > PAST_START
        || off.z.abs() > NEAR_LEVEL
    {
        return None;
    }
    fit(ctx, mesh, fall, s).map(|turn| (next, turn))
}

/// What following a route reads of the world besides the bot.
pub struct FollowCtx<'a> {
    /// The geometry as it is this tick (a run's fit is tried on it).
    pub map: &'a CollisionMap,
    /// Movement constants.
    pub physics: PhysicsParams,
    /// Tick length, seconds.
    pub dt: f32,
    /// The bot's own body (traces ignore it).
    pub me: Option<EntId>,
    /// The state of the mover with a given id.
    pub mover: &'a dyn Fn(u32) -> Option<crate::physics::movers::MoverState>,
    /// Whether the door with a given id stands open.
    pub door_open: &'a dyn Fn(u32) -> bool,
    /// The shootable movers as they stand (the doors among them are shot open on the way).
    pub doors: &'a [crate::bot::explore::ShootableView],
    /// The movers' ids by index in the level's movers.
    pub mover_ids: &'a [u32],
}

/// One tick of following the route to `goal` for a bot in state `s` (pure but for the
/// goal searches it asks of `nav`): [`follow_route`], then, just after a reachability's
/// commands were played (a jump, a fall, a teleport, a lift), braking while the bot moves
/// fast in another direction than the route's next one — it landed at speed, often on a
/// ledge whose way on turns, and would slide off.
pub fn follow(
    ctx: &FollowCtx,
    nav: &mut CompiledNav,
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
            detoured = detour(ctx, nav, st, s, d, travel);
            if detoured.is_none() {
                st.detour = None;
            }
        }
    }
    // A detour's runs land like the route's: the same settling after them (steering on in
    // the air toward the opener, a bot that jumped onto e1m1's ledge at (13, 2909) on
    // the way to shoot the trigger that opens the door at (-312, 2912) came down beside
    // it, into the water below).
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

/// Where a swimmer at `origin` crosses swim reachability `reach` (start, end): between two
/// swim areas side by side, at the point of their shared border nearest it, at its depth
/// kept within both areas' spans, the run shifted there and level (the reachability was measured at
/// one place on the border; crossing anywhere along it is as good, and a swimmer that
/// drifted into a narrow column beside the one it followed was sent back 100 units along
/// it to that place, e1m1's channel at (920, 600)). Other reachabilities as recorded.
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
    // taken for being back in the area behind it (e1m1's channel at (548, 1195), turned
    // back for a crossing it had made).
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
        speed: 320.0,
        known: false,
        wade: false,
        to_target: true,
    })
}

/// Speed (u/s) under which a bot that has just landed from a reachability's run goes on
/// without braking.
pub(super) const SETTLE_SPEED: f32 = 120.0;

/// [`follow`] without the braking after a run.
pub(super) fn follow_route(
    ctx: &FollowCtx,
    nav: &mut CompiledNav,
    st: &mut AreaNav,
    s: &PlayerState,
    goal: Vec3,
    travel: Travel,
) -> Step {
    let dt = ctx.dt;
    let go = |p: Vec3| {
        Step::Go(MoveRequest {
            target: MoveTarget::Point(p),
            speed: 320.0,
            known: false,
            wade: false,
            to_target: true,
        })
    };
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
    let mesh = Arc::clone(&nav.mesh);
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
    // Playing a reachability's commands: on to the end of them.
    if let (Some(r), Some(k)) = (st.reach, st.played) {
        let reach = &mesh.reaches()[r as usize];
        let (lead, lead_yaw) = st.lead.unwrap_or((0, 0.0));
        if k < lead {
            st.played = Some(k + 1);
            return Step::Cmd(run_in(lead_yaw, s.pitch));
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
                                && (s.origin - reach.end).truncate().length() <= 48.0
                                && (s.origin.z - reach.end.z).abs() <= 24.0)
                            || (reach.kind == ReachKind::WalkOffLedge
                                && s.on_ground.is_some()
                                && landed_below(&mesh, reach, s.origin, a))
                    })
            };
        if k == lead + 1 && !there && carrier_waits(&mesh, reach, ctx) {
            // On a door or plat that will carry it but still waits where it stands (a door
            // fired open waits its `wait` before it goes back): the ride's commands start
            // when it moves, as they were measured.
            return Step::Cmd(turned(
                reach.commands.first().map(|c| c.cmd).unwrap_or_default(),
                st.turn,
            ));
        }
        let mut left = k - lead + st.skip;
        for run in reach.commands.iter().filter(|_| !there) {
            if left < run.ticks {
                st.played = Some(k + 1);
                return Step::Cmd(turned(run.cmd, st.turn));
            }
            left -= run.ticks;
        }
        if !there
            && reach.kind == ReachKind::Swim
            && s.on_ground.is_none()
            && left < SWIM_OUT_EXTRA
            && let Some(last) = reach.commands.last()
        {
            // A swim out of the water still in it when its commands end (come at from
            // other than where it was measured, higher or lower in the water) keeps on at
            // it a little: e1m1's out of the slime under the bridge at (140, 2876) ended 5
            // units short of its end, and the bot swam back to its start to try again.
            st.played = Some(k + 1);
            return Step::Cmd(turned(last.cmd, st.turn));
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
            if !steered(&mesh, reach) {
                return go(reach.start);
            }
            if let Some(ahead) = lookahead(nav, &hc, st, a, r, s.origin) {
                let (p, aim) = head_for(&mesh, s.origin, &ahead, (goal, goal_area));
                return head_to(ctx, &mesh, s, p, aim, &ahead.areas);
            }
        }
        let to = st
            .reach
            .map(|r| mesh.reaches()[r as usize].end)
            .unwrap_or(goal);
        return go(to);
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
    // Keep the reachability being followed (see [`kept`]); otherwise the quickest way on
    // from here.
    // A reachability whose start a mover stands on (see [`start_taken`]) is kept only from
    // its own area.
    let keep = st
        .reach
        .filter(|&r| kept(&mesh, st, r, area, s.origin) && !taken_from_outside(ctx, nav, r, area));
    let r = match keep {
        Some(r) => r,
        None => {
            let avoid = st.avoid;
            let was = st.reach.filter(|&r| !st.avoided(r));
            let first = |nav: &CompiledNav, a: &Answer| {
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
            st.through_doors = found.is_none() && nav.blocked_count > 0;
            if st.through_doors {
                // Cut off by closed doors: the way through them.
                let a = nav.goal_through_doors(goal_area, travel);
                found = first(nav, &a);
            }
            let Some(r) = found else {
                st.reach = None;
                return Step::NoRoute;
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
                // doors as if open heads off elsewhere meanwhile, e1m1's toward the door
                // the trigger shot from the bridge opens, ~0.5 s each way).
                let avoid = st.avoid;
                let skip = |x: u32| avoid.iter().any(|a| a.is_some_and(|a| a.0 == x));
                if let Some(b) = nav.first_blocked(s.origin, goal_area, travel, skip) {
                    let step = if moving {
                        detour_past_coming(ctx, nav, st, s, b, travel)
                    } else {
                        start_detour(ctx, nav, st, s, b, goal, travel)
                    };
                    if let Some(step) = step {
                        return step;
                    }
                }
            }
            r
        }
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
    if nav.is_blocked(r) {
        // Through a closed door that something fires (a button, a trigger): off to fire it
        // first, the quickest of them to get to.
        if st.detour.is_none()
            && let Some(step) = start_detour(ctx, nav, st, s, r, goal, travel)
        {
            return step;
        }
        // Through a closed door: to its start, then open it (shoot a secret door in
        // sight) or wait for it. Braked onto the start from where running on would carry
        // the bot past it: coasting from full speed slides about 50 units, into the way a
        // secret door swings open (e1m1's at (1112, 1024) pushed a bot into the corner
        // behind it, where the way on needed the door shut again: 10 s of waiting).
        if flat > 24.0 && !(flat <= APPROACH && overshoots(ctx, s, reach.start)) {
            st.held += dt;
            return go(reach.start);
        }
        st.held += dt * 0.25;
        let wait = if reach.kind == ReachKind::Elevator {
            onto_start(s, reach)
        } else {
            slowing(ctx, &mesh, s, reach.start)
        };
        let (_, view) =
            crate::bot::routing::secret_door_on_the_way(ctx.map, ctx.doors, s, reach.end);
        return match view {
            Some(v) => Step::Shoot(v, wait),
            None => Step::Cmd(wait),
        };
    }
    match reach.kind {
        _ if steered(&mesh, reach) => {
            st.held += dt;
            if !swimming {
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
                    && straight_over(&mesh, areas, s.origin, *point)
                    && kept(&mesh, st, *next, area, s.origin)
                    && !taken_from_outside(ctx, nav, *next, area)
                {
                    st.reach = Some(*next);
                    st.held = 0.0;
                    st.approach = 0.0;
                    return follow_route(ctx, nav, st, s, goal, travel);
                }
                // Down stairs toward a start to stop on, fast enough to fly past it: slowed
                // while still on the floor (dm6's teleporter at the foot of the stairs at
                // (284, -1948), run past and come back to on every tour).
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
                        &mesh,
                        s,
                        *point,
                        fall_heading(&mesh, *next),
                        (areas, walks),
                    )
                {
                    return Step::Cmd(c);
                }
                let aim = |o: Vec3| match &ahead {
                    Some(a) => head_for(&mesh, o, a, (goal, goal_area)),
                    None if flat <= 16.0 => (past(reach.end, reach.start), Aim::Go),
                    None => (reach.start, Aim::Go),
                };
                let areas = match &ahead {
                    Some(a) => &a.areas[..],
                    None => &[area, reach.to][..],
                };
                return match guard(ctx, &mesh, s, |o| aim(o).0, areas) {
                    Some(c) if c.forward_move == 0.0 && !moving(s) => {
                        // Standing is all the line allows, and it is not moving: along the
                        // walk as it was measured, where that keeps to the floor. e1m1's
                        // step up at (736, 2204) onto a 16-unit ramp north is a step high
                        // only at its south end: the line's corner and the point round it
                        // both lay north-east, where the riser is higher, and a bot stood
                        // before it for good.
                        let yaw = yaw_to(s.origin, past(reach.end, reach.start));
                        let along = [320.0, 160.0, 80.0, 40.0]
                            .into_iter()
                            .map(|v| UserCmd {
                                forward_move: v,
                                yaw,
                                pitch: s.pitch,
                                ..Default::default()
                            })
                            .find(|&w| kept_on(ctx, &mesh, s, w, areas) == w);
                        Step::Cmd(along.unwrap_or(c))
                    }
                    Some(c) => Step::Cmd(c),
                    None => {
                        let (p, stop) = aim(s.origin);
                        // Nearly at a stand on the floor short of where it heads: the movement
                        // stage stood it before a wall it reads across the way (a corner the
                        // line clips, e1m1's secret door at (1112, 1024) standing open), and
                        // would again; run straight at the point, the physics slides it along.
                        if s.on_ground.is_some()
                            && s.velocity.truncate().length() < READY_SPEED
                            && (p - s.origin).truncate().length() > ARRIVE
                        {
                            let c = run_in(yaw_to(s.origin, p), s.pitch);
                            return Step::Cmd(kept_on(ctx, &mesh, s, c, areas));
                        }
                        head_to(ctx, &mesh, s, p, stop, areas)
                    }
                };
            }
            let (start, end) = swim_crossing(&mesh, reach, s.origin);
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
        _ => {
            if let Some(p) = plat_wait(ctx, nav, &mesh, reach) {
                // A plat the reachability needs down is not: waited for off its trigger,
                // which would hold it up (standing on it at the top, or under it).
                st.held += dt * 0.25;
                return if (p - s.origin).truncate().length() > READY_DISTANCE {
                    go(p)
                } else {
                    Step::Cmd(brake(s))
                };
            }
            // A hop (onto a lip) whose next is a fall that lands from where the bot is
            // already: the fall now (dm6's lip at (700, -1044): come down beside it, the
            // bot hopped up, walked back to the fall's start and walked off from a stand).
            if !swimming
                && s.on_ground.is_some()
                && reach.kind.played()
                && let Some((next, turn)) =
                    fall_from_here(ctx, nav, st, reach, s, goal_area, travel)
            {
                st.reach = Some(next);
                st.held = 0.0;
                st.approach = 0.0;
                st.turn = turn;
                st.lead = None;
                st.skip = 0;
                st.played = Some(1);
                return Step::Cmd(turned(command_at(&mesh.reaches()[next as usize], 0), turn));
            }
            let speed = s.velocity.truncate().length();
            if let Some((b, false)) = st.backup
                && b == r
                && !swimming
            {
                st.held += dt;
                let p = behind_start(ctx, &mesh, reach).unwrap_or(s.origin);
                if (p - s.origin).truncate().length() > ARRIVE && st.approach < APPROACH_SECONDS {
                    st.approach += dt;
                    return go(p);
                }
                // Backed off: run in (the fit on the run below takes it from here).
                st.backup = Some((r, true));
                st.approach = 0.0;
                return Step::Cmd(run_in(yaw_to(s.origin, reach.start), s.pitch));
            }
            if swimming {
                st.held += dt;
                if to_start.length() > 16.0 {
                    return swim_to(s, reach.start);
                }
            } else if flat > APPROACH {
                st.held += dt;
                return go(reach.start);
            }
            // On the run: near the start, a jump or fall that lands from the bot's state as
            // it is (moving), run in to the start first, is played without stopping — a
            // stand on the start costs the braking and the run-up again.
            if !swimming
                && reach.needs.is_empty()
                && (reach.kind.played() || reach.kind == ReachKind::Teleport)
                && speed > READY_SPEED
                && let Some((lead, turn, skip, ..)) =
                    fit_on_the_run(ctx, &mesh, &nav.teleporters, reach, s)
            {
                st.turn = turn;
                st.lead = (lead.0 > 0).then_some(lead);
                st.skip = skip;
                st.played = Some(1);
                return Step::Cmd(if lead.0 > 0 {
                    run_in(lead.1, s.pitch)
                } else {
                    turned(command_at(reach, skip), turn)
                });
            }
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
                && settled_onto(ctx, &mesh, s, reach.start)
                    .is_none_or(|stood| fit(ctx, &mesh, reach, &stood).is_none())
                && let Some(p) = behind_start(ctx, &mesh, reach)
            {
                // At a jump's start coming across its way, fast, where the stand that
                // slowing onto it ends in would not fit it either: round to behind the
                // start at once and run in along it, not a stand on the start first
                // (e1m1's barrier jumps up to the ledges at (1148, 2420) and (804, 2172),
                // reached across their way: the first super shotgun's legs within 10 %
                // 15 -> 38 of 39).
                st.held += dt;
                st.backup = Some((r, false));
                st.approach = 0.0;
                return go(p);
            }
            // Down a slope onto the start, too fast to stop on it by slowing (e1m1's barrier
            // jump up to the ridge at (788, 2108), come at running down the sloped hall).
            if !swimming
                && s.on_ground.is_some()
                && let Some(c) = stop_below(
                    ctx,
                    &mesh,
                    s,
                    reach.start,
                    fall_heading(&mesh, Some(r)),
                    (&[], &[]),
                )
            {
                st.held += dt;
                st.approach += dt;
                return Step::Cmd(c);
            }
            if !swimming
                && (flat > READY_DISTANCE || speed > READY_SPEED)
                && st.approach < APPROACH_SECONDS
            {
                // Slow to a stand on the start: toward it, the wished speed falls with the
                // distance left (about what ground friction takes off; wishing toward the
                // start brakes hard after an overshoot); across the way to it, the wish is
                // against the speed the bot has, so motion sideways from the way it came is
                // braked, not circled round the start while friction takes it off.
                st.held += dt;
                st.approach += dt;
                return Step::Cmd(slowing(ctx, &mesh, s, reach.start));
            }
            if !movers_ready(&mesh, &reach.needs, ctx) {
                // Waiting for the lift or door counts against the reachability at a quarter
                // of the time (a door that never opens is given up on in the end).
                st.held += dt * 0.25;
                return Step::Cmd(onto_start(s, reach));
            }
            // The commands were verified from the start exactly; from where the bot stands
            // they are tried first as they are, then turned a little, and played the first
            // way that gets there (kinds that ride movers or teleport are played as they
            // are: their runs depend on more than the geometry).
            st.turn = 0.0;
            if reach.kind.played() {
                match fit(ctx, &mesh, reach, s) {
                    Some(turn) => st.turn = turn,
                    None if flat > 1.0 && st.approach < APPROACH_SECONDS => {
                        // Nearer the start may do.
                        st.held += dt;
                        st.approach += dt;
                        let nearer = UserCmd {
                            forward_move: (flat * 6.0).clamp(30.0, 320.0),
                            yaw: yaw_to(s.origin, reach.start),
                            pitch: s.pitch,
                            ..Default::default()
                        };
                        return Step::Cmd(kept_on(ctx, &mesh, s, nearer, &[]));
                    }
                    None => {
                        if matches!(reach.kind, ReachKind::Jump | ReachKind::BarrierJump)
                            && st.backup.is_none_or(|b| b.0 != r)
                            && let Some(p) = behind_start(ctx, &mesh, reach)
                        {
                            // From a stand it falls short: back off and run in (the
                            // run's fit on the run finds where to jump).
                            st.backup = Some((r, false));
                            st.approach = 0.0;
                            return go(p);
                        }
                        st.avoid(r);
                        st.reach = None;
                        return go(s.origin);
                    }
                }
            }
            st.played = Some(1);
            st.lead = None;
            st.skip = 0;
            Step::Cmd(turned(
                reach.commands.first().map(|c| c.cmd).unwrap_or_default(),
                st.turn,
            ))
        }
    }
}
