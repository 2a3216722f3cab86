//! Spatial queries on the waypoint graph: the waypoints near a point, the nearest ones, and
//! the column grid that answers them.

use super::WaypointGraph;
use super::{CELL, cell_of};
use glam::Vec3;

/// Nearer first, ties to the lower number: the order of [`WaypointGraph::near`].
pub(super) fn nearer(a: &(u32, f32), b: &(u32, f32)) -> std::cmp::Ordering {
    a.1.total_cmp(&b.1).then(a.0.cmp(&b.0))
}

impl WaypointGraph {
    /// Waypoints within `radius` of `p`, nearest first (ties by number).
    pub fn near(&self, p: Vec3, radius: f32) -> Vec<(u32, f32)> {
        let mut out = Vec::new();
        self.each_within(p, radius, |n, d| out.push((n, d)));
        out.sort_by(nearer);
        out
    }

    /// The first `k` of [`WaypointGraph::near`] (the same waypoints in the same order),
    /// without sorting the others: most searches try only the nearest few.
    pub fn near_k(&self, p: Vec3, radius: f32, k: usize) -> Vec<(u32, f32)> {
        if k == 0 {
            return Vec::new();
        }
        // Room for the rings' usual yield, grown rarely (a search was 0.5 % of a 128-bot
        // tick in reallocations).
        let mut out = Vec::with_capacity(4 * k);
        // Ring by ring of columns around `p`'s, nearest first: once `k` are found nearer
        // than any column outside the rings so far can hold, the rest need no look (most
        // searches want the nearest 4–8 of a dense graph, within 320–512 units: 49–81
        // columns in all).
        let c = cell_of(p);
        let rings = (radius / CELL).ceil() as i32;
        for j in 0..=rings {
            self.each_in_ring(p, c, j, radius, |n, d| out.push((n, d)));
            if j < rings && out.len() >= k {
                // The distance across from `p` to the edge of the square the rings cover
                // (less a hair for the rounding of a distance): every waypoint outside it
                // lies at least that far.
                let (lo, hi) = (c.0 - j, c.1 - j);
                let edge = (p.x - lo as f32 * CELL)
                    .min((lo + 2 * j + 1) as f32 * CELL - p.x)
                    .min(p.y - hi as f32 * CELL)
                    .min((hi + 2 * j + 1) as f32 * CELL - p.y)
                    - 0.01;
                if out.iter().filter(|x| x.1 < edge).count() >= k {
                    break;
                }
            }
        }
        if out.len() > k {
            // The order is total (distance, then number), so the k smallest are one set.
            out.select_nth_unstable_by(k, nearer);
            out.truncate(k);
        }
        out.sort_by(nearer);
        out
    }

    /// How many waypoints lie within `radius` of `p` (the length of [`WaypointGraph::near`]).
    pub fn count_within(&self, p: Vec3, radius: f32) -> usize {
        let mut n = 0;
        self.each_within(p, radius, |_, _| n += 1);
        n
    }

    /// The first of [`WaypointGraph::near`], found without a list.
    pub fn nearest(&self, p: Vec3, radius: f32) -> Option<(u32, f32)> {
        let nearest_in = |r: i32| {
            let mut best: Option<(u32, f32)> = None;
            self.each_within_columns(p, r, radius, |n, d| {
                if best.is_none_or(|b| nearer(&(n, d), &b).is_lt()) {
                    best = Some((n, d));
                }
            });
            best
        };
        // The 3 × 3 columns around `p` first: every point outside them lies at least a
        // column's width away across, so a waypoint nearer than that is the answer (9
        // lookups instead of 25 at the usual radius).
        if radius > CELL {
            let best = nearest_in(1);
            if best.is_some_and(|(_, d)| d < CELL) {
                return best;
            }
        }
        nearest_in((radius / CELL).ceil() as i32)
    }

    /// Calls `f` with every waypoint within `radius` of `p` and its distance, in no
    /// particular order.
    pub(super) fn each_within(&self, p: Vec3, radius: f32, f: impl FnMut(u32, f32)) {
        self.each_within_columns(p, (radius / CELL).ceil() as i32, radius, f);
    }

    /// [`WaypointGraph::each_within`] over the columns exactly `j` columns from `c` (`p`'s)
    /// across or along: the ring of a square of side `2j + 1`.
    pub(super) fn each_in_ring(
        &self,
        p: Vec3,
        c: (i32, i32, i32),
        j: i32,
        radius: f32,
        mut f: impl FnMut(u32, f32),
    ) {
        // One lookup per column (x, y); the distance test drops the other floors.
        let mut column = |x: i32, y: i32| {
            for &n in self.grid.get(&(x, y)).into_iter().flatten() {
                let d = self.waypoints[n as usize].origin.distance(p);
                if d <= radius {
                    f(n, d);
                }
            }
        };
        if j == 0 {
            column(c.0, c.1);
            return;
        }
        for x in c.0 - j..=c.0 + j {
            column(x, c.1 - j);
            column(x, c.1 + j);
        }
        for y in c.1 - j + 1..c.1 + j {
            column(c.0 - j, y);
            column(c.0 + j, y);
        }
    }

    /// [`WaypointGraph::each_within`] over the columns at most `r` from `p`'s.
    pub(super) fn each_within_columns(
        &self,
        p: Vec3,
        r: i32,
        radius: f32,
        mut f: impl FnMut(u32, f32),
    ) {
        let c = cell_of(p);
        for j in 0..=r {
            self.each_in_ring(p, c, j, radius, &mut f);
        }
    }
}
