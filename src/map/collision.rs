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

use std::sync::Arc;

use glam::{Vec3, Vec3A};
use serde::Serialize;

use super::brush::{Brush, Contents, Plane};

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

struct Work {
    fraction: f32,
    normal: Vec3,
    contents: Contents,
    ent: Option<EntId>,
    start_solid: bool,
    all_solid: bool,
    /// The static brush whose hit is kept ([`NO_BLOCKER`] for none).
    brush: u32,
}

impl Work {
    fn new() -> Work {
        Work {
            fraction: 1.0,
            normal: Vec3::ZERO,
            contents: Contents::EMPTY,
            ent: None,
            start_solid: false,
            all_solid: false,
            brush: NO_BLOCKER,
        }
    }

    /// Keeps what a clip of something other than a static brush found, in the order the
    /// clips come (movers in id order, then bodies): a hit replaces the one kept when it
    /// enters sooner.
    fn take(&mut self, clip: Clip, contents: Contents, ent: EntId) {
        match clip {
            Clip::Miss => {}
            Clip::Inside { all_solid } => self.inside(all_solid, contents, ent),
            Clip::Enter { at, normal } => {
                if at < self.fraction {
                    self.hit(at, normal, contents, ent);
                }
            }
        }
    }

    /// Keeps what the clip of static brush `index` found so that the answer is the one
    /// [`Work::take`] gives the static brushes in index order, whatever order they come in
    /// (the grid yields them in index order, the tree nearest first): the soonest hit, the
    /// lowest index among equal ones. (A brush holding the whole sweep stops the search:
    /// then the answer is that brush's, with the normal an earlier hit left.)
    fn take_static(&mut self, clip: Clip, contents: Contents, index: u32) {
        match clip {
            Clip::Miss => {}
            Clip::Inside { all_solid } => self.inside(all_solid, contents, EntId::WORLD),
            Clip::Enter { at, normal } => {
                let kept = self.brush != NO_BLOCKER;
                if at < self.fraction || (kept && at == self.fraction && index < self.brush) {
                    self.hit(at, normal, contents, EntId::WORLD);
                    self.brush = index;
                }
            }
        }
    }

    fn inside(&mut self, all_solid: bool, contents: Contents, ent: EntId) {
        self.start_solid = true;
        if all_solid {
            self.all_solid = true;
            self.fraction = 0.0;
            self.contents = contents;
            self.ent = Some(ent);
        }
    }

    fn hit(&mut self, at: f32, normal: Vec3, contents: Contents, ent: EntId) {
        self.fraction = at;
        self.normal = normal;
        self.contents = contents;
        self.ent = Some(ent);
    }
}

/// What clipping a sweep against one convex set of planes found ([`clip_planes`]).
#[derive(Clone, Copy)]
enum Clip {
    /// The sweep does not touch it.
    Miss,
    /// The sweep starts inside; `all_solid` when it also ends inside.
    Inside { all_solid: bool },
    /// The sweep enters it at the fraction `at` (0..1: a 1/32 unit short of the plane,
    /// or 0 where the start is nearer than that), through the plane of `normal`.
    Enter { at: f32, normal: Vec3 },
}

impl CollisionMap {
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

    /// Calls `f` with each static brush (its index and itself) whose box overlaps `lo..hi`,
    /// until it returns `None`. Short box sweeps (most: a player's step, a reachability
    /// march) and narrow rays (floor probes) read the grid, in index order; other rays and
    /// long sweeps walk the tree near side first along the segment `s + t·d` grown by
    /// `grow`, and leave out the parts of it, and the brushes, that the grown segment enters
    /// only after the fraction `t` that `f` last returned (`f` says no brush entered beyond
    /// it matters: a sweep that has hit something at `t`).
    fn brushes_along(
        &self,
        lo: Vec3,
        hi: Vec3,
        seg: (Vec3, Vec3, Vec3),
        mut f: impl FnMut(u32, &Brush) -> Option<f32>,
    ) {
        if grid_answers(lo, hi, seg.2) {
            // A brush spans several cells: the candidates that overlap are marked in a
            // bitset, which also yields them deduplicated and in index order (without
            // sorting).
            self.with_marks(|bits| {
                // The words marked lie in `first..=last`: only those are read back (a query
                // marks a few brushes of the hundreds a map has).
                let (mut first, mut last) = (usize::MAX, 0);
                let (lo4, hi4) = (Vec3A::from(lo), Vec3A::from(hi));
                self.grid.for_cells(lo, hi, |cell| {
                    for b in &self.grid.cells[cell] {
                        if b.mins.z >= hi.z {
                            break;
                        }
                        // `overlaps`, the six comparisons at once.
                        if (lo4.cmplt(b.maxs) & b.mins.cmplt(hi4)).all() {
                            let k = (b.index / 64) as usize;
                            bits[k] |= 1 << (b.index % 64);
                            first = first.min(k);
                            last = last.max(k);
                        }
                    }
                });
                if first > last {
                    return;
                }
                let mut go = true;
                for (k, word) in bits[first..=last].iter_mut().enumerate() {
                    let k = k + first;
                    let mut m = std::mem::take(word);
                    while go && m != 0 {
                        let i = k * 64 + m.trailing_zeros() as usize;
                        m &= m - 1;
                        go = f(i as u32, &self.brushes[i]).is_some();
                    }
                }
            });
        } else {
            self.brushes_in_tree(seg, f);
        }
    }

    /// The tree's part of [`CollisionMap::brushes_along`] (kept out of line: the grid's part
    /// answers most traces).
    #[inline(never)]
    fn brushes_in_tree(
        &self,
        seg: (Vec3, Vec3, Vec3),
        mut f: impl FnMut(u32, &Brush) -> Option<f32>,
    ) {
        let (s, d, grow) = seg;
        // Nearest first: a sweep mostly hits what it meets first, and then every part of
        // the segment beyond that hit is left out. A part starting exactly at the hit so
        // far may hold a brush hit at the same fraction (a tie, settled by index), so it
        // is visited; `None` from `f` (stuck in a brush) ends the walk. A brush listed in
        // several leaves is clipped once.
        let ray = Segment::new(s, d);
        let grow4 = Vec3A::from(grow);
        self.with_marks(|seen| {
            let mut limit = 1.0f32;
            self.tree.walk(s, d, grow, |brushes| {
                for b in brushes {
                    let (k, bit) = ((b.index / 64) as usize, 1u64 << (b.index % 64));
                    if seen[k] & bit != 0 {
                        continue;
                    }
                    // A brush whose grown box the segment enters only after the hit so
                    // far (or misses) is left out, as it would be in any later leaf.
                    seen[k] |= bit;
                    if ray
                        .entry_by(b.mins - grow4, b.maxs + grow4, limit)
                        .is_some()
                    {
                        limit = f(b.index, &self.brushes[b.index as usize])?;
                    }
                }
                Some(limit)
            });
            seen.fill(0);
        });
    }

    /// Calls `f` with each static brush (and its grid entry) whose grid cells the segment
    /// `a`–`b` passes through, each once, in the order of the cells from `a`, until it
    /// returns false.
    fn brushes_on_line(&self, a: Vec3, b: Vec3, mut f: impl FnMut(&CellBrush, &Brush) -> bool) {
        self.with_marks(|tested| {
            self.grid.walk(a, b, |cell| {
                for cb in &self.grid.cells[cell] {
                    let (w, bit) = ((cb.index / 64) as usize, 1u64 << (cb.index % 64));
                    if tested[w] & bit != 0 {
                        continue;
                    }
                    tested[w] |= bit;
                    if !f(cb, &self.brushes[cb.index as usize]) {
                        return false;
                    }
                }
                true
            });
            tested.fill(0);
        });
    }

    /// Whether any brush has contents of a kind in `c` (a map without water has no swimming
    /// to look for).
    pub fn has(&self, c: Contents) -> bool {
        self.present.intersects(c)
    }

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

    /// Removes a body (dead players do not block).
    pub fn remove_body(&mut self, id: EntId) {
        if let Ok(i) = self.bodies.binary_search_by_key(&id, |b| b.id) {
            let old = self.bodies.remove(i);
            let k = self.body_in_x(&old);
            self.bodies_by_x.remove(k);
        }
    }

    /// Where `body` is in `bodies_by_x`.
    fn body_in_x(&self, body: &Body) -> usize {
        self.bodies_by_x
            .binary_search_by(|e| x_order(e, body))
            .expect("every body is in the x order")
    }

    /// Calls `f` with each body overlapping `lo..hi` except `ignore`, in id order.
    fn bodies_along(&self, lo: Vec3, hi: Vec3, ignore: Option<EntId>, mut f: impl FnMut(&Body)) {
        // Few bodies: testing them all is cheapest. Else the few in the x range are gathered
        // and put in id order; a range holding too many for the buffer (or not finite)
        // tests them all.
        const MAX: usize = 16;
        let mut near = [0u16; MAX];
        let mut n = 0;
        if self.bodies.len() > MAX && lo.x.is_finite() && hi.x.is_finite() {
            // One unit more: the width and this difference are rounded.
            let from = lo.x - self.body_width - 1.0;
            let start = self
                .bodies_by_x
                .partition_point(|b| b.mins.x.total_cmp(&from).is_le());
            for (k, b) in self.bodies_by_x.iter().enumerate().skip(start) {
                if b.mins.x >= hi.x {
                    break;
                }
                if Some(b.id) != ignore && overlaps(lo, hi, b.mins, b.maxs) {
                    if n == MAX || k > u16::MAX as usize {
                        n = usize::MAX;
                        break;
                    }
                    near[n] = k as u16;
                    n += 1;
                }
            }
        } else {
            n = usize::MAX;
        }
        if n == usize::MAX {
            for b in &self.bodies {
                if Some(b.id) != ignore && overlaps(lo, hi, b.mins, b.maxs) {
                    f(b);
                }
            }
            return;
        }
        let near = &mut near[..n];
        near.sort_unstable_by_key(|&k| self.bodies_by_x[k as usize].id);
        for &k in near.iter() {
            f(&self.bodies_by_x[k as usize]);
        }
    }

    /// Sweeps the box `mins..maxs` (relative to its origin) from `start` to `end` against
    /// everything whose contents intersect `mask`, ignoring the entity `ignore`. A zero box
    /// is a ray.
    pub fn trace(
        &self,
        start: Vec3,
        end: Vec3,
        mins: Vec3,
        maxs: Vec3,
        mask: Contents,
        ignore: Option<EntId>,
    ) -> Trace {
        TRACES.with(|t| t.set(t.get() + 1));
        let centre = (mins + maxs) * 0.5;
        let half = (maxs - mins) * 0.5;
        let s = start + centre;
        let e = end + centre;
        let lo = s.min(e) - half - Vec3::ONE;
        let hi = s.max(e) + half + Vec3::ONE;
        let grow = half + Vec3::ONE;
        // The static brushes whose boxes overlap `lo..hi` (grown by a unit), clipped
        // against the whole sweep in index order.
        let statics = |lo: Vec3, hi: Vec3, to: Vec3| {
            let mut w = Work::new();
            self.brushes_along(lo, hi, (s, to - s, grow), |i, b| {
                if b.contents.intersects(mask) {
                    w.take_static(clip_planes(&b.clip_planes, s, e, half), b.contents, i);
                }
                // A brush the sweep (grown by a unit) enters only after the hit so far
                // cannot change the answer: its clip lies inside its box grown by the half
                // extents, a 1/32 unit short at most, so it enters after that hit too;
                // and one that holds the start is entered at 0. (Fractions of the whole
                // sweep: the part asked first reads the grid, which does not prune.)
                (!w.all_solid).then_some(if to == e { w.fraction } else { 1.0 })
            });
            w
        };
        // A long sweep mostly stops near its start (a floor probe finds the floor a step
        // below): the brushes along its first part are clipped first, and where the sweep
        // stops within that part the answer is the whole sweep's, bit for bit. A brush
        // outside the part's box (grown by a unit) cannot be entered before the part's end
        // (the axial bevels keep every clip inside the brush's box grown by the half
        // extents, and the hit a 1/32 unit short), nor hold the start; the clips are the
        // same computations on the same segment, in the same (index) order: only sweeps the
        // grid answers whole are split (the part, a smaller box, is read from the grid too),
        // as the tree's order may settle ties between brushes differently. Otherwise the
        // whole sweep is clipped again (and where the box is stuck: see below).
        // The squares compare as the lengths do (a correctly rounded square root of a
        // square above 96², the next float up, rounds above 96): the root is taken only
        // for a long sweep.
        let len2 = (e - s).length_squared();
        let mut w = if len2 > (2.0 * FIRST_PART) * (2.0 * FIRST_PART) && grid_answers(lo, hi, grow)
        {
            let part = FIRST_PART / len2.sqrt();
            let m = s + (e - s) * part;
            let w = statics(s.min(m) - half - Vec3::ONE, s.max(m) + half + Vec3::ONE, m);
            // Stuck in a brush (all solid) is asked of the whole sweep again: the normal
            // reported then is the one an earlier brush in index order left, which may lie
            // beyond the part.
            if w.fraction <= part && !w.all_solid {
                w
            } else {
                statics(lo, hi, e)
            }
        } else {
            statics(lo, hi, e)
        };
        if mask.intersects(Contents::SOLID) && !w.all_solid {
            for m in &self.movers {
                if Some(m.id) == ignore || !overlaps(lo, hi, m.mins + m.offset, m.maxs + m.offset) {
                    continue;
                }
                for b in m.brushes.iter() {
                    if b.contents.intersects(mask) {
                        let (ls, le) = (s - m.offset, e - m.offset);
                        w.take(clip_planes(&b.clip_planes, ls, le, half), b.contents, m.id);
                    }
                }
            }
        }
        if mask.intersects(Contents::BODY) && !w.all_solid {
            self.bodies_along(lo, hi, ignore, |b| {
                let planes = box_planes(b.mins, b.maxs);
                w.take(clip_planes(&planes, s, e, half), Contents::BODY, b.id);
            });
        }
        let end_pos = if w.all_solid {
            start
        } else if w.fraction >= 1.0 {
            end
        } else {
            start + (end - start) * w.fraction
        };
        Trace {
            fraction: w.fraction,
            end_pos,
            normal: w.normal,
            contents: w.contents,
            ent: w.ent,
            start_solid: w.start_solid,
            all_solid: w.all_solid,
        }
    }

    /// Whether the segment `a`–`b` passes through nothing whose contents intersect `mask`
    /// (static brushes and movers; bodies do not block). A line-of-sight question: it stops
    /// at the first brush in the way and clips against face planes only (bevels matter for
    /// boxes, not rays). Counts as one trace.
    pub fn line_clear(&self, a: Vec3, b: Vec3, mask: Contents) -> bool {
        let mut hint = NO_BLOCKER;
        self.line_clear_hinted(a, b, mask, &mut hint)
    }

    /// [`CollisionMap::line_clear`] that first asks whether the static brush `hint` names
    /// (an earlier answer's blocker) is in the way: a line of sight between two players
    /// blocked a moment ago is mostly blocked by the same brush, and one brush costs a
    /// fraction of the walk along the line. The answer is a yes or no, so which brush
    /// blocks does not change it. `hint` is left naming the static brush that blocks the
    /// line, or [`NO_BLOCKER`] when the line is clear or only a mover blocks it. Counts as
    /// one trace.
    pub fn line_clear_hinted(&self, a: Vec3, b: Vec3, mask: Contents, hint: &mut u32) -> bool {
        TRACES.with(|t| t.set(t.get() + 1));
        let d = b - a;
        let grow = Vec3A::splat(0.5);
        let ray = Segment::new(a, d);
        // The same test the walk below makes of each brush it meets (a brush that blocks
        // the line has points of the line in its box, so the walk meets it).
        let blocks = |br: &Brush| {
            br.contents.intersects(mask)
                && ray.hits_box(Vec3A::from(br.mins) - grow, Vec3A::from(br.maxs) + grow)
                && segment_in_brush(&br.planes, a, b)
        };
        if let Some(br) = self.brushes.get(*hint as usize)
            && blocks(br)
        {
            return false;
        }
        // The grid's cells along the segment, from `a` on: a blocked line (most sight lines
        // between players) stops at the first brush in the way, near `a` (the tree's walk,
        // measured on dm4, was no faster: 0.24-0.25 µs a line against 0.23). Each brush is
        // tested once.
        let mut blocker = NO_BLOCKER;
        self.brushes_on_line(a, b, |cb, br| {
            let blocked = cb.contents.intersects(mask)
                && ray.hits_box(cb.mins - grow, cb.maxs + grow)
                && segment_in_brush(&br.planes, a, b);
            if blocked {
                blocker = cb.index;
            }
            !blocked
        });
        *hint = blocker;
        if blocker != NO_BLOCKER {
            return false;
        }
        if mask.intersects(Contents::SOLID) {
            for m in &self.movers {
                let (lo, hi) = (m.mins + m.offset, m.maxs + m.offset);
                if !ray.hits_box(Vec3A::from(lo) - grow, Vec3A::from(hi) + grow) {
                    continue;
                }
                let (la, lb) = (a - m.offset, b - m.offset);
                if m.brushes
                    .iter()
                    .any(|br| br.contents.intersects(mask) && segment_in_brush(&br.planes, la, lb))
                {
                    return false;
                }
            }
        }
        true
    }

    /// The cell of the sight-proof lattice (cubes of [`SIGHT_CELL`] units from the map's
    /// low corner) holding `p`: its index, below [`CollisionMap::sight_cells`], and its box.
    /// `None` outside the map's bounds.
    pub fn sight_cell(&self, p: Vec3) -> Option<(usize, Vec3, Vec3)> {
        let dims = self.sight_dims();
        let mut at = [0usize; 3];
        for k in 0..3 {
            let i = ((p[k] - self.mins[k]) / SIGHT_CELL).floor();
            if !(0.0..dims[k] as f32).contains(&i) {
                return None;
            }
            at[k] = i as usize;
        }
        let lo = self.mins + Vec3::new(at[0] as f32, at[1] as f32, at[2] as f32) * SIGHT_CELL;
        Some((
            (at[2] * dims[1] + at[1]) * dims[0] + at[0],
            lo,
            lo + Vec3::splat(SIGHT_CELL),
        ))
    }

    /// How many cells [`CollisionMap::sight_cell`] numbers.
    pub fn sight_cells(&self) -> usize {
        self.sight_dims().iter().product()
    }

    fn sight_dims(&self) -> [usize; 3] {
        let span = (self.maxs - self.mins) / SIGHT_CELL;
        [
            span.x.floor() as usize + 1,
            span.y.floor() as usize + 1,
            span.z.floor() as usize + 1,
        ]
    }

    /// Whether one static brush with contents in `mask` blocks every line from any point of
    /// the box `lo..hi` to `target`, so that [`CollisionMap::line_clear`] from anywhere in
    /// the box to `target` is false whatever the movers do. The proof: at some fraction `s`
    /// of the way to `target`, the box's eight corners moved that far toward it all lie a
    /// unit or more inside one brush; that cross-section of the cone from the box to the
    /// target is their convex hull, inside the convex brush, and every such line crosses
    /// it. `false` means only "not proven". Costs a grid walk along the centre line.
    pub fn box_blocked_from(&self, lo: Vec3, hi: Vec3, target: Vec3, mask: Contents) -> bool {
        let centre = (lo + hi) * 0.5;
        let corners: [Vec3; 8] = std::array::from_fn(|k| {
            Vec3::new(
                if k & 1 == 0 { lo.x } else { hi.x },
                if k & 2 == 0 { lo.y } else { hi.y },
                if k & 4 == 0 { lo.z } else { hi.z },
            )
        });
        let inside =
            |b: &Brush, p: Vec3| b.planes.iter().all(|pl| pl.normal.dot(p) - pl.dist < -1.0);
        let line = Segment::new(centre, target - centre);
        let grow = Vec3A::splat(0.5);
        let mut proven = false;
        self.brushes_on_line(centre, target, |cb, br| {
            // The box test first: most brushes along the cells miss the line.
            if !cb.contents.intersects(mask) || !line.hits_box(cb.mins - grow, cb.maxs + grow) {
                return true;
            }
            // Where the centre line runs inside the brush.
            let Some((enter, leave)) = segment_span(&br.planes, centre, target) else {
                return true;
            };
            proven = [0.5f32, 0.25, 0.75].iter().any(|f| {
                let s = enter + (leave - enter) * f;
                // Corners inside the brush are inside its box: a cross-section wider than
                // the box is rejected without the planes.
                let (a, b) = (lo + (target - lo) * s, hi + (target - hi) * s);
                a.cmpgt(br.mins).all()
                    && b.cmplt(br.maxs).all()
                    && corners.iter().all(|c| inside(br, *c + (target - *c) * s))
            });
            !proven
        });
        proven
    }

    /// A ray (zero-size box) trace.
    pub fn trace_ray(
        &self,
        start: Vec3,
        end: Vec3,
        mask: Contents,
        ignore: Option<EntId>,
    ) -> Trace {
        self.trace(start, end, Vec3::ZERO, Vec3::ZERO, mask, ignore)
    }

    /// What the point is inside of: static brushes (solid, clip, liquids) and movers.
    pub fn point_contents(&self, p: Vec3) -> Contents {
        let mut c = Contents::EMPTY;
        // A point lies in one grid cell, whose list holds every brush whose box contains it
        // (outside the grid there are none).
        if let Some(cell) = self.grid.cell_of(p) {
            let p4 = Vec3A::from(p);
            for b in &self.grid.cells[cell] {
                if b.mins.z > p.z {
                    break;
                }
                if (p4.cmpge(b.mins) & p4.cmple(b.maxs)).all()
                    && self.brushes[b.index as usize].contains_point(p)
                {
                    c |= self.brushes[b.index as usize].contents;
                }
            }
        }
        for m in &self.movers {
            if overlaps(p, p, m.mins + m.offset, m.maxs + m.offset) {
                let lp = p - m.offset;
                for b in m.brushes.iter() {
                    if b.contains_point(lp) {
                        c |= b.contents;
                    }
                }
            }
        }
        c
    }

    /// True when the box at `origin` overlaps mover `id`'s brushes where the mover is now.
    pub fn box_in_mover(&self, id: EntId, origin: Vec3, mins: Vec3, maxs: Vec3) -> bool {
        let Some(m) = self.movers.iter().find(|m| m.id == id) else {
            return false;
        };
        let (lo, hi) = (origin + mins, origin + maxs);
        if !overlaps(lo, hi, m.mins + m.offset, m.maxs + m.offset) {
            return false;
        }
        let centre = origin + (mins + maxs) * 0.5 - m.offset;
        let half = (maxs - mins) * 0.5;
        m.brushes.iter().any(|b| {
            matches!(
                clip_planes(&b.clip_planes, centre, centre, half),
                Clip::Inside { all_solid: true }
            )
        })
    }

    /// Ids of bodies whose boxes overlap `mins..maxs` (absolute), in id order.
    pub fn bodies_in_box(&self, mins: Vec3, maxs: Vec3) -> impl Iterator<Item = EntId> + '_ {
        self.bodies
            .iter()
            .filter(move |b| overlaps(mins, maxs, b.mins, b.maxs))
            .map(|b| b.id)
    }
}

/// The order of `CollisionMap::bodies_by_x`: low x, then id.
fn x_order(a: &Body, b: &Body) -> std::cmp::Ordering {
    a.mins.x.total_cmp(&b.mins.x).then(a.id.cmp(&b.id))
}

/// Whether an entity box touches a trigger box as Quake links them (`SV_LinkEdict` grows
/// every non-item box by a unit on each side "because movement is clipped an epsilon away
/// from an actual edge", and `SV_TouchLinks` counts boxes whose faces meet): a player
/// standing against the wall a thin trigger is set into touches it.
pub fn touches(amin: Vec3, amax: Vec3, bmin: Vec3, bmax: Vec3) -> bool {
    let (amin, amax) = (amin - Vec3::ONE, amax + Vec3::ONE);
    let (bmin, bmax) = (bmin - Vec3::ONE, bmax + Vec3::ONE);
    amin.cmple(bmax).all() && amax.cmpge(bmin).all()
}

/// Strict overlap of two boxes (touching faces do not overlap).
pub fn overlaps(amin: Vec3, amax: Vec3, bmin: Vec3, bmax: Vec3) -> bool {
    amin.x < bmax.x
        && amax.x > bmin.x
        && amin.y < bmax.y
        && amax.y > bmin.y
        && amin.z < bmax.z
        && amax.z > bmin.z
}

/// Longest side (x or y) of a box sweep answered from the column grid rather than the tree
/// (measured against parry3d's BVH, which the tree replaced: the grid wins for a step or a
/// march, the BVH for longer sweeps).
const GRID_QUERY_MAX: f32 = 160.0;
/// Tallest box of a ray answered from the grid when it is narrow (a floor probe under a
/// point): a few cells, where parry3d's BVH walk cost twice as much (dm4, 8 bots: move stage
/// 20 % → 17 %).
const GRID_RAY_HEIGHT: f32 = 512.0;
/// Length of the first part of a long sweep clipped on its own ([`CollisionMap::trace`]).
const FIRST_PART: f32 = 48.0;
/// Side of a grid column.
const GRID_CELL: f32 = 128.0;
/// Side of the cells of [`CollisionMap::sight_cell`]: small enough that a wall between a
/// cell and an item often hides all of the cell (measured on an 8-bot dm4 match: sight
/// traces per tick 384 → 347 with 64-unit cells, → 372 with 128), large enough that the
/// proofs are few.
const SIGHT_CELL: f32 = 64.0;

/// [`CollisionMap::line_clear_hinted`]'s "no static brush known to block".
pub const NO_BLOCKER: u32 = u32::MAX;

thread_local! {
    /// Scratch bitset of candidate brushes for grid queries (all zero between queries).
    static CANDIDATES: std::cell::RefCell<Vec<u64>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Static brushes by the 128-unit cells (x, y, z) their boxes cover. Cells, not columns:
/// a column holds every floor of a level, and sorting its long candidate lists cost more
/// than the clipping (measured on dm4: 17 % of a 32-bot tick).
#[derive(Clone)]
struct BrushGrid {
    lo: [i32; 3],
    dims: [i32; 3],
    cells: Vec<Vec<CellBrush>>,
}

/// A brush in a grid cell, with its box at hand for the overlap test (read in a row, not
/// looked up in the brush list).
#[derive(Clone, Copy)]
struct CellBrush {
    mins: Vec3A,
    maxs: Vec3A,
    index: u32,
    /// The brush's contents: a sight line skips the brushes it sees through without
    /// reading the brush (the entry's padding had room for it).
    contents: Contents,
}

impl BrushGrid {
    /// The cell along one axis: `floor(v / GRID_CELL)` without the libm call (the cell side
    /// is a power of two, so the product is exact).
    fn cell(v: f32) -> i32 {
        let x = v * (1.0 / GRID_CELL);
        let i = x as i32;
        i - (x < i as f32) as i32
    }

    fn new(brushes: &[Brush], mins: Vec3, maxs: Vec3) -> BrushGrid {
        let lo = [Self::cell(mins.x), Self::cell(mins.y), Self::cell(mins.z)];
        let dims = [
            (Self::cell(maxs.x) - lo[0] + 1).max(1),
            (Self::cell(maxs.y) - lo[1] + 1).max(1),
            (Self::cell(maxs.z) - lo[2] + 1).max(1),
        ];
        let mut cells = vec![Vec::new(); (dims[0] * dims[1] * dims[2]) as usize];
        let mut grid = BrushGrid {
            lo,
            dims,
            cells: Vec::new(),
        };
        for (i, b) in brushes.iter().enumerate() {
            grid.for_cells(b.mins, b.maxs, |c| {
                cells[c].push(CellBrush {
                    mins: b.mins.into(),
                    maxs: b.maxs.into(),
                    index: i as u32,
                    contents: b.contents,
                })
            });
        }
        // Lowest first: a query stops at the first brush that starts above it.
        for c in &mut cells {
            c.sort_by(|a, b| a.mins.z.total_cmp(&b.mins.z).then(a.index.cmp(&b.index)));
        }
        grid.cells = cells;
        grid
    }

    /// Calls `f` with the index of every cell the segment `a`–`b` passes through, in order
    /// from `a` (a 3-D DDA, Amanatides and Woo), until it returns false. The part of the
    /// segment outside the grid has no brushes and is skipped.
    fn walk(&self, a: Vec3, b: Vec3, mut f: impl FnMut(usize) -> bool) {
        let lo = Vec3::new(self.lo[0] as f32, self.lo[1] as f32, self.lo[2] as f32);
        let dims = Vec3::new(
            self.dims[0] as f32,
            self.dims[1] as f32,
            self.dims[2] as f32,
        );
        // In cell units, the grid spanning 0..dims.
        let ga = a * (1.0 / GRID_CELL) - lo;
        let d = b * (1.0 / GRID_CELL) - lo - ga;
        let (mut t0, mut t1) = (0.0f32, 1.0f32);
        for k in 0..3 {
            if d[k].abs() < 1e-12 {
                if ga[k] < 0.0 || ga[k] > dims[k] {
                    return;
                }
                continue;
            }
            let (mut u, mut v) = ((0.0 - ga[k]) / d[k], (dims[k] - ga[k]) / d[k]);
            if u > v {
                std::mem::swap(&mut u, &mut v);
            }
            t0 = t0.max(u);
            t1 = t1.min(v);
        }
        if t0 > t1 {
            return;
        }
        let p = ga + d * t0;
        let mut cell = [0i32; 3];
        let mut step = [0i32; 3];
        let mut t_max = [f32::INFINITY; 3];
        let mut t_delta = [f32::INFINITY; 3];
        for k in 0..3 {
            cell[k] = (p[k].floor() as i32).clamp(0, self.dims[k] - 1);
            if d[k] > 0.0 {
                step[k] = 1;
                t_max[k] = t0 + ((cell[k] + 1) as f32 - p[k]) / d[k];
                t_delta[k] = 1.0 / d[k];
            } else if d[k] < 0.0 {
                step[k] = -1;
                t_max[k] = t0 + (cell[k] as f32 - p[k]) / d[k];
                t_delta[k] = -1.0 / d[k];
            }
        }
        loop {
            let index = (cell[2] * self.dims[1] + cell[1]) * self.dims[0] + cell[0];
            if !f(index as usize) {
                return;
            }
            // The axis whose boundary comes first.
            let k = if t_max[0] <= t_max[1] && t_max[0] <= t_max[2] {
                0
            } else if t_max[1] <= t_max[2] {
                1
            } else {
                2
            };
            if t_max[k] > t1 {
                return;
            }
            cell[k] += step[k];
            if cell[k] < 0 || cell[k] >= self.dims[k] {
                return;
            }
            t_max[k] += t_delta[k];
        }
    }

    /// The cell holding the point `p`, if it is in the grid.
    fn cell_of(&self, p: Vec3) -> Option<usize> {
        let mut at = [0i32; 3];
        for k in 0..3 {
            at[k] = Self::cell(p[k]) - self.lo[k];
            if at[k] < 0 || at[k] >= self.dims[k] {
                return None;
            }
        }
        Some(((at[2] * self.dims[1] + at[1]) * self.dims[0] + at[0]) as usize)
    }

    /// Calls `f` with the index of every cell `lo..hi` touches (clamped to the grid).
    fn for_cells(&self, lo: Vec3, hi: Vec3, mut f: impl FnMut(usize)) {
        let range = |k: usize, a: f32, b: f32| {
            (
                (Self::cell(a) - self.lo[k]).max(0),
                (Self::cell(b) - self.lo[k]).min(self.dims[k] - 1),
            )
        };
        let (x0, x1) = range(0, lo.x, hi.x);
        let (y0, y1) = range(1, lo.y, hi.y);
        let (z0, z1) = range(2, lo.z, hi.z);
        for z in z0..=z1 {
            for y in y0..=y1 {
                for x in x0..=x1 {
                    f(((z * self.dims[1] + y) * self.dims[0] + x) as usize);
                }
            }
        }
    }
}

/// Whether [`CollisionMap::brushes_along`] reads the grid for a query box `lo..hi` whose
/// segment is grown by `grow` (a box sweep's half extents and a unit; a ray's is smaller).
/// Long rays (no box) prune better in the tree; a short one, like the floor probes under a
/// point the movement stage sends every tick, reads a few grid cells. The grid yields the
/// candidates in index order; the tree nearest first, which gives the same answers
/// (tested), ties included.
fn grid_answers(lo: Vec3, hi: Vec3, grow: Vec3) -> bool {
    (hi.x - lo.x).max(hi.y - lo.y) <= GRID_QUERY_MAX
        && (grow.x > 1.0 || hi.z - lo.z <= GRID_RAY_HEIGHT)
}

/// The segment `s + t·d`, t in 0..=1, with its inverse direction computed once for the
/// slab tests of a tree walk or a grid walk (four lanes at once).
struct Segment {
    s: Vec3A,
    /// `1 / d`, and a huge finite number along axes where the segment does not move (an
    /// infinity would make a NaN of a box face through the start).
    inv: Vec3A,
}

impl Segment {
    fn new(s: Vec3, d: Vec3) -> Segment {
        let inv = |d: f32| if d.abs() < 1e-9 { 1e30 } else { 1.0 / d };
        Segment {
            s: s.into(),
            inv: Vec3A::new(inv(d.x), inv(d.y), inv(d.z)),
        }
    }

    /// Slab test: where (the fraction, from 0) the segment first touches the box `mn..mx`,
    /// if it does. Along an axis where the segment does not move, a start inside the slab
    /// puts no bound on the fraction, one outside rules the box out; one exactly on the
    /// slab's face may do either (every box tested is grown by half a unit or more beyond
    /// what it holds, so what lies on its faces touches nothing inside).
    #[inline]
    fn entry(&self, mn: Vec3A, mx: Vec3A) -> Option<f32> {
        self.entry_by(mn, mx, 1.0)
    }

    /// [`Segment::entry`] of the part of the segment up to the fraction `limit`.
    #[inline]
    fn entry_by(&self, mn: Vec3A, mx: Vec3A, limit: f32) -> Option<f32> {
        let a = (mn - self.s) * self.inv;
        let b = (mx - self.s) * self.inv;
        let t0 = a.min(b).max_element().max(0.0);
        let t1 = a.max(b).min_element().min(limit);
        (t0 <= t1).then_some(t0)
    }

    /// Slab test: does the segment touch the box `mn..mx`?
    #[inline]
    fn hits_box(&self, mn: Vec3A, mx: Vec3A) -> bool {
        self.entry(mn, mx).is_some()
    }
}

/// Does the segment `a`–`b` pass through the inside of the convex brush bounded by `planes`?
fn segment_in_brush(planes: &[Plane], a: Vec3, b: Vec3) -> bool {
    segment_span(planes, a, b).is_some()
}

/// The fractions of the segment `a`–`b` where it enters and leaves the inside of the convex
/// brush bounded by `planes`, or `None` when it does not pass through it.
fn segment_span(planes: &[Plane], a: Vec3, b: Vec3) -> Option<(f32, f32)> {
    let (mut enter, mut leave) = (0.0f32, 1.0f32);
    for p in planes {
        let da = p.normal.dot(a) - p.dist;
        let db = p.normal.dot(b) - p.dist;
        // In front of the plane, or touching it from the front: outside. A segment lying
        // in the plane is inside for this plane, as Quake III's brush trace has it: where two
        // solid brushes share a face (a floor built of two slabs), a line along the seam is
        // inside the solid, as in the compiled map, not in a gap between them.
        if da >= 0.0 && db >= 0.0 && (da > 0.0 || db > 0.0) {
            return None;
        }
        if da <= 0.0 && db <= 0.0 {
            continue;
        }
        let t = da / (da - db);
        if da >= 0.0 {
            enter = enter.max(t);
        } else {
            leave = leave.min(t);
        }
        if enter >= leave {
            return None;
        }
    }
    Some((enter, leave))
}

fn box_planes(mins: Vec3, maxs: Vec3) -> [Plane; 6] {
    [
        Plane {
            normal: Vec3::X,
            dist: maxs.x,
        },
        Plane {
            normal: -Vec3::X,
            dist: -mins.x,
        },
        Plane {
            normal: Vec3::Y,
            dist: maxs.y,
        },
        Plane {
            normal: -Vec3::Y,
            dist: -mins.y,
        },
        Plane {
            normal: Vec3::Z,
            dist: maxs.z,
        },
        Plane {
            normal: -Vec3::Z,
            dist: -mins.z,
        },
    ]
}

/// Clips the sweep of a box (centre `s` to `e`, half extents `half`) against one convex
/// set of planes (a brush's planes pushed out by `half`, Quake III's way).
fn clip_planes(planes: &[Plane], s: Vec3, e: Vec3, half: Vec3) -> Clip {
    // A ray's planes are not pushed out: the same sums less three products a plane
    // (adding zero changes no distance).
    if half == Vec3::ZERO {
        clip_pushed::<false>(planes, s, e, half)
    } else {
        clip_pushed::<true>(planes, s, e, half)
    }
}

#[inline(always)]
fn clip_pushed<const BOX: bool>(planes: &[Plane], s: Vec3, e: Vec3, half: Vec3) -> Clip {
    let mut enter = -1.0f32;
    let mut leave = 1.0f32;
    let mut hit_normal = Vec3::ZERO;
    let mut get_out = false;
    let mut start_out = false;
    for p in planes {
        let dist = if BOX {
            p.dist + p.normal.abs().dot(half)
        } else {
            p.dist
        };
        let d1 = p.normal.dot(s) - dist;
        let d2 = p.normal.dot(e) - dist;
        if d2 > 0.0 {
            get_out = true;
        }
        if d1 > 0.0 {
            start_out = true;
        }
        // Entirely in front of this plane: the sweep cannot touch the brush.
        if d1 > 0.0 && (d2 >= DIST_EPSILON || d2 >= d1) {
            return Clip::Miss;
        }
        if d1 <= 0.0 && d2 <= 0.0 {
            continue;
        }
        if d1 > d2 {
            let f = ((d1 - DIST_EPSILON) / (d1 - d2)).max(0.0);
            if f > enter {
                enter = f;
                hit_normal = p.normal;
            }
        } else {
            let f = ((d1 + DIST_EPSILON) / (d1 - d2)).min(1.0);
            if f < leave {
                leave = f;
            }
        }
    }
    if !start_out {
        return Clip::Inside {
            all_solid: !get_out,
        };
    }
    if enter < leave && enter > -1.0 {
        Clip::Enter {
            at: enter,
            normal: hit_normal,
        }
    } else {
        Clip::Miss
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Seeded numbers in `lo..hi` (xorshift): random tests that are the same every run.
    fn uniform(mut seed: u64) -> impl FnMut(f32, f32) -> f32 {
        move |lo, hi| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            lo + (hi - lo) * ((seed >> 40) as f32 / (1u64 << 24) as f32)
        }
    }

    /// `n` solid boxes centred within ±`span.0` across and ±`span.1` up, half sizes from 4 to
    /// `half.0` across and from `half.1` to `half.2` up.
    /// `n` boxes on a 16-unit lattice (so that some share faces: ties), every `other.0`-th
    /// (from the first) of contents `other.1`, the rest solid.
    fn lattice_boxes(
        rnd: &mut impl FnMut(f32, f32) -> f32,
        n: usize,
        other: (usize, Contents),
    ) -> Vec<Brush> {
        let q = |v: f32| (v / 16.0).round() * 16.0;
        (0..n)
            .map(|k| {
                let lo = Vec3::new(
                    q(rnd(-700., 700.)),
                    q(rnd(-700., 700.)),
                    q(rnd(-300., 300.)),
                );
                let size = Vec3::new(q(rnd(16., 160.)), q(rnd(16., 160.)), q(rnd(16., 96.)));
                let c = if k % other.0 == 0 {
                    other.1
                } else {
                    Contents::SOLID
                };
                Brush::from_box(lo, lo + size, c)
            })
            .collect()
    }

    fn random_boxes(
        rnd: &mut impl FnMut(f32, f32) -> f32,
        n: usize,
        span: (f32, f32),
        half: (f32, f32, f32),
    ) -> Vec<Brush> {
        (0..n)
            .map(|_| {
                let c = Vec3::new(
                    rnd(-span.0, span.0),
                    rnd(-span.0, span.0),
                    rnd(-span.1, span.1),
                );
                let h = Vec3::new(rnd(4., half.0), rnd(4., half.0), rnd(half.1, half.2));
                Brush::from_box(c - h, c + h, Contents::SOLID)
            })
            .collect()
    }

    /// What a trace of the box `half` from `s` to `e` (centres) should answer: every static
    /// brush of `mask` overlapping the sweep clipped in index order, with no grid or tree.
    fn clip_every_brush(map: &CollisionMap, s: Vec3, e: Vec3, half: Vec3, mask: Contents) -> Work {
        let (lo, hi) = (s.min(e) - half - Vec3::ONE, s.max(e) + half + Vec3::ONE);
        let mut w = Work::new();
        for br in map.brushes.iter() {
            if overlaps(lo, hi, br.mins, br.maxs) && br.contents.intersects(mask) && !w.all_solid {
                w.take(
                    clip_planes(&br.clip_planes, s, e, half),
                    br.contents,
                    EntId::WORLD,
                );
            }
        }
        w
    }

    fn room() -> CollisionMap {
        // Floor top at z=0, a wall whose face is at x=100, a box from (200,0,0) upwards.
        let floor = Brush::from_box(
            Vec3::new(-512., -512., -16.),
            Vec3::new(512., 512., 0.),
            Contents::SOLID,
        );
        let wall = Brush::from_box(
            Vec3::new(100., -512., 0.),
            Vec3::new(116., 512., 256.),
            Contents::SOLID,
        );
        CollisionMap::new(vec![floor, wall], vec![])
    }

    #[test]
    fn ray_hits_floor_at_its_height() {
        let m = room();
        let t = m.trace_ray(
            Vec3::new(0., 0., 100.),
            Vec3::new(0., 0., -100.),
            Contents::MASK_SIGHT,
            None,
        );
        assert!(t.fraction < 1.0);
        assert!((t.end_pos.z - 0.0).abs() < 0.05, "{}", t.end_pos.z);
        assert_eq!(t.normal, Vec3::Z);
        assert_eq!(t.ent, Some(EntId::WORLD));
    }

    #[test]
    fn player_box_stops_at_wall_minus_half_width() {
        let m = room();
        let t = m.trace(
            Vec3::new(0., 0., 25.),
            Vec3::new(300., 0., 25.),
            Vec3::new(-16., -16., -24.),
            Vec3::new(16., 16., 32.),
            Contents::MASK_PLAYER,
            None,
        );
        assert!((t.end_pos.x - 84.0).abs() < 0.05, "{}", t.end_pos.x);
        assert_eq!(t.normal, -Vec3::X);
        assert!(!t.start_solid);
    }

    #[test]
    fn start_in_solid_is_reported() {
        let m = room();
        let t = m.trace_ray(
            Vec3::new(0., 0., -8.),
            Vec3::new(0., 0., -10.),
            Contents::MASK_SIGHT,
            None,
        );
        assert!(t.start_solid && t.all_solid);
        assert_eq!(t.fraction, 0.0);
        let t = m.trace_ray(
            Vec3::new(0., 0., -8.),
            Vec3::new(0., 0., 50.),
            Contents::MASK_SIGHT,
            None,
        );
        assert!(t.start_solid && !t.all_solid);
    }

    #[test]
    fn the_grid_walk_finds_every_brush_a_line_crosses() {
        // Random boxes and random segments (long ones, short ones, ones starting or ending
        // outside the geometry): line_clear against testing every brush.
        let mut rnd = uniform(0x2545_f491_4f6c_dd1d);
        let brushes = random_boxes(&mut rnd, 150, (900., 300.), (200., 4., 120.));
        let map = CollisionMap::new(brushes.clone(), vec![]);
        let mut blocked = 0;
        for k in 0..3000 {
            let span = if k % 3 == 0 { 2600.0 } else { 700.0 };
            let a = Vec3::new(rnd(-span, span), rnd(-span, span), rnd(-500., 500.));
            let b = if k % 5 == 0 {
                a + Vec3::new(rnd(-40., 40.), rnd(-40., 40.), rnd(-40., 40.))
            } else if k % 7 == 0 {
                // Straight up or down, and along one axis: the walk's flat axes.
                Vec3::new(a.x, a.y, rnd(-500., 500.))
            } else if k % 11 == 0 {
                Vec3::new(rnd(-span, span), a.y, a.z)
            } else {
                Vec3::new(rnd(-span, span), rnd(-span, span), rnd(-500., 500.))
            };
            let want = !brushes.iter().any(|br| segment_in_brush(&br.planes, a, b));
            assert_eq!(map.line_clear(a, b, Contents::SOLID), want, "{a} -> {b}");
            blocked += !want as usize;
        }
        assert!(
            blocked > 300 && blocked < 2700,
            "both kinds tested: {blocked}"
        );
    }

    #[test]
    fn a_hinted_line_test_answers_as_the_plain_one_whatever_the_hint() {
        // Any hint (none, a brush out of range, a random brush, the last answer's blocker
        // for a line moved a little, as a sight line a tick later) gives line_clear's
        // answer, and the hint left behind names a brush that blocks the line (water here
        // does not: the sight mask ignores it), or none when the line is clear.
        let mut rnd = uniform(0x5851_f42d_4c95_7f2d);
        let brushes = lattice_boxes(&mut rnd, 300, (6, Contents::WATER));
        let map = CollisionMap::new(brushes.clone(), vec![]);
        let mask = Contents::MASK_SIGHT;
        let (mut last, mut a, mut b) = (NO_BLOCKER, Vec3::ZERO, Vec3::ZERO);
        let (mut blocked, mut kept) = (0, 0);
        for k in 0..4000 {
            let mut hint = match k % 4 {
                0 => NO_BLOCKER,
                1 => brushes.len() as u32 + 3,
                2 => rnd(0., brushes.len() as f32 - 1.0) as u32,
                _ => last,
            };
            if k % 4 == 3 {
                let step = |rnd: &mut dyn FnMut(f32, f32) -> f32| {
                    Vec3::new(rnd(-6., 6.), rnd(-6., 6.), rnd(-2., 2.))
                };
                a += step(&mut rnd);
                b += step(&mut rnd);
            } else {
                a = Vec3::new(rnd(-750., 750.), rnd(-750., 750.), rnd(-350., 350.));
                b = a + Vec3::new(rnd(-900., 900.), rnd(-900., 900.), rnd(-300., 300.));
            }
            let want = map.line_clear(a, b, mask);
            let before = hint;
            assert_eq!(
                map.line_clear_hinted(a, b, mask, &mut hint),
                want,
                "{a} -> {b}"
            );
            if want {
                assert_eq!(hint, NO_BLOCKER, "{a} -> {b}");
            } else {
                // No movers here: a blocked line always names its brush.
                let br = &brushes[hint as usize];
                assert!(br.contents.intersects(mask), "{a} -> {b}");
                assert!(segment_in_brush(&br.planes, a, b), "{a} -> {b}");
                kept += (k % 4 == 3 && hint == before) as usize;
            }
            blocked += !want as usize;
            last = hint;
        }
        assert!(
            blocked > 400 && blocked < 3600,
            "both kinds tested: {blocked}"
        );
        assert!(kept > 50, "the last blocker mostly still blocks: {kept}");
    }

    #[test]
    fn short_box_sweeps_from_the_grid_clip_what_a_scan_of_every_brush_clips() {
        // Random boxes and player-box sweeps short enough for the grid: the same fraction,
        // normal and flags as clipping every overlapping brush in index order.
        let mut rnd = uniform(0x5851_f42d_4c95_7f2d);
        let brushes = random_boxes(&mut rnd, 200, (700., 300.), (160., 2., 100.));
        let map = CollisionMap::new(brushes, vec![]);
        let (mins, maxs) = (Vec3::new(-16., -16., -24.), Vec3::new(16., 16., 32.));
        let (centre, half) = ((mins + maxs) * 0.5, (maxs - mins) * 0.5);
        let mut hit = 0;
        for _ in 0..3000 {
            let a = Vec3::new(rnd(-750., 750.), rnd(-750., 750.), rnd(-350., 350.));
            let b = a + Vec3::new(rnd(-60., 60.), rnd(-60., 60.), rnd(-60., 60.));
            let t = map.trace(a, b, mins, maxs, Contents::MASK_PLAYER, None);
            let w = clip_every_brush(&map, a + centre, b + centre, half, Contents::MASK_PLAYER);
            let want = (w.fraction, w.normal, w.start_solid, w.all_solid);
            assert_eq!(
                (t.fraction, t.normal, t.start_solid, t.all_solid),
                want,
                "{a} -> {b}"
            );
            hit += (t.fraction < 1.0) as usize;
        }
        assert!(hit > 300 && hit < 2700, "both kinds tested: {hit}");
    }

    #[test]
    fn long_box_sweeps_from_the_tree_clip_what_a_scan_of_every_brush_clips() {
        // Player-box sweeps too long across for the grid walk the tree near side first,
        // leaving out the parts they enter only after their hit so far: the same fraction,
        // normal, contents and flags as clipping every overlapping brush in index order,
        // among random boxes and among boxes on a 16-unit lattice (shared faces: ties,
        // settled by index whatever order the walk meets them in). A box stuck in brushes
        // from start to end is answered by the first of them met, with the normal an
        // earlier hit left: there only the flags and the fraction are compared.
        let mut rnd = uniform(0x1405_7b7e_f767_814f);
        let sets = [
            random_boxes(&mut rnd, 300, (700., 300.), (160., 2., 100.)),
            lattice_boxes(&mut rnd, 300, (6, Contents::WATER)),
        ];
        let (mins, maxs) = (Vec3::new(-16., -16., -24.), Vec3::new(16., 16., 32.));
        let (centre, half) = ((mins + maxs) * 0.5, (maxs - mins) * 0.5);
        let mask = Contents::MASK_PLAYER | Contents::WATER;
        for brushes in sets {
            let map = CollisionMap::new(brushes, vec![]);
            let (mut hit, mut stuck) = (0, 0);
            for _ in 0..3000 {
                let a = Vec3::new(rnd(-750., 750.), rnd(-750., 750.), rnd(-350., 350.));
                let b = a + Vec3::new(rnd(-900., 900.), rnd(-900., 900.), rnd(-300., 300.));
                let (lo, hi) = (a.min(b) + mins - Vec3::ONE, a.max(b) + maxs + Vec3::ONE);
                if grid_answers(lo, hi, half + Vec3::ONE) {
                    continue;
                }
                let t = map.trace(a, b, mins, maxs, mask, None);
                let w = clip_every_brush(&map, a + centre, b + centre, half, mask);
                let hit_by = |n: Vec3, c: Contents, all_solid: bool| (!all_solid).then_some((n, c));
                assert_eq!(
                    (
                        t.fraction,
                        hit_by(t.normal, t.contents, t.all_solid),
                        t.start_solid,
                        t.all_solid
                    ),
                    (
                        w.fraction,
                        hit_by(w.normal, w.contents, w.all_solid),
                        w.start_solid,
                        w.all_solid
                    ),
                    "{a} -> {b}"
                );
                hit += (t.fraction < 1.0) as usize;
                stuck += t.start_solid as usize;
            }
            assert!(hit > 300 && hit < 2700, "both kinds tested: {hit}");
            assert!(stuck > 10, "starts inside a brush tested: {stuck}");
        }
    }

    #[test]
    fn rays_from_the_grid_and_the_tree_clip_what_a_scan_of_every_brush_clips() {
        // Floor probes (short rays straight down, answered from the grid) and long rays (the
        // tree): the same fraction, normal and contents as clipping every overlapping brush in
        // index order, so which path answers changes nothing, ties included (brushes here
        // share faces: boxes on a 16-unit lattice).
        let mut rnd = uniform(0x2545_f491_4f6c_dd1d);
        let brushes = lattice_boxes(&mut rnd, 300, (7, Contents::LAVA));
        let map = CollisionMap::new(brushes, vec![]);
        let mask = Contents::MASK_PLAYER | Contents::LIQUID;
        let mut hit = 0;
        for k in 0..4000 {
            let a = Vec3::new(rnd(-750., 750.), rnd(-750., 750.), rnd(-350., 350.));
            let b = if k % 2 == 0 {
                a - Vec3::new(0.0, 0.0, rnd(8., 400.))
            } else {
                a + Vec3::new(rnd(-900., 900.), rnd(-900., 900.), rnd(-300., 300.))
            };
            let t = map.trace_ray(a, b, mask, None);
            let w = clip_every_brush(&map, a, b, Vec3::ZERO, mask);
            assert_eq!(
                (t.fraction, t.normal, t.contents, t.start_solid),
                (w.fraction, w.normal, w.contents, w.start_solid),
                "{a} -> {b}"
            );
            hit += (t.fraction < 1.0) as usize;
        }
        assert!(hit > 400 && hit < 3600, "both kinds tested: {hit}");
    }

    #[test]
    fn long_sweeps_answered_from_their_first_part_clip_what_a_scan_of_every_brush_clips() {
        // Player-box sweeps longer than twice the first part, most straight down (floor
        // probes) and some steep, through boxes on a 16-unit lattice (shared faces:
        // ties) and slanted wedges (edge bevels): a sweep that stops within its first part
        // is answered from the brushes there alone, and the answer must be the whole scan's,
        // bit for bit, flags and contents included.
        let mut rnd = uniform(0x9e37_79b9_7f4a_7c15);
        let q = |v: f32| (v / 16.0).round() * 16.0;
        let mut brushes = lattice_boxes(&mut rnd, 240, (5, Contents::WATER));
        for _ in 0..60 {
            // A ramp: a box whose top is a slanted plane.
            let lo = Vec3::new(
                q(rnd(-700., 700.)),
                q(rnd(-700., 700.)),
                q(rnd(-300., 300.)),
            );
            let size = Vec3::new(q(rnd(32., 160.)), q(rnd(32., 160.)), q(rnd(32., 96.)));
            let hi = lo + size;
            let n = glam::DVec3::new(-(size.z as f64), 0.0, size.x as f64).normalize();
            let d = n.dot(lo.as_dvec3() + glam::DVec3::new(0.0, 0.0, size.z as f64));
            let planes = [
                (glam::DVec3::X, hi.x as f64),
                (-glam::DVec3::X, -lo.x as f64),
                (glam::DVec3::Y, hi.y as f64),
                (-glam::DVec3::Y, -lo.y as f64),
                (-glam::DVec3::Z, -lo.z as f64),
                (n, d),
            ];
            if let Ok(b) = Brush::from_planes(&planes, Contents::SOLID) {
                brushes.push(b);
            }
        }
        let map = CollisionMap::new(brushes, vec![]);
        let (mins, maxs) = (Vec3::new(-16., -16., -24.), Vec3::new(16., 16., 32.));
        let (centre, half) = ((mins + maxs) * 0.5, (maxs - mins) * 0.5);
        let mask = Contents::MASK_PLAYER | Contents::LIQUID;
        let (mut early, mut late) = (0, 0);
        for k in 0..4000 {
            let a = Vec3::new(rnd(-750., 750.), rnd(-750., 750.), rnd(-350., 350.));
            // (Sweeps the grid answers whole: at most 160 units across with the box.)
            let b = if k % 3 != 0 {
                a - Vec3::new(0.0, 0.0, rnd(2.0 * FIRST_PART + 1.0, 400.))
            } else {
                a + Vec3::new(rnd(-60., 60.), rnd(-60., 60.), rnd(-400., 400.))
            };
            if (b - a).length() <= 2.0 * FIRST_PART {
                continue;
            }
            let t = map.trace(a, b, mins, maxs, mask, None);
            let w = clip_every_brush(&map, a + centre, b + centre, half, mask);
            assert_eq!(
                (t.fraction, t.normal, t.contents, t.start_solid, t.all_solid),
                (w.fraction, w.normal, w.contents, w.start_solid, w.all_solid),
                "{a} -> {b}"
            );
            if t.fraction * (b - a).length() <= FIRST_PART {
                early += 1;
            } else {
                late += 1;
            }
        }
        assert!(
            early > 400 && late > 400,
            "both kinds tested: {early} {late}"
        );
    }

    #[test]
    fn bodies_found_by_x_order_are_those_a_scan_finds_in_id_order() {
        // Forty bodies that walk, jump across the map, die and come back; after each change,
        // random boxes (short sweeps and long ones) get from the x order exactly the bodies
        // that overlap them, in id order, as a scan of every body does.
        let mut rnd = uniform(0x9e37_79b9_7f4a_7c15);
        let (mins, maxs) = (Vec3::new(-16., -16., -24.), Vec3::new(16., 16., 32.));
        let mut m = room();
        let mut at: Vec<Option<Vec3>> = vec![None; 40];
        let mut checked = (0, 0);
        for step in 0..4000 {
            let k = (rnd(0., 40.) as usize).min(39);
            let id = EntId(100 + k as u32);
            match (step % 13, at[k]) {
                (0, Some(_)) => {
                    m.remove_body(id);
                    at[k] = None;
                }
                (1, _) | (_, None) => {
                    let o = Vec3::new(rnd(-600., 600.), rnd(-600., 600.), rnd(0., 200.));
                    m.set_body(id, o, mins, maxs);
                    at[k] = Some(o);
                }
                (_, Some(o)) => {
                    let o = o + Vec3::new(rnd(-20., 20.), rnd(-20., 20.), rnd(-5., 5.));
                    m.set_body(id, o, mins, maxs);
                    at[k] = Some(o);
                }
            }
            let c = Vec3::new(rnd(-650., 650.), rnd(-650., 650.), rnd(-50., 250.));
            let h = if step % 4 == 0 {
                Vec3::new(rnd(1., 700.), rnd(1., 700.), rnd(1., 200.))
            } else {
                Vec3::new(rnd(1., 60.), rnd(1., 60.), rnd(1., 60.))
            };
            let ignore = (step % 3 == 0).then_some(id);
            let mut found = Vec::new();
            m.bodies_along(c - h, c + h, ignore, |b| found.push(b.id));
            let want: Vec<EntId> = m
                .bodies_in_box(c - h, c + h)
                .filter(|&b| Some(b) != ignore)
                .collect();
            assert_eq!(found, want, "step {step}");
            assert_eq!(m.bodies_by_x.len(), m.bodies.len());
            checked.0 += found.is_empty() as usize;
            checked.1 += !found.is_empty() as usize;
        }
        assert!(
            checked.0 > 100 && checked.1 > 100,
            "hits and misses: {checked:?}"
        );
        // Not finite: every body is tested, none matches.
        let mut found = Vec::new();
        m.bodies_along(Vec3::NAN, Vec3::NAN, None, |b| found.push(b.id));
        assert!(found.is_empty());
    }

    #[test]
    fn a_line_along_the_seam_of_two_slabs_is_blocked() {
        // A floor of two slabs meeting at x = 0 (as dm6's corridor floor meets at x 456): a
        // vertical line in the shared face passes through solid, not between the brushes.
        let west = Brush::from_box(
            Vec3::new(-64., -64., 0.),
            Vec3::new(0., 64., 16.),
            Contents::SOLID,
        );
        let east = Brush::from_box(
            Vec3::new(0., -64., 0.),
            Vec3::new(64., 64., 16.),
            Contents::SOLID,
        );
        let map = CollisionMap::new(vec![west, east], vec![]);
        let (above, below) = (Vec3::new(0., 8., 100.), Vec3::new(0., 8., -100.));
        assert!(!map.line_clear(above, below, Contents::MASK_SIGHT));
        assert!(!map.line_clear(below, above, Contents::MASK_SIGHT));
        // Beside the seam, through one slab: blocked as always; above the floor: clear.
        assert!(!map.line_clear(above + Vec3::X, below + Vec3::X, Contents::MASK_SIGHT));
        assert!(map.line_clear(above, Vec3::new(0., 8., 17.), Contents::MASK_SIGHT));
        // Touching the floor's top from above, or the slab's side from outside: clear.
        assert!(map.line_clear(above, Vec3::new(30., 8., 16.), Contents::MASK_SIGHT));
        assert!(map.line_clear(
            Vec3::new(100., 8., 8.),
            Vec3::new(64., 8., 8.),
            Contents::MASK_SIGHT
        ));
    }

    #[test]
    fn a_proven_blocked_cell_sees_nothing_of_the_target() {
        // A thick wall (x 100..164, y ±512, z 0..256) between cells and targets.
        let floor = Brush::from_box(
            Vec3::new(-512., -512., -16.),
            Vec3::new(512., 512., 0.),
            Contents::SOLID,
        );
        let wall = Brush::from_box(
            Vec3::new(100., -512., 0.),
            Vec3::new(164., 512., 256.),
            Contents::SOLID,
        );
        let map = CollisionMap::new(vec![floor, wall], vec![]);
        let (_, lo, hi) = map
            .sight_cell(Vec3::new(30., 10., 60.))
            .expect("in the map");
        assert_eq!(hi - lo, Vec3::splat(SIGHT_CELL));
        let behind = Vec3::new(300., 20., 40.);
        assert!(map.box_blocked_from(lo, hi, behind, Contents::MASK_SIGHT));
        // Same side: not blocked; a target past the wall's end: not provable.
        assert!(!map.box_blocked_from(lo, hi, Vec3::new(60., 20., 40.), Contents::MASK_SIGHT));
        assert!(!map.box_blocked_from(lo, hi, Vec3::new(300., 2000., 40.), Contents::MASK_SIGHT));
        // Liquids and clip are seen through: a wall of them proves nothing.
        let water = Brush::from_box(
            Vec3::new(100., -512., 0.),
            Vec3::new(164., 512., 256.),
            Contents::WATER,
        );
        let wet = CollisionMap::new(vec![water], vec![]);
        assert!(!wet.box_blocked_from(lo, hi, behind, Contents::MASK_SIGHT));
        // Whatever the proof says is blocked, no line from the cell gets through, among
        // random walls, cells and targets.
        let mut rnd = uniform(99);
        let map = CollisionMap::new(
            random_boxes(&mut rnd, 60, (600.0, 200.0), (96., 8., 96.)),
            vec![],
        );
        let mut proven = 0;
        for _ in 0..2000 {
            let eye = Vec3::new(rnd(-600., 600.), rnd(-600., 600.), rnd(-200., 200.));
            let target = Vec3::new(rnd(-600., 600.), rnd(-600., 600.), rnd(-200., 200.));
            let Some((_, lo, hi)) = map.sight_cell(eye) else {
                continue;
            };
            if !map.box_blocked_from(lo, hi, target, Contents::MASK_SIGHT) {
                continue;
            }
            proven += 1;
            for _ in 0..20 {
                let p = Vec3::new(rnd(lo.x, hi.x), rnd(lo.y, hi.y), rnd(lo.z, hi.z));
                assert!(
                    !map.line_clear(p, target, Contents::MASK_SIGHT),
                    "{p} → {target}"
                );
            }
            for k in 0..8 {
                let c = Vec3::new(
                    if k & 1 == 0 { lo.x } else { hi.x },
                    if k & 2 == 0 { lo.y } else { hi.y },
                    if k & 4 == 0 { lo.z } else { hi.z },
                );
                assert!(
                    !map.line_clear(c, target, Contents::MASK_SIGHT),
                    "{c} → {target}"
                );
            }
        }
        assert!(proven > 20, "the proof holds somewhere ({proven})");
    }

    #[test]
    fn point_contents_inside_and_out() {
        let m = room();
        assert_eq!(m.point_contents(Vec3::new(0., 0., -1.)), Contents::SOLID);
        assert_eq!(m.point_contents(Vec3::new(0., 0., 1.)), Contents::EMPTY);
        // Outside the grid (beyond every brush), on its faces and corners.
        assert_eq!(m.point_contents(Vec3::new(5000., 0., -8.)), Contents::EMPTY);
        assert_eq!(m.point_contents(Vec3::new(0., 0., -16.)), Contents::SOLID);
        assert_eq!(m.point_contents(Vec3::new(512., 512., 0.)), Contents::SOLID);
        assert_eq!(
            m.point_contents(Vec3::new(-512., -512., -16.)),
            Contents::SOLID
        );
        assert_eq!(m.point_contents(Vec3::NAN), Contents::EMPTY);
    }
}
