//! Expressions lowered to closures. Operands that are leaves (a local, `me`, `opponent`, a constant) are read
//! inline by their parent instead of through a call; conditions have their own closures that decide
//! comparisons, `and`, `or` and `not` without building values. The meaning is exactly the IR's.
use super::column_term::ColumnTerm;
use super::set::CSet;
use super::typed::RowOf;
use super::Lowerer;
use crate::engine::machine::{Machine, RunError};
use crate::ir::ops::{arith, compare, out_of_range, pure_builtin};
use crate::ir::*;
use crate::model::state::{NO_OWNER, NO_UNIT};
use crate::model::Value;

type R<T> = Result<T, RunError>;

/// A compiled expression.
pub type Ev = Box<dyn Fn(&mut Machine<'_>) -> R<Value> + Send + Sync>;
/// A compiled condition (the truth of an expression).
pub type Cond = Box<dyn Fn(&mut Machine<'_>) -> R<bool> + Send + Sync>;

/// An operand: leaves are read in place, anything else is a call.
pub enum Arg {
    Local(u16),
    Me,
    Opponent,
    Const(Value),
    /// Where the unit in a local stands (`u.at`): none when it holds no living unit.
    UnitAt(u16),
    /// A column of the type row of the unit in a local (`u.type.range`): none when it holds no living unit.
    /// Only this row operand is a leaf here (the hot one in listings): a general [`RowOf`] would make every
    /// operand larger; other rows' columns go through `typed_row_col`.
    UnitKindColumn {
        local: u16,
        table: u16,
        col: u16,
        /// The column as numbers, by row ([`Value::as_int`] of each): a number operand (a radius, a
        /// reach) is one load from the unit's kind instead of a walk through the game's tables.
        ints: Box<[Option<i64>]>,
    },
    Dyn(Ev),
}

impl Arg {
    #[inline(always)]
    pub fn get(&self, m: &mut Machine<'_>) -> R<Value> {
        match self {
            Arg::Local(s) => Ok(m.rt.locals[*s as usize]),
            Arg::Me => Ok(Value::Player(m.me)),
            Arg::Opponent => Ok(Value::Player(1 - m.me.min(1))),
            Arg::Const(v) => Ok(*v),
            Arg::UnitAt(s) => Ok(match m.rt.locals[*s as usize] {
                Value::Unit(u) => match m.st.units.get(u as usize) {
                    Some(x) if x.alive => Value::Cell(x.at),
                    _ => Value::None,
                },
                _ => Value::None,
            }),
            Arg::UnitKindColumn {
                local, table, col, ..
            } => Ok(RowOf::UnitKind {
                local: *local as usize,
                table: *table,
            }
            .column(m, *col)),
            Arg::Dyn(f) => f(m),
        }
    }

    /// The cell this operand names, if it is one.
    #[inline(always)]
    pub fn cell(&self, m: &mut Machine<'_>) -> R<Option<u32>> {
        Ok(match self.get(m)? {
            Value::Cell(c) => Some(c),
            _ => None,
        })
    }

    /// The living unit this operand names, if it is one.
    #[inline(always)]
    pub fn unit(&self, m: &mut Machine<'_>) -> R<Option<u32>> {
        Ok(match self.get(m)? {
            Value::Unit(u) if m.st.units.get(u as usize).is_some_and(|x| x.alive) => Some(u),
            _ => None,
        })
    }

    /// The operand as an integer (none and non-numbers give `default`).
    #[inline(always)]
    pub fn int_or(&self, m: &mut Machine<'_>, default: i64) -> R<i64> {
        match self {
            // The number straight from the column (as `RowOf::column_as_int` reads it from the table).
            Arg::UnitKindColumn { local, ints, .. } => {
                let kind = match m.rt.locals[*local as usize] {
                    Value::Unit(u) => match m.st.units.get(u as usize) {
                        Some(x) if x.alive => Some(x.kind),
                        _ => None,
                    },
                    _ => None,
                };
                Ok(kind
                    .and_then(|k| ints.get(k as usize).copied().flatten())
                    .unwrap_or(default))
            }
            _ => Ok(self.get(m)?.as_int().unwrap_or(default)),
        }
    }
}

macro_rules! ev {
    (|$m:ident| $body:expr) => {
        Box::new(move |$m: &mut Machine<'_>| -> R<Value> { $body }) as Ev
    };
}
macro_rules! cond {
    (|$m:ident| $body:expr) => {
        Box::new(move |$m: &mut Machine<'_>| -> R<bool> { $body }) as Cond
    };
}

/// A comparison closure for one operator, with the integer case decided inline.
macro_rules! cmp_cond {
    ($a:ident, $b:ident, $op:expr, $int:tt) => {
        cond!(|m| {
            let x = $a.get(m)?;
            let y = $b.get(m)?;
            Ok(match (x, y) {
                (Value::Int(x), Value::Int(y)) => x $int y,
                _ => compare($op, x, y),
            })
        })
    };
}

impl Lowerer<'_> {
    /// An operand: a leaf when specialising, a closure otherwise.
    pub fn arg(&mut self, e: &Expr) -> Arg {
        if self.opts.specialise {
            match e {
                Expr::Local(s) => return Arg::Local(*s),
                Expr::Me => return Arg::Me,
                Expr::Opponent => return Arg::Opponent,
                Expr::Const(v) => return Arg::Const(*v),
                Expr::UnitAt(u) => {
                    if let Expr::Local(s) = **u {
                        return Arg::UnitAt(s);
                    }
                }
                Expr::RowCol(r, _, col) => {
                    if let Some(RowOf::UnitKind { local, table }) = RowOf::of(r, self.game) {
                        let t = &self.game.tables[table as usize];
                        return Arg::UnitKindColumn {
                            local: local as u16,
                            table,
                            col: *col,
                            ints: (0..t.keys.len())
                                .map(|row| t.value(row as u16, *col).as_int())
                                .collect(),
                        };
                    }
                }
                _ => {}
            }
        }
        Arg::Dyn(self.ev(e))
    }

    /// Lowers a condition.
    pub fn cond(&mut self, e: &Expr) -> Cond {
        if let Some(c) = self.typed_cond(e) {
            return c;
        }
        match e {
            Expr::Bin(BinOp::And, a, b) => {
                let (a, b) = (self.cond(a), self.cond(b));
                cond!(|m| Ok(a(m)? && b(m)?))
            }
            Expr::Bin(BinOp::Or, a, b) => {
                let (a, b) = (self.cond(a), self.cond(b));
                cond!(|m| Ok(a(m)? || b(m)?))
            }
            Expr::Not(x) => {
                let x = self.cond(x);
                cond!(|m| Ok(!x(m)?))
            }
            Expr::Bin(
                op @ (BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge),
                a,
                b,
            ) => {
                let (a, b) = (self.arg(a), self.arg(b));
                match op {
                    BinOp::Eq => cmp_cond!(a, b, BinOp::Eq, ==),
                    BinOp::Ne => cmp_cond!(a, b, BinOp::Ne, !=),
                    BinOp::Lt => cmp_cond!(a, b, BinOp::Lt, <),
                    BinOp::Le => cmp_cond!(a, b, BinOp::Le, <=),
                    BinOp::Gt => cmp_cond!(a, b, BinOp::Gt, >),
                    _ => cmp_cond!(a, b, BinOp::Ge, >=),
                }
            }
            Expr::CellEmpty(c) => {
                let c = self.arg(c);
                cond!(|m| Ok(match c.cell(m)? {
                    Some(c) => m.st.occupant[c as usize] == NO_UNIT,
                    None => false,
                }))
            }
            Expr::Any(s) => {
                let s = self.set(s);
                cond!(|m| s.any(m))
            }
            Expr::Call(Builtin::Has, args) => {
                let a = self.arg(&args[0]);
                cond!(|m| Ok(!a.get(m)?.is_none()))
            }
            _ => {
                let f = self.ev(e);
                cond!(|m| Ok(f(m)?.truthy()))
            }
        }
    }

    /// Lowers an expression.
    pub fn ev(&mut self, e: &Expr) -> Ev {
        if let Some(f) = self.typed_ev(e).or_else(|| self.typed_row_col(e)) {
            return f;
        }
        let g = self.game;
        let cell_slots = g.cell_slots;
        let player_slots = g.player_slots;
        let unit_slots = g.unit_slots;
        match e {
            Expr::Const(v) => {
                let v = *v;
                ev!(|_m| Ok(v))
            }
            Expr::Local(s) => {
                let s = *s as usize;
                ev!(|m| Ok(m.rt.locals[s]))
            }
            Expr::Me => ev!(|m| Ok(Value::Player(m.me))),
            Expr::Opponent => ev!(|m| Ok(Value::Player(1 - m.me.min(1)))),
            Expr::Counter(c) => match c {
                Counter::Turn => ev!(|m| Ok(Value::Int(m.st.turn))),
                Counter::Ply => ev!(|m| Ok(Value::Int(m.st.ply))),
                Counter::Points => ev!(|m| Ok(Value::Int(m.st.points))),
                Counter::Round => ev!(|m| Ok(Value::Int(m.st.phase_round))),
            },
            Expr::Neg(x) => {
                let x = self.arg(x);
                ev!(|m| Ok(match x.get(m)? {
                    Value::Int(i) => Value::Int(
                        i.checked_neg()
                            .ok_or_else(|| RunError::new("arithmetic overflow"))?,
                    ),
                    Value::Float(f) => Value::Float(-f),
                    _ => Value::None,
                }))
            }
            Expr::Not(_)
            | Expr::Bin(
                BinOp::And
                | BinOp::Or
                | BinOp::Eq
                | BinOp::Ne
                | BinOp::Lt
                | BinOp::Le
                | BinOp::Gt
                | BinOp::Ge,
                ..,
            )
            | Expr::Any(_) => {
                let c = self.cond(e);
                ev!(|m| Ok(Value::Bool(c(m)?)))
            }
            Expr::Bin(op, a, b) => {
                let (op, a, b) = (*op, self.arg(a), self.arg(b));
                match op {
                    BinOp::Add => ev!(|m| {
                        let (x, y) = (a.get(m)?, b.get(m)?);
                        match (x, y) {
                            (Value::Int(i), Value::Int(j)) if i.checked_add(j).is_some() => {
                                Ok(Value::Int(i + j))
                            }
                            _ => arith(op, x, y),
                        }
                    }),
                    BinOp::Sub => ev!(|m| {
                        let (x, y) = (a.get(m)?, b.get(m)?);
                        match (x, y) {
                            (Value::Int(i), Value::Int(j)) if i.checked_sub(j).is_some() => {
                                Ok(Value::Int(i - j))
                            }
                            _ => arith(op, x, y),
                        }
                    }),
                    _ => ev!(|m| {
                        let (x, y) = (a.get(m)?, b.get(m)?);
                        arith(op, x, y)
                    }),
                }
            }
            Expr::KeyEq(eq, a, b) => {
                let (eq, a, b) = (*eq, self.arg(a), self.arg(b));
                ev!(|m| {
                    let g = m.game;
                    let (x, y) = (a.get(m)?, b.get(m)?);
                    let key = match x {
                        Value::Row(t, r) => Some(g.tables[t as usize].key_syms[r as usize]),
                        Value::Player(p) => Some(g.player_syms[p as usize]),
                        Value::Unit(u) => {
                            // Unit ids are made during play, so they are compared as text.
                            let same = match (m.st.units.get(u as usize), y) {
                                (Some(unit), Value::Text(s)) => *unit.id == **g.symbols.name(s),
                                _ => false,
                            };
                            return Ok(Value::Bool(same == eq));
                        }
                        _ => None,
                    };
                    let same = matches!((key, y), (Some(k), Value::Text(s)) if k == s);
                    Ok(Value::Bool(same == eq))
                })
            }
            Expr::CellOwner(c) => {
                let c = self.arg(c);
                ev!(|m| Ok(match c.cell(m)? {
                    Some(c) => match m.st.owner[c as usize] {
                        NO_OWNER => Value::None,
                        p => Value::Player(p),
                    },
                    None => Value::None,
                }))
            }
            Expr::CellId(c) => {
                let c = self.arg(c);
                ev!(|m| Ok(match c.cell(m)? {
                    Some(c) => Value::Text(m.game.cell_syms[c as usize]),
                    None => Value::None,
                }))
            }
            Expr::CellRow(c) => {
                let c = self.arg(c);
                ev!(|m| Ok(c
                    .cell(m)?
                    .map_or(Value::None, |c| Value::Int(m.game.board.row(c) as i64))))
            }
            Expr::CellCol(c) => {
                let c = self.arg(c);
                ev!(|m| Ok(c
                    .cell(m)?
                    .map_or(Value::None, |c| Value::Int(m.game.board.col(c) as i64))))
            }
            Expr::CellEmpty(c) => {
                let c = self.arg(c);
                ev!(|m| Ok(match c.cell(m)? {
                    Some(c) => Value::Bool(m.st.occupant[c as usize] == NO_UNIT),
                    None => Value::None,
                }))
            }
            Expr::CellUnit(c) => {
                let c = self.arg(c);
                ev!(|m| Ok(match c.cell(m)? {
                    Some(c) => match m.st.occupant[c as usize] {
                        NO_UNIT => Value::None,
                        u => Value::Unit(u),
                    },
                    None => Value::None,
                }))
            }
            Expr::CellVar(c, slot, ty) => {
                let (c, slot, ty) = (self.arg(c), *slot as usize, *ty);
                ev!(|m| Ok(match c.cell(m)? {
                    Some(c) => Value::decode(m.st.cell_vars[c as usize * cell_slots + slot], ty),
                    None => Value::None,
                }))
            }
            Expr::CellVarOf(c, slot, p, ty) => {
                let (c, slot, p, ty) = (self.arg(c), *slot as usize, self.arg(p), *ty);
                ev!(|m| {
                    let c = c.cell(m)?;
                    let p = p.get(m)?;
                    Ok(match (c, p) {
                        (Some(c), Value::Player(p)) => Value::decode(
                            m.st.cell_vars[c as usize * cell_slots + slot + p as usize],
                            ty,
                        ),
                        _ => Value::None,
                    })
                })
            }
            Expr::PlayerId(p) => {
                let p = self.arg(p);
                ev!(|m| Ok(match p.get(m)? {
                    Value::Player(p) => Value::Text(m.game.player_syms[p as usize]),
                    _ => Value::None,
                }))
            }
            Expr::PlayerVar(p, slot, ty) => {
                let (p, slot, ty) = (self.arg(p), *slot as usize, *ty);
                ev!(|m| Ok(match p.get(m)? {
                    Value::Player(p) => {
                        Value::decode(m.st.player_vars[p as usize * player_slots + slot], ty)
                    }
                    _ => Value::None,
                }))
            }
            Expr::UnitOwner(u) => {
                let u = self.arg(u);
                ev!(|m| Ok(u
                    .unit(m)?
                    .map_or(Value::None, |u| Value::Player(m.st.units[u as usize].owner))))
            }
            Expr::UnitAt(u) => {
                let u = self.arg(u);
                ev!(|m| Ok(u
                    .unit(m)?
                    .map_or(Value::None, |u| Value::Cell(m.st.units[u as usize].at))))
            }
            Expr::UnitType(u) => {
                let u = self.arg(u);
                let table = g.unit_table;
                ev!(|m| Ok(match (u.unit(m)?, table) {
                    (Some(u), Some(t)) => Value::Row(t, m.st.units[u as usize].kind),
                    _ => Value::None,
                }))
            }
            Expr::UnitVar(u, slot, ty) => {
                let (u, slot, ty) = (self.arg(u), *slot as usize, *ty);
                ev!(|m| Ok(match u.unit(m)? {
                    Some(u) => Value::decode(m.st.unit_vars[u as usize * unit_slots + slot], ty),
                    None => Value::None,
                }))
            }
            Expr::RowKey(r) => {
                let r = self.arg(r);
                ev!(|m| Ok(match r.get(m)? {
                    Value::Row(t, r) => Value::Text(m.game.tables[t as usize].key_syms[r as usize]),
                    _ => Value::None,
                }))
            }
            Expr::RowCol(r, _, col) => {
                let (r, col) = (self.arg(r), *col);
                ev!(|m| Ok(match r.get(m)? {
                    Value::Row(t, r) => m.game.tables[t as usize].value(r, col),
                    _ => Value::None,
                }))
            }
            Expr::Call(f, args) => self.builtin(*f, args),
            Expr::List(op, args) => self.list(op, args),
            Expr::Expect(x, message) => {
                let (x, message) = (self.arg(x), message.clone());
                ev!(|m| match x.get(m)? {
                    Value::None => Err(RunError::new(message.as_str())),
                    v => Ok(v),
                })
            }
            Expr::Count(s) if s.filter.is_none() && matches!(s.source, SetSource::Range(..)) => {
                // Closed form: a range's size needs no walk, however large.
                let SetSource::Range(lo, hi) = &s.source else {
                    unreachable!("matched above")
                };
                let (lo, hi) = (self.arg(lo), self.arg(hi));
                ev!(|m| {
                    let lo = lo.int_or(m, 0)?;
                    let hi = hi.int_or(m, -1)?;
                    let n = (i128::from(hi) - i128::from(lo) + 1).max(0);
                    Ok(Value::Int(i64::try_from(n).map_err(|_| {
                        RunError::new(format!(
                            "count(range({lo}, {hi})) leaves the 64-bit integer range"
                        ))
                    })?))
                })
            }
            Expr::Count(s) => {
                let s = self.set(s);
                ev!(|m| Ok(Value::Int(s.count(m)?)))
            }
            Expr::First(s) => {
                let s = self.set(s);
                ev!(|m| {
                    let mut first = Value::None;
                    s.each(m, |_, v| {
                        first = v;
                        Ok(false)
                    })?;
                    Ok(first)
                })
            }
            Expr::Sum(s, x) => {
                let generic = self.sum(s, x);
                // Arithmetic on the element cell's own variables: computed from their columns when the set
                // allows.
                match ColumnTerm::of(x, s.slot).filter(|_| self.opts.specialise) {
                    Some(term) => {
                        let set = self.set(s);
                        ev!(|m| match set.sum_column_term(m, &term)? {
                            Some(total) => Ok(Value::Int(total)),
                            None => generic(m),
                        })
                    }
                    None => generic,
                }
            }
            Expr::Steps {
                from,
                to,
                max,
                slot,
                pred,
            } => {
                let (from, to, max) = (self.arg(from), self.arg(to), self.arg(max));
                let empty_test = self.opts.specialise && is_empty_test(pred, *slot);
                let as_bits = self.passable_bits(pred, *slot);
                let slot = *slot as usize;
                let pred = self.cond(pred);
                ev!(|m| {
                    let (Some(a), Some(b)) = (from.cell(m)?, to.cell(m)?) else {
                        return Ok(Value::None);
                    };
                    let max = max.int_or(m, 0)?.clamp(0, u32::MAX as i64) as u32;
                    let g = m.game;
                    if let Some(passable) = &as_bits {
                        if let Some(r) = passable.steps(m, a, b, max, slot) {
                            return Ok(r.map_or(Value::None, |d| Value::Int(d as i64)));
                        }
                    }
                    let mut scratch = std::mem::take(&mut m.rt.search);
                    let r = if empty_test {
                        let occupant = &m.st.occupant;
                        g.board
                            .steps(a, b, max, |x| occupant[x as usize] == NO_UNIT, &mut scratch)
                    } else {
                        let mut failure = None;
                        let r = g.board.steps(
                            a,
                            b,
                            max,
                            |c| {
                                m.rt.locals[slot] = Value::Cell(c);
                                pred(m).unwrap_or_else(|e| {
                                    failure = Some(e);
                                    false
                                })
                            },
                            &mut scratch,
                        );
                        if let Some(e) = failure {
                            m.rt.search = scratch;
                            return Err(e);
                        }
                        r
                    };
                    m.rt.search = scratch;
                    Ok(r.map_or(Value::None, |d| Value::Int(d as i64)))
                })
            }
            Expr::Script(f, args) => {
                let f = *f;
                let args: Vec<Arg> = args.iter().map(|a| self.arg(a)).collect();
                ev!(|m| {
                    // Most calls pass a handful of arguments: keep those on the stack, never drop any.
                    if args.len() <= 8 {
                        let mut vals = [Value::None; 8];
                        for (i, a) in args.iter().enumerate() {
                            vals[i] = a.get(m)?;
                        }
                        super::native::call(m, f, &vals[..args.len()])
                    } else {
                        let vals = args.iter().map(|a| a.get(m)).collect::<R<Vec<_>>>()?;
                        super::native::call(m, f, &vals)
                    }
                })
            }
        }
    }

    fn builtin(&mut self, f: Builtin, args: &[Expr]) -> Ev {
        match f {
            Builtin::Adjacent | Builtin::Distance | Builtin::LineOfSight | Builtin::Midpoint => {
                let (a, b) = (self.arg(&args[0]), self.arg(&args[1]));
                ev!(|m| {
                    let (Some(x), Some(y)) = (a.cell(m)?, b.cell(m)?) else {
                        return Ok(Value::None);
                    };
                    let board = &m.game.board;
                    Ok(match f {
                        Builtin::Adjacent => Value::Bool(board.adjacent(x, y)),
                        Builtin::Distance => board
                            .distance(x, y)
                            .map_or(Value::None, |d| Value::Int(d as i64)),
                        Builtin::Midpoint => match board.shared_neighbours(x, y) {
                            (1, Some(mid)) => Value::Cell(mid),
                            _ => Value::None,
                        },
                        _ => Value::Bool(m.line_of_sight(x, y)?),
                    })
                })
            }
            Builtin::Random => {
                // Whole-number bounds (`random(-bound, bound)`) without tagged values between the nodes.
                if let (Some(a), Some(b)) = (self.int_node(&args[0]), self.int_node(&args[1])) {
                    return ev!(|m| {
                        let lo = a.get(m)?.unwrap_or(0);
                        let hi = b.get(m)?.unwrap_or(0);
                        draw(m, lo, hi)
                    });
                }
                let (a, b) = (self.arg(&args[0]), self.arg(&args[1]));
                ev!(|m| {
                    let lo = a.int_or(m, 0)?;
                    let hi = b.int_or(m, 0)?;
                    draw(m, lo, hi)
                })
            }
            Builtin::Coin => ev!(|m| Ok(Value::Bool(m.rng.coin()))),
            Builtin::Logging => ev!(|m| Ok(Value::Bool(m.logging()))),
            Builtin::PlayerNamed => {
                let a = self.arg(&args[0]);
                ev!(|m| Ok(match a.get(m)? {
                    Value::Text(s) => m
                        .game
                        .player_syms
                        .iter()
                        .position(|p| *p == s)
                        .map_or(Value::None, |p| Value::Player(p as u8)),
                    _ => Value::None,
                }))
            }
            Builtin::Chance => {
                let a = self.arg(&args[0]);
                ev!(|m| {
                    let p = a.get(m)?.as_f64().unwrap_or(0.0);
                    if !(0.0..=1.0).contains(&p) {
                        return Err(RunError::new(format!(
                            "chance({p}): a probability must be between 0 and 1"
                        )));
                    }
                    Ok(Value::Bool(m.rng.chance(p)))
                })
            }
            Builtin::Has => {
                let a = self.arg(&args[0]);
                ev!(|m| Ok(Value::Bool(!a.get(m)?.is_none())))
            }
            Builtin::Min | Builtin::Max if args.len() == 2 => {
                let (a, b) = (self.arg(&args[0]), self.arg(&args[1]));
                let min = f == Builtin::Min;
                ev!(|m| {
                    let (x, y) = (a.get(m)?, b.get(m)?);
                    if let (Value::Int(i), Value::Int(j)) = (x, y) {
                        return Ok(Value::Int(if min { i.min(j) } else { i.max(j) }));
                    }
                    let vals = [x, y];
                    Ok(pure_builtin(f, &vals).unwrap_or(Value::None))
                })
            }
            _ => {
                let args: Vec<Arg> = args.iter().take(2).map(|a| self.arg(a)).collect();
                ev!(|m| {
                    let mut vals = [Value::None; 2];
                    for (i, a) in args.iter().enumerate() {
                        vals[i] = a.get(m)?;
                    }
                    let vals = &vals[..args.len()];
                    match pure_builtin(f, vals) {
                        Some(v) => Ok(v),
                        None => out_of_range(f, vals).map_or(Ok(Value::None), Err),
                    }
                })
            }
        }
    }

    /// `sum(s, x)` walking the set.
    fn sum(&mut self, s: &SetExpr, x: &Expr) -> Ev {
        let slot = s.slot as usize;
        let (mut s, impure) = (self.set(s), !x.reads(&mut Vec::new()));
        // A script in the summed expression may change the state while the set is walked.
        s.live |= impure;
        let x = self.ev(x);
        ev!(|m| {
            let mut total = Value::Int(0);
            s.each(m, |m, v| {
                m.rt.locals[slot] = v;
                let y = x(m)?;
                if !y.is_none() {
                    total = match (total, y) {
                        (Value::Int(a), Value::Int(b)) if a.checked_add(b).is_some() => {
                            Value::Int(a + b)
                        }
                        _ => arith(BinOp::Add, total, y)?,
                    };
                }
                Ok(true)
            })?;
            Ok(total)
        })
    }

    /// Lowers a set (planned first when scans are on).
    pub fn set(&mut self, s: &SetExpr) -> CSet {
        CSet::lower(self, s)
    }
}

/// Whether a cell test is exactly `it.empty` for the element in `slot` (then it runs natively).
pub fn is_empty_test(pred: &Expr, slot: u16) -> bool {
    matches!(pred, Expr::CellEmpty(c) if matches!(**c, Expr::Local(s) if s == slot))
}

/// `random(lo, hi)` once its bounds are known: a draw from the match's generator, or the error of bounds
/// the wrong way round.
#[inline(always)]
fn draw(m: &mut Machine<'_>, lo: i64, hi: i64) -> R<Value> {
    if lo > hi {
        return Err(RunError::new(format!(
            "random({lo}, {hi}): the lower bound is above the upper bound"
        )));
    }
    Ok(Value::Int(m.rng.int_in(lo, hi)))
}
