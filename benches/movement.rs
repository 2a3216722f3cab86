//! The movement stage alone for 8 and 32 bots walking to points across the shipped arena
//! (feelers, the look-ahead for gaps and lava, jump prediction at edges). The world is built
//! and the bots set going in setup; only the stage is timed.

use std::sync::Arc;

use botarena::bot::movement::movement_system;
use botarena::map::{MapData, build_level};
use botarena::sim::{ControllerConfig, PlayerConfig, Sim, SimConfig};
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use glam::Vec3;

fn arena_with(bots: usize) -> Sim {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("maps/arena.map");
    let (level, cmap) = build_level(MapData::load(&path).expect("arena loads"));
    let mut starts = Vec::new();
    for y in [-400.0, -300.0, -200.0, -100.0, 0.0] {
        for x in [-400.0, -300.0, -200.0, -100.0, 0.0, 100.0, 200.0] {
            starts.push(Vec3::new(x, y, 25.0));
        }
    }
    // Each bot heads for the mirror point across the hall: past the lava pit, the stairs
    // and each other.
    let players = (0..bots)
        .map(|i| {
            let s = starts[i % starts.len()];
            PlayerConfig {
                name: format!("bot{i}"),
                controller: ControllerConfig::Goto(Vec3::new(-s.x, -s.y + 100.0, 24.03125)),
                spawn: None,
                start: Some((s, 0.0)),
                senses: Default::default(),
            }
        })
        .collect();
    let cfg = SimConfig {
        seed: 1,
        tick_rate: 20,
        params: Default::default(),
        players,
    };
    let mut sim = Sim::new(Arc::new(level), cmap, &cfg).expect("sim builds");
    for _ in 0..10 {
        sim.step();
    }
    sim
}

fn movement(c: &mut Criterion) {
    let mut g = c.benchmark_group("movement_stage");
    for bots in [8usize, 32] {
        let mut sim = arena_with(bots);
        g.bench_with_input(BenchmarkId::new("arena", bots), &bots, |b, _| {
            b.iter(|| movement_system(&mut sim))
        });
    }
    g.finish();
}

criterion_group!(benches, movement);
criterion_main!(benches);
