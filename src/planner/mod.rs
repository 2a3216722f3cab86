//! The travel-time planner (reference 004, Q3Plan): a kinodynamic RRT over the player's
//! full state that uses the player physics ([`crate::physics::pmove`]) as a black box.
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
//! height, and the stretched metric starves exploration up and down stairs. Toward the goal the node that would arrive soonest running straight is
//! extended (its time + distance / 320), which keeps the fastest branch growing. Teleporters
//! are taken (through the simulation's own teleport rule); doors that open on approach are
//! open ([`planning_map`]); other movers stay where the map puts them, so a place only a lift
//! reaches is not found.
//!
//! Deterministic: the tree depends only on the map, the start, the goal, the seed and the
//! number of expansions. A wall-clock budget (`deadline`) is for people in a hurry and is not
//! deterministic.
//!
//! Entry points: [`plan`], [`Plan::time`], [`Plan::controls`], [`replay_controls`].

pub mod times;

use std::collections::HashMap;
use std::time::Instant;

use glam::Vec3;

use crate::map::collision::overlaps;
use crate::map::{CollisionMap, Contents, EntId};
use crate::physics::pmove::{PLAYER_MAXS, PLAYER_MINS, PhysicsParams, PlayerState, UserCmd, pmove};
use crate::sim::rng::SimRng;

/// How "near" a tree node is to a sampled point.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub enum Metric {
    /// Straight-line distance.
    Euclidean,
    /// Height differences count `w` times (w ≥ 1).
    Height(f32),
}

impl Metric {
    fn weight(self) -> f32 {
        match self {
            Metric::Euclidean => 1.0,
            Metric::Height(w) => w.max(1.0),
        }
    }

    /// The distance between two points.
    pub fn distance(self, a: Vec3, b: Vec3) -> f32 {
        let d = a - b;
        let w = self.weight();
        (d.x * d.x + d.y * d.y + w * w * d.z * d.z).sqrt()
    }
}

/// What a plan is asked to do.
#[derive(Clone, Debug)]
pub struct PlanConfig {
    /// Seconds of physics per edge (the reference's 50 ms).
    pub step: f32,
    /// Expansions to make.
    pub expansions: usize,
    /// Stop early at this wall-clock time (not deterministic).
    pub deadline: Option<Instant>,
    /// Seed of the planner's random stream.
    pub seed: u64,
    /// Nearness of nodes to samples.
    pub metric: Metric,
    /// Share of samples drawn at the goal.
    pub goal_bias: f32,
    /// Stop at the first solution instead of improving it.
    pub stop_at_first: bool,
    /// Teleporters to take (see [`teleporters`]).
    pub teleporters: Vec<Teleporter>,
}

impl Default for PlanConfig {
    fn default() -> Self {
        PlanConfig {
            step: 0.05,
            expansions: 20_000,
            deadline: None,
            seed: 0,
            // Measured: Euclidean found dm6 weapon pairs more often (19 of 30 against 15 at
            // 20,000 expansions) and the proving ledge 4× sooner than height ×3.
            metric: Metric::Euclidean,
            goal_bias: 0.1,
            stop_at_first: false,
            teleporters: Vec::new(),
        }
    }
}

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

/// A state of the tree.
#[derive(Clone, Copy, Debug)]
pub struct Node {
    /// The player's state.
    pub state: PlayerState,
    /// The node it was reached from (`u32::MAX` at the root).
    pub parent: u32,
    /// The controls held from the parent.
    pub cmd: UserCmd,
    /// Steps from the root.
    pub steps: u32,
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

/// Plays `controls` from `start` through the physics, one step each: the states after every
/// step (what the validation test checks a reported time with).
pub fn replay_controls(
    cmap: &CollisionMap,
    physics: &PhysicsParams,
    start: PlayerState,
    controls: &[UserCmd],
    step: f32,
) -> Vec<PlayerState> {
    let mut s = start;
    controls
        .iter()
        .map(|c| {
            s = pmove(&s, c, cmap, physics, step, None).0;
            s
        })
        .collect()
}

/// Nodes in cells of [`CELL`] units, for nearest-node queries.
const CELL: f32 = 64.0;

fn cell(p: Vec3) -> (i32, i32, i32) {
    (
        (p.x / CELL).floor() as i32,
        (p.y / CELL).floor() as i32,
        (p.z / CELL).floor() as i32,
    )
}

/// Nodes bucketed by cell; only occupied cells are kept, so a query far from the tree costs
/// the number of occupied cells, not the volume between.
struct Grid {
    index: HashMap<(i32, i32, i32), usize>,
    cells: Vec<((i32, i32, i32), Vec<u32>)>,
}

impl Grid {
    fn new() -> Grid {
        Grid {
            index: HashMap::new(),
            cells: Vec::new(),
        }
    }

    fn insert(&mut self, p: Vec3, n: u32) {
        let c = cell(p);
        let i = *self.index.entry(c).or_insert_with(|| {
            self.cells.push((c, Vec::new()));
            self.cells.len() - 1
        });
        self.cells[i].1.push(n);
    }

    /// Whether a node at (almost) this position and velocity is already in the tree: in the
    /// air the controls barely matter, so expansions there repeat states.
    fn holds(&self, s: &PlayerState, nodes: &[Node]) -> bool {
        self.index.get(&cell(s.origin)).is_some_and(|&i| {
            self.cells[i].1.iter().any(|&n| {
                let o = &nodes[n as usize].state;
                o.origin.distance_squared(s.origin) < 1.0
                    && o.velocity.distance_squared(s.velocity) < 4.0
            })
        })
    }

    /// The usable node with the least `metric distance to q + time_weight × 320 × its
    /// time`; ties go to the lower index. The query's own cell goes first for a good bound,
    /// then every occupied cell whose box could hold something better.
    fn nearest(
        &self,
        q: Vec3,
        metric: Metric,
        time_weight: f32,
        step: f32,
        nodes: &[Node],
        usable: impl Fn(u32) -> bool,
    ) -> Option<u32> {
        let score = |n: u32| {
            let nd = &nodes[n as usize];
            let d = metric.distance(nd.state.origin, q);
            if time_weight == 0.0 {
                return d;
            }
            // Estimated arrival running straight: time so far, the distance at 320 u/s, and
            // the time to get up to 320 toward q (accelerate 10 × 320 u/s²).
            let toward = nd
                .state
                .velocity
                .dot((q - nd.state.origin).normalize_or_zero());
            let spin_up = (320.0 - toward).max(0.0) / 3200.0;
            d + time_weight * 320.0 * (nd.steps as f32 * step + spin_up)
        };
        let mut best: Option<(f32, u32)> = None;
        let scan = |list: &[u32], best: &mut Option<(f32, u32)>| {
            for &n in list {
                if usable(n) {
                    let d = score(n);
                    if best.is_none_or(|b| (d, n) < b) {
                        *best = Some((d, n));
                    }
                }
            }
        };
        let home = cell(q);
        if let Some(&i) = self.index.get(&home) {
            scan(&self.cells[i].1, &mut best);
        }
        for (c, list) in &self.cells {
            if *c == home {
                continue;
            }
            // The nearest point of the cell's box bounds every node in it from below.
            let lo = Vec3::new(c.0 as f32, c.1 as f32, c.2 as f32) * CELL;
            let near = q.clamp(lo, lo + Vec3::splat(CELL));
            if best.is_some_and(|b| metric.distance(near, q) >= b.0) {
                continue;
            }
            scan(list, &mut best);
        }
        best.map(|b| b.1)
    }
}

/// The geometry the planner runs in: the map with every door that opens on approach standing
/// open (a player walking up to one finds it opening; the second or so it takes is not
/// counted). Plats, trains, buttons and doors that need a key, a shot or a trigger stay
/// where the map puts them.
pub fn planning_map(level: &crate::map::Level, cmap: &CollisionMap) -> CollisionMap {
    let mut m = cmap.clone();
    for def in &level.movers {
        if let crate::map::level::MoverKind::Door {
            open,
            touch_opens: true,
            start_open: false,
            ..
        } = def.kind
        {
            m.set_mover_offset(def.id, open);
        }
    }
    m
}

/// A teleporter the planner can take: its trigger box and where it sends a player.
#[derive(Clone, Copy, Debug)]
pub struct Teleporter {
    /// Trigger minimum corner.
    pub mins: Vec3,
    /// Trigger maximum corner.
    pub maxs: Vec3,
    /// Arrival origin.
    pub origin: Vec3,
    /// Facing on arrival.
    pub yaw: f32,
}

/// The map's working teleporters (those that need no trigger to switch them on).
pub fn teleporters(level: &crate::map::Level) -> Vec<Teleporter> {
    level
        .triggers
        .iter()
        .filter(|t| t.targetname.is_none())
        .filter_map(|t| match t.kind {
            crate::map::level::TriggerKind::Teleport { dest: Some(d) } => {
                let dst = &level.teleport_dests[d];
                Some(Teleporter {
                    mins: t.mins,
                    maxs: t.maxs,
                    origin: dst.origin,
                    yaw: dst.yaw,
                })
            }
            _ => None,
        })
        .collect()
}

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
    let mut nodes = vec![Node {
        state: start,
        parent: u32::MAX,
        cmd: UserCmd::default(),
        steps: 0,
    }];
    let mut grid = Grid::new();
    grid.insert(start.origin, 0);
    let (map_lo, _) = cmap.bounds();
    let mut best: Option<u32> = goal.filter(|g| g.reached(&start)).map(|_| 0);
    // Failed extensions per node: a node that keeps failing (against a wall, at a pit's
    // bottom) is left alone after three.
    let mut failed: Vec<u8> = vec![0];
    // Straight extensions toward the goal per node: they barely vary, so two are enough.
    let mut aimed: Vec<u8> = vec![0];
    let mut first_at = best.map(|_| 0);
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
        // (Time counts 0.9: a node that ran a full step toward the goal beats its parent,
        // so the branch grows instead of its root being extended again and again.)
        let time_weight = if straight { 0.9 } else { 0.0 };
        let Some(near) = grid.nearest(target, cfg.metric, time_weight, cfg.step, &nodes, |n| {
            nodes[n as usize].steps + 1 < limit
                && failed[n as usize] < 3
                && (!straight || aimed[n as usize] < 2)
        }) else {
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
        let (mut next, _) = pmove(&from.state, &cmd, cmap, physics, cfg.step, None::<EntId>);
        if let Some(t) = cfg.teleporters.iter().find(|t| {
            overlaps(
                next.origin + PLAYER_MINS,
                next.origin + PLAYER_MAXS,
                t.mins,
                t.maxs,
            )
        }) {
            next = crate::sim::systems::teleported(&next, t.origin, t.yaw);
        }
        if next.water_type.intersects(Contents::LAVA | Contents::SLIME)
            || next.origin.z < map_lo.z + 8.0
            || (next.origin - from.state.origin).length() < 1.0
            || grid.holds(&next, &nodes)
        {
            failed[near as usize] = failed[near as usize].saturating_add(1);
            continue;
        }
        let n = nodes.len() as u32;
        failed.push(0);
        aimed.push(0);
        nodes.push(Node {
            state: next,
            parent: near,
            cmd,
            steps: from.steps + 1,
        });
        grid.insert(next.origin, n);
        if let Some(g) = goal
            && g.reached(&next)
            && best.is_none_or(|b| nodes[n as usize].steps < nodes[b as usize].steps)
        {
            best = Some(n);
            first_at.get_or_insert(done);
        }
    }
    Plan {
        nodes,
        best,
        first_at,
        expansions: done,
        step: cfg.step,
    }
}
