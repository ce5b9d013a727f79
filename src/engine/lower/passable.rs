//! A search's passability test made as bits: `steps(a, b, n, it.empty and not it.kind.closed)` asks a
//! condition of every cell the search enters. When the condition is cell emptiness and tests of fixed
//! data (`constant` cell variables, table rows they name, `me`), the passable cells are the free cells
//! (a word of the state's occupancy) and the fixed cells (made once per player, see `fixed_cells`), and the
//! search runs layer by layer on words ([`crate::board::Board::steps_bits`]) instead of asking the condition
//! cell by cell.
use std::rc::Rc;

use super::expr::Cond;
use super::plan::{conjuncts, is_fixed, join};
use super::set::fixed_cells_or_mark;
use super::Lowerer;
use crate::board::CellId;
use crate::engine::machine::Machine;
use crate::ir::Expr;

/// Boards of up to this many words of cells search as bits (the words are kept on the stack).
const MAX_WORDS: usize = 4;

/// A passability condition as bits: its emptiness test and its fixed part.
pub struct PassableBits {
    /// `it.empty` (true) or `not it.empty` (false), if the condition tests it.
    empty: Option<bool>,
    /// The fixed part's index in the per-player cache of fixed cells, and the part itself.
    fixed: Option<(usize, Cond)>,
}

impl Lowerer<'_> {
    /// `pred` (a test of the cell in `slot`) as bits, when it is a conjunction of at most one emptiness test
    /// and tests of fixed data; `None` otherwise (and in a plain lowering).
    pub(super) fn passable_bits(&mut self, pred: &Expr, slot: u16) -> Option<PassableBits> {
        if !(self.opts.specialise && self.opts.scan) {
            return None;
        }
        let mut parts = Vec::new();
        conjuncts(pred.clone(), &mut parts);
        let elem = |x: &Expr| matches!(x, Expr::Local(v) if *v == slot);
        let (mut empty, mut fixed) = (None, Vec::new());
        for p in parts {
            match &p {
                Expr::CellEmpty(c) if elem(c) && empty.is_none() => empty = Some(true),
                Expr::Not(inner)
                    if matches!(&**inner, Expr::CellEmpty(c) if elem(c)) && empty.is_none() =>
                {
                    empty = Some(false)
                }
                _ if is_fixed(&p, slot, &self.constant_slots) => fixed.push(p),
                _ => return None,
            }
        }
        let fixed = join(fixed).map(|f| {
            let i = self.fixed_index();
            (i, self.cond(&f))
        });
        Some(PassableBits { empty, fixed })
    }
}

impl PassableBits {
    /// [`crate::board::Board::steps`] through the cells that pass; `None` when it cannot be made as bits
    /// here (a board of more than [`MAX_WORDS`] words, or a fixed part that errs on some cell: the caller
    /// then searches asking the condition cell by cell, which errs only if the search reaches that cell).
    /// `slot` is the condition's cell; its value is kept.
    #[inline]
    pub fn steps(
        &self,
        m: &mut Machine<'_>,
        from: CellId,
        to: CellId,
        max: u32,
        slot: usize,
    ) -> Option<Option<u32>> {
        let words = m.st.occupied_bits.len();
        if words > MAX_WORDS {
            return None;
        }
        let fixed: Option<Rc<[u64]>> = match &self.fixed {
            Some((i, test)) => {
                let saved = m.rt.locals[slot];
                let fixed = fixed_cells_or_mark(m, *i, test, slot);
                m.rt.locals[slot] = saved;
                if fixed.len() < words {
                    return None;
                }
                Some(fixed)
            }
            None => None,
        };
        // Each word made where the search reads it, not built on the stack first (see
        // `Board::reachable_bits_by`).
        let occupied = &m.st.occupied_bits;
        let passable = |k: usize| {
            let free = match self.empty {
                Some(true) => !occupied[k],
                Some(false) => occupied[k],
                None => !0,
            };
            fixed.as_ref().map_or(free, |f| free & f[k])
        };
        m.game.board.steps_bits_by(from, to, max, words, passable)
    }
}
