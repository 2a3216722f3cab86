//! The brush grid: static brushes by the 128-unit cells their boxes cover, answering short
//! box sweeps, points and lines of sight with their candidate brushes.

use glam::{Vec3, Vec3A};

use crate::map::brush::{Brush, Contents};

/// Longest side (x or y) of a box sweep answered from the column grid rather than the tree
/// (measured against a bounding-volume hierarchy: the grid wins for a step or a march, the
/// tree for longer sweeps).
pub(super) const GRID_QUERY_MAX: f32 = 160.0;

/// Tallest box of a ray answered from the grid when it is narrow (a floor probe under a
/// point): a few cells, where a bounding-volume hierarchy's walk cost twice as much.
pub(super) const GRID_RAY_HEIGHT: f32 = 512.0;

/// Side of a grid column.
pub(super) const GRID_CELL: f32 = 128.0;

thread_local! {
    /// Scratch bitset of candidate brushes for grid queries (all zero between queries).
    pub(super) static CANDIDATES: std::cell::RefCell<Vec<u64>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Static brushes by the 128-unit cells (x, y, z) their boxes cover. Cells, not columns:
/// a column holds every floor of a level, and sorting its long candidate lists cost more
/// than the clipping (measured on dm4: 17 % of a 32-bot tick).
#[derive(Clone)]
pub(super) struct BrushGrid {
    pub(super) lo: [i32; 3],
    pub(super) dims: [i32; 3],
    pub(super) cells: Vec<Vec<CellBrush>>,
    /// The same entries, eight to a [`Block`], for the box overlap tests of
    /// [`crate::map::CollisionMap::brushes_along`]: cell `c`'s blocks are
    /// `blocks[block_start[c]..block_start[c + 1]]`, lowest first as in `cells`.
    pub(super) blocks: Vec<Block>,
    pub(super) block_start: Vec<u32>,
}

/// Entries a [`Block`] holds.
pub(super) const LANES: usize = 8;

/// Up to [`LANES`] brushes of a cell, their boxes coordinate by coordinate, so that one
/// query box is tested against all of them at once (the compiler makes vector compares of
/// the loops over lanes; written with glam's `Vec4` compares instead, the tests ran slower).
/// A lane past the cell's last brush has an empty box (`mins` +∞, `maxs` −∞), which
/// overlaps nothing.
#[derive(Clone, Copy)]
#[repr(C, align(32))]
pub(super) struct Block {
    pub(super) mins: [[f32; LANES]; 3],
    pub(super) maxs: [[f32; LANES]; 3],
    pub(super) index: [u32; LANES],
}

impl Block {
    /// The lowest `mins.z` in the block (its first lane's: the cell's entries are sorted).
    pub(super) fn first_min_z(&self) -> f32 {
        self.mins[2][0]
    }

    /// A bit per lane whose box overlaps `lo..hi` (open intervals on every axis, as
    /// [`crate::map::collision`]'s `overlaps`). The comparisons are combined with `&`, not
    /// `&&`: without branches the loops become vector compares.
    #[inline]
    pub(super) fn overlapping(&self, lo: [f32; 3], hi: [f32; 3]) -> u32 {
        let mut hit = [true; LANES];
        for k in 0..3 {
            let (mins, maxs) = (&self.mins[k], &self.maxs[k]);
            for ((h, &mn), &mx) in hit.iter_mut().zip(mins).zip(maxs) {
                *h &= (lo[k] < mx) & (mn < hi[k]);
            }
        }
        let mut bits = 0;
        for (l, h) in hit.iter().enumerate() {
            bits |= (*h as u32) << l;
        }
        bits
    }

    /// An empty block, every lane's box empty.
    fn empty() -> Block {
        Block {
            mins: [[f32::INFINITY; LANES]; 3],
            maxs: [[f32::NEG_INFINITY; LANES]; 3],
            index: [0; LANES],
        }
    }

    /// Puts a brush's box and index in lane `l`.
    fn set(&mut self, l: usize, e: &CellBrush) {
        for k in 0..3 {
            self.mins[k][l] = e.mins[k];
            self.maxs[k][l] = e.maxs[k];
        }
        self.index[l] = e.index;
    }
}

/// A brush in a grid cell, with its box at hand for the overlap test (read in a row, not
/// looked up in the brush list).
#[derive(Clone, Copy)]
pub(super) struct CellBrush {
    pub(super) mins: Vec3A,
    pub(super) maxs: Vec3A,
    pub(super) index: u32,
    /// The brush's contents: a sight line skips the brushes it sees through without
    /// reading the brush (the entry's padding had room for it).
    pub(super) contents: Contents,
}

impl BrushGrid {
    /// The cell along one axis: `floor(v / GRID_CELL)` without the libm call (the cell side
    /// is a power of two, so the product is exact).
    pub(super) fn cell(v: f32) -> i32 {
        let x = v * (1.0 / GRID_CELL);
        let i = x as i32;
        i - (x < i as f32) as i32
    }

    pub(super) fn new(brushes: &[Brush], mins: Vec3, maxs: Vec3) -> BrushGrid {
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
            blocks: Vec::new(),
            block_start: Vec::new(),
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
        let mut block_start = Vec::with_capacity(cells.len() + 1);
        let mut blocks = Vec::new();
        for c in &cells {
            block_start.push(blocks.len() as u32);
            for chunk in c.chunks(LANES) {
                let mut b = Block::empty();
                for (l, e) in chunk.iter().enumerate() {
                    b.set(l, e);
                }
                blocks.push(b);
            }
        }
        block_start.push(blocks.len() as u32);
        grid.cells = cells;
        grid.blocks = blocks;
        grid.block_start = block_start;
        grid
    }

    /// The blocks of cell `c`.
    pub(super) fn blocks_of(&self, c: usize) -> &[Block] {
        &self.blocks[self.block_start[c] as usize..self.block_start[c + 1] as usize]
    }

    /// Calls `f` with the index of every cell the segment `a`–`b` passes through, in order
    /// from `a` (a 3-D DDA, Amanatides and Woo), until it returns false. The part of the
    /// segment outside the grid has no brushes and is skipped.
    // Always inlined, as `for_cells`: left to the compiler, whether these were inlined into
    // their callers' closures flipped with unrelated edits elsewhere in the crate, costing
    // 1.7 % of a 128-bot match's instructions when not.
    #[inline(always)]
    pub(super) fn walk(&self, a: Vec3, b: Vec3, mut f: impl FnMut(usize) -> bool) {
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
    pub(super) fn cell_of(&self, p: Vec3) -> Option<usize> {
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
    #[inline(always)]
    pub(super) fn for_cells(&self, lo: Vec3, hi: Vec3, mut f: impl FnMut(usize)) {
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
pub(super) fn grid_answers(lo: Vec3, hi: Vec3, grow: Vec3) -> bool {
    (hi.x - lo.x).max(hi.y - lo.y) <= GRID_QUERY_MAX
        && (grow.x > 1.0 || hi.z - lo.z <= GRID_RAY_HEIGHT)
}
