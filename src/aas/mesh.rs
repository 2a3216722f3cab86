//! The compiled navigation's data: areas and their flags, reachabilities and their commands,
//! the cell grid, and [`NavMesh`] with its point → area lookup and per-area reachability
//! lists. Entry point: [`NavMesh`].

use glam::{Vec2, Vec3};
use serde::{Deserialize, Serialize};

use crate::physics::pmove::UserCmd;

/// How to compile.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct CompileParams {
    /// Edge of a heightfield cell, units (4..=32).
    pub cell: f32,
    /// Physics ticks per second used to verify reachabilities and measure their times.
    pub tick_rate: u32,
    /// Worker threads (0: as many as the machine has). The result is the same for any.
    #[serde(skip)]
    pub threads: usize,
}

impl Default for CompileParams {
    fn default() -> Self {
        CompileParams {
            cell: 8.0,
            tick_rate: 20,
            threads: 0,
        }
    }
}

/// What an area is like (bits; an area's cells all share them).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct AreaFlags(pub u16);

impl AreaFlags {
    /// A player stands on the floor here.
    pub const GROUNDED: AreaFlags = AreaFlags(1);
    /// A player swims here (origin in liquid).
    pub const SWIM: AreaFlags = AreaFlags(2);
    /// Water (feet or body).
    pub const WATER: AreaFlags = AreaFlags(4);
    /// Slime (hurts).
    pub const SLIME: AreaFlags = AreaFlags(8);
    /// Lava (hurts a lot).
    pub const LAVA: AreaFlags = AreaFlags(16);
    /// The floor under the centre of the box is more than a step down: the box hangs over an
    /// edge a player can fall from.
    pub const LEDGE: AreaFlags = AreaFlags(32);
    /// The floor is a mover (a plat's top, a train) where it starts.
    pub const MOVER: AreaFlags = AreaFlags(64);
    /// The box touches a teleporter's trigger.
    pub const TELEPORTER: AreaFlags = AreaFlags(128);
    /// The box touches a jump pad's trigger (`trigger_push`; none yet: the simulation has no
    /// jump pads).
    pub const JUMP_PAD: AreaFlags = AreaFlags(256);
    /// The floor is a player-clip brush.
    pub const CLIP: AreaFlags = AreaFlags(512);

    /// Every flag with its name, in bit order.
    pub const NAMED: [(AreaFlags, &'static str); 10] = [
        (AreaFlags::GROUNDED, "grounded"),
        (AreaFlags::SWIM, "swim"),
        (AreaFlags::WATER, "water"),
        (AreaFlags::SLIME, "slime"),
        (AreaFlags::LAVA, "lava"),
        (AreaFlags::LEDGE, "ledge"),
        (AreaFlags::MOVER, "mover"),
        (AreaFlags::TELEPORTER, "teleporter"),
        (AreaFlags::JUMP_PAD, "jump_pad"),
        (AreaFlags::CLIP, "clip"),
    ];

    /// Whether every bit of `other` is set.
    pub fn has(self, other: AreaFlags) -> bool {
        self.0 & other.0 == other.0
    }

    /// The names of the set bits, joined with `+`.
    pub fn names(self) -> String {
        let v: Vec<&str> = AreaFlags::NAMED
            .iter()
            .filter(|(f, _)| self.has(*f))
            .map(|(_, n)| *n)
            .collect();
        v.join("+")
    }
}

impl std::ops::BitOr for AreaFlags {
    type Output = AreaFlags;
    fn bitor(self, o: AreaFlags) -> AreaFlags {
        AreaFlags(self.0 | o.0)
    }
}

impl std::ops::BitOrAssign for AreaFlags {
    fn bitor_assign(&mut self, o: AreaFlags) {
        self.0 |= o.0;
    }
}

/// A convex area: a rectangle of grid cells, either on one floor plane (grounded) or a
/// liquid prism from the bottom to the surface (swim).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Area {
    /// Its index in [`NavMesh::areas`].
    pub id: u32,
    /// What it is like.
    pub flags: AreaFlags,
    /// First cell column and row (inclusive).
    pub cell_min: [u32; 2],
    /// Last cell column and row (inclusive).
    pub cell_max: [u32; 2],
    /// Bounds of the origins it holds (x, y: the cells' edges; z: lowest and highest origin).
    pub mins: Vec3,
    /// See `mins`.
    pub maxs: Vec3,
    /// Grounded: the plane the standing origins lie on (`normal · origin = dist`).
    pub plane: Option<(Vec3, f32)>,
    /// A standing (or swimming) origin near the middle, one of the sampled ones.
    pub center: Vec3,
    /// The mover it lies on (MOVER areas).
    pub mover: Option<u32>,
    /// The teleporter trigger it touches (TELEPORTER areas; index into the level's triggers).
    pub trigger: Option<u32>,
    /// The mover position (index into [`NavMesh::positions`]) this area is there only
    /// with: the shaft under a raised plat, the top of a plat waiting low once fired, a
    /// bridge that a door slides away, a train's top at one of its stops. `None`: the area
    /// of the world as navigation assumes it ([`super::NavWorld`]).
    #[serde(default)]
    pub moved: Option<u32>,
}

/// A mover somewhere else than where navigation assumes it: a plat, door or secret door at
/// its other end, or a train at one of its stops but the first.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct MoverPosition {
    /// The mover's id.
    pub mover: u32,
    /// Its brushes' offset from their map position there.
    pub offset: Vec3,
    /// A train's stop (index into the level's path corners).
    pub corner: Option<u32>,
}

impl Area {
    /// The height of a standing origin at (x, y): on the floor plane, or the swim span's
    /// bottom.
    pub fn floor_z(&self, xy: Vec2) -> f32 {
        match self.plane {
            Some((n, d)) if n.z.abs() > 1e-3 => (d - n.x * xy.x - n.y * xy.y) / n.z,
            _ => self.mins.z,
        }
    }

    /// Whether the area swims.
    pub fn is_swim(&self) -> bool {
        self.flags.has(AreaFlags::SWIM)
    }
}

/// How a reachability is travelled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum ReachKind {
    /// Walk over (nearly) level floor.
    Walk,
    /// Walk up a step of at most 18 units.
    StepUp,
    /// Jump onto something higher than a step.
    BarrierJump,
    /// A running jump over a gap.
    Jump,
    /// Walk off a ledge and fall.
    WalkOffLedge,
    /// Swim, or walk into or out of liquid.
    Swim,
    /// Jump out of the water onto a ledge.
    WaterJump,
    /// Through a teleporter.
    Teleport,
    /// Ride a plat from its bottom to its top.
    Elevator,
    /// Thrown by a `trigger_push` (a jump pad or wind tunnel).
    JumpPad,
}

impl ReachKind {
    /// Every kind, in order.
    pub const ALL: [ReachKind; 10] = [
        ReachKind::Walk,
        ReachKind::StepUp,
        ReachKind::BarrierJump,
        ReachKind::Jump,
        ReachKind::WalkOffLedge,
        ReachKind::Swim,
        ReachKind::WaterJump,
        ReachKind::Teleport,
        ReachKind::Elevator,
        ReachKind::JumpPad,
    ];

    /// Its name in files and reports.
    pub fn name(self) -> &'static str {
        match self {
            ReachKind::Walk => "walk",
            ReachKind::StepUp => "step_up",
            ReachKind::BarrierJump => "barrier_jump",
            ReachKind::Jump => "jump",
            ReachKind::WalkOffLedge => "walk_off_ledge",
            ReachKind::Swim => "swim",
            ReachKind::WaterJump => "water_jump",
            ReachKind::Teleport => "teleport",
            ReachKind::Elevator => "elevator",
            ReachKind::JumpPad => "jump_pad",
        }
    }

    /// Whether a bot plays this kind's recorded commands, fitted through the physics from
    /// where it stands (jumps and falls); the others are steered (walks, swims) or ride
    /// movers and teleporters, whose runs depend on more than the geometry.
    pub fn played(self) -> bool {
        matches!(
            self,
            ReachKind::Jump
                | ReachKind::BarrierJump
                | ReachKind::WalkOffLedge
                | ReachKind::WaterJump
        )
    }
}

/// A stretch of identical commands.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct CmdRun {
    /// How many ticks the command is given.
    pub ticks: u32,
    /// The command.
    pub cmd: UserCmd,
}

/// Where a mover must be for a reachability to work.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum MoverNeed {
    /// The door (by mover id) open.
    Open(u32),
    /// The locked door (by mover id) opened with its key (never in a bot match: routing
    /// for deathmatch leaves these out).
    Key(u32),
    /// The plat (by mover id) down, waiting to be ridden (a train: at its first stop).
    Down(u32),
    /// The mover (by id) where it waits until a trigger fires it (a plat waiting at the top
    /// until it is sent down).
    Fired(u32),
    /// The teleporter (by trigger index) that works only once something has fired it.
    Teleporter(u32),
    /// A mover where the position (index into [`NavMesh::positions`]) has it: a plat up
    /// (or low, once fired), a door closed, a train at one of its stops (see
    /// [`Area::moved`]).
    Moved(u32),
}

/// A way from one area to another, verified by the physics.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Reach {
    /// Area it starts in.
    pub from: u32,
    /// Area it ends in.
    pub to: u32,
    /// How.
    pub kind: ReachKind,
    /// The standing origin the commands start from.
    pub start: Vec3,
    /// Where the run ended (standing or swimming in `to`).
    pub end: Vec3,
    /// The commands, in order.
    pub commands: Vec<CmdRun>,
    /// Travel time in seconds: the ticks the physics took to arrive, times the tick length.
    pub seconds: f32,
    /// Movers it needs in a given state.
    pub needs: Vec<MoverNeed>,
}

impl Reach {
    /// Ticks the commands last.
    pub fn ticks(&self) -> u32 {
        self.commands.iter().map(|c| c.ticks).sum()
    }
}

/// The grid the areas' cells live on.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Frame {
    /// Corner of cell (0, 0).
    pub origin: Vec2,
    /// Cell edge, units.
    pub cell: f32,
    /// Columns.
    pub nx: u32,
    /// Rows.
    pub ny: u32,
}

impl Frame {
    /// The cell holding `xy`, if inside the grid.
    pub fn cell_of(&self, xy: Vec2) -> Option<(u32, u32)> {
        let f = (xy - self.origin) / self.cell;
        if !(f.x >= 0.0 && f.y >= 0.0) {
            return None;
        }
        let (ix, iy) = (f.x as u32, f.y as u32);
        (ix < self.nx && iy < self.ny).then_some((ix, iy))
    }

    /// The centre of cell (ix, iy).
    pub fn center(&self, ix: u32, iy: u32) -> Vec2 {
        self.origin + (Vec2::new(ix as f32, iy as f32) + 0.5) * self.cell
    }
}

/// Counts and costs of a compile.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct CompileStats {
    /// Wall-clock seconds the compile took (a report, never used by the simulation).
    pub seconds: f64,
    /// Columns swept.
    pub columns: u64,
    /// Spans (floors and swim spans) found.
    pub spans: u64,
    /// Candidates run through the physics, by kind tried.
    pub candidates: u64,
    /// Candidates whose run did not end in their target area.
    pub dropped: u64,
    /// Ticks of `pmove` run to verify them.
    pub ticks_simulated: u64,
}

/// The compiled navigation of one map: areas, the lookup, reachabilities.
#[derive(Clone, Debug)]
pub struct NavMesh {
    /// Map name.
    pub map: String,
    /// The map's geometry hash (as waypoint files name it).
    pub geometry_hash: String,
    /// How it was compiled.
    pub params: CompileParams,
    /// The cell grid.
    pub frame: Frame,
    areas: Vec<Area>,
    reaches: Vec<Reach>,
    /// Counts and costs of the compile.
    pub stats: CompileStats,
    /// The mover positions areas and reachabilities name ([`Area::moved`],
    /// [`MoverNeed::Moved`]).
    pub positions: Vec<MoverPosition>,
    /// Per cell (row-major), the range of `cell_areas` listing the areas covering it.
    cell_start: Vec<u32>,
    cell_areas: Vec<u32>,
    from: Vec<Vec<u32>>,
    to: Vec<Vec<u32>>,
}

/// Above a grounded area's floor, how high an origin still counts as in it (a step).
const ABOVE_FLOOR: f32 = 18.0;
/// Below it, how low (rounding).
const BELOW_FLOOR: f32 = 2.0;

impl NavMesh {
    /// Assembles a mesh and its lookup tables.
    pub fn new(
        map: String,
        geometry_hash: String,
        params: CompileParams,
        frame: Frame,
        areas: Vec<Area>,
        reaches: Vec<Reach>,
        stats: CompileStats,
    ) -> NavMesh {
        let cells = (frame.nx as usize) * (frame.ny as usize);
        let mut count = vec![0u32; cells + 1];
        for a in &areas {
            for iy in a.cell_min[1]..=a.cell_max[1] {
                for ix in a.cell_min[0]..=a.cell_max[0] {
                    count[(iy * frame.nx + ix) as usize + 1] += 1;
                }
            }
        }
        for i in 0..cells {
            count[i + 1] += count[i];
        }
        let mut fill = count.clone();
        let mut cell_areas = vec![0u32; count[cells] as usize];
        for a in &areas {
            for iy in a.cell_min[1]..=a.cell_max[1] {
                for ix in a.cell_min[0]..=a.cell_max[0] {
                    let c = (iy * frame.nx + ix) as usize;
                    cell_areas[fill[c] as usize] = a.id;
                    fill[c] += 1;
                }
            }
        }
        let mut mesh = NavMesh {
            map,
            geometry_hash,
            params,
            frame,
            areas,
            reaches: Vec::new(),
            stats,
            positions: Vec::new(),
            cell_start: count,
            cell_areas,
            from: Vec::new(),
            to: Vec::new(),
        };
        mesh.set_reaches(reaches);
        mesh
    }

    /// Replaces the reachabilities (sorted by start area, end area, kind).
    pub(crate) fn set_reaches(&mut self, mut reaches: Vec<Reach>) {
        reaches.sort_by_key(|a| (a.from, a.to, a.kind));
        let n = self.areas.len();
        self.from = vec![Vec::new(); n];
        self.to = vec![Vec::new(); n];
        for (i, r) in reaches.iter().enumerate() {
            self.from[r.from as usize].push(i as u32);
            self.to[r.to as usize].push(i as u32);
        }
        self.reaches = reaches;
    }

    /// Every area, by id.
    pub fn areas(&self) -> &[Area] {
        &self.areas
    }

    /// Every reachability.
    pub fn reaches(&self) -> &[Reach] {
        &self.reaches
    }

    /// Reachabilities starting in `area`.
    pub fn reachabilities_from(&self, area: u32) -> impl Iterator<Item = &Reach> + '_ {
        self.from
            .get(area as usize)
            .into_iter()
            .flatten()
            .map(|&i| &self.reaches[i as usize])
    }

    /// Indices (into [`NavMesh::reaches`]) of the reachabilities starting in `area`.
    pub fn reach_ids_from(&self, area: u32) -> &[u32] {
        self.from.get(area as usize).map_or(&[], |v| &v[..])
    }

    /// Indices of the reachabilities ending in `area`.
    pub fn reach_ids_to(&self, area: u32) -> &[u32] {
        self.to.get(area as usize).map_or(&[], |v| &v[..])
    }

    /// Whether area `a` is `to` or joined to it by a walk or step up (either way): a run
    /// that comes down over `to` at speed and lands there does as well for a route, which
    /// is asked again from where it lands.
    pub fn walk_joined(&self, to: u32, a: u32) -> bool {
        let walk = |from: u32, into: u32| {
            self.reachabilities_from(from)
                .any(|r| r.to == into && matches!(r.kind, ReachKind::Walk | ReachKind::StepUp))
        };
        a == to || walk(to, a) || walk(a, to)
    }

    /// The areas a reachability joins to `area`, either way (with repeats).
    pub fn neighbours(&self, area: u32) -> impl Iterator<Item = u32> + '_ {
        self.reachabilities_from(area)
            .map(|r| r.to)
            .chain(self.reachabilities_to(area).map(|r| r.from))
    }

    /// Reachabilities ending in `area`.
    pub fn reachabilities_to(&self, area: u32) -> impl Iterator<Item = &Reach> + '_ {
        self.to
            .get(area as usize)
            .into_iter()
            .flatten()
            .map(|&i| &self.reaches[i as usize])
    }

    /// The areas covering cell (ix, iy).
    pub fn areas_in_cell(&self, ix: u32, iy: u32) -> &[u32] {
        let c = (iy * self.frame.nx + ix) as usize;
        &self.cell_areas[self.cell_start[c] as usize..self.cell_start[c + 1] as usize]
    }

    /// How far `p` is from being in `area` vertically (0 inside), given that its (x, y) is
    /// over the area's cells.
    fn vertical_miss(&self, a: &Area, p: Vec3) -> f32 {
        if a.is_swim() {
            if p.z < a.mins.z - BELOW_FLOOR {
                a.mins.z - p.z
            } else if p.z > a.maxs.z + BELOW_FLOOR {
                p.z - a.maxs.z
            } else {
                0.0
            }
        } else {
            let z = a.floor_z(p.truncate());
            if p.z < z - BELOW_FLOOR {
                z - p.z
            } else if p.z > z + ABOVE_FLOOR {
                p.z - z - ABOVE_FLOOR
            } else {
                0.0
            }
        }
    }

    /// The area holding the player origin `p`: a grounded area whose floor is at most a
    /// step below it (2 units above for rounding), or a swim area whose span holds it. The
    /// floors were sampled at cell centres, so an origin against a wall whose own cell has no
    /// floor (its centre is inside the expanded wall) is given the area of a neighbouring
    /// cell, less than one cell away. `None` in the air, in solid or outside the map.
    pub fn area_at(&self, p: Vec3) -> Option<u32> {
        let (ix, iy) = self.frame.cell_of(p.truncate())?;
        if let Some(a) = self.best_in_cell(ix, iy, p) {
            return Some(a);
        }
        let mut best: Option<(f32, u32)> = None;
        for (dx, dy) in [
            (-1, 0),
            (1, 0),
            (0, -1),
            (0, 1),
            (-1, -1),
            (1, -1),
            (-1, 1),
            (1, 1),
        ] {
            let (jx, jy) = (ix as i64 + dx, iy as i64 + dy);
            if jx < 0 || jy < 0 || jx >= self.frame.nx as i64 || jy >= self.frame.ny as i64 {
                continue;
            }
            if let Some(a) = self.best_in_cell(jx as u32, jy as u32, p) {
                let d = (self.frame.center(jx as u32, jy as u32) - p.truncate()).length_squared();
                if best.is_none_or(|(bd, _)| d < bd) {
                    best = Some((d, a));
                }
            }
        }
        best.map(|(_, a)| a)
    }

    fn best_in_cell(&self, ix: u32, iy: u32, p: Vec3) -> Option<u32> {
        let mut best: Option<(f32, u32)> = None;
        for &a in self.areas_in_cell(ix, iy) {
            let area = &self.areas[a as usize];
            if self.vertical_miss(area, p) > 0.0 {
                continue;
            }
            // Of two that hold it (a floor a step under another), the nearer floor.
            let d = (p.z - area.floor_z(p.truncate())).abs();
            if best.is_none_or(|(bd, _)| d < bd) {
                best = Some((d, a));
            }
        }
        best.map(|(_, a)| a)
    }

    /// The area at `p` or under it, up to 96 units down, with the point found in it: for a
    /// point in the air (a blast, a planner's sample), the floor beneath it.
    pub fn area_under(&self, p: Vec3) -> Option<(Vec3, u32)> {
        [0.0, 24.0, 48.0, 96.0].into_iter().find_map(|d| {
            let q = p - Vec3::Z * d;
            self.area_at(q).map(|a| (q, a))
        })
    }

    /// Bytes the mesh takes in memory (areas, reachabilities with their commands, lookup).
    pub fn memory_bytes(&self) -> usize {
        use std::mem::size_of;
        self.areas.len() * size_of::<Area>()
            + self
                .reaches
                .iter()
                .map(|r| {
                    size_of::<Reach>()
                        + r.commands.len() * size_of::<CmdRun>()
                        + r.needs.len() * size_of::<MoverNeed>()
                })
                .sum::<usize>()
            + (self.cell_start.len() + self.cell_areas.len()) * 4
            + (self.from.len() + self.to.len()) * size_of::<Vec<u32>>()
            + self.reaches.len() * 8
    }

    /// Areas counted by each flag (an area with two flags counts under both), in
    /// [`AreaFlags::NAMED`] order.
    pub fn areas_by_flag(&self) -> Vec<(&'static str, usize)> {
        AreaFlags::NAMED
            .iter()
            .map(|(f, n)| (*n, self.areas.iter().filter(|a| a.flags.has(*f)).count()))
            .collect()
    }

    /// Reachabilities counted by kind, in [`ReachKind::ALL`] order.
    pub fn reaches_by_kind(&self) -> Vec<(&'static str, usize)> {
        ReachKind::ALL
            .iter()
            .map(|k| {
                (
                    k.name(),
                    self.reaches.iter().filter(|r| r.kind == *k).count(),
                )
            })
            .collect()
    }

    /// Areas reachable from `start` through reachabilities (breadth first), as a mask by
    /// area id. `allow` filters reachabilities (e.g. leave out lava).
    pub fn reachable_from(&self, start: u32, allow: impl Fn(&Reach) -> bool) -> Vec<bool> {
        let mut seen = vec![false; self.areas.len()];
        let Some(s) = seen.get_mut(start as usize) else {
            return seen;
        };
        *s = true;
        let mut queue = std::collections::VecDeque::from([start]);
        while let Some(a) = queue.pop_front() {
            for r in self.reachabilities_from(a) {
                if allow(r) && !seen[r.to as usize] {
                    seen[r.to as usize] = true;
                    queue.push_back(r.to);
                }
            }
        }
        seen
    }
}
