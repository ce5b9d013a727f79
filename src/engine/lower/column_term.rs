//! Summands of a cell set that are arithmetic on the element cell's own whole-number variables
//! (`sum(cells where owner == me, count - used)`, `sum(cells where owner == none, 3 * min(arriving[me], 3))`):
//! computed for up to 64 cells at once (the cells one word of the planned scans picks), one operation
//! after another over arrays of values, instead of binding each cell and evaluating the summand's closures
//! for it. An operation costs one dispatch per word, not per cell; operands that do not depend on the
//! element, and the players of per-player variables, are read once per word.
//!
//! The operations mean what the lowered summand means (`int.rs`): none with anything is none, `min`,
//! `max`, `??`, `floor`, `ceil`, negation and `distance` (to a cell that does not depend on the element)
//! as there. Where the summand would raise an error (an
//! overflow, a division by zero), the computation gives up instead, and the caller sums the generic way,
//! which raises the same error at the same cell: the summand only reads the state, so computing it twice
//! changes nothing. Values are whole numbers with `ABSENT` for none; a computed value that happens to be
//! `ABSENT` gives up too, so none is never mistaken for a number.
use super::columns::{side, Ready, Side};
use super::typed::{IntArg, Read, Who};
use crate::engine::machine::Machine;
use crate::ir::ops::int_arith;
use crate::ir::{BinOp, Builtin, Expr};
use crate::model::value::ABSENT;
use crate::model::{Ty, Value};

/// The computation gave up: the summand would raise an error; the generic sum raises it.
pub struct GaveUp;

/// Cells computed at once: one word of the planned scans.
pub const LANES: usize = 64;

/// Scratch a summand needs: an array of values for the result and for each operand on the way.
pub const LANES_SCRATCH: usize = LANES * (MAX_NODES + 1);

/// An operand of an operation.
enum Operand {
    /// A variable of the element cell (its slot in each cell's row).
    Column(usize),
    /// A per-player variable of the element cell, for a player.
    ColumnOf(usize, Who),
    /// A value that does not depend on the element.
    Fixed(IntArg),
    /// The distance between the element and a cell that does not depend on it (`distance(it, home)`),
    /// in the order written.
    Distance {
        target: Target,
        element_first: bool,
    },
    Op(Box<Operation>),
}

/// A cell that does not depend on the element.
#[derive(Clone, Copy)]
enum Target {
    Const(u32),
    Read(Read),
}

/// An operation on one operand or two.
struct Operation {
    kind: Kind,
    a: Operand,
    b: Option<Operand>,
}

#[derive(Clone, Copy)]
enum Kind {
    Coalesce,
    Add,
    Sub,
    Mul,
    /// Division and remainder as the generic path does them ([`int_arith`]).
    Arith(BinOp),
    Min,
    Max,
    Neg,
}

impl Operand {
    /// The operand's values for the cells whose rows start at `rows` in `vars`, into `out` (as long as
    /// `rows`), with `spare` (room for [`MAX_NODES`] more arrays as long) for the operands of operations.
    fn eval(
        &self,
        m: &Machine<'_>,
        vars: &[i64],
        rows: &[usize],
        out: &mut [i64],
        spare: &mut [i64],
    ) -> Result<(), GaveUp> {
        match self {
            Operand::Column(i) => {
                for (o, r) in out.iter_mut().zip(rows) {
                    *o = vars[r + i];
                }
            }
            Operand::ColumnOf(i, who) => match who.player(m) {
                Some(p) => {
                    let i = i + p as usize;
                    for (o, r) in out.iter_mut().zip(rows) {
                        *o = vars[r + i];
                    }
                }
                None => out.fill(ABSENT),
            },
            Operand::Fixed(a) => out.fill(a.get(m).unwrap_or(ABSENT)),
            Operand::Distance {
                target,
                element_first,
            } => {
                let t = match target {
                    Target::Const(c) => Some(*c),
                    Target::Read(r) => match r.value(m, Ty::Cell) {
                        Value::Cell(c) => Some(c),
                        _ => None,
                    },
                };
                let Some(t) = t else {
                    out.fill(ABSENT);
                    return Ok(());
                };
                let (board, stride) = (&m.game.board, m.game.cell_slots);
                for (o, r) in out.iter_mut().zip(rows) {
                    let c = (r / stride) as u32;
                    let d = if *element_first {
                        board.distance(c, t)
                    } else {
                        board.distance(t, c)
                    };
                    *o = d.map_or(ABSENT, i64::from);
                }
            }
            Operand::Op(op) => op.eval(m, vars, rows, out, spare)?,
        }
        Ok(())
    }
}

impl Operation {
    fn eval(
        &self,
        m: &Machine<'_>,
        vars: &[i64],
        rows: &[usize],
        out: &mut [i64],
        spare: &mut [i64],
    ) -> Result<(), GaveUp> {
        // Both operands first, as the lowered summand evaluates them.
        self.a.eval(m, vars, rows, out, spare)?;
        let Some(b) = &self.b else {
            // Negation, the only operation of one operand.
            for x in out.iter_mut() {
                if *x != ABSENT {
                    *x = x.checked_neg().filter(|&r| r != ABSENT).ok_or(GaveUp)?;
                }
            }
            return Ok(());
        };
        let (ys, spare) = spare.split_at_mut(out.len());
        b.eval(m, vars, rows, ys, spare)?;
        // `f` on two numbers; none when either is none; a computed `ABSENT` gives up.
        fn each(
            out: &mut [i64],
            ys: &[i64],
            f: impl Fn(i64, i64) -> Result<i64, GaveUp>,
        ) -> Result<(), GaveUp> {
            for (x, &y) in out.iter_mut().zip(ys) {
                if *x != ABSENT && y != ABSENT {
                    *x = f(*x, y)?;
                    if *x == ABSENT {
                        return Err(GaveUp);
                    }
                } else {
                    *x = ABSENT;
                }
            }
            Ok(())
        }
        match self.kind {
            Kind::Coalesce => {
                for (x, &y) in out.iter_mut().zip(ys.iter()) {
                    if *x == ABSENT {
                        *x = y;
                    }
                }
                Ok(())
            }
            Kind::Add => each(out, ys, |x, y| x.checked_add(y).ok_or(GaveUp)),
            Kind::Sub => each(out, ys, |x, y| x.checked_sub(y).ok_or(GaveUp)),
            Kind::Mul => each(out, ys, |x, y| x.checked_mul(y).ok_or(GaveUp)),
            Kind::Min => each(out, ys, |x, y| Ok(x.min(y))),
            Kind::Max => each(out, ys, |x, y| Ok(x.max(y))),
            Kind::Arith(op) => each(out, ys, |x, y| match int_arith(op, x, y) {
                Some(Ok(r)) => Ok(r),
                Some(Err(_)) => Err(GaveUp),
                // No whole-number result: none.
                None => Ok(ABSENT),
            }),
            Kind::Neg => unreachable!("negation has one operand"),
        }
    }
}

/// A summand over the element cell.
pub struct ColumnTerm {
    value: Operand,
    /// The summand when it is one operand alone (`yield`, `pieces[opponent]`).
    single: Option<Side>,
}

/// Most operands and operations of a summand of this shape (more: the summand's closures compute it).
const MAX_NODES: usize = 8;

impl ColumnTerm {
    /// The summand `x` over the element in `slot`, when it has that shape and reads the element (a
    /// summand that does not is left to the generic sum).
    pub fn of(x: &Expr, slot: u16) -> Option<ColumnTerm> {
        let (mut nodes, mut reads) = (0, false);
        let value = compile(x, slot as usize, &mut nodes, &mut reads)?;
        (reads && nodes <= MAX_NODES).then(|| ColumnTerm {
            value,
            single: side(x, slot as usize),
        })
    }

    /// The operand, ready for this use of the set, when the summand is one operand alone.
    #[inline]
    pub fn single(&self, m: &Machine<'_>) -> Option<Ready> {
        self.single.as_ref().map(|s| s.ready(m))
    }

    /// `total` plus the summand of each cell whose row starts at `rows` in the cell variables (at most
    /// [`LANES`]), added in that order; none adds nothing. `lanes`: scratch of at least [`LANES_SCRATCH`].
    pub fn add_to(
        &self,
        m: &Machine<'_>,
        total: i64,
        rows: &[usize],
        lanes: &mut [i64],
    ) -> Result<i64, GaveUp> {
        let (values, spare) = lanes.split_at_mut(rows.len());
        self.value.eval(m, &m.st.cell_vars, rows, values, spare)?;
        values
            .iter()
            .filter(|&&x| x != ABSENT)
            .try_fold(total, |t, &x| t.checked_add(x).ok_or(GaveUp))
    }
}

/// `e` as an operand; `None` when `e` has another shape.
fn compile(e: &Expr, slot: usize, nodes: &mut usize, reads: &mut bool) -> Option<Operand> {
    *nodes += 1;
    if *nodes > MAX_NODES {
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
    let mut op = |kind: Kind, a: &Expr, b: Option<&Expr>| -> Option<Operand> {
        let a = compile(a, slot, nodes, reads)?;
        let b = match b {
            Some(b) => Some(compile(b, slot, nodes, reads)?),
            None => None,
        };
        Some(Operand::Op(Box::new(Operation { kind, a, b })))
    };
    match e {
        Expr::Bin(BinOp::Coalesce, a, b) => op(Kind::Coalesce, a, Some(b)),
        Expr::Bin(BinOp::Add, a, b) => op(Kind::Add, a, Some(b)),
        Expr::Bin(BinOp::Sub, a, b) => op(Kind::Sub, a, Some(b)),
        Expr::Bin(BinOp::Mul, a, b) => op(Kind::Mul, a, Some(b)),
        Expr::Bin(o, a, b) if o.is_arithmetic() => op(Kind::Arith(*o), a, Some(b)),
        Expr::Call(Builtin::Min, args) if args.len() == 2 => {
            op(Kind::Min, &args[0], Some(&args[1]))
        }
        Expr::Call(Builtin::Max, args) if args.len() == 2 => {
            op(Kind::Max, &args[0], Some(&args[1]))
        }
        // On a whole number or none, both are that value.
        Expr::Call(Builtin::Floor | Builtin::Ceil, args) if args.len() == 1 => {
            compile(&args[0], slot, nodes, reads)
        }
        Expr::Neg(x) => op(Kind::Neg, x, None),
        Expr::Call(Builtin::Distance, args) if args.len() == 2 => {
            let element = |x: &Expr| matches!(x, Expr::Local(s) if *s as usize == slot);
            let target = |x: &Expr| match x {
                Expr::Const(Value::Cell(c)) => Some(Target::Const(*c)),
                _ => match Read::var(x)? {
                    // A cell the element names would need it bound: not this shape.
                    (Read::Cell { local, .. } | Read::CellOf { local, .. }, _) if local == slot => {
                        None
                    }
                    (
                        Read::CellOf {
                            who: Who::Local(l), ..
                        }
                        | Read::Player {
                            who: Who::Local(l), ..
                        },
                        _,
                    ) if l == slot => None,
                    (Read::Unit { local, .. }, _) if local == slot => None,
                    (r, Ty::Cell) => Some(Target::Read(r)),
                    _ => None,
                },
            };
            let (target, element_first) = match (&args[0], &args[1]) {
                (a, b) if element(a) => (target(b)?, true),
                (a, b) if element(b) => (target(a)?, false),
                _ => return None,
            };
            *reads = true;
            Some(Operand::Distance {
                target,
                element_first,
            })
        }
        _ => None,
    }
}
