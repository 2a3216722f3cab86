//! Shortcuts over the best branch (the improvement step RRT* gets from rewiring): a random
//! tree's branch wanders — each step turned up to 45° toward a random sample — so its time
//! is well above the quickest run along the same way. After the search, from each state of
//! the branch a straight run at full speed is tried toward states further on; where it gets
//! there sooner, moving as fast the same way, the branch's remaining controls are played
//! from there, and the shortcut is kept only if they still reach the goal, sooner. Every
//! kept branch is a run of the physics from the start (the plan's controls replay to the
//! goal in its time), so the time only falls.

use glam::Vec3;

use super::world::{PlanConfig, World};
use super::{Node, Plan};
use crate::physics::movers::MoverState;
use crate::physics::pmove::{PhysicsParams, PlayerState, UserCmd};

/// How far ahead along the branch (steps) a straight run is aimed: two seconds of 50 ms.
const AHEAD: usize = 40;

/// Targets tried from one state, the farthest first, spread over [`AHEAD`].
const TARGETS: usize = 8;

/// A straight run has arrived at a state of the branch this near across and in height.
const NEAR_ACROSS: f32 = 16.0;
const NEAR_UP: f32 = 18.0;

/// ...and moving as the branch did there, within this speed (units/s, as a vector):
/// the branch's controls after it are open-loop and are played from the new state.
const SAME_VELOCITY: f32 = 64.0;

/// Passes over the branch (a pass's shortcuts open new ones for the next).
const PASSES: usize = 2;

/// Shortens `plan`'s best branch in place (see the module docs): new nodes are appended
/// to the tree and `plan.best` names the new branch's last. `reached` is the goal test the
/// search used.
pub(super) fn shorten(
    world: &mut World<'_>,
    physics: &PhysicsParams,
    cfg: &PlanConfig,
    plan: &mut Plan,
    reached: impl Fn(&PlayerState) -> bool,
) {
    let k = cfg.lifts.defs.len();
    for _ in 0..PASSES {
        let Some(best) = plan.best else { return };
        let mut branch = plan.branch(best);
        let mut improved = false;
        let mut i = 0;
        while i + 2 < branch.len() {
            if let Some(new_best) = try_from(world, physics, cfg, plan, &branch, i, k, &reached) {
                plan.best = Some(new_best);
                branch = plan.branch(new_best);
                improved = true;
            }
            i += 1;
        }
        if !improved {
            return;
        }
    }
}

/// From the branch's `i`-th state, the farthest state within [`AHEAD`] steps that a
/// straight run reaches sooner and from where the branch's remaining controls still reach
/// the goal sooner: the new branch's last node.
#[allow(
    clippy::too_many_arguments,
    reason = "the search's state, passed through"
)]
fn try_from(
    world: &mut World<'_>,
    physics: &PhysicsParams,
    cfg: &PlanConfig,
    plan: &mut Plan,
    branch: &[u32],
    i: usize,
    k: usize,
    reached: &impl Fn(&PlayerState) -> bool,
) -> Option<u32> {
    let last = branch.len() - 1;
    let far = (i + AHEAD).min(last);
    if far < i + 2 {
        return None;
    }
    let from = plan.nodes[branch[i] as usize];
    let start_movers = block(plan, from.movers, k).to_vec();
    for t in 0..TARGETS {
        // Farthest first, spread evenly down to two steps ahead.
        let j = far - (far - (i + 2)) * t / TARGETS.max(1);
        if t > 0 && j == far - (far - (i + 2)) * (t - 1) / TARGETS.max(1) {
            continue;
        }
        let target = plan.nodes[branch[j] as usize].state;
        let mut s = from.state;
        let mut movers = start_movers.clone();
        let mut run: Vec<(PlayerState, UserCmd, Vec<MoverState>)> = Vec::new();
        let mut arrived = false;
        // Sooner than the branch: fewer steps than it took from i to j.
        for _ in 0..(j - i - 1) {
            let to = target.origin - s.origin;
            let cmd = UserCmd {
                forward_move: 320.0,
                yaw: to.y.atan2(to.x).to_degrees(),
                ..Default::default()
            };
            s = world.advance(physics, cfg, &s, &mut movers, &cmd);
            run.push((s, cmd, movers.clone()));
            if reached(&s) || near(&s, &target) {
                arrived = true;
                break;
            }
        }
        if !arrived {
            continue;
        }
        let at_goal = reached(&run.last().expect("one step at least").0);
        // The rest of the branch's controls, played from where the run ended.
        let mut rest: Vec<(PlayerState, UserCmd, Vec<MoverState>)> = Vec::new();
        if !at_goal {
            let mut ok = false;
            for &n in &branch[j + 1..] {
                let cmd = plan.nodes[n as usize].cmd;
                s = world.advance(physics, cfg, &s, &mut movers, &cmd);
                rest.push((s, cmd, movers.clone()));
                if reached(&s) {
                    ok = true;
                    break;
                }
            }
            if !ok {
                continue;
            }
        }
        let steps = i + run.len() + rest.len();
        if steps >= last {
            continue;
        }
        // Kept: the new nodes hang from the branch's i-th.
        let mut parent = branch[i];
        for (st, cmd, mv) in run.into_iter().chain(rest) {
            let pnode = plan.nodes[parent as usize];
            let mblock = if k == 0 || mv[..] == *block(plan, pnode.movers, k) {
                pnode.movers
            } else {
                plan.movers.extend_from_slice(&mv);
                (plan.movers.len() / k - 1) as u32
            };
            plan.nodes.push(Node {
                state: st,
                parent,
                cmd,
                steps: pnode.steps + 1,
                movers: mblock,
            });
            parent = plan.nodes.len() as u32 - 1;
        }
        return Some(parent);
    }
    None
}

/// The lifts' states of node block `b`.
fn block(plan: &Plan, b: u32, k: usize) -> &[MoverState] {
    &plan.movers[b as usize * k..(b as usize + 1) * k]
}

/// Whether a run's state `s` has arrived at the branch's state `t`: near it, on the ground
/// as it was, moving as it did.
fn near(s: &PlayerState, t: &PlayerState) -> bool {
    let d: Vec3 = s.origin - t.origin;
    d.truncate().length() <= NEAR_ACROSS
        && d.z.abs() <= NEAR_UP
        && s.on_ground.is_some() == t.on_ground.is_some()
        && (s.velocity - t.velocity).length() <= SAME_VELOCITY
}
