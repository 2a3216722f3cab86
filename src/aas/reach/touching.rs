//! Candidates between touching areas (walk, step up, barrier jump, walk off a ledge, swim,
//! water jump) and the near drops onto a lower floor a cell or two away.

use std::collections::BTreeMap;

use crate::physics::pmove::PlayerState;

use super::ctx::{Ctx, Job};
use super::ctx::{MAX_FALL, MAX_JUMP_UP, MAX_WATER_JUMP_UP, STEP_DROP, same_world};
use super::replay::{Arrival, in_area, run_cmd, simulate};
use crate::aas::mesh::{CmdRun, NavMesh, Reach, ReachKind};

impl Ctx<'_> {
    pub(super) fn touch(
        &self,
        from: u32,
        to: u32,
        places: &[(u32, u32)],
        ticks: &mut u64,
    ) -> Option<Reach> {
        let areas = self.mesh.areas();
        let (fa, ta) = (&areas[from as usize], &areas[to as usize]);
        let mut first_walk: Option<(PlayerState, Vec<CmdRun>)> = None;
        // Out of a liquid onto a floor: a water jump, tried also facing level (the ledge
        // is found ahead at waist depth; swum at steeply, the wall is met above the
        // surface).
        let hop = fa.is_swim() && !ta.is_swim();
        let mut first_hop: Option<(PlayerState, Vec<CmdRun>)> = None;
        for &(c, n) in places {
            let (cxy, nxy) = (self.cell_xy(c), self.cell_xy(n));
            let dir = (nxy - cxy).normalize_or_zero();
            let step = dir * self.mesh.frame.cell;
            // Start up to two cells back from the border, inside the start area.
            let Some(start) = [2.0, 1.0, 0.0]
                .iter()
                .map(|k| cxy - step * *k)
                .filter(|p| self.in_rect(from, *p))
                .find_map(|p| self.start_in(from, p))
            else {
                continue;
            };
            let aim_xy = if self.in_rect(to, nxy + step) {
                nxy + step
            } else {
                nxy
            };
            let aim = self.point_in(to, aim_xy);
            let swim = fa.is_swim() || ta.is_swim();
            let dist = (aim - start.origin).length();
            let n_ticks = self.max_ticks(dist / 320.0 + 2.0);
            for (jump, level) in [(false, false), (true, false), (true, true)] {
                if level && !hop {
                    continue;
                }
                let mut cmd = run_cmd(start.origin, aim, jump, swim);
                if level {
                    cmd.pitch = 0.0;
                }
                let commands = vec![CmdRun {
                    ticks: n_ticks,
                    cmd,
                }];
                if first_walk.is_none() {
                    first_walk = Some((start, commands.clone()));
                }
                if level && first_hop.is_none() {
                    first_hop = Some((start, commands.clone()));
                }
                if let Some((arr, cmds)) = self.run(start, commands, None, Some(to), ticks) {
                    let dz = arr.state.origin.z - start.origin.z;
                    let kind = match (fa.is_swim(), ta.is_swim()) {
                        (false, false) if jump => ReachKind::BarrierJump,
                        (false, false) if dz > 2.0 => ReachKind::StepUp,
                        (false, false) if dz < -STEP_DROP => ReachKind::WalkOffLedge,
                        (false, false) => ReachKind::Walk,
                        (false, true) if ta.maxs.z < start.origin.z - STEP_DROP => {
                            ReachKind::WalkOffLedge
                        }
                        (true, false) if jump => ReachKind::WaterJump,
                        // Out of the bottom of a liquid with air under it.
                        (true, false) if dz < -STEP_DROP => ReachKind::WalkOffLedge,
                        _ => ReachKind::Swim,
                    };
                    return self.make((from, to, kind), &start, &arr, cmds);
                }
            }
        }
        // A water jump over a narrow lip (a pool's rim) carries the player past it, onto the
        // floor beyond: kept as a water jump to the floor it first stands on.
        if hop {
            let (start, commands) = first_hop?;
            return self.lands_beyond((from, ReachKind::WaterJump), start, commands, ticks);
        }
        // A drop whose fall carries the player past the area below (a long fall at running
        // speed lands far out): the walk is kept as a walk off the ledge to the area it
        // comes down in, which it arrives in as any run does.
        let (start, commands) = first_walk?;
        if fa.is_swim() || ta.is_swim() || ta.maxs.z >= start.origin.z - STEP_DROP {
            return None;
        }
        let drop = start.origin.z - STEP_DROP;
        let (landed, arr, cmds) =
            self.to_where_it_lands(from, start, commands, |s, _| s.origin.z < drop, ticks)?;
        let kind = if arr.state.origin.z < drop {
            ReachKind::WalkOffLedge
        } else {
            ReachKind::Walk
        };
        self.make((from, landed, kind), &start, &arr, cmds)
    }

    /// The run's reachability (`kind`) from `from` to the dry floor it first stands on,
    /// timed as every run is.
    fn lands_beyond(
        &self,
        (from, kind): (u32, ReachKind),
        start: PlayerState,
        commands: Vec<CmdRun>,
        ticks: &mut u64,
    ) -> Option<Reach> {
        let dry = |s: &PlayerState, l: u32| {
            s.on_ground.is_some() && !self.mesh.areas()[l as usize].is_swim()
        };
        let (landed, arr, cmds) = self.to_where_it_lands(from, start, commands, dry, ticks)?;
        self.make((from, landed, kind), &start, &arr, cmds)
    }

    /// The area other than `from` the run first comes to be in (as [`in_area`] has it, and
    /// `counts` for that state and area), before any teleporter sends it on; and the run to
    /// it, cut at the first tick in it (as every reachability is timed, and as a replay
    /// sees it).
    fn to_where_it_lands(
        &self,
        from: u32,
        start: PlayerState,
        commands: Vec<CmdRun>,
        counts: impl Fn(&PlayerState, u32) -> bool,
        ticks: &mut u64,
    ) -> Option<(u32, Arrival, Vec<CmdRun>)> {
        let arr = simulate(
            (self.world, self.cmap()),
            start,
            &commands,
            None,
            self.dt,
            |s, sent| {
                sent.is_none()
                    && self.mesh.area_at(s.origin).is_some_and(|l| {
                        l != from && self.here(l) && in_area(self.mesh, s, l) && counts(s, l)
                    })
            },
            ticks,
        )?;
        let landed = self.mesh.area_at(arr.state.origin)?;
        let (arr, cmds) = self.run(start, commands, None, Some(landed), ticks)?;
        Some((landed, arr, cmds))
    }
}

/// The (x, y) neighbours of a cell: 4 sides.
pub(super) const SIDES: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];

/// The cells round a cell that are not beside it: its diagonals and the ring two cells out.
pub(super) const NEAR_RING: [(i32, i32); 20] = [
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
    (2, -2),
    (2, -1),
    (2, 0),
    (2, 1),
    (2, 2),
    (-2, -2),
    (-2, -1),
    (-2, 0),
    (-2, 1),
    (-2, 2),
    (-1, 2),
    (0, 2),
    (1, 2),
    (-1, -2),
    (0, -2),
    (1, -2),
];

/// Eight directions for gaps.
pub(super) const EIGHT: [(i32, i32); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
];

pub(super) fn offset_cell(mesh: &NavMesh, c: u32, (dx, dy): (i32, i32), k: i32) -> Option<u32> {
    let f = &mesh.frame;
    let (x, y) = ((c % f.nx) as i32 + dx * k, (c / f.nx) as i32 + dy * k);
    (x >= 0 && y >= 0 && (x as u32) < f.nx && (y as u32) < f.ny).then(|| y as u32 * f.nx + x as u32)
}

/// Heights of area `a` at cell `c`: (lowest, highest) origin there.
pub(super) fn heights(mesh: &NavMesh, a: u32, c: u32) -> (f32, f32) {
    let area = &mesh.areas()[a as usize];
    if area.is_swim() {
        (area.mins.z, area.maxs.z)
    } else {
        let f = &mesh.frame;
        let z = area.floor_z(f.center(c % f.nx, c / f.nx));
        (z, z)
    }
}

/// Each border cell of area `a` with its neighbour one cell along each of `dirs` that lies
/// outside the area (and inside the grid): (cell, direction, neighbour), in cell order.
pub(super) fn border_steps(
    mesh: &NavMesh,
    a: &crate::aas::mesh::Area,
    dirs: &[(i32, i32)],
) -> Vec<(u32, (i32, i32), u32)> {
    let f = &mesh.frame;
    let (x0, y0, x1, y1) = (a.cell_min[0], a.cell_min[1], a.cell_max[0], a.cell_max[1]);
    let mut out = Vec::new();
    for y in y0..=y1 {
        for x in x0..=x1 {
            if x != x0 && x != x1 && y != y0 && y != y1 {
                continue;
            }
            let c = y * f.nx + x;
            for &dir in dirs {
                let Some(n) = offset_cell(mesh, c, dir, 1) else {
                    continue;
                };
                let (nx, ny) = (n % f.nx, n / f.nx);
                if !((x0..=x1).contains(&nx) && (y0..=y1).contains(&ny)) {
                    out.push((c, dir, n));
                }
            }
        }
    }
    out
}

/// Candidates between touching areas, by (from, to): up to three border places, the middle
/// one first.
pub(super) fn touching(mesh: &NavMesh) -> Vec<Job> {
    let f = &mesh.frame;
    let mut pairs: BTreeMap<(u32, u32), Vec<(u32, u32)>> = BTreeMap::new();
    for a in mesh.areas() {
        for (c, _, n) in border_steps(mesh, a, &SIDES) {
            let (alo, ahi) = heights(mesh, a.id, c);
            for &b in mesh.areas_in_cell(n % f.nx, n / f.nx) {
                let (blo, bhi) = heights(mesh, b, n);
                // Up no more than a jump (out of a liquid: a water jump), down no more than
                // the longest fall.
                let up = if a.is_swim() && !mesh.areas()[b as usize].is_swim() {
                    MAX_WATER_JUMP_UP
                } else {
                    MAX_JUMP_UP
                };
                if blo > ahi + up || bhi < alo - MAX_FALL || !same_world(mesh, a.id, b) {
                    continue;
                }
                pairs.entry((a.id, b)).or_default().push((c, n));
            }
        }
    }
    // Out of the bottom of a liquid with air under it (see `build::floating_liquid`): to
    // the floor under its middle cell, the nearest below.
    for a in mesh.areas().iter().filter(|a| a.is_swim()) {
        let (x, y) = (
            (a.cell_min[0] + a.cell_max[0]) / 2,
            (a.cell_min[1] + a.cell_max[1]) / 2,
        );
        let c = y * f.nx + x;
        let below = mesh
            .areas_in_cell(x, y)
            .iter()
            .copied()
            .filter(|&b| {
                let area = &mesh.areas()[b as usize];
                !area.is_swim()
                    && area.maxs.z < a.mins.z
                    && area.maxs.z >= a.mins.z - MAX_FALL
                    && same_world(mesh, a.id, b)
            })
            .max_by(|&p, &q| {
                let z = |b: u32| heights(mesh, b, c).1;
                z(p).total_cmp(&z(q)).then(q.cmp(&p))
            });
        if let Some(b) = below {
            pairs.entry((a.id, b)).or_default().push((c, c));
        }
    }
    pairs
        .into_iter()
        .map(|((from, to), v)| {
            let mut places = vec![v[v.len() / 2]];
            for p in [v[0], v[v.len() - 1]] {
                if !places.contains(&p) {
                    places.push(p);
                }
            }
            Job::Touch { from, to, places }
        })
        .collect()
}

/// Walks off ledges onto floors near them but not beside them (a strip along a wall a
/// diagonal or two cells away, which no grid direction from the ledge leads onto, as from a
/// raised plat's corner), for the (from, to) pairs `adjacent` (those [`touching`] tries)
/// lacks: one job per pair, aimed from the ledge's border cell nearest the floor below
/// first at that floor further on along the same line (the walk clears a wall beside the
/// ledge before it drifts over the strip; Quake's air control cannot bring back sideways
/// speed a wall took), then at its nearest cell. A stage of their own, after the walks and
/// jumps (a pair one joins must not keep a running jump across a gap from being tried),
/// landed as walks off ledges are and kept only where nothing else leads there about as
/// quickly ([`new_ways`]).
pub(super) fn near_drops(
    mesh: &NavMesh,
    adjacent: &std::collections::BTreeSet<(u32, u32)>,
) -> Vec<Job> {
    let f = &mesh.frame;
    // (from, to) -> (squared cells away, ledge cell, cell below)
    let mut near: BTreeMap<(u32, u32), (i32, u32, u32)> = BTreeMap::new();
    for a in mesh.areas().iter().filter(|a| !a.is_swim()) {
        // Each border cell once (a corner cell borders outward two ways).
        let mut cells: Vec<u32> = border_steps(mesh, a, &SIDES)
            .into_iter()
            .map(|(c, _, _)| c)
            .collect();
        cells.dedup();
        for c in cells {
            let (alo, _) = heights(mesh, a.id, c);
            for &(dx, dy) in &NEAR_RING {
                let Some(n) = offset_cell(mesh, c, (dx, dy), 1) else {
                    continue;
                };
                for &b in mesh.areas_in_cell(n % f.nx, n / f.nx) {
                    let area = &mesh.areas()[b as usize];
                    if b == a.id || area.is_swim() || adjacent.contains(&(a.id, b)) {
                        continue;
                    }
                    let (_, bhi) = heights(mesh, b, n);
                    if bhi >= alo - STEP_DROP || bhi < alo - MAX_FALL || !same_world(mesh, a.id, b)
                    {
                        continue;
                    }
                    let d2 = dx * dx + dy * dy;
                    let e = near.entry((a.id, b)).or_insert((d2, c, n));
                    if d2 < e.0 {
                        *e = (d2, c, n);
                    }
                }
            }
        }
    }
    near.into_iter()
        .map(|((from, to), (_, c, n))| {
            let (cx, cy) = ((c % f.nx) as i32, (c / f.nx) as i32);
            let (nx, ny) = ((n % f.nx) as i32, (n / f.nx) as i32);
            let area = &mesh.areas()[to as usize];
            let within = |v: i32, lo: u32, hi: u32| v.clamp(lo as i32, hi as i32) as u32;
            let far = within(cy + 4 * (ny - cy), area.cell_min[1], area.cell_max[1]) * f.nx
                + within(cx + 4 * (nx - cx), area.cell_min[0], area.cell_max[0]);
            let mut places = vec![(c, far)];
            if far != n {
                places.push((c, n));
            }
            Job::Touch { from, to, places }
        })
        .collect()
}

/// How much quicker than every other way a near drop must be to be kept, seconds.
pub(super) const NEAR_DROP_SAVING: f32 = 3.0;

/// Of `extra`, those that lead where `mesh`'s reachabilities do not, or only much more
/// slowly ([`NEAR_DROP_SAVING`]): the route time from a near drop's start to its end area's
/// centre without it, against its own time and the walk on to that centre. The compile
/// keeps only such near drops: where the rest of the graph leads there about as quickly,
/// the way it knows is the one bots follow well (with every near drop kept, routes took
/// shortcuts across rooms that bots followed less closely). Reachability alone is not
/// enough: the only other way onto a ledge may be round by a shot door, a teleporter and a
/// long fall.
pub(crate) fn new_ways(mesh: &NavMesh, extra: Vec<Reach>) -> Vec<Reach> {
    let mut caches: BTreeMap<u32, crate::aas::route::AreaCache> = BTreeMap::new();
    extra
        .into_iter()
        .filter(|r| {
            let cache = caches.entry(r.to).or_insert_with(|| {
                crate::aas::route::build_cache(mesh, r.to, crate::aas::route::Travel::ALL)
            });
            let centre = mesh.areas()[r.to as usize].center;
            let own = r.seconds + crate::aas::route::cross(mesh, r.to, r.end, centre);
            let other = crate::aas::route::seconds_from(mesh, cache, r.start)
                .map_or(f32::INFINITY, |t| t.0);
            other > own + NEAR_DROP_SAVING
        })
        .collect()
}
