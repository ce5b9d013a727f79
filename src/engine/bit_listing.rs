//! Cell parameters listed as bits: the candidate set as one word per 64 cells, the parameter's bit tests
//! applied to all candidates at once (emptiness, owners, a cell's flag or number, fixed data; those that
//! read no other parameter made once per walk), then either one block of cells for the sink or each
//! remaining cell visited in board order. The walk itself is in `legal.rs`.
use super::legal::{range_size, CellCandidate, Known, Sink};
use super::lower::fixed_cells;
use super::lower::{BitTest, Bounds, CAction, CParam};
use super::machine::{Machine, RunError};
use crate::model::action::ArgList;
use crate::model::state::NO_OWNER;
use crate::model::value::ABSENT;
use crate::model::Value;

type R<T> = Result<T, RunError>;

impl Machine<'_> {
    /// Walks a cell parameter whose source lists as bits: its bit tests applied to every candidate at
    /// once, then either the whole set handed to the sink (a last parameter with nothing else to test) or
    /// each remaining cell visited in board order. `None` when the source cannot be listed as bits here
    /// (the caller then visits the cells one by one).
    pub(super) fn walk_bits<S: Sink>(
        &mut self,
        act: &CAction,
        p: &CParam,
        i: usize,
        args: &mut ArgList,
        sink: &mut S,
    ) -> R<Option<bool>> {
        let Some(set) = &p.source else {
            return Ok(None);
        };
        self.with_cell_words(|m, bits| {
            if !m.list_bits(set, p, bits)? {
                return Ok(None);
            }
            let bits = &*bits;
            if p.cell_block && sink.takes_cells() {
                let count: u64 = bits.iter().map(|w| u64::from(w.count_ones())).sum();
                return if count == 0 {
                    Ok(Some(true))
                } else {
                    sink.cells(act.kind, args, bits, count).map(Some)
                };
            }
            for (w, &word) in bits.iter().enumerate() {
                let mut b = word;
                while b != 0 {
                    let c = (w * 64) as u32 + b.trailing_zeros();
                    b &= b - 1;
                    if p.bits_to_product {
                        if let Some(go) = m.cell_product(act, p, c, args, sink)? {
                            if !go {
                                return Ok(Some(false));
                            }
                            continue;
                        }
                    }
                    if !m.visit(act, p, i, CellCandidate(c), args, sink, Known::BitTests)? {
                        return Ok(Some(false));
                    }
                }
            }
            Ok(Some(true))
        })
    }

    /// Whether cell parameter `p` ([`CParam::within_reject`]) lists nothing for the values bound so far:
    /// none of its cells within the radius passes its bit tests. The centre and radius are evaluated as
    /// listing evaluates them (so an error comes from the same operand), then the walk's mask of passing
    /// cells is made or reused; false (list as usual) when it cannot be made as bits.
    #[inline(always)]
    pub(super) fn lists_nothing_within(&mut self, p: &CParam) -> R<bool> {
        let Some(super::lower::CSource::Within(center, radius)) =
            p.source.as_ref().map(|s| &s.source)
        else {
            return Ok(false);
        };
        // The radius is not read for no centre, as listing does not read it.
        let center = center.cell(self)?;
        let r = match center {
            Some(_) => radius.int_or(self, 0)?.clamp(0, u32::MAX as i64) as u32,
            None => 0,
        };
        let words = self.game.board.len().div_ceil(64);
        if !self.once_per_walk(p, words, !0, |m, mask| m.apply_bit_tests(p, mask))? {
            return Ok(false);
        }
        Ok(center.is_none_or(|c| !self.game.board.any_within(c, r, &self.rt.bit_mask)))
    }

    /// Cell `c` of a [`CParam::bits_to_product`] parameter: its range's bounds evaluated as a visit would,
    /// then its neighbours x that range handed to the sink as one block naming the cell (a cell whose range
    /// is empty lists nothing). `None` when the sink takes no such block: the cell is then visited.
    #[inline(always)]
    fn cell_product<S: Sink>(
        &mut self,
        act: &CAction,
        p: &CParam,
        c: u32,
        args: &mut ArgList,
        sink: &mut S,
    ) -> R<Option<bool>> {
        self.rt.locals[p.slot] = Value::Cell(c);
        let (lo, hi) = match &p.ranges[0].0 {
            Bounds::Typed(lo, hi) => (lo.get(self), hi.get(self)),
            Bounds::Int(lo, hi) => (lo.get(self)?, hi.get(self)?),
            Bounds::Generic(..) => return Ok(None),
        };
        let (Some(lo), Some(hi)) = (lo, hi) else {
            return Ok(Some(true));
        };
        if hi < lo {
            return Ok(Some(true));
        }
        let size = range_size(lo, hi);
        let cells = self.game.board.neighbours(c);
        sink.cell_neighbours_range(act.kind, args, c, cells, lo, size)
            .transpose()
    }

    /// Runs `f` with one word per 64 cells of the board, of unspecified content: on the stack for boards of
    /// up to 256 cells (a vector's clearing, resizing and copying cost more than a search), in the pooled
    /// vector beyond, taken while `f` runs (nested users find it empty and grow their own; it is given
    /// back only then).
    #[inline(always)]
    pub(super) fn with_cell_words<T>(&mut self, f: impl FnOnce(&mut Self, &mut [u64]) -> T) -> T {
        let words = self.game.board.len().div_ceil(64);
        let mut small = [0u64; 4];
        if words <= small.len() {
            return f(self, &mut small[..words]);
        }
        let mut pooled = std::mem::take(&mut self.rt.cell_bits);
        pooled.resize(words, 0);
        let r = f(self, &mut pooled);
        self.rt.cell_bits = pooled;
        r
    }

    /// Lists `set` as bits into `bits` and applies the parameter's bit tests; false when it cannot.
    fn list_bits(&mut self, set: &super::lower::CSet, p: &CParam, bits: &mut [u64]) -> R<bool> {
        // A board of one word (most small boards): the same code with the length known, so each of its
        // loops over the words is one step instead of an iterator's setup.
        if let [_] = bits {
            return self.list_bits_in(set, p, &mut bits[..1]);
        }
        self.list_bits_in(set, p, bits)
    }

    #[inline(always)]
    fn list_bits_in(&mut self, set: &super::lower::CSet, p: &CParam, bits: &mut [u64]) -> R<bool> {
        if p.listing_invariant {
            // The same cells for every candidate of the earlier parameters: listed once, then copied.
            if !self.once_per_walk(p, bits.len(), 0, |m, listed| match set.bits(m, listed) {
                Ok(true) => m.apply_bit_tests(p, listed),
                other => other,
            })? {
                return Ok(false);
            }
            crate::board::copy_words(bits, &self.rt.bit_mask);
            return Ok(true);
        }
        if !set.bits(self, bits)? {
            return Ok(false);
        }
        if p.bits_invariant {
            // The cells passing the tests, the same for every candidate: made once, then intersected.
            if !self.once_per_walk(p, bits.len(), !0, |m, mask| m.apply_bit_tests(p, mask))? {
                return Ok(false);
            }
            for (b, m) in bits.iter_mut().zip(&self.rt.bit_mask) {
                *b &= m;
            }
            return Ok(true);
        }
        self.apply_bit_tests(p, bits)
    }

    /// Makes `p`'s cells for this walk into the runtime's `bit_mask` (`words` words, each `fill` before
    /// `make` writes them) unless the walk made them already: the walk never changes the state, so the
    /// first candidate's serve the others. False (and nothing kept) when `make` could not.
    #[inline(always)]
    fn once_per_walk(
        &mut self,
        p: &CParam,
        words: usize,
        fill: u64,
        make: impl FnOnce(&mut Self, &mut [u64]) -> R<bool>,
    ) -> R<bool> {
        let key = p as *const CParam as usize;
        if self.rt.bit_mask_of == key {
            return Ok(true);
        }
        let mut mask = std::mem::take(&mut self.rt.bit_mask);
        mask.clear();
        mask.resize(words, fill);
        let made = make(self, &mut mask);
        self.rt.bit_mask = mask;
        if made? {
            self.rt.bit_mask_of = key;
            return Ok(true);
        }
        Ok(false)
    }

    /// Clears in `bits` the cells that fail `p`'s bit tests; false when they cannot be made as bits (a
    /// fixed test that errs on some cell: the candidates are then tested one by one, which errs only if
    /// a candidate reaches it).
    #[inline(always)]
    fn apply_bit_tests(&mut self, p: &CParam, bits: &mut [u64]) -> R<bool> {
        for t in &p.bit_tests {
            if bits.iter().all(|w| *w == 0) {
                break;
            }
            match t {
                BitTest::Empty(e) => {
                    for (w, b) in bits.iter_mut().enumerate() {
                        let occ = self.st.occupied_bits[w];
                        *b &= if *e { !occ } else { occ };
                    }
                }
                BitTest::Owner(eq, x) => {
                    let code = match x.get(self)? {
                        Value::Player(o) => o,
                        _ => NO_OWNER,
                    };
                    for (w, b) in bits.iter_mut().enumerate() {
                        let o = self.st.owner_word(code, w);
                        *b &= if *eq { o } else { !o };
                    }
                }
                BitTest::UnitOwner(eq, x) => {
                    // Cells where `x.unit.owner == y` holds: a unit of `y` is there, or, when `y` is
                    // none, no unit is there (none equals none); anything else equals nothing.
                    let y = x.get(self)?;
                    for (w, b) in bits.iter_mut().enumerate() {
                        let holds = match y {
                            Value::Player(o) => self.st.unit_word(o, w),
                            Value::None => !self.st.occupied_bits[w],
                            _ => 0,
                        };
                        *b &= if *eq { holds } else { !holds };
                    }
                }
                BitTest::CellFlag(offset, want) => {
                    let want = *want;
                    self.keep_by_column(bits, *offset, |raw| (raw != ABSENT && raw != 0) == want);
                }
                BitTest::CellVarIs(offset, eq, n) => {
                    let (eq, n) = (*eq, *n);
                    self.keep_by_column(bits, *offset, |raw| (raw == n) == eq);
                }
                BitTest::Fixed(i, test, slot) => {
                    let Ok(fixed) = fixed_cells(self, *i, test, *slot) else {
                        return Ok(false);
                    };
                    // Fewer words: the one-by-one test found that the condition errs on some cell.
                    if fixed.len() < bits.len() {
                        return Ok(false);
                    }
                    for (b, f) in bits.iter_mut().zip(fixed.iter()) {
                        *b &= f;
                    }
                }
            }
        }
        Ok(true)
    }

    /// Clears in `bits` the cells whose variable at `offset` of their row fails `keep`: the few candidates
    /// left one by one, many as the column read 64 cells at a time without a branch per cell. A cell
    /// variable's test exists only where cells have rows of variables, so `stride` is at least 1.
    #[inline(always)]
    fn keep_by_column(&self, bits: &mut [u64], offset: usize, keep: impl Fn(i64) -> bool) {
        let (stride, n) = (self.game.cell_slots, self.game.board.len());
        let vars = &self.st.cell_vars;
        for (w, b) in bits.iter_mut().enumerate() {
            let start = w * 64;
            if b.count_ones() <= 16 {
                let mut rest = *b;
                while rest != 0 {
                    let bit = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    if !keep(vars[(start + bit) * stride + offset]) {
                        *b &= !(1 << bit);
                    }
                }
                continue;
            }
            let rows = &vars[start * stride..n.min(start + 64) * stride];
            let mut passing = 0u64;
            for (bit, row) in rows.chunks_exact(stride).enumerate() {
                passing |= u64::from(keep(row[offset])) << bit;
            }
            *b &= passing;
        }
    }
}
