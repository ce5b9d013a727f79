//! Temporary stand-in (replaced by the full generator module).
use rand_chacha::rand_core::{Rng as _, SeedableRng};
use rand_chacha::ChaCha8Rng;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RngKind {
    ChaCha8,
    XorShift32,
}

impl std::str::FromStr for RngKind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "chacha8" => Ok(RngKind::ChaCha8),
            "xorshift32" => Ok(RngKind::XorShift32),
            o => Err(format!("unknown generator {o}")),
        }
    }
}

#[derive(Clone, Debug)]
pub struct Rng {
    chacha: Option<ChaCha8Rng>,
    x: u32,
    draws: u64,
}

impl Rng {
    pub fn new(kind: RngKind, seed: u64) -> Rng {
        match kind {
            RngKind::ChaCha8 => Rng { chacha: Some(ChaCha8Rng::seed_from_u64(seed)), x: 0, draws: 0 },
            RngKind::XorShift32 => Rng { chacha: None, x: if seed as u32 == 0 { 0x6D2B79F5 } else { seed as u32 }, draws: 0 },
        }
    }
    pub fn stream(kind: RngKind, seed: u64, stream: u64) -> Rng {
        Rng::new(kind, game_seed(seed, stream))
    }
    fn next64(&mut self) -> u64 {
        self.draws += 1;
        match &mut self.chacha {
            Some(c) => c.next_u64(),
            None => {
                let mut x = self.x;
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                self.x = x;
                x as u64
            }
        }
    }
    pub fn int_in(&mut self, lo: i64, hi: i64) -> i64 {
        if lo > hi {
            return lo;
        }
        let span = (hi - lo) as u64 + 1;
        lo + self.below(span) as i64
    }
    pub fn coin(&mut self) -> bool {
        self.next64() & 1 == 1
    }
    pub fn chance(&mut self, p: f64) -> bool {
        match self.chacha {
            Some(_) => ((self.next64() >> 11) as f64) * (1.0 / (1u64 << 53) as f64) < p,
            None => (self.next64() as f64) / 4294967296.0 < p,
        }
    }
    pub fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            return 0;
        }
        match self.chacha {
            Some(_) => (((self.next64() as u128) * (n as u128)) >> 64) as u64,
            None => self.next64() % n,
        }
    }
    pub fn draws(&self) -> u64 {
        self.draws
    }
}

pub fn game_seed(base: u64, index: u64) -> u64 {
    let mut z = base ^ index.wrapping_mul(0x9E3779B97F4A7C15).wrapping_add(0x9E3779B97F4A7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D049BB133111EB);
    z ^ (z >> 31)
}
