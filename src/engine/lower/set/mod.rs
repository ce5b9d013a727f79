//! Sets lowered for native iteration and membership: one type holds both, so `contains(x)` and what `each`
//! yields are decided by the same source, scan and filter. Iteration is generic over the visitor (no
//! dynamic callback per element); planned scans test owners and emptiness on the state arrays directly.
use std::rc::Rc;

mod fold;

use super::columns::ColumnTests;
use super::expr::{is_empty_test, Arg, Cond};
use super::typed::Read;
use super::{plan, Lowerer};
use crate::engine::machine::{Machine, RunError};
use crate::ir::*;
use crate::limits::MAX_WALK;
use crate::model::state::{NO_OWNER, NO_UNIT};
use crate::model::{Ty, Value};

type R<T> = Result<T, RunError>;

/// Where a lowered set's elements come from.
pub enum CSource {
    Cells,
    Units,
    Players,
    Rows(u16),
    Neighbours(Arg),
    Within(Arg, Arg),
    Reachable {
        from: Arg,
        max: Arg,
        slot: usize,
        pred: Cond,
        /// The test is exactly `it.empty`: run it on the occupancy array.
        empty_test: bool,
    },
    Range(Arg, Arg),
    One(Arg),
}

/// Natively tested pre-filters of a cell or unit set.
#[derive(Default)]
pub struct CScan {
    /// Cells passing a condition on data that never changes: computed once per engine and player.
    fixed: Option<(usize, Cond)>,
    /// `owner == x` (or `!=` when false).
    owner: Option<(bool, Arg)>,
    /// `empty` (true) or `not empty` (false).
    empty: Option<bool>,
}

/// A lowered set: source, planned scan, and the rest of the filter (elements are bound to `slot`).
pub struct CSet {
    pub source: CSource,
    pub slot: usize,
    pub filter: Option<Cond>,
    pub elem: Ty,
    scan: CScan,
    /// Whether visiting an element may change the state (a script in the filter, or in what the consumer
    /// evaluates per element): then cells are scanned one by one and their owner and occupant read when
    /// reached, instead of taken from the bit sets a word at a time.
    pub live: bool,
    /// The variable a set of one operand is, when that operand is a variable read in place.
    one_var: Option<(Read, Ty)>,
    /// The filter as comparisons of the element cell's variables, read column-wise (see `columns.rs`).
    columns: Option<ColumnTests>,
}

/// Whether a unit is listed by a unit set with this evaluated owner scan (living units only).
#[inline(always)]
fn unit_passes(unit: &crate::model::state::UnitState, owner: Option<(bool, u8)>) -> bool {
    unit.alive && owner.is_none_or(|(eq, code)| (unit.owner == code) == eq)
}

/// Word `w` of the first `n` units a unit set with this owner scan lists, as bits: one player's units are
/// the state's bits of that player's living units; any other scan tests the word's units one by one.
#[inline(always)]
fn unit_word(m: &Machine<'_>, owner: Option<(bool, u8)>, w: usize, n: usize) -> u64 {
    let players = m.game.players.len();
    let end = n.min(w * 64 + 64);
    match owner {
        Some((true, code)) if (code as usize) < players => {
            let word = m.st.living_word(code, w, players);
            let kept = end - w * 64;
            if kept == 64 {
                word
            } else {
                word & ((1u64 << kept) - 1)
            }
        }
        _ => (w * 64..end).fold(0, |bits, u| {
            bits | u64::from(unit_passes(&m.st.units[u], owner)) << (u % 64)
        }),
    }
}

/// The owner byte a player value stands for (none is nobody).
#[inline]
fn owner_code(v: Value) -> u8 {
    match v {
        Value::Player(p) => p,
        _ => NO_OWNER,
    }
}

impl CSet {
    pub(super) fn lower(lw: &mut Lowerer, s: &SetExpr) -> CSet {
        let planned;
        let s = if lw.opts.scan {
            let mut copy = s.clone();
            plan::plan_set(&mut copy, &lw.constant_slots);
            planned = copy;
            &planned
        } else {
            s
        };
        let source = match &s.source {
            SetSource::Cells => CSource::Cells,
            SetSource::Units => CSource::Units,
            SetSource::Players => CSource::Players,
            SetSource::Rows(t) => CSource::Rows(*t),
            SetSource::Neighbours(c) => CSource::Neighbours(lw.arg(c)),
            SetSource::Within(c, r) => CSource::Within(lw.arg(c), lw.arg(r)),
            SetSource::Reachable {
                from,
                max,
                slot,
                pred,
            } => CSource::Reachable {
                from: lw.arg(from),
                max: lw.arg(max),
                slot: *slot as usize,
                empty_test: lw.opts.specialise && is_empty_test(pred, *slot),
                pred: lw.cond(pred),
            },
            SetSource::Range(lo, hi) => CSource::Range(lw.arg(lo), lw.arg(hi)),
            SetSource::One(e) => CSource::One(lw.arg(e)),
        };
        let fixed = s.scan.fixed.as_ref().map(|e| {
            let i = lw.fixed_sets;
            lw.fixed_sets += 1;
            (i, lw.cond(e))
        });
        let owner = s.scan.owner.as_ref().map(|(eq, e)| (*eq, lw.arg(e)));
        let live = !lw.opts.scan || s.filter.as_ref().is_some_and(|f| !f.reads(&mut Vec::new()));
        let one_var = match &s.source {
            SetSource::One(e) if lw.opts.specialise => Read::var(e),
            _ => None,
        };
        let columns = match (&source, &s.filter) {
            (CSource::Cells, Some(f)) if lw.opts.specialise && lw.opts.scan && !live => {
                ColumnTests::of(f, s.slot)
            }
            _ => None,
        };
        CSet {
            source,
            slot: s.slot as usize,
            filter: s.filter.as_ref().map(|f| lw.cond(f)),
            elem: s.elem,
            scan: CScan {
                fixed,
                owner,
                empty: s.scan.empty,
            },
            live,
            one_var,
            columns,
        }
    }

    /// The planned owner test evaluated for this position: whether it is `==`, and the owner's byte.
    #[inline(always)]
    fn owner_scan(&self, m: &mut Machine<'_>) -> R<Option<(bool, u8)>> {
        Ok(match &self.scan.owner {
            Some((eq, e)) => Some((*eq, owner_code(e.get(m)?))),
            None => None,
        })
    }

    /// Cells picked by planned scans alone (no filter left, nothing live): [`CSet::bits`] always lists
    /// such a set.
    pub fn plain_cells(&self) -> bool {
        matches!(self.source, CSource::Cells) && self.filter.is_none() && !self.live
    }

    /// Whether this is the match's units with no filter (an owner test at most, planned as a scan).
    pub fn plain_units(&self) -> bool {
        matches!(self.source, CSource::Units) && self.filter.is_none()
    }

    /// The units of a [`CSet::plain_units`] set in order, each passed to `f` (which must not change which
    /// units live or who owns them); the last one is left in the set's local, as [`CSet::each`] leaves it.
    #[inline]
    pub fn each_plain_unit(
        &self,
        m: &mut Machine<'_>,
        mut f: impl FnMut(&mut Machine<'_>, usize),
    ) -> R<()> {
        let owner = self.owner_scan(m)?;
        let mut last = None;
        let n = m.st.units.len();
        for w in 0..n.div_ceil(64) {
            let mut bits = unit_word(m, owner, w, n);
            while bits != 0 {
                let u = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                f(m, u);
                last = Some(u);
            }
        }
        if let Some(u) = last {
            m.rt.locals[self.slot] = Value::Unit(u as u32);
        }
        Ok(())
    }

    /// Whether this is the board's cells picked by planned scans alone (`cells where kind.open`, the
    /// test on data that never changes): [`CSet::bits`] lists it a word at a time.
    pub fn scans_as_bits(&self) -> bool {
        matches!(self.source, CSource::Cells) && self.filter.is_none() && !self.live
    }

    /// The one operand a set of at most one element is (`cells where it == x`), when nothing else filters it.
    pub fn single(&self) -> Option<&Arg> {
        match &self.source {
            CSource::One(a)
                if self.filter.is_none()
                    && self.scan.fixed.is_none()
                    && self.scan.owner.is_none()
                    && self.scan.empty.is_none() =>
            {
                Some(a)
            }
            _ => None,
        }
    }

    /// The variable the one operand of [`CSet::single`] is, when it is a cell variable read in place
    /// (`cells where it == opponent.home`).
    pub fn single_cell_read(&self) -> Option<Read> {
        match (self.single(), self.one_var) {
            (Some(_), Some((r, Ty::Cell))) => Some(r),
            _ => None,
        }
    }

    /// The value of the one operand of [`CSet::single`], read in place when it is a variable.
    #[inline(always)]
    pub fn single_value(&self, m: &mut Machine<'_>, x: &Arg) -> R<Value> {
        match self.one_var {
            Some((r, ty)) => Ok(r.value(m, ty)),
            None => x.get(m),
        }
    }

    /// Calls `f` for every element that passes the filter, with the element bound to the set's slot;
    /// `f` returns false to stop early.
    #[inline]
    pub fn each<F>(&self, m: &mut Machine<'_>, mut f: F) -> R<()>
    where
        F: FnMut(&mut Machine<'_>, Value) -> R<bool>,
    {
        let slot = self.slot;
        macro_rules! visit {
            ($v:expr) => {{
                let v = $v;
                m.rt.locals[slot] = v;
                let pass = match &self.filter {
                    Some(c) => c(m)?,
                    None => true,
                };
                if pass {
                    m.rt.locals[slot] = v;
                    if !f(m, v)? {
                        return Ok(());
                    }
                }
            }};
        }
        let g = m.game;
        match &self.source {
            CSource::Cells => {
                let (owner, empty, fixed) = self.cell_scan(m)?;
                let n = g.board.len();
                if self.live {
                    for c in 0..n as u32 {
                        let (w, bit) = (c as usize / 64, 1u64 << (c % 64));
                        if fixed.as_ref().is_some_and(|f| f[w] & bit == 0) {
                            continue;
                        }
                        if let Some((eq, code)) = owner {
                            if (m.st.owner[c as usize] == code) != eq {
                                continue;
                            }
                        }
                        if let Some(e) = empty {
                            if (m.st.occupant[c as usize] == NO_UNIT) != e {
                                continue;
                            }
                        }
                        visit!(Value::Cell(c));
                    }
                    return Ok(());
                }
                // A word of 64 cells at a time: the planned scans are bit operations.
                let scan = (owner, empty, fixed);
                for w in 0..n.div_ceil(64) {
                    let mut bits = scan_word(m, n, w, &scan);
                    while bits != 0 {
                        let c = (w * 64) as u32 + bits.trailing_zeros();
                        bits &= bits - 1;
                        visit!(Value::Cell(c));
                    }
                }
            }
            CSource::Units => {
                let owner = self.owner_scan(m)?;
                let n = m.st.units.len();
                for w in 0..n.div_ceil(64) {
                    let mut bits = unit_word(m, owner, w, n);
                    while bits != 0 {
                        let u = w * 64 + bits.trailing_zeros() as usize;
                        bits &= bits - 1;
                        // Tested again as it is reached: what an earlier element's visit did counts.
                        if unit_passes(&m.st.units[u], owner) {
                            visit!(Value::Unit(u as u32));
                        }
                    }
                }
            }
            CSource::Players => {
                for p in 0..g.players.len() {
                    visit!(Value::Player(p as u8));
                }
            }
            CSource::Rows(t) => {
                for r in 0..g.tables[*t as usize].keys.len() {
                    visit!(Value::Row(*t, r as u16));
                }
            }
            CSource::Neighbours(c) => {
                if let Some(c) = c.cell(m)? {
                    for &n in g.board.neighbours(c) {
                        visit!(Value::Cell(n));
                    }
                }
            }
            CSource::One(e) => {
                let v = e.get(m)?;
                if !v.is_none() {
                    visit!(v);
                }
            }
            CSource::Range(lo, hi) => {
                let lo = lo.int_or(m, 0)?;
                let hi = hi.int_or(m, -1)?;
                if hi >= lo && (i128::from(hi) - i128::from(lo)) >= MAX_WALK as i128 {
                    return Err(RunError::new(format!(
                        "range({lo}, {hi}) would be walked past {MAX_WALK} elements; count it without a filter, or narrow it"
                    )));
                }
                let mut i = lo;
                while i <= hi {
                    visit!(Value::Int(i));
                    if i == hi {
                        break;
                    }
                    i += 1;
                }
            }
            CSource::Within(c, r) => {
                let Some(c) = c.cell(m)? else {
                    return Ok(());
                };
                let r = r.int_or(m, 0)?.clamp(0, u32::MAX as i64) as u32;
                let mut buf = m.rt.take_cells();
                g.board.within(c, r, &mut buf);
                let result = self.visit_listed(m, buf.iter().copied(), &mut f);
                m.rt.give_cells(buf);
                return result;
            }
            CSource::Reachable {
                from,
                max,
                slot: pslot,
                pred,
                empty_test,
            } => {
                let Some(c) = from.cell(m)? else {
                    return Ok(());
                };
                let max = max.int_or(m, 0)?.clamp(0, u32::MAX as i64) as u32;
                if *empty_test && !self.live {
                    // Through empty cells on a small board: a flood of bit sets, listed in board order.
                    let mut reached = std::mem::take(&mut m.rt.reached);
                    reached.clear();
                    reached.resize(g.board.len().div_ceil(64), 0);
                    if reachable_through_empty(m, c, max, &mut reached) {
                        let mut result = Ok(());
                        'words: for (w, &word) in reached.iter().enumerate() {
                            let mut b = word;
                            while b != 0 {
                                let cell = (w * 64) as u32 + b.trailing_zeros();
                                b &= b - 1;
                                let v = Value::Cell(cell);
                                m.rt.locals[slot] = v;
                                let pass = match &self.filter {
                                    Some(c) => match c(m) {
                                        Ok(p) => p,
                                        Err(e) => {
                                            result = Err(e);
                                            break 'words;
                                        }
                                    },
                                    None => true,
                                };
                                if pass {
                                    m.rt.locals[slot] = v;
                                    match f(m, v) {
                                        Ok(true) => {}
                                        Ok(false) => break 'words,
                                        Err(e) => {
                                            result = Err(e);
                                            break 'words;
                                        }
                                    }
                                }
                            }
                        }
                        m.rt.reached = reached;
                        return result;
                    }
                    m.rt.reached = reached;
                }
                let mut pairs = m.rt.take_pairs();
                let mut scratch = std::mem::take(&mut m.rt.search);
                let mut failure = None;
                if *empty_test {
                    let occupant = &m.st.occupant;
                    g.board.reachable(
                        c,
                        max,
                        |x| occupant[x as usize] == NO_UNIT,
                        &mut scratch,
                        &mut pairs,
                    );
                } else {
                    g.board.reachable(
                        c,
                        max,
                        |x| {
                            m.rt.locals[*pslot] = Value::Cell(x);
                            pred(m).unwrap_or_else(|e| {
                                failure = Some(e);
                                false
                            })
                        },
                        &mut scratch,
                        &mut pairs,
                    );
                }
                m.rt.search = scratch;
                let result = match failure {
                    Some(e) => Err(e),
                    None => self.visit_listed(m, pairs.iter().map(|&(n, _)| n), &mut f),
                };
                m.rt.give_pairs(pairs);
                return result;
            }
        }
        Ok(())
    }

    /// Visits cells listed into a buffer through the set's filter.
    fn visit_listed<F>(
        &self,
        m: &mut Machine<'_>,
        cells: impl Iterator<Item = u32>,
        f: &mut F,
    ) -> R<()>
    where
        F: FnMut(&mut Machine<'_>, Value) -> R<bool>,
    {
        for n in cells {
            let v = Value::Cell(n);
            m.rt.locals[self.slot] = v;
            if let Some(c) = &self.filter {
                if !c(m)? {
                    continue;
                }
                m.rt.locals[self.slot] = v;
            }
            if !f(m, v)? {
                break;
            }
        }
        Ok(())
    }

    /// The elements as bits in board order when this set can be listed so (no filter; cells within a
    /// radius, reachable through empty cells on a small board, or picked by planned scans alone), written
    /// to `out` (one word per 64 cells of the board); `false` (and `out` unspecified) otherwise. The same
    /// elements `each` would visit.
    pub fn bits(&self, m: &mut Machine<'_>, out: &mut [u64]) -> R<bool> {
        if self.filter.is_some() || self.live {
            return Ok(false);
        }
        let g = m.game;
        match &self.source {
            CSource::Within(c, r) => {
                let Some(c) = c.cell(m)? else {
                    out.fill(0);
                    return Ok(true);
                };
                let r = r.int_or(m, 0)?.clamp(0, u32::MAX as i64) as u32;
                g.board.within_bits(c, r, out);
                Ok(true)
            }
            CSource::Reachable {
                from,
                max,
                empty_test: true,
                ..
            } => {
                let Some(c) = from.cell(m)? else {
                    out.fill(0);
                    return Ok(true);
                };
                let max = max.int_or(m, 0)?.clamp(0, u32::MAX as i64) as u32;
                Ok(reachable_through_empty(m, c, max, out))
            }
            CSource::Cells => {
                let n = g.board.len();
                if self.scan.owner.is_none()
                    && self.scan.empty.is_none()
                    && self.scan.fixed.is_none()
                {
                    // Every cell (a parameter drawn from no set): whole words, the last one cut to the board.
                    for (w, o) in out.iter_mut().enumerate() {
                        *o = if (w + 1) * 64 > n {
                            (1u64 << (n % 64)) - 1
                        } else {
                            !0
                        };
                    }
                    return Ok(true);
                }
                let scan = self.cell_scan(m)?;
                for (w, o) in out.iter_mut().enumerate() {
                    *o = scan_word(m, n, w, &scan);
                }
                Ok(true)
            }
            _ => Ok(false),
        }
    }

    /// The planned scans of a cell set, evaluated for this position: the owner test (with the owner's
    /// byte), the emptiness test and the fixed cells.
    fn cell_scan(&self, m: &mut Machine<'_>) -> R<CellScan> {
        let owner = self.owner_scan(m)?;
        let fixed = match &self.scan.fixed {
            Some((i, e)) => Some(fixed_cells(m, *i, e, self.slot)?),
            None => None,
        };
        Ok((owner, self.scan.empty, fixed))
    }

    /// Whether the set has any element.
    pub fn any(&self, m: &mut Machine<'_>) -> R<bool> {
        let mut found = false;
        self.each(m, |_, _| {
            found = true;
            Ok(false)
        })?;
        Ok(found)
    }

    /// Whether a cell passes the planned native tests.
    fn passes_scan(&self, m: &mut Machine<'_>, c: u32) -> R<bool> {
        if let Some((eq, e)) = &self.scan.owner {
            let code = owner_code(e.get(m)?);
            if (m.st.owner[c as usize] == code) != *eq {
                return Ok(false);
            }
        }
        if let Some(e) = self.scan.empty {
            if (m.st.occupant[c as usize] == NO_UNIT) != e {
                return Ok(false);
            }
        }
        if let Some((i, e)) = &self.scan.fixed {
            let bits = fixed_cells(m, *i, e, self.slot)?;
            return Ok(bits[c as usize / 64] & (1 << (c % 64)) != 0);
        }
        Ok(true)
    }

    /// Whether `v` belongs to the set (decided natively where the source allows).
    pub fn contains(&self, m: &mut Machine<'_>, v: Value) -> R<bool> {
        let g = m.game;
        let in_source = match (&self.source, v) {
            (CSource::Cells, Value::Cell(c)) => {
                (c as usize) < g.board.len() && self.passes_scan(m, c)?
            }
            (CSource::Units, Value::Unit(u)) => {
                let owner = self.owner_scan(m)?;
                m.st.units
                    .get(u as usize)
                    .is_some_and(|unit| unit_passes(unit, owner))
            }
            (CSource::Players, Value::Player(p)) => (p as usize) < g.players.len(),
            (CSource::Rows(t), Value::Row(t2, _)) => *t == t2,
            (CSource::Neighbours(c), Value::Cell(x)) => match c.cell(m)? {
                Some(c) => g.board.adjacent(c, x),
                None => false,
            },
            (CSource::Within(c, r), Value::Cell(x)) => {
                let r = r.int_or(m, 0)?;
                match c.cell(m)? {
                    Some(c) => g
                        .board
                        .distance(c, x)
                        .is_some_and(|d| d >= 1 && d as i64 <= r),
                    None => false,
                }
            }
            (CSource::One(e), v) => e.get(m)? == v,
            (CSource::Range(lo, hi), Value::Int(i)) => {
                let lo = lo.int_or(m, 0)?;
                let hi = hi.int_or(m, -1)?;
                lo <= i && i <= hi
            }
            (
                CSource::Reachable {
                    from,
                    max,
                    slot,
                    pred,
                    ..
                },
                Value::Cell(x),
            ) => {
                let Some(c) = from.cell(m)? else {
                    return Ok(false);
                };
                if c == x {
                    return Ok(false);
                }
                m.rt.locals[*slot] = Value::Cell(x);
                if !pred(m)? {
                    return Ok(false);
                }
                let max = max.int_or(m, 0)?.clamp(0, u32::MAX as i64) as u32;
                let mut scratch = std::mem::take(&mut m.rt.search);
                let mut failure = None;
                let r = g.board.steps(
                    c,
                    x,
                    max,
                    |y| {
                        m.rt.locals[*slot] = Value::Cell(y);
                        pred(m).unwrap_or_else(|e| {
                            failure = Some(e);
                            false
                        })
                    },
                    &mut scratch,
                );
                m.rt.search = scratch;
                if let Some(e) = failure {
                    return Err(e);
                }
                r.is_some_and(|d| d >= 1)
            }
            _ => false,
        };
        if !in_source {
            return Ok(false);
        }
        match &self.filter {
            Some(f) => {
                m.rt.locals[self.slot] = v;
                f(m)
            }
            None => Ok(true),
        }
    }
}

/// The cells passing fixed pre-filter `i` for the current player as bits, computed on first use and kept
/// by the engine (a fixed condition may mention `me` or `opponent`, so each player has its own set).
impl Lowerer<'_> {
    /// A test of cell parameter `slot` that reads only the cell's data that never changes, constants and
    /// `me` (`at.col < 3 or me == 'North'`): evaluated once per engine and player for every cell, then read
    /// as a bit. When it fails with an error on some cell, it is evaluated cell by cell as written (so the
    /// same candidates meet the same error).
    pub(super) fn fixed_test(&mut self, test: Cond, slot: u16) -> Cond {
        let i = self.fixed_index();
        self.fixed_test_at(i, test, slot)
    }

    /// A new index of the per-player cache of fixed cells (`Runtime::fixed`).
    pub(super) fn fixed_index(&mut self) -> usize {
        self.fixed_sets += 1;
        self.fixed_sets - 1
    }

    /// [`Lowerer::fixed_test`] with the cells kept at cache index `i` (shared with a bit test of the same
    /// condition, which then sees when the condition erred on some cell).
    pub(super) fn fixed_test_at(&mut self, i: usize, test: Cond, slot: u16) -> Cond {
        let slot = slot as usize;
        Box::new(move |m: &mut Machine<'_>| -> R<bool> {
            let Value::Cell(c) = m.rt.locals[slot] else {
                return test(m);
            };
            let bits = fixed_cells_or_mark(m, i, &test, slot);
            m.rt.locals[slot] = Value::Cell(c);
            match bits.get(c as usize / 64) {
                Some(w) => Ok(w >> (c % 64) & 1 == 1),
                None => test(m),
            }
        })
    }
}

/// A cell set's planned scans for one position (see [`CSet::cell_scan`]).
type CellScan = (Option<(bool, u8)>, Option<bool>, Option<Rc<[u64]>>);

/// The cells reachable from `c` in 1 to `max` steps through empty cells, as bits written to `out` (one word
/// per 64 cells of the board); false on boards too large for a bit search (see [`Board::reachable_bits`]).
/// The free cells are on the stack for boards of up to 256 cells (filling a vector cost more than the copy).
///
/// [`Board::reachable_bits`]: crate::board::Board::reachable_bits
#[inline]
fn reachable_through_empty(m: &mut Machine<'_>, c: u32, max: u32, out: &mut [u64]) -> bool {
    let (board, rt, occupied) = (&m.game.board, &mut *m.rt, &m.st.occupied_bits);
    // The free cells read from the occupied ones word by word, not built first (see `reachable_bits_by`).
    board.reachable_bits_by(
        c,
        max,
        occupied.len(),
        |k| !occupied[k],
        &mut rt.search,
        out,
    )
}

/// Word `w` of the cells of an `n`-cell board that pass the planned scans `scan`.
#[inline(always)]
fn scan_word(m: &Machine<'_>, n: usize, w: usize, scan: &CellScan) -> u64 {
    let (owner, empty, fixed) = scan;
    let mut bits = if (w + 1) * 64 > n {
        (1u64 << (n % 64)) - 1
    } else {
        !0
    };
    if let Some(f) = fixed {
        bits &= f[w];
    }
    if let Some((eq, code)) = *owner {
        let o = m.st.owner_word(code, w);
        bits &= if eq { o } else { !o };
    }
    if let Some(e) = *empty {
        let occ = m.st.occupied_bits[w];
        bits &= if e { !occ } else { occ };
    }
    bits
}

/// [`fixed_cells`], or no words when the condition errs on some cell, marked so in the cache (so each use
/// learns it at once and tests cell by cell, meeting the error only where a candidate reaches it). The
/// slot's value may be changed.
pub(crate) fn fixed_cells_or_mark(
    m: &mut Machine<'_>,
    i: usize,
    e: &Cond,
    slot: usize,
) -> Rc<[u64]> {
    match fixed_cells(m, i, e, slot) {
        Ok(bits) => bits,
        Err(_) => {
            let key = i * m.game.players.len() + m.me as usize;
            if m.rt.fixed.len() <= key {
                m.rt.fixed.resize(key + 1, None);
            }
            let none: Rc<[u64]> = Rc::from([]);
            m.rt.fixed[key] = Some(none.clone());
            none
        }
    }
}

pub(crate) fn fixed_cells(m: &mut Machine<'_>, i: usize, e: &Cond, slot: usize) -> R<Rc<[u64]>> {
    let key = i * m.game.players.len() + m.me as usize;
    if let Some(Some(v)) = m.rt.fixed.get(key) {
        return Ok(v.clone());
    }
    let saved = m.rt.locals[slot];
    let n = m.game.board.len();
    let mut out = vec![0u64; n.div_ceil(64)];
    for c in 0..n as u32 {
        m.rt.locals[slot] = Value::Cell(c);
        if e(m)? {
            out[c as usize / 64] |= 1 << (c % 64);
        }
    }
    m.rt.locals[slot] = saved;
    let rc: Rc<[u64]> = out.into();
    if m.rt.fixed.len() <= key {
        m.rt.fixed.resize(key + 1, None);
    }
    m.rt.fixed[key] = Some(rc.clone());
    Ok(rc)
}
