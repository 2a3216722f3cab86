//! The movement stage alone for 8 and 32 bots walking to points across the shipped arena
//! (feelers, the look-ahead for gaps and lava, jump prediction at edges). The world is built
//! and the bots set going in setup; only the stage is timed.

mod common;

use botarena::bot::control::ControllerConfig;
use botarena::bot::movement::movement_system;
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use glam::Vec3;

fn movement(c: &mut Criterion) {
    let mut g = c.benchmark_group("movement_stage");
    for bots in [8usize, 32] {
        // Each bot heads for the mirror point across the hall: past the lava pit, the stairs
        // and each other.
        let mut m = common::arena_with(bots, 10, |_, s| {
            ControllerConfig::Goto(Vec3::new(-s.x, -s.y + 100.0, 24.03125))
        });
        g.bench_with_input(BenchmarkId::new("arena", bots), &bots, |b, _| {
            b.iter(|| movement_system(&mut m.sim))
        });
    }
    g.finish();
}

criterion_group!(benches, movement);
criterion_main!(benches);
