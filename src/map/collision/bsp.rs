//! A BSP-style tree of the static brushes, walked the way Quake III's collision model walks
//! its BSP (`CM_TraceThroughTree`): the collision module finds through it the brushes that
//! rays and box sweeps too long for its grid may touch. Measured on dm4 on the same
//! segments and narrow phase (`botarena bench`'s trace rates), the tree answers first-hit
//! rays in 0.32 µs and player-box sweeps of up to 512 units in 0.46 µs where a
//! nearest-first walk of parry3d's BVH over the brush boxes took 0.45 and 0.58 (a weapon's
//! 8192-unit shot: 0.33 against 0.46). Building it costs 2-8 ms a map load more than the
//! BVH did. Real matches send few traces this way (about 0.3 per bot-tick on dm4, mostly
//! shots), so their speed is unchanged.
//!
//! id's compiler splits space by the brushes' own face planes; here the splitting planes
//! are axial and lie on brush box faces (most faces of a Quake map are axial), chosen by
//! the surface-area heuristic down to a brush a leaf where a split pays, and every brush is
//! listed in each leaf its box overlaps (Q3's leaf brushes). A segment descends near side
//! first, split at each plane with the box's extent (plus a unit) as the plane's thickness,
//! and every part that starts after the hit so far is left out.

use glam::{Vec3, Vec3A};

use super::Brush;

/// Leaves hold at most this many brushes unless no split helps.
const LEAF_BRUSHES: usize = 1;
/// Deepest a leaf lies (the walk's stack is this deep).
const MAX_DEPTH: usize = 40;
/// Split positions tried per axis and node (evenly among the brush faces inside the node).
const CANDIDATES: usize = 48;

#[derive(Clone, Copy, Debug)]
enum Node {
    /// Space below `dist` along `axis` is `low`'s, above it `high`'s.
    Split {
        axis: usize,
        dist: f32,
        low: u32,
        high: u32,
    },
    /// The brushes `leaves[first..first + len]`.
    Leaf { first: u32, len: u32 },
}

/// The tree ([`BrushBsp::new`]), walked by [`BrushBsp::walk`].
pub struct BrushBsp {
    nodes: Vec<Node>,
    leaves: Vec<LeafBrush>,
}

/// A brush listed in a leaf, with its box (read in a row while a leaf is searched).
pub(super) struct LeafBrush {
    pub index: u32,
    pub mins: Vec3A,
    pub maxs: Vec3A,
}

impl BrushBsp {
    /// Builds the tree over the static brushes.
    pub fn new(brushes: &[Brush]) -> BrushBsp {
        let mut bsp = BrushBsp {
            nodes: Vec::new(),
            leaves: Vec::new(),
        };
        let (mut lo, mut hi) = (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY));
        for b in brushes.iter() {
            lo = lo.min(b.mins);
            hi = hi.max(b.maxs);
        }
        if !lo.is_finite() {
            (lo, hi) = (Vec3::ZERO, Vec3::ZERO);
        }
        let all: Vec<u32> = (0..brushes.len() as u32).collect();
        bsp.build(brushes, all, lo, hi, 0);
        bsp
    }

    /// Nodes and leaves in the tree.
    #[cfg(test)]
    pub fn nodes(&self) -> usize {
        self.nodes.len()
    }

    /// Brush entries over all leaves (a brush is listed in every leaf it overlaps).
    #[cfg(test)]
    pub fn leaf_entries(&self) -> usize {
        self.leaves.len()
    }

    /// Adds the subtree over `items` (inside `lo..hi`); returns its node.
    fn build(
        &mut self,
        brushes: &[Brush],
        items: Vec<u32>,
        lo: Vec3,
        hi: Vec3,
        depth: usize,
    ) -> u32 {
        let at = self.nodes.len() as u32;
        self.nodes.push(Node::Leaf { first: 0, len: 0 });
        let split = if items.len() > LEAF_BRUSHES && depth < MAX_DEPTH {
            best_split(brushes, &items, lo, hi)
        } else {
            None
        };
        let Some((axis, dist)) = split else {
            self.nodes[at as usize] = Node::Leaf {
                first: self.leaves.len() as u32,
                len: items.len() as u32,
            };
            self.leaves.extend(items.iter().map(|&i| LeafBrush {
                index: i,
                mins: brushes[i as usize].mins.into(),
                maxs: brushes[i as usize].maxs.into(),
            }));
            return at;
        };
        let below: Vec<u32> = items
            .iter()
            .copied()
            .filter(|&i| brushes[i as usize].mins[axis] < dist)
            .collect();
        let above: Vec<u32> = items
            .iter()
            .copied()
            .filter(|&i| brushes[i as usize].maxs[axis] > dist)
            .collect();
        drop(items);
        let (mut low_hi, mut high_lo) = (hi, lo);
        low_hi[axis] = dist;
        high_lo[axis] = dist;
        let low = self.build(brushes, below, lo, low_hi, depth + 1);
        let high = self.build(brushes, above, high_lo, hi, depth + 1);
        self.nodes[at as usize] = Node::Split {
            axis,
            dist,
            low,
            high,
        };
        at
    }

    /// Calls `leaf` with the brushes of each leaf the segment `s + t·d` (t in 0..=1), grown
    /// by `grow` on every side, passes through, nearest first, leaving out the parts that
    /// start after the fraction `leaf` last returned; `None` from `leaf` ends the walk.
    pub(super) fn walk(
        &self,
        s: Vec3,
        d: Vec3,
        grow: Vec3,
        mut leaf: impl FnMut(&[LeafBrush]) -> Option<f32>,
    ) {
        let mut stack = [(0u32, 0.0f32, 0.0f32); MAX_DEPTH + 1];
        let mut top = 0;
        let mut limit = 1.0f32;
        let (mut node, mut t0, mut t1) = (0u32, 0.0f32, 1.0f32);
        loop {
            if t0 <= limit {
                match self.nodes[node as usize] {
                    Node::Leaf { first, len } => {
                        match leaf(&self.leaves[first as usize..(first + len) as usize]) {
                            Some(l) => limit = l,
                            None => return,
                        }
                    }
                    Node::Split {
                        axis,
                        dist,
                        low,
                        high,
                    } => {
                        let (sa, da, off) = (s[axis], d[axis], grow[axis]);
                        let a = sa + da * t0 - dist;
                        let b = sa + da * t1 - dist;
                        if a >= off && b >= off {
                            node = high;
                            continue;
                        }
                        if a <= -off && b <= -off {
                            node = low;
                            continue;
                        }
                        // Both sides: the near one now, the far one (from where the segment
                        // comes within `off` of the plane) on the stack.
                        let (near, far, near_end, far_start) = if da == 0.0 {
                            (low, high, t1, t0)
                        } else {
                            let to_high = (dist - off - sa) / da;
                            let to_low = (dist + off - sa) / da;
                            if da > 0.0 {
                                (low, high, to_low.min(t1), to_high.max(t0))
                            } else {
                                (high, low, to_high.min(t1), to_low.max(t0))
                            }
                        };
                        if far_start <= t1 {
                            stack[top] = (far, far_start, t1);
                            top += 1;
                        }
                        if t0 <= near_end {
                            (node, t1) = (near, near_end);
                            continue;
                        }
                    }
                }
            }
            if top == 0 {
                return;
            }
            top -= 1;
            (node, t0, t1) = stack[top];
        }
    }
}

/// The axis and position of the split of `items` (inside `lo..hi`) that the surface-area
/// heuristic likes best, if one is worth a node: the expected brushes tested by a segment
/// through the node, each side's count weighted by its share of the node's surface.
fn best_split(brushes: &[Brush], items: &[u32], lo: Vec3, hi: Vec3) -> Option<(usize, f32)> {
    let area = |lo: Vec3, hi: Vec3| {
        let e = (hi - lo).max(Vec3::ZERO);
        e.x * e.y + e.y * e.z + e.z * e.x
    };
    let n = items.len();
    let mut best: Option<(f32, usize, f32)> = None;
    for axis in 0..3 {
        let mut starts: Vec<f32> = items
            .iter()
            .map(|&i| brushes[i as usize].mins[axis])
            .collect();
        let mut ends: Vec<f32> = items
            .iter()
            .map(|&i| brushes[i as usize].maxs[axis])
            .collect();
        starts.sort_by(f32::total_cmp);
        ends.sort_by(f32::total_cmp);
        let mut faces: Vec<f32> = starts
            .iter()
            .chain(ends.iter())
            .copied()
            .filter(|&p| p > lo[axis] && p < hi[axis])
            .collect();
        faces.sort_by(f32::total_cmp);
        faces.dedup();
        let step = faces.len().div_ceil(CANDIDATES).max(1);
        for &p in faces.iter().step_by(step) {
            let below = starts.partition_point(|&v| v < p);
            let above = n - ends.partition_point(|&v| v <= p);
            if below == n && above == n {
                continue;
            }
            let (mut low_hi, mut high_lo) = (hi, lo);
            low_hi[axis] = p;
            high_lo[axis] = p;
            let cost = area(lo, low_hi) * below as f32 + area(high_lo, hi) * above as f32;
            if best.is_none_or(|(c, _, _)| cost < c) {
                best = Some((cost, axis, p));
            }
        }
    }
    let (cost, axis, p) = best?;
    // Split wherever the children's expected tests are fewer than the node's (a leaf of one
    // brush costs a node visit and a slab test; leaves of four brushes were 30 % slower on
    // dm4's rays, and a stricter split threshold slower still).
    (cost < area(lo, hi) * n as f32).then_some((axis, p))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::Contents;

    #[test]
    fn brushes_in_a_row_split_into_leaves_of_one() {
        // Sixteen separate boxes along x: the heuristic splits between each pair, every brush
        // lies in one leaf, and a segment along the row meets the leaves nearest first.
        let brushes: Vec<Brush> = (0..16)
            .map(|k| {
                let x = k as f32 * 64.0;
                Brush::from_box(
                    Vec3::new(x, 0.0, 0.0),
                    Vec3::new(x + 32.0, 32.0, 32.0),
                    Contents::SOLID,
                )
            })
            .collect();
        let tree = BrushBsp::new(&brushes);
        assert_eq!(tree.leaf_entries(), 16);
        assert_eq!(tree.nodes(), 31, "15 splits and 16 leaves");
        for (s, e, order) in [
            (
                Vec3::new(-100.0, 16.0, 16.0),
                Vec3::new(1200.0, 16.0, 16.0),
                (0..16).collect::<Vec<u32>>(),
            ),
            (
                Vec3::new(1200.0, 16.0, 16.0),
                Vec3::new(-100.0, 16.0, 16.0),
                (0..16).rev().collect(),
            ),
        ] {
            let mut met = Vec::new();
            tree.walk(s, e - s, Vec3::ONE, |leaf| {
                met.extend(leaf.iter().map(|b| b.index));
                Some(1.0)
            });
            assert_eq!(met, order);
            // A hit so far leaves out every leaf that starts after it.
            let mut met = Vec::new();
            tree.walk(s, e - s, Vec3::ONE, |leaf| {
                met.extend(leaf.iter().map(|b| b.index));
                Some(0.0)
            });
            assert_eq!(met.len(), 1, "only the first leaf: {met:?}");
        }
    }
}
