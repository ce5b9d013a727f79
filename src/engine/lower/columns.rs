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
