//! Searches whose answer is a set of cells as bits (a word of 64 cells at a time): what the engine's
//! cell sets use. Each gives the same cells as its cell-by-cell twin in `search.rs`, whose tests check
//! the two against a plain reference search.

use super::distance::known_hops;
use super::search::{SearchScratch, SMALL_BOARD_WORDS};
use super::{Board, CellId};

impl Board {
    /// The same cells as [`Board::reachable`] when the test is membership of a bit set: every cell other than
    /// `from` reachable in 1 to `max` steps entering only cells whose bit is set in `passable`, written as
    /// bits to `out` (one word per 64 cells of the board, so the caller can keep it on the stack). Works a
    /// word of 64 cells at a time from each cell's neighbour mask; `false` (and nothing written) on boards
    /// too large for it, where callers search cell by cell instead.
    pub fn reachable_bits(
        &self,
        from: CellId,
        max: u32,
        passable: &[u64],
        scratch: &mut SearchScratch,
        out: &mut [u64],
    ) -> bool {
        self.reachable_bits_by(from, max, passable.len(), |k| passable[k], scratch, out)
    }

    /// [`Board::reachable_bits`] with word `k` of the passable cells given by `passable(k)` (`len` words),
    /// read where the search needs it. A caller that would build the passable cells on the stack just
    /// before (the free cells, the complement of the occupied ones) gives them this way instead: a mask
    /// written word by word and then read back in wider loads stalls, as store forwarding fails on those
    /// (a dozen cycles each time, ~9% of a hex arena's listing of moves).
    #[inline(always)]
    pub fn reachable_bits_by(
        &self,
        from: CellId,
        max: u32,
        len: usize,
        passable: impl Fn(usize) -> u64,
        scratch: &mut SearchScratch,
        out: &mut [u64],
    ) -> bool {
        let words = self.len().div_ceil(64);
        if words > SMALL_BOARD_WORDS {
            return false;
        }
        debug_assert_eq!(out.len(), words);
        if !self.contains(from) || max == 0 {
            zero_words(out);
            return true;
        }
        let masks = self.neighbour_masks();
        // Boards of up to 256 cells: the same steps on fixed-size words the compiler keeps in registers
        // (each writes every word of `out`).
        match words {
            1 => return reachable_fixed::<1>(masks, from, max, len, &passable, out),
            2 => return reachable_fixed::<2>(masks, from, max, len, &passable, out),
            3 => return reachable_fixed::<3>(masks, from, max, len, &passable, out),
            4 => return reachable_fixed::<4>(masks, from, max, len, &passable, out),
            _ => {}
        }
        out.fill(0);
        if len < words {
            return false;
        }
        let frontier = &mut scratch.bits;
        frontier.clear();
        frontier.resize(words * 2, 0);
        let (frontier, next) = frontier.split_at_mut(words);
        frontier[from as usize / 64] |= 1 << (from % 64);
        // `out` doubles as the visited set; `from` is visited but never reported.
        let from_bit = (from as usize / 64, 1u64 << (from % 64));
        out[from_bit.0] |= from_bit.1;
        for _ in 0..max {
            next.fill(0);
            for (w, &word) in frontier.iter().enumerate() {
                let mut b = word;
                while b != 0 {
                    let c = w * 64 + b.trailing_zeros() as usize;
                    b &= b - 1;
                    for (x, m) in next.iter_mut().zip(&masks[c * words..(c + 1) * words]) {
                        *x |= m;
                    }
                }
            }
            let mut any = false;
            for (k, (x, o)) in next.iter_mut().zip(out.iter_mut()).enumerate() {
                *x &= passable(k) & !*o;
                *o |= *x;
                any |= *x != 0;
            }
            if !any {
                break;
            }
            frontier.copy_from_slice(next);
        }
        out[from_bit.0] &= !from_bit.1;
        true
    }

    /// The same length as [`Board::steps`] when the test is membership of a bit set: the fewest steps from
    /// `from` to `to`, at most `max`, every intermediate cell's bit set in `passable` (the end points are
    /// not tested; `from == to` is 0). Layer by layer a word of 64 cells at a time, stopping at the layer that
    /// touches `to`. The outer `None` on boards too large for it (callers then use [`Board::steps`]).
    pub fn steps_bits(
        &self,
        from: CellId,
        to: CellId,
        max: u32,
        passable: &[u64],
    ) -> Option<Option<u32>> {
        self.steps_bits_by(from, to, max, passable.len(), |k| passable[k])
    }

    /// [`Board::steps_bits`] with word `k` of the passable cells given by `passable(k)` (`len` words): see
    /// [`Board::reachable_bits_by`].
    #[inline(always)]
    pub fn steps_bits_by(
        &self,
        from: CellId,
        to: CellId,
        max: u32,
        len: usize,
        passable: impl Fn(usize) -> u64,
    ) -> Option<Option<u32>> {
        if !self.contains(from) || !self.contains(to) {
            return Some(None);
        }
        if from == to {
            return Some(Some(0));
        }
        let masks = self.neighbour_masks();
        match self.len().div_ceil(64) {
            1 => steps_fixed::<1>(masks, from, to, max, len, &passable),
            2 => steps_fixed::<2>(masks, from, to, max, len, &passable),
            3 => steps_fixed::<3>(masks, from, to, max, len, &passable),
            4 => steps_fixed::<4>(masks, from, to, max, len, &passable),
            _ => None,
        }
    }

    /// The cells [`Board::within`] lists, as bits written to `out` (one word per 64 cells of the board).
    /// Reads the cached mask or the distance table's row, so nothing is allocated on boards that have either.
    pub fn within_bits(&self, from: CellId, radius: u32, out: &mut [u64]) {
        debug_assert_eq!(out.len(), self.len().div_ceil(64));
        if !self.contains(from) || radius == 0 {
            zero_words(out);
            return;
        }
        if let Some(mask) = self.within_mask(from, radius) {
            copy_words(out, mask);
            return;
        }
        out.fill(0);
        self.each_within_uncached(from, radius, |x| out[x as usize / 64] |= 1 << (x % 64));
    }

    /// Each cell 1 to `radius` steps from `from` (a cell of the board, radius at least 1), for a radius
    /// without a cached mask: from the distance table's row without allocating, else listed by a search.
    fn each_within_uncached(&self, from: CellId, radius: u32, mut f: impl FnMut(CellId)) {
        match &self.distances {
            Some(table) => {
                for (cell, &raw) in (0..).zip(table.hops_from(from)) {
                    if known_hops(raw).is_some_and(|hops| (1..=radius).contains(&hops)) {
                        f(cell);
                    }
                }
            }
            None => {
                let mut cells = Vec::new();
                self.within(from, radius, &mut cells);
                cells.into_iter().for_each(f);
            }
        }
    }

    /// Whether any cell 1 to `radius` steps from `from` is among `bits` (one word per 64 cells of the
    /// board): the cached mask tested in place, without copying it (a unit with no enemy in range is
    /// passed over on this one test).
    pub fn any_within(&self, from: CellId, radius: u32, bits: &[u64]) -> bool {
        if !self.contains(from) || radius == 0 {
            return false;
        }
        if let Some(mask) = self.within_mask(from, radius) {
            return mask.iter().zip(bits).any(|(m, b)| m & b != 0);
        }
        let mut meets = false;
        self.each_within_uncached(from, radius, |x| {
            meets |= bits[x as usize / 64] & (1 << (x % 64)) != 0;
        });
        meets
    }
}

/// [`Board::reachable_bits`] on a board of exactly `W` words of cells (`masks`: each cell's neighbours as
/// `W` words); `out` holds `W` zeroed words.
#[inline(always)]
fn reachable_fixed<const W: usize>(
    masks: &[u64],
    from: CellId,
    max: u32,
    len: usize,
    passable: &impl Fn(usize) -> u64,
    out: &mut [u64],
) -> bool {
    if len != W {
        out.fill(0);
        return false;
    }
    let passable: [u64; W] = std::array::from_fn(passable);
    // The start's bit is put in each word by value: a one-word store into an array read back whole
    // right after stalls the read (store forwarding fails on a wider load), a few percent of a hex board's
    // listing.
    let (from_word, from_mask) = (from as usize / 64, 1u64 << (from % 64));
    let start = |k: usize| if k == from_word { from_mask } else { 0 };
    let mut seen: [u64; W] = std::array::from_fn(start);
    let mut frontier = seen;
    for _ in 0..max {
        let mut next = next_to::<W>(masks, &frontier);
        if !advance(&mut next, &passable, &mut seen) {
            break;
        }
        frontier = next;
    }
    for (k, o) in out.iter_mut().enumerate() {
        *o = seen[k] & !start(k);
    }
    true
}

/// [`Board::steps_bits`] on a board of exactly `W` words of cells, `from != to` both on it.
#[inline(always)]
fn steps_fixed<const W: usize>(
    masks: &[u64],
    from: CellId,
    to: CellId,
    max: u32,
    len: usize,
    passable: &impl Fn(usize) -> u64,
) -> Option<Option<u32>> {
    if len != W {
        return None;
    }
    let passable: [u64; W] = std::array::from_fn(passable);
    let (from_word, from_mask) = (from as usize / 64, 1u64 << (from % 64));
    let (to_word, to_mask) = (to as usize / 64, 1u64 << (to % 64));
    // The start's bit put in each word by value (see `reachable_fixed`).
    let mut seen: [u64; W] = std::array::from_fn(|k| if k == from_word { from_mask } else { 0 });
    let mut frontier = seen;
    for depth in 1..=max {
        let mut next = next_to::<W>(masks, &frontier);
        // The destination is reached from any cell of the frontier, passable or not itself.
        if next[to_word] & to_mask != 0 {
            return Some(Some(depth));
        }
        if !advance(&mut next, &passable, &mut seen) {
            break;
        }
        frontier = next;
    }
    Some(None)
}

/// The cells next to any cell of `frontier`, a board of `W` words (`masks`: each cell's neighbours as `W`
/// words).
#[inline(always)]
fn next_to<const W: usize>(masks: &[u64], frontier: &[u64; W]) -> [u64; W] {
    let mut next = [0u64; W];
    for (w, &word) in frontier.iter().enumerate() {
        let mut b = word;
        while b != 0 {
            let c = w * 64 + b.trailing_zeros() as usize;
            b &= b - 1;
            let m = &masks[c * W..c * W + W];
            for k in 0..W {
                next[k] |= m[k];
            }
        }
    }
    next
}

/// Keeps in `next` the passable cells not seen before and adds them to `seen`; whether any was kept (the
/// search goes on).
#[inline(always)]
fn advance<const W: usize>(next: &mut [u64; W], passable: &[u64; W], seen: &mut [u64; W]) -> bool {
    let mut any = 0;
    for k in 0..W {
        next[k] &= passable[k] & !seen[k];
        seen[k] |= next[k];
        any |= next[k];
    }
    any != 0
}

/// `out.fill(0)` for the few words of a small board without a call: a library `memset` for three words
/// costs more than the stores (hex arena listings clear a set per unit and parameter).
#[inline(always)]
fn zero_words(out: &mut [u64]) {
    match out {
        [a] => *a = 0,
        [a, b] => (*a, *b) = (0, 0),
        [a, b, c] => (*a, *b, *c) = (0, 0, 0),
        [a, b, c, d] => (*a, *b, *c, *d) = (0, 0, 0, 0),
        _ => out.fill(0),
    }
}

/// `out.copy_from_slice(src)` for the few words of a small board without a call (see [`zero_words`]).
#[inline(always)]
pub fn copy_words(out: &mut [u64], src: &[u64]) {
    match (out, src) {
        ([a], [x]) => *a = *x,
        ([a, b], [x, y]) => (*a, *b) = (*x, *y),
        ([a, b, c], [x, y, z]) => (*a, *b, *c) = (*x, *y, *z),
        ([a, b, c, d], [x, y, z, w]) => (*a, *b, *c, *d) = (*x, *y, *z, *w),
        (out, src) => out.copy_from_slice(src),
    }
}
