//! What following the compiled area graph's routes costs beside learning the map: the same
//! real match (8 brain bots of the default skill, one thread) once with bots that drop
//! waypoints and route over what they learned (reference 000) and once with bots that route
//! on the compiled area graph from tick 0 (reference 001), each timed in µs per bot-tick.
//! The target: a compiled bot-tick at most twice a learned one.

use std::time::Instant;

use serde::Serialize;

use super::{BenchMap, REAL_TIMED_TICKS, REAL_WARMUP_TICKS, bots_on};
use crate::bot::Navigation;
use crate::bot::brain::Skill;

/// Bots in each of the two matches.
pub const FOLLOW_BOTS: usize = 8;

/// The most a compiled bot-tick may cost, in learned bot-ticks.
pub const FOLLOW_TARGET: f64 = 2.0;

/// The two matches' costs on one map.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct FollowCost {
    /// Map name.
    pub map: String,
    /// Bots in each match.
    pub bots: usize,
    /// µs per bot-tick with learned navigation, fastest round.
    pub learned_us: f64,
    /// µs per bot-tick with compiled navigation, fastest round.
    pub compiled_us: f64,
    /// Every round of each, µs per bot-tick, in the order measured.
    pub learned_rounds: Vec<f64>,
    /// See `learned_rounds`.
    pub compiled_rounds: Vec<f64>,
    /// `compiled_us / learned_us`.
    pub ratio: f64,
    /// [`FOLLOW_TARGET`].
    pub target: f64,
}

/// µs per bot-tick of one real match of [`FOLLOW_BOTS`] bots with `navigation` on one
/// thread: `warmup` ticks untimed, then `ticks` timed. A compiled match compiles the map's
/// area graph first (not timed).
pub fn follow_us(
    map: &BenchMap,
    navigation: Navigation,
    warmup: u64,
    ticks: u64,
) -> Result<f64, String> {
    let mut m = bots_on(
        &map.path,
        FOLLOW_BOTS,
        1,
        1,
        Skill::default(),
        true,
        navigation,
    )?;
    for _ in 0..warmup {
        m.step();
    }
    let start = Instant::now();
    for _ in 0..ticks {
        m.step();
    }
    let secs = start.elapsed().as_secs_f64();
    Ok(secs * 1e6 / (FOLLOW_BOTS as u64 * ticks.max(1)) as f64)
}

/// Both matches on `map` in `rounds` alternating rounds (a slow spell of the machine falls
/// on both alike), the fastest round of each counting; `scale` divides the ticks (5 for
/// `--quick`).
pub fn follow_cost(map: &BenchMap, rounds: usize, scale: u64) -> Result<FollowCost, String> {
    let (warmup, ticks) = (REAL_WARMUP_TICKS / scale, REAL_TIMED_TICKS / scale);
    let mut learned = Vec::new();
    let mut compiled = Vec::new();
    for _ in 0..rounds.max(1) {
        learned.push(follow_us(map, Navigation::Learned, warmup, ticks)?);
        compiled.push(follow_us(map, Navigation::Compiled, warmup, ticks)?);
    }
    let best = |v: &[f64]| v.iter().copied().fold(f64::INFINITY, f64::min);
    let (l, c) = (best(&learned), best(&compiled));
    Ok(FollowCost {
        map: map.name.clone(),
        bots: FOLLOW_BOTS,
        learned_us: l,
        compiled_us: c,
        learned_rounds: learned,
        compiled_rounds: compiled,
        ratio: c / l.max(1e-12),
        target: FOLLOW_TARGET,
    })
}
