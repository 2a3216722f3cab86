//! The planner's coverage grid: explored states bucketed by cell, capped per cell, and the
//! queue of goal-directed expansions ([`Grid`], [`GoalQueue`]).

use std::collections::{BinaryHeap, HashMap};

use glam::Vec3;

use super::config::{Metric, Node};
use crate::nav::hierarchy::Entry;
use crate::physics::pmove::PlayerState;

/// Nodes in cells of [`CELL`] units, for nearest-node queries.
pub(super) const CELL: f32 = 64.0;

/// Nodes one cell may hold (states standing on a lift are let in over it). Without a cap a
/// tree that found a short solution early piles every later node into the few cells its
/// time limit leaves (one pair took eight times as long without the cap). A cap of 128 was
/// too tight: the tree filled a corridor and never found its way out.
pub(super) const CELL_CAP: usize = 512;

/// Cells grouped in blocks of `BLOCK`³, so a query skips whole blocks at once.
pub(super) const BLOCK: i32 = 8;

pub(super) type Key = (i32, i32, i32);

pub(super) fn cell(p: Vec3) -> Key {
    (
        (p.x / CELL).floor() as i32,
        (p.y / CELL).floor() as i32,
        (p.z / CELL).floor() as i32,
    )
}

pub(super) fn block(c: Key) -> Key {
    (
        c.0.div_euclid(BLOCK),
        c.1.div_euclid(BLOCK),
        c.2.div_euclid(BLOCK),
    )
}

/// An occupied box of space: its corner in units of its size, the least steps of its nodes
/// (a box whose nodes are all as old as the best solution holds nothing usable) and what it
/// holds.
pub(super) struct Bucket<T> {
    pub(super) key: Key,
    pub(super) min_steps: u32,
    /// Blocks: nodes inside not yet dropped from the live lists (cells read their own
    /// list's length instead).
    pub(super) live: u32,
    pub(super) items: Vec<T>,
}

impl<T> Bucket<T> {
    /// The metric distance from `q` to a box of `size` units at `key`: a lower bound on the
    /// distance of anything inside.
    pub(super) fn bound(&self, size: f32, q: Vec3, metric: Metric) -> f32 {
        let lo = Vec3::new(self.key.0 as f32, self.key.1 as f32, self.key.2 as f32) * size;
        metric.distance(q.clamp(lo, lo + Vec3::splat(size)), q)
    }
}

/// A node's score for a query at `q`: its metric distance, plus, with a time weight, its
/// estimated arrival running straight — time so far, and the time to get up to 320 u/s
/// toward q (accelerating 10 × 320 u/s²) — times `time_weight × 320`.
pub(super) fn score(nd: &Node, q: Vec3, metric: Metric, time_weight: f32, step: f32) -> f32 {
    let d = metric.distance(nd.state.origin, q);
    if time_weight == 0.0 {
        return d;
    }
    let toward = nd
        .state
        .velocity
        .dot((q - nd.state.origin).normalize_or_zero());
    let spin_up = (320.0 - toward).max(0.0) / 3200.0;
    d + time_weight * 320.0 * (nd.steps as f32 * step + spin_up)
}

/// Nodes by their score toward the goal (which never changes for a node), least first:
/// extensions toward the goal pop from it instead of searching the grid. A node that became
/// unusable never becomes usable again (its failures and aims only grow, the time limit
/// only falls), so popping it for good is safe. (Measured on dm6, 200,000 expansions: the
/// grid scored ~8,700 nodes per extension toward the goal.)
pub(super) struct GoalQueue(pub(super) BinaryHeap<Entry>);

impl GoalQueue {
    pub(super) fn push(&mut self, score: f32, n: u32) {
        self.0.push(Entry(score, n));
    }

    /// The usable node with the least score (ties: the lower index), taken off the queue.
    pub(super) fn pop(&mut self, usable: impl Fn(u32) -> bool) -> Option<(f32, u32)> {
        while let Some(Entry(sc, n)) = self.0.pop() {
            if usable(n) {
                return Some((sc, n));
            }
        }
        None
    }
}

/// Nodes bucketed by cell (with their origins, so a distance needs no node lookup), cells
/// by block; only occupied ones are kept. A query looks at blocks, and cells within them,
/// nearest-bound first and stops at the first whose bound is worse than the best node found,
/// so its cost follows the nodes near the answer rather than the tree's size. (Measured on
/// dm6, 100,000 expansions a pair: one flat list of cells took 6.6 s a pair, this 0.9 s.
/// Scanning the 27 cells around the query first, unsorted after, was slower: samples often
/// fall where the tree has not been.)
pub(super) struct Grid {
    pub(super) cell_index: HashMap<Key, usize>,
    pub(super) cells: Vec<Bucket<(Vec3, u32)>>,
    pub(super) block_index: HashMap<Key, usize>,
    pub(super) blocks: Vec<Bucket<usize>>,
    /// Per cell, its nodes not yet found unusable. Nodes that fail [`MAX_FAILED`] times or
    /// grow as old as the best solution never become usable again, so queries drop them
    /// as they meet them, and boxes left with none are skipped. (Without this a tree whose
    /// nodes had mostly failed was scanned whole: a dm6 pair took 7 s for 200,000
    /// expansions against 1 s for 100,000.)
    pub(super) live_nodes: Vec<Vec<(Vec3, u32)>>,
}

impl Grid {
    pub(super) fn new() -> Grid {
        Grid {
            cell_index: HashMap::new(),
            cells: Vec::new(),
            block_index: HashMap::new(),
            blocks: Vec::new(),
            live_nodes: Vec::new(),
        }
    }

    pub(super) fn insert(&mut self, p: Vec3, n: u32, steps: u32) {
        let c = cell(p);
        let ci = match self.cell_index.get(&c) {
            Some(&i) => i,
            None => {
                self.cells.push(Bucket {
                    key: c,
                    min_steps: steps,
                    live: 0,
                    items: Vec::new(),
                });
                let i = self.cells.len() - 1;
                self.live_nodes.push(Vec::new());
                self.cell_index.insert(c, i);
                let b = block(c);
                let bi = *self.block_index.entry(b).or_insert_with(|| {
                    self.blocks.push(Bucket {
                        key: b,
                        min_steps: steps,
                        live: 0,
                        items: Vec::new(),
                    });
                    self.blocks.len() - 1
                });
                self.blocks[bi].items.push(i);
                i
            }
        };
        let cb = &mut self.cells[ci];
        cb.items.push((p, n));
        cb.min_steps = cb.min_steps.min(steps);
        let bi = self.block_index[&block(c)];
        let bb = &mut self.blocks[bi];
        bb.min_steps = bb.min_steps.min(steps);
        bb.live += 1;
        self.live_nodes[ci].push((p, n));
    }

    /// Whether the cell at `p` holds [`CELL_CAP`] nodes already.
    pub(super) fn full(&self, p: Vec3) -> bool {
        self.cell_index
            .get(&cell(p))
            .is_some_and(|&i| self.cells[i].items.len() >= CELL_CAP)
    }

    /// Whether a node at (almost) this position and velocity is already in the tree: in the
    /// air the controls barely matter, so expansions there repeat states.
    /// `same_movers(n)`: whether node `n`'s lifts are where the new state's are.
    pub(super) fn holds(
        &self,
        s: &PlayerState,
        nodes: &[Node],
        same_movers: impl Fn(u32) -> bool,
    ) -> bool {
        self.cell_index.get(&cell(s.origin)).is_some_and(|&i| {
            self.cells[i].items.iter().any(|&(p, n)| {
                p.distance_squared(s.origin) < 1.0
                    && nodes[n as usize]
                        .state
                        .velocity
                        .distance_squared(s.velocity)
                        < 4.0
                    && same_movers(n)
            })
        })
    }

    /// The usable node nearest to `q` by `metric`, among those younger than `limit` steps;
    /// ties go to the lower index.
    /// `dist(p, n)` is node `n`'s (at `p`) distance to `q`, never under `metric`'s.
    pub(super) fn nearest(
        &mut self,
        q: Vec3,
        metric: Metric,
        dist: impl Fn(Vec3, u32) -> f32,
        limit: u32,
        usable: impl Fn(u32) -> bool,
    ) -> Option<u32> {
        let mut best: Option<(f32, u32)> = None;

        let block_size = CELL * BLOCK as f32;
        // Blocks taken nearest-bound first (ties: the lower index) off a heap: the search
        // stops after a few, so ordering them all would be wasted.
        let mut order: BinaryHeap<Entry> = self
            .blocks
            .iter()
            .enumerate()
            .filter(|(_, b)| b.min_steps + 1 < limit && b.live > 0)
            .map(|(i, b)| Entry(b.bound(block_size, q, metric), i as u32))
            .collect();
        while let Some(Entry(lb, bi)) = order.pop() {
            let bi = bi as usize;
            // Strictly worse only: an equal bound may hide an equal distance with a lower
            // index.
            if best.is_some_and(|b| lb > b.0) {
                break;
            }
            // Cells nearest-bound first too, so the first ones scanned give a tight bound.
            let mut cells: BinaryHeap<Entry> = self.blocks[bi]
                .items
                .iter()
                .filter(|&&ci| {
                    self.cells[ci].min_steps + 1 < limit && !self.live_nodes[ci].is_empty()
                })
                .map(|&ci| Entry(self.cells[ci].bound(CELL, q, metric), ci as u32))
                .collect();
            while let Some(Entry(clb, ci)) = cells.pop() {
                let ci = ci as usize;
                if best.is_some_and(|b| clb > b.0) {
                    break;
                }
                let list = &mut self.live_nodes[ci];
                let mut k = 0;
                while k < list.len() {
                    let (p, n) = list[k];
                    let d = dist(p, n);
                    // Distance first: it needs no lookup in the node arrays.
                    if best.is_none_or(|b| (d, n) < b) {
                        if !usable(n) {
                            // For good (see `live_nodes`); the order within a cell does
                            // not matter, ties are broken by index.
                            list.swap_remove(k);
                            self.blocks[bi].live -= 1;
                            continue;
                        }
                        best = Some((d, n));
                    }
                    k += 1;
                }
            }
        }
        best.map(|b| b.1)
    }
}
