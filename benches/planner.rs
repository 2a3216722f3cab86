//! Planner expansions per second: growing a tree of 2,000 expansions from the proving
//! ground's first lane toward its shotgun (no early stop), and on dm6 where present.

use std::sync::Arc;

use botarena::map::{MapData, build_level};
use botarena::planner::PlanConfig;
use botarena::planner::times::{items, plan_pair};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};

fn expansions(c: &mut Criterion) {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut maps = vec![("proving", root.join("maps/proving.map"))];
    let dm6 = std::env::var_os("BOTARENA_QUAKE_MAPS")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| root.join("../shared/quake-maps"))
        .join("dm6.map");
    if dm6.is_file() {
        maps.push(("dm6", dm6));
    }
    let mut g = c.benchmark_group("planner");
    g.sample_size(10);
    const N: usize = 2000;
    g.throughput(Throughput::Elements(N as u64));
    for (name, path) in maps {
        let (level, cmap) = build_level(MapData::load(&path).expect("map loads"));
        let level = Arc::new(level);
        let all = items(&level, &cmap);
        let free = botarena::nav::sample::floor_points(&level, &cmap, 64.0);
        let (a, b) = (&all[0], &all[all.len() - 1]);
        let cfg = PlanConfig {
            expansions: N,
            ..Default::default()
        };
        g.bench_function(BenchmarkId::new("expansions", name), |bch| {
            bch.iter(|| {
                plan_pair(&cmap, &Default::default(), &free, a, b, &cfg)
                    .nodes
                    .len()
            })
        });
    }
    g.finish();
}

criterion_group!(benches, expansions);
criterion_main!(benches);
