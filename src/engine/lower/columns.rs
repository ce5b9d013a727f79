//! Filters of a cell set that compare whole-number variables of the element cell (`count > used`,
//! `arriving[me] >= 4`) with each other or with values that do not depend on the element: tested by
//! reading the variables' columns cell after cell, without binding each cell and calling the filter's
//! closure. They mean what the lowered filter means (the same comparison of optional numbers as
//! `typed_cond` makes of the same operands), so a set counts the same cells either way.
use super::typed::{compare_opt, IntArg, Read, Who};
use crate::engine::machine::Machine;
use crate::ir::{BinOp, Expr};
use crate::model::value::ABSENT;

/// One side of a comparison (or an operand of a summand, `column_term.rs`): a variable of the element
/// cell (its slot, and the player of a per-player variable), or an operand read once per use of the set.
pub enum Side {
    Element(usize, Option<Who>),
    Fixed(IntArg),
}

impl Side {
    /// The side for the cells of one use of the set: the player of a per-player variable and a fixed
    /// operand read now.
    pub fn ready(&self, m: &Machine<'_>) -> Ready {
        match self {
            Side::Element(offset, None) => Ready::Column(*offset),
            Side::Element(offset, Some(who)) => match who.player(m) {
                Some(p) => Ready::Column(offset + p as usize),
                None => Ready::Value(None),
            },
            Side::Fixed(a) => Ready::Value(a.get(m)),
        }
    }
}

/// A side ready for the cells of one use of the set.
#[derive(Clone, Copy)]
pub enum Ready {
    /// The variable's slot in each cell's row.
    Column(usize),
    Value(Option<i64>),
}

/// Comparisons that must all hold.
pub struct ColumnTests(Vec<(BinOp, Side, Side)>);

/// Most comparisons a filter of this shape has (more: the filter's closure tests it).
const MAX_TESTS: usize = 4;

/// A comparison ready for the cells of one use of the set.
pub type Test = (BinOp, Ready, Ready);

impl ColumnTests {
    /// The tests of `filter` (comparisons joined by `and`) over the element in `slot`, when it has that
    /// shape.
    pub fn of(filter: &Expr, slot: u16) -> Option<ColumnTests> {
        let mut tests = Vec::new();
        collect(filter, slot as usize, &mut tests)?;
        (tests.len() <= MAX_TESTS).then_some(ColumnTests(tests))
    }

    /// The tests for this use of the set (the players of per-player variables and the fixed operands read
    /// now), and how many there are.
    #[inline(always)]
    pub fn ready(&self, m: &Machine<'_>) -> ([Test; MAX_TESTS], usize) {
        let mut out = [(BinOp::Eq, Ready::Value(None), Ready::Value(None)); MAX_TESTS];
        for (o, (op, a, b)) in out.iter_mut().zip(&self.0) {
            *o = (*op, a.ready(m), b.ready(m));
        }
        (out, self.0.len())
    }
}

/// Whether cell `c` passes every test (`row`: the cell's variables).
#[inline]
pub fn holds(tests: &[Test], row: &[i64]) -> bool {
    let value = |r: Ready| match r {
        Ready::Column(i) => Some(row[i]).filter(|&raw| raw != ABSENT),
        Ready::Value(v) => v,
    };
    tests
        .iter()
        .all(|&(op, a, b)| compare_opt(op, value(a), value(b)))
}

/// The cells of `bits` (a word of the board, its first cell `base`) that pass every test (`rows`: the
/// state's rows of cell variables, `stride` slots each). The same as [`holds`] cell by cell; the common
/// comparisons of two columns, or of a column and a number, run with their operator chosen once per word.
#[inline]
pub fn filter_word(tests: &[Test], rows: &[i64], stride: usize, base: usize, mut bits: u64) -> u64 {
    for &(op, a, b) in tests {
        if bits == 0 {
            break;
        }
        let column = |i: usize| move |c: usize| rows[c * stride + i];
        // A number stands for itself; none is the unset slot value (a number equal to it takes the
        // general way, below).
        let number = |v: Option<i64>| v.filter(|&x| x != ABSENT).map(|x| move |_: usize| x);
        bits = match (a, b) {
            (Ready::Column(x), Ready::Column(y)) => by_op(op, bits, base, column(x), column(y)),
            (Ready::Column(x), Ready::Value(v)) => match number(v) {
                Some(y) => by_op(op, bits, base, column(x), y),
                None if v.is_none() => by_op(op, bits, base, column(x), |_| ABSENT),
                None => general(op, a, b, bits, rows, stride, base),
            },
            _ => general(op, a, b, bits, rows, stride, base),
        };
    }
    bits
}

/// One comparison over the cells of a word, its operator chosen once.
#[inline(always)]
fn by_op(
    op: BinOp,
    bits: u64,
    base: usize,
    a: impl Fn(usize) -> i64,
    b: impl Fn(usize) -> i64,
) -> u64 {
    match op {
        BinOp::Eq => keep(bits, base, a, b, |x, y| x == y, true, false),
        BinOp::Ne => keep(bits, base, a, b, |x, y| x != y, false, true),
        BinOp::Lt => keep(bits, base, a, b, |x, y| x < y, false, false),
        BinOp::Le => keep(bits, base, a, b, |x, y| x <= y, false, false),
        BinOp::Gt => keep(bits, base, a, b, |x, y| x > y, false, false),
        _ => keep(bits, base, a, b, |x, y| x >= y, false, false),
    }
}

/// The cells of `bits` where `pass` holds of the two raw values, as [`compare_opt`] decides it: both
/// unset is `both_unset`, one unset `one_unset`.
#[inline(always)]
fn keep(
    bits: u64,
    base: usize,
    a: impl Fn(usize) -> i64,
    b: impl Fn(usize) -> i64,
    pass: impl Fn(i64, i64) -> bool,
    both_unset: bool,
    one_unset: bool,
) -> u64 {
    let mut out = bits;
    let mut todo = bits;
    while todo != 0 {
        let i = todo.trailing_zeros();
        todo &= todo - 1;
        let c = base + i as usize;
        let (x, y) = (a(c), b(c));
        let ok = match (x == ABSENT, y == ABSENT) {
            (false, false) => pass(x, y),
            (true, true) => both_unset,
            _ => one_unset,
        };
        if !ok {
            out &= !(1u64 << i);
        }
    }
    out
}

/// One comparison of any shape over the cells of a word.
#[cold]
fn general(
    op: BinOp,
    a: Ready,
    b: Ready,
    bits: u64,
    rows: &[i64],
    stride: usize,
    base: usize,
) -> u64 {
    let mut out = bits;
    let mut todo = bits;
    while todo != 0 {
        let i = todo.trailing_zeros();
        todo &= todo - 1;
        let row = (base + i as usize) * stride;
        if !holds(&[(op, a, b)], &rows[row..row + stride]) {
            out &= !(1u64 << i);
        }
    }
    out
}

fn collect(e: &Expr, slot: usize, out: &mut Vec<(BinOp, Side, Side)>) -> Option<()> {
    match e {
        Expr::Bin(BinOp::And, a, b) => {
            collect(a, slot, out)?;
            collect(b, slot, out)
        }
        Expr::Bin(
            op @ (BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge),
            a,
            b,
        ) => {
            out.push((*op, side(a, slot)?, side(b, slot)?));
            Some(())
        }
        _ => None,
    }
}

/// `e` as a side over the element in `slot`: `None` when it is no whole-number operand read in place, or
/// reads the element in another way (a unit's variable, a player the element names).
pub fn side(e: &Expr, slot: usize) -> Option<Side> {
    let element = |who: &Who| matches!(who, Who::Local(l) if *l == slot);
    Some(match IntArg::of(e)? {
        IntArg::Var(Read::Cell { local, offset }) if local == slot => Side::Element(offset, None),
        IntArg::Var(Read::CellOf { local, offset, who }) if local == slot && !element(&who) => {
            Side::Element(offset, Some(who))
        }
        // Anything else that reads the element would need it bound: not this shape.
        IntArg::Var(
            Read::Cell { local, .. } | Read::CellOf { local, .. } | Read::Unit { local, .. },
        ) if local == slot => return None,
        IntArg::Var(Read::CellOf { who, .. } | Read::Player { who, .. }) if element(&who) => {
            return None
        }
        a => Side::Fixed(a),
    })
}
