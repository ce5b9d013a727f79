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
        let stride = g.cell_slots;
        for c in 0..g.board.len() {
            let raw = self.st.cell_vars[c * stride + offset];
            // An unset variable is none: no range reaches it.
            if raw == ABSENT || raw < lo {
                continue;
            }
            if product {
                let size = (i128::from(raw) - i128::from(lo) + 1).min(u64::MAX as i128) as u64;
                let cells = g.board.neighbours(c as u32);
                match sink.cell_neighbours_range(act.kind, args, c as u32, cells, lo, size) {
                    Some(Ok(true)) => continue,
                    Some(Ok(false)) => return Ok(Some(false)),
                    Some(Err(e)) => return Err(e),
                    // This sink takes no blocks: the visit lists the actions one by one.
                    None => {}
                }
            }
            let cell = super::legal::CellCandidate(c as u32);
            self.rt.bounds[j] = (Value::Int(lo), Value::Int(raw));
            if !self.visit(act, p, i, cell, args, sink, Known::FirstRange)? {
                return Ok(Some(false));
            }
        }
        Ok(Some(true))
    }
}
