//! Cell parameters listed by scanning a variable's column. When the first test of a cell parameter is a
//! range whose upper bound is one of that cell's own whole-number variables and whose lower bound is a
//! constant (`from` with `amount` in `1..from.pieces[me]`), the candidates are the cells where that
//! variable reaches the constant: the column is read straight from the state, cell after cell, instead of
//! binding each cell and evaluating the bounds through their operands. Cells are visited in board order
//! with the same bounds kept, so listing gives the same actions in the same order.
use super::legal::{Known, Sink};
use super::lower::typed::{IntArg, Read};
use super::lower::Arg;
use super::lower::{Bounds, CAction, CParam, CSource};
use super::machine::{Machine, RunError};
use crate::model::action::ArgList;
use crate::model::value::ABSENT;
use crate::model::Value;

impl Machine<'_> {
    /// Visits every cell that passes the quick range of `p` (see [`CParam::quick_range`]) by scanning the
    /// variable's column; `None` when the range has another shape (the caller then tests cell by cell).
    pub(super) fn walk_cells_by_column<S: Sink>(
        &mut self,
        act: &CAction,
        p: &CParam,
        i: usize,
        args: &mut ArgList,
        sink: &mut S,
    ) -> Result<Option<bool>, RunError> {
        let Some(k) = p.quick_range else {
            return Ok(None);
        };
        let (Bounds::Typed(IntArg::Const(lo), IntArg::Var(read)), j) = &p.ranges[k] else {
            return Ok(None);
        };
        let (lo, j) = (*lo, *j);
        // The variable's slot within each cell's row of variables; the cell must be this parameter's.
        let offset = match *read {
            Read::Cell { local, offset } if local == p.slot => offset,
            Read::CellOf { local, offset, who } if local == p.slot => match who.player(self) {
                Some(pl) => offset + pl as usize,
                None => return Ok(None),
            },
            _ => return Ok(None),
        };
        // When the next parameters are a product of this cell's neighbours x an amount that takes this very
        // range, and this range is the parameter's only one, a visit would test nothing more and hand the
        // sink one block per cell (`walk_product`): the block goes to the sink here, without the visit, and
        // names the cell instead of copying its neighbours (nothing is bound unless the sink declines).
        let product = match (act.params.get(i + 1), p.ranges.len()) {
            (Some(next), 1) if next.product_block && j == i + 2 => {
                match next.source.as_ref().map(|s| &s.source) {
                    // Neighbours of this very cell: no operand to evaluate per cell.
                    Some(CSource::Neighbours(Arg::Local(s))) if *s as usize == p.slot => true,
                    _ => false,
                }
            }
            _ => false,
        };
        let g = self.game;
        let (stride, n) = (g.cell_slots, g.board.len());
        // The cells that reach `lo`, 64 at a time, as bits made without a branch per cell: which cells hold
        // pieces is as good as random, and a branch on it per cell mispredicted about half the time (a
        // third of this scan's time went to those). Listing changes nothing, so the bits stay true.
        // Every cell has a row of `stride` variables holding this one (analysis made it a slot of the row):
        // said once here, so the compiler drops the check of each cell's read.
        if offset >= stride || self.st.cell_vars.len() < n * stride {
            return Ok(None);
        }
        // An unset variable is none, which no range reaches: unset is the smallest number, so one
        // comparison with a bound above it tests both.
        let reach = lo.max(ABSENT + 1);
        for w in 0..n.div_ceil(64) {
            let start = w * 64;
            let mut bits = 0u64;
            let rows = &self.st.cell_vars[start * stride..n.min(start + 64) * stride];
            for (bit, row) in rows.chunks_exact(stride).enumerate() {
                bits |= u64::from(row[offset] >= reach) << bit;
            }
            while bits != 0 {
                let c = start + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if !self.visit_column_cell(act, p, i, args, sink, (c, offset, lo, j), product)? {
                    return Ok(Some(false));
                }
            }
        }
        Ok(Some(true))
    }

    /// One cell of [`Machine::walk_cells_by_column`] whose variable (at `offset` in its row) reaches `lo`:
    /// its neighbours x amounts as one block when `product`, else visited; false when the sink asked to stop.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)] // the walk's state, passed explicitly on the hot path
    fn visit_column_cell<S: Sink>(
        &mut self,
        act: &CAction,
        p: &CParam,
        i: usize,
        args: &mut ArgList,
        sink: &mut S,
        (c, offset, lo, j): (usize, usize, i64, usize),
        product: bool,
    ) -> Result<bool, RunError> {
        let g = self.game;
        let raw = self.st.cell_vars[c * g.cell_slots + offset];
        if product {
            let size = super::legal::range_size(lo, raw);
            let cells = g.board.neighbours(c as u32);
            // A sink that takes no blocks answers none: the visit lists the actions one by one.
            if let Some(r) = sink.cell_neighbours_range(act.kind, args, c as u32, cells, lo, size) {
                return r;
            }
        }
        let cell = super::legal::CellCandidate(c as u32);
        self.rt.bounds[j] = (Value::Int(lo), Value::Int(raw));
        self.visit(act, p, i, cell, args, sink, Known::FirstRange)
    }
}
