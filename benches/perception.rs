//! The perception stage alone (lines of sight and reachability, refreshed at 10 Hz staggered)
//! for 8 and 32 wandering bots on the shipped arena. The world is built and the bots spread
//! out in setup; only the stage is timed.

mod common;

use botarena::bot::control::ControllerConfig;
use botarena::bot::perception::PerceptionStage;
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};

fn perception(c: &mut Criterion) {
    let mut g = c.benchmark_group("perception_stage");
    for bots in [8usize, 32] {
        let mut m = common::arena_with(bots, 40, |_, _| ControllerConfig::Wander);
        let mut stage = PerceptionStage::default();
        g.bench_with_input(BenchmarkId::new("arena", bots), &bots, |b, _| {
            b.iter(|| {
                // Advance the stagger so every bot takes its turn at the 10 Hz refresh.
                m.sim.tick += 1;
                stage.run(&mut m.sim);
            })
        });
    }
    g.finish();
}

criterion_group!(benches, perception);
criterion_main!(benches);
