//! Calls of built-in functions and of script functions: arity, argument types and results.
use super::*;

impl Compiler<'_, '_> {
    pub(super) fn args(
        &mut self,
        f: &str,
        args: &[Node],
        n: usize,
        pos: usize,
    ) -> R<Vec<(Expr, Ty)>> {
        if args.len() != n {
            return err(
                pos,
                format!("`{f}` takes {n} argument(s), found {}", args.len()),
            );
        }
        let compiled: Vec<R<(Expr, Ty)>> = args.iter().map(|a| self.expr(a)).collect();
        first_real(compiled)
    }

    pub(super) fn want(&self, f: &str, got: Ty, want: Ty, pos: usize) -> R<()> {
        let ok = got == want || got == Ty::Nothing || (want == Ty::Float && got == Ty::Int);
        if ok {
            Ok(())
        } else {
            err(
                pos,
                format!("`{f}` expects {} here, found {}", want.name(), got.name()),
            )
        }
    }

    pub(super) fn call(&mut self, f: &str, args: &[Node], pos: usize) -> R<(Expr, Ty)> {
        if let Some(r) = self.list_call(f, args, pos) {
            return r;
        }
        let simple =
            |b: Builtin, v: Vec<(Expr, Ty)>| Expr::Call(b, v.into_iter().map(|(e, _)| e).collect());
        match f {
            "min" | "max" => {
                let v = self.args(f, args, 2, pos)?;
                if !v[0].1.is_numeric() || !v[1].1.is_numeric() {
                    return err(pos, format!("`{f}` needs numbers"));
                }
                let ty = if v[0].1 == Ty::Float || v[1].1 == Ty::Float {
                    Ty::Float
                } else {
                    Ty::Int
                };
                Ok((
                    fold_or(simple(
                        if f == "min" {
                            Builtin::Min
                        } else {
                            Builtin::Max
                        },
                        v,
                    )),
                    ty,
                ))
            }
            "abs" => {
                let v = self.args(f, args, 1, pos)?;
                let ty = v[0].1;
                if !ty.is_numeric() {
                    return err(pos, "`abs` needs a number");
                }
                Ok((fold_or(simple(Builtin::Abs, v)), ty))
            }
            "floor" | "ceil" => {
                let v = self.args(f, args, 1, pos)?;
                if !v[0].1.is_numeric() {
                    return err(pos, format!("`{f}` needs a number"));
                }
                Ok((
                    fold_or(simple(
                        if f == "floor" {
                            Builtin::Floor
                        } else {
                            Builtin::Ceil
                        },
                        v,
                    )),
                    Ty::Int,
                ))
            }
            "float" => {
                let v = self.args(f, args, 1, pos)?;
                if !v[0].1.is_numeric() {
                    return err(pos, "`float` needs a number");
                }
                Ok((fold_or(simple(Builtin::Float, v)), Ty::Float))
            }
            "has" => {
                let v = self.args(f, args, 1, pos)?;
                Ok((simple(Builtin::Has, v), Ty::Bool))
            }
            "adjacent" | "distance" | "line_of_sight" | "midpoint" => {
                let v = self.args(f, args, 2, pos)?;
                self.want(f, v[0].1, Ty::Cell, args[0].pos)?;
                self.want(f, v[1].1, Ty::Cell, args[1].pos)?;
                let (b, ty) = match f {
                    "adjacent" => (Builtin::Adjacent, Ty::Bool),
                    "distance" => (Builtin::Distance, Ty::Int),
                    "line_of_sight" => (Builtin::LineOfSight, Ty::Bool),
                    _ => (Builtin::Midpoint, Ty::Cell),
                };
                Ok((simple(b, v), ty))
            }
            "random" => {
                let v = self.args(f, args, 2, pos)?;
                self.want(f, v[0].1, Ty::Int, args[0].pos)?;
                self.want(f, v[1].1, Ty::Int, args[1].pos)?;
                Ok((simple(Builtin::Random, v), Ty::Int))
            }
            "coin" => {
                let v = self.args(f, args, 0, pos)?;
                Ok((simple(Builtin::Coin, v), Ty::Bool))
            }
            "chance" => {
                let v = self.args(f, args, 1, pos)?;
                self.want(f, v[0].1, Ty::Float, args[0].pos)?;
                Ok((simple(Builtin::Chance, v), Ty::Bool))
            }
            "count" | "any" | "first" => {
                if args.len() != 1 {
                    return err(pos, format!("`{f}` takes one set"));
                }
                let s = self.set(&args[0])?;
                let elem = s.elem;
                Ok(match f {
                    "count" => (Expr::Count(Box::new(s)), Ty::Int),
                    "any" => (Expr::Any(Box::new(s)), Ty::Bool),
                    _ => (Expr::First(Box::new(s)), elem),
                })
            }
            "sum" => {
                if args.len() != 2 {
                    return err(
                        pos,
                        "`sum` takes a set and a value: sum(units where owner == me, type.cost)",
                    );
                }
                let s = self.set(&args[0])?;
                self.elems.push((s.slot, s.elem));
                let r = self.expr(&args[1]);
                self.elems.pop();
                let (e, ty) = r?;
                if !ty.is_numeric() {
                    return err(args[1].pos, "`sum` adds numbers");
                }
                Ok((Expr::Sum(Box::new(s), Box::new(e)), ty))
            }
            "steps" => {
                if args.len() != 4 {
                    return err(pos, "`steps` takes from, to, max and a passability test: steps(a, b, 3, it.empty)");
                }
                let (from, t0) = self.expr(&args[0])?;
                let (to, t1) = self.expr(&args[1])?;
                let (max, t2) = self.expr(&args[2])?;
                self.want(f, t0, Ty::Cell, args[0].pos)?;
                self.want(f, t1, Ty::Cell, args[1].pos)?;
                self.want(f, t2, Ty::Int, args[2].pos)?;
                let slot = self.push_elem(Ty::Cell);
                let r = self.expr(&args[3]);
                self.pop_elem();
                let (pred, tp) = r?;
                if tp != Ty::Bool {
                    return err(
                        args[3].pos,
                        "the passability test must be a condition on `it`",
                    );
                }
                Ok((
                    Expr::Steps {
                        from: Box::new(from),
                        to: Box::new(to),
                        max: Box::new(max),
                        slot,
                        pred: Box::new(pred),
                    },
                    Ty::Int,
                ))
            }
            "cell" | "unit" => self
                .typed_literal(f, args, pos)
                .unwrap_or_else(|| err(pos, "this ruleset declares no units")),
            "player" => {
                let v = self.args(f, args, 1, pos)?;
                if !matches!(v[0].1, Ty::Text | Ty::Nothing) {
                    return err(args[0].pos, "`player` takes a player id as text");
                }
                Ok((simple(Builtin::PlayerNamed, v), Ty::Player))
            }
            _ if self.cat.tables.iter().any(|t| t.name == f) => self
                .typed_literal(f, args, pos)
                .unwrap_or_else(|| err(pos, "unknown table")),
            _ => {
                if let Some(i) = self.cat.script_fns.iter().position(|(n, _)| n == f) {
                    let arity = self.cat.script_fns[i].1;
                    if arity != args.len() {
                        return err(
                            pos,
                            format!(
                                "script function `{f}` takes {arity} argument(s), found {}",
                                args.len()
                            ),
                        );
                    }
                    let compiled: Vec<R<(Expr, Ty)>> = args.iter().map(|a| self.expr(a)).collect();
                    let v = first_real(compiled)?;
                    if let Some(k) = v.iter().position(|(_, t)| *t == Ty::List) {
                        return err_hint(
                            args[k].pos,
                            "a script takes single values, not lists",
                            "pass its items, or compute with the list functions: max, min, sum, len, sort",
                        );
                    }
                    let v: Vec<Expr> = v.into_iter().map(|(e, _)| e).collect();
                    return Ok((Expr::Script(i as u16, v), Ty::Int));
                }
                let mut names = vec![
                    "roll",
                    "sort",
                    "reverse",
                    "len",
                    "cell",
                    "min",
                    "max",
                    "abs",
                    "floor",
                    "ceil",
                    "float",
                    "has",
                    "adjacent",
                    "distance",
                    "line_of_sight",
                    "midpoint",
                    "random",
                    "coin",
                    "chance",
                    "count",
                    "any",
                    "first",
                    "sum",
                    "steps",
                    "player",
                ];
                if self.cat.failed.scripts && closest(f, names.iter().copied()).is_none() {
                    // Most likely a function of the script that did not compile.
                    return Err(ExprError::follow_up(pos, f));
                }
                names.extend(self.cat.script_fns.iter().map(|(n, _)| n.as_str()));
                let hint = hints::unknown_function(f, closest(f, names.iter().copied()), false);
                let message = if hints::SET_FUNCTIONS.contains(&f) {
                    format!("`{f}(...)` is a set, not a value")
                } else {
                    format!("unknown function `{f}`")
                };
                err_hint(pos, message, hint)
            }
        }
    }
}
