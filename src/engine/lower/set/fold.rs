//! Aggregates of a set computed from the state's columns: the number of elements, and sums whose summand is
//! arithmetic on the element cell's own variables (`column_term.rs`), for cells picked by planned scans and
//! a filter of column tests (`columns.rs`). Both mean exactly what the generic fold over `each` means.
use super::super::column_term::{ColumnTerm, LANES, LANES_SCRATCH};
use super::super::columns::{self, Ready};
use super::{scan_word, CSet, CSource, CellScan, R};
use crate::engine::machine::Machine;
use crate::model::value::ABSENT;

impl CSet {
    /// The sum of `term`, a summand over the element cell's own variables (`column_term.rs`), over this
    /// set, computed from the columns cell after cell, when the set is cells picked by planned scans and
    /// perhaps a filter of column tests (`sum(cells where owner == me, count - used)`); `None` otherwise,
    /// and when the summand or the total would raise an error (the generic sum raises it). Unset variables
    /// are none, which adds nothing.
    pub fn sum_column_term(&self, m: &mut Machine<'_>, term: &ColumnTerm) -> R<Option<i64>> {
        let (CSource::Cells, false) = (&self.source, self.live) else {
            return Ok(None);
        };
        if self.filter.is_some() && self.columns.is_none() {
            return Ok(None);
        }
        let scan = self.cell_scan(m)?;
        // One variable over the scanned cells alone (`sum(cells where owner == me, yield)`): its column.
        if let (None, Some(Ready::Column(offset))) = (&self.filter, term.single(m)) {
            return fold_scanned(m, &scan, Some(0i64), |total, row| {
                Ok(match (total, row[offset]) {
                    (Some(total), ABSENT) => Some(total),
                    (Some(total), raw) => total.checked_add(raw),
                    (None, _) => None,
                })
            });
        }
        let tests = match (&self.filter, &self.columns) {
            (Some(_), Some(tests)) => Some(tests.ready(m)),
            _ => None,
        };
        // A word of cells at a time: the rows of those the scans pick and the tests pass, then the summand
        // for all of them. Added in board order, so an overflow of the total happens where it would.
        let (n, stride) = (m.game.board.len(), m.game.cell_slots);
        let mut lanes = std::mem::take(&mut m.rt.lanes);
        let mut rows = std::mem::take(&mut m.rt.lane_rows);
        lanes.resize(LANES_SCRATCH, 0);
        rows.resize(LANES, 0);
        let mut total = Some(0i64);
        for w in 0..n.div_ceil(64) {
            let mut bits = scan_word(m, n, w, &scan);
            if let Some((tests, t)) = &tests {
                bits = columns::filter_word(&tests[..*t], &m.st.cell_vars, stride, w * 64, bits);
            }
            let mut k = 0;
            while bits != 0 {
                let row = (w * 64 + bits.trailing_zeros() as usize) * stride;
                bits &= bits - 1;
                rows[k] = row;
                k += 1;
            }
            total = total.and_then(|t| term.add_to(m, t, &rows[..k], &mut lanes).ok());
            if total.is_none() {
                break;
            }
        }
        m.rt.lanes = lanes;
        m.rt.lane_rows = rows;
        Ok(total)
    }

    /// Number of elements.
    pub fn count(&self, m: &mut Machine<'_>) -> R<i64> {
        // Cells picked by planned scans alone: the bits of each word counted at once.
        if let (CSource::Cells, None, false) = (&self.source, &self.filter, self.live) {
            let scan = self.cell_scan(m)?;
            let n = m.game.board.len();
            return Ok((0..n.div_ceil(64))
                .map(|w| i64::from(scan_word(m, n, w, &scan).count_ones()))
                .sum());
        }
        // A filter comparing the element's own variables: read from their columns, cell after cell.
        if let (CSource::Cells, Some(tests), false) = (&self.source, &self.columns, self.live) {
            let scan = self.cell_scan(m)?;
            let (tests, k) = tests.ready(m);
            let (n, stride) = (m.game.board.len(), m.game.cell_slots);
            let mut count = 0i64;
            for w in 0..n.div_ceil(64) {
                let bits = scan_word(m, n, w, &scan);
                let bits = columns::filter_word(&tests[..k], &m.st.cell_vars, stride, w * 64, bits);
                count += i64::from(bits.count_ones());
            }
            return Ok(count);
        }
        let mut n = 0i64;
        self.each(m, |_, _| {
            n += 1;
            Ok(true)
        })?;
        Ok(n)
    }
}

/// Folds `f` over the variables of each cell the planned scans pick, in board order.
#[inline(always)]
fn fold_scanned<T>(
    m: &Machine<'_>,
    scan: &CellScan,
    init: T,
    mut f: impl FnMut(T, &[i64]) -> R<T>,
) -> R<T> {
    let (n, stride) = (m.game.board.len(), m.game.cell_slots);
    let mut acc = init;
    for w in 0..n.div_ceil(64) {
        let mut bits = scan_word(m, n, w, scan);
        while bits != 0 {
            let c = w * 64 + bits.trailing_zeros() as usize;
            bits &= bits - 1;
            acc = f(acc, &m.st.cell_vars[c * stride..(c + 1) * stride])?;
        }
    }
    Ok(acc)
}
