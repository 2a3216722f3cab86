//! The travel-time planner (reference 004, Q3Plan): a kinodynamic RRT over the player's
//! full state that uses the player physics ([`crate::physics::pmove()`]) as a black box.
//!
//! One expansion: draw a point in the map's free space (floor points of the map, jittered
//! sideways and up to 64 units above the floor — never the bounding box; with probability
//! [`PlanConfig::goal_bias`] the goal's centre), find the tree node nearest to it under the
//! [`Metric`], restore that node's state, pick controls (run forward at full speed toward the
//! point with a random turn of up to ±45°, now and then sideways or standing, a jump one time
//! in four), step the physics for [`PlanConfig::step`] seconds (50 ms), and add the new state
//! with the edge's controls. A state in lava or slime, or fallen out of the map, is dropped.
//! When a state's box touches the goal region the time is the number of steps × the step;
//! expanding goes on for the whole budget, keeping the best time (nodes already as old as the
//! best are not expanded: they cannot beat it).
//!
//! The metric matters (the reference names a Euclidean one as its main weakness): `Height(w)`
//! multiplies height differences by `w`, so a node under a ledge is not taken as near to a
//! point on it. Measured here it did worse than Euclidean (see [`PlanConfig::default`]):
//! the goal-directed extension by arrival time already keeps the tree from being fooled by
//! height, and the stretched metric starves exploration up and down stairs. `Area` takes
//! nearness from the compiled area graph's route times ([`AreaMetric`]); measured worse
//! than Euclidean too (docs/planner.md). Toward the goal the node that would arrive soonest running
//! straight is extended (its time + distance /
//! 320, from a queue), which keeps the fastest branch growing. Teleporters are taken (through
//! the simulation's own teleport rule); doors that open on approach and secret doors that
//! open when shot are open ([`planning_map`]). Plats and trains that run by themselves move
//! ([`Lifts`]): a node holds their states beside the player's, and a step advances them by
//! the movers' own state machines, carries the player as the movers stage does
//! ([`crate::physics::movers::carry`]), moves the player, and lets a plat's field raise it —
//! the simulation's order. The plan starts with them as the map starts (trains at their
//! first corner), so a train's phase when the player sets off is that of time 0. A lift's
//! timing is too narrow for random steps to hit, so the "standing" control next to a lift's
//! track while the lift is away or moving uses it as a Q3 bot does ([`Chain`]): wait until it
//! comes to rest near the player, walk onto it, ride it until it rests again — step by step,
//! every step a node, in one expansion (a wait that nothing ends is dropped; the waiting
//! steps are not extended from). A single still step counts only while a lift near the
//! player moves, and states at one place differ by the lifts near them. Other movers
//! (buttons, doors that need a trigger or a key, trains waiting for a trigger) stay where
//! they start.
//!
//! Nearest nodes come from a grid of cells in blocks searched nearest-bound first; a node that
//! failed three times or is as old as the best solution leaves the search for good, and a
//! cell holds at most 512 nodes. With these, 200,000 expansions on dm6 take about a
//! second.
//!
//! With a compiled navigation ([`PlanConfig::area_metric`]) the tree starts from the area
//! graph's route run through the physics ([`seed`], [`PlanConfig::route_seed`]): where it
//! reaches the goal, the search only looks for a quicker way.
//!
//! After the search the best branch is shortened ([`shortcut`], on by default:
//! [`PlanConfig::shortcuts`]): from each of its states a straight run toward a state further
//! on, kept where the branch's remaining controls played from its end still reach the goal
//! sooner — the branch an RRT grows wanders, each step turned at random.
//!
//! Deterministic: the tree depends only on the map, the start, the goal, the seed and the
//! number of expansions. A wall-clock budget (`deadline`) is for people in a hurry and is not
//! deterministic.
//!
//! Entry points: [`plan`], [`Plan::time`], [`Plan::controls`], [`replay_controls`].
//!
//! Files: this one (the search), `world` (plats, teleporters, the area metric), `grid`
//! (the coverage grid and the goal queue), `seed` (the graph's route as the first branch),
//! `shortcut` (the branch shortened), `times` (the item table).

mod config;
mod grid;
mod seed;
mod shortcut;
mod world;

use std::time::Instant;

use glam::Vec3;

use crate::map::collision::overlaps;
use crate::map::{CollisionMap, Contents};
use crate::physics::movers::{MoverState, Phase};
use crate::physics::pmove::{PLAYER_MAXS, PLAYER_MINS, PhysicsParams, PlayerState, UserCmd};
use crate::sim::rng::SimRng;
pub use config::{Metric, Node};
use grid::{GoalQueue, Grid, score};
pub use world::PlanConfig;
pub use world::{AreaMetric, Lifts, Teleporter, lifts, planning_map, teleporters};
use world::{World, changed};

pub mod times;

/// A region the player's box must touch (an item's pickup box).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Goal {
    /// Minimum corner.
    pub mins: Vec3,
    /// Maximum corner.
    pub maxs: Vec3,
}

impl Goal {
    /// Whether a player at `s` touches the region.
    pub fn reached(&self, s: &PlayerState) -> bool {
        overlaps(
            s.origin + PLAYER_MINS,
            s.origin + PLAYER_MAXS,
            self.mins,
            self.maxs,
        )
    }

    /// The region's centre.
    pub fn centre(&self) -> Vec3 {
        (self.mins + self.maxs) * 0.5
    }
}

/// A grown tree and its best solution.
#[derive(Clone, Debug)]
pub struct Plan {
    /// Every state, the root first.
    pub nodes: Vec<Node>,
    /// The node that reached the goal soonest.
    pub best: Option<u32>,
    /// Expansions made before the first solution.
    pub first_at: Option<usize>,
    /// Expansions made.
    pub expansions: usize,
    /// Seconds per step.
    pub step: f32,
    /// The lifts' states of every node, [`PlanConfig::lifts`]' count per node block.
    pub movers: Vec<MoverState>,
}

impl Plan {
    /// The best travel time, seconds.
    pub fn time(&self) -> Option<f32> {
        self.best
            .map(|b| self.nodes[b as usize].steps as f32 * self.step)
    }

    /// Node indices from the root to `n`.
    pub fn branch(&self, n: u32) -> Vec<u32> {
        let mut out = vec![n];
        let mut i = n;
        while self.nodes[i as usize].parent != u32::MAX {
            i = self.nodes[i as usize].parent;
            out.push(i);
        }
        out.reverse();
        out
    }

    /// The controls from the root to the best solution, one per step.
    pub fn controls(&self) -> Vec<UserCmd> {
        match self.best {
            Some(b) => self.branch(b)[1..]
                .iter()
                .map(|&i| self.nodes[i as usize].cmd)
                .collect(),
            None => Vec::new(),
        }
    }

    /// Origins along the best solution.
    pub fn path(&self) -> Vec<Vec3> {
        match self.best {
            Some(b) => self
                .branch(b)
                .iter()
                .map(|&i| self.nodes[i as usize].state.origin)
                .collect(),
            None => Vec::new(),
        }
    }
}

/// Plays `controls` from `start` through the physics, one step each, in the world `cfg`
/// plans in (its step, teleporters and lifts): the states after every step (what the
/// validation test checks a reported time with).
pub fn replay_controls(
    cmap: &CollisionMap,
    physics: &PhysicsParams,
    start: PlayerState,
    controls: &[UserCmd],
    cfg: &PlanConfig,
) -> Vec<PlayerState> {
    let mut world = World::new(cmap, &cfg.lifts);
    let mut movers = cfg.lifts.start.clone();
    let mut s = start;
    controls
        .iter()
        .map(|c| {
            s = world.advance(physics, cfg, &s, &mut movers, c);
            s
        })
        .collect()
}

/// A lift within this many units of the player makes a still step a move.
const WAIT_NEAR: f32 = 256.0;

/// A player on the ground standing still this near a lift's track ([`Lifts::tracks`]) while
/// the lift is not at rest waits for it (see [`plan`] and [`Chain`]).
const WAIT_FOR: f32 = 64.0;

/// The longest chain of steps one expansion adds while using a lift (30 s of 50 ms).
const MAX_CHAIN_STEPS: u32 = 600;

/// The longest wait for a lift, steps (10 s of 50 ms).
const MAX_WAIT_STEPS: u32 = 200;

/// Boarding a lift that came to rest is given up after this many steps of the chain.
const MAX_BOARD_STEPS: u32 = 300;

/// What one expansion does: one step with its controls, or a lift used step by step.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Chain {
    /// One step.
    Step,
    /// Standing until a lift comes to rest near the player.
    Wait,
    /// Walking onto lift `i`.
    Board(usize),
    /// On lift `i` (true once it has moved) until it comes to rest again.
    Ride(usize, bool),
}

/// Failed extensions after which a node is left alone (against a wall, at a pit's bottom).
const MAX_FAILED: u8 = 3;

/// Time weight of extensions toward the goal. A node that ran a full step toward the goal
/// beats its parent, so the branch grows instead of its root being extended again and again.
const GOAL_TIME_WEIGHT: f32 = 0.9;

/// Grows a tree from `start` toward `goal` (or, without a goal, over the whole map for the
/// time-reachable set). `free` are points of free space to sample around (e.g. floor points).
pub fn plan(
    cmap: &CollisionMap,
    physics: &PhysicsParams,
    free: &[Vec3],
    start: PlayerState,
    goal: Option<&Goal>,
    cfg: &PlanConfig,
) -> Plan {
    let mut rng = SimRng::new(cfg.seed, 0x504c_414e);
    let lifts = &*cfg.lifts;
    let k = lifts.defs.len();
    let mut world = World::new(cmap, lifts);
    // Node blocks of lift states: the root's first.
    let mut movers: Vec<MoverState> = lifts.start.clone();
    let mut scratch: Vec<MoverState> = Vec::with_capacity(k);
    let mut prev: Vec<MoverState> = Vec::with_capacity(k);
    let mut nodes = vec![Node {
        state: start,
        parent: u32::MAX,
        cmd: UserCmd::default(),
        steps: 0,
        movers: 0,
    }];
    let mut grid = Grid::new();
    grid.insert(start.origin, 0, 0);
    let area_metric = cfg.area_metric.clone();
    let area_of = |p: Vec3| {
        area_metric
            .as_ref()
            .and_then(|am| am.area_under(p))
            .unwrap_or(u32::MAX)
    };
    // Each node's area, for the area metric (none without it).
    let mut node_area: Vec<u32> = vec![area_of(start.origin)];
    let mut queue = GoalQueue(Default::default());
    let goal_score =
        |nd: &Node, g: &Goal| score(nd, g.centre(), cfg.metric, GOAL_TIME_WEIGHT, cfg.step);
    if let Some(g) = goal {
        queue.push(goal_score(&nodes[0], g), 0);
    }
    let (map_lo, _) = cmap.bounds();
    let reached =
        |g: &Goal, s: &PlayerState| g.reached(s) && (!cfg.goal_standing || s.on_ground.is_some());
    let mut best: Option<u32> = goal.filter(|g| reached(g, &start)).map(|_| 0);
    // Failed extensions per node: a node that keeps failing (against a wall, at a pit's
    // bottom) is left alone after three.
    let mut failed: Vec<u8> = vec![0];
    // Straight extensions toward the goal per node: they barely vary, so two are enough.
    let mut aimed: Vec<u8> = vec![0];
    let mut first_at = best.map(|_| 0);
    // The seed's branch where it reaches the goal (see the shortcut pass below).
    let mut seeded: Option<u32> = None;
    // The area graph's route as the tree's first branch ([`seed`]).
    if let (Some(g), Some(am), true, None) = (goal, &area_metric, cfg.route_seed, best) {
        let start_movers = movers.clone();
        let (steps, arrived, kept) = seed::seed(
            &mut world,
            physics,
            cfg,
            am,
            (&start, &start_movers),
            g.centre(),
            |s| reached(g, s),
        );
        let mut parent = 0u32;
        for (j, (state, cmd, mv)) in steps.into_iter().enumerate() {
            let pnode = nodes[parent as usize];
            let b = pnode.movers as usize;
            let mblock = if mv[..] == movers[b * k..(b + 1) * k] {
                pnode.movers
            } else {
                movers.extend_from_slice(&mv);
                (movers.len() / k - 1) as u32
            };
            let n = nodes.len() as u32;
            nodes.push(Node {
                state,
                parent,
                cmd,
                steps: pnode.steps + 1,
                movers: mblock,
            });
            failed.push(0);
            aimed.push(0);
            node_area.push(area_of(state.origin));
            // The branch's states while it kept to the graph's schedule start the tree;
            // the rest are left out of the search's index (a branch that arrives still
            // bounds it): a tree grown from a branch that fell behind (a slow stand at a
            // jump, a fall into a dead end beside the goal) stays behind with it, where
            // grown without them it finds the quicker ways.
            if j < kept {
                grid.insert(state.origin, n, pnode.steps + 1);
                queue.push(goal_score(&nodes[n as usize], g), n);
            }
            parent = n;
        }
        if arrived {
            best = Some(parent);
            first_at = Some(0);
            seeded = best;
        }
    }
    let mut done = 0;
    while done < cfg.expansions && !free.is_empty() {
        if best.is_some() && cfg.stop_at_first {
            break;
        }
        if done % 256 == 0 && cfg.deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
        done += 1;
        let target = match goal {
            Some(g) if rng.chance(cfg.goal_bias) => g.centre(),
            _ => {
                let p = free[rng.below(free.len())];
                p + Vec3::new(
                    rng.range(-48.0, 48.0),
                    rng.range(-48.0, 48.0),
                    rng.range(0.0, 64.0),
                )
            }
        };
        // Nodes as old as the best solution cannot lead to a better one.
        let limit = best.map(|b| nodes[b as usize].steps).unwrap_or(u32::MAX);
        let straight = goal.is_some_and(|g| target == g.centre());
        // Toward the goal, extend the node that would get there soonest running straight
        // (its time plus distance / 320): that keeps the fast branch growing. Elsewhere the
        // nearest node, RRT's pull into unexplored space.
        let usable = |n: u32| {
            nodes[n as usize].steps + 1 < limit
                && failed[n as usize] < MAX_FAILED
                && (!straight || aimed[n as usize] < 2)
        };
        let near = if straight {
            queue.pop(usable).map(|(sc, n)| {
                // Used twice at most; back in line for its second turn.
                if aimed[n as usize] == 0 {
                    queue.push(sc, n);
                }
                n
            })
        } else {
            // The area metric: the route time from each node's area to the target's (as a
            // distance at running speed), never under the straight distance.
            let table = match (&area_metric, cfg.metric) {
                (Some(am), Metric::Area) => am.area_under(target).map(|a| am.table(a)),
                _ => None,
            };
            let node_area = &node_area;
            let dist = |p: Vec3, n: u32| {
                let e = cfg.metric.distance(p, target);
                match (&table, node_area[n as usize]) {
                    (Some(t), a) if a != u32::MAX => e.max(t[a as usize] * 320.0),
                    _ => e,
                }
            };
            grid.nearest(target, cfg.metric, dist, limit, usable)
        };
        let Some(near) = near else {
            continue;
        };
        if straight {
            aimed[near as usize] += 1;
        }
        let from = nodes[near as usize];
        let to = target - from.state.origin;
        let aim = to.y.atan2(to.x).to_degrees();
        let yaw = if straight {
            aim
        } else {
            aim + rng.range(-45.0, 45.0)
        };
        let r = rng.unit();
        let (forward, side) = if straight || r < 0.7 {
            (320.0, 0.0)
        } else if r < 0.8 {
            (320.0, 320.0)
        } else if r < 0.9 {
            (320.0, -320.0)
        } else {
            (0.0, 0.0)
        };
        let cmd = UserCmd {
            forward_move: forward,
            side_move: side,
            up_move: if to.z > 0.0 { 320.0 } else { 0.0 },
            yaw,
            pitch: if from.state.water_level >= 2 {
                -(to.z.atan2(to.truncate().length())).to_degrees()
            } else {
                0.0
            },
            jump: rng.chance(0.25),
        };
        // Standing by a lift that is moving or about to (a train waiting at a corner, a
        // raised plat counting down) uses it, as a Q3 bot does at a lift: wait until one
        // comes to rest near the player, walk onto it, and ride it until it comes to rest
        // again — one step at a time, as a chain of nodes (one control each) in one
        // expansion: single random steps would almost never hit a lift's timing.
        let lift_near = |st: &[MoverState], p: Vec3, i: usize, range: f32| {
            let (d, o) = (&lifts.defs[i], st[i].offset);
            (p.clamp(d.mins + o, d.maxs + o) - p).length() < range
        };
        let waiting = k > 0
            && forward == 0.0
            && side == 0.0
            && from.state.on_ground.is_some()
            && from.state.water_level == 0
            && (0..k).any(|i| {
                let st = &movers[from.movers as usize * k..(from.movers as usize + 1) * k];
                let (lo, hi) = lifts.tracks[i];
                let p = from.state.origin;
                (p.clamp(lo, hi) - p).length() < WAIT_FOR && st[i].phase != Phase::AtA
            });
        let mut mode = if waiting { Chain::Wait } else { Chain::Step };
        let mut unindexed: Option<u32> = None;
        let mut parent = near;
        scratch.clear();
        scratch
            .extend_from_slice(&movers[from.movers as usize * k..(from.movers as usize + 1) * k]);
        for w in 0..MAX_CHAIN_STEPS {
            let pnode = nodes[parent as usize];
            let block = |b: u32| &movers[b as usize * k..(b as usize + 1) * k];
            if pnode.steps + 1 >= limit {
                break;
            }
            // Onto the lift and to the middle of its top; else stand.
            let toward_lift = |i: usize, at_rest_close: f32| {
                let (d, o) = (&lifts.defs[i], scratch[i].offset);
                let to = ((d.mins + d.maxs) * 0.5 + o - pnode.state.origin).truncate();
                if to.length() <= at_rest_close {
                    UserCmd {
                        yaw: cmd.yaw,
                        ..Default::default()
                    }
                } else {
                    UserCmd {
                        forward_move: 320.0,
                        yaw: to.y.atan2(to.x).to_degrees(),
                        ..Default::default()
                    }
                }
            };
            let step_cmd = match mode {
                Chain::Step => cmd,
                Chain::Wait => UserCmd {
                    yaw: cmd.yaw,
                    ..Default::default()
                },
                Chain::Board(i) => toward_lift(i, 0.0),
                Chain::Ride(i, _) => toward_lift(i, 8.0),
            };
            prev.clear();
            prev.extend_from_slice(&scratch);
            let next = world.advance(physics, cfg, &pnode.state, &mut scratch, &step_cmd);
            // Lifts near the player: only they make a still step a move, and only they tell
            // apart two states at the same place (a far train's phase does not).
            let near_lift = |i: usize| lift_near(&scratch, next.origin, i, WAIT_NEAR);
            let single = mode == Chain::Step;
            let still = single
                && (next.origin - pnode.state.origin).length() < 1.0
                && !(0..k).any(|i| near_lift(i) && changed(&scratch[i], &block(pnode.movers)[i]));
            // Standing on a lift is rare and precious: the cap on a cell's nodes (filled by
            // jumps over a moat, say) does not keep such states out.
            let on_lift = next
                .on_ground
                .is_some_and(|g| lifts.defs.iter().any(|d| d.id == g));
            if next.water_type.intersects(Contents::LAVA | Contents::SLIME)
                || next.origin.z < map_lo.z + 8.0
                || still
                || (grid.full(next.origin) && !on_lift && mode != Chain::Wait)
                || (single
                    && grid.holds(&next, &nodes, |n| {
                        let other = block(nodes[n as usize].movers);
                        (0..k).all(|i| !near_lift(i) || !changed(&other[i], &scratch[i]))
                    }))
            {
                if w == 0 {
                    failed[near as usize] = failed[near as usize].saturating_add(1);
                }
                break;
            }
            let n = nodes.len() as u32;
            failed.push(0);
            aimed.push(0);
            // A node whose lifts are as its parent's shares its parent's block.
            let mblock = if scratch[..] == *block(pnode.movers) {
                pnode.movers
            } else {
                movers.extend_from_slice(&scratch);
                (movers.len() / k.max(1) - 1) as u32
            };
            nodes.push(Node {
                state: next,
                parent,
                cmd: step_cmd,
                steps: pnode.steps + 1,
                movers: mblock,
            });
            node_area.push(area_of(next.origin));
            // Steps of a wait are not extended from (only the last): hundreds of them on
            // one spot would crowd its cell and the goal queue.
            if mode == Chain::Wait {
                unindexed = Some(n);
            } else {
                grid.insert(next.origin, n, pnode.steps + 1);
                if let Some(g) = goal {
                    queue.push(goal_score(&nodes[n as usize], g), n);
                }
                unindexed = None;
            }
            if let Some(g) = goal
                && reached(g, &next)
                && best.is_none_or(|b| nodes[n as usize].steps < nodes[b as usize].steps)
            {
                best = Some(n);
                first_at.get_or_insert(done);
                break;
            }
            let was = &prev;
            let rests = |p: Phase| {
                matches!(
                    p,
                    Phase::AtA | Phase::AtB | Phase::TrainWaiting | Phase::TrainIdle
                )
            };
            let on = |i: usize| next.on_ground == Some(lifts.defs[i].id);
            mode = match mode {
                Chain::Step => break,
                // A lift came to rest near the player: board it.
                Chain::Wait => match (0..k).find(|&i| {
                    scratch[i].phase != was[i].phase && rests(scratch[i].phase) && near_lift(i)
                }) {
                    Some(i) if on(i) => Chain::Ride(i, false),
                    Some(i) => Chain::Board(i),
                    None if w < MAX_WAIT_STEPS => Chain::Wait,
                    // Nothing came: the wait leads nowhere the tree has not been sooner.
                    None => {
                        unindexed = None;
                        break;
                    }
                },
                Chain::Board(i) if on(i) => Chain::Ride(i, false),
                Chain::Board(i) if w < MAX_BOARD_STEPS => Chain::Board(i),
                Chain::Board(_) => break,
                // Ride until the lift has moved and comes to rest again, or the player is
                // off it.
                Chain::Ride(i, moved) => {
                    let moving = !rests(scratch[i].phase);
                    if !on(i) && next.on_ground.is_some() || (moved && !moving) {
                        break;
                    }
                    Chain::Ride(i, moved || moving)
                }
            };
            parent = n;
        }
        if let Some(n) = unindexed {
            let nd = nodes[n as usize];
            grid.insert(nd.state.origin, n, nd.steps);
            if let Some(g) = goal {
                queue.push(goal_score(&nd, g), n);
            }
        }
    }
    let mut plan = Plan {
        nodes,
        best,
        first_at,
        expansions: done,
        step: cfg.step,
        movers,
    };
    if let Some(g) = goal
        && cfg.shortcuts
    {
        let searched = plan.best;
        shortcut::shorten(&mut world, physics, cfg, &mut plan, |s| reached(g, s));
        // The seed's branch follows the graph's route, which the search's quicker branch
        // may have left for a way the shortcuts shorten less: where the search replaced
        // it, it is shortened too, and the quicker of the two kept (so a larger budget
        // never answers slower than a smaller one).
        if let (Some(seed_end), Some(found)) = (seeded, plan.best)
            && searched != seeded
        {
            plan.best = Some(seed_end);
            shortcut::shorten(&mut world, physics, cfg, &mut plan, |s| reached(g, s));
            let steps = |n: Option<u32>| n.map(|n| plan.nodes[n as usize].steps);
            if steps(Some(found)) <= steps(plan.best) {
                plan.best = Some(found);
            }
        }
    }
    plan
}
