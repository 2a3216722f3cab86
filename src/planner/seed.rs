//! The area graph's route as the search's first solution (reference 004's future work):
//! with a compiled navigation measured at the plan's step, the player runs from the start
//! along the graph's quickest route to the goal — to each reachability's start (slowing to
//! stand there for a run the compiler measured from a stand), then the commands the
//! compiler recorded for it — and, in the goal's area, straight at the goal. Each
//! reachability is chosen from where the player is when it is due, so a run that lands
//! beside its end goes on from there, and a run at a walk's start that crosses the border
//! elsewhere goes on from the area it crossed into. The states become the tree's first branch: where they
//! reach the goal the search starts with a solution and looks only for a quicker one; where
//! a run fails (a mover not there, a landing missed) the branch stops and still gives the
//! tree a head start. Every state is a step of the physics, as any other node.

use glam::Vec3;

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

/// Steps more given to come to a stand at a run's start (a jump's commands start from a
/// stand there, and its run-up is short).
const STOP_STEPS: usize = 20;

/// Standing at a run's start: this near across...
const AT_STAND: f32 = 2.0;
/// ...and this slow (units/s).
const STAND_SPEED: f32 = 30.0;

/// One step of the seed: the state after it, its controls and the lifts' states.
pub(super) type SeedStep = (PlayerState, UserCmd, Vec<MoverState>);

/// The seed branch from `start` toward `goal` (a point over the goal's area) and whether
/// its last state satisfies `reached`; empty where the graph has no route, or its
/// reachabilities were not measured at the plan's step.
pub(super) fn seed(
    world: &mut World<'_>,
    physics: &PhysicsParams,
    cfg: &PlanConfig,
    metric: &AreaMetric,
    start: (&PlayerState, &[MoverState]),
    goal: Vec3,
    reached: impl Fn(&PlayerState) -> bool,
) -> (Vec<SeedStep>, bool) {
    let mesh = &*metric.mesh;
    let mut out: Vec<SeedStep> = Vec::new();
    if (mesh.params.tick_rate as f32 * cfg.step - 1.0).abs() > 1e-3 {
        return (out, false);
    }
    let Some(goal_area) = metric.area_under(goal) else {
        return (out, false);
    };
    let cache = metric.cache(goal_area, Travel::ALL.dry());
    let mut s = *start.0;
    let mut movers = start.1.to_vec();
    let mut step = |s: &mut PlayerState, movers: &mut Vec<MoverState>, cmd: UserCmd| {
        *s = world.advance(physics, cfg, s, movers, &cmd);
        out.push((*s, cmd, movers.clone()));
        reached(s)
    };
    // Each reachability chosen from where the player is (a run may end in a neighbour of
    // the area it aimed at, or a walk beside a teleporter in its destination).
    for _ in 0..MAX_RUNS {
        let Some(a) = metric.area_under(s.origin) else {
            return (out, false);
        };
        if a == goal_area {
            break;
        }
        let Some(i) = first(mesh, &cache, a, s.origin) else {
            return (out, false);
        };
        let r = &mesh.reaches()[i as usize];
        // A run to its start; for a run the compiler measured from a stand (a jump, a
        // drop), slowing as it nears the start so as to stand on it.
        let still = !matches!(
            r.kind,
            ReachKind::Walk | ReachKind::StepUp | ReachKind::Swim
        );
        // A step covers up to 16 units: a run at a walk's start has arrived where the last
        // step passed within reach of it, not only where it ended there.
        let there = |before: Vec3, s: &PlayerState| {
            if still {
                let d = (r.start - s.origin).truncate().length();
                d <= AT_STAND && s.velocity.truncate().length() < STAND_SPEED
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
        for _ in 0..(far / 16.0) as usize + slack {
            if arrived {
                break;
            }
            let to = (r.start - s.origin).truncate();
            let mut cmd = run_at(to.extend(0.0));
            if still {
                // Speed in proportion to the distance left: a sixth of a second out.
                cmd.forward_move = (6.0 * to.length()).min(320.0);
            }
            let before = s.origin;
            if step(&mut s, &mut movers, cmd) {
                return (out, true);
            }
            arrived = there(before, &s);
            if !still && metric.area_under(s.origin).is_some_and(|now| now != a) {
                // Over the border elsewhere along it (a walk's start is one point of a
                // border): on from this area.
                moved_on = true;
                break;
            }
        }
        if moved_on {
            continue;
        }
        if !arrived {
            return (out, false);
        }
        for c in &r.commands {
            for _ in 0..c.ticks {
                if step(&mut s, &mut movers, c.cmd) {
                    return (out, true);
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
                    return (out, true);
                }
            }
        }
    }
    // In the goal's area: straight at the goal.
    let far = (goal - s.origin).truncate().length();
    for _ in 0..(far / 16.0) as usize + SLACK_STEPS {
        let cmd = run_at(goal - s.origin);
        if step(&mut s, &mut movers, cmd) {
            return (out, true);
        }
    }
    (out, false)
}

/// The nearest across that a step from `a` to `b` came to `p`.
fn passed_within(a: Vec3, b: Vec3, p: Vec3) -> f32 {
    let (a, b, p) = (a.truncate(), b.truncate(), p.truncate());
    let ab = b - a;
    let t = ((p - a).dot(ab) / ab.length_squared().max(1e-6)).clamp(0.0, 1.0);
    (a + ab * t).distance(p)
}

/// Full speed forward, facing along `to`.
fn run_at(to: Vec3) -> UserCmd {
    UserCmd {
        forward_move: 320.0,
        yaw: to.y.atan2(to.x).to_degrees(),
        ..Default::default()
    }
}

/// The first reachability of the graph's quickest route from `p` over area `a` to the
/// cache's goal area, into no slime or lava (the planner drops a state in them).
fn first(mesh: &NavMesh, cache: &AreaCache, a: u32, p: Vec3) -> Option<u32> {
    best_first(mesh, a, p, cache.travel, None, |i| cache.time[i as usize])?.1
}

#[cfg(test)]
mod tests {
    use glam::Vec3;

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
