//! The one place that answers geometry questions: [`CollisionMap::trace`] (a point or an
//! axis-aligned box swept from start to end) and [`CollisionMap::point_contents`].
//!
//! Static brushes sit in a BSP-style tree (the `bsp` submodule) that culls long sweeps and rays, and in a
//! grid of 128-unit cells that answers short box sweeps, points, and lines of sight (walked
//! cell by cell from the eye, so a blocked line stops at the first brush in the way); the narrow
//! phase clips the box against each candidate brush's planes pushed out by the box's half
//! extents (the Minkowski sum, exact thanks to the bevel planes added at load), the way
//! Quake III's collision model does. Movers are brush sets with an offset that the simulation
//! moves; bodies are player boxes. Everything is f32 and evaluated in a fixed order, so the
//! answers are deterministic.
//!
//! Files: `trace` (sweeps and point contents), `sight` (lines of sight), `grid` (the brush
//! grid), `bsp` (the brush tree), `clip` (the narrow phase against one brush).

mod clip;
mod grid;
mod sight;
mod trace;

use std::sync::Arc;

use glam::Vec3;
use serde::Serialize;

use super::brush::{Brush, Contents};
use grid::BrushGrid;
use grid::CANDIDATES;
pub use sight::NO_BLOCKER;
pub use trace::{overlaps, touches};

mod bsp;

/// Stable id of something that can be hit: 0 is the world, movers and players follow.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, serde::Deserialize,
)]
pub struct EntId(pub u32);

impl EntId {
    /// The static world.
    pub const WORLD: EntId = EntId(0);
}

/// Traces stop this far in front of a surface so the next trace does not start inside it
/// (Quake's DIST_EPSILON).
pub const DIST_EPSILON: f32 = 0.03125;

/// The answer to a sweep.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Trace {
    /// Part of the way covered, 0..=1 (1 = nothing hit).
    pub fraction: f32,
    /// Where the box ended.
    pub end_pos: Vec3,
    /// Normal of the plane hit (zero when nothing was hit).
    pub normal: Vec3,
    /// Contents of what was hit.
    pub contents: Contents,
    /// What was hit: the world, a mover or a body.
    pub ent: Option<EntId>,
    /// The start position was inside something of the mask.
    pub start_solid: bool,
    /// The whole sweep was inside something (fraction is 0).
    pub all_solid: bool,
}

#[derive(Clone)]
struct Mover {
    id: EntId,
    brushes: Arc<[Brush]>,
    mins: Vec3,
    maxs: Vec3,
    offset: Vec3,
}

#[derive(Clone, Copy)]
struct Body {
    id: EntId,
    mins: Vec3,
    maxs: Vec3,
}

thread_local! {
    /// Traces answered on this thread (statistics). Per thread, so a stage running bots on
    /// worker threads counts each bot's traces exactly, and no cache line is shared.
    static TRACES: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    /// Traces that remembered answers stood in for on this thread (statistics; see
    /// [`memo_traces_on_this_thread`]).
    static MEMO_TRACES: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Traces that remembered answers (the reachability memo,
/// [`crate::nav::reach::reachable_counted`]) stood in for on the calling thread so far:
/// what those answers cost when first computed. Statistics, like
/// [`traces_on_this_thread`]: take differences.
pub fn memo_traces_on_this_thread() -> u64 {
    MEMO_TRACES.with(|t| t.get())
}

/// Adds `n` traces a remembered answer stood in for, on this thread's behalf (the answer's
/// own thread, or the worker pool handing back its workers' counts).
pub fn count_memo_here(n: u64) {
    MEMO_TRACES.with(|t| t.set(t.get() + n));
}

/// Traces answered on the calling thread so far (on any map): take differences.
pub fn traces_on_this_thread() -> u64 {
    TRACES.with(|t| t.get())
}

/// Adds `n` traces done elsewhere on this thread's behalf (a worker pool hands back what
/// its workers traced, so a stage's count is the same for any number of threads).
pub fn count_traces_here(n: u64) {
    TRACES.with(|t| t.set(t.get() + n));
}

/// The collision world of one map.
#[derive(Clone)]
pub struct CollisionMap {
    /// The static world, shared between clones (a clone differs only in its movers' offsets
    /// and its bodies: navigation keeps one per mover position).
    brushes: Arc<[Brush]>,
    /// Every kind of contents some brush has (static or mover).
    present: Contents,
    tree: Arc<bsp::BrushBsp>,
    grid: Arc<BrushGrid>,
    mins: Vec3,
    maxs: Vec3,
    movers: Vec<Mover>,
    /// Player boxes, in id order.
    bodies: Vec<Body>,
    /// The same bodies in order of their low x (then id), so that a trace tests only the
    /// bodies in its x range: with a hundred players a scan of all of them per trace was a
    /// tenth of a tick.
    bodies_by_x: Vec<Body>,
    /// The widest body along x (a body starting this far below a range may reach into it).
    body_width: f32,
    /// Names the brushes and movers where they are now: a new number for every map made
    /// and every mover moved (clones share it while theirs stand where the original's did),
    /// so that answers computed from the geometry alone can be kept while it holds.
    geometry: u64,
}

/// The next [`CollisionMap::geometry`] number.
static NEXT_GEOMETRY: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

fn new_geometry() -> u64 {
    NEXT_GEOMETRY.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

impl CollisionMap {
    /// Calls `f` with the thread's scratch bitset, one bit per static brush, all zero; `f`
    /// leaves it all zero.
    fn with_marks<R>(&self, f: impl FnOnce(&mut [u64]) -> R) -> R {
        CANDIDATES.with(|c| {
            let mut bits = c.borrow_mut();
            let words = self.brushes.len().div_ceil(64);
            if bits.len() < words {
                bits.resize(words, 0);
            }
            f(&mut bits[..words])
        })
    }

    /// Builds the world from static brushes and mover brush sets (absolute coordinates at
    /// spawn, offset zero).
    pub fn new(brushes: Vec<Brush>, movers: Vec<(EntId, Vec<Brush>)>) -> CollisionMap {
        let tree = bsp::BrushBsp::new(&brushes);
        let mut mins = Vec3::splat(f32::INFINITY);
        let mut maxs = Vec3::splat(f32::NEG_INFINITY);
        for b in brushes.iter().chain(movers.iter().flat_map(|m| m.1.iter())) {
            mins = mins.min(b.mins);
            maxs = maxs.max(b.maxs);
        }
        if !mins.is_finite() {
            mins = Vec3::ZERO;
            maxs = Vec3::ZERO;
        }
        let movers: Vec<Mover> = movers
            .into_iter()
            .map(|(id, brushes)| {
                let mut mn = Vec3::splat(f32::INFINITY);
                let mut mx = Vec3::splat(f32::NEG_INFINITY);
                for b in &brushes {
                    mn = mn.min(b.mins);
                    mx = mx.max(b.maxs);
                }
                Mover {
                    id,
                    brushes: brushes.into(),
                    mins: mn,
                    maxs: mx,
                    offset: Vec3::ZERO,
                }
            })
            .collect();
        let grid = BrushGrid::new(&brushes, mins, maxs);
        let present = brushes
            .iter()
            .chain(movers.iter().flat_map(|m| m.brushes.iter()))
            .fold(Contents::EMPTY, |c, b| c | b.contents);
        CollisionMap {
            present,
            brushes: brushes.into(),
            tree: Arc::new(tree),
            grid: Arc::new(grid),
            mins,
            maxs,
            movers,
            bodies: Vec::new(),
            bodies_by_x: Vec::new(),
            body_width: 0.0,
            geometry: new_geometry(),
        }
    }

    /// Whether any brush has contents of a kind in `c` (a map without water has no swimming
    /// to look for).
    pub fn has(&self, c: Contents) -> bool {
        self.present.intersects(c)
    }

    /// Traces answered on the calling thread so far (on any map): take differences.
    pub fn trace_count(&self) -> u64 {
        traces_on_this_thread()
    }

    /// Bounds of all geometry.
    pub fn bounds(&self) -> (Vec3, Vec3) {
        (self.mins, self.maxs)
    }

    /// The static brushes.
    pub fn brushes(&self) -> &[Brush] {
        &self.brushes
    }

    /// Every mover's brushes (at offset zero) with its current offset, in id order.
    pub fn mover_geometry(&self) -> impl Iterator<Item = (EntId, &[Brush], Vec3)> + '_ {
        self.movers.iter().map(|m| (m.id, &m.brushes[..], m.offset))
    }

    /// Moves a mover's brushes to `offset` from where the map placed them.
    pub fn set_mover_offset(&mut self, id: EntId, offset: Vec3) {
        if let Some(m) = self.movers.iter_mut().find(|m| m.id == id)
            && m.offset.to_array().map(f32::to_bits) != offset.to_array().map(f32::to_bits)
        {
            m.offset = offset;
            self.geometry = new_geometry();
        }
    }

    /// A number naming the brushes and movers as they stand now: equal numbers, equal
    /// answers to every question of the geometry (traces that ignore player bodies,
    /// contents). Changes when a mover moves.
    pub fn geometry(&self) -> u64 {
        self.geometry
    }

    /// A mover's current offset.
    pub fn mover_offset(&self, id: EntId) -> Option<Vec3> {
        self.movers.iter().find(|m| m.id == id).map(|m| m.offset)
    }

    /// A mover's current absolute bounds.
    pub fn mover_bounds(&self, id: EntId) -> Option<(Vec3, Vec3)> {
        self.movers
            .iter()
            .find(|m| m.id == id)
            .map(|m| (m.mins + m.offset, m.maxs + m.offset))
    }

    /// Places (or moves) a body box: `origin + mins ..= origin + maxs`.
    pub fn set_body(&mut self, id: EntId, origin: Vec3, mins: Vec3, maxs: Vec3) {
        let b = Body {
            id,
            mins: origin + mins,
            maxs: origin + maxs,
        };
        self.body_width = self.body_width.max(b.maxs.x - b.mins.x);
        match self.bodies.binary_search_by_key(&id, |b| b.id) {
            Ok(i) => {
                let old = std::mem::replace(&mut self.bodies[i], b);
                let mut k = self.body_in_x(&old);
                self.bodies_by_x[k] = b;
                // A body moves a few units a tick: bubble it to its place.
                let x = &mut self.bodies_by_x;
                while k > 0 && x_order(&x[k - 1], &x[k]).is_gt() {
                    x.swap(k - 1, k);
                    k -= 1;
                }
                while k + 1 < x.len() && x_order(&x[k + 1], &x[k]).is_lt() {
                    x.swap(k + 1, k);
                    k += 1;
                }
            }
            Err(i) => {
                self.bodies.insert(i, b);
                let k = self.bodies_by_x.partition_point(|x| x_order(x, &b).is_lt());
                self.bodies_by_x.insert(k, b);
            }
        }
    }

    /// Removes every body: the world as it is with no players in it.
    pub fn clear_bodies(&mut self) {
        self.bodies.clear();
        self.bodies_by_x.clear();
        self.body_width = 0.0;
    }

    /// Removes a body (dead players do not block).
    pub fn remove_body(&mut self, id: EntId) {
        if let Ok(i) = self.bodies.binary_search_by_key(&id, |b| b.id) {
            let old = self.bodies.remove(i);
            let k = self.body_in_x(&old);
            self.bodies_by_x.remove(k);
        }
    }
}

#[cfg(test)]
mod tests;

/// The order of `CollisionMap::bodies_by_x`: low x, then id.
fn x_order(a: &Body, b: &Body) -> std::cmp::Ordering {
    a.mins.x.total_cmp(&b.mins.x).then(a.id.cmp(&b.id))
}
