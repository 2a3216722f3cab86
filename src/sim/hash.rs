//! The state hash's byte layout: XXH3-64 over a fixed-order byte stream of the state
//! (floats by their bits), so two runs agree exactly or not at all. Each part of the state
//! says which of its bytes count ([`StateHash`], implemented beside the type by the layer
//! that owns it); the `tick` layer decides the order of the parts.

use std::hash::Hasher as _;

use twox_hash::XxHash3_64;

/// Feeds values into an XXH3 hash in a fixed byte layout.
pub struct StateHasher {
    h: XxHash3_64,
}

impl Default for StateHasher {
    fn default() -> Self {
        StateHasher {
            h: XxHash3_64::with_seed(0),
        }
    }
}

impl StateHasher {
    /// Adds bytes.
    pub fn bytes(&mut self, b: &[u8]) {
        self.h.write(b);
    }
    /// Adds an integer.
    pub fn u64(&mut self, v: u64) {
        self.h.write(&v.to_le_bytes());
    }
    /// Adds a float by its bit pattern.
    pub fn f32(&mut self, v: f32) {
        self.h.write(&v.to_bits().to_le_bytes());
    }
    /// Adds three floats.
    pub fn vec3(&mut self, v: glam::Vec3) {
        self.f32(v.x);
        self.f32(v.y);
        self.f32(v.z);
    }
    /// The hash value.
    pub fn finish(&self) -> u64 {
        self.h.finish()
    }
}

/// A part of the state that feeds the state hash: it writes the bytes that decide where the
/// run goes from here, always in the same layout.
pub trait StateHash {
    /// Feeds this part into `h`.
    fn hash_state(&self, h: &mut StateHasher);
}

impl StateHash for super::rng::SimRng {
    fn hash_state(&self, h: &mut StateHasher) {
        h.bytes(&self.word_pos().to_le_bytes());
    }
}
