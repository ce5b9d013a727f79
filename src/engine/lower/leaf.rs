//! Comparisons of typed reads compiled per shape. A comparison such as `to.pieces[me] > 0` or
//! `at.sent == 0` is the most common test of a rule; read through [`IntArg`] it pays, on every call, a
//! match on the operand's kind, on the read's kind and on whose value it is (about half of the call).
//! Here each shape of the left operand (a cell's, a player's or a unit's variable, for `me`, the opponent
//! or a player in a local) is a type of its own, so the closure built for it reads the slot with no
//! dispatch; the right operand is a constant or any typed operand. The meaning is [`compare_opt`]'s on
//! the same two values as [`IntArg::get`] reads them. Flag tests (`u.ready`, `not at.busy`, `has(c.left)`)
//! are built the same way.
use super::expr::Cond;
use super::int::{apply, IntNode, TypedFn};
use super::typed::{compare_opt, IntArg, Read, Who};
use crate::engine::machine::{Machine, RunError};
use crate::ir::BinOp;
use crate::model::value::ABSENT;

/// A whole-number operand whose shape is fixed by its type: `get` is [`IntArg::get`] for that shape.
trait Leaf: Copy + Send + Sync + 'static {
    fn get(self, m: &Machine<'_>) -> Option<i64>;
}

/// Whose per-player value, as a type.
trait WhoLeaf: Copy + Send + Sync + 'static {
    fn who(self) -> Who;
}

#[derive(Clone, Copy)]
struct Me;
#[derive(Clone, Copy)]
struct Opponent;
#[derive(Clone, Copy)]
struct InLocal(usize);

impl WhoLeaf for Me {
    #[inline(always)]
    fn who(self) -> Who {
        Who::Me
    }
}
impl WhoLeaf for Opponent {
    #[inline(always)]
    fn who(self) -> Who {
        Who::Opponent
    }
}
impl WhoLeaf for InLocal {
    #[inline(always)]
    fn who(self) -> Who {
        Who::Local(self.0)
    }
}

// Each read shape rebuilds its [`Read`] and reads it with [`Read::raw`]: the variant is known where the
// closure is compiled, so the match on it folds away and only that arm's read remains.
#[derive(Clone, Copy)]
struct Constant(i64);
#[derive(Clone, Copy)]
struct CellVar {
    local: usize,
    offset: usize,
}
#[derive(Clone, Copy)]
struct CellVarOf<W> {
    local: usize,
    offset: usize,
    who: W,
}
#[derive(Clone, Copy)]
struct PlayerVar<W> {
    who: W,
    offset: usize,
}
#[derive(Clone, Copy)]
struct UnitVar {
    local: usize,
    offset: usize,
}

/// A raw slot as a whole number: unset is none (as [`IntArg::get`] reads it).
#[inline(always)]
fn number(raw: Option<i64>) -> Option<i64> {
    raw.filter(|&raw| raw != ABSENT)
}

impl Leaf for Constant {
    #[inline(always)]
    fn get(self, _: &Machine<'_>) -> Option<i64> {
        Some(self.0)
    }
}
impl Leaf for IntArg {
    #[inline(always)]
    fn get(self, m: &Machine<'_>) -> Option<i64> {
        IntArg::get(self, m)
    }
}
impl Leaf for CellVar {
    #[inline(always)]
    fn get(self, m: &Machine<'_>) -> Option<i64> {
        let (local, offset) = (self.local, self.offset);
        number(Read::Cell { local, offset }.raw(m))
    }
}
impl<W: WhoLeaf> Leaf for CellVarOf<W> {
    #[inline(always)]
    fn get(self, m: &Machine<'_>) -> Option<i64> {
        let (local, offset, who) = (self.local, self.offset, self.who.who());
        number(Read::CellOf { local, offset, who }.raw(m))
    }
}
impl<W: WhoLeaf> Leaf for PlayerVar<W> {
    #[inline(always)]
    fn get(self, m: &Machine<'_>) -> Option<i64> {
        let (who, offset) = (self.who.who(), self.offset);
        number(Read::Player { who, offset }.raw(m))
    }
}
impl Leaf for UnitVar {
    #[inline(always)]
    fn get(self, m: &Machine<'_>) -> Option<i64> {
        let (local, offset) = (self.local, self.offset);
        number(Read::Unit { local, offset }.raw(m))
    }
}

/// Builds a closure for one shape of read: called with the read as a type of its own.
trait Build {
    type Out;
    fn build<L: Leaf>(self, leaf: L) -> Self::Out;
}

/// `b` built for `read`'s shape.
fn dispatch<B: Build>(read: Read, b: B) -> B::Out {
    match read {
        Read::Cell { local, offset } => b.build(CellVar { local, offset }),
        Read::CellOf { local, offset, who } => match who {
            Who::Me => b.build(CellVarOf {
                local,
                offset,
                who: Me,
            }),
            Who::Opponent => b.build(CellVarOf {
                local,
                offset,
                who: Opponent,
            }),
            Who::Local(s) => b.build(CellVarOf {
                local,
                offset,
                who: InLocal(s),
            }),
        },
        Read::Player { who, offset } => match who {
            Who::Me => b.build(PlayerVar { who: Me, offset }),
            Who::Opponent => b.build(PlayerVar {
                who: Opponent,
                offset,
            }),
            Who::Local(s) => b.build(PlayerVar {
                who: InLocal(s),
                offset,
            }),
        },
        Read::Unit { local, offset } => b.build(UnitVar { local, offset }),
    }
}

/// `a op b` (an ordering or equality) on two typed operands, as one closure specialised for the shape of
/// the operand that is read (a constant on the left is moved to the right, the operator mirrored).
pub fn compare(op: BinOp, a: IntArg, b: IntArg) -> Cond {
    let (op, a, b) = match (a, b) {
        (IntArg::Const(_), IntArg::Var(_)) => (mirrored(op), b, a),
        _ => (op, a, b),
    };
    struct Compare(BinOp, IntArg);
    impl Build for Compare {
        type Out = Cond;
        fn build<L: Leaf>(self, leaf: L) -> Cond {
            with_left(leaf, self.0, self.1)
        }
    }
    match a {
        IntArg::Const(k) => with_left(Constant(k), op, b),
        IntArg::Var(read) => dispatch(read, Compare(op, b)),
    }
}

/// What a flag test asks of a variable.
#[derive(Clone, Copy)]
pub enum FlagTest {
    /// `x`: set and not 0 (false and none are both false).
    Holds,
    /// `not x`.
    Fails,
    /// `has(x)`: set, whatever the value.
    Has,
}

/// A flag test of a typed read as one closure specialised for its shape.
pub fn flag(read: Read, test: FlagTest) -> Cond {
    struct Flag(FlagTest);
    impl Build for Flag {
        type Out = Cond;
        fn build<L: Leaf>(self, leaf: L) -> Cond {
            match self.0 {
                FlagTest::Holds => Box::new(move |m: &mut Machine<'_>| -> Result<bool, RunError> {
                    Ok(leaf.get(m).is_some_and(|v| v != 0))
                }),
                FlagTest::Fails => Box::new(move |m: &mut Machine<'_>| -> Result<bool, RunError> {
                    Ok(leaf.get(m).is_none_or(|v| v == 0))
                }),
                FlagTest::Has => Box::new(move |m: &mut Machine<'_>| -> Result<bool, RunError> {
                    Ok(leaf.get(m).is_some())
                }),
            }
        }
    }
    dispatch(read, Flag(test))
}

/// The operator with its operands swapped: `k < x` is `x > k`.
fn mirrored(op: BinOp) -> BinOp {
    match op {
        BinOp::Lt => BinOp::Gt,
        BinOp::Le => BinOp::Ge,
        BinOp::Gt => BinOp::Lt,
        BinOp::Ge => BinOp::Le,
        other => other,
    }
}

fn with_left<A: Leaf>(a: A, op: BinOp, b: IntArg) -> Cond {
    match b {
        IntArg::Const(k) => with_op(a, Constant(k), op),
        b => with_op(a, b, op),
    }
}

fn with_op<A: Leaf, B: Leaf>(a: A, b: B, op: BinOp) -> Cond {
    macro_rules! cmp {
        ($op:expr) => {
            Box::new(move |m: &mut Machine<'_>| -> Result<bool, RunError> {
                Ok(compare_opt($op, a.get(m), b.get(m)))
            })
        };
    }
    match op {
        BinOp::Eq => cmp!(BinOp::Eq),
        BinOp::Ne => cmp!(BinOp::Ne),
        BinOp::Lt => cmp!(BinOp::Lt),
        BinOp::Le => cmp!(BinOp::Le),
        BinOp::Gt => cmp!(BinOp::Gt),
        _ => cmp!(BinOp::Ge),
    }
}

/// `a op b` on two typed operands (arithmetic), its result handed to `out`, as one closure specialised for
/// the shape of the left operand and for a constant on the right: [`super::int`]'s `bin_fn` for operands
/// read in place. Addition, subtraction and multiplication are done inline with the same overflow error,
/// the other operations through [`apply`].
pub fn arith<T, F>(op: BinOp, a: IntArg, b: IntArg, out: F) -> TypedFn<T>
where
    F: Fn(Option<i64>) -> T + Send + Sync + 'static,
    T: 'static,
{
    struct Arith<F>(BinOp, IntArg, F);
    impl<T: 'static, F: Fn(Option<i64>) -> T + Send + Sync + 'static> Build for Arith<F> {
        type Out = TypedFn<T>;
        fn build<L: Leaf>(self, leaf: L) -> TypedFn<T> {
            let Arith(op, b, out) = self;
            match b {
                IntArg::Const(k) => arith_op(op, leaf, Constant(k), out),
                b => arith_op(op, leaf, b, out),
            }
        }
    }
    match a {
        IntArg::Const(k) => Arith(op, b, out).build(Constant(k)),
        IntArg::Var(read) => dispatch(read, Arith(op, b, out)),
    }
}

/// A whole-number operand of arithmetic: a read of a fixed shape (never fails), or a node of a larger
/// tree (which may fail: an overflow below it).
pub trait Operand: Send + Sync + 'static {
    fn value(&self, m: &mut Machine<'_>) -> Result<Option<i64>, RunError>;
}

impl<L: Leaf> Operand for L {
    #[inline(always)]
    fn value(&self, m: &mut Machine<'_>) -> Result<Option<i64>, RunError> {
        Ok(self.get(m))
    }
}

impl Operand for IntNode {
    #[inline(always)]
    fn value(&self, m: &mut Machine<'_>) -> Result<Option<i64>, RunError> {
        self.get(m)
    }
}

/// `a op b` as one closure whose result goes through `out`: addition, subtraction and multiplication
/// chosen at lowering and done inline, the other operations through [`apply`] (the same errors). Both
/// operands are evaluated before either is looked at, as [`apply`] does.
pub fn arith_op<A: Operand, B: Operand, T: 'static, F>(op: BinOp, a: A, b: B, out: F) -> TypedFn<T>
where
    F: Fn(Option<i64>) -> T + Send + Sync + 'static,
{
    macro_rules! checked {
        ($method:ident) => {
            Box::new(move |m: &mut Machine<'_>| {
                let (x, y) = (a.value(m)?, b.value(m)?);
                Ok(out(match (x, y) {
                    (Some(x), Some(y)) => Some(
                        x.$method(y)
                            .ok_or_else(|| RunError::new("arithmetic overflow"))?,
                    ),
                    _ => None,
                }))
            })
        };
    }
    match op {
        BinOp::Add => checked!(checked_add),
        BinOp::Sub => checked!(checked_sub),
        BinOp::Mul => checked!(checked_mul),
        _ => Box::new(move |m: &mut Machine<'_>| {
            let (x, y) = (a.value(m)?, b.value(m)?);
            Ok(out(apply(op, x, y)?))
        }),
    }
}
