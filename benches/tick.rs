//! Whole ticks of brain bots (1, 8, 32, 128) on the shipped arena and on id's dm4 (where
//! `../shared/quake-maps` or `$BOTARENA_QUAKE_MAPS` has it), and trace throughput (a ray and
//! a player-box sweep between seeded floor points). The same cases as `botarena bench`.

use botarena::bench::{bench_maps, bench_match};
use botarena::map::{Contents, MapData, build_level};
use botarena::nav::sample::floor_points;
use botarena::physics::pmove::{PLAYER_MAXS, PLAYER_MINS};
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};

fn ticks(c: &mut Criterion) {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut g = c.benchmark_group("tick");
    g.sample_size(10);
    for map in bench_maps(root) {
        for bots in [1usize, 8, 32, 128] {
            let mut m = bench_match(&map.path, bots, 1, 1).expect("bench world");
            for _ in 0..50 {
                m.step();
            }
            g.bench_with_input(BenchmarkId::new(&map.name, bots), &bots, |b, _| {
                b.iter(|| m.step())
            });
        }
    }
    g.finish();
}

fn traces(c: &mut Criterion) {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut g = c.benchmark_group("trace");
    for m in bench_maps(root) {
        let (level, cmap) = build_level(MapData::load(&m.path).expect("map loads"));
        let pts = floor_points(&level, &cmap, 96.0);
        let mut rng = botarena::sim::rng::SimRng::new(7, 0);
        let pairs: Vec<_> = (0..1024)
            .map(|_| {
                let a = pts[rng.below(pts.len())];
                let b = pts[rng.below(pts.len())];
                (a, a + (b - a).clamp_length_max(512.0))
            })
            .collect();
        let mut i = 0;
        g.bench_function(BenchmarkId::new("ray", &m.name), |b| {
            b.iter(|| {
                i = (i + 1) % pairs.len();
                cmap.trace_ray(pairs[i].0, pairs[i].1, Contents::MASK_SIGHT, None)
            })
        });
        g.bench_function(BenchmarkId::new("line_of_sight", &m.name), |b| {
            b.iter(|| {
                i = (i + 1) % pairs.len();
                cmap.line_clear(pairs[i].0, pairs[i].1, Contents::MASK_SIGHT)
            })
        });
        g.bench_function(BenchmarkId::new("box", &m.name), |b| {
            b.iter(|| {
                i = (i + 1) % pairs.len();
                cmap.trace(
                    pairs[i].0,
                    pairs[i].1,
                    PLAYER_MINS,
                    PLAYER_MAXS,
                    Contents::MASK_PLAYER,
                    None,
                )
            })
        });
    }
    g.finish();
}

criterion_group!(benches, ticks, traces);
criterion_main!(benches);
