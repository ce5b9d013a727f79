//! Effect lists: `let`, `set`/`add`/`sub`, `emit`, `if`, `for`, `eval`, `win`, `draw`, `end_turn`,
//! `create_unit`, `destroy_unit` compiled into statements, every problem collected with its pointer. A name
//! whose definition fails (`let`, `for`, `as`) is still declared, so its uses are not reported again.
use serde_json::Value as Json;

use super::compile::{closest, Binding, Compiler, EffectError, ExprError};
use super::ir::*;
use crate::model::{Ty, Value};

impl Compiler<'_, '_> {
    /// Compiles an effect list. Problems are collected with pointers relative to the list.
    pub fn effects(
        &mut self,
        list: &[Json],
        base: &str,
        errors: &mut Vec<EffectError>,
    ) -> Vec<Stmt> {
        // `let` names live until the end of the list they appear in (a block), not beyond it.
        let scope = self.names.len();
        let mut out = Vec::new();
        for (i, item) in list.iter().enumerate() {
            let ptr = format!("{base}/{i}");
            if let Some(s) = self.effect(item, &ptr, errors) {
                out.push(s);
            }
        }
        self.names.truncate(scope);
        out
    }

    fn effect(&mut self, item: &Json, ptr: &str, errors: &mut Vec<EffectError>) -> Option<Stmt> {
        let fail = |errors: &mut Vec<EffectError>, p: String, e: ExprError| {
            errors.push(EffectError {
                pointer: p,
                error: e,
            });
            None
        };
        let Json::Object(map) = item else {
            return fail(
                errors,
                ptr.into(),
                ExprError {
                    follow_up: false,
                    pos: 0,
                    message: "an effect is a mapping such as `{add: {me.score: 1}}`".into(),
                    hint: None,
                },
            );
        };
        let esc = super::yaml::pointer_escape;
        let key_ptr = |k: &str| format!("{ptr}/{}", esc(k));
        let allowed: &[&str] = if map.contains_key("if") {
            &["if", "then", "else"]
        } else if map.contains_key("for") {
            &["for", "do"]
        } else if map.contains_key("win") {
            &["win", "reason"]
        } else if map.contains_key("create_unit") {
            &["create_unit"]
        } else {
            &[]
        };
        if allowed.is_empty() && map.len() != 1 {
            return fail(errors, ptr.into(), ExprError {
                follow_up: false,
                pos: 0,
                message: "an effect has exactly one kind: let, set, add, sub, emit, if, for, eval, win, draw, end_turn, end_stage, stage, create_unit, destroy_unit".into(),
                hint: None,
            });
        }
        for k in map.keys() {
            if !allowed.is_empty() && !allowed.contains(&k.as_str()) {
                return fail(
                    errors,
                    key_ptr(k),
                    ExprError {
                        follow_up: false,
                        pos: 0,
                        message: format!("unexpected key `{k}` in this effect"),
                        hint: Some(format!("allowed: {}", allowed.join(", "))),
                    },
                );
            }
        }
        let (kind, body) = map.iter().next()?;
        let kind = if allowed.is_empty() {
            kind.as_str()
        } else {
            allowed[0]
        };
        let body = if allowed.is_empty() { body } else { &map[kind] };
        match kind {
            "let" => {
                let Json::Object(m) = body else {
                    return fail(
                        errors,
                        key_ptr(kind),
                        ExprError {
                            follow_up: false,
                            pos: 0,
                            message: "`let` takes a mapping of names to expressions".into(),
                            hint: None,
                        },
                    );
                };
                let mut stmts = Vec::new();
                for (name, v) in m {
                    match self.json_expr(v) {
                        Ok((e, t)) => {
                            let slot = self.bind(name, t);
                            stmts.push(Stmt::Let(slot, e));
                        }
                        Err(e) => {
                            // Still declared: later uses are consequences, not further mistakes.
                            fail(errors, format!("{}/{}", key_ptr(kind), esc(name)), e);
                            self.bind_failed(name);
                        }
                    }
                }
                Some(block(stmts))
            }
            "set" | "add" | "sub" => {
                let op = match kind {
                    "set" => AssignOp::Set,
                    "add" => AssignOp::Add,
                    _ => AssignOp::Sub,
                };
                let Json::Object(m) = body else {
                    return fail(
                        errors,
                        key_ptr(kind),
                        ExprError {
                            follow_up: false,
                            pos: 0,
                            message: format!("`{kind}` takes a mapping of targets to expressions"),
                            hint: None,
                        },
                    );
                };
                let mut stmts = Vec::new();
                for (target, v) in m {
                    let vptr = format!("{}/{}", key_ptr(kind), esc(target));
                    let place = match self.place(target) {
                        Ok(p) => p,
                        Err(e) => {
                            fail(
                                errors,
                                vptr,
                                ExprError {
                                    pos: usize::MAX,
                                    ..e
                                },
                            );
                            continue;
                        }
                    };
                    match self.json_expr(v) {
                        Ok((e, t)) => {
                            let ok = match op {
                                AssignOp::Set => {
                                    t == place.1
                                        || t == Ty::Nothing
                                        || (place.1 == Ty::Float && t == Ty::Int)
                                        || (t == Ty::Text && matches!(place.1, Ty::Row(_)))
                                }
                                _ => {
                                    place.1.is_numeric()
                                        && t.is_numeric()
                                        && !(place.1 == Ty::Int && t == Ty::Float)
                                }
                            };
                            if !ok {
                                fail(
                                    errors,
                                    vptr,
                                    ExprError {
                                        follow_up: false,
                                        pos: 0,
                                        message: format!(
                                            "cannot {kind} {} to `{target}` of type {}",
                                            t.name(),
                                            place.1.name()
                                        ),
                                        hint: None,
                                    },
                                );
                                continue;
                            }
                            stmts.push(Stmt::Assign(place.0, op, e));
                        }
                        Err(e) => {
                            fail(errors, vptr, e);
                        }
                    }
                }
                Some(block(stmts))
            }
            "emit" => {
                let Json::Object(m) = body else {
                    return fail(
                        errors,
                        key_ptr(kind),
                        ExprError {
                            follow_up: false,
                            pos: 0,
                            message: "`emit` takes a mapping with `type` and fields".into(),
                            hint: None,
                        },
                    );
                };
                let Some(Json::String(ty)) = m.get("type") else {
                    return fail(
                        errors,
                        key_ptr(kind),
                        ExprError {
                            follow_up: false,
                            pos: 0,
                            message: "`emit` needs `type: <event name>`".into(),
                            hint: None,
                        },
                    );
                };
                let mut fields = Vec::new();
                for (name, v) in m {
                    if name == "type" {
                        continue;
                    }
                    match self.json_expr(v) {
                        // Events are built only when recorded: a draw or script call here would make
                        // recorded and unrecorded runs differ.
                        Ok((e, _)) if !e.reads(&mut Vec::new()) => {
                            fail(
                                errors,
                                format!("{}/{}", key_ptr(kind), esc(name)),
                                ExprError {
                                    follow_up: false,
                                    pos: 0,
                                    message:
                                        "event fields cannot draw random numbers or call scripts"
                                            .into(),
                                    hint: Some(
                                        "compute the value in a `let` first, then emit its name"
                                            .into(),
                                    ),
                                },
                            );
                        }
                        Ok((e, _)) => fields.push((name.clone(), e)),
                        Err(e) => {
                            fail(errors, format!("{}/{}", key_ptr(kind), esc(name)), e);
                        }
                    }
                }
                Some(Stmt::Emit(EmitSpec {
                    kind: ty.clone(),
                    fields,
                }))
            }
            "if" => {
                let cond = match self.json_cond(body) {
                    Ok(c) => c,
                    Err(e) => return fail(errors, key_ptr("if"), e),
                };
                let then = match map.get("then") {
                    Some(Json::Array(l)) => self.effects(l, &key_ptr("then"), errors),
                    _ => {
                        return fail(
                            errors,
                            ptr.into(),
                            ExprError {
                                follow_up: false,
                                pos: 0,
                                message: "`if` needs `then:` with a list of effects".into(),
                                hint: None,
                            },
                        )
                    }
                };
                let els = match map.get("else") {
                    Some(Json::Array(l)) => self.effects(l, &key_ptr("else"), errors),
                    None => Vec::new(),
                    _ => {
                        return fail(
                            errors,
                            key_ptr("else"),
                            ExprError {
                                follow_up: false,
                                pos: 0,
                                message: "`else` takes a list of effects".into(),
                                hint: None,
                            },
                        )
                    }
                };
                Some(Stmt::If(cond, then, els))
            }
            "for" => {
                let Json::Object(m) = body else {
                    return fail(errors, key_ptr("for"), ExprError::new(0, "`for` takes one `name: set`, as in `for: {u: units where owner == me}`"));
                };
                if m.len() != 1 {
                    return fail(
                        errors,
                        key_ptr("for"),
                        ExprError {
                            follow_up: false,
                            pos: 0,
                            message: "`for` takes exactly one `name: set`".into(),
                            hint: None,
                        },
                    );
                }
                let (name, set) = m.iter().next()?;
                let s = match self.json_set(set) {
                    Ok(s) => s,
                    Err(e) => {
                        // The body is still checked, with the loop name known to have failed.
                        fail(errors, format!("{}/{}", key_ptr("for"), esc(name)), e);
                        self.bind_failed(name);
                        if let Some(Json::Array(l)) = map.get("do") {
                            self.effects(l, &key_ptr("do"), errors);
                        }
                        self.names.pop();
                        return None;
                    }
                };
                self.names.push(Binding {
                    name: name.clone(),
                    slot: s.slot,
                    ty: s.elem,
                    failed: false,
                });
                let body = match map.get("do") {
                    Some(Json::Array(l)) => self.effects(l, &key_ptr("do"), errors),
                    _ => {
                        self.names.pop();
                        return fail(
                            errors,
                            ptr.into(),
                            ExprError {
                                follow_up: false,
                                pos: 0,
                                message: "`for` needs `do:` with a list of effects".into(),
                                hint: None,
                            },
                        );
                    }
                };
                self.names.pop();
                Some(Stmt::For(s, body))
            }
            "eval" => match self.json_expr(body) {
                Ok((e, _)) => Some(Stmt::Eval(e)),
                Err(e) => fail(errors, key_ptr(kind), e),
            },
            "win" => {
                let p = match self.json_expr(body) {
                    Ok((e, Ty::Player)) => e,
                    Ok((_, t)) => {
                        return fail(
                            errors,
                            key_ptr("win"),
                            ExprError {
                                follow_up: false,
                                pos: 0,
                                message: format!("`win` names a player, found {}", t.name()),
                                hint: None,
                            },
                        )
                    }
                    Err(e) => return fail(errors, key_ptr("win"), e),
                };
                let reason = match map.get("reason") {
                    Some(Json::String(r)) => r.clone(),
                    _ => {
                        return fail(
                            errors,
                            ptr.into(),
                            ExprError {
                                follow_up: false,
                                pos: 0,
                                message: "`win` needs `reason: <code>`".into(),
                                hint: None,
                            },
                        )
                    }
                };
                Some(Stmt::Win(p, reason))
            }
            "draw" => match body {
                Json::String(r) => Some(Stmt::Draw(r.clone())),
                _ => fail(
                    errors,
                    key_ptr(kind),
                    ExprError {
                        follow_up: false,
                        pos: 0,
                        message: "`draw` takes a reason code".into(),
                        hint: None,
                    },
                ),
            },
            "end_turn" => Some(Stmt::EndTurn),
            "end_stage" => Some(Stmt::Stage(None)),
            "stage" => match body {
                Json::String(name) if self.cat.stages.contains(name) => {
                    Some(Stmt::Stage(Some(self.symbols.intern(name))))
                }
                _ => {
                    let name = body.as_str().unwrap_or("");
                    fail(
                        errors,
                        key_ptr(kind),
                        ExprError {
                            follow_up: false,
                            pos: usize::MAX,
                            message: format!("no stage `{name}` in the flow"),
                            hint: Some(
                                match closest(name, self.cat.stages.iter().map(String::as_str)) {
                                    Some(c) => format!("did you mean `{c}`?"),
                                    None if self.cat.stages.is_empty() => {
                                        "declare `stages:` in a phase of the flow".into()
                                    }
                                    None => format!("stages: {}", self.cat.stages.join(", ")),
                                },
                            ),
                        },
                    )
                }
            },
            "destroy_unit" => match self.json_expr(body) {
                Ok((e, Ty::Unit)) => Some(Stmt::DestroyUnit(e)),
                Ok((_, t)) => fail(
                    errors,
                    key_ptr(kind),
                    ExprError {
                        follow_up: false,
                        pos: 0,
                        message: format!("`destroy_unit` takes a unit, found {}", t.name()),
                        hint: None,
                    },
                ),
                Err(e) => fail(errors, key_ptr(kind), e),
            },
            "create_unit" => self.create_unit(body, &key_ptr(kind), errors),
            other => fail(
                errors,
                key_ptr(other),
                ExprError {
                    follow_up: false,
                    pos: 0,
                    message: format!("unknown effect `{other}`"),
                    hint: closest(
                        other,
                        [
                            "let",
                            "set",
                            "add",
                            "sub",
                            "emit",
                            "if",
                            "for",
                            "eval",
                            "win",
                            "draw",
                            "end_turn",
                            "end_stage",
                            "stage",
                            "create_unit",
                            "destroy_unit",
                        ],
                    )
                    .map(|c| format!("did you mean `{c}`?")),
                },
            ),
        }
    }

    fn create_unit(
        &mut self,
        body: &Json,
        ptr: &str,
        errors: &mut Vec<EffectError>,
    ) -> Option<Stmt> {
        let esc = super::yaml::pointer_escape;
        let fail = |errors: &mut Vec<EffectError>, p: String, e: ExprError| {
            errors.push(EffectError {
                pointer: p,
                error: e,
            });
        };
        // The name given with `as` is declared whatever happens, so its uses are not reported again.
        let bind_as = |this: &mut Self, ok: bool| match m_as(body) {
            Some(n) if ok => Some(this.bind(n, Ty::Unit)),
            Some(n) => {
                this.bind_failed(n);
                None
            }
            None => None,
        };
        let Json::Object(m) = body else {
            fail(
                errors,
                ptr.into(),
                ExprError::new(
                    0,
                    "`create_unit` takes type, owner, at, and optionally vars and as",
                ),
            );
            return None;
        };
        let Some(table) = self.cat.unit_table else {
            let e = if self.cat.failed.units {
                ExprError::follow_up(0, "units")
            } else {
                ExprError::new(0, "this ruleset declares no units")
            };
            fail(errors, ptr.into(), e);
            bind_as(self, false);
            return None;
        };
        let mut ok = true;
        let mut get = |k: &str,
                       want: Ty,
                       what: &str,
                       this: &mut Self,
                       errors: &mut Vec<EffectError>| {
            let kptr = format!("{ptr}/{k}");
            let Some(v) = m.get(k) else {
                ok = false;
                fail(
                    errors,
                    ptr.into(),
                    ExprError::new(0, format!("`create_unit` needs `{k}` ({what})")),
                );
                return None;
            };
            match this.json_expr(v) {
                Ok((e, t)) if t == want => Some(e),
                Ok((e, Ty::Text)) if matches!(want, Ty::Row(_)) => {
                    match this.check_key(want, &e, 0) {
                        Ok(()) => Some(e),
                        Err(err) => {
                            ok = false;
                            fail(errors, kptr, err);
                            None
                        }
                    }
                }
                Ok((_, t)) => {
                    ok = false;
                    fail(
                        errors,
                        kptr,
                        ExprError::new(0, format!("`{k}` must be {what}, this is {}", t.name())),
                    );
                    None
                }
                Err(err) => {
                    ok = false;
                    fail(errors, kptr, err);
                    None
                }
            }
        };
        let kind = get("type", Ty::Row(table), "a unit type", self, errors);
        let owner = get("owner", Ty::Player, "a player", self, errors);
        let at = get("at", Ty::Cell, "a cell", self, errors);
        let mut init = Vec::new();
        if let Some(Json::Object(vars)) = m.get("vars") {
            for (name, v) in vars {
                let vptr = format!("{ptr}/vars/{}", esc(name));
                let Some(d) = self.cat.unit_vars.iter().find(|d| d.name == *name).cloned() else {
                    if self.cat.failed.vars.contains(name) {
                        ok = false;
                        continue;
                    }
                    let near = closest(name, self.cat.unit_vars.iter().map(|d| d.name.as_str()));
                    let mut e =
                        ExprError::new(usize::MAX, format!("units have no variable `{name}`"));
                    e.hint = near.map(|c| format!("did you mean `{c}`?"));
                    fail(errors, vptr, e);
                    ok = false;
                    continue;
                };
                match self.json_expr(v) {
                    Ok((e, _)) => init.push((d.slot, d.ty, e)),
                    Err(e) => {
                        fail(errors, vptr, e);
                        ok = false;
                    }
                }
            }
        }
        let bind = bind_as(self, ok);
        let (Some(kind), Some(owner), Some(at), true) = (kind, owner, at, ok) else {
            return None;
        };
        Some(Stmt::CreateUnit {
            kind,
            owner,
            at,
            init,
            bind,
        })
    }
}

/// The name a `create_unit` binds with `as`, if any.
fn m_as(body: &Json) -> Option<&str> {
    body.get("as").and_then(Json::as_str)
}

/// Several statements produced by one YAML entry.
fn block(mut stmts: Vec<Stmt>) -> Stmt {
    if stmts.len() == 1 {
        return stmts.pop().unwrap_or(Stmt::Draw(String::new()));
    }
    Stmt::If(Expr::Const(Value::Bool(true)), stmts, Vec::new())
}
