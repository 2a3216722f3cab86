//! The perception stage alone (visibility every tick, item visibility and reachability at
//! 10 Hz staggered) for 8 and 32 wandering bots on the shipped arena. The world is built
//! and the bots spread out in setup; only the stage is timed.

use std::sync::Arc;

use botarena::bot::perception::perception_system;
use botarena::map::{MapData, build_level};
use botarena::sim::{ControllerConfig, PlayerConfig, Sim, SimConfig};
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use glam::Vec3;

fn arena_with(bots: usize) -> Sim {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("maps/arena.map");
    let (level, cmap) = build_level(MapData::load(&path).expect("arena loads"));
    // Start on a grid over the hall floor (spawn points are too few for 32).
    let mut starts = Vec::new();
    for y in [-400.0, -300.0, -200.0, -100.0, 0.0] {
        for x in [-400.0, -300.0, -200.0, -100.0, 0.0, 100.0, 200.0] {
            starts.push(Vec3::new(x, y, 25.0));
        }
    }
    let players = (0..bots)
        .map(|i| PlayerConfig {
            name: format!("bot{i}"),
            controller: ControllerConfig::Wander,
            spawn: None,
            start: Some((starts[i % starts.len()], (i * 37 % 360) as f32)),
            senses: Default::default(),
        })
        .collect();
    let cfg = SimConfig {
        seed: 1,
        tick_rate: 20,
        params: Default::default(),
        players,
    };
    let mut sim = Sim::new(Arc::new(level), cmap, &cfg).expect("sim builds");
    for _ in 0..40 {
        sim.step();
    }
    sim
}

fn perception(c: &mut Criterion) {
    let mut g = c.benchmark_group("perception_stage");
    for bots in [8usize, 32] {
        let mut sim = arena_with(bots);
        g.bench_with_input(BenchmarkId::new("arena", bots), &bots, |b, _| {
            b.iter(|| {
                // Advance the stagger so every bot takes its turn at the 10 Hz refresh.
                sim.tick += 1;
                perception_system(&mut sim);
            })
        });
    }
    g.finish();
}

criterion_group!(benches, perception);
criterion_main!(benches);
