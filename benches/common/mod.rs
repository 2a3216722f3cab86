//! Shared setup of the stage benchmarks: the shipped arena with bots on a grid over the hall
//! floor (its four spawn points are too few for 32 bots).

use std::sync::Arc;

use botarena::bot::control::ControllerConfig;
use botarena::map::{MapData, build_level};
use botarena::tick::{Match, MatchConfig, PlayerConfig};
use glam::Vec3;

/// The arena with `bots` players, the i-th starting at the i-th grid point with the
/// controller `ctrl(i, start)`, stepped `warmup` ticks.
pub fn arena_with(
    bots: usize,
    warmup: usize,
    ctrl: impl Fn(usize, Vec3) -> ControllerConfig,
) -> Match {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("maps/arena.map");
    let (level, cmap) = build_level(MapData::load(&path).expect("arena loads"));
    let mut starts = Vec::new();
    for y in [-400.0, -300.0, -200.0, -100.0, 0.0] {
        for x in [-400.0, -300.0, -200.0, -100.0, 0.0, 100.0, 200.0] {
            starts.push(Vec3::new(x, y, 25.0));
        }
    }
    let players = (0..bots)
        .map(|i| {
            let s = starts[i % starts.len()];
            PlayerConfig {
                name: format!("bot{i}"),
                controller: ctrl(i, s),
                spawn: None,
                start: Some((s, (i * 37 % 360) as f32)),
                senses: Default::default(),
                navigation: Default::default(),
            }
        })
        .collect();
    let cfg = MatchConfig::new(1, players);
    let mut m = Match::new(Arc::new(level), cmap, &cfg).expect("the match builds");
    for _ in 0..warmup {
        m.step();
    }
    m
}
