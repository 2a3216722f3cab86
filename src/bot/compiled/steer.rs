//! Steering and look-ahead: how far along its route a bot can head straight over the
//! route's floors ([`lookahead`]), where it aims on the way ([`head_for`], [`head_to`]) and
//! whether it still keeps to the reachability it follows.

use crate::aas::run::APPROACH;
use crate::physics::pmove::STEP_SIZE;
use glam::Vec3;

use crate::aas::NavMesh;
use crate::map::EntId;
use crate::physics::pmove::{PLAYER_MAXS, PLAYER_MINS, PlayerState, UserCmd};

use super::cmd::yaw_to;
use super::ctx::FollowCtx;
use super::guard::{PAST, kept_on};
use super::query::{Answer, NavQuery};
use super::start::{SETTLE_RATE, steered};
use super::state::{AreaNav, Step};
use super::{ARRIVE, RUN_SPEED};
use crate::aas::run::{NEAR_LEVEL, STEP};
use crate::bot::movement::{MoveRequest, MoveTarget};

/// How far ahead along the route a walking bot looks for a point to head straight for.
pub(super) const LOOKAHEAD: f32 = 1200.0;

/// The most walks looked along.
pub(super) const LOOKAHEAD_WALKS: usize = 64;

/// How far above or below an area's floor (units) a look-ahead point still lies on it.
const ON_FLOOR: f32 = 20.0;

/// Within this distance across (units) of a steered reachability's start a bot counts as
/// near it ([`kept`]).
const NEAR_WALK_START: f32 = 24.0;

/// Whether a player could go straight from `a` to `b` over the floors of `areas`: every
/// 8 units along the way is over one of them, within a step of its floor.
pub(super) fn straight_over(mesh: &NavMesh, areas: &[u32], a: Vec3, b: Vec3) -> bool {
    let n = ((b - a).truncate().length() / 8.0).ceil().max(1.0) as u32;
    (1..=n).all(|i| {
        let p = a.lerp(b, i as f32 / n as f32);
        let Some((ix, iy)) = mesh.frame.cell_of(p.truncate()) else {
            return false;
        };
        areas.iter().any(|&id| {
            let ar = &mesh.areas()[id as usize];
            (ar.cell_min[0]..=ar.cell_max[0]).contains(&ix)
                && (ar.cell_min[1]..=ar.cell_max[1]).contains(&iy)
                && (p.z - ar.floor_z(p.truncate())).abs() <= ON_FLOOR
        })
    })
}

/// Whether a player could go straight from `a` to `b` over floor: every 8 units along the
/// way is over one of `areas` (as [`straight_over`]) or over a grounded area beside them
/// within a step of its floor, not a teleporter's nor one on or made by a mover that none
/// of `areas` is on or made by (a mover's floor is there only as the route found it).
pub(super) fn straight_over_floor(mesh: &NavMesh, areas: &[u32], a: Vec3, b: Vec3) -> bool {
    let all = mesh.areas();
    let shared = |ar: &crate::aas::Area| {
        (ar.mover.is_none() || areas.iter().any(|&r| all[r as usize].mover == ar.mover))
            && (ar.moved.is_none() || areas.iter().any(|&r| all[r as usize].moved == ar.moved))
    };
    let n = ((b - a).truncate().length() / 8.0).ceil().max(1.0) as u32;
    (1..=n).all(|i| {
        let p = a.lerp(b, i as f32 / n as f32);
        let Some((ix, iy)) = mesh.frame.cell_of(p.truncate()) else {
            return false;
        };
        straight_over(mesh, areas, p, p)
            || mesh.areas_in_cell(ix, iy).iter().any(|&id| {
                let ar = &all[id as usize];
                ar.flags.has(crate::aas::AreaFlags::GROUNDED)
                    && !ar.flags.has(crate::aas::AreaFlags::TELEPORTER)
                    && shared(ar)
                    && (p.z - ar.floor_z(p.truncate())).abs() <= ON_FLOOR
            })
    })
}

/// The walks ahead of a walking bot: how far along the route it looks before choosing
/// where to head ([`head_for`]).
pub(super) struct Ahead {
    /// Where the walks ahead end: the end of the last walk looked at, or the start of a
    /// reachability whose commands are played.
    pub(super) point: Vec3,
    /// `point` is a start to stop on.
    pub(super) stop: bool,
    /// The route's areas from the bot's to `point`'s.
    pub(super) areas: Vec<u32>,
    /// The walks from the bot's area to `point` (the first is `r`).
    pub(super) walks: Vec<u32>,
    /// The reachability whose start `point` is, when it is one to stop on.
    pub(super) next: Option<u32>,
}

/// The walks ahead of a walking bot at `origin` in `area` along the route, first
/// reachability `r`: up to the first whose end is more than [`LOOKAHEAD`] away, the goal
/// area, or the start of a reachability whose commands are played. The
/// bot heads along the shortest line through them ([`head_for`]): it cuts the corners of
/// a route through areas a few cells wide (stairs, curved rooms), which a bot at running
/// speed crosses in less than a tick, and of rooms cut into several areas.
pub(super) fn lookahead(
    nav: &NavQuery<'_>,
    hc: &Answer,
    st: &AreaNav,
    area: u32,
    r: u32,
    origin: Vec3,
) -> Option<Ahead> {
    let mesh = nav.mesh;
    let mut areas = vec![area];
    let mut walks = Vec::new();
    let mut end = None;
    let mut cur = r;
    for _ in 0..LOOKAHEAD_WALKS {
        let reach = &mesh.reaches()[cur as usize];
        let blocked = nav.doors.is_blocked(cur);
        let walk = steered(mesh, reach);
        if !walk || blocked || mesh.areas()[reach.to as usize].is_swim() {
            if walk && !blocked {
                // Into the water: the walks so far.
                break;
            }
            return Some(Ahead {
                point: reach.start,
                stop: true,
                areas,
                walks,
                next: Some(cur),
            });
        }
        areas.push(reach.to);
        walks.push(cur);
        end = Some(reach.end);
        if reach.to == hc.goal() || (reach.end - origin).truncate().length() > LOOKAHEAD {
            break;
        }
        let Some((_, next)) = nav.first_step(hc, reach.to, reach.end, |n| st.avoided(n)) else {
            break;
        };
        cur = next;
    }
    end.map(|point| Ahead {
        point,
        stop: false,
        areas,
        walks,
        next: None,
    })
}

/// Distance (units) within which a bot heading for a corner of its line turns for the
/// next one (more than the movement stage's arrival radius, about a tick and a half of
/// running).
pub(super) const TURN: f32 = 24.0;

/// Whether a bot in state `s`, just at the end of `reach`'s commands, is still climbing out
/// of the water onto the floor the reachability ends on: swimming at its end (within
/// [`CLIMB_OUT`] across, a step up or down). Whether it got there is judged once it stands
/// or swims away: judged while it is still in the water there, a swim out onto a ledge was
/// given up on as the bot was about to step out, then the other ways up, and the bot went
/// to and fro between two slime areas until it died.
pub(super) fn climbing_out(mesh: &NavMesh, reach: &crate::aas::Reach, s: &PlayerState) -> bool {
    s.on_ground.is_none()
        && s.water_level >= 2
        && !mesh.areas()[reach.to as usize].is_swim()
        && (s.origin - reach.end).truncate().length() <= CLIMB_OUT
        && (s.origin.z - reach.end.z).abs() <= STEP
}

/// How near its end (units across) a swimmer climbing out of the water is still on its way.
pub(super) const CLIMB_OUT: f32 = 24.0;

/// Whether reachability `r`, blocked by a mover that stands on its start, is to be chosen
/// again by a bot in `area`, not its own: near the start, it would be kept and waited at
/// until the mover goes. A secret door shot open from a walk beside it may move out over
/// the start of the walk the bot was on its way to; pushed into the area beside, the bot
/// stood at that start until the door shut again, where the way on from where it stood was
/// open. Kept from its own area and where the start is clear (a bot beside the fall into a
/// plat's shaft waits there, as it must, while the plat is up; choosing again there walked
/// it onto the plat, where it was crushed).
pub(super) fn taken_from_outside(ctx: &FollowCtx, nav: &NavQuery<'_>, r: u32, area: u32) -> bool {
    let reach = &nav.mesh.reaches()[r as usize];
    reach.from != area && nav.doors.is_blocked(r) && start_taken(ctx, nav.mesh, reach)
}

/// Whether a mover `reach` needs in another place stands where a player would stand on its
/// start (a secret door moved out over it).
pub(super) fn start_taken(ctx: &FollowCtx, mesh: &NavMesh, reach: &crate::aas::Reach) -> bool {
    use crate::aas::MoverNeed;
    reach.needs.iter().any(|n| {
        let id = match *n {
            MoverNeed::Open(m) | MoverNeed::Key(m) | MoverNeed::Down(m) | MoverNeed::Fired(m) => m,
            MoverNeed::Moved(p) => match mesh.positions.get(p as usize) {
                Some(p) => p.mover,
                None => return false,
            },
            _ => return false,
        };
        ctx.map
            .box_in_mover(EntId(id), reach.start, PLAYER_MINS, PLAYER_MAXS)
    })
}

/// Whether a bot at `origin` in `area` goes on following reachability `r`: not given up
/// on, and the bot still in its area or near its start (momentum carries a bot through
/// areas a few cells wide: choosing again in each would go round in circles). Near is on
/// the start's level: a bot that went over the ledge short of a walk-off's start and
/// landed below it is not near a start it cannot climb back to (it stood there until the
/// reachability was given up).
pub(super) fn kept(mesh: &NavMesh, st: &AreaNav, r: u32, area: u32, origin: Vec3) -> bool {
    let reach = &mesh.reaches()[r as usize];
    let near = (reach.start - origin).truncate().length()
        <= if steered(mesh, reach) {
            NEAR_WALK_START
        } else {
            APPROACH
        }
        && (reach.start.z - origin.z).abs() <= NEAR_LEVEL;
    !st.avoided(r) && (reach.from == area || (near && reach.to != area))
}

/// Where along the route's `areas` a bot at `origin` is: the index of the area it stands
/// in, or, in the air (running down stairs, over a drop), of the highest of them whose
/// cells it is over and whose floor it is above (less a step); 0 when neither.
pub(super) fn along(mesh: &NavMesh, areas: &[u32], origin: Vec3) -> usize {
    if let Some(k) = mesh
        .area_at(origin)
        .and_then(|here| areas.iter().rposition(|&x| x == here))
    {
        return k;
    }
    let Some((ix, iy)) = mesh.frame.cell_of(origin.truncate()) else {
        return 0;
    };
    areas
        .iter()
        .enumerate()
        .filter_map(|(k, &id)| {
            let ar = &mesh.areas()[id as usize];
            let z = ar.floor_z(origin.truncate());
            ((ar.cell_min[0]..=ar.cell_max[0]).contains(&ix)
                && (ar.cell_min[1]..=ar.cell_max[1]).contains(&iy)
                && origin.z >= z - STEP_SIZE)
                .then_some((z, k))
        })
        .max_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)))
        .map_or(0, |(_, k)| k)
}

/// How far ahead (units) a bot past every border it looked at heads on the last one's way.
pub(super) const LOOKAHEAD_STEP: f32 = 64.0;

/// How a bot heads for the point [`head_for`] gives.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Aim {
    /// As the movement stage steers to a point.
    Go,
    /// A reachability's start to stop on: slowing onto it within the movement stage's
    /// arrival radius (which would stand the bot short of it).
    Stop,
    /// A corner to round: at full speed however near (within the arrival radius the
    /// movement stage would stand the bot on it).
    Pass,
    /// A point round a corner the bot is already past: run straight at, at full speed,
    /// where the look ahead for drops allows (the movement stage would steer round what
    /// it reads as a wall across the way, off a narrow floor).
    Round,
}

/// Where a walking bot at `origin` heads along the walks ahead `a`: the first corner of
/// the shortest line through the borders they cross (the line a route's run time is
/// measured along, [`crate::aas::route::run_path`]) — the next one when it is within
/// [`TURN`] and the next is in a straight line over the route's floors — to the goal
/// point where the walks reach the goal area, else to the walks' end (past it unless it
/// is a start to stop on). The walks are taken from the one leaving the area the bot is
/// in, when that is one of them (a forecast of the bot's own motion moves it on).
pub(super) fn head_for(mesh: &NavMesh, origin: Vec3, a: &Ahead, goal: (Vec3, u32)) -> (Vec3, Aim) {
    let mut k = along(mesh, &a.areas, origin).min(a.walks.len());
    // Borders already crossed (the area lookup lags a bot running over narrow areas, or
    // in the air over stairs): pulling the line back to them would turn it round.
    while k < a.walks.len() {
        let w = &mesh.reaches()[a.walks[k] as usize];
        let (l, r) = crate::aas::route::border(mesh, w);
        let d = (w.end - w.start).truncate().normalize_or_zero();
        if (origin.truncate() - (l + r) * 0.5).dot(d) <= 0.0 {
            break;
        }
        k += 1;
    }
    let walks = &a.walks[k..];
    let into_goal = !a.stop
        && a.walks
            .last()
            .is_some_and(|&w| mesh.reaches()[w as usize].to == goal.1);
    let (end, stop) = if into_goal {
        (goal.0, true)
    } else {
        (a.point, a.stop)
    };
    if walks.is_empty()
        && !stop
        && let Some(&w) = a.walks.last()
    {
        // Past every border looked at, short of the goal: on the way the last walk goes
        // (its end is behind).
        let w = &mesh.reaches()[w as usize];
        let d = (w.end - w.start).truncate().normalize_or_zero();
        return (origin + (d * LOOKAHEAD_STEP).extend(0.0), Aim::Go);
    }
    let corners = crate::aas::route::corridor(mesh, origin, walks, end);
    let n = corners.len();
    let mut i = 0;
    if n > 1 && (corners[0] - origin).truncate().length() <= TURN {
        // At a corner: on to the next when it is in a straight line, else to a point
        // just round this one (heading for the corner itself from within the arrival
        // radius overshoots it, back and forth).
        let areas = &a.areas[k..];
        if straight_over(mesh, areas, origin, corners[1]) {
            i = 1;
        } else {
            let round = corners[0]
                + ((corners[1] - corners[0]).truncate().normalize_or_zero() * TURN).extend(0.0);
            if straight_over(mesh, areas, origin, round) {
                return (round, Aim::Pass);
            }
            // Past the corner along the way on, within the arrival radius, heading for the
            // corner turns the bot back (a bot a few units past the end of a border aimed
            // back at it, read the run as going off the far edge of the strip it was on,
            // braked, and so to and fro): round it where the line there is over floor, the
            // route's or beside it (the look ahead for drops still guards the way). Short
            // of the corner, or where the line crosses a drop, cutting inside it may lead
            // off the floor.
            let on = (corners[1] - corners[0]).truncate().normalize_or_zero();
            if (corners[0] - origin).truncate().length() <= ARRIVE
                && (origin - corners[0]).truncate().dot(on) >= 0.0
                && straight_over_floor(mesh, areas, origin, round)
            {
                return (round, Aim::Round);
            }
        }
    }
    if i + 1 < n {
        return (corners[i], Aim::Pass);
    }
    if stop {
        return (end, if into_goal { Aim::Go } else { Aim::Stop });
    }
    let before = if n >= 2 { corners[n - 2] } else { origin };
    (past(end, before), Aim::Go)
}

/// Heading for `p` as `aim` says: through the movement stage beyond its arrival radius;
/// within it, slowing onto a start to stop on or running on round a corner (and in the
/// air, wishing toward it, which the movement stage would not once arrived).
pub(super) fn head_to(
    ctx: &FollowCtx,
    mesh: &NavMesh,
    s: &PlayerState,
    p: Vec3,
    aim: Aim,
    areas: &[u32],
) -> Step {
    let flat = (p - s.origin).truncate().length();
    let air = s.on_ground.is_none() && s.water_level < 2;
    if (aim != Aim::Go || air) && flat <= ARRIVE || aim == Aim::Round {
        // In the air, wishing toward the point is what brakes the motion away from it.
        let c = UserCmd {
            forward_move: if aim == Aim::Stop && !air {
                (flat * SETTLE_RATE).min(RUN_SPEED)
            } else {
                RUN_SPEED
            },
            yaw: yaw_to(s.origin, p),
            pitch: s.pitch,
            ..Default::default()
        };
        return Step::Cmd(kept_on(ctx, mesh, s, c, areas));
    }
    Step::Go(MoveRequest {
        target: MoveTarget::Point(p),
        speed: RUN_SPEED,
        known: true,
        wade: false,
        to_target: true,
    })
}

/// A point up to [`PAST`] units beyond walk `r`'s end, along the walk, still over the
/// area it ends in (the end itself would be "arrived at" short of the border; a point off
/// a narrow strip would lead off it). Heading for a point rather than a direction keeps the
/// movement stage's look for gaps to the way there: a walk along a ledge is not refused
/// for the drop beside it.
pub(super) fn past(p: Vec3, from: Vec3) -> Vec3 {
    let d = (p - from).truncate();
    if d.length() < 0.5 {
        return p;
    }
    p + (d.normalize() * PAST).extend(0.0)
}
