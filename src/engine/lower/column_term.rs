//! Summands of a cell set that are arithmetic on the element cell's own whole-number variables
//! (`sum(cells where owner == me, count - used)`, `sum(cells where owner == none, 3 * min(arriving[me], 3))`):
//! computed from the row of the cell's variables, cell after cell, by closures that read their operands
//! from the row in place, instead of binding each cell and reading its variables through the local that
//! holds it.
//!
//! The closures mean what the lowered summand means (`int.rs`): none with anything is none, `min`, `max`,
//! `??`, `floor`, `ceil` and negation as there. Where the summand would raise an error (an overflow, a
//! division by zero), they give up instead, and the caller sums the generic way, which raises the same
//! error at the same cell: the summand only reads the state, so computing it twice changes nothing.
use super::columns::{side, Ready, Side};
use super::typed::{IntArg, Who};
use crate::engine::machine::Machine;
use crate::ir::ops::int_arith;
use crate::ir::{BinOp, Builtin, Expr};
use crate::model::value::ABSENT;

/// The summand's value gave up: it would raise an error; the generic sum raises it.
pub struct GaveUp;

/// A value on the way: `None` gave up; `Some(ABSENT)` is none (a computed value that happens to be
/// `ABSENT` gives up too, so none is never mistaken for a number). Two words, returned in registers.
type Out = Option<i64>;

/// The summand's value for a cell, from the row of its variables.
type RowFn = Box<dyn Fn(&Machine<'_>, &[i64]) -> Out + Send + Sync>;

/// An operand, read in place or computed by a closure.
enum Operand {
    /// A variable of the element cell.
    Column(usize),
    /// A per-player variable of the element cell, for a player.
    ColumnOf(usize, Who),
    /// A value that does not depend on the element.
    Fixed(IntArg),
    Fn(RowFn),
}

impl Operand {
    #[inline(always)]
    fn get(&self, m: &Machine<'_>, row: &[i64]) -> Out {
        match self {
            Operand::Column(i) => Some(row[*i]),
            Operand::ColumnOf(i, who) => {
                Some(who.player(m).map_or(ABSENT, |p| row[i + p as usize]))
            }
            Operand::Fixed(a) => Some(a.get(m).unwrap_or(ABSENT)),
            Operand::Fn(f) => f(m, row),
        }
    }
}

/// A summand over the element cell.
pub struct ColumnTerm {
    value: Operand,
    /// The summand when it is one operand alone (`yield`, `forces[opponent]`).
    single: Option<Side>,
}

/// Most operations of a summand of this shape (more: the summand's closures compute it).
const MAX_OPS: usize = 8;

impl ColumnTerm {
    /// The summand `x` over the element in `slot`, when it has that shape and reads the element (a
    /// summand that does not is left to the generic sum).
    pub fn of(x: &Expr, slot: u16) -> Option<ColumnTerm> {
        let (mut ops, mut reads) = (0, false);
        let value = compile(x, slot as usize, &mut ops, &mut reads)?;
        (reads && ops <= MAX_OPS).then(|| ColumnTerm {
            value,
            single: side(x, slot as usize),
        })
    }

    /// The operand, ready for this use of the set, when the summand is one operand alone.
    #[inline]
    pub fn single(&self, m: &Machine<'_>) -> Option<Ready> {
        self.single.as_ref().map(|s| s.ready(m))
    }

    /// The summand's value for the cell whose variables are `row` (`None`: none, which adds nothing).
    #[inline(always)]
    pub fn value(&self, m: &Machine<'_>, row: &[i64]) -> Result<Option<i64>, GaveUp> {
        match self.value.get(m, row) {
            Some(ABSENT) => Ok(None),
            Some(x) => Ok(Some(x)),
            None => Err(GaveUp),
        }
    }
}

/// `e` as an operand; `None` when `e` has another shape. Operands are evaluated in the order the
/// lowered summand evaluates them (both, before either is looked at).
fn compile(e: &Expr, slot: usize, ops: &mut usize, reads: &mut bool) -> Option<Operand> {
    *ops += 1;
    if *ops > MAX_OPS {
        return None;
    }
    if let Some(s) = side(e, slot) {
        return match s {
            Side::Element(offset, None) => {
                *reads = true;
                Some(Operand::Column(offset))
            }
            Side::Element(offset, Some(who)) => {
                *reads = true;
                Some(Operand::ColumnOf(offset, who))
            }
            // The one number that stands for none here.
            Side::Fixed(IntArg::Const(ABSENT)) => None,
            Side::Fixed(a) => Some(Operand::Fixed(a)),
        };
    }
    let mut two = |a: &Expr, b: &Expr| -> Option<(Operand, Operand)> {
        Some((compile(a, slot, ops, reads)?, compile(b, slot, ops, reads)?))
    };
    // Both operands, then none if either is none, else `$body` (a computed `ABSENT` gives up).
    macro_rules! both {
        ($a:expr, $b:expr, |$x:ident, $y:ident| $body:expr) => {{
            let (fa, fb) = two($a, $b)?;
            Box::new(move |m: &Machine<'_>, row: &[i64]| {
                let ($x, $y) = (fa.get(m, row)?, fb.get(m, row)?);
                if $x == ABSENT || $y == ABSENT {
                    return Some(ABSENT);
                }
                let r: Option<i64> = $body;
                r.filter(|&r| r != ABSENT)
            })
        }};
    }
    let f: RowFn = match e {
        Expr::Bin(BinOp::Coalesce, a, b) => {
            let (fa, fb) = two(a, b)?;
            Box::new(move |m, row| {
                let (x, y) = (fa.get(m, row)?, fb.get(m, row)?);
                Some(if x == ABSENT { y } else { x })
            })
        }
        Expr::Bin(BinOp::Add, a, b) => both!(a, b, |x, y| x.checked_add(y)),
        Expr::Bin(BinOp::Sub, a, b) => both!(a, b, |x, y| x.checked_sub(y)),
        Expr::Bin(BinOp::Mul, a, b) => both!(a, b, |x, y| x.checked_mul(y)),
        Expr::Bin(op, a, b) if op.is_arithmetic() => {
            let op = *op;
            both!(a, b, |x, y| match int_arith(op, x, y) {
                Some(Ok(r)) => Some(r),
                Some(Err(_)) => None,
                None => return Some(ABSENT),
            })
        }
        Expr::Call(Builtin::Min, args) if args.len() == 2 => {
            both!(&args[0], &args[1], |x, y| Some(x.min(y)))
        }
        Expr::Call(Builtin::Max, args) if args.len() == 2 => {
            both!(&args[0], &args[1], |x, y| Some(x.max(y)))
        }
        // On a whole number or none, both are that value.
        Expr::Call(Builtin::Floor | Builtin::Ceil, args) if args.len() == 1 => {
            return compile(&args[0], slot, ops, reads)
        }
        Expr::Neg(x) => {
            let f = compile(x, slot, ops, reads)?;
            Box::new(move |m, row| match f.get(m, row)? {
                ABSENT => Some(ABSENT),
                x => x.checked_neg().filter(|&r| r != ABSENT),
            })
        }
        _ => return None,
    };
    Some(Operand::Fn(f))
}
