//! Compiling navigation (`botarena nav compile`): areas and physics-verified reachabilities
//! for the shipped arena and id's dm4 and dm6 where present (the target: dm4 within
//! 1 s on the 2-core development machine, all threads). Loading the map is set-up, not timed.
//! And point → area lookups (`NavMesh::area_at`, target under 1 µs on dm4) over the map's
//! floor points, each nudged off the grid by a seeded amount.

use botarena::aas::{CompileParams, compile};
use botarena::map::{MapData, build_level};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};

fn nav_compile(c: &mut Criterion) {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut maps = vec![("arena", root.join("maps/arena.map"))];
    let dir = std::env::var_os("BOTARENA_QUAKE_MAPS")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| root.join("../shared/quake-maps"));
    for name in ["dm4", "dm6"] {
        let p = dir.join(format!("{name}.map"));
        if p.is_file() {
            maps.push((name, p));
        }
    }
    let mut lookups = Vec::new();
    let mut g = c.benchmark_group("nav_compile");
    g.sample_size(10);
    for (name, path) in maps {
        let (level, cmap) = build_level(MapData::load(&path).expect("map loads"));
        let params = CompileParams::default();
        g.bench_function(BenchmarkId::new("compile", name), |b| {
            b.iter(|| {
                compile(&level, &cmap, &params, &mut |_, _, _| {})
                    .expect("compiles")
                    .areas()
                    .len()
            })
        });
        let mesh = compile(&level, &cmap, &params, &mut |_, _, _| {}).expect("compiles");
        let points = botarena::bench::lookup_points(&level, &cmap);
        lookups.push((name, mesh, points));
    }
    g.finish();
    let mut g = c.benchmark_group("nav_area_at");
    for (name, mesh, points) in &lookups {
        g.throughput(Throughput::Elements(points.len() as u64));
        g.bench_function(BenchmarkId::new("area_at", name), |b| {
            b.iter(|| {
                points
                    .iter()
                    .filter(|p| mesh.area_at(**p).is_some())
                    .count()
            })
        });
    }
    g.finish();
}

criterion_group!(benches, nav_compile);
criterion_main!(benches);
