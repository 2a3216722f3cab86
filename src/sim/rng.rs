//! Seeded random numbers: one ChaCha8 stream per purpose, derived from the scenario seed,
//! so draws never depend on thread scheduling or on other bots' draws.

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};

/// A deterministic random stream.
#[derive(Clone, Debug)]
pub struct SimRng {
    rng: ChaCha8Rng,
}

/// Stream number of the world's own draws (spawn selection); bots use their id.
pub const WORLD_STREAM: u64 = u64::MAX;

impl SimRng {
    /// Stream `stream` of `seed`.
    pub fn new(seed: u64, stream: u64) -> SimRng {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        rng.set_stream(stream);
        SimRng { rng }
    }

    /// Uniform in `[0, 1)`, 24 bits.
    pub fn unit(&mut self) -> f32 {
        (self.rng.next_u32() >> 8) as f32 / (1u32 << 24) as f32
    }

    /// Uniform in `[lo, hi)`.
    pub fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.unit()
    }

    /// Uniform index below `n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        ((self.rng.next_u64() % n.max(1) as u64) as usize).min(n.saturating_sub(1))
    }

    /// 64 random bits (a seed for a sub-stream, e.g. a planner's).
    pub fn next_u64(&mut self) -> u64 {
        self.rng.next_u64()
    }

    /// True with probability `p`.
    pub fn chance(&mut self, p: f32) -> bool {
        self.unit() < p
    }

    /// Position in the stream, for the state hash.
    pub fn word_pos(&self) -> u128 {
        self.rng.get_word_pos()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_are_reproducible_and_independent() {
        let mut a = SimRng::new(7, 1);
        let mut b = SimRng::new(7, 1);
        let mut c = SimRng::new(7, 2);
        let xa: Vec<f32> = (0..8).map(|_| a.unit()).collect();
        let xb: Vec<f32> = (0..8).map(|_| b.unit()).collect();
        let xc: Vec<f32> = (0..8).map(|_| c.unit()).collect();
        assert_eq!(xa, xb);
        assert_ne!(xa, xc);
        assert!(xa.iter().all(|x| (0.0..1.0).contains(x)));
    }
}
