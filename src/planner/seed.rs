//! The area graph's route as the search's first solution (reference 004's future work):
//! with a compiled navigation measured at the plan's step, the player runs from the start
//! along the graph's quickest route to the goal — to each reachability's start (slowing to
//! stand there for a run the compiler measured from a stand), then the commands the
//! compiler recorded for it — and, in the goal's area, straight at the goal. Each run
//! wishes against the drift the last one left ([`steer`]), and a player thrown out over no
//! area (a teleporter's exit high above its floor) falls until one is under it. Each
//! reachability is chosen from where the player is when it is due, so a run that lands
//! beside its end goes on from there, and a run at a walk's start that crosses the border
//! elsewhere (or a teleporter met before its centre, or a fall off the ledge beside a
//! jump's start) goes on from the area it came to. Where the branch reaches the goal the
//! search starts with a solution and looks only for a quicker one; its states while it
//! kept to the graph's schedule ([`SCHEDULE`]) start the tree, where a run fails (a mover
//! not there, a landing missed) as where it arrives late. Every state is a step of the
//! physics, as any other node.

use glam::{Vec2, Vec3};

use super::world::{AreaMetric, PlanConfig, World};
use crate::aas::route::{AreaCache, Travel, best_first};
use crate::aas::{NavMesh, ReachKind};
use crate::physics::movers::MoverState;
use crate::physics::pmove::{PhysicsParams, PlayerState, UserCmd};

/// A straight run has arrived at a reachability's start this near across.
const AT_START: f32 = 12.0;

/// Steps a straight run toward a point is given per 16 units of distance, at least this
/// many more: a run that takes longer is stuck against something.
const SLACK_STEPS: usize = 10;

/// Reachabilities a seed runs at most (a route that keeps failing its runs is given up).
const MAX_RUNS: usize = 64;

/// A seed keeps to the graph's schedule while the time it took and the graph's time left
/// add up to at most this share of the graph's time from the start (the tolerance the
/// planner is judged by): only that much of it starts the tree.
const SCHEDULE: f32 = 1.05;

/// Steps a player in the air over no area is let fall (2 s of 50 ms).
const FALL_STEPS: usize = 40;

/// Steps more given to come to a stand at a run's start (a jump's commands start from a
/// stand there, and its run-up is short).
const STOP_STEPS: usize = 20;

/// Standing at a run's start: this near across...
const AT_STAND: f32 = 2.0;
/// ...and this slow (units/s)...
const STAND_SPEED: f32 = 30.0;
/// ...on its floor: no higher or lower than a stair step (one that fell off the ledge
/// beside the start has not arrived).
const AT_STAND_HEIGHT: f32 = 18.0;

/// One step of the seed: the state after it, its controls and the lifts' states.
pub(super) type SeedStep = (PlayerState, UserCmd, Vec<MoverState>);

/// The seed branch from `start` toward `goal` (a point over the goal's area), whether its
/// last state satisfies `reached`, and how many of its steps it had taken when it was last
/// on the graph's schedule ([`SCHEDULE`]); empty where the graph has no route, or its
/// reachabilities were not measured at the plan's step.
pub(super) fn seed(
    world: &mut World<'_>,
    physics: &PhysicsParams,
    cfg: &PlanConfig,
    metric: &AreaMetric,
    start: (&PlayerState, &[MoverState]),
    goal: Vec3,
    reached: impl Fn(&PlayerState) -> bool,
) -> (Vec<SeedStep>, bool, usize) {
    let mesh = &*metric.mesh;
    let mut out: Vec<SeedStep> = Vec::new();
    if (mesh.params.tick_rate as f32 * cfg.step - 1.0).abs() > 1e-3 {
        return (out, false, 0);
    }
    let Some(goal_area) = metric.area_under(goal) else {
        return (out, false, 0);
    };
    let cache = metric.cache(goal_area, Travel::ALL.dry());
    let mut s = *start.0;
    let mut movers = start.1.to_vec();
    let taken = std::cell::Cell::new(0);
    let mut kept = 0;
    let mut step = |s: &mut PlayerState, movers: &mut Vec<MoverState>, cmd: UserCmd| {
        *s = world.advance(physics, cfg, s, movers, &cmd);
        out.push((*s, cmd, movers.clone()));
        taken.set(out.len());
        reached(s)
    };
    // The graph's time to the goal from the start.
    let mut whole = None;
    // Each reachability chosen from where the player is (a run may end in a neighbour of
    // the area it aimed at, or a walk beside a teleporter in its destination).
    for _ in 0..MAX_RUNS {
        // Thrown out over no area (a teleporter's or a pad's exit, a long fall): on with
        // no controls until it comes down over one.
        for _ in 0..FALL_STEPS {
            if s.on_ground.is_some() || s.water_level > 0 || metric.area_under(s.origin).is_some() {
                break;
            }
            if step(&mut s, &mut movers, UserCmd::default()) {
                return (out, true, kept);
            }
        }
        let Some(a) = metric.area_under(s.origin) else {
            return (out, false, kept);
        };
        let elapsed = taken.get() as f32 * cfg.step;
        if a == goal_area {
            if whole.is_some_and(|w| elapsed <= SCHEDULE * w) {
                kept = taken.get();
            }
            break;
        }
        let Some((left, i)) = first(mesh, &cache, a, s.origin) else {
            return (out, false, kept);
        };
        let whole = *whole.get_or_insert(left);
        if elapsed + left <= SCHEDULE * whole {
            kept = taken.get();
        }
        let r = &mesh.reaches()[i as usize];
        // A run to its start; for a run the compiler measured from a stand (a jump, a
        // drop), slowing as it nears the start so as to stand on it.
        let still = !matches!(
            r.kind,
            ReachKind::Walk | ReachKind::StepUp | ReachKind::Swim
        );
        // A lift's start is on the lift, which may carry the player up before it stands.
        let lifted = matches!(r.kind, ReachKind::Elevator | ReachKind::WaterJump);
        // A step covers up to 16 units: a run at a walk's start has arrived where the last
        // step passed within reach of it, not only where it ended there.
        let there = |before: Vec3, s: &PlayerState| {
            if still {
                let d = (r.start - s.origin).truncate().length();
                d <= AT_STAND
                    && s.velocity.truncate().length() < STAND_SPEED
                    && (lifted || (r.start.z - s.origin.z).abs() <= AT_STAND_HEIGHT)
            } else {
                passed_within(before, s.origin, r.start) <= AT_START
            }
        };
        let far = (r.start - s.origin).truncate().length();
        let mut arrived = there(s.origin, &s);
        let mut moved_on = false;
        let slack = if still {
            SLACK_STEPS + STOP_STEPS
        } else {
            SLACK_STEPS
        };
        for _ in 0..(far / step_length(&s, physics, cfg.step)) as usize + slack {
            if arrived {
                break;
            }
            let to = (r.start - s.origin).truncate();
            // Speed in proportion to the distance left (a sixth of a second out) where the
            // run is to stand there; else full speed.
            let speed = if still {
                (6.0 * to.length()).min(320.0)
            } else {
                320.0
            };
            let cmd = run_toward(&s, r.start, speed);
            let before = s.origin;
            if step(&mut s, &mut movers, cmd) {
                return (out, true, kept);
            }
            arrived = there(before, &s);
            let now = metric.area_under(s.origin).filter(|&now| now != a);
            // Over the border elsewhere along it (a walk's start is one point of a border),
            // carried into the run's end area on the way (a teleporter's field met before
            // its centre), or come to stand on another floor (off a ledge): on from there.
            let off_floor = !lifted
                && s.on_ground.is_some()
                && (s.origin.z - r.start.z).abs() > AT_STAND_HEIGHT;
            if now.is_some_and(|now| !still || now == r.to || off_floor) {
                moved_on = true;
                break;
            }
        }
        if moved_on {
            continue;
        }
        if !arrived {
            return (out, false, kept);
        }
        for c in &r.commands {
            for _ in 0..c.ticks {
                if step(&mut s, &mut movers, c.cmd) {
                    return (out, true, kept);
                }
            }
        }
        // A walk's commands were recorded from its start at the compiler's speed and
        // heading: a player that passed the start carrying another (out of a teleporter, a
        // turn) may end them still short of the border, and would come back to the same
        // start. It goes on straight at the walk's end until it is across.
        if matches!(r.kind, ReachKind::Walk | ReachKind::StepUp)
            && metric.area_under(s.origin) == Some(a)
        {
            let far = (r.end - s.origin).truncate().length();
            for _ in 0..(far / step_length(&s, physics, cfg.step)) as usize + SLACK_STEPS {
                let cmd = run_toward(&s, r.end, 320.0);
                if step(&mut s, &mut movers, cmd) {
                    return (out, true, kept);
                }
                if metric.area_under(s.origin).is_some_and(|now| now != a) {
                    break;
                }
            }
        }
        // Settle after a run that landed with speed to carry: the next start may lie
        // across a narrow landing.
        if still {
            for _ in 0..STOP_STEPS {
                if s.velocity.truncate().length() < STAND_SPEED || s.on_ground.is_none() {
                    break;
                }
                if step(&mut s, &mut movers, UserCmd::default()) {
                    return (out, true, kept);
                }
            }
        }
    }
    // In the goal's area: straight at the goal.
    let far = (goal - s.origin).truncate().length();
    for _ in 0..(far / step_length(&s, physics, cfg.step)) as usize + SLACK_STEPS {
        let cmd = run_toward(&s, goal, 320.0);
        if step(&mut s, &mut movers, cmd) {
            return (out, true, kept);
        }
    }
    (out, false, kept)
}

/// Units a step covers at full speed from `s`: running, or swimming at the speed where
/// Quake's water friction (`water_friction × water level` of the speed a second) takes off
/// what the swimmer's wish (0.7 of a run's) adds — 187 u/s fully under, the run's 0.7 at
/// most — so a long swim is not given a run's steps and stopped short of its mark.
fn step_length(s: &PlayerState, physics: &PhysicsParams, dt: f32) -> f32 {
    let run = physics.max_speed;
    if s.water_level < 2 {
        return run * dt;
    }
    let wish = 0.7 * run;
    let kept = physics.accelerate * wish / (physics.water_friction * s.water_level as f32);
    wish.min(kept) * dt
}

/// The nearest across that a step from `a` to `b` came to `p`.
fn passed_within(a: Vec3, b: Vec3, p: Vec3) -> f32 {
    let (a, b, p) = (a.truncate(), b.truncate(), p.truncate());
    let ab = b - a;
    let t = ((p - a).dot(ab) / ab.length_squared().max(1e-6)).clamp(0.0, 1.0);
    (a + ab * t).distance(p)
}

/// Toward `to` at `speed` ([`steer`]); swimming, pitched at it as the planner's own steps
/// are.
fn run_toward(s: &PlayerState, to: Vec3, speed: f32) -> UserCmd {
    let d = to - s.origin;
    let mut cmd = steer(
        d.truncate().normalize_or_zero() * speed,
        s.velocity.truncate(),
    );
    if s.water_level >= 2 {
        cmd.pitch = -d.z.atan2(d.truncate().length()).to_degrees();
    }
    cmd
}

/// Forward toward the velocity `want` from the velocity `v`, wishing against what `v`
/// carries across: Quake adds speed only along the wish, so a player turning at a run
/// wishes along twice the wanted velocity less the one it has, and the drift it brought
/// from the last leg dies instead of carrying it off a narrow floor or past its mark.
fn steer(want: Vec2, v: Vec2) -> UserCmd {
    let wish = 2.0 * want - v;
    UserCmd {
        forward_move: wish.length().min(want.length().max(v.length())).min(320.0),
        yaw: wish.y.atan2(wish.x).to_degrees(),
        ..Default::default()
    }
}

/// The first reachability of the graph's quickest route from `p` over area `a` to the
/// cache's goal area, into no slime or lava (the planner drops a state in them).
fn first(mesh: &NavMesh, cache: &AreaCache, a: u32, p: Vec3) -> Option<(f32, u32)> {
    let (t, i) = best_first(mesh, a, p, cache.travel, None, |i| cache.time[i as usize])?;
    Some((t, i?))
}

#[cfg(test)]
mod tests {
    use glam::{Vec2, Vec3};

    /// Running south at full speed and wanting west: the wish leans north against the
    /// drift (a straight wish west would keep all the southward speed a step); at the
    /// wanted velocity it is the wanted velocity; overshooting a stand it brakes.
    #[test]
    fn steering_wishes_against_the_drift_it_carries() {
        let turn = super::steer(Vec2::new(-320.0, 0.0), Vec2::new(0.0, -320.0));
        assert!((135.0..180.0).contains(&turn.yaw), "{}", turn.yaw);
        assert_eq!(turn.forward_move, 320.0);
        let on = super::steer(Vec2::new(0.0, 320.0), Vec2::new(0.0, 320.0));
        assert!((on.yaw - 90.0).abs() < 1e-3 && on.forward_move == 320.0);
        let brake = super::steer(Vec2::new(10.0, 0.0), Vec2::new(200.0, 0.0));
        assert!((brake.yaw.abs() - 180.0).abs() < 1e-3, "{}", brake.yaw);
    }

    /// A step's nearest approach to a point is on the segment, its ends included, across
    /// only: a step of 16 units passes 5 units from a point beside its middle though both
    /// its ends are farther.
    #[test]
    fn a_step_passes_a_point_at_its_nearest_approach_across() {
        let v = Vec3::new;
        let near = |a, b, p| super::passed_within(a, b, p);
        assert!((near(v(0., 0., 0.), v(16., 0., 0.), v(8., 5., 40.)) - 5.0).abs() < 1e-5);
        assert!((near(v(0., 0., 0.), v(16., 0., 0.), v(-10., 0., 0.)) - 10.0).abs() < 1e-5);
        assert!((near(v(0., 0., 0.), v(0., 0., 0.), v(3., 4., 0.)) - 5.0).abs() < 1e-5);
    }
}
