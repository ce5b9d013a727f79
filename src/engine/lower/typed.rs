//! Typed operands read in place. Most tests of legality compare whole-number variables of a cell, a
//! player or a unit named by a local (or `me`) with a constant or another such variable: those reads are
//! decoded here without a call and without a tagged value, and a comparison or sum of two of them is one
//! closure. Boolean variables used as conditions are read the same way. Semantics are exactly the
//! generic path's: an unset variable or an operand that names nothing is none, none compares equal only
//! to none and is never ordered, and arithmetic with none gives none.
use super::expr::{Cond, Ev};
use super::leaf::{self, FlagTest};
use super::Lowerer;
use crate::engine::machine::{Machine, RunError};
use crate::ir::{BinOp, Expr};
use crate::model::state::{NO_OWNER, NO_UNIT};
use crate::model::value::ABSENT;
use crate::model::{Ty, Value};

type R<T> = Result<T, RunError>;

/// Whose per-player value: the current player, the opponent or a player in a local.
#[derive(Clone, Copy)]
pub enum Who {
    Me,
    Opponent,
    Local(usize),
}

impl Who {
    #[inline(always)]
    pub fn player(self, m: &Machine<'_>) -> Option<u8> {
        match self {
            Who::Me => Some(m.me),
            Who::Opponent => Some(1 - m.me.min(1)),
            Who::Local(s) => match m.rt.locals[s] {
                Value::Player(p) => Some(p),
                _ => None,
            },
        }
    }

    fn of(e: &Expr) -> Option<Who> {
        match e {
            Expr::Me => Some(Who::Me),
            Expr::Opponent => Some(Who::Opponent),
            Expr::Local(s) => Some(Who::Local(*s as usize)),
            _ => None,
        }
    }
}

/// A raw variable read: the entity comes from a local (or `me`/`opponent`), the slot is fixed.
#[derive(Clone, Copy)]
pub enum Read {
    /// A cell variable of the cell in a local.
    Cell { local: usize, offset: usize },
    /// A per-player cell variable of the cell in a local, for a player.
    CellOf {
        local: usize,
        offset: usize,
        who: Who,
    },
    /// A player variable.
    Player { who: Who, offset: usize },
    /// A variable of the (living) unit in a local.
    Unit { local: usize, offset: usize },
}

impl Read {
    /// A variable of any simple type read in place, with its type (`opponent.home`): `None` for
    /// anything else.
    pub fn var(e: &Expr) -> Option<(Read, Ty)> {
        let ty = match e {
            Expr::CellVar(.., t)
            | Expr::CellVarOf(.., t)
            | Expr::PlayerVar(.., t)
            | Expr::UnitVar(.., t) => *t,
            _ => return None,
        };
        Some((Read::of(e, ty)?, ty))
    }

    /// The variable's value (none when the operand names nothing or the slot is unset).
    #[inline(always)]
    pub fn value(self, m: &Machine<'_>, ty: Ty) -> Value {
        self.raw(m)
            .map_or(Value::None, |raw| Value::decode(raw, ty))
    }

    /// The raw slot value, or `None` when the operand names nothing (then the value is none).
    #[inline(always)]
    pub fn raw(self, m: &Machine<'_>) -> Option<i64> {
        let g = m.game;
        match self {
            Read::Cell { local, offset } => match m.rt.locals[local] {
                Value::Cell(c) => Some(m.st.cell_vars[c as usize * g.cell_slots + offset]),
                _ => None,
            },
            Read::CellOf { local, offset, who } => match (m.rt.locals[local], who.player(m)) {
                (Value::Cell(c), Some(p)) => {
                    Some(m.st.cell_vars[c as usize * g.cell_slots + offset + p as usize])
                }
                _ => None,
            },
            Read::Player { who, offset } => who
                .player(m)
                .map(|p| m.st.player_vars[p as usize * g.player_slots + offset]),
            Read::Unit { local, offset } => match m.rt.locals[local] {
                Value::Unit(u) if m.st.units.get(u as usize).is_some_and(|x| x.alive) => {
                    Some(m.st.unit_vars[u as usize * g.unit_slots + offset])
                }
                _ => None,
            },
        }
    }

    /// A read of a variable of type `want`, if `e` is one in a shape read in place.
    fn of(e: &Expr, want: Ty) -> Option<Read> {
        let local = |x: &Expr| match x {
            Expr::Local(s) => Some(*s as usize),
            _ => None,
        };
        match e {
            Expr::CellVar(c, slot, ty) if *ty == want => Some(Read::Cell {
                local: local(c)?,
                offset: *slot as usize,
            }),
            Expr::CellVarOf(c, slot, p, ty) if *ty == want => Some(Read::CellOf {
                local: local(c)?,
                offset: *slot as usize,
                who: Who::of(p)?,
            }),
            Expr::PlayerVar(p, slot, ty) if *ty == want => Some(Read::Player {
                who: Who::of(p)?,
                offset: *slot as usize,
            }),
            Expr::UnitVar(u, slot, ty) if *ty == want => Some(Read::Unit {
                local: local(u)?,
                offset: *slot as usize,
            }),
            _ => None,
        }
    }
}

/// A whole-number operand read in place.
#[derive(Clone, Copy)]
pub enum IntArg {
    Const(i64),
    Var(Read),
}

impl IntArg {
    /// The number, or `None` for none.
    #[inline(always)]
    pub fn get(self, m: &Machine<'_>) -> Option<i64> {
        match self {
            IntArg::Const(i) => Some(i),
            IntArg::Var(r) => r.raw(m).filter(|&raw| raw != ABSENT),
        }
    }

    pub fn of(e: &Expr) -> Option<IntArg> {
        match e {
            Expr::Const(Value::Int(i)) => Some(IntArg::Const(*i)),
            _ => Read::of(e, Ty::Int).map(IntArg::Var),
        }
    }
}

/// A comparison of two optional numbers with the generic path's meaning of none.
#[inline(always)]
pub fn compare_opt(op: BinOp, a: Option<i64>, b: Option<i64>) -> bool {
    match (a, b) {
        (Some(x), Some(y)) => match op {
            BinOp::Eq => x == y,
            BinOp::Ne => x != y,
            BinOp::Lt => x < y,
            BinOp::Le => x <= y,
            BinOp::Gt => x > y,
            _ => x >= y,
        },
        (None, None) => op == BinOp::Eq,
        _ => op == BinOp::Ne,
    }
}

/// The owner an operand names, as an owner byte (nobody and none are [`NO_OWNER`]): a cell's owner, the
/// owner of a cell's unit or of a unit (living), for a cell or unit in a local, or `me`/`opponent`. Every
/// such value is a player or none, so equal bytes are exactly equal values.
#[derive(Clone, Copy)]
enum OwnerOf {
    Cell(usize),
    CellUnit(usize),
    Unit(usize),
    Who(Who),
}

impl OwnerOf {
    fn of(e: &Expr) -> Option<OwnerOf> {
        let local = |x: &Expr| match x {
            Expr::Local(s) => Some(*s as usize),
            _ => None,
        };
        match e {
            Expr::CellOwner(c) => Some(OwnerOf::Cell(local(c)?)),
            Expr::UnitOwner(u) => match &**u {
                Expr::CellUnit(c) => Some(OwnerOf::CellUnit(local(c)?)),
                u => Some(OwnerOf::Unit(local(u)?)),
            },
            Expr::Me | Expr::Opponent => Some(OwnerOf::Who(Who::of(e)?)),
            _ => None,
        }
    }

    #[inline(always)]
    fn code(self, m: &Machine<'_>) -> u8 {
        let of_unit = |u: u32| match m.st.units.get(u as usize) {
            Some(x) if x.alive => x.owner,
            _ => NO_OWNER,
        };
        match self {
            OwnerOf::Cell(s) => match m.rt.locals[s] {
                Value::Cell(c) => m.st.owner[c as usize],
                _ => NO_OWNER,
            },
            OwnerOf::CellUnit(s) => match m.rt.locals[s] {
                Value::Cell(c) => match m.st.occupant[c as usize] {
                    NO_UNIT => NO_OWNER,
                    u => of_unit(u),
                },
                _ => NO_OWNER,
            },
            OwnerOf::Unit(s) => match m.rt.locals[s] {
                Value::Unit(u) => of_unit(u),
                _ => NO_OWNER,
            },
            OwnerOf::Who(w) => w.player(m).unwrap_or(NO_OWNER),
        }
    }
}

/// `a == b` or `a != b` on two owners (`c.owner != c.unit.owner`, `u.owner == me`), without building either
/// value. Two plain players (`me == opponent`) are left to the generic path.
fn owner_cmp(e: &Expr) -> Option<Cond> {
    let Expr::Bin(op @ (BinOp::Eq | BinOp::Ne), a, b) = e else {
        return None;
    };
    let (x, y) = (OwnerOf::of(a)?, OwnerOf::of(b)?);
    if matches!((x, y), (OwnerOf::Who(_), OwnerOf::Who(_))) {
        return None;
    }
    let eq = *op == BinOp::Eq;
    Some(Box::new(move |m: &mut Machine<'_>| -> R<bool> {
        Ok((x.code(m) == y.code(m)) == eq)
    }))
}

/// A flag test of a unit in a local (`u.flag` or `not u.flag`): the local, the flag's slot, and whether
/// the test wants it set.
pub fn unit_flag_test(e: &Expr) -> Option<(usize, usize, bool)> {
    let (x, want) = match e {
        Expr::Not(x) => (&**x, false),
        x => (x, true),
    };
    match x {
        Expr::UnitVar(u, slot, Ty::Bool) => match **u {
            Expr::Local(s) => Some((s as usize, *slot as usize, want)),
            _ => None,
        },
        _ => None,
    }
}

/// Several flag tests of one unit as one condition (`not u.fresh`, `not u.moved`, ...): the unit is looked
/// up once. A flag holds when the unit lives and the flag is set, as [`Lowerer::typed_cond`] reads it.
/// Up to four tests are a fixed-size array the compiler unrolls.
pub fn unit_flags_cond(local: usize, flags: Vec<(usize, bool)>) -> Cond {
    match flags.len() {
        1 => unit_flags_n::<1>(local, &flags),
        2 => unit_flags_n::<2>(local, &flags),
        3 => unit_flags_n::<3>(local, &flags),
        4 => unit_flags_n::<4>(local, &flags),
        _ => Box::new(move |m: &mut Machine<'_>| -> R<bool> {
            Ok(unit_flags_hold(m, local, &flags))
        }),
    }
}

fn unit_flags_n<const N: usize>(local: usize, flags: &[(usize, bool)]) -> Cond {
    let mut fixed = [(0usize, false); N];
    fixed.copy_from_slice(flags);
    Box::new(move |m: &mut Machine<'_>| -> R<bool> { Ok(unit_flags_hold(m, local, &fixed)) })
}

#[inline(always)]
fn unit_flags_hold(m: &Machine<'_>, local: usize, flags: &[(usize, bool)]) -> bool {
    let base = match m.rt.locals[local] {
        Value::Unit(u) if m.st.units.get(u as usize).is_some_and(|x| x.alive) => {
            Some(u as usize * m.game.unit_slots)
        }
        _ => None,
    };
    flags.iter().all(|&(offset, want)| {
        let set = base.is_some_and(|b| {
            let raw = m.st.unit_vars[b + offset];
            raw != ABSENT && raw != 0
        });
        set == want
    })
}

impl Lowerer<'_> {
    /// A condition on typed reads, when `e` has such a shape and specialising is on.
    pub fn typed_cond(&mut self, e: &Expr) -> Option<Cond> {
        if !self.opts.specialise {
            return None;
        }
        if let Some(c) = owner_cmp(e) {
            return Some(c);
        }
        match e {
            Expr::Bin(
                op @ (BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge),
                a,
                b,
            ) => {
                let (Some(a), Some(b)) = (IntArg::of(a), IntArg::of(b)) else {
                    return self.int_cmp(*op, a, b);
                };
                Some(leaf::compare(*op, a, b))
            }
            // `has(x)` of a whole-number or flag variable: whether it is set (and names something).
            Expr::Call(crate::ir::Builtin::Has, args) if args.len() == 1 => {
                let r = Read::of(&args[0], Ty::Int).or_else(|| Read::of(&args[0], Ty::Bool))?;
                Some(leaf::flag(r, FlagTest::Has))
            }
            Expr::Not(x) => {
                let r = Read::of(x, Ty::Bool)?;
                // Not of a flag: none and false are both false, so `not` holds for both.
                Some(leaf::flag(r, FlagTest::Fails))
            }
            _ => {
                let r = Read::of(e, Ty::Bool)?;
                Some(leaf::flag(r, FlagTest::Holds))
            }
        }
    }

    /// A whole-number expression on typed reads (a read, or arithmetic on such reads and constants).
    pub fn typed_ev(&mut self, e: &Expr) -> Option<Ev> {
        if !self.opts.specialise {
            return None;
        }
        match e {
            Expr::Bin(..) | Expr::Call(..) | Expr::Neg(..) | Expr::Sum(..) => self.int_ev(e),
            _ => {
                if let Some(r) = Read::of(e, Ty::Int) {
                    return Some(Box::new(move |m: &mut Machine<'_>| -> R<Value> {
                        Ok(match r.raw(m) {
                            Some(raw) if raw != ABSENT => Value::Int(raw),
                            _ => Value::None,
                        })
                    }));
                }
                // A variable of another type (`opponent.home`, `u.ready`): the slot decoded as the generic
                // read decodes it.
                let (r, ty) = Read::var(e)?;
                Some(Box::new(move |m: &mut Machine<'_>| -> R<Value> {
                    Ok(r.value(m, ty))
                }))
            }
        }
    }
}

/// A whole-number or flag variable written in place: the entity comes from a local (or `me`/`opponent`),
/// the slot is fixed. Unlike [`Read`], a unit's variable is written whether or not it lives, as the
/// generic assignment does.
#[derive(Clone, Copy)]
pub enum Slot {
    Cell {
        local: usize,
        offset: usize,
    },
    CellOf {
        local: usize,
        offset: usize,
        who: Who,
    },
    Player {
        who: Who,
        offset: usize,
    },
    Unit {
        local: usize,
        offset: usize,
    },
    /// A per-player variable of the cell that a player's cell variable holds (`me.base.stock[me]`).
    HeldCellOf {
        holder: Who,
        held: usize,
        offset: usize,
        who: Who,
    },
}

impl Slot {
    /// The raw slot, or `None` when the operand names nothing.
    #[inline(always)]
    pub fn get_mut<'a>(self, m: &'a mut Machine<'_>) -> Option<&'a mut i64> {
        let g = m.game;
        match self {
            Slot::Cell { local, offset } => match m.rt.locals[local] {
                Value::Cell(c) => m.st.cell_vars.get_mut(c as usize * g.cell_slots + offset),
                _ => None,
            },
            Slot::CellOf { local, offset, who } => match (m.rt.locals[local], who.player(m)) {
                (Value::Cell(c), Some(p)) => {
                    m.st.cell_vars
                        .get_mut(c as usize * g.cell_slots + offset + p as usize)
                }
                _ => None,
            },
            Slot::Player { who, offset } => {
                let p = who.player(m)?;
                m.st.player_vars
                    .get_mut(p as usize * g.player_slots + offset)
            }
            Slot::Unit { local, offset } => match m.rt.locals[local] {
                Value::Unit(u) => m.st.unit_vars.get_mut(u as usize * g.unit_slots + offset),
                _ => None,
            },
            Slot::HeldCellOf {
                holder,
                held,
                offset,
                who,
            } => {
                let h = holder.player(m)?;
                let raw = *m.st.player_vars.get(h as usize * g.player_slots + held)?;
                let p = who.player(m)?;
                if raw == ABSENT {
                    return None;
                }
                // Decoded as the generic path decodes a cell variable.
                let c = raw as crate::board::CellId;
                m.st.cell_vars
                    .get_mut(c as usize * g.cell_slots + offset + p as usize)
            }
        }
    }
}

/// A leaf of a store's value: a typed operand, a local that holds a whole number when the store runs, or a
/// column of a row holding one (`c.soil.yield`).
#[derive(Clone, Copy)]
pub enum StoreLeaf {
    Arg(IntArg),
    Local(usize),
    Column(RowOf, u16),
}

impl StoreLeaf {
    #[inline(always)]
    fn get(self, m: &Machine<'_>) -> Option<i64> {
        match self {
            StoreLeaf::Arg(a) => a.get(m),
            StoreLeaf::Local(s) => match m.rt.locals[s] {
                Value::Int(i) => Some(i),
                _ => None,
            },
            StoreLeaf::Column(row, col) => row.int_column(m, col),
        }
    }

    fn of(e: &Expr, game: &crate::ir::game::Game) -> Option<StoreLeaf> {
        match e {
            Expr::Local(s) => Some(StoreLeaf::Local(*s as usize)),
            Expr::RowCol(r, _, col) => Some(StoreLeaf::Column(RowOf::of(r, game)?, *col)),
            _ => IntArg::of(e).map(StoreLeaf::Arg),
        }
    }
}

/// The value of a store done on a raw slot: a leaf, or the sum, difference or product of two. `get` gives
/// `None` whenever the fast path does not apply (a leaf that is none or not a whole number, an overflow):
/// the store then takes the generic assignment, which gives the same result or error.
#[derive(Clone, Copy)]
pub enum StoreArg {
    Leaf(StoreLeaf),
    Bin(BinOp, StoreLeaf, StoreLeaf),
}

impl StoreArg {
    #[inline(always)]
    pub fn get(self, m: &Machine<'_>) -> Option<i64> {
        match self {
            StoreArg::Leaf(l) => l.get(m),
            StoreArg::Bin(op, a, b) => {
                let (x, y) = (a.get(m)?, b.get(m)?);
                match op {
                    BinOp::Add => x.checked_add(y),
                    BinOp::Sub => x.checked_sub(y),
                    _ => x.checked_mul(y),
                }
            }
        }
    }

    fn of(e: &Expr, game: &crate::ir::game::Game) -> Option<StoreArg> {
        match e {
            Expr::Bin(op @ (BinOp::Add | BinOp::Sub | BinOp::Mul), a, b) => Some(StoreArg::Bin(
                *op,
                StoreLeaf::of(a, game)?,
                StoreLeaf::of(b, game)?,
            )),
            _ => StoreLeaf::of(e, game).map(StoreArg::Leaf),
        }
    }
}

impl Lowerer<'_> {
    /// A store of `value` into `place` that can be done on raw slots: a whole-number variable given a
    /// whole number, or a flag given a flag (set only), when specialising is on.
    pub fn typed_store(
        &mut self,
        place: &crate::ir::Place,
        op: crate::ir::AssignOp,
        value: &Expr,
    ) -> Option<(Slot, StoreArg)> {
        use crate::ir::{AssignOp, Place};
        if !self.opts.specialise {
            return None;
        }
        let local = |x: &Expr| match x {
            Expr::Local(s) => Some(*s as usize),
            _ => None,
        };
        let (slot, ty) = match place {
            Place::CellVar(c, s, t) => (
                Slot::Cell {
                    local: local(c)?,
                    offset: *s as usize,
                },
                *t,
            ),
            Place::CellVarOf(c, s, p, t) => (
                match c {
                    Expr::PlayerVar(h, held, Ty::Cell) => Slot::HeldCellOf {
                        holder: Who::of(h)?,
                        held: *held as usize,
                        offset: *s as usize,
                        who: Who::of(p)?,
                    },
                    _ => Slot::CellOf {
                        local: local(c)?,
                        offset: *s as usize,
                        who: Who::of(p)?,
                    },
                },
                *t,
            ),
            Place::PlayerVar(p, s, t) => (
                Slot::Player {
                    who: Who::of(p)?,
                    offset: *s as usize,
                },
                *t,
            ),
            Place::UnitVar(u, s, t) => (
                Slot::Unit {
                    local: local(u)?,
                    offset: *s as usize,
                },
                *t,
            ),
            _ => return None,
        };
        let value = match (ty, op) {
            (Ty::Int, _) => StoreArg::of(value, self.game)?,
            (Ty::Bool, AssignOp::Set) => StoreArg::Leaf(StoreLeaf::Arg(match value {
                Expr::Const(Value::Bool(b)) => IntArg::Const(i64::from(*b)),
                _ => IntArg::Var(Read::of(value, Ty::Bool)?),
            })),
            _ => return None,
        };
        Some((slot, value))
    }
}

impl Lowerer<'_> {
    /// An `add`/`sub`/`set` of a local whose value is a whole number made of leaves (`add: {total: here}`),
    /// when specialising is on; it runs on the local's number when the local holds one (or none, which
    /// counts as 0 when added to), and by the generic assignment otherwise.
    pub fn typed_local_store(
        &mut self,
        place: &crate::ir::Place,
        value: &Expr,
    ) -> Option<(usize, StoreArg)> {
        if !self.opts.specialise {
            return None;
        }
        let crate::ir::Place::Local(s) = place else {
            return None;
        };
        Some((*s as usize, StoreArg::of(value, self.game)?))
    }
}

impl Lowerer<'_> {
    /// A column of the table row that a unit's type, or a cell's row variable, names (`u.type.speed`,
    /// `c.soil.yield`) for a unit or cell in a local: read in one step instead of a row value then its
    /// column. Same meaning as the generic path: a dead unit or an unset row gives none.
    pub fn typed_row_col(&mut self, e: &Expr) -> Option<Ev> {
        if !self.opts.specialise {
            return None;
        }
        let Expr::RowCol(r, _, col) = e else {
            return None;
        };
        let (row, col) = (RowOf::of(r, self.game)?, *col);
        Some(Box::new(move |m: &mut Machine<'_>| -> R<Value> {
            Ok(row.column(m, col))
        }))
    }
}

/// The table row an operand names, read in place: a row in a local, the kind of the (living) unit in a
/// local, or a cell variable holding a row, of the cell in a local.
#[derive(Clone, Copy)]
pub enum RowOf {
    Local(usize),
    UnitKind {
        local: usize,
        table: u16,
    },
    CellVar {
        local: usize,
        slot: usize,
        table: u16,
    },
}

impl RowOf {
    pub fn of(e: &Expr, game: &crate::ir::game::Game) -> Option<RowOf> {
        match e {
            Expr::Local(s) => Some(RowOf::Local(*s as usize)),
            Expr::UnitType(u) => match **u {
                Expr::Local(s) => Some(RowOf::UnitKind {
                    local: s as usize,
                    table: game.unit_table?,
                }),
                _ => None,
            },
            Expr::CellVar(c, slot, Ty::Row(t)) => match **c {
                Expr::Local(s) => Some(RowOf::CellVar {
                    local: s as usize,
                    slot: *slot as usize,
                    table: *t,
                }),
                _ => None,
            },
            _ => None,
        }
    }

    /// Column `col` of the row (none when the operand names no row).
    #[inline(always)]
    pub fn column(self, m: &Machine<'_>, col: u16) -> Value {
        self.get(m).map_or(Value::None, |(t, r)| {
            m.game.tables[t as usize].value(r, col)
        })
    }

    /// Column `col` of the row when it holds a whole number.
    #[inline(always)]
    pub fn int_column(self, m: &Machine<'_>, col: u16) -> Option<i64> {
        match self.column(m, col) {
            Value::Int(i) => Some(i),
            _ => None,
        }
    }

    /// The table and row, or `None` when the operand names no row.
    #[inline(always)]
    pub fn get(self, m: &Machine<'_>) -> Option<(u16, u16)> {
        match self {
            RowOf::Local(local) => match m.rt.locals[local] {
                Value::Row(t, r) => Some((t, r)),
                _ => None,
            },
            RowOf::UnitKind { local, table } => match m.rt.locals[local] {
                Value::Unit(u) => match m.st.units.get(u as usize) {
                    Some(x) if x.alive => Some((table, x.kind)),
                    _ => None,
                },
                _ => None,
            },
            RowOf::CellVar { local, slot, table } => match m.rt.locals[local] {
                Value::Cell(c) => {
                    let raw = m.st.cell_vars[c as usize * m.game.cell_slots + slot];
                    match Value::decode(raw, Ty::Row(table)) {
                        Value::Row(t, r) => Some((t, r)),
                        _ => None,
                    }
                }
                _ => None,
            },
        }
    }
}
