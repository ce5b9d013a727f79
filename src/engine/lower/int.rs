//! Whole-number arithmetic on typed operands: `floor(me.coins / settings.price)`, `a.hp - b.power + 1`.
//! When every leaf of an arithmetic expression is a whole-number variable or table column read in place, or
//! a whole constant, the expression is a tree of closures over `Option<i64>` (none is `None`) whose leaves
//! are read inline: no tagged value between nodes. `min`, `max`, `??`, `distance`, `count` of a set and
//! `sum` of a whole-number expression over a set are nodes too, so an agent's evaluation
//! (`10 * me.vp + sum(units where owner == me, type.cost) + 2 * count(cells where owner == me)`) is one
//! such tree. The meaning is exactly the generic path's: arithmetic with none gives none, overflow and
//! division by zero are the same errors ([`int_arith`] is shared), and `floor`/`ceil` of a whole number or
//! none is that value.
use super::column_term::ColumnTerm;
use super::expr::{Cond, Ev};
use super::typed::{compare_opt, IntArg, RowOf};
use super::Lowerer;
use crate::engine::machine::{Machine, RunError};
use crate::ir::ops::{int_arith, out_of_range, trunc_int};
use crate::ir::{BinOp, Builtin, Expr, SetExpr, SetSource};
use crate::model::{Ty, Value};

type R<T> = Result<T, RunError>;

/// A compiled expression giving a `T`.
pub type TypedFn<T> = Box<dyn Fn(&mut Machine<'_>) -> R<T> + Send + Sync>;

/// A compiled whole-number expression (`None` is none).
pub type IntFn = TypedFn<Option<i64>>;

/// A compiled float expression (`None` is none).
type FloatFn = TypedFn<Option<f64>>;

/// A compiled whole-number expression that cannot fail: its number comes back in registers, where a
/// `Result` of one comes back through memory.
pub type PureIntFn = Box<dyn Fn(&mut Machine<'_>) -> Option<i64> + Send + Sync>;

/// A whole-number operand: read in place, or computed by a closure.
pub enum IntNode {
    Arg(IntArg),
    /// A local that only ever holds a whole number or none (a typed variable of a native script body).
    Local(usize),
    /// A whole-number column of a table row, read in place (`c.soil.yield`, `u.type.cost`).
    Column(RowOf, u16),
    /// `min`, `max` or `??` of operands that cannot fail (reads, columns, and such nodes).
    Pure(PureIntFn),
    Fn(IntFn),
}

impl IntNode {
    #[inline(always)]
    pub fn get(&self, m: &mut Machine<'_>) -> R<Option<i64>> {
        match self {
            IntNode::Arg(a) => Ok(a.get(m)),
            IntNode::Local(s) => Ok(local_int(m, *s)),
            IntNode::Column(row, col) => Ok(row.int_column(m, *col)),
            IntNode::Pure(f) => Ok(f(m)),
            IntNode::Fn(f) => f(m),
        }
    }

    /// The number when the node cannot fail (`None` from the outer option when it can).
    #[inline(always)]
    fn pure(&self, m: &mut Machine<'_>) -> Option<Option<i64>> {
        match self {
            IntNode::Arg(a) => Some(a.get(m)),
            IntNode::Local(s) => Some(local_int(m, *s)),
            IntNode::Column(row, col) => Some(row.int_column(m, *col)),
            IntNode::Pure(f) => Some(f(m)),
            IntNode::Fn(_) => None,
        }
    }

    fn cannot_fail(&self) -> bool {
        !matches!(self, IntNode::Fn(_))
    }
}

/// The number in local `s`, which only ever holds a whole number or none.
#[inline(always)]
fn local_int(m: &Machine<'_>, s: usize) -> Option<i64> {
    match m.rt.locals[s] {
        Value::Int(i) => Some(i),
        _ => None,
    }
}

/// `f` of two nodes: a [`IntNode::Pure`] closure when neither can fail, a fallible one otherwise.
fn pair_node<F>(a: IntNode, b: IntNode, f: F) -> IntNode
where
    F: Fn(Option<i64>, Option<i64>) -> Option<i64> + Send + Sync + 'static,
{
    if a.cannot_fail() && b.cannot_fail() {
        return IntNode::Pure(Box::new(move |m: &mut Machine<'_>| {
            // Both are evaluated, in order, as the generic path does.
            let x = a.pure(m).flatten();
            let y = b.pure(m).flatten();
            f(x, y)
        }));
    }
    IntNode::Fn(Box::new(move |m: &mut Machine<'_>| {
        let (x, y) = (a.get(m)?, b.get(m)?);
        Ok(f(x, y))
    }))
}

/// `op` on two optional whole numbers: none when either is none (checked first, as the generic path does).
#[inline(always)]
pub(super) fn apply(op: BinOp, x: Option<i64>, y: Option<i64>) -> R<Option<i64>> {
    match (x, y) {
        (Some(x), Some(y)) => match int_arith(op, x, y) {
            Some(r) => r.map(Some),
            None => Ok(None),
        },
        _ => Ok(None),
    }
}

/// `a op b` as one closure whose result goes through `out` ([`super::leaf::arith_op`]); two operands read
/// in place get one closure for their shapes, with no dispatch per call.
fn bin_fn<T, F>(op: BinOp, a: IntNode, b: IntNode, out: F) -> TypedFn<T>
where
    F: Fn(Option<i64>) -> T + Send + Sync + 'static,
    T: 'static,
{
    match (a, b) {
        (IntNode::Arg(a), IntNode::Arg(b)) => super::leaf::arith(op, a, b, out),
        (a, b) => super::leaf::arith_op(op, a, b, out),
    }
}

impl Lowerer<'_> {
    /// `e` as a whole-number expression over typed operands, if every part of it has such a shape.
    pub fn int_node(&mut self, e: &Expr) -> Option<IntNode> {
        if !self.opts.specialise {
            return None;
        }
        if let Some(a) = IntArg::of(e) {
            return Some(IntNode::Arg(a));
        }
        match e {
            Expr::Local(s) if self.int_locals.get(*s as usize) == Some(&true) => {
                Some(IntNode::Local(*s as usize))
            }
            // A run error when the number is none, as the generic path's.
            Expr::Expect(x, message) => {
                let (x, message) = (self.int_node(x)?, message.clone());
                Some(IntNode::Fn(Box::new(move |m: &mut Machine<'_>| {
                    match x.get(m)? {
                        None => Err(RunError::new(message.as_str())),
                        v => Ok(v),
                    }
                })))
            }
            Expr::Bin(op, a, b) if op.is_arithmetic() => {
                let (op, a, b) = (*op, self.int_node(a)?, self.int_node(b)?);
                Some(IntNode::Fn(bin_fn(op, a, b, |r| r)))
            }
            // On a whole number or none, both are that value.
            Expr::Call(Builtin::Floor | Builtin::Ceil, args) if args.len() == 1 => {
                self.int_node(&args[0])
            }
            // Both operands are evaluated, as the generic call does; none with anything is none.
            Expr::Call(f @ (Builtin::Min | Builtin::Max), args) if args.len() == 2 => {
                let (min, a, b) = (
                    *f == Builtin::Min,
                    self.int_node(&args[0])?,
                    self.int_node(&args[1])?,
                );
                Some(pair_node(a, b, move |x, y| match (x, y) {
                    (Some(x), Some(y)) => Some(if min { x.min(y) } else { x.max(y) }),
                    _ => None,
                }))
            }
            // `a ?? b`: both evaluated, as the generic operator does.
            Expr::Bin(BinOp::Coalesce, a, b) => {
                let (a, b) = (self.int_node(a)?, self.int_node(b)?);
                Some(pair_node(a, b, |x, y| x.or(y)))
            }
            // A whole-number column of a row read in place (`c.soil.yield`, `u.type.cost`).
            Expr::RowCol(r, t, col)
                if self.game.tables[*t as usize].columns[*col as usize].1 == Ty::Int =>
            {
                Some(IntNode::Column(RowOf::of(r, self.game)?, *col))
            }
            // A range's size keeps the generic closed form (and its wording of a size out of range).
            Expr::Count(s) if !(s.filter.is_none() && matches!(s.source, SetSource::Range(..))) => {
                let s = self.set(s);
                Some(IntNode::Fn(Box::new(move |m: &mut Machine<'_>| {
                    Ok(Some(s.count(m)?))
                })))
            }
            Expr::Sum(s, x) => self.int_sum(s, x),
            Expr::Call(Builtin::Distance, args) if args.len() == 2 => {
                let (a, b) = (self.arg(&args[0]), self.arg(&args[1]));
                Some(IntNode::Fn(Box::new(move |m: &mut Machine<'_>| {
                    let (Some(x), Some(y)) = (a.cell(m)?, b.cell(m)?) else {
                        return Ok(None);
                    };
                    Ok(m.game.board.distance(x, y).map(i64::from))
                })))
            }
            // `to_int` of a float computed from whole numbers and constants (a script's
            // `(weakest.to_float() * 0.35).floor().to_int()`), with the generic call's error beyond the range.
            Expr::Call(Builtin::TruncInt, args) if args.len() == 1 => {
                let x = self.float_node(&args[0])?;
                Some(IntNode::Fn(Box::new(move |m: &mut Machine<'_>| {
                    let Some(f) = x(m)? else {
                        return Ok(None);
                    };
                    match trunc_int(f) {
                        Some(i) => Ok(Some(i)),
                        None => Err(out_of_range(Builtin::TruncInt, &[Value::Float(f)])
                            .unwrap_or_else(|| RunError::new("to_int out of range"))),
                    }
                })))
            }
            Expr::Neg(x) => {
                let x = self.int_node(x)?;
                Some(IntNode::Fn(Box::new(move |m: &mut Machine<'_>| {
                    x.get(m)?
                        .map(|i| {
                            i.checked_neg()
                                .ok_or_else(|| RunError::new("arithmetic overflow"))
                        })
                        .transpose()
                })))
            }
            _ => None,
        }
    }

    /// `e` as a float made of whole numbers turned into floats (`to_float`), float constants, the four
    /// operations and `floor` (none is `None`), as the generic path computes it: none when an operand is
    /// none, IEEE results otherwise (a float operation raises no error).
    fn float_node(&mut self, e: &Expr) -> Option<FloatFn> {
        match e {
            Expr::Const(Value::Float(k)) => {
                let k = *k;
                Some(Box::new(move |_: &mut Machine<'_>| Ok(Some(k))))
            }
            Expr::Call(Builtin::Float, args) if args.len() == 1 => {
                let x = self.int_node(&args[0])?;
                Some(Box::new(move |m: &mut Machine<'_>| {
                    Ok(x.get(m)?.map(|i| i as f64))
                }))
            }
            Expr::Call(Builtin::FloorFloat, args) if args.len() == 1 => {
                let x = self.float_node(&args[0])?;
                Some(Box::new(move |m: &mut Machine<'_>| {
                    Ok(x(m)?.map(f64::floor))
                }))
            }
            Expr::Bin(op @ (BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div), a, b) => {
                let (op, a, b) = (*op, self.float_node(a)?, self.float_node(b)?);
                Some(Box::new(move |m: &mut Machine<'_>| {
                    // Both evaluated, in order, as the generic operator does.
                    let (x, y) = (a(m)?, b(m)?);
                    Ok(x.zip(y).map(|(x, y)| match op {
                        BinOp::Add => x + y,
                        BinOp::Sub => x - y,
                        BinOp::Mul => x * y,
                        _ => x / y,
                    }))
                }))
            }
            _ => None,
        }
    }

    /// `sum(s, x)` of a whole-number `x`, added up as numbers: none adds nothing, an overflow is the
    /// generic sum's error, an empty set sums to 0. Arithmetic on the element cell's own variables (also
    /// ones per player) is computed from their columns when the set allows (see `CSet::sum_column_term`).
    fn int_sum(&mut self, s: &SetExpr, x: &Expr) -> Option<IntNode> {
        let term = ColumnTerm::of(x, s.slot);
        let x_node = self.int_node(x)?;
        // As in the generic sum: a script in `x` may change the state while the set is walked.
        let impure = !x.reads(&mut Vec::new());
        let mut set = self.set(s);
        set.live |= impure;
        Some(IntNode::Fn(Box::new(move |m: &mut Machine<'_>| {
            if let Some(term) = &term {
                if let Some(total) = set.sum_column_term(m, term)? {
                    return Ok(Some(total));
                }
            }
            let mut total = 0i64;
            set.each(m, |m, _| {
                if let Some(y) = x_node.get(m)? {
                    total = total
                        .checked_add(y)
                        .ok_or_else(|| RunError::new("arithmetic overflow"))?;
                }
                Ok(true)
            })?;
            Ok(Some(total))
        })))
    }

    /// A whole-number expression with at least one operation, as one closure giving a value.
    pub fn int_ev(&mut self, e: &Expr) -> Option<Ev> {
        let wrap = |n: IntNode| -> Ev {
            match n {
                IntNode::Arg(a) => Box::new(move |m: &mut Machine<'_>| {
                    Ok(a.get(m).map_or(Value::None, Value::Int))
                }),
                // The local's value itself: a whole number or none.
                IntNode::Local(s) => Box::new(move |m: &mut Machine<'_>| Ok(m.rt.locals[s])),
                IntNode::Column(row, col) => Box::new(move |m: &mut Machine<'_>| {
                    Ok(row.int_column(m, col).map_or(Value::None, Value::Int))
                }),
                IntNode::Pure(f) => {
                    Box::new(move |m: &mut Machine<'_>| Ok(f(m).map_or(Value::None, Value::Int)))
                }
                IntNode::Fn(f) => {
                    Box::new(move |m: &mut Machine<'_>| Ok(f(m)?.map_or(Value::None, Value::Int)))
                }
            }
        };
        match e {
            // The operation itself gives the value: one closure, not a wrapper around a node.
            Expr::Bin(op, a, b) if op.is_arithmetic() && self.opts.specialise => {
                let (op, a, b) = (*op, self.int_node(a)?, self.int_node(b)?);
                Some(bin_fn(op, a, b, |r| r.map_or(Value::None, Value::Int)))
            }
            _ => self.int_node(e).map(wrap),
        }
    }

    /// A comparison of two whole-number expressions (at least one of them computed).
    pub fn int_cmp(&mut self, op: BinOp, a: &Expr, b: &Expr) -> Option<Cond> {
        let (a, b) = (self.int_node(a)?, self.int_node(b)?);
        Some(Box::new(move |m: &mut Machine<'_>| {
            Ok(compare_opt(op, a.get(m)?, b.get(m)?))
        }))
    }
}
