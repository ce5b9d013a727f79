//! Sets (`cells where ...`, `neighbours(c)`, `reachable(...)`, ...) and assignable places.
use super::*;

impl Compiler<'_, '_> {
    /// Compiles a set expression: a source optionally followed by `where`.
    pub fn set(&mut self, n: &Node) -> R<SetExpr> {
        match &n.ast {
            Ast::Where(base, cond) => {
                let mut s = self.set(base)?;
                if s.filter.is_some() {
                    return err(
                        n.pos,
                        "only one `where` per set: join conditions with `and`",
                    );
                }
                self.elems.push((s.slot, s.elem));
                let r = self.expr(cond);
                self.elems.pop();
                let (c, t) = r?;
                if t != Ty::Bool {
                    return err(cond.pos, "a `where` filter must be a condition");
                }
                // `S where it == x` over a whole collection is the single element x: no scan needed.
                if let (
                    SetSource::Cells | SetSource::Units | SetSource::Players,
                    Expr::Bin(BinOp::Eq, a, b),
                ) = (&s.source, &c)
                {
                    for (elem, other) in [(a, b), (b, a)] {
                        if matches!(**elem, Expr::Local(x) if x == s.slot) {
                            let mut used = Vec::new();
                            if other.reads(&mut used) && !used.contains(&s.slot) {
                                s.source = SetSource::One((**other).clone());
                                return Ok(s);
                            }
                        }
                    }
                }
                s.filter = Some(c);
                Ok(s)
            }
            _ => {
                let (source, elem) = self.set_source(n)?;
                let slot = self.alloc();
                Ok(SetExpr {
                    source,
                    slot,
                    filter: None,
                    elem,
                    scan: Default::default(),
                })
            }
        }
    }

    pub(super) fn set_source(&mut self, n: &Node) -> R<(SetSource, Ty)> {
        let pos = n.pos;
        match &n.ast {
            Ast::Name(name) => match name.as_str() {
                "cells" => Ok((SetSource::Cells, Ty::Cell)),
                "units" => Ok((SetSource::Units, Ty::Unit)),
                "players" => Ok((SetSource::Players, Ty::Player)),
                other => match self.cat.tables.iter().position(|t| t.name == other) {
                    Some(t) => Ok((SetSource::Rows(t as u16), Ty::Row(t as u16))),
                    None => {
                        if let Some(b) = self.names.iter().rev().find(|b| b.name == other) {
                            if b.failed {
                                return Err(ExprError::follow_up(pos, other));
                            }
                        }
                        let mut sets = vec!["cells", "units", "players"];
                        sets.extend(self.cat.tables.iter().map(|t| t.name.as_str()));
                        let hint = match closest(other, sets.iter().copied()) {
                            Some(c) => format!("did you mean `{c}`?"),
                            None => "sets: cells, units, players, a table name, neighbours(c), within(c, r), reachable(c, max, test), range(a, b)".into(),
                        };
                        err_hint(pos, format!("`{other}` is not a set"), hint)
                    }
                },
            },
            Ast::Call(f, args) => match f.as_str() {
                "neighbours" => {
                    let v = self.args(f, args, 1, pos)?;
                    self.want(f, v[0].1, Ty::Cell, args[0].pos)?;
                    Ok((SetSource::Neighbours(v.into_iter().next().map(|x| x.0).unwrap_or(Expr::Const(Value::None))), Ty::Cell))
                }
                "within" => {
                    let mut v = self.args(f, args, 2, pos)?;
                    self.want(f, v[0].1, Ty::Cell, args[0].pos)?;
                    self.want(f, v[1].1, Ty::Int, args[1].pos)?;
                    let r = v.pop().map(|x| x.0).unwrap_or(Expr::Const(Value::None));
                    let c = v.pop().map(|x| x.0).unwrap_or(Expr::Const(Value::None));
                    Ok((SetSource::Within(c, r), Ty::Cell))
                }
                "range" => {
                    let mut v = self.args(f, args, 2, pos)?;
                    self.want(f, v[0].1, Ty::Int, args[0].pos)?;
                    self.want(f, v[1].1, Ty::Int, args[1].pos)?;
                    let hi = v.pop().map(|x| x.0).unwrap_or(Expr::Const(Value::None));
                    let lo = v.pop().map(|x| x.0).unwrap_or(Expr::Const(Value::None));
                    Ok((SetSource::Range(lo, hi), Ty::Int))
                }
                "reachable" => {
                    if args.len() != 3 {
                        return err(pos, "`reachable` takes a start cell, a maximum of steps and a test: reachable(u.at, 3, it.empty)");
                    }
                    let (from, t0) = self.expr(&args[0])?;
                    let (max, t1) = self.expr(&args[1])?;
                    self.want(f, t0, Ty::Cell, args[0].pos)?;
                    self.want(f, t1, Ty::Int, args[1].pos)?;
                    let slot = self.push_elem(Ty::Cell);
                    let r = self.expr(&args[2]);
                    self.pop_elem();
                    let (pred, tp) = r?;
                    if tp != Ty::Bool {
                        return err(args[2].pos, "the test of `reachable` must be a condition on `it`");
                    }
                    Ok((SetSource::Reachable { from, max, slot, pred }, Ty::Cell))
                }
                _ => {
                    let near = closest(f, hints::SET_FUNCTIONS);
                    let hint = match hints::foreign_function(f) {
                        Some(h) => h,
                        None => match near {
                            Some(c) => format!("did you mean `{c}`?"),
                            None => "set functions: neighbours, within, reachable, range".into(),
                        },
                    };
                    err_hint(pos, format!("`{f}(...)` is not a set"), hint)
                }
            },
            _ => err_hint(pos, "expected a set", "sets: cells, units, players, a table name, neighbours(c), within(c, r), reachable(c, max, test), range(a, b)"),
        }
    }

    /// Compiles an assignment target such as `to.count[me]`, `me.score`, `unit.ready` or a `let` name.
    pub fn place(&mut self, text: &str) -> R<(Place, Ty)> {
        let node = expr::parse(text).map_err(syntax)?;
        match self.expr(&node)? {
            (Expr::Local(s), t) => {
                if self.elems.iter().any(|(slot, _)| *slot == s) {
                    return err(0, "a loop element cannot be assigned");
                }
                Ok((Place::Local(s), t))
            }
            (Expr::PlayerVar(p, s, t), _) => {
                let decls = self.cat.player_vars.iter().chain(self.cat.game_vars);
                self.assignable(decls, s, text)?;
                Ok((Place::PlayerVar(*p, s, t), t))
            }
            (Expr::CellVar(c, s, t), _) => {
                self.assignable(self.cat.cell_vars.iter(), s, text)?;
                Ok((Place::CellVar(*c, s, t), t))
            }
            (Expr::CellVarOf(c, s, p, t), _) => {
                self.assignable(self.cat.cell_vars.iter(), s, text)?;
                Ok((Place::CellVarOf(*c, s, *p, t), t))
            }
            (Expr::CellOwner(c), _) => Ok((Place::CellOwner(*c), Ty::Player)),
            (Expr::UnitVar(u, s, t), _) => {
                self.assignable(self.cat.unit_vars.iter(), s, text)?;
                Ok((Place::UnitVar(*u, s, t), t))
            }
            (Expr::UnitAt(u), _) => Ok((Place::UnitAt(*u), Ty::Cell)),
            _ => err_hint(0, format!("`{text}` cannot be assigned"), "assign variables: me.VAR, cell.VAR, cell.VAR[player], cell.owner, unit.VAR, unit.at, or a `let` name"),
        }
    }
}
