//! Where the team has been: [`VisitMap`], visits counted per cell by every explorer, the
//! frontier points beside what is known, and the spawn point the team knows least
//! ([`least_known_spawn`]).

use std::collections::BTreeMap;

use glam::Vec3;

use crate::map::level::Level;
use crate::map::{CollisionMap, Contents};
use crate::sim::rng::SimRng;

/// Side of a cell of the visit map.
pub(super) const VISIT_CELL: f32 = 128.0;

/// A cell of the visit map ([`VisitMap::cell`]).
pub type VisitCell = (i32, i32, i32);

/// How often bots have been in each 128-unit cell (sampled at 10 Hz while standing or
/// swimming, never in mid-air): exploration's memory of where the team has been, so that
/// bots head for what nobody has seen.
#[derive(Clone, Debug, Default)]
pub struct VisitMap {
    pub(super) cells: BTreeMap<(i32, i32, i32), u32>,
    /// The same, counted only while in a liquid: a 128-unit cell holds both a tunnel of
    /// slime and the floor over its roof, walked by everyone (the difference is where the
    /// team stood on dry floor).
    pub(super) wet: BTreeMap<(i32, i32, i32), u32>,
    /// Floor points of the map under a ceiling, 128 units apart: the places exploring bots
    /// are pulled toward while nobody has been there. Found on first use (a match without
    /// explorers never needs them); a function of the map alone, so whenever.
    pub(super) frontier: std::sync::OnceLock<Vec<Vec3>>,
    /// Floor points of the map 32 units apart (on first use, as `frontier`): the free
    /// space a planned run toward an item samples around (tens of milliseconds on dm4).
    pub(super) floor: std::sync::OnceLock<Vec<Vec3>>,
    /// Points on the surfaces of the map's liquids, [`POOL_SPACING`] apart (on first use,
    /// as `frontier`): the pools exploring bots jump into ([`Explorer::pool`]).
    pub(super) surfaces: std::sync::OnceLock<Vec<(Vec3, Contents)>>,
}

impl VisitMap {
    /// The cell of `p`.
    pub fn cell(p: Vec3) -> (i32, i32, i32) {
        (
            (p.x / VISIT_CELL).floor() as i32,
            (p.y / VISIT_CELL).floor() as i32,
            (p.z / VISIT_CELL).floor() as i32,
        )
    }

    /// Counts a visit at `p`.
    pub fn visit(&mut self, p: Vec3) {
        *self.cells.entry(Self::cell(p)).or_insert(0) += 1;
    }

    /// Visits counted in the cell of `p`.
    pub fn visits(&self, p: Vec3) -> u32 {
        self.cells.get(&Self::cell(p)).copied().unwrap_or(0)
    }

    /// Counts a visit in a liquid at `p` (besides [`VisitMap::visit`]).
    pub fn visit_wet(&mut self, p: Vec3) {
        *self.wet.entry(Self::cell(p)).or_insert(0) += 1;
    }

    /// Visits in a liquid counted in the cell of `p`.
    pub fn wet_visits(&self, p: Vec3) -> u32 {
        self.wet.get(&Self::cell(p)).copied().unwrap_or(0)
    }

    /// Cells visited at least once.
    pub fn cells(&self) -> usize {
        self.cells.len()
    }

    /// The map's floor points under a ceiling (see [`frontier_points`]).
    pub fn frontier(&self, level: &Level, map: &CollisionMap) -> &[Vec3] {
        self.frontier.get_or_init(|| frontier_points(level, map))
    }

    /// The map's floor points 32 units apart (see [`crate::nav::sample::floor_points`]).
    pub fn floor(&self, level: &Level, map: &CollisionMap) -> &[Vec3] {
        self.floor
            .get_or_init(|| crate::nav::sample::floor_points(level, map, 32.0))
    }

    /// Points on the map's liquid surfaces (see [`crate::nav::sample::liquid_surfaces`]).
    pub fn surfaces(&self, map: &CollisionMap) -> &[(Vec3, Contents)] {
        self.surfaces
            .get_or_init(|| crate::nav::sample::liquid_surfaces(map, POOL_SPACING))
    }

    /// The nearest frontier point nobody has visited (height counting double).
    pub fn nearest_unvisited(&self, level: &Level, map: &CollisionMap, p: Vec3) -> Option<Vec3> {
        self.nearest_unvisited_but(level, map, p, |_| false)
    }

    /// [`VisitMap::nearest_unvisited`] leaving out the points `left_out` names.
    pub fn nearest_unvisited_but(
        &self,
        level: &Level,
        map: &CollisionMap,
        p: Vec3,
        left_out: impl Fn(Vec3) -> bool,
    ) -> Option<Vec3> {
        self.frontier(level, map)
            .iter()
            .filter(|q| self.visits(**q) == 0 && !left_out(**q))
            .map(|q| {
                let d = *q - p;
                (d.x * d.x + d.y * d.y + 4.0 * d.z * d.z, *q)
            })
            .min_by(|a, b| a.0.total_cmp(&b.0))
            .map(|x| x.1)
    }
}

/// `p` and the points one visit cell away from it across the floor (the eight cells round
/// its own at its height).
pub(super) fn cells_around(p: Vec3) -> impl Iterator<Item = Vec3> {
    (-1..=1)
        .flat_map(|dx| (-1..=1).map(move |dy| (dx, dy)))
        .map(move |(dx, dy)| p + Vec3::new(dx as f32, dy as f32, 0.0) * VISIT_CELL)
}

/// The spawn point whose surroundings (its visit cell and the eight beside it) the team has
/// visited least, ties drawn with `rng`; `None` when the level has none. An explorer that
/// starts again (given up where it was, or dead) asks for it: from a random one it came
/// back where the team had long been on most tries, and whole parts of a map reached from
/// one spawn point only by a long way (a wing of it) were found on some runs and not on
/// others.
pub fn least_known_spawn(visits: &VisitMap, level: &Level, rng: &mut SimRng) -> Option<usize> {
    let known = |p: Vec3| -> u32 { cells_around(p).map(|q| visits.visits(q)).sum() };
    let scores: Vec<u32> = level.spawns.iter().map(|s| known(s.origin)).collect();
    let least = *scores.iter().min()?;
    let ties: Vec<usize> = (0..scores.len()).filter(|&i| scores[i] == least).collect();
    Some(ties[rng.below(ties.len())])
}

/// The map's floor points under a ceiling (a roof's top has open sky above it and is left
/// out), for [`VisitMap::frontier`].
pub fn frontier_points(level: &Level, map: &CollisionMap) -> Vec<Vec3> {
    let (_, top) = map.bounds();
    crate::nav::sample::floor_points(level, map, VISIT_CELL)
        .into_iter()
        .filter(|p| {
            map.trace_ray(*p, Vec3::new(p.x, p.y, top.z + 1.0), Contents::SOLID, None)
                .fraction
                < 1.0
        })
        .collect()
}

/// Spacing of the points on the map's liquid surfaces among which exploring bots look for
/// pools to jump into ([`VisitMap::surfaces`]).
pub(super) const POOL_SPACING: f32 = 64.0;
