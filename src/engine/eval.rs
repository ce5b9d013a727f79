//! Evaluating compiled expressions and sets against a match state. Native, allocation-free on the hot path.
use serde_json::Value as Json;

use super::machine::{Machine, RunError};
use crate::limits::MAX_WALK;
use crate::model::state::{NO_OWNER, NO_UNIT};
use crate::model::Value;
use crate::ruleset::ir::*;

type R<T> = Result<T, RunError>;

/// Arithmetic and comparison on two values (also used for constant folding).
pub fn arith(op: BinOp, a: Value, b: Value) -> R<Value> {
    use Value::*;
    let overflow = || RunError::new("arithmetic overflow");
    Ok(match op {
        BinOp::Eq => Bool(values_equal(a, b)),
        BinOp::Ne => Bool(!values_equal(a, b)),
        BinOp::Coalesce => {
            if a.is_none() {
                b
            } else {
                a
            }
        }
        _ => {
            if a.is_none() || b.is_none() {
                return Ok(match op {
                    BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => Bool(false),
                    _ => None,
                });
            }
            match (a, b) {
                (Int(x), Int(y)) => match op {
                    BinOp::Add => Int(x.checked_add(y).ok_or_else(overflow)?),
                    BinOp::Sub => Int(x.checked_sub(y).ok_or_else(overflow)?),
                    BinOp::Mul => Int(x.checked_mul(y).ok_or_else(overflow)?),
                    BinOp::Div => {
                        if y == 0 {
                            return Err(RunError::new("division by zero"));
                        }
                        Int(x.checked_div_euclid(y).ok_or_else(overflow)?)
                    }
                    BinOp::Rem => {
                        if y == 0 {
                            return Err(RunError::new("division by zero"));
                        }
                        Int(x.checked_rem_euclid(y).ok_or_else(overflow)?)
                    }
                    BinOp::Lt => Bool(x < y),
                    BinOp::Le => Bool(x <= y),
                    BinOp::Gt => Bool(x > y),
                    BinOp::Ge => Bool(x >= y),
                    BinOp::And => Bool(x != 0 && y != 0),
                    BinOp::Or => Bool(x != 0 || y != 0),
                    _ => None,
                },
                (Bool(x), Bool(y)) => match op {
                    BinOp::And => Bool(x && y),
                    BinOp::Or => Bool(x || y),
                    _ => return Err(RunError::new("arithmetic on conditions")),
                },
                _ => {
                    let (Some(x), Some(y)) = (a.as_f64(), b.as_f64()) else {
                        return Err(RunError::new("arithmetic on non-numbers"));
                    };
                    match op {
                        BinOp::Add => Float(x + y),
                        BinOp::Sub => Float(x - y),
                        BinOp::Mul => Float(x * y),
                        BinOp::Div => Float(x / y),
                        BinOp::Rem => Float(x.rem_euclid(y)),
                        BinOp::Lt => Bool(x < y),
                        BinOp::Le => Bool(x <= y),
                        BinOp::Gt => Bool(x > y),
                        BinOp::Ge => Bool(x >= y),
                        _ => None,
                    }
                }
            }
        }
    })
}

/// A comparison, with the same meaning as `arith` but no error path: comparisons cannot fail.
#[inline]
pub fn compare(op: BinOp, a: Value, b: Value) -> bool {
    if let (Value::Int(x), Value::Int(y)) = (a, b) {
        return match op {
            BinOp::Eq => x == y,
            BinOp::Ne => x != y,
            BinOp::Lt => x < y,
            BinOp::Le => x <= y,
            BinOp::Gt => x > y,
            _ => x >= y,
        };
    }
    matches!(arith(op, a, b), Ok(Value::Bool(true)))
}

fn values_equal(a: Value, b: Value) -> bool {
    match (a, b) {
        (Value::Int(x), Value::Float(y)) | (Value::Float(y), Value::Int(x)) => x as f64 == y,
        _ => a == b,
    }
}

/// An integral float as an integer, when it is one (`as` would saturate silently).
fn float_to_int(x: f64) -> Option<i64> {
    // 2^63 is exactly representable; every float below it and at least -2^63 fits.
    (x.is_finite() && (-9_223_372_036_854_775_808.0..9_223_372_036_854_775_808.0).contains(&x))
        .then_some(x as i64)
}

/// Built-ins that need no state (used for folding too).
pub fn pure_builtin(f: Builtin, v: &[Value]) -> Option<Value> {
    use Value::*;
    Some(match (f, v) {
        (Builtin::Min, [Int(a), Int(b)]) => Int(*a.min(b)),
        (Builtin::Max, [Int(a), Int(b)]) => Int(*a.max(b)),
        (Builtin::Min, [a, b]) => Float(a.as_f64()?.min(b.as_f64()?)),
        (Builtin::Max, [a, b]) => Float(a.as_f64()?.max(b.as_f64()?)),
        (Builtin::Abs, [Int(a)]) => Int(a.checked_abs()?),
        (Builtin::Abs, [Float(a)]) => Float(a.abs()),
        (Builtin::Floor, [Int(a)]) => Int(*a),
        (Builtin::Ceil, [Int(a)]) => Int(*a),
        (Builtin::Floor, [Float(a)]) => Int(float_to_int(a.floor())?),
        (Builtin::Ceil, [Float(a)]) => Int(float_to_int(a.ceil())?),
        (Builtin::Float, [a]) => Float(a.as_f64()?),
        (Builtin::Has, [a]) => Bool(!a.is_none()),
        _ => return Option::None,
    })
}

/// Why a numeric built-in has no value for arguments it accepts (none, not a silent none).
fn out_of_range(f: Builtin, v: &[Value]) -> Option<RunError> {
    let what = match (f, v) {
        (Builtin::Abs, [Value::Int(i64::MIN)]) => "abs(-9223372036854775808)".to_string(),
        (Builtin::Floor | Builtin::Ceil, [Value::Float(x)])
            if float_to_int(x.floor()).is_none() =>
        {
            format!("{f:?}({x})").to_lowercase()
        }
        _ => return None,
    };
    Some(RunError::new(format!(
        "{what} leaves the 64-bit integer range"
    )))
}

impl Machine<'_> {
    #[inline]
    pub fn local(&self, slot: u16) -> Value {
        self.rt.locals[slot as usize]
    }
    #[inline]
    pub fn set_local(&mut self, slot: u16, v: Value) {
        self.rt.locals[slot as usize] = v;
    }

    /// Evaluates a condition. Comparisons, `and`, `or` and `not` are decided here without building
    /// intermediate values: conditions are most of what legality checks evaluate.
    pub fn cond(&mut self, e: &Expr) -> R<bool> {
        match e {
            Expr::Bin(BinOp::And, a, b) => Ok(self.cond(a)? && self.cond(b)?),
            Expr::Bin(BinOp::Or, a, b) => Ok(self.cond(a)? || self.cond(b)?),
            Expr::Not(x) => Ok(!self.cond(x)?),
            Expr::Bin(
                op @ (BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge),
                a,
                b,
            ) => {
                let a = self.eval(a)?;
                let b = self.eval(b)?;
                Ok(compare(*op, a, b))
            }
            Expr::CellEmpty(c) => Ok(match self.cell(c)? {
                Some(c) => self.st.occupant[c as usize] == NO_UNIT,
                None => false,
            }),
            _ => Ok(self.eval(e)?.truthy()),
        }
    }

    fn cell(&mut self, e: &Expr) -> R<Option<u32>> {
        Ok(match self.eval(e)? {
            Value::Cell(c) => Some(c),
            _ => None,
        })
    }

    fn unit(&mut self, e: &Expr) -> R<Option<u32>> {
        Ok(match self.eval(e)? {
            Value::Unit(u) if self.st.units.get(u as usize).is_some_and(|u| u.alive) => Some(u),
            _ => None,
        })
    }

    /// Evaluates an expression. The common small forms are handled here with a small frame; the rest
    /// (sets, paths, scripts, text keys) in `eval_rest`, kept out of line.
    #[inline]
    pub fn eval(&mut self, e: &Expr) -> R<Value> {
        let g = self.game;
        match e {
            Expr::Const(v) => Ok(*v),
            Expr::Local(s) => Ok(self.local(*s)),
            Expr::Me => Ok(Value::Player(self.me)),
            Expr::CellVarOf(c, slot, p, ty) => {
                let c = self.eval(c)?;
                let p = self.eval(p)?;
                Ok(match (c, p) {
                    (Value::Cell(c), Value::Player(p)) => Value::decode(
                        self.st.cell_vars[c as usize * g.cell_slots + *slot as usize + p as usize],
                        *ty,
                    ),
                    _ => Value::None,
                })
            }
            Expr::CellVar(c, slot, ty) => Ok(match self.eval(c)? {
                Value::Cell(c) => Value::decode(
                    self.st.cell_vars[c as usize * g.cell_slots + *slot as usize],
                    *ty,
                ),
                _ => Value::None,
            }),
            Expr::PlayerVar(p, slot, ty) => Ok(match self.eval(p)? {
                Value::Player(p) => Value::decode(
                    self.st.player_vars[p as usize * g.player_slots + *slot as usize],
                    *ty,
                ),
                _ => Value::None,
            }),
            Expr::UnitVar(u, slot, ty) => Ok(match self.eval(u)? {
                Value::Unit(u) if self.st.units.get(u as usize).is_some_and(|x| x.alive) => {
                    Value::decode(
                        self.st.unit_vars[u as usize * g.unit_slots + *slot as usize],
                        *ty,
                    )
                }
                _ => Value::None,
            }),
            Expr::CellUnit(c) => Ok(match self.eval(c)? {
                Value::Cell(c) => match self.st.occupant[c as usize] {
                    NO_UNIT => Value::None,
                    u => Value::Unit(u),
                },
                _ => Value::None,
            }),
            _ => self.eval_rest(e),
        }
    }

    #[inline(never)]
    fn eval_rest(&mut self, e: &Expr) -> R<Value> {
        let g = self.game;
        Ok(match e {
            Expr::Const(v) => *v,
            Expr::Local(s) => self.local(*s),
            Expr::Me => Value::Player(self.me),
            Expr::Opponent => Value::Player(1 - self.me.min(1)),
            Expr::Counter(c) => Value::Int(match c {
                Counter::Turn => self.st.turn,
                Counter::Ply => self.st.ply,
                Counter::Points => self.st.points,
                Counter::Round => self.st.phase_round,
            }),
            Expr::Neg(x) => match self.eval(x)? {
                Value::Int(i) => Value::Int(
                    i.checked_neg()
                        .ok_or_else(|| RunError::new("arithmetic overflow"))?,
                ),
                Value::Float(f) => Value::Float(-f),
                _ => Value::None,
            },
            Expr::Not(x) => Value::Bool(!self.cond(x)?),
            Expr::Bin(BinOp::And, a, b) => Value::Bool(self.cond(a)? && self.cond(b)?),
            Expr::Bin(BinOp::Or, a, b) => Value::Bool(self.cond(a)? || self.cond(b)?),
            Expr::Bin(
                op @ (BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge),
                a,
                b,
            ) => {
                let a = self.eval(a)?;
                let b = self.eval(b)?;
                Value::Bool(compare(*op, a, b))
            }
            Expr::Bin(op, a, b) => {
                let a = self.eval(a)?;
                let b = self.eval(b)?;
                match (op, a, b) {
                    (BinOp::Add, Value::Int(x), Value::Int(y)) if x.checked_add(y).is_some() => {
                        Value::Int(x + y)
                    }
                    (BinOp::Sub, Value::Int(x), Value::Int(y)) if x.checked_sub(y).is_some() => {
                        Value::Int(x - y)
                    }
                    _ => arith(*op, a, b)?,
                }
            }
            Expr::KeyEq(eq, a, b) => {
                let a = self.eval(a)?;
                let b = self.eval(b)?;
                let key = match a {
                    Value::Row(t, r) => Some(g.tables[t as usize].key_syms[r as usize]),
                    Value::Player(p) => Some(g.player_syms[p as usize]),
                    Value::Unit(u) => {
                        // Unit ids are made during play, so they are compared as text.
                        let same = match (self.st.units.get(u as usize), b) {
                            (Some(unit), Value::Text(s)) => *unit.id == **g.symbols.name(s),
                            _ => false,
                        };
                        return Ok(Value::Bool(same == *eq));
                    }
                    _ => None,
                };
                let same = matches!((key, b), (Some(k), Value::Text(s)) if k == s);
                Value::Bool(same == *eq)
            }
            Expr::CellOwner(c) => match self.cell(c)? {
                Some(c) => match self.st.owner[c as usize] {
                    NO_OWNER => Value::None,
                    p => Value::Player(p),
                },
                None => Value::None,
            },
            Expr::CellId(c) => match self.cell(c)? {
                Some(c) => Value::Text(g.cell_syms[c as usize]),
                None => Value::None,
            },
            Expr::CellRow(c) => self
                .cell(c)?
                .map_or(Value::None, |c| Value::Int(g.board.row(c) as i64)),
            Expr::CellCol(c) => self
                .cell(c)?
                .map_or(Value::None, |c| Value::Int(g.board.col(c) as i64)),
            Expr::CellUnit(c) => match self.cell(c)? {
                Some(c) => match self.st.occupant[c as usize] {
                    NO_UNIT => Value::None,
                    u => Value::Unit(u),
                },
                None => Value::None,
            },
            Expr::CellEmpty(c) => match self.cell(c)? {
                Some(c) => Value::Bool(self.st.occupant[c as usize] == NO_UNIT),
                None => Value::None,
            },
            Expr::CellVar(c, slot, ty) => match self.cell(c)? {
                Some(c) => Value::decode(
                    self.st.cell_vars[c as usize * g.cell_slots + *slot as usize],
                    *ty,
                ),
                None => Value::None,
            },
            Expr::CellVarOf(c, slot, p, ty) => {
                let c = self.cell(c)?;
                let p = self.eval(p)?;
                match (c, p) {
                    (Some(c), Value::Player(p)) => Value::decode(
                        self.st.cell_vars[c as usize * g.cell_slots + *slot as usize + p as usize],
                        *ty,
                    ),
                    _ => Value::None,
                }
            }
            Expr::PlayerId(p) => match self.eval(p)? {
                Value::Player(p) => Value::Text(g.player_syms[p as usize]),
                _ => Value::None,
            },
            Expr::PlayerVar(p, slot, ty) => match self.eval(p)? {
                Value::Player(p) => Value::decode(
                    self.st.player_vars[p as usize * g.player_slots + *slot as usize],
                    *ty,
                ),
                _ => Value::None,
            },
            Expr::UnitOwner(u) => self.unit(u)?.map_or(Value::None, |u| {
                Value::Player(self.st.units[u as usize].owner)
            }),
            Expr::UnitAt(u) => self
                .unit(u)?
                .map_or(Value::None, |u| Value::Cell(self.st.units[u as usize].at)),
            Expr::UnitType(u) => match (self.unit(u)?, g.unit_table) {
                (Some(u), Some(t)) => Value::Row(t, self.st.units[u as usize].kind),
                _ => Value::None,
            },
            Expr::UnitId(u) => match self.eval(u)? {
                Value::Unit(u) => {
                    let id = self.st.units[u as usize].id.clone();
                    match g.symbols.get(&id) {
                        Some(s) => Value::Text(s),
                        None => Value::None,
                    }
                }
                _ => Value::None,
            },
            Expr::UnitVar(u, slot, ty) => match self.unit(u)? {
                Some(u) => Value::decode(
                    self.st.unit_vars[u as usize * g.unit_slots + *slot as usize],
                    *ty,
                ),
                None => Value::None,
            },
            Expr::RowKey(r) => match self.eval(r)? {
                Value::Row(t, r) => Value::Text(g.tables[t as usize].key_syms[r as usize]),
                _ => Value::None,
            },
            Expr::RowCol(r, _, col) => match self.eval(r)? {
                Value::Row(t, r) => g.tables[t as usize].value(r, *col),
                _ => Value::None,
            },
            Expr::Call(f, args) => self.builtin(*f, args)?,
            Expr::Count(s) if s.filter.is_none() && matches!(s.source, SetSource::Range(..)) => {
                // Closed form: a range's size needs no walk, however large.
                let SetSource::Range(lo, hi) = &s.source else {
                    unreachable!()
                };
                let lo = self.eval(lo)?.as_int().unwrap_or(0);
                let hi = self.eval(hi)?.as_int().unwrap_or(-1);
                let n = (i128::from(hi) - i128::from(lo) + 1).max(0);
                Value::Int(i64::try_from(n).map_err(|_| {
                    RunError::new(format!(
                        "count(range({lo}, {hi})) leaves the 64-bit integer range"
                    ))
                })?)
            }
            Expr::Count(s) => {
                let mut n = 0i64;
                self.each(s, &mut |_, _| {
                    n += 1;
                    Ok(true)
                })?;
                Value::Int(n)
            }
            Expr::Any(s) => {
                let mut found = false;
                self.each(s, &mut |_, _| {
                    found = true;
                    Ok(false)
                })?;
                Value::Bool(found)
            }
            Expr::First(s) => {
                let mut first = Value::None;
                self.each(s, &mut |_, v| {
                    first = v;
                    Ok(false)
                })?;
                first
            }
            Expr::Sum(s, e) => {
                let mut total = Value::Int(0);
                let slot = s.slot;
                self.each(s, &mut |m, v| {
                    m.set_local(slot, v);
                    let x = m.eval(e)?;
                    if !x.is_none() {
                        total = arith(BinOp::Add, total, x)?;
                    }
                    Ok(true)
                })?;
                total
            }
            Expr::Steps {
                from,
                to,
                max,
                slot,
                pred,
            } => {
                let (Some(a), Some(b)) = (self.cell(from)?, self.cell(to)?) else {
                    return Ok(Value::None);
                };
                let max = self
                    .eval(max)?
                    .as_int()
                    .unwrap_or(0)
                    .clamp(0, u32::MAX as i64) as u32;
                let mut scratch = std::mem::take(&mut self.rt.search);
                if is_empty_test(pred, *slot) {
                    let occupant = &self.st.occupant;
                    let r =
                        g.board
                            .steps(a, b, max, |x| occupant[x as usize] == NO_UNIT, &mut scratch);
                    self.rt.search = scratch;
                    return Ok(r.map_or(Value::None, |d| Value::Int(d as i64)));
                }
                let mut failure = None;
                let r = g.board.steps(
                    a,
                    b,
                    max,
                    |c| {
                        self.set_local(*slot, Value::Cell(c));
                        match self.cond(pred) {
                            Ok(ok) => ok,
                            Err(e) => {
                                failure = Some(e);
                                false
                            }
                        }
                    },
                    &mut scratch,
                );
                self.rt.search = scratch;
                if let Some(e) = failure {
                    return Err(e);
                }
                r.map_or(Value::None, |d| Value::Int(d as i64))
            }
            Expr::Script(f, args) => {
                // Most calls pass a handful of arguments: keep those on the stack, never drop any.
                if args.len() <= 8 {
                    let mut vals = [Value::None; 8];
                    for (i, a) in args.iter().enumerate() {
                        vals[i] = self.eval(a)?;
                    }
                    self.call_script(*f, &vals[..args.len()])?
                } else {
                    let vals = args.iter().map(|a| self.eval(a)).collect::<R<Vec<_>>>()?;
                    self.call_script(*f, &vals)?
                }
            }
        })
    }

    fn builtin(&mut self, f: Builtin, args: &[Expr]) -> R<Value> {
        let g = self.game;
        match f {
            Builtin::Adjacent | Builtin::Distance | Builtin::LineOfSight | Builtin::Midpoint => {
                let (Some(a), Some(b)) = (self.cell(&args[0])?, self.cell(&args[1])?) else {
                    return Ok(Value::None);
                };
                Ok(match f {
                    Builtin::Adjacent => Value::Bool(g.board.adjacent(a, b)),
                    Builtin::Distance => g
                        .board
                        .distance(a, b)
                        .map_or(Value::None, |d| Value::Int(d as i64)),
                    Builtin::Midpoint => match g.board.shared_neighbours(a, b) {
                        (1, Some(m)) => Value::Cell(m),
                        _ => Value::None,
                    },
                    _ => Value::Bool(self.line_of_sight(a, b)?),
                })
            }
            Builtin::Random => {
                let lo = self.eval(&args[0])?.as_int().unwrap_or(0);
                let hi = self.eval(&args[1])?.as_int().unwrap_or(0);
                if lo > hi {
                    return Err(RunError::new(format!(
                        "random({lo}, {hi}): the lower bound is above the upper bound"
                    )));
                }
                Ok(Value::Int(self.st_rng().int_in(lo, hi)))
            }
            Builtin::Coin => Ok(Value::Bool(self.st_rng().coin())),
            Builtin::PlayerNamed => Ok(match self.eval(&args[0])? {
                Value::Text(s) => g
                    .player_syms
                    .iter()
                    .position(|p| *p == s)
                    .map_or(Value::None, |p| Value::Player(p as u8)),
                _ => Value::None,
            }),
            Builtin::Chance => {
                let p = self.eval(&args[0])?.as_f64().unwrap_or(0.0);
                if !(0.0..=1.0).contains(&p) {
                    return Err(RunError::new(format!(
                        "chance({p}): a probability must be between 0 and 1"
                    )));
                }
                Ok(Value::Bool(self.st_rng().chance(p)))
            }
            _ => {
                let mut vals = [Value::None; 2];
                for (i, a) in args.iter().take(2).enumerate() {
                    vals[i] = self.eval(a)?;
                }
                let vals = &vals[..args.len().min(2)];
                match pure_builtin(f, vals) {
                    Some(v) => Ok(v),
                    None => out_of_range(f, vals).map_or(Ok(Value::None), Err),
                }
            }
        }
    }

    /// Shared-neighbour line of sight as the ruleset's `board.line_of_sight` declares it.
    pub fn line_of_sight(&mut self, a: u32, b: u32) -> R<bool> {
        let g = self.game;
        match g.board.distance(a, b) {
            Some(1) => return Ok(true),
            Some(2) => {}
            _ => return Ok(false),
        }
        let (1, Some(mid)) = g.board.shared_neighbours(a, b) else {
            return Ok(false);
        };
        let Some(sight) = &g.sight else {
            return Ok(true);
        };
        if let Some(opaque) = &sight.opaque {
            if self.pred_on(opaque, b)? || self.pred_on(opaque, mid)? {
                return Ok(false);
            }
        }
        if let Some(screens) = &sight.screens {
            if self.pred_on(screens, mid)? {
                let over = match &sight.see_over {
                    Some(s) => self.pred_on(s, a)?,
                    None => false,
                };
                return Ok(over);
            }
        }
        Ok(true)
    }

    /// Evaluates a line-of-sight cell test for cell `c`.
    fn pred_on(&mut self, e: &Expr, c: u32) -> R<bool> {
        // Line-of-sight tests are compiled with their cell in the reserved slot, clear of action locals.
        let slot = crate::ruleset::analyze::SIGHT_SLOT;
        self.set_local(slot, Value::Cell(c));
        self.cond(e)
    }

    /// Calls `f` for every element of the set that passes its filter; `f` returns false to stop early.
    pub fn each(&mut self, s: &SetExpr, f: &mut dyn FnMut(&mut Self, Value) -> R<bool>) -> R<()> {
        let g = self.game;
        macro_rules! visit {
            ($v:expr) => {{
                let v = $v;
                self.set_local(s.slot, v);
                let pass = match &s.filter {
                    Some(c) => self.cond(c)?,
                    None => true,
                };
                if pass {
                    self.set_local(s.slot, v);
                    if !f(self, v)? {
                        return Ok(());
                    }
                }
            }};
        }
        match &s.source {
            SetSource::Cells => {
                let owner = match &s.scan.owner {
                    Some((eq, e)) => Some((*eq, self.owner_code(e)?)),
                    None => None,
                };
                let empty = s.scan.empty;
                let fixed = match &s.scan.fixed {
                    Some(e) => Some(self.fixed_cells(s, e)?),
                    None => None,
                };
                let n = fixed.as_ref().map_or(g.board.len(), |f| f.len());
                for i in 0..n {
                    let c = fixed.as_ref().map_or(i as u32, |f| f[i]);
                    if let Some((eq, code)) = owner {
                        if (self.st.owner[c as usize] == code) != eq {
                            continue;
                        }
                    }
                    if let Some(e) = empty {
                        if (self.st.occupant[c as usize] == NO_UNIT) != e {
                            continue;
                        }
                    }
                    visit!(Value::Cell(c));
                }
            }
            SetSource::Units => {
                let owner = match &s.scan.owner {
                    Some((eq, e)) => Some((*eq, self.owner_code(e)?)),
                    None => None,
                };
                let n = self.st.units.len();
                for u in 0..n {
                    let unit = &self.st.units[u];
                    if unit.alive && owner.is_none_or(|(eq, code)| (unit.owner == code) == eq) {
                        visit!(Value::Unit(u as u32));
                    }
                }
            }
            SetSource::Players => {
                for p in 0..g.players.len() {
                    visit!(Value::Player(p as u8));
                }
            }
            SetSource::Rows(t) => {
                for r in 0..g.tables[*t as usize].keys.len() {
                    visit!(Value::Row(*t, r as u16));
                }
            }
            SetSource::Neighbours(c) => {
                if let Some(c) = self.cell(c)? {
                    for &n in g.board.neighbours(c) {
                        visit!(Value::Cell(n));
                    }
                }
            }
            SetSource::One(e) => {
                let v = self.eval(e)?;
                if !v.is_none() {
                    visit!(v);
                }
            }
            SetSource::Range(lo, hi) => {
                let lo = self.eval(lo)?.as_int().unwrap_or(0);
                let hi = self.eval(hi)?.as_int().unwrap_or(-1);
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
            SetSource::Within(c, r) => {
                let Some(c) = self.cell(c)? else {
                    return Ok(());
                };
                let r = self
                    .eval(r)?
                    .as_int()
                    .unwrap_or(0)
                    .clamp(0, u32::MAX as i64) as u32;
                let mut buf = self.rt.take_cells();
                g.board.within(c, r, &mut buf);
                let result = self.visit_cells(s, buf.iter().copied(), f);
                self.rt.give_cells(buf);
                return result;
            }
            SetSource::Reachable {
                from,
                max,
                slot,
                pred,
            } => {
                let Some(c) = self.cell(from)? else {
                    return Ok(());
                };
                let max = self
                    .eval(max)?
                    .as_int()
                    .unwrap_or(0)
                    .clamp(0, u32::MAX as i64) as u32;
                let mut buf = self.rt.take_pairs();
                let mut scratch = std::mem::take(&mut self.rt.search);
                let mut failure = None;
                if is_empty_test(pred, *slot) {
                    let occupant = &self.st.occupant;
                    g.board.reachable(
                        c,
                        max,
                        |x| occupant[x as usize] == NO_UNIT,
                        &mut scratch,
                        &mut buf,
                    );
                } else {
                    g.board.reachable(
                        c,
                        max,
                        |x| {
                            self.set_local(*slot, Value::Cell(x));
                            match self.cond(pred) {
                                Ok(ok) => ok,
                                Err(e) => {
                                    failure = Some(e);
                                    false
                                }
                            }
                        },
                        &mut scratch,
                        &mut buf,
                    );
                }
                self.rt.search = scratch;
                let result = match failure {
                    Some(e) => Err(e),
                    None => self.visit_cells(s, buf.iter().map(|&(n, _)| n), f),
                };
                self.rt.give_pairs(buf);
                return result;
            }
        }
        Ok(())
    }

    /// Visits listed cells through the set's filter (sources that list into a buffer first).
    fn visit_cells(
        &mut self,
        s: &SetExpr,
        cells: impl Iterator<Item = u32>,
        f: &mut dyn FnMut(&mut Self, Value) -> R<bool>,
    ) -> R<()> {
        for n in cells {
            let v = Value::Cell(n);
            self.set_local(s.slot, v);
            if let Some(c) = &s.filter {
                if !self.cond(c)? {
                    continue;
                }
                self.set_local(s.slot, v);
            }
            if !f(self, v)? {
                break;
            }
        }
        Ok(())
    }

    /// The owner byte a player expression stands for (none is nobody).
    fn owner_code(&mut self, e: &Expr) -> R<u8> {
        Ok(match self.eval(e)? {
            Value::Player(p) => p,
            _ => NO_OWNER,
        })
    }

    /// The cells passing a set's fixed pre-filter, computed once per thread and kept.
    fn fixed_cells(&mut self, s: &SetExpr, e: &Expr) -> R<std::rc::Rc<[u32]>> {
        // Per set and per player: a fixed condition may mention `me` or `opponent`.
        let key = (s as *const SetExpr as usize, self.me);
        if let Some(v) = self.rt.fixed.get(&key) {
            return Ok(v.clone());
        }
        let saved = self.local(s.slot);
        let mut out = Vec::new();
        for c in 0..self.game.board.len() as u32 {
            self.set_local(s.slot, Value::Cell(c));
            if self.cond(e)? {
                out.push(c);
            }
        }
        self.set_local(s.slot, saved);
        let rc: std::rc::Rc<[u32]> = out.into();
        self.rt.fixed.insert(key, rc.clone());
        Ok(rc)
    }

    /// Whether a cell passes a set's planned native tests.
    fn passes_scan(&mut self, s: &SetExpr, c: u32) -> R<bool> {
        if let Some((eq, e)) = &s.scan.owner {
            let code = self.owner_code(e)?;
            if (self.st.owner[c as usize] == code) != *eq {
                return Ok(false);
            }
        }
        if let Some(e) = s.scan.empty {
            if (self.st.occupant[c as usize] == NO_UNIT) != e {
                return Ok(false);
            }
        }
        if let Some(e) = &s.scan.fixed {
            let saved = self.local(s.slot);
            self.set_local(s.slot, Value::Cell(c));
            let ok = self.cond(e)?;
            self.set_local(s.slot, saved);
            return Ok(ok);
        }
        Ok(true)
    }

    /// Whether `v` belongs to the set (checked natively where the source allows).
    pub fn contains(&mut self, s: &SetExpr, v: Value) -> R<bool> {
        let g = self.game;
        let in_source = match (&s.source, v) {
            (SetSource::Cells, Value::Cell(c)) => {
                (c as usize) < g.board.len() && self.passes_scan(s, c)?
            }
            (SetSource::Units, Value::Unit(u)) => {
                let owner = match &s.scan.owner {
                    Some((eq, e)) => Some((*eq, self.owner_code(e)?)),
                    None => None,
                };
                self.st.units.get(u as usize).is_some_and(|unit| {
                    unit.alive && owner.is_none_or(|(eq, code)| (unit.owner == code) == eq)
                })
            }
            (SetSource::Players, Value::Player(p)) => (p as usize) < g.players.len(),
            (SetSource::Rows(t), Value::Row(t2, _)) => *t == t2,
            (SetSource::Neighbours(c), Value::Cell(x)) => match self.cell(c)? {
                Some(c) => g.board.adjacent(c, x),
                None => false,
            },
            (SetSource::Within(c, r), Value::Cell(x)) => {
                let r = self.eval(r)?.as_int().unwrap_or(0);
                match self.cell(c)? {
                    Some(c) => g
                        .board
                        .distance(c, x)
                        .is_some_and(|d| d >= 1 && d as i64 <= r),
                    None => false,
                }
            }
            (SetSource::One(e), v) => self.eval(e)? == v,
            (SetSource::Range(lo, hi), Value::Int(i)) => {
                let lo = self.eval(lo)?.as_int().unwrap_or(0);
                let hi = self.eval(hi)?.as_int().unwrap_or(-1);
                lo <= i && i <= hi
            }
            (
                SetSource::Reachable {
                    from,
                    max,
                    slot,
                    pred,
                },
                Value::Cell(x),
            ) => {
                let Some(c) = self.cell(from)? else {
                    return Ok(false);
                };
                if c == x {
                    return Ok(false);
                }
                self.set_local(*slot, Value::Cell(x));
                if !self.cond(pred)? {
                    return Ok(false);
                }
                let max = self
                    .eval(max)?
                    .as_int()
                    .unwrap_or(0)
                    .clamp(0, u32::MAX as i64) as u32;
                let mut scratch = std::mem::take(&mut self.rt.search);
                let mut failure = None;
                let r = g.board.steps(
                    c,
                    x,
                    max,
                    |y| {
                        self.set_local(*slot, Value::Cell(y));
                        match self.cond(pred) {
                            Ok(ok) => ok,
                            Err(e) => {
                                failure = Some(e);
                                false
                            }
                        }
                    },
                    &mut scratch,
                );
                self.rt.search = scratch;
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
        match &s.filter {
            Some(f) => {
                self.set_local(s.slot, v);
                self.cond(f)
            }
            None => Ok(true),
        }
    }

    /// A value as JSON for events and state output.
    pub fn to_json(&self, v: Value) -> Json {
        value_json(self.game, self.st, v)
    }
}

/// Whether a cell test is exactly `it.empty` for the element in `slot` (then it runs natively).
fn is_empty_test(pred: &Expr, slot: u16) -> bool {
    matches!(pred, Expr::CellEmpty(c) if matches!(**c, Expr::Local(s) if s == slot))
}

/// A value as JSON: ids for cells, units, players and rows.
pub fn value_json(g: &crate::ruleset::Game, st: &crate::model::MatchState, v: Value) -> Json {
    match v {
        Value::None => Json::Null,
        Value::Int(i) => Json::from(i),
        Value::Float(f) => serde_json::Number::from_f64(f).map_or(Json::Null, Json::Number),
        Value::Bool(b) => Json::Bool(b),
        Value::Text(s) => Json::String(g.symbols.name(s).to_string()),
        Value::Cell(c) => Json::String(g.board.id(c).to_string()),
        Value::Unit(u) => st
            .units
            .get(u as usize)
            .map_or(Json::Null, |u| Json::String(u.id.to_string())),
        Value::Player(p) => Json::String(g.players[p as usize].clone()),
        Value::Row(t, r) => Json::String(g.tables[t as usize].keys[r as usize].clone()),
    }
}
