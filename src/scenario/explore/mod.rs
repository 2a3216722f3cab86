//! An exploration run (`botarena explore`): bots that know nothing explore a map for a given
//! simulated time, dropping waypoints; the report gives coverage — waypoints by kind, links,
//! connected components, important items with a waypoint, waypoints found inside solid
//! (which should be none), and the share of the compiled navigation's floor the waypoints
//! cover ([`nav_coverage`]), with the largest places they leave uncovered
//! ([`missed_places`]).
//!
//! Entry points: [`explore`], [`ExploreReport`].

mod close;
mod lay;
mod routable;
mod summary;

pub use close::plan_strays;
pub use routable::{Routable, routable};
pub use summary::{ExploreSummary, GOAL_SHARE, summarize};

use std::collections::BTreeMap;
use std::sync::Arc;

use glam::Vec3;
use serde::Serialize;

use crate::bot::control::ControllerConfig;
use crate::bot::explore::wants_item_waypoint;
use crate::bot::waypoints::{SEARCH_CANDIDATES, SEARCH_RADIUS};
use crate::map::level::MoverKind;
use crate::map::{CollisionMap, Contents, EntId, Level};
use crate::nav::sample::nearest_reaching;
use crate::nav::waypoints::{GraphStats, WaypointGraph, WaypointKind};
use crate::physics::pmove::{PLAYER_MAXS, PLAYER_MINS};
use crate::tick::{Match, MatchConfig, MatchError, PlayerConfig};

/// Coverage after (part of) an exploration.
#[derive(Clone, Debug, Serialize)]
pub struct ExploreReport {
    /// Map name.
    pub map: String,
    /// Bots exploring.
    pub bots: usize,
    /// Simulated seconds.
    pub seconds: f64,
    /// Seed.
    pub seed: u64,
    /// Graph counts.
    pub graph: GraphStats,
    /// Weapons and powerups (biosuit aside) in the map.
    pub important_items: usize,
    /// Of those, how many have an item waypoint.
    pub items_with_waypoint: usize,
    /// Item classes still without a waypoint.
    pub items_missing: BTreeMap<String, usize>,
    /// Links the closing pass added between stray waypoints and the routable part.
    pub links_connected: usize,
    /// Waypoints where a standing player box would be inside the map's fixed solid (movers —
    /// doors, plats — are left out: where they stand depends on the moment).
    pub waypoints_in_solid: usize,
    /// The learned graph against the map's compiled navigation (when measured).
    pub against_nav: Option<NavCoverage>,
    /// Weapons and powerups the compiled graph does not reach from the spawn points, by
    /// class (when measured against it: [`items_beyond_reach`]); those of them missing are
    /// among `items_missing` too.
    pub items_beyond_nav: Option<BTreeMap<String, usize>>,
    /// The routable part against what the map allows (when measured against the compiled
    /// graph: [`routable`]).
    pub routable: Option<Routable>,
}

/// How much of the compiled navigation's floor the learned waypoints cover.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct NavCoverage {
    /// Areas counted: the world as navigation assumes it (not those there only while a mover
    /// is away), deadly liquids left out.
    pub areas: usize,
    /// Their floor, square units (cells of the compile's grid).
    pub floor: f64,
    /// Of it, the part within reach of a learned waypoint (see [`nav_coverage`]).
    pub covered: f64,
    /// Of it, the part with a learned waypoint within [`COVER_RADIUS`] in a clear line
    /// (the stricter measure reported before: it asks for waypoints closer together than
    /// the drop stage places them).
    pub near: f64,
    /// Areas with at least one covered cell.
    pub areas_touched: usize,
    /// Of the floor, the part in areas the compiled graph reaches from the explorers'
    /// spawn points (every reachability but those through locked doors): what exploring
    /// can find at all.
    pub reachable_floor: f64,
    /// Of that, the part within reach of a learned waypoint.
    pub reachable_covered: f64,
    /// Of that, the part with a learned waypoint near ([`NavCoverage::near`]).
    pub reachable_near: f64,
    /// The largest places of the reachable floor left uncovered ([`missed_places`]),
    /// largest first: where learning fell short, for a person to look at.
    pub missed: Vec<MissedPlace>,
}

/// A connected part of the reachable floor no learned waypoint reaches.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct MissedPlace {
    /// Its floor, square units.
    pub floor: f64,
    /// Its cell nearest the middle of its cells (a standing origin).
    pub at: Vec3,
    /// Corner of the box round its cells' standing origins.
    pub mins: Vec3,
    /// Other corner.
    pub maxs: Vec3,
}

/// How many of the largest [`MissedPlace`]s a coverage keeps.
pub const MISSED_PLACES: usize = 5;

/// How far apart in height two neighbouring cells of a missed place stand at most (a stair
/// step and a half; a ledge over a floor is another place).
const MISSED_STEP: f32 = 28.0;

/// The `keep` largest connected parts of the reachable, uncovered cells (`cell` units
/// square), largest first (ties by position): cells next to each other across the grid,
/// sides or corners, at most [`MISSED_STEP`] apart in height, are one place.
pub fn missed_places(cells: &[CellCoverage], cell: f32, keep: usize) -> Vec<MissedPlace> {
    let left: Vec<Vec3> = cells
        .iter()
        .filter(|c| c.reachable && !c.covered)
        .map(|c| c.at)
        .collect();
    let key = |p: Vec3| ((p.x / cell).floor() as i64, (p.y / cell).floor() as i64);
    let mut by_column: BTreeMap<(i64, i64), Vec<usize>> = BTreeMap::new();
    for (i, p) in left.iter().enumerate() {
        by_column.entry(key(*p)).or_default().push(i);
    }
    // Union-find over the cells.
    let mut parent: Vec<usize> = (0..left.len()).collect();
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    for (i, p) in left.iter().enumerate() {
        let (cx, cy) = key(*p);
        for dx in -1..=1 {
            for dy in -1..=1 {
                for &j in by_column.get(&(cx + dx, cy + dy)).into_iter().flatten() {
                    if j < i && (left[j].z - p.z).abs() <= MISSED_STEP {
                        let (a, b) = (root(&mut parent, i), root(&mut parent, j));
                        parent[a.max(b)] = a.min(b);
                    }
                }
            }
        }
    }
    let mut groups: BTreeMap<usize, Vec<Vec3>> = BTreeMap::new();
    for (i, p) in left.iter().enumerate() {
        let r = root(&mut parent, i);
        groups.entry(r).or_default().push(*p);
    }
    let mut out: Vec<MissedPlace> = groups
        .into_values()
        .map(|g| {
            let mid = g.iter().copied().sum::<Vec3>() / g.len() as f32;
            let at = g
                .iter()
                .copied()
                .min_by(|a, b| a.distance_squared(mid).total_cmp(&b.distance_squared(mid)))
                .unwrap_or(mid);
            let (mins, maxs) = g
                .iter()
                .fold((g[0], g[0]), |(lo, hi), p| (lo.min(*p), hi.max(*p)));
            MissedPlace {
                floor: g.len() as f64 * (cell * cell) as f64,
                at,
                mins,
                maxs,
            }
        })
        .collect();
    out.sort_by(|a, b| {
        b.floor
            .total_cmp(&a.floor)
            .then(a.at.x.total_cmp(&b.at.x))
            .then(a.at.y.total_cmp(&b.at.y))
            .then(a.at.z.total_cmp(&b.at.z))
    });
    out.truncate(keep);
    out
}

impl NavCoverage {
    /// Covered share of the floor, 0..1.
    pub fn share(&self) -> f64 {
        if self.floor > 0.0 {
            self.covered / self.floor
        } else {
            0.0
        }
    }

    /// A missed place in words: its share of the reachable floor, where it is and its
    /// extent.
    pub fn describe(&self, m: &MissedPlace) -> String {
        let v = |p: Vec3| format!("({:.0}, {:.0}, {:.0})", p.x, p.y, p.z);
        format!(
            "{:.1} % of the reachable floor uncovered round {}, from {} to {}",
            100.0 * m.floor / self.reachable_floor.max(1.0),
            v(m.at),
            v(m.mins),
            v(m.maxs)
        )
    }

    /// Covered share of the floor reachable from the spawn points, 0..1.
    pub fn reachable_share(&self) -> f64 {
        if self.reachable_floor > 0.0 {
            self.reachable_covered / self.reachable_floor
        } else {
            0.0
        }
    }

    /// Share of the floor reachable from the spawn points with a waypoint near (the
    /// stricter measure, [`NavCoverage::near`]), 0..1.
    pub fn reachable_near_share(&self) -> f64 {
        if self.reachable_floor > 0.0 {
            self.reachable_near / self.reachable_floor
        } else {
            0.0
        }
    }
}

/// Where [`nav_coverage`] puts the doors to measure their shut places: far below the map.
const DOORS_AWAY: Vec3 = Vec3::new(0.0, 0.0, -1.0e5);

/// The stricter measure's radius ([`NavCoverage::near`]): a cell has a waypoint near when
/// one stands within this distance of its standing point, at most a step and a half above
/// or below, with a clear line between them.
pub const COVER_RADIUS: f32 = 128.0;

/// Coverage of `mesh`'s floor by `graph`: the cells of [`nav_coverage_cells`] summed up.
/// `spawns`: the points players start from, for the reachable part
/// ([`NavCoverage::reachable_floor`]).
pub fn nav_coverage(
    mesh: &crate::aas::NavMesh,
    level: &Level,
    cmap: &CollisionMap,
    graph: &WaypointGraph,
    spawns: &[Vec3],
) -> NavCoverage {
    let cell_area = (mesh.frame.cell * mesh.frame.cell) as f64;
    let mut out = NavCoverage::default();
    // Cells come area by area.
    let mut last_area = None;
    let mut touched = false;
    let cells = nav_coverage_cells(mesh, level, cmap, graph, spawns);
    for c in &cells {
        if last_area != Some(c.area) {
            last_area = Some(c.area);
            out.areas += 1;
            touched = false;
        }
        if c.covered && !touched {
            touched = true;
            out.areas_touched += 1;
        }
        out.floor += cell_area;
        out.near += cell_area * c.near as u8 as f64;
        out.covered += cell_area * c.covered as u8 as f64;
        if c.reachable {
            out.reachable_floor += cell_area;
            out.reachable_near += cell_area * c.near as u8 as f64;
            out.reachable_covered += cell_area * c.covered as u8 as f64;
        }
    }
    out.missed = missed_places(&cells, mesh.frame.cell, MISSED_PLACES);
    out
}

/// One cell of a compiled area as [`nav_coverage_cells`] measures it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CellCoverage {
    /// The area.
    pub area: u32,
    /// Its standing origin on the area's floor (the middle of a swim area's span).
    pub at: Vec3,
    /// The compiled graph reaches the area from a spawn point ([`reachable_areas`]).
    pub reachable: bool,
    /// A waypoint reaches it (see [`nav_coverage_cells`]).
    pub covered: bool,
    /// A waypoint stands near it.
    pub near: bool,
}

/// The cells of `mesh`'s areas (but those of lava and slime, and those there only with a
/// mover elsewhere) as `graph` covers them, area by area. A cell (its standing origin on
/// the area's floor, or the middle of a swim area's span) is **covered** when the drop
/// stage's own test finds it known: of the [`SEARCH_CANDIDATES`] waypoints nearest it
/// within [`SEARCH_RADIUS`], one reaches it in a straight line (a bot standing there drops
/// no waypoint, and routes from there). It has a waypoint **near** when one is within
/// [`COVER_RADIUS`], at most 32 units higher or lower, in a clear line: that measure asks
/// for waypoints closer together than the drop stage places them (up to 320 units apart in
/// an open room), so a room walked end to end is only partly near.
///
/// A mover's top (a plat, a door a button raises into a bridge) is one floor that moves:
/// its cell counts also where a waypoint reaches the top at the compiled graph's other
/// places for the mover over it (whose areas are not counted again), measured on the map as
/// the run left the mover, since a waypoint can know only the place the mover is in (a
/// floor over a pool raised for good by a button).
pub fn nav_coverage_cells(
    mesh: &crate::aas::NavMesh,
    level: &Level,
    cmap: &CollisionMap,
    graph: &WaypointGraph,
    spawns: &[Vec3],
) -> Vec<CellCoverage> {
    use crate::aas::AreaFlags;
    let f = &mesh.frame;
    let mut out = Vec::new();
    let deadly = AreaFlags::LAVA.0 | AreaFlags::SLIME.0;
    let reachable = reachable_areas(mesh, spawns);
    // A door's shut place is floor only while the door is open, and no straight line
    // reaches into the shut door: its cells are measured on a copy of the map with the
    // doors out of the way (a bot that walks up to the door finds the waypoints on either
    // side of it).
    let doors: Vec<&crate::map::level::MoverDef> = level
        .movers
        .iter()
        .filter(|m| {
            matches!(
                m.kind,
                MoverKind::Door { .. } | MoverKind::SecretDoor { .. }
            )
        })
        .collect();
    let mut open = cmap.clone();
    for m in &doors {
        open.set_mover_offset(m.id, DOORS_AWAY);
    }
    let in_doorway = |p: Vec3| {
        doors.iter().any(|m| {
            crate::map::collision::overlaps(p + PLAYER_MINS, p + PLAYER_MAXS, m.mins, m.maxs)
        })
    };
    for (ai, a) in mesh.areas().iter().enumerate() {
        if a.moved.is_some() || a.flags.0 & deadly != 0 {
            continue;
        }
        for iy in a.cell_min[1]..=a.cell_max[1] {
            for ix in a.cell_min[0]..=a.cell_max[0] {
                let xy = f.center(ix, iy);
                let p = if a.is_swim() {
                    xy.extend((a.mins.z + a.maxs.z) * 0.5)
                } else {
                    xy.extend(a.floor_z(xy))
                };
                let map = if in_doorway(p) { &open } else { cmap };
                let elsewhere: Vec<Vec3> = match a.mover {
                    Some(id) if !a.is_swim() => (mesh.areas_in_cell(ix, iy).iter())
                        .map(|&o| &mesh.areas()[o as usize])
                        .filter(|o| {
                            o.mover == Some(id)
                                && o.moved
                                    .is_some_and(|k| mesh.positions[k as usize].mover == id)
                        })
                        .map(|o| xy.extend(o.floor_z(xy)))
                        .collect(),
                    _ => Vec::new(),
                };
                // The places with the map each is measured on.
                let places =
                    || std::iter::once((p, map)).chain(elsewhere.iter().map(|&q| (q, cmap)));
                let near_at = |(p, map): (Vec3, &CollisionMap)| {
                    graph.near(p, COVER_RADIUS).into_iter().any(|(w, _)| {
                        graph.get(w).is_some_and(|w| {
                            (w.origin.z - p.z).abs() <= 32.0
                                && map.trace_ray(p, w.origin, Contents::SOLID, None).fraction >= 1.0
                        })
                    })
                };
                out.push(CellCoverage {
                    area: ai as u32,
                    at: p,
                    reachable: reachable[ai],
                    covered: places().any(|(p, map)| {
                        nearest_reaching(map, graph, p, SEARCH_RADIUS, SEARCH_CANDIDATES).is_some()
                    }),
                    near: places().any(near_at),
                });
            }
        }
    }
    out
}

/// Per area of `mesh`, whether the compiled graph reaches it from one of the `spawns`
/// (every reachability but those through locked doors): what exploring can find at all.
pub fn reachable_areas(mesh: &crate::aas::NavMesh, spawns: &[Vec3]) -> Vec<bool> {
    use crate::aas::mesh::MoverNeed;
    let mut reachable = vec![false; mesh.areas().len()];
    for (_, start) in spawns.iter().filter_map(|p| mesh.area_under(*p)) {
        let from = mesh.reachable_from(start, |r| {
            !r.needs.iter().any(|n| matches!(n, MoverNeed::Key(_)))
        });
        for (r, f) in reachable.iter_mut().zip(from) {
            *r |= f;
        }
    }
    reachable
}

/// The weapons and powerups ([`wants_item_waypoint`]) that the compiled graph does not
/// reach from any of the `spawns` ([`reachable_areas`]; an item counts where a player
/// stands to take it, on the floor the simulation drops it to), by class: no explorer can
/// be asked to mark those (a room only a trigger opens, a ledge only a rocket jump gets to).
pub fn items_beyond_reach(
    mesh: &crate::aas::NavMesh,
    level: &Level,
    cmap: &CollisionMap,
    spawns: &[Vec3],
) -> BTreeMap<String, usize> {
    let reachable = reachable_areas(mesh, spawns);
    let mut out = BTreeMap::new();
    for it in crate::planner::times::items(level, cmap) {
        if !wants_item_waypoint(level, it.index) {
            continue;
        }
        let reached = mesh
            .area_under(it.stand)
            .is_some_and(|(_, a)| reachable[a as usize]);
        if !reached {
            *out.entry(it.class).or_insert(0) += 1;
        }
    }
    out
}

/// Counts a graph's coverage of a level.
pub fn coverage(
    level: &Level,
    cmap: &CollisionMap,
    graph: &WaypointGraph,
    bots: usize,
    seconds: f64,
    seed: u64,
) -> ExploreReport {
    let important: Vec<usize> = (0..level.items.len())
        .filter(|&i| wants_item_waypoint(level, i))
        .collect();
    let mut missing = BTreeMap::new();
    let mut with = 0;
    for &i in &important {
        if graph.item_waypoint(i).is_some() {
            with += 1;
        } else {
            *missing.entry(level.items[i].classname.clone()).or_insert(0) += 1;
        }
    }
    // Elevator waypoints stand on a plat that may be elsewhere right now: only the others are
    // checked against the geometry as it is.
    let in_solid = graph
        .waypoints()
        .iter()
        .filter(|w| {
            !matches!(
                w.kind,
                WaypointKind::ElevatorBottom { .. } | WaypointKind::ElevatorTop { .. }
            )
        })
        .map(|w| {
            cmap.trace(
                w.origin,
                w.origin,
                PLAYER_MINS,
                PLAYER_MAXS,
                Contents::MASK_PLAYER_NO_BODIES,
                None,
            )
        })
        // Inside the fixed geometry: a waypoint in a doorway is inside the door while it is
        // shut, and the door opens for whoever walks up to it.
        .filter(|t| t.start_solid && t.ent.is_none_or(|e| e == EntId::WORLD))
        .count();
    ExploreReport {
        map: level.map.name.clone(),
        bots,
        seconds,
        seed,
        graph: graph.stats(),
        important_items: important.len(),
        items_with_waypoint: with,
        items_missing: missing,
        links_connected: 0,
        waypoints_in_solid: in_solid,
        against_nav: None,
        routable: None,
        items_beyond_nav: None,
    }
}

/// How to explore.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct ExploreConfig {
    /// Number of exploring bots.
    pub bots: usize,
    /// Simulated seconds.
    pub seconds: f64,
    /// Seed.
    pub seed: u64,
    /// Ticks per second.
    pub tick_rate: u32,
    /// Simulated seconds between progress calls.
    pub every: f64,
    /// Close with [`WaypointGraph::connect_strays`] ([`CONNECT_RADIUS`], the
    /// [`CONNECT_NEAREST`] nearest, at most [`CONNECT_ROUNDS`] rounds); the links it adds are
    /// counted in the world's `stats.links_connected`.
    pub connect: bool,
}

/// Radius of the closing pass's search for routable waypoints around a stray one.
pub const CONNECT_RADIUS: f32 = 512.0;

/// Routable waypoints tried per stray one in the closing pass.
pub const CONNECT_NEAREST: usize = 6;

/// Rounds of the closing pass.
pub const CONNECT_ROUNDS: usize = 4;

/// Runs exploring bots on a level, calling `progress` every `cfg.every` simulated seconds
/// with the match so far. Returns the match (its learned graph is the result). With
/// `cfg.connect`, the closing pass compiles the level's area graph (on this thread) to
/// guide its planner where the planner alone finds no way ([`plan_strays`]): the explorers
/// themselves never read it.
pub fn explore(
    level: Arc<Level>,
    cmap: CollisionMap,
    cfg: &ExploreConfig,
    progress: impl FnMut(&Match),
) -> Result<Match, MatchError> {
    explore_with(level, cmap, cfg, None, progress)
}

/// [`explore`] with the level's compiled area graph already made (`mesh`), for the closing
/// pass; `None`: compiled there when the pass runs.
pub fn explore_with(
    level: Arc<Level>,
    cmap: CollisionMap,
    cfg: &ExploreConfig,
    mesh: Option<Arc<crate::aas::NavMesh>>,
    mut progress: impl FnMut(&Match),
) -> Result<Match, MatchError> {
    let ExploreConfig {
        bots,
        seconds,
        seed,
        tick_rate,
        every,
        connect,
    } = *cfg;
    let players = (0..bots)
        .map(|i| PlayerConfig {
            name: format!("explorer{i}"),
            controller: ControllerConfig::Explore,
            spawn: None,
            start: None,
            senses: Default::default(),
            navigation: Default::default(),
        })
        .collect();
    let cfg = MatchConfig {
        seed,
        tick_rate,
        params: Default::default(),
        players,
        rules: Default::default(),
        nav: None,
    };
    let mut m = Match::new(Arc::clone(&level), cmap, &cfg)?;
    let ticks = (seconds * tick_rate as f64).round() as u64;
    let every_ticks = ((every * tick_rate as f64).round() as u64).max(1);
    for t in 0..ticks {
        m.step();
        if (t + 1) % every_ticks == 0 {
            progress(&m);
        }
    }
    if connect {
        let cmap = Arc::clone(&m.sim.cmap);
        let graph = m.learned.waypoints_mut();
        let straight = |g: &mut WaypointGraph| {
            g.connect_strays(&cmap, CONNECT_RADIUS, CONNECT_NEAREST, CONNECT_ROUNDS)
        };
        let mut links = straight(graph);
        let mesh = mesh.or_else(|| {
            let params = crate::aas::CompileParams {
                tick_rate,
                threads: 1,
                ..Default::default()
            };
            let compiled = crate::aas::compile(&level, &cmap, &params, &mut |_, _, _| {});
            compiled.ok().map(Arc::new)
        });
        let planned = close::plan_strays(graph, &level, &cmap, mesh);
        if planned > 0 {
            links += planned + straight(graph);
        }
        m.sim.stats.links_connected = links as u64;
    }
    Ok(m)
}

#[cfg(test)]
mod tests;
