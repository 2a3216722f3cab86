//! The time model of a route as a runner takes it: the walks between reachabilities with
//! the turns and the braking they cost, swims, and the runs taken on the run
//! ([`run_path`], [`OnTheRun`]).

use glam::Vec3;

use super::cross;
use super::path::{corridor, floor_walk};
use crate::aas::mesh::{NavMesh, Reach, ReachKind};
use crate::physics::pmove::PhysicsParams;

/// Seconds a runner at full speed loses turning its way by the angle θ between `from` and
/// `to` (directions): measured with the player physics on a flat floor, running at 320
/// u/s toward a point far off in the new direction (the time to get 640 units along it,
/// against 2 s), which `0.117 ((1 − cos θ) / 2)²` follows within 5 ms: nothing to speak of
/// up to 60°, 29 ms at 90°, 117 ms at 180°. Faster than full speed (a player come off a
/// landing or a corner at speed) a turn costs in proportion to the speed, as measured the
/// same way: at 180° 130 ms from 360 u/s, 147 from 400, 161 from 450 (the route's runner
/// scales it so, [`run_path_timed`]).
pub fn turn_seconds(from: glam::Vec2, to: glam::Vec2) -> f32 {
    REVERSAL_SECONDS * turn_share(from, to)
}

/// `((1 − cos θ) / 2)²` for the angle θ between `from` and `to` (0 where either is zero):
/// the share of a reversal's cost a running turn by θ costs.
pub(super) fn turn_share(from: glam::Vec2, to: glam::Vec2) -> f32 {
    let half = half_turn(from, to);
    half * half
}

/// `(1 − cos θ) / 2` for the angle θ between `from` and `to` (0 where either is zero): 0
/// going on straight, ½ at right angles, 1 turning back.
pub(super) fn half_turn(from: glam::Vec2, to: glam::Vec2) -> f32 {
    let (a, b) = (from.normalize_or_zero(), to.normalize_or_zero());
    if a == glam::Vec2::ZERO || b == glam::Vec2::ZERO {
        return 0.0;
    }
    (1.0 - a.dot(b).clamp(-1.0, 1.0)) * 0.5
}

/// Seconds a reversal at full speed costs (see [`turn_seconds`]).
pub(super) const REVERSAL_SECONDS: f32 = 0.117;

/// Seconds a runner loses coming at a jump or fall (its commands recorded from a stand,
/// their way) going the opposite way, as a share of it by [`half_turn`] for other angles:
/// it cannot take the run on its way in, so it slows to a stand on the start before it.
/// Only for runs an [`OnTheRun`] does not take on the way in, where one is given. The share
/// is the half turn, not a running turn's square of it: a stand costs the braking whichever
/// way the run goes from it. Chosen on the compiled item tours (docs/tuning.md).
pub(super) const RUN_REVERSAL_SECONDS: f32 = 0.45;

/// How far back from a run's start the way a runner brakes onto it is taken
/// ([`RUN_REVERSAL_SECONDS`]): the corridor often ends a few units short of the start with
/// a corner the bot does not turn, which would count its stand as a reversal it never makes
/// (docs/tuning.md).
pub(super) const BRAKE_UNITS: f32 = 16.0;

/// Seconds a runner starting from a stand loses to getting up to speed (measured as
/// [`turn_seconds`] is).
pub const START_SECONDS: f32 = 0.03;

/// A route as a runner takes it, from `from` (moving at `velocity`) to `to` over
/// `reaches`: each run of floor walks is the shortest line through the borders they cross
/// (the movement stage cuts corners the same way, over the route's own floors), at
/// running speed, with the time a turn costs at each corner ([`turn_seconds`]; getting up
/// to speed from a stand, [`START_SECONDS`]); every other reachability takes its measured
/// time from its start to its end (from a stand; a jump or fall come at across its way
/// adds a stand on its start, [`RUN_REVERSAL_SECONDS`]; [`run_path_timed`] may be told how
/// the physics takes it on the run instead), and the straight run (or swim)
/// from where the last one ended to its start is added as the search adds it. Returns the
/// seconds, the path's points and the index of the one the last run (to `to`) starts from.
pub fn run_path(
    mesh: &NavMesh,
    from: Vec3,
    velocity: Vec3,
    to: Vec3,
    reaches: &[u32],
) -> (f32, Vec<Vec3>, usize) {
    run_path_timed(mesh, from, velocity, to, reaches, |_, t| t, None)
}

/// What a route's runner asks of the player physics (the area graph alone cannot tell): for a
/// jump or fall `r` come at by a runner at `from` ([`ON_THE_RUN_BACK`] or less short of its
/// start, along the way there) running at full speed along `heading`, the seconds from
/// `from` until it lands where it takes the run on its way in, without a stand on the start,
/// and its origin on each tick until then (the last where it lands: on the run, often
/// further along than the recorded end); `None` where it would not.
pub type OnTheRun<'a> = &'a dyn Fn(u32, Vec3, glam::Vec2) -> Option<(f32, Vec<Vec3>)>;

/// How far short of a run's start (units along the way there) the runner is put to ask
/// [`OnTheRun`]: about where a compiled bot starts trying a run on the run (it slows onto
/// the start from 80 units; a hair inside that, or rounding puts it beyond).
pub const ON_THE_RUN_BACK: f32 = 78.0;

/// The point `units` back along the polyline `points` from its last point (or its first,
/// where it is shorter), and the length back to it.
pub(super) fn behind_on(points: &[Vec3], units: f32) -> (Vec3, f32) {
    let Some(&last) = points.last() else {
        return (Vec3::ZERO, 0.0);
    };
    let (mut p, mut len) = (last, 0.0);
    for &q in points.iter().rev().skip(1) {
        let d = (p - q).length();
        if len + d >= units {
            return (p + (q - p) * ((units - len) / d.max(1e-3)), units);
        }
        len += d;
        p = q;
    }
    (p, len)
}

/// A reachability's time for a runner on its way: its recorded time, but for a swim from
/// water to water, the swim across as [`cross`] times it (at swimming speed): the recorded
/// one starts from still water, and a chain of them across a pool counted that start in
/// each (over a chain of pools, seconds too many).
pub(super) fn swum(mesh: &NavMesh, r: &Reach) -> f32 {
    let areas = mesh.areas();
    if r.kind == ReachKind::Swim
        && areas[r.from as usize].is_swim()
        && areas[r.to as usize].is_swim()
    {
        cross(mesh, r.from, r.start, r.end)
    } else {
        r.seconds
    }
}

/// [`run_path`] where a reachability may have to wait: `ready(r, t)` is the time (seconds
/// from the start) at which reachability `r`, got to at `t`, can be taken (a door it needs
/// opens then, or the lift it rides leaves then). A walk that waits ends the run before it
/// (the runner stands at its start until then). `on_the_run`: see [`OnTheRun`] ([`run_path`]
/// has none: the area graph alone cannot tell).
pub fn run_path_timed(
    mesh: &NavMesh,
    from: Vec3,
    velocity: Vec3,
    to: Vec3,
    reaches: &[u32],
    ready: impl Fn(u32, f32) -> f32,
    on_the_run: Option<OnTheRun>,
) -> (f32, Vec<Vec3>, usize) {
    let speed = PhysicsParams::default().max_speed;
    // The way the runner is going where the path goes on (`None`: standing), its length the
    // runner's speed as a share of full speed (1 but at the start, where a player may be
    // going faster: a turn from there costs the more, see [`turn_seconds`]).
    let mut heading =
        (velocity.truncate().length() > 0.25 * speed).then(|| velocity.truncate() / speed);
    let mut seconds = 0.0;
    // The run from `at` (in `area`) through the borders of `walks` to `q`.
    let run_to = |q: Vec3,
                  at: Vec3,
                  area: Option<u32>,
                  walks: &[u32],
                  path: &mut Vec<Vec3>,
                  heading: &mut Option<glam::Vec2>| {
        // A run taken on the run may land past the first walks after it: on from there.
        let from_area = |a: u32| {
            let reach = |w: &u32| &mesh.reaches()[*w as usize];
            match walks.iter().position(|w| reach(w).from == a) {
                Some(k) => &walks[k..],
                None => match walks.iter().position(|w| reach(w).to == a) {
                    Some(k) => &walks[k + 1..],
                    None => walks,
                },
            }
        };
        let walks = area.map_or(walks, from_area);
        let corners = if walks.is_empty() {
            vec![q]
        } else {
            corridor(mesh, at, walks, q)
        };
        let mut last = at;
        let mut t = 0.0;
        for c in corners {
            let leg = (c - last).truncate();
            if leg.length() > 1.0 {
                t += match *heading {
                    Some(h) => turn_seconds(h, leg) * h.length().max(1.0),
                    None => START_SECONDS,
                };
                *heading = Some(leg.normalize());
            }
            t += match (walks.is_empty(), area) {
                (true, Some(a)) => cross(mesh, a, last, c),
                _ => leg.length() / speed,
            };
            last = c;
            path.push(c);
        }
        t
    };
    let mut path = vec![from];
    let (mut at, mut area) = (from, mesh.area_at(from));
    let mut walks: Vec<u32> = Vec::new();
    // Where in `path` the run from `at` begins, and the last reachability's way.
    let (mut run_from, mut flight_from) = (0, 0);
    for &i in reaches {
        let r = &mesh.reaches()[i as usize];
        if floor_walk(mesh, r) {
            if !r.needs.is_empty() {
                // Through a door: on time (the run goes on through the border), or standing
                // at the walk's start until it opens.
                let (mut p, mut h) = (path.clone(), heading);
                let t = seconds + run_to(r.start, at, area, &walks, &mut p, &mut h);
                let open = ready(i, t);
                if open > t {
                    (seconds, path) = (open, p);
                    walks.clear();
                    (at, area) = (r.start, Some(r.from));
                    heading = None;
                    run_from = path.len() - 1;
                    flight_from = run_from;
                }
            }
            walks.push(i);
            continue;
        }
        let mut leg = run_to(r.start, at, area, &walks, &mut path, &mut heading);
        let mut took = swum(mesh, r);
        // The way a run taken on the run goes, tick by tick.
        let mut flight = Vec::new();
        if let (Some(h), Some(c)) = (heading, r.commands.first())
            && r.kind.played()
        {
            // The runner where it is up to `back` units short of the start (on this run's
            // way), going toward the start from there.
            let (back, back_len) = behind_on(&path[run_from..], ON_THE_RUN_BACK);
            let d = (r.start - back).truncate();
            let fitted = on_the_run.and_then(|f| f(i, back, if d.length() > 1.0 { d } else { h }));
            match fitted {
                Some((t, way)) if !way.is_empty() => {
                    took = (t - back_len / speed).max(0.0);
                    // From where it passes the start (the run in to it is in the path).
                    let past = way
                        .iter()
                        .position(|p| (*p - r.start).truncate().dot(d) >= 0.0)
                        .unwrap_or(way.len() - 1);
                    flight = way[past..].to_vec();
                }
                _ => {
                    // Come at a run recorded from a stand across its way: a stand on its
                    // start, braked along the way the runner comes at it over the last
                    // [`BRAKE_UNITS`] (not the last corner's: see there).
                    let way = glam::Vec2::from_angle(c.cmd.yaw.to_radians());
                    let (near, _) = behind_on(&path[run_from..], BRAKE_UNITS);
                    let into = match (r.start - near).truncate() {
                        n if n.length() > 1.0 => n,
                        _ => h,
                    };
                    leg += RUN_REVERSAL_SECONDS * half_turn(into, way);
                }
            }
        }
        let open = ready(i, seconds + leg);
        if open > seconds + leg {
            seconds = open + took;
        } else {
            seconds += leg + took;
        }
        walks.clear();
        // (A run's way is in the path for where the runner first touches an item.)
        flight_from = path.len();
        if let Some(&landed) = flight.last() {
            path.extend_from_slice(&flight[..flight.len() - 1]);
            (at, area) = (landed, mesh.area_at(landed).or(Some(r.to)));
        } else {
            (at, area) = (r.end, Some(r.to));
        }
        path.push(at);
        run_from = path.len() - 1;
        // Where a run or a ride comes down the runner is going its way; a teleporter sends
        // it the destination's way, which the reachability does not record.
        heading = (r.kind != ReachKind::Teleport).then(|| {
            match path.len() - flight_from {
                n if n >= 2 => (path[path.len() - 1] - path[path.len() - 2]).truncate(),
                _ => (r.end - r.start).truncate(),
            }
            .normalize_or_zero()
        });
    }
    let last_run = flight_from;
    seconds += run_to(to, at, area, &walks, &mut path, &mut heading);
    (seconds, path, last_run)
}
