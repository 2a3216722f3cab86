//! Areas from the map: a heightfield of the hull-expanded world, swept column by column
//! through the collision module, merged into convex rectangles of cells; then the
//! reachabilities ([`super::reach`]). Entry point: [`compile`].
//!
//! Each column of the grid (cell centres) is swept from the top of the map down with the
//! player's box: where the box comes to rest on a surface a player can stand on (normal
//! z ≥ 0.7), that origin is a floor span (only inside the map: something solid or sky must
//! be above it); the sweep goes on under that floor. A floor where the player would be waist
//! deep in liquid becomes a swim span instead, from the bottom up to the liquid's surface;
//! a liquid the sweep falls through with air under it is a swim span of its own.
//! Spans with the same plane (to 1/1000 in the normal, 1/4 unit in distance) and the same
//! flags are one surface; each surface is cut greedily into rectangles of cells (rows grown
//! in x, then in y), which are the areas.

use std::collections::{HashMap, HashSet};

use glam::{Vec2, Vec3};

use crate::map::{CollisionMap, Contents, EntId, Level};
use crate::physics::pmove::{PLAYER_MAXS, PLAYER_MINS, STEP_SIZE, water_level};

use super::mesh::{Area, AreaFlags, CompileParams, CompileStats, Frame, NavMesh};
use super::world::{NavWorld, par_map, threads_for};

/// Why a map does not compile.
#[derive(Debug, thiserror::Error)]
pub enum CompileError {
    /// No brush survived loading (every one degenerate, or none at all).
    #[error("{map}: no usable brushes (the map has no geometry to stand on)")]
    NoGeometry {
        /// Map name.
        map: String,
    },
    /// Brushes, but nowhere a player can stand inside the map.
    #[error("{map}: no floor a player can stand on inside the map")]
    NoFloor {
        /// Map name.
        map: String,
    },
    /// Parameters out of range.
    #[error("{0}")]
    Params(String),
}

/// What the sweep found at one cell.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Span {
    cell: u32,
    /// The standing origin (swim spans: at the bottom).
    origin: Vec3,
    /// Swim spans: the surface (highest origin still in liquid).
    top: f32,
    normal: Vec3,
    key: Key,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Key {
    swim: bool,
    normal: [i32; 3],
    dist: i32,
    flags: u16,
    mover: u32,
    trigger: u32,
    /// The mover at its other end for this span to be there (`NONE`: as navigation
    /// assumes the movers).
    moved: u32,
    /// The door whose shut place the span is in (`NONE`: none): a doorway is an area of
    /// its own, so that the reachabilities into it record the door (an area spanning it
    /// would let a route cross a shut door inside one area, where no reachability is).
    door: u32,
}

const NONE: u32 = u32::MAX;

const MASK: Contents = Contents::MASK_PLAYER_NO_BODIES;

/// Sweeps the column at (x, y) from `top` down to `bottom` in `cmap` (the world as
/// navigation assumes it, or with mover `moved` at its other end).
fn column(
    world: &NavWorld,
    (cmap, moved): (&CollisionMap, u32),
    (cell, xy): (u32, Vec2),
    top: f32,
    bottom: f32,
    out: &mut Vec<Span>,
) {
    let mut z = top;
    while z > bottom {
        let start = xy.extend(z);
        let t = cmap.trace(
            start,
            xy.extend(bottom),
            PLAYER_MINS,
            PLAYER_MAXS,
            MASK,
            None,
        );
        if t.start_solid {
            // Out of the solid and onto a floor: a room whose height barely fits the box
            // is shorter than the 16-unit steps, so take the floor when the box fits on it.
            let fits = || {
                !cmap
                    .trace(t.end_pos, t.end_pos, PLAYER_MINS, PLAYER_MAXS, MASK, None)
                    .start_solid
            };
            if t.all_solid || t.fraction >= 1.0 || !fits() {
                z -= 16.0;
                // Deep in a solid: the steps with solid all the 16 units under them are
                // passed over. Their sweeps would start stuck, and what they hit either
                // lies in that solid (no room for the box) or lower, where the sweep from
                // the next step below finds it too.
                if let Some(solid) = cmap.solid_below(start, PLAYER_MINS, PLAYER_MAXS, MASK) {
                    while z - 16.0 >= solid {
                        z -= 16.0;
                    }
                }
                continue;
            }
        }
        if t.fraction >= 1.0 {
            break;
        }
        let o = t.end_pos;
        if let Some(span) = floating_liquid(cmap, (cell, xy), start.z, o, moved) {
            out.push(span);
        }
        // Next: under this floor (the box's full height below it).
        z = o.z + PLAYER_MINS.z - PLAYER_MAXS.z - 1.0;
        if t.normal.z < 0.7 {
            continue;
        }
        // Inside the map there is a ceiling or sky above; on the roof only the void.
        let up = cmap.trace_ray(o, xy.extend(top + 256.0), Contents::SOLID, None);
        if up.fraction >= 1.0 {
            continue;
        }
        let (level, liquid) = water_level(cmap, o);
        let liquid_flag = liquid_flag(liquid);
        if level >= 2 {
            // Swim span: up to where the origin leaves the liquid (or the ceiling).
            let ceiling = cmap
                .trace(
                    o,
                    o + Vec3::new(0.0, 0.0, 4096.0),
                    PLAYER_MINS,
                    PLAYER_MAXS,
                    MASK,
                    None,
                )
                .end_pos
                .z;
            let down = cmap.trace_ray(xy.extend(ceiling), o, Contents::LIQUID, None);
            let surface = if down.start_solid {
                ceiling
            } else if down.fraction < 1.0 {
                down.end_pos.z
            } else {
                o.z
            };
            let flags = AreaFlags::SWIM | liquid_flag;
            out.push(Span {
                cell,
                origin: o,
                top: surface,
                normal: Vec3::Z,
                key: Key {
                    swim: true,
                    normal: [0, 0, 0],
                    dist: (surface * 4.0).round() as i32,
                    flags: flags.0,
                    mover: NONE,
                    trigger: NONE,
                    moved,
                    door: world.doorway_at(o).unwrap_or(NONE),
                },
            });
            continue;
        }
        let mut flags = AreaFlags::GROUNDED | liquid_flag;
        let under = cmap.trace_ray(
            o,
            o + Vec3::new(0.0, 0.0, PLAYER_MINS.z - STEP_SIZE - 1.0),
            MASK,
            None,
        );
        if under.fraction >= 1.0 {
            flags |= AreaFlags::LEDGE;
        }
        let mut mover = NONE;
        if let Some(e) = t.ent
            && e != EntId::WORLD
        {
            flags |= AreaFlags::MOVER;
            mover = e.0;
        }
        if t.contents.intersects(Contents::PLAYER_CLIP) {
            flags |= AreaFlags::CLIP;
        }
        let mut trigger = NONE;
        if let Some(tp) = world.teleporter_at(o) {
            flags |= AreaFlags::TELEPORTER;
            trigger = tp.trigger;
        }
        let n = t.normal;
        out.push(Span {
            cell,
            origin: o,
            top: o.z,
            normal: n,
            key: Key {
                swim: false,
                normal: [
                    (n.x * 1000.0).round() as i32,
                    (n.y * 1000.0).round() as i32,
                    (n.z * 1000.0).round() as i32,
                ],
                dist: (n.dot(o) * 4.0).round() as i32,
                flags: flags.0,
                mover,
                trigger,
                moved,
                door: world.doorway_at(o).unwrap_or(NONE),
            },
        });
    }
}

/// The area flag of a liquid (`point_contents`' liquid bits; none for no liquid).
fn liquid_flag(liquid: Contents) -> AreaFlags {
    match liquid {
        Contents::LAVA => AreaFlags::LAVA,
        Contents::SLIME => AreaFlags::SLIME,
        Contents::WATER => AreaFlags::WATER,
        _ => AreaFlags::default(),
    }
}

/// A liquid the sweep fell through on its way from `from_z` down to the floor origin `o`
/// whose bottom is open (air under it, as under a pool hung over a hall): a swim span from
/// where a swimmer is waist deep at its bottom up to its surface. A liquid that reaches
/// down to the floor is the floor's own swim span instead.
fn floating_liquid(
    cmap: &CollisionMap,
    (cell, xy): (u32, Vec2),
    from_z: f32,
    o: Vec3,
    moved: u32,
) -> Option<Span> {
    // The waist of a player's box: where a swimmer's liquid is measured (`water_level`).
    let waist = (PLAYER_MINS.z + PLAYER_MAXS.z) * 0.5;
    if water_level(cmap, o).0 >= 2 {
        return None;
    }
    let down = cmap.trace_ray(xy.extend(from_z), o, Contents::LIQUID, None);
    if down.fraction >= 1.0 && !down.start_solid {
        return None;
    }
    let surface = if down.start_solid {
        from_z
    } else {
        down.end_pos.z
    };
    let up = cmap.trace_ray(
        o + Vec3::Z * waist,
        xy.extend(surface),
        Contents::LIQUID,
        None,
    );
    if up.start_solid || up.fraction >= 1.0 {
        return None;
    }
    // Origins from waist deep at the bottom up to the surface (as floors' swim spans).
    let low = up.end_pos.z - waist + 1.0;
    let top = surface;
    if surface - waist - low < 8.0 {
        return None;
    }
    // Only where the box fits in it and it is inside the map (something above).
    let mid = xy.extend((low + surface - waist) * 0.5);
    if cmap
        .trace(mid, mid, PLAYER_MINS, PLAYER_MAXS, MASK, None)
        .start_solid
        || cmap
            .trace_ray(mid, mid + Vec3::Z * 8192.0, Contents::SOLID, None)
            .fraction
            >= 1.0
    {
        return None;
    }
    let liquid = cmap.point_contents(mid + Vec3::Z * waist).liquid();
    // A liquid is there: water unless it is slime or lava.
    let flags = match liquid_flag(liquid) {
        AreaFlags(0) => AreaFlags::SWIM | AreaFlags::WATER,
        f => AreaFlags::SWIM | f,
    };
    Some(Span {
        cell,
        origin: xy.extend(low),
        top,
        normal: Vec3::Z,
        key: Key {
            swim: true,
            normal: [0, 0, 0],
            dist: (top * 4.0).round() as i32,
            flags: flags.0,
            mover: NONE,
            trigger: NONE,
            moved,
            door: NONE,
        },
    })
}

/// Compiles `level` (whose collision world is `cmap`): areas, lookup and physics-verified
/// reachabilities. `progress(stage, done, total)` hears about the long stages.
pub fn compile(
    level: &Level,
    cmap: &CollisionMap,
    params: &CompileParams,
    progress: &mut dyn FnMut(&str, u64, u64),
) -> Result<NavMesh, CompileError> {
    let clock = std::time::Instant::now();
    let name = level.map.name.clone();
    if !(4.0..=32.0).contains(&params.cell) {
        return Err(CompileError::Params(format!(
            "cell {}: must be 4..=32 units",
            params.cell
        )));
    }
    if !(10..=1000).contains(&params.tick_rate) {
        return Err(CompileError::Params(format!(
            "tick rate {}: must be 10..=1000",
            params.tick_rate
        )));
    }
    let (lo, hi) = cmap.bounds();
    if cmap.brushes().is_empty() || !lo.is_finite() || !hi.is_finite() {
        return Err(CompileError::NoGeometry { map: name });
    }
    let world = NavWorld::new(level, cmap);
    let threads = threads_for(params.threads);
    let cell = params.cell;
    let origin = (lo.truncate() + PLAYER_MINS.truncate()) - Vec2::splat(cell);
    let ext = hi.truncate() + PLAYER_MAXS.truncate() + Vec2::splat(cell) - origin;
    let frame = Frame {
        origin,
        cell,
        nx: (ext.x / cell).ceil().max(1.0) as u32,
        ny: (ext.y / cell).ceil().max(1.0) as u32,
    };
    let (top, bottom) = (hi.z - PLAYER_MAXS.z - 1.0, lo.z);
    let rows: Vec<u32> = (0..frame.ny).collect();
    let total = rows.len() as u64;
    let per_row: Vec<Vec<Span>> = par_map(
        &rows,
        threads,
        |&iy| {
            let mut out = Vec::new();
            for ix in 0..frame.nx {
                column(
                    &world,
                    (&world.cmap, NONE),
                    (iy * frame.nx + ix, frame.center(ix, iy)),
                    top,
                    bottom,
                    &mut out,
                );
            }
            out
        },
        |done| progress("floors", done as u64, total),
    );
    let mut spans: Vec<Span> = per_row.into_iter().flatten().collect();
    // Floors only inside the sealed world: not on the hull's outside, nor in closed pockets
    // no entity is in (qbsp fills both).
    if let Some(flood) = crate::map::seal::Flood::of(level) {
        spans.retain(|s| flood.inside(s.origin));
    }
    if !spans.iter().any(|s| !s.key.swim) {
        return Err(CompileError::NoFloor { map: name });
    }
    spans.extend(moved_spans(&world, &frame, &spans, (top, bottom)));
    let areas = merge(&frame, &spans);
    let mut stats = CompileStats {
        columns: frame.nx as u64 * frame.ny as u64,
        spans: spans.len() as u64,
        ..Default::default()
    };
    let geometry_hash = crate::nav::waypoint_file::geometry_hash(level);
    let mut mesh = NavMesh::new(
        name,
        geometry_hash,
        *params,
        frame,
        areas,
        Vec::new(),
        CompileStats::default(),
    );
    mesh.positions = world.positions();
    let (reaches, near) = super::reach::build(&world, &mesh, threads, &mut stats, progress);
    mesh.set_reaches(reaches);
    let reaches = super::reach::landings(&world, &mesh, mesh.reaches(), threads, &mut stats);
    mesh.set_reaches(reaches);
    // The near drops, landed as the rest were, where nothing else leads about as quickly.
    let near = super::reach::landings(&world, &mesh, &near, threads, &mut stats);
    let tried = near.len();
    let near = super::reach::new_ways(&mesh, near);
    let mut reaches = mesh.reaches().to_vec();
    stats.dropped += (tried - near.len()) as u64;
    reaches.extend(near);
    mesh.set_reaches(reaches);
    stats.seconds = clock.elapsed().as_secs_f64();
    mesh.stats = stats;
    Ok(mesh)
}

/// The spans that are there only with a mover at its other end: each plat, door and secret
/// door's footprint (both ends, grown by the player box and a cell) swept again in the world
/// with it moved, keeping the spans the first sweep did not find (a floor not within a unit
/// of one found there, a swim span where none overlaps its depth).
fn moved_spans(
    world: &NavWorld,
    frame: &Frame,
    base: &[Span],
    (top, bottom): (f32, f32),
) -> Vec<Span> {
    let mut by_cell: HashMap<u32, Vec<usize>> = HashMap::new();
    for (i, s) in base.iter().enumerate() {
        by_cell.entry(s.cell).or_default().push(i);
    }
    let mut out = Vec::new();
    let clamp = |v: Vec2| {
        let c = ((v - frame.origin) / frame.cell).floor();
        (
            (c.x.max(0.0) as u32).min(frame.nx - 1),
            (c.y.max(0.0) as u32).min(frame.ny - 1),
        )
    };
    for (position, m) in world.moved.iter().enumerate() {
        // The footprints where it was and where it is (a train's stops lie far apart).
        let grow = PLAYER_MAXS.truncate() + Vec2::splat(frame.cell);
        let mut cells = std::collections::BTreeSet::new();
        for &g in &m.group {
            let def = &world.level.movers[g];
            let here = world.cmap.mover_offset(def.id).unwrap_or_default();
            let there = m.cmap.mover_offset(def.id).unwrap_or_default();
            for off in [here, there] {
                let (x0, y0) = clamp(def.mins.truncate() + off.truncate() - grow);
                let (x1, y1) = clamp(def.maxs.truncate() + off.truncate() + grow);
                for iy in y0..=y1 {
                    cells.extend((x0..=x1).map(|ix| iy * frame.nx + ix));
                }
            }
        }
        let mut found = Vec::new();
        for cell in cells {
            let (ix, iy) = (cell % frame.nx, cell / frame.nx);
            found.clear();
            column(
                world,
                (&m.cmap, position as u32),
                (cell, frame.center(ix, iy)),
                top,
                bottom,
                &mut found,
            );
            let known = by_cell.get(&cell).map_or(&[][..], |v| &v[..]);
            out.extend(found.iter().filter(|s| {
                !known.iter().any(|&k| {
                    let b = &base[k];
                    // A swim span is the same liquid when their depths overlap (a
                    // mover moved off the bottom deepens it, one moved over it caps it).
                    b.key.swim == s.key.swim
                        && if s.key.swim {
                            b.origin.z <= s.top + 1.0 && s.origin.z <= b.top + 1.0
                        } else {
                            (b.origin.z - s.origin.z).abs() <= 1.0
                        }
                })
            }));
        }
    }
    out
}

/// Cuts each surface into rectangles of cells: the areas, in the order their first cell was
/// swept.
fn merge(frame: &Frame, spans: &[Span]) -> Vec<Area> {
    // Surfaces in order of first appearance; each surface's cells in sweep (row-major) order.
    let mut surface_of: HashMap<Key, usize> = HashMap::new();
    let mut surfaces: Vec<Vec<usize>> = Vec::new();
    for (i, s) in spans.iter().enumerate() {
        let k = *surface_of.entry(s.key).or_insert_with(|| {
            surfaces.push(Vec::new());
            surfaces.len() - 1
        });
        surfaces[k].push(i);
    }
    let mut areas = Vec::new();
    for members in &surfaces {
        let at: HashMap<u32, usize> = members.iter().map(|&i| (spans[i].cell, i)).collect();
        let mut used: HashSet<u32> = HashSet::with_capacity(members.len());
        let free = |c: u32, used: &HashSet<u32>| at.contains_key(&c) && !used.contains(&c);
        for &i in members {
            let c0 = spans[i].cell;
            if used.contains(&c0) {
                continue;
            }
            let (ix, iy) = (c0 % frame.nx, c0 / frame.nx);
            let mut ix1 = ix;
            while ix1 + 1 < frame.nx && free(iy * frame.nx + ix1 + 1, &used) {
                ix1 += 1;
            }
            let mut iy1 = iy;
            while iy1 + 1 < frame.ny && (ix..=ix1).all(|x| free((iy1 + 1) * frame.nx + x, &used)) {
                iy1 += 1;
            }
            let mut zmin = f32::INFINITY;
            let mut zmax = f32::NEG_INFINITY;
            let mid = frame.center(ix, iy).lerp(frame.center(ix1, iy1), 0.5);
            let mut center = spans[i].origin;
            let mut best = f32::INFINITY;
            for y in iy..=iy1 {
                for x in ix..=ix1 {
                    let c = y * frame.nx + x;
                    used.insert(c);
                    let s = &spans[at[&c]];
                    zmin = zmin.min(s.origin.z);
                    zmax = zmax.max(s.top);
                    let d = (s.origin.truncate() - mid).length_squared();
                    if d < best {
                        best = d;
                        center = s.origin;
                    }
                }
            }
            let s = &spans[i];
            let flags = AreaFlags(s.key.flags);
            let plane = (!s.key.swim).then(|| (s.normal, s.normal.dot(s.origin)));
            let lo = frame.origin + Vec2::new(ix as f32, iy as f32) * frame.cell;
            let hi = frame.origin + Vec2::new((ix1 + 1) as f32, (iy1 + 1) as f32) * frame.cell;
            if s.key.swim {
                // A swimmer floats at mid depth.
                center.z = (center.z + zmax) * 0.5;
            }
            areas.push(Area {
                id: areas.len() as u32,
                flags,
                cell_min: [ix, iy],
                cell_max: [ix1, iy1],
                mins: lo.extend(zmin),
                maxs: hi.extend(zmax),
                plane,
                center,
                mover: (s.key.mover != NONE).then_some(s.key.mover),
                trigger: (s.key.trigger != NONE).then_some(s.key.trigger),
                moved: (s.key.moved != NONE).then_some(s.key.moved),
            });
        }
    }
    areas
}
