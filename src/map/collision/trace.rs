//! Box and ray sweeps: [`CollisionMap::trace`] through the static brushes (from the tree
//! or the grid), the movers and the bodies, and [`CollisionMap::point_contents`].

use super::clip::Clip;
use super::x_order;
use glam::{Vec3, Vec3A};

use super::TRACES;
use super::clip::{Segment, box_planes, clip_planes};
use super::grid::{CellBrush, grid_answers};
use super::sight::NO_BLOCKER;
use super::{Body, CollisionMap, EntId, Trace};
use crate::map::brush::{Brush, Contents};

pub(super) struct Work {
    pub(super) fraction: f32,
    pub(super) normal: Vec3,
    pub(super) contents: Contents,
    pub(super) ent: Option<EntId>,
    pub(super) start_solid: bool,
    pub(super) all_solid: bool,
    /// The static brush whose hit is kept ([`NO_BLOCKER`] for none).
    pub(super) brush: u32,
}

impl Work {
    pub(super) fn new() -> Work {
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
    pub(super) fn take(&mut self, clip: Clip, contents: Contents, ent: EntId) {
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
    pub(super) fn take_static(&mut self, clip: Clip, contents: Contents, index: u32) {
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

    pub(super) fn inside(&mut self, all_solid: bool, contents: Contents, ent: EntId) {
        self.start_solid = true;
        if all_solid {
            self.all_solid = true;
            self.fraction = 0.0;
            self.contents = contents;
            self.ent = Some(ent);
        }
    }

    pub(super) fn hit(&mut self, at: f32, normal: Vec3, contents: Contents, ent: EntId) {
        self.fraction = at;
        self.normal = normal;
        self.contents = contents;
        self.ent = Some(ent);
    }
}

impl CollisionMap {
    /// Calls `f` with each static brush (its index and itself) whose box overlaps `lo..hi`,
    /// until it returns `None`. Short box sweeps (most: a player's step, a reachability
    /// march) and narrow rays (floor probes) read the grid, in index order; other rays and
    /// long sweeps walk the tree near side first along the segment `s + t·d` grown by
    /// `grow`, and leave out the parts of it, and the brushes, that the grown segment enters
    /// only after the fraction `t` that `f` last returned (`f` says no brush entered beyond
    /// it matters: a sweep that has hit something at `t`).
    pub(super) fn brushes_along(
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
                let (lo3, hi3) = (lo.to_array(), hi.to_array());
                self.grid.for_cells(lo, hi, |cell| {
                    for b in self.grid.blocks_of(cell) {
                        if b.first_min_z() >= hi.z {
                            break;
                        }
                        let mut hit = b.overlapping(lo3, hi3);
                        while hit != 0 {
                            let index = b.index[hit.trailing_zeros() as usize];
                            hit &= hit - 1;
                            let k = (index / 64) as usize;
                            bits[k] |= 1 << (index % 64);
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
    pub(super) fn brushes_in_tree(
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
    pub(super) fn brushes_on_line(
        &self,
        a: Vec3,
        b: Vec3,
        mut f: impl FnMut(&CellBrush, &Brush) -> bool,
    ) {
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

    /// Where `body` is in `bodies_by_x`.
    pub(super) fn body_in_x(&self, body: &Body) -> usize {
        self.bodies_by_x
            .binary_search_by(|e| x_order(e, body))
            .expect("every body is in the x order")
    }

    /// Calls `f` with each body overlapping `lo..hi` except `ignore`, in id order.
    pub(super) fn bodies_along(
        &self,
        lo: Vec3,
        hi: Vec3,
        ignore: Option<EntId>,
        mut f: impl FnMut(&Body),
    ) {
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

    /// How far the box `mins..maxs` at `origin` can be lowered and stay stuck in static
    /// brushes of `mask` all the way: the lowest origin height such that the box at every
    /// height from there up to `origin.z` lies a quarter unit or more inside some brush
    /// (movers and bodies aside), or `None` when the box at `origin` is not that deep in
    /// one. A sweep down a column (navigation's heightfield) skips a thick solid with it
    /// instead of starting a sweep every few units inside it.
    pub fn solid_below(&self, origin: Vec3, mins: Vec3, maxs: Vec3, mask: Contents) -> Option<f32> {
        // Deeper than DIST_EPSILON: where a sweep's clip says "inside" too.
        const MARGIN: f32 = 0.25;
        let centre = origin + (mins + maxs) * 0.5;
        let half = (maxs - mins) * 0.5;
        let grow = half + Vec3::ONE;
        let floor = self.mins.z - half.z - 1.0;
        let (lo, hi) = (centre.truncate().extend(floor) - grow, centre + grow);
        // Each brush's range of centre heights that keeps the box that deep inside it.
        let mut ranges: Vec<(f32, f32)> = Vec::new();
        let down = Vec3::new(0.0, 0.0, floor - centre.z);
        self.brushes_along(lo, hi, (centre, down, grow), |_, b| {
            if b.contents.intersects(mask) {
                let (mut low, mut high) = (f32::NEG_INFINITY, f32::INFINITY);
                for p in &b.clip_planes {
                    // n·c < dist + |n|·half − MARGIN, solved for the centre's height.
                    let room = p.dist + p.normal.abs().dot(half)
                        - MARGIN
                        - p.normal.x * centre.x
                        - p.normal.y * centre.y;
                    if p.normal.z > 0.0 {
                        high = high.min(room / p.normal.z);
                    } else if p.normal.z < 0.0 {
                        low = low.max(room / p.normal.z);
                    } else if room <= 0.0 {
                        high = f32::NEG_INFINITY;
                    }
                }
                if low < high {
                    ranges.push((low, high));
                }
            }
            Some(1.0)
        });
        // Down through overlapping ranges from the centre's height.
        let mut z = centre.z;
        loop {
            let next = ranges
                .iter()
                .filter(|&&(low, high)| low < z && z < high)
                .fold(z, |m, &(low, _)| m.min(low));
            if next >= z {
                break;
            }
            z = next;
        }
        (z < centre.z).then_some(z - (mins.z + maxs.z) * 0.5)
    }

    /// Ids of bodies whose boxes overlap `mins..maxs` (absolute), in id order.
    pub fn bodies_in_box(&self, mins: Vec3, maxs: Vec3) -> impl Iterator<Item = EntId> + '_ {
        self.bodies
            .iter()
            .filter(move |b| overlaps(mins, maxs, b.mins, b.maxs))
            .map(|b| b.id)
    }
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

/// Length of the first part of a long sweep clipped on its own ([`CollisionMap::trace`]).
pub(super) const FIRST_PART: f32 = 48.0;
