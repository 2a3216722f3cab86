//! Routing on the compiled area graph: a flat cache built for one goal (every
//! reachability's time to it) against the cluster/portal hierarchy's goal search (inside the
//! goal's cluster, then over the portals), on dm4 and the largest id map present (e1m3).
//! The target: the hierarchical query cheaper than the flat build on the largest
//! map. Compiling and the hierarchy's per-travel exit tables are set-up, not timed.

use botarena::aas::route::{HierRouter, Travel, build_cache};
use botarena::aas::{CompileParams, compile};
use botarena::map::{MapData, build_level};
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};

fn area_routing(c: &mut Criterion) {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = std::env::var_os("BOTARENA_QUAKE_MAPS")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| root.join("../shared/quake-maps"));
    let mut maps = vec![("arena", root.join("maps/arena.map"))];
    for name in ["dm4", "e1m3"] {
        let p = dir.join(format!("{name}.map"));
        if p.is_file() {
            maps.push((name, p));
        }
    }
    let mut g = c.benchmark_group("area_routing");
    g.sample_size(20);
    for (name, path) in maps {
        let (level, cmap) = build_level(MapData::load(&path).expect("map loads"));
        let mesh =
            compile(&level, &cmap, &CompileParams::default(), &mut |_, _, _| {}).expect("compiles");
        // Goals spread over the map, the same for both.
        let goals: Vec<u32> = (0..mesh.areas().len() as u32).step_by(37).collect();
        let mut hier = HierRouter::for_mesh(&mesh);
        hier.goal(&mesh, 0, Travel::ALL);
        g.bench_function(BenchmarkId::new("flat_build", name), |b| {
            let mut k = 0;
            b.iter(|| {
                k = (k + 1) % goals.len();
                build_cache(&mesh, goals[k], Travel::ALL).time.len()
            })
        });
        g.bench_function(BenchmarkId::new("hier_goal", name), |b| {
            let mut k = 0;
            b.iter(|| {
                k = (k + 1) % goals.len();
                hier.goal(&mesh, goals[k], Travel::ALL).goal
            })
        });
    }
    g.finish();
}

criterion_group!(benches, area_routing);
criterion_main!(benches);
