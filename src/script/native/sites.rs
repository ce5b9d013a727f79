//! The argument types of script calls in the rules: every `Expr::Script(f, args)` of the game's IR, typed
//! from the slots bound around it (parameters, `let`, loop and set elements). A function whose call sites
//! agree on fully known types gets that signature; the engine still checks each call's arguments.
use std::collections::HashMap;

use crate::ir::game::{Game, ResolveStep, VictoryRule, SIGHT_SLOT};
use crate::ir::{BinOp, Builtin, Expr, Place, SetExpr, SetSource, Stmt};
use crate::model::{Ty, Value};

/// What the rules' call sites say about a function's parameter types.
#[derive(Clone, Debug)]
pub(crate) enum Sig {
    /// No call in the rules.
    Unseen,
    Known(Vec<Ty>),
    /// Unknown or disagreeing types (why).
    Bad(String),
}

struct Walk<'g> {
    game: &'g Game,
    env: HashMap<u16, Ty>,
    sigs: Vec<Sig>,
}

/// The signature of each script function from its call sites in the rules.
pub(crate) fn signatures(game: &Game) -> Vec<Sig> {
    let mut w = Walk {
        game,
        env: HashMap::new(),
        sigs: vec![Sig::Unseen; game.script_fns.len()],
    };
    for a in &game.actions {
        w.env.clear();
        for p in &a.params {
            w.env.insert(p.slot, p.ty);
        }
        for p in &a.params {
            if let Some((s, _)) = &p.source {
                w.set(s);
            }
            for e in p.min.iter().chain(&p.max).map(|(e, _)| e) {
                w.expr(e);
            }
            for c in &p.checks {
                w.expr(&c.cond);
            }
        }
        for c in &a.checks {
            w.expr(&c.cond);
        }
        w.stmts(&a.effects);
    }
    for ph in &game.phases {
        for b in [&ph.on_turn_start, &ph.on_turn_end] {
            w.env.clear();
            w.stmts(b);
        }
        for s in &ph.resolve {
            if let ResolveStep::Effects(b) = s {
                w.env.clear();
                w.stmts(b);
            }
        }
    }
    for v in &game.victory {
        w.env.clear();
        match v {
            VictoryRule::Control { cells, .. } => w.set(cells),
            VictoryRule::Elimination { .. } => {}
            VictoryRule::Limit {
                when, rank, report, ..
            } => {
                w.expr(when);
                rank.iter().for_each(|e| w.expr(e));
                report.iter().for_each(|(_, e)| w.expr(e));
            }
        }
    }
    for e in game
        .invariants
        .iter()
        .map(|i| &i.check)
        .chain(game.evaluations.iter().map(|(_, e)| e))
    {
        w.env.clear();
        w.expr(e);
    }
    if let Some(s) = &game.sight {
        for e in [&s.opaque, &s.screens, &s.see_over].into_iter().flatten() {
            w.env.clear();
            w.env.insert(SIGHT_SLOT, Ty::Cell);
            w.expr(e);
        }
    }
    for e in game
        .cell_vars
        .iter()
        .filter_map(|d| d.initial_expr.as_ref())
        .chain(&game.initial_owner)
    {
        w.env.clear();
        w.env.insert(0, Ty::Cell);
        w.expr(e);
    }
    w.sigs
}

impl Walk<'_> {
    fn stmts(&mut self, b: &[Stmt]) {
        for s in b {
            self.stmt(s);
        }
    }

    fn stmt(&mut self, s: &Stmt) {
        match s {
            Stmt::Let(slot, e) => {
                self.expr(e);
                match self.ty(e) {
                    Some(t) => self.env.insert(*slot, t),
                    None => self.env.remove(slot),
                };
            }
            Stmt::Assign(p, _, e) => {
                match p {
                    Place::Local(_) => {}
                    Place::PlayerVar(x, ..)
                    | Place::CellVar(x, ..)
                    | Place::UnitVar(x, ..)
                    | Place::CellOwner(x)
                    | Place::UnitAt(x) => self.expr(x),
                    Place::CellVarOf(x, _, y, _) => {
                        self.expr(x);
                        self.expr(y);
                    }
                }
                self.expr(e);
            }
            Stmt::Emit(spec) => spec.fields.iter().for_each(|(_, e)| self.expr(e)),
            Stmt::If(c, a, b) => {
                self.expr(c);
                self.stmts(a);
                self.stmts(b);
            }
            Stmt::For(set, body) => {
                self.set(set);
                self.env.insert(set.slot, set.elem);
                self.stmts(body);
            }
            Stmt::Eval(e) | Stmt::Win(e, _) | Stmt::DestroyUnit(e) => self.expr(e),
            Stmt::Draw(_) | Stmt::EndTurn | Stmt::Stage(_) => {}
            Stmt::CreateUnit {
                kind,
                owner,
                at,
                init,
                bind,
            } => {
                self.expr(kind);
                self.expr(owner);
                self.expr(at);
                init.iter().for_each(|(_, _, e)| self.expr(e));
                if let Some(b) = bind {
                    self.env.insert(*b, Ty::Unit);
                }
            }
        }
    }

    fn set(&mut self, s: &SetExpr) {
        match &s.source {
            SetSource::Neighbours(e) | SetSource::One(e) => self.expr(e),
            SetSource::Within(a, b) | SetSource::Range(a, b) => {
                self.expr(a);
                self.expr(b);
            }
            SetSource::Reachable {
                from,
                max,
                slot,
                pred,
            } => {
                self.expr(from);
                self.expr(max);
                self.env.insert(*slot, Ty::Cell);
                self.expr(pred);
            }
            SetSource::Cells | SetSource::Units | SetSource::Players | SetSource::Rows(_) => {}
        }
        self.env.insert(s.slot, s.elem);
        let scan = &s.scan;
        for e in [&s.filter, &scan.fixed].into_iter().flatten() {
            self.expr(e);
        }
        if let Some((_, e)) = &scan.owner {
            self.expr(e);
        }
    }

    /// Records the call sites inside `e`.
    fn expr(&mut self, e: &Expr) {
        match e {
            Expr::Script(f, args) => {
                args.iter().for_each(|a| self.expr(a));
                let tys: Option<Vec<Ty>> = args
                    .iter()
                    .map(|a| self.ty(a).filter(|t| *t != Ty::Nothing))
                    .collect();
                let i = *f as usize;
                let next = match (&self.sigs[i], tys) {
                    (Sig::Bad(w), _) => Sig::Bad(w.clone()),
                    (_, None) => Sig::Bad("an argument's type is not known at a call site".into()),
                    (Sig::Unseen, Some(t)) => Sig::Known(t),
                    (Sig::Known(k), Some(t)) if *k == t => Sig::Known(t),
                    (Sig::Known(_), Some(_)) => {
                        Sig::Bad("call sites pass arguments of different types".into())
                    }
                };
                self.sigs[i] = next;
            }
            Expr::Count(s) | Expr::Any(s) | Expr::First(s) => self.set(s),
            Expr::Sum(s, x) => {
                self.set(s);
                self.expr(x);
            }
            Expr::Steps {
                from,
                to,
                max,
                slot,
                pred,
            } => {
                self.expr(from);
                self.expr(to);
                self.expr(max);
                self.env.insert(*slot, Ty::Cell);
                self.expr(pred);
            }
            Expr::Neg(a)
            | Expr::Not(a)
            | Expr::CellOwner(a)
            | Expr::CellId(a)
            | Expr::CellRow(a)
            | Expr::CellCol(a)
            | Expr::CellUnit(a)
            | Expr::CellEmpty(a)
            | Expr::CellVar(a, ..)
            | Expr::PlayerId(a)
            | Expr::PlayerVar(a, ..)
            | Expr::UnitOwner(a)
            | Expr::UnitAt(a)
            | Expr::UnitType(a)
            | Expr::UnitVar(a, ..)
            | Expr::RowKey(a)
            | Expr::RowCol(a, ..)
            | Expr::Expect(a, _) => self.expr(a),
            Expr::Bin(_, a, b) | Expr::KeyEq(_, a, b) | Expr::CellVarOf(a, _, b, _) => {
                self.expr(a);
                self.expr(b);
            }
            Expr::Call(_, args) => args.iter().for_each(|a| self.expr(a)),
            Expr::List(op, args) => {
                if let crate::ir::ListOp::AtElement(s) = op {
                    self.set(s);
                }
                args.iter().for_each(|a| self.expr(a));
            }
            Expr::Const(_) | Expr::Local(_) | Expr::Me | Expr::Opponent | Expr::Counter(_) => {}
        }
    }

    /// The type of the values `e` gives (apart from none), when it is known.
    fn ty(&self, e: &Expr) -> Option<Ty> {
        let g = self.game;
        let num = |a: Option<Ty>, b: Option<Ty>| match (a?, b?) {
            (Ty::Int, Ty::Int) => Some(Ty::Int),
            (x, y) if x.is_numeric() && y.is_numeric() => Some(Ty::Float),
            _ => None,
        };
        Some(match e {
            Expr::Const(v) => match v {
                Value::None => Ty::Nothing,
                Value::Int(_) => Ty::Int,
                Value::Float(_) => Ty::Float,
                Value::Bool(_) => Ty::Bool,
                Value::Text(_) => Ty::Text,
                Value::Cell(_) => Ty::Cell,
                Value::Unit(_) => Ty::Unit,
                Value::Player(_) => Ty::Player,
                Value::Row(t, _) => Ty::Row(*t),
                Value::List(..) => Ty::List,
            },
            Expr::List(op, _) => match op {
                crate::ir::ListOp::Literal
                | crate::ir::ListOp::Roll
                | crate::ir::ListOp::Sort
                | crate::ir::ListOp::Reverse => Ty::List,
                _ => Ty::Int,
            },
            Expr::Local(s) => *self.env.get(s)?,
            Expr::Me | Expr::Opponent | Expr::CellOwner(_) | Expr::UnitOwner(_) => Ty::Player,
            Expr::Counter(_)
            | Expr::CellRow(_)
            | Expr::CellCol(_)
            | Expr::Count(_)
            | Expr::Steps { .. } => Ty::Int,
            Expr::Neg(a) => self.ty(a).filter(|t| t.is_numeric())?,
            Expr::Not(_) | Expr::KeyEq(..) | Expr::CellEmpty(_) | Expr::Any(_) => Ty::Bool,
            Expr::Bin(op, a, b) => match op {
                op if op.is_arithmetic() => num(self.ty(a), self.ty(b))?,
                BinOp::Coalesce => match (self.ty(a)?, self.ty(b)?) {
                    (x, y) if x == y => x,
                    (Ty::Nothing, y) => y,
                    (x, Ty::Nothing) => x,
                    _ => return None,
                },
                _ => Ty::Bool,
            },
            Expr::CellId(_) | Expr::PlayerId(_) | Expr::RowKey(_) => Ty::Text,
            Expr::CellUnit(_) => Ty::Unit,
            Expr::CellVar(_, _, t)
            | Expr::CellVarOf(_, _, _, t)
            | Expr::PlayerVar(_, _, t)
            | Expr::UnitVar(_, _, t) => *t,
            Expr::UnitAt(_) => Ty::Cell,
            Expr::UnitType(_) => Ty::Row(g.unit_table?),
            Expr::RowCol(_, t, c) => g.tables.get(*t as usize)?.columns.get(*c as usize)?.1,
            Expr::Call(f, args) => match f {
                Builtin::Min | Builtin::Max => num(self.ty(args.first()?), self.ty(args.get(1)?))?,
                Builtin::Abs => self.ty(args.first()?).filter(|t| t.is_numeric())?,
                Builtin::Floor
                | Builtin::Ceil
                | Builtin::Distance
                | Builtin::Random
                | Builtin::TruncInt => Ty::Int,
                Builtin::Has
                | Builtin::Adjacent
                | Builtin::LineOfSight
                | Builtin::Coin
                | Builtin::Chance
                | Builtin::Logging => Ty::Bool,
                Builtin::Midpoint => Ty::Cell,
                Builtin::Float | Builtin::FloorFloat => Ty::Float,
                Builtin::PlayerNamed => Ty::Player,
            },
            Expr::Sum(_, x) => self.ty(x).filter(|t| t.is_numeric())?,
            Expr::First(s) => s.elem,
            Expr::Expect(a, _) => self.ty(a)?,
            // What a script returns to the rules is known only at run time.
            Expr::Script(..) => return None,
        })
    }
}
