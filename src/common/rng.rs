//! SplitMix64, the one source of randomness of both games: tiny, fast, and the same
//! sequence on every machine. [`Rng`] is the seeded generator (the Ludo die, the bots'
//! choices); [`splitmix64`] is its output function on its own, a hash of one word (the
//! Onitama position key and the AIs' seeded choices).

/// SplitMix64's increment.
pub const GOLDEN_GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// SplitMix64's finaliser: a bijective mix of all 64 bits.
#[inline(always)]
pub fn finalise(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A seed nobody chose: what a game or an environment gets when the caller gives none (it
/// keeps it, so that the game can be replayed). From the process's random hash keys, so
/// different each time.
pub fn fresh_seed() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u64(0x4C75_646F);
    h.finish()
}

/// The first output of a SplitMix64 generator seeded with `x` (`Rng::new(x).next_u64()`).
#[inline(always)]
pub fn splitmix64(x: u64) -> u64 {
    finalise(x.wrapping_add(GOLDEN_GAMMA))
}

/// A deterministic random number generator; its whole state is one `u64` (SplitMix64: the
/// same sequence on every machine).
///
/// ```
/// use ludogame::common::rng::Rng;
///
/// let mut a = Rng::new(2026);
/// let mut b = a;
/// assert_eq!(a.next_u64(), b.next_u64());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rng(u64);

impl Rng {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The internal state (to save and restore a game exactly).
    pub fn state(&self) -> u64 {
        self.0
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(GOLDEN_GAMMA);
        finalise(self.0)
    }

    /// A number in `0..n` (multiply-shift; the bias is below 2^-58 for n ≤ 64).
    pub fn below(&mut self, n: u32) -> u32 {
        ((self.next_u64() as u128 * n as u128) >> 64) as u32
    }

    /// A die roll, 1 to 6.
    pub fn die(&mut self) -> u8 {
        // `min` changes nothing (below(6) < 6) but tells the compiler the range, so that
        // table look-ups by roll need no bounds test.
        (self.below(6) as u8).min(5) + 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_rolls_and_fair_enough() {
        let mut a = Rng::new(42);
        let mut b = Rng::new(42);
        let mut counts = [0u32; 7];
        for _ in 0..60_000 {
            let r = a.die();
            assert_eq!(r, b.die());
            counts[r as usize] += 1;
        }
        for &c in &counts[1..] {
            assert!((9_000..11_000).contains(&c), "{counts:?}");
        }
    }

    #[test]
    fn known_splitmix64_values() {
        // The published first outputs of SplitMix64 seeded with 0.
        let mut r = Rng::new(0);
        assert_eq!(r.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(r.next_u64(), 0x6E78_9E6A_A1B9_65F4);
    }
}
