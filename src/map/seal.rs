//! The sealed world: whether a map's structural brushes close it off from the void, found
//! as qbsp's outside fill finds it — a flood from the entities through empty space that
//! must not reach the map's edge — and, where it does, the shortest way out (a leak) and
//! the pointfile TrenchBroom draws it from.
//!
//! The flood runs over a grid of points [`LEAK_CELL`] apart, stepping from one to the next
//! where a line between them meets no structural brush (the world's and its groups' solid
//! and sky brushes; detail, walls, movers, clip and liquids do not seal a map, as in qbsp).
//! Every hole a player fits through lies on such a line; a crack narrower than a cell may
//! not. Entry points: [`find_leak`], [`Flood::inside`], [`Leak::pointfile`].

use std::collections::VecDeque;

use glam::Vec3;
use serde::Serialize;

use super::brush::{Brush, Contents};
use super::classes::{Treatment, treatment};
use super::collision::CollisionMap;
use super::level::Level;

/// Spacing of the flood's points (units): a player's width, so that every hole a player
/// fits through has a line of points across it.
pub const LEAK_CELL: f32 = 32.0;

/// How far (units) the flood's points lie off the grid maps are built on.
const GRID_SHIFT: f32 = 0.375;

/// Most points the flood's grid may hold; a larger map is flooded on a coarser grid.
const MAX_CELLS: usize = 64 << 20;

/// A leak: the way from an entity inside to the outside of the map.
#[derive(Clone, Debug, Serialize)]
pub struct Leak {
    /// The class of the entity the flood set out from.
    pub classname: String,
    /// Its line in the file.
    pub line: usize,
    /// Its origin.
    pub origin: [f32; 3],
    /// The way out, from the entity's origin to a point beyond the map's brushes.
    pub path: Vec<[f32; 3]>,
}

impl Leak {
    /// The way out in the pointfile format TrenchBroom loads (File ▸ Load Point File) and
    /// Quake engines draw: one point a line, `x y z`.
    pub fn pointfile(&self) -> String {
        self.path
            .iter()
            .map(|p| format!("{} {} {}\n", p[0], p[1], p[2]))
            .collect()
    }

    /// The last point of the way still among the map's brushes: where it leaves the map.
    pub fn exit(&self) -> [f32; 3] {
        self.path[self.path.len().saturating_sub(2)]
    }

    /// Length of the way out (units).
    pub fn length(&self) -> f32 {
        self.path
            .windows(2)
            .map(|w| Vec3::from(w[0]).distance(Vec3::from(w[1])))
            .sum()
    }
}

/// The brushes that seal a map: the solid (and sky) brushes of the world and of what is
/// merged into it as structure (TrenchBroom's groups and layers).
pub fn structural_brushes(level: &Level) -> Vec<Brush> {
    level
        .map
        .entities
        .iter()
        .filter(|e| {
            matches!(e.classname.as_str(), "worldspawn" | "func_group")
                && treatment(&e.classname, true) == Treatment::World
        })
        .flat_map(|e| e.brushes.iter())
        .filter(|b| b.contents == Contents::SOLID)
        .cloned()
        .collect()
}

/// The way out of `level`, if its structural brushes leave one ([`Flood::leak`]).
pub fn find_leak(level: &Level) -> Option<Leak> {
    Flood::of(level).and_then(|f| f.leak)
}

/// Marks every flood point reached; an entity's own cell holds its index with this bit.
const START: u32 = 1 << 31;

/// A flood point not reached.
const UNSEEN: u32 = u32::MAX;

/// The flood of a map's inside from its entities (see the module docs).
pub struct Flood {
    cmap: CollisionMap,
    /// The first flood point's cell corner.
    origin: Vec3,
    cell: f32,
    dims: [usize; 3],
    /// Each point's parent on the way from its entity ([`START`] | entity index for an
    /// entity's own; [`UNSEEN`] where not reached).
    parent: Vec<u32>,
    /// The way out, where there is one (the flood stops there).
    pub leak: Option<Leak>,
}

impl Flood {
    /// The flood from every point entity's origin (in file order; an entity in solid is
    /// passed over) until it reaches the grid's edge, a cell beyond every brush (a leak: the
    /// shortest such way, from the entity it set out from), or fills the inside. `None` for
    /// a map with no structural brushes.
    pub fn of(level: &Level) -> Option<Flood> {
        let brushes = structural_brushes(level);
        if brushes.is_empty() {
            return None;
        }
        let cmap = CollisionMap::new(brushes, Vec::new());
        let (mn, mx) = cmap.bounds();
        let mut cell = LEAK_CELL;
        let dims = |cell: f32| {
            // One cell of margin beyond the brushes on each side: the outside.
            let n = ((mx - mn) / cell).ceil() + 2.0;
            [n.x as usize, n.y as usize, n.z as usize]
        };
        while dims(cell).iter().product::<usize>() > MAX_CELLS {
            cell *= 2.0;
        }
        let [nx, ny, nz] = dims(cell);
        let mut f = Flood {
            // Off the map grid by a fraction: no point of the flood lies on a brush's face.
            origin: mn - Vec3::splat(cell - GRID_SHIFT),
            cmap,
            cell,
            dims: [nx, ny, nz],
            parent: vec![UNSEEN; nx * ny * nz],
            leak: None,
        };
        let edge = |i: usize| {
            let (x, y, z) = (i % nx, (i / nx) % ny, i / (nx * ny));
            x == 0 || y == 0 || z == 0 || x == nx - 1 || y == ny - 1 || z == nz - 1
        };
        let mut queue = VecDeque::new();
        for (k, e) in level.map.entities.iter().enumerate() {
            if !e.brushes.is_empty() || k == 0 {
                continue;
            }
            let Some(o) = e.get("origin").and_then(super::parse::parse_vec3) else {
                continue;
            };
            let Some(i) = f.index(o) else {
                // Beyond every brush: the way out is where it stands.
                f.leak = Some(Leak {
                    classname: e.classname.clone(),
                    line: e.line,
                    origin: o.to_array(),
                    path: vec![o.to_array()],
                });
                return Some(f);
            };
            if f.parent[i] == UNSEEN && f.clear(o, f.centre(i)) {
                f.parent[i] = START | k as u32;
                queue.push_back(i as u32);
            }
        }
        let steps: [isize; 6] = [
            -1,
            1,
            -(nx as isize),
            nx as isize,
            -((nx * ny) as isize),
            (nx * ny) as isize,
        ];
        while let Some(i) = queue.pop_front() {
            let i = i as usize;
            if edge(i) {
                f.leak = Some(way_out(level, &f.parent, i, |j| f.centre(j)));
                return Some(f);
            }
            let c = f.centre(i);
            for s in steps {
                let j = (i as isize + s) as usize;
                if f.parent[j] == UNSEEN && f.clear(c, f.centre(j)) {
                    f.parent[j] = i as u32;
                    queue.push_back(j as u32);
                }
            }
        }
        Some(f)
    }

    /// Whether the flood reached anything: a map with no point entity in open space has no
    /// known inside (qbsp refuses such a map), and [`Flood::inside`] says no everywhere.
    pub fn found_inside(&self) -> bool {
        self.parent.iter().any(|&p| p != UNSEEN)
    }

    /// Whether `p` lies inside the sealed map: a flood point it sees in a clear line lies
    /// within a cell of it. Everything is inside a map that leaks (nothing is filled, as qbsp
    /// fills nothing then).
    pub fn inside(&self, p: Vec3) -> bool {
        if self.leak.is_some() {
            return true;
        }
        let c = ((p - self.origin) / self.cell - 0.5).floor();
        for k in 0..8 {
            let d = Vec3::new((k & 1) as f32, ((k >> 1) & 1) as f32, ((k >> 2) & 1) as f32);
            let q = self.origin + (c + d + 0.5) * self.cell;
            if let Some(i) = self.index(q)
                && self.parent[i] != UNSEEN
                && self.clear(p, self.centre(i))
            {
                return true;
            }
        }
        false
    }

    /// The centre of flood point `i`.
    fn centre(&self, i: usize) -> Vec3 {
        let [nx, ny, _] = self.dims;
        let (x, y, z) = (i % nx, (i / nx) % ny, i / (nx * ny));
        self.origin + (Vec3::new(x as f32, y as f32, z as f32) + 0.5) * self.cell
    }

    /// The flood point whose cell holds `p`.
    fn index(&self, p: Vec3) -> Option<usize> {
        let [nx, ny, nz] = self.dims;
        let c = ((p - self.origin) / self.cell).floor();
        (c.cmpge(Vec3::ZERO).all() && c.x < nx as f32 && c.y < ny as f32 && c.z < nz as f32)
            .then(|| c.x as usize + nx * (c.y as usize + ny * c.z as usize))
    }

    /// Whether the line from `a` to `b` meets no structural brush. A line that starts inside
    /// one is not clear either (an entity inside one, a light sunk into a ceiling, stays
    /// there).
    fn clear(&self, a: Vec3, b: Vec3) -> bool {
        let t = self.cmap.trace_ray(a, b, Contents::SOLID, None);
        t.fraction >= 1.0 && !t.start_solid
    }
}

/// The leak ending at edge cell `end`: the cells back to the entity the flood set out from.
fn way_out(level: &Level, parent: &[u32], end: usize, centre: impl Fn(usize) -> Vec3) -> Leak {
    let start = START;
    let mut path = vec![centre(end).to_array()];
    let mut i = end;
    while parent[i] & start == 0 {
        i = parent[i] as usize;
        path.push(centre(i).to_array());
    }
    let e = &level.map.entities[(parent[i] & !start) as usize];
    let o = e
        .get("origin")
        .and_then(super::parse::parse_vec3)
        .unwrap_or(Vec3::from(path[path.len() - 1]));
    path.push(o.to_array());
    path.reverse();
    Leak {
        classname: e.classname.clone(),
        line: e.line,
        origin: o.to_array(),
        path,
    }
}
