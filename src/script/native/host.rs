//! Host API calls (and the few Rhai built-ins the subset has) translated into IR expressions and
//! statements. Names of variables, columns, tables and settings must be string literals: they are resolved
//! here, once. Each call is translated only for argument types with which Rhai's call and the IR agree,
//! failing where Rhai fails (`()` for an id, a unit that is not alive).
use rhai::Expr as RExpr;
use serde_json::Value as Json;

use super::func::{Fun, A, X};
use super::{refuse, Res, T};
use crate::ir::game::VarDecl;
use crate::ir::{AssignOp, Builtin, Counter, EmitSpec, Expr, Place, Stmt};
use crate::model::{Ty, Value};

/// The string literal an argument is.
fn name<'a>(a: &A<'a>, what: &str) -> Res<&'a str> {
    match a {
        A::Ast(RExpr::StringConstant(s, _)) => Ok(s.as_str()),
        _ => refuse(format!("{what} that is not a string literal")),
    }
}

fn decl<'d>(decls: &'d [VarDecl], name: &str) -> Res<&'d VarDecl> {
    match decls.iter().find(|d| d.name == name) {
        Some(d) => Ok(d),
        None => refuse(format!("no variable \"{name}\"")),
    }
}

/// Whether storing a value of type `v` into a variable of type `ty` means the same natively as in Rhai.
fn fits(v: T, ty: Ty) -> bool {
    match (v.ty, ty) {
        (_, Ty::Unit | Ty::Nothing) => false,
        (Ty::Nothing, _) => true,
        (Ty::Int, Ty::Float) => true,
        (a, b) => a == b,
    }
}

fn call(f: Builtin, args: Vec<Expr>) -> Expr {
    Expr::Call(f, args)
}

impl Fun<'_, '_> {
    /// Translates an argument.
    fn arg(&mut self, a: A) -> Res<X> {
        match a {
            A::Ast(e) => self.expr(e),
            A::Done(x) => Ok(x),
        }
    }

    /// An argument of type `ty`: a string literal becomes the id it names; `()` fails as in Rhai.
    pub fn typed(&mut self, a: A, ty: Ty, what: &str) -> Res<X> {
        if let A::Ast(RExpr::StringConstant(s, _)) = a {
            return self.literal(s.as_str(), ty);
        }
        let x = self.arg(a)?;
        if let Expr::Const(Value::Text(sym)) = x.e {
            if ty != Ty::Text {
                let s = self.cx.game.symbols.name(sym).clone();
                return self.literal(&s, ty);
            }
        }
        if x.t.ty != ty {
            return refuse(format!(
                "`{what}` given a {} where it takes a {}",
                x.t.ty.name(),
                ty.name()
            ));
        }
        Ok(self.expect(x, format!("Function not found: `{what}` given ()")))
    }

    /// A value to store into a variable of type `ty`: text naming a cell, player or row stands for it (as
    /// Rhai converts it when storing).
    fn stored(&mut self, a: A, ty: Ty) -> Res<X> {
        if matches!(ty, Ty::Cell | Ty::Player | Ty::Row(_)) {
            if let A::Ast(RExpr::StringConstant(s, _)) = a {
                return self.literal(s.as_str(), ty);
            }
            let x = self.arg(a)?;
            if let Expr::Const(Value::Text(sym)) = x.e {
                let s = self.cx.game.symbols.name(sym).clone();
                return self.literal(&s, ty);
            }
            return Ok(x);
        }
        self.arg(a)
    }

    /// A unit argument, kept as it is: the call itself fails on `()` or a unit that is not alive.
    fn unit(&mut self, a: A, what: &str) -> Res<X> {
        let x = self.arg(a)?;
        if x.t.ty != Ty::Unit {
            return refuse(format!("`{what}` given a {}", x.t.ty.name()));
        }
        Ok(x)
    }

    /// `e`, failing as Rhai's host API does when the unit is `()` or not alive.
    fn living(e: Expr, what: &str) -> Expr {
        Expr::Expect(Box::new(e), format!("{what}: no living unit"))
    }

    /// A host function or Rhai built-in call with its arguments.
    pub fn host(&mut self, f: &str, args: Vec<A>) -> Res<X> {
        // Rhai finds a function by its name and number of arguments: any other number does not exist.
        let arity = match f {
            "me" | "turn" | "ply" | "logging" | "coin" => 0,
            "setting" | "chance" | "owner" | "unit_at" | "unit_owner" | "unit_cell"
            | "unit_type" | "emit" | "to_float" | "to_int" | "abs" | "floor" => 1,
            "random" | "set_owner" | "cell_var" | "player_var" | "unit_var" | "stat"
            | "distance" | "adjacent" | "line_of_sight" | "min" | "max" => 2,
            "cell_var_of" | "set_cell_var" | "set_player_var" | "set_unit_var" | "table"
            | "path_length" => 3,
            "set_cell_var_of" => 4,
            _ => return refuse(format!("the function `{f}`")),
        };
        if args.len() != arity {
            return refuse(format!("`{f}` with {} arguments", args.len()));
        }
        let g = self.cx.game;
        let mut args = args.into_iter();
        let mut take = |what: &str| -> Res<A> {
            match args.next() {
                Some(a) => Ok(a),
                None => refuse(format!("`{what}` with too few arguments")),
            }
        };
        let x = match f {
            "me" => X::pure(Expr::Me, T::of(Ty::Player)),
            "turn" => X::pure(Expr::Counter(Counter::Turn), T::of(Ty::Int)),
            "ply" => X::pure(Expr::Counter(Counter::Ply), T::of(Ty::Int)),
            "logging" => X::pure(call(Builtin::Logging, vec![]), T::of(Ty::Bool)),
            "coin" => X::pure(call(Builtin::Coin, vec![]), T::of(Ty::Bool)),
            "setting" => {
                let key = name(&take(f)?, "a setting name")?;
                let (v, ty) = match g.settings.get(key) {
                    Some(Json::Number(n)) if n.is_i64() => {
                        (Value::Int(n.as_i64().unwrap_or(0)), Ty::Int)
                    }
                    Some(Json::Number(n)) => (Value::Float(n.as_f64().unwrap_or(0.0)), Ty::Float),
                    Some(Json::Bool(b)) => (Value::Bool(*b), Ty::Bool),
                    Some(Json::String(s)) => return self.literal(s, Ty::Text),
                    _ => return refuse(format!("no setting \"{key}\"")),
                };
                X::pure(Expr::Const(v), T::of(ty))
            }
            "random" => {
                let lo = self.typed(take(f)?, Ty::Int, f)?;
                let hi = self.typed(take(f)?, Ty::Int, f)?;
                let (pre, es) = self.combine(vec![lo, hi])?;
                X {
                    pre,
                    e: call(Builtin::Random, es),
                    t: T::of(Ty::Int),
                }
            }
            "chance" => {
                let p = self.typed(take(f)?, Ty::Float, f)?;
                X {
                    pre: p.pre,
                    e: call(Builtin::Chance, vec![p.e]),
                    t: T::of(Ty::Bool),
                }
            }
            "owner" => {
                let c = self.typed(take(f)?, Ty::Cell, f)?;
                X {
                    pre: c.pre,
                    e: Expr::CellOwner(Box::new(c.e)),
                    t: T::maybe(Ty::Player),
                }
            }
            "set_owner" => {
                let c = self.typed(take(f)?, Ty::Cell, f)?;
                let p = self.stored(take(f)?, Ty::Player)?;
                if !matches!(p.t.ty, Ty::Player | Ty::Nothing) {
                    return refuse(format!("`{f}` given a {}", p.t.ty.name()));
                }
                let (mut pre, es) = self.stable(vec![c, p])?;
                let [c, p]: [Expr; 2] = es.try_into().map_err(|_| super::Refuse(f.into()))?;
                pre.push(Stmt::Assign(Place::CellOwner(c), AssignOp::Set, p));
                X { pre, ..X::unit() }
            }
            "cell_var" | "set_cell_var" => {
                let c = self.typed(take(f)?, Ty::Cell, f)?;
                let d = decl(&g.cell_vars, name(&take(f)?, "a variable name")?)?;
                if d.per_player {
                    // Rhai refuses per-player variables here.
                    return refuse(format!("`{f}` of a per-player variable"));
                }
                if f == "cell_var" {
                    X {
                        pre: c.pre,
                        e: Expr::CellVar(Box::new(c.e), d.slot, d.ty),
                        t: T::maybe(d.ty),
                    }
                } else {
                    let v = self.stored(take(f)?, d.ty)?;
                    if !fits(v.t, d.ty) {
                        return refuse(format!(
                            "`{f}` of a {} variable with a {}",
                            d.ty.name(),
                            v.t.ty.name()
                        ));
                    }
                    let (mut pre, es) = self.stable(vec![c, v])?;
                    let [c, v]: [Expr; 2] = es.try_into().map_err(|_| super::Refuse(f.into()))?;
                    pre.push(Stmt::Assign(
                        Place::CellVar(c, d.slot, d.ty),
                        AssignOp::Set,
                        v,
                    ));
                    X { pre, ..X::unit() }
                }
            }
            "cell_var_of" | "set_cell_var_of" => {
                let c = self.typed(take(f)?, Ty::Cell, f)?;
                let d = decl(&g.cell_vars, name(&take(f)?, "a variable name")?)?;
                let p = self.typed(take(f)?, Ty::Player, f)?;
                let mut xs = vec![c, p];
                if f == "set_cell_var_of" {
                    let v = self.stored(take(f)?, d.ty)?;
                    if !fits(v.t, d.ty) {
                        return refuse(format!(
                            "`{f}` of a {} variable with a {}",
                            d.ty.name(),
                            v.t.ty.name()
                        ));
                    }
                    xs.push(v);
                }
                let (mut pre, es) = if d.per_player && f == "cell_var_of" {
                    self.combine(xs)?
                } else {
                    // The player is still evaluated (and checked) when the variable has one value.
                    self.stable(xs)?
                };
                let mut es = es.into_iter();
                let (Some(c), Some(p)) = (es.next(), es.next()) else {
                    return refuse(f);
                };
                let place = if d.per_player {
                    Place::CellVarOf(c, d.slot, p, d.ty)
                } else {
                    Place::CellVar(c, d.slot, d.ty)
                };
                match es.next() {
                    Some(v) => {
                        pre.push(Stmt::Assign(place, AssignOp::Set, v));
                        X { pre, ..X::unit() }
                    }
                    None => {
                        let e = match place {
                            Place::CellVarOf(c, s, p, ty) => {
                                Expr::CellVarOf(Box::new(c), s, Box::new(p), ty)
                            }
                            Place::CellVar(c, s, ty) => Expr::CellVar(Box::new(c), s, ty),
                            _ => return refuse(f),
                        };
                        X {
                            pre,
                            e,
                            t: T::maybe(d.ty),
                        }
                    }
                }
            }
            "player_var" | "set_player_var" => {
                let p = self.typed(take(f)?, Ty::Player, f)?;
                let d = decl(&g.player_vars, name(&take(f)?, "a variable name")?)?;
                if f == "player_var" {
                    X {
                        pre: p.pre,
                        e: Expr::PlayerVar(Box::new(p.e), d.slot, d.ty),
                        t: T::maybe(d.ty),
                    }
                } else {
                    let v = self.stored(take(f)?, d.ty)?;
                    if !fits(v.t, d.ty) {
                        return refuse(format!(
                            "`{f}` of a {} variable with a {}",
                            d.ty.name(),
                            v.t.ty.name()
                        ));
                    }
                    let (mut pre, es) = self.stable(vec![p, v])?;
                    let [p, v]: [Expr; 2] = es.try_into().map_err(|_| super::Refuse(f.into()))?;
                    pre.push(Stmt::Assign(
                        Place::PlayerVar(p, d.slot, d.ty),
                        AssignOp::Set,
                        v,
                    ));
                    X { pre, ..X::unit() }
                }
            }
            "unit_at" => {
                let c = self.typed(take(f)?, Ty::Cell, f)?;
                X {
                    pre: c.pre,
                    e: Expr::CellUnit(Box::new(c.e)),
                    t: T::maybe(Ty::Unit),
                }
            }
            "unit_owner" | "unit_cell" | "unit_type" => {
                let u = self.unit(take(f)?, f)?;
                let (e, ty) = match f {
                    "unit_owner" => (Expr::UnitOwner(Box::new(u.e)), Ty::Player),
                    "unit_cell" => (Expr::UnitAt(Box::new(u.e)), Ty::Cell),
                    _ => match g.unit_table {
                        Some(t) => (Expr::UnitType(Box::new(u.e)), Ty::Row(t)),
                        None => return refuse("`unit_type` without a unit table"),
                    },
                };
                X {
                    pre: u.pre,
                    e: Self::living(e, f),
                    t: T::of(ty),
                }
            }
            "unit_var" | "set_unit_var" => {
                let u = self.unit(take(f)?, f)?;
                let d = decl(&g.unit_vars, name(&take(f)?, "a variable name")?)?;
                let mut xs = vec![u];
                if f == "set_unit_var" {
                    let v = self.stored(take(f)?, d.ty)?;
                    if !fits(v.t, d.ty) {
                        return refuse(format!(
                            "`{f}` of a {} variable with a {}",
                            d.ty.name(),
                            v.t.ty.name()
                        ));
                    }
                    xs.push(v);
                }
                let (mut pre, es) = self.stable(xs)?;
                let mut es = es.into_iter();
                let Some(u) = es.next() else {
                    return refuse(f);
                };
                // The unit must be alive (the variable of a destroyed unit still reads).
                pre.push(Stmt::Eval(Self::living(
                    Expr::UnitOwner(Box::new(u.clone())),
                    f,
                )));
                match es.next() {
                    Some(v) => {
                        pre.push(Stmt::Assign(
                            Place::UnitVar(u, d.slot, d.ty),
                            AssignOp::Set,
                            v,
                        ));
                        X { pre, ..X::unit() }
                    }
                    None => X {
                        pre,
                        e: Expr::UnitVar(Box::new(u), d.slot, d.ty),
                        t: T::maybe(d.ty),
                    },
                }
            }
            "stat" => {
                let u = self.unit(take(f)?, f)?;
                let col = name(&take(f)?, "a column name")?;
                let Some(t) = g.unit_table else {
                    return refuse("`stat` without a unit table");
                };
                let row = Self::living(Expr::UnitType(Box::new(u.e)), f);
                self.column(u.pre, row, t, col)?
            }
            "table" => {
                let table = name(&take(f)?, "a table name")?;
                let Some(t) = g.tables.iter().position(|x| x.name == table) else {
                    return refuse(format!("no table \"{table}\""));
                };
                let row = self.typed(take(f)?, Ty::Row(t as u16), f)?;
                let col = name(&take(f)?, "a column name")?;
                self.column(row.pre, row.e, t as u16, col)?
            }
            "distance" | "adjacent" | "line_of_sight" => {
                if f == "line_of_sight" && !self.cx.sight_pure {
                    return refuse("line of sight whose tests call scripts or draw");
                }
                let a = self.typed(take(f)?, Ty::Cell, f)?;
                let b = self.typed(take(f)?, Ty::Cell, f)?;
                let (pre, es) = self.combine(vec![a, b])?;
                let (b, t) = match f {
                    "distance" => (Builtin::Distance, T::maybe(Ty::Int)),
                    "adjacent" => (Builtin::Adjacent, T::of(Ty::Bool)),
                    _ => (Builtin::LineOfSight, T::of(Ty::Bool)),
                };
                X {
                    pre,
                    e: call(b, es),
                    t,
                }
            }
            "path_length" => {
                let a = self.typed(take(f)?, Ty::Cell, f)?;
                let b = self.typed(take(f)?, Ty::Cell, f)?;
                let max = self.typed(take(f)?, Ty::Int, f)?;
                let (pre, es) = self.combine(vec![a, b, max])?;
                let [from, to, max]: [Expr; 3] =
                    es.try_into().map_err(|_| super::Refuse(f.into()))?;
                let slot = self.slot()?;
                X {
                    pre,
                    e: Expr::Steps {
                        from: Box::new(from),
                        to: Box::new(to),
                        max: Box::new(max),
                        slot,
                        pred: Box::new(Expr::CellEmpty(Box::new(Expr::Local(slot)))),
                    },
                    t: T::maybe(Ty::Int),
                }
            }
            "emit" => self.emit(take(f)?)?,
            "to_float" | "to_int" | "abs" => {
                let x = self.arg(take(f)?)?;
                let x = self.number(x, f)?;
                let (b, ty) = match (f, x.t.ty) {
                    ("to_int", Ty::Int) => (None, Ty::Int),
                    ("to_float", _) => (Some(Builtin::Float), Ty::Float),
                    ("to_int", _) => (Some(Builtin::TruncInt), Ty::Int),
                    (_, ty) => (Some(Builtin::Abs), ty),
                };
                match b {
                    None => x,
                    Some(b) => X {
                        pre: x.pre,
                        e: call(b, vec![x.e]),
                        t: T::of(ty),
                    },
                }
            }
            "floor" => {
                let x = self.typed(take(f)?, Ty::Float, f)?;
                X {
                    pre: x.pre,
                    e: call(Builtin::FloorFloat, vec![x.e]),
                    t: T::of(Ty::Float),
                }
            }
            "min" | "max" => {
                let a = self.typed(take(f)?, Ty::Int, f)?;
                let b = self.typed(take(f)?, Ty::Int, f)?;
                let (pre, es) = self.combine(vec![a, b])?;
                let b = if f == "min" {
                    Builtin::Min
                } else {
                    Builtin::Max
                };
                X {
                    pre,
                    e: call(b, es),
                    t: T::of(Ty::Int),
                }
            }
            _ => return refuse(format!("the function `{f}`")),
        };
        if take(f).is_ok() {
            return refuse(format!("`{f}` with too many arguments"));
        }
        Ok(x)
    }

    /// Column `col` of a row of table `t` (the row already checked): its type, and `()` only if the column
    /// has an empty cell.
    fn column(&mut self, pre: Vec<Stmt>, row: Expr, t: u16, col: &str) -> Res<X> {
        let table = &self.cx.game.tables[t as usize];
        let Some(c) = table.column(col) else {
            return refuse(format!("no column \"{col}\""));
        };
        let ty = table.columns[c as usize].1;
        let null = (0..table.keys.len()).any(|r| table.value(r as u16, c).is_none());
        Ok(X {
            pre,
            e: Expr::RowCol(Box::new(row), t, c),
            t: T { ty, null },
        })
    }

    /// `emit(#{type: "...", ...})`: the values evaluated in the order written (always, as Rhai builds the
    /// map whether or not events are kept), the event logged with `type` first, then the other keys in
    /// the order of Rhai's map (sorted).
    fn emit(&mut self, a: A) -> Res<X> {
        let A::Ast(RExpr::Map(m, _)) = a else {
            return refuse("`emit` of something other than a map literal");
        };
        let entries = &m.0;
        if entries.len() > 1_000 {
            return refuse("a map larger than Rhai allows");
        }
        let mut kind = None;
        let mut fields = Vec::new();
        for (key, value) in entries.iter() {
            let key = key.name.as_str();
            if fields.iter().any(|(k, _): &(String, X)| k == key)
                || (key == "type" && kind.is_some())
            {
                return refuse("a map with a repeated key");
            }
            if key == "type" {
                match value {
                    RExpr::StringConstant(s, _) if !s.is_empty() => kind = Some(s.to_string()),
                    _ => return refuse("an event type that is not a non-empty string literal"),
                }
                continue;
            }
            let x = self.expr(value)?;
            fields.push((key.to_string(), x));
        }
        let Some(kind) = kind else {
            return refuse("an event without a type");
        };
        let (names, xs): (Vec<String>, Vec<X>) = fields.into_iter().unzip();
        let (mut pre, es) = self.stable(xs)?;
        let mut fields: Vec<(String, Expr)> = names.into_iter().zip(es).collect();
        fields.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
        pre.push(Stmt::Emit(EmitSpec { kind, fields }));
        Ok(X { pre, ..X::unit() })
    }
}
