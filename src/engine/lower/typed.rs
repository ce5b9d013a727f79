//! Typed operands read in place. Most tests of legality compare whole-number variables of a cell, a
//! player or a unit named by a local (or `me`) with a constant or another such variable: those reads are
//! decoded here without a call and without a tagged value, and a comparison or sum of two of them is one
//! closure. Boolean variables used as conditions are read the same way. Semantics are exactly the
//! generic path's: an unset variable or an operand that names nothing is none, none compares equal only
//! to none and is never ordered, and arithmetic with none gives none.
use super::expr::{Cond, Ev};
use super::Lowerer;
use crate::engine::machine::{Machine, RunError};
use crate::ir::{BinOp, Expr};
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
    /// The raw slot value, or `None` when the operand names nothing (then the value is none).
    #[inline(always)]
    fn raw(self, m: &Machine<'_>) -> Option<i64> {
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

macro_rules! int_cmp {
    ($a:ident, $b:ident, $op:expr) => {
        Box::new(move |m: &mut Machine<'_>| -> R<bool> {
            Ok(compare_opt($op, $a.get(m), $b.get(m)))
        }) as Cond
    };
}

impl Lowerer<'_> {
    /// A condition on typed reads, when `e` has such a shape and specialising is on.
    pub fn typed_cond(&mut self, e: &Expr) -> Option<Cond> {
        if !self.opts.specialise {
            return None;
        }
        match e {
            Expr::Bin(
                op @ (BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge),
                a,
                b,
            ) => {
                let (a, b) = (IntArg::of(a)?, IntArg::of(b)?);
                Some(match op {
                    BinOp::Eq => int_cmp!(a, b, BinOp::Eq),
                    BinOp::Ne => int_cmp!(a, b, BinOp::Ne),
                    BinOp::Lt => int_cmp!(a, b, BinOp::Lt),
                    BinOp::Le => int_cmp!(a, b, BinOp::Le),
                    BinOp::Gt => int_cmp!(a, b, BinOp::Gt),
                    _ => int_cmp!(a, b, BinOp::Ge),
                })
            }
            Expr::Not(x) => {
                let r = Read::of(x, Ty::Bool)?;
                // Not of a flag: none and false are both false, so `not` holds for both.
                Some(Box::new(move |m: &mut Machine<'_>| -> R<bool> {
                    Ok(!r.raw(m).is_some_and(|raw| raw != ABSENT && raw != 0))
                }))
            }
            _ => {
                let r = Read::of(e, Ty::Bool)?;
                Some(Box::new(move |m: &mut Machine<'_>| -> R<bool> {
                    Ok(r.raw(m).is_some_and(|raw| raw != ABSENT && raw != 0))
                }))
            }
        }
    }

    /// A whole-number expression on typed reads (a read, or the sum or difference of two).
    pub fn typed_ev(&mut self, e: &Expr) -> Option<Ev> {
        if !self.opts.specialise {
            return None;
        }
        match e {
            Expr::Bin(op @ (BinOp::Add | BinOp::Sub), a, b) => {
                let (a, b) = (IntArg::of(a)?, IntArg::of(b)?);
                let op = *op;
                Some(Box::new(move |m: &mut Machine<'_>| -> R<Value> {
                    let (Some(x), Some(y)) = (a.get(m), b.get(m)) else {
                        return Ok(Value::None);
                    };
                    let r = if op == BinOp::Add {
                        x.checked_add(y)
                    } else {
                        x.checked_sub(y)
                    };
                    r.map(Value::Int)
                        .ok_or_else(|| RunError::new("arithmetic overflow"))
                }))
            }
            _ => {
                let r = Read::of(e, Ty::Int)?;
                Some(Box::new(move |m: &mut Machine<'_>| -> R<Value> {
                    Ok(match r.raw(m) {
                        Some(raw) if raw != ABSENT => Value::Int(raw),
                        _ => Value::None,
                    })
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
        }
    }
}

/// The value of a store done on a raw slot: a typed operand, or a local that holds a whole number when
/// the store runs (anything else there, none or a fraction, takes the generic assignment).
#[derive(Clone, Copy)]
pub enum StoreArg {
    Arg(IntArg),
    Local(usize),
}

impl StoreArg {
    #[inline(always)]
    pub fn get(self, m: &Machine<'_>) -> Option<i64> {
        match self {
            StoreArg::Arg(a) => a.get(m),
            StoreArg::Local(s) => match m.rt.locals[s] {
                Value::Int(i) => Some(i),
                _ => None,
            },
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
                Slot::CellOf {
                    local: local(c)?,
                    offset: *s as usize,
                    who: Who::of(p)?,
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
            (Ty::Int, _) => match value {
                Expr::Local(s) => StoreArg::Local(*s as usize),
                _ => StoreArg::Arg(IntArg::of(value)?),
            },
            (Ty::Bool, AssignOp::Set) => StoreArg::Arg(match value {
                Expr::Const(Value::Bool(b)) => IntArg::Const(i64::from(*b)),
                _ => IntArg::Var(Read::of(value, Ty::Bool)?),
            }),
            _ => return None,
        };
        Some((slot, value))
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
        let col = *col;
        match &**r {
            Expr::UnitType(u) => {
                let Expr::Local(s) = **u else {
                    return None;
                };
                let (s, t) = (s as usize, self.game.unit_table? as usize);
                Some(Box::new(move |m: &mut Machine<'_>| -> R<Value> {
                    Ok(match m.rt.locals[s] {
                        Value::Unit(u) => match m.st.units.get(u as usize) {
                            Some(x) if x.alive => m.game.tables[t].value(x.kind, col),
                            _ => Value::None,
                        },
                        _ => Value::None,
                    })
                }))
            }
            Expr::CellVar(c, slot, Ty::Row(t)) => {
                let Expr::Local(s) = **c else {
                    return None;
                };
                let (s, slot, t) = (s as usize, *slot as usize, *t);
                Some(Box::new(move |m: &mut Machine<'_>| -> R<Value> {
                    Ok(match m.rt.locals[s] {
                        Value::Cell(c) => {
                            let raw = m.st.cell_vars[c as usize * m.game.cell_slots + slot];
                            match Value::decode(raw, Ty::Row(t)) {
                                Value::Row(t, r) => m.game.tables[t as usize].value(r, col),
                                _ => Value::None,
                            }
                        }
                        _ => Value::None,
                    })
                }))
            }
            _ => None,
        }
    }
}
