//! Trace rates and navigation compile times: how fast the collision world answers the
//! queries the bots ask, and how long each map's area graph takes to compile.

use std::path::Path;
use std::time::Instant;

use glam::Vec3;
use serde::Serialize;

use crate::map::{Contents, MapData, build_level};
use crate::nav::sample::floor_points;
use crate::physics::pmove::{PLAYER_MAXS, PLAYER_MINS};

/// Trace throughput: rays and player-box sweeps between random floor points (seeded), per
/// second, with this crate's collision module (`trace`; `line_clear`, the sight question),
/// and the same rays and sweeps with parry3d's own queries over a triangle mesh of the same
/// brushes (its BVH; `cast_local_ray`, `intersects_local_ray`, `cast_shapes` of the player
/// box), so that the faster structure is known.
pub fn trace_rates(map: &Path, n: usize) -> Result<TraceRate, String> {
    let data = MapData::load(map).map_err(|e| e.to_string())?;
    let (level, cmap) = build_level(data);
    let pts = floor_points(&level, &cmap, 96.0);
    if pts.len() < 2 {
        return Err("too few floor points".into());
    }
    let mut rng = crate::sim::rng::SimRng::new(7, 0);
    let pairs: Vec<(Vec3, Vec3)> = (0..n)
        .map(|_| {
            let a = pts[rng.below(pts.len())];
            let b = pts[rng.below(pts.len())];
            // Realistic lengths: up to 512 units toward the other point.
            let d = (b - a).clamp_length_max(512.0);
            (a, a + d)
        })
        .collect();
    // A tick's step of a running player (320 u/s at 20 Hz): most sweeps in a match.
    let steps: Vec<(Vec3, Vec3)> = pairs
        .iter()
        .map(|(a, b)| (*a, *a + (*b - *a).clamp_length_max(16.0)))
        .collect();
    let rate_on = |segs: &[(Vec3, Vec3)], f: &mut dyn FnMut(Vec3, Vec3) -> bool| {
        let t0 = Instant::now();
        let hits = segs.iter().filter(|(a, b)| f(*a, *b)).count();
        std::hint::black_box(hits);
        segs.len() as f64 / t0.elapsed().as_secs_f64()
    };
    let rate = |f: &mut dyn FnMut(Vec3, Vec3) -> bool| rate_on(&pairs, f);
    let rays_per_second =
        rate(&mut |a, b| cmap.trace_ray(a, b, Contents::MASK_SIGHT, None).fraction < 1.0);
    let sight_per_second = rate(&mut |a, b| cmap.line_clear(a, b, Contents::MASK_SIGHT));
    let mut sweep = |a: Vec3, b: Vec3| {
        cmap.trace(a, b, PLAYER_MINS, PLAYER_MAXS, Contents::MASK_PLAYER, None)
            .fraction
            < 1.0
    };
    let sweeps_per_second = rate(&mut sweep);
    let step_sweeps_per_second = rate_on(&steps, &mut sweep);
    // Rays see through clip brushes (MASK_SIGHT), players do not (MASK_PLAYER): a mesh each.
    let meshes = (
        brush_mesh(&level, Contents::MASK_SIGHT),
        brush_mesh(&level, Contents::MASK_PLAYER),
    );
    let (parry_rays, parry_sight, parry_sweeps, parry_steps) = match meshes {
        (Some(mesh), Some(solid)) => {
            use parry3d::query::{Ray, RayCast, ShapeCastOptions, cast_shapes};
            use parry3d::shape::Cuboid;
            let r = rate(&mut |a, b| {
                mesh.cast_local_ray(&Ray::new(a, b - a), 1.0, true)
                    .is_some()
            });
            let s = rate(&mut |a, b| !mesh.intersects_local_ray(&Ray::new(a, b - a), 1.0));
            let half = (PLAYER_MAXS - PLAYER_MINS) * 0.5;
            let centre = (PLAYER_MAXS + PLAYER_MINS) * 0.5;
            let player = Cuboid::new(half);
            let still = parry3d::math::Pose::IDENTITY;
            let mut cast = |a: Vec3, b: Vec3| {
                let at = parry3d::math::Pose::from_translation(a + centre);
                matches!(
                    cast_shapes(
                        &at,
                        b - a,
                        &player,
                        &still,
                        Vec3::ZERO,
                        &solid,
                        ShapeCastOptions::with_max_time_of_impact(1.0)
                    ),
                    Ok(Some(_))
                )
            };
            let w = rate(&mut cast);
            let st = rate_on(&steps, &mut cast);
            (Some(r), Some(s), Some(w), Some(st))
        }
        _ => (None, None, None, None),
    };
    Ok(TraceRate {
        map: String::new(),
        rays_per_second,
        sweeps_per_second,
        sight_per_second,
        parry_rays_per_second: parry_rays,
        parry_sight_per_second: parry_sight,
        parry_sweeps_per_second: parry_sweeps,
        step_sweeps_per_second,
        parry_step_sweeps_per_second: parry_steps,
    })
}

/// The map's static brushes whose contents meet `mask` as one parry3d triangle mesh (each
/// face a fan of triangles), or `None` when there are none.
pub(super) fn brush_mesh(
    level: &crate::map::Level,
    mask: Contents,
) -> Option<parry3d::shape::TriMesh> {
    let mut vertices: Vec<Vec3> = Vec::new();
    let mut indices: Vec<[u32; 3]> = Vec::new();
    for b in level
        .static_brushes
        .iter()
        .filter(|b| b.contents.intersects(mask))
    {
        for p in &b.planes {
            // The face: the brush's corners on this plane, in order around it.
            let mut face: Vec<Vec3> = b
                .vertices
                .iter()
                .copied()
                .filter(|v| (p.normal.dot(*v) - p.dist).abs() < 0.05)
                .collect();
            if face.len() < 3 {
                continue;
            }
            let c = face.iter().copied().sum::<Vec3>() / face.len() as f32;
            let u = (face[0] - c).normalize_or_zero();
            let v = p.normal.cross(u);
            face.sort_by(|x, y| {
                let ax = (*x - c).dot(v).atan2((*x - c).dot(u));
                let ay = (*y - c).dot(v).atan2((*y - c).dot(u));
                ax.total_cmp(&ay)
            });
            let base = vertices.len() as u32;
            vertices.extend(face.iter().copied());
            for k in 1..face.len() as u32 - 1 {
                indices.push([base, base + k, base + k + 1]);
            }
        }
    }
    if indices.is_empty() {
        return None;
    }
    parry3d::shape::TriMesh::new(vertices, indices).ok()
}

/// Trace throughput on one map: this crate's collision module, and parry3d's queries on the
/// same rays and sweeps ([`trace_rates`]).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct TraceRate {
    /// Map name.
    pub map: String,
    /// Rays per second (`trace` with a zero box: the first hit, its normal and contents).
    pub rays_per_second: f64,
    /// Player-box sweeps per second.
    pub sweeps_per_second: f64,
    /// Sight questions per second (`line_clear`: is anything in the way).
    pub sight_per_second: f64,
    /// parry3d's first-hit ray casts per second on a triangle mesh of the solid brushes.
    pub parry_rays_per_second: Option<f64>,
    /// parry3d's any-hit ray tests per second on that mesh.
    pub parry_sight_per_second: Option<f64>,
    /// parry3d's player-box casts per second on that mesh.
    pub parry_sweeps_per_second: Option<f64>,
    /// Player-box sweeps of a tick's step (16 units) per second: most sweeps in a match.
    pub step_sweeps_per_second: f64,
    /// parry3d's player-box casts of 16 units per second.
    pub parry_step_sweeps_per_second: Option<f64>,
}

/// Compiling one map's navigation (`botarena nav compile`), fastest of the rounds.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct NavCompileTime {
    /// Map name.
    pub map: String,
    /// Worker threads used.
    pub threads: usize,
    /// Seconds of the fastest round.
    pub seconds: f64,
    /// Every round's seconds.
    pub rounds: Vec<f64>,
    /// Areas and reachabilities made (the same every round).
    pub areas: usize,
    /// See `areas`.
    pub reachabilities: usize,
    /// The target in seconds, where there is one (dm4: 1 s).
    pub target: Option<f64>,
    /// Nanoseconds per point → area lookup (`NavMesh::area_at`) over the map's floor points
    /// nudged off the grid, fastest of the rounds (target: under 1000 on dm4).
    pub area_at_ns: f64,
}

/// Points to look areas up at: the map's floor points 24 units apart, each moved by up to
/// ±7 units sideways and 12 up (a fixed sequence), so lookups land anywhere in their cells.
pub fn lookup_points(
    level: &crate::map::Level,
    cmap: &crate::map::CollisionMap,
) -> Vec<glam::Vec3> {
    floor_points(level, cmap, 24.0)
        .into_iter()
        .enumerate()
        .map(|(i, p)| {
            let k = i as f32;
            p + glam::Vec3::new(
                (k * 0.37).sin() * 7.0,
                (k * 0.71).cos() * 7.0,
                (k * 1.3).sin().abs() * 12.0,
            )
        })
        .collect()
}

/// Seconds to compile `map`'s navigation on `threads` threads, what it made (areas,
/// reachabilities) and nanoseconds per `area_at` over its floor points.
pub fn nav_compile_time(map: &Path, threads: usize) -> Result<(f64, usize, usize, f64), String> {
    let data = crate::map::MapData::load(map).map_err(|e| e.to_string())?;
    let (level, cmap) = crate::map::build_level(data);
    let params = crate::aas::CompileParams {
        threads,
        ..Default::default()
    };
    let clock = std::time::Instant::now();
    let mesh = crate::aas::compile(&level, &cmap, &params, &mut |_, _, _| {})
        .map_err(|e| e.to_string())?;
    let seconds = clock.elapsed().as_secs_f64();
    let points = lookup_points(&level, &cmap);
    let reps = (1_000_000 / points.len().max(1)).max(1);
    let clock = std::time::Instant::now();
    let mut found = 0usize;
    for _ in 0..reps {
        found += points
            .iter()
            .filter(|p| mesh.area_at(std::hint::black_box(**p)).is_some())
            .count();
    }
    let ns = clock.elapsed().as_secs_f64() * 1e9 / (reps * points.len()).max(1) as f64;
    std::hint::black_box(found);
    Ok((seconds, mesh.areas().len(), mesh.reaches().len(), ns))
}
