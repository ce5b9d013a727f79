//! One script function translated: statements and expressions of Rhai's AST become IR statements over the
//! function's own local slots (numbered from 0 here; `slots` moves them). Every variable (`let`, parameter,
//! loop variable) gets a slot of its own, so shadowing and block scoping need nothing at run time. An
//! expression may need statements to run before it (an `if` used as a value, a liveness check, an `&&` whose
//! right side does): `X::pre`, with the operands evaluated earlier spilled into temporaries so the order of
//! evaluation, and so of draws and errors, stays Rhai's. A `return` at the end of the function (or of a
//! branch of an `if` whose other branch continues) just sets the result; one elsewhere also sets a flag that
//! every statement after it (and later rounds of its loop) tests.
use rhai::{ASTFlags, Expr as RExpr, FnCallExpr, Stmt as RStmt};

use super::{refuse, Cx, Res, Translated, MAX_ARRAY, T};
use crate::ir::{CellScan, Expr, SetExpr, SetSource, Stmt};
use crate::model::{Ty, Value};

/// Most local slots one function may use.
const MAX_SLOTS: u16 = 4096;
/// Translations of one function before variable types must have settled.
const ATTEMPTS: usize = 8;

/// A translated expression: statements to run first, the expression, its static type.
pub(super) struct X {
    pub pre: Vec<Stmt>,
    pub e: Expr,
    pub t: T,
}

impl X {
    pub fn pure(e: Expr, t: T) -> X {
        X {
            pre: Vec::new(),
            e,
            t,
        }
    }
    pub fn unit() -> X {
        X::pure(Expr::Const(Value::None), T::of(Ty::Nothing))
    }
}

/// An argument of a call: still to translate, or already translated (the object of a method call).
pub(super) enum A<'a> {
    Ast(&'a RExpr),
    Done(X),
}

struct Binding {
    name: String,
    slot: u16,
    id: usize,
}

/// Where the value of a statement list goes.
#[derive(Clone, Copy)]
enum Tail {
    /// Nowhere (a statement in the middle of a block).
    Drop,
    /// Into a slot (a block used as a value).
    Into(u16),
    /// It is the function's value (`return` is allowed here).
    Return,
}

/// The translation of one function (one attempt: variable types found wider than assumed start another).
pub(super) struct Fun<'c, 'g> {
    pub cx: &'c mut Cx<'g>,
    scope: Vec<Binding>,
    /// Each variable's type, by binding id (kept across attempts, only ever widened).
    var_ty: Vec<T>,
    ids: usize,
    /// Each variable's slot and binding id, in the order they were bound.
    bound: Vec<(u16, usize)>,
    widened: bool,
    slots: u16,
    result: u16,
    result_ty: Option<T>,
    /// The flag of `return`s before the end, once one is met.
    done: Option<u16>,
    /// How many such `return`s were translated (a statement that adds one may have returned).
    exits: u32,
    /// Inside a block used as a value, where a `return` is not translated.
    in_expr: u32,
    pub ops: u64,
    pub depth: u32,
}

/// Translates function `f` for argument types `sig`.
pub(super) fn translate(
    cx: &mut Cx<'_>,
    f: u16,
    params: &[String],
    body: &[RStmt],
    sig: &[crate::model::Ty],
) -> Res<Translated> {
    if params.len() != sig.len() {
        return refuse(format!(
            "`{}` takes {} arguments",
            cx.game.script_fns[f as usize].0,
            params.len()
        ));
    }
    let mut var_ty = Vec::new();
    for _ in 0..ATTEMPTS {
        let mut fun = Fun {
            cx: &mut *cx,
            scope: Vec::new(),
            var_ty: std::mem::take(&mut var_ty),
            ids: 0,
            bound: Vec::new(),
            widened: false,
            slots: 0,
            result: 0,
            result_ty: None,
            done: None,
            exits: 0,
            in_expr: 0,
            ops: 0,
            depth: 0,
        };
        let mut ps = Vec::new();
        for (name, &ty) in params.iter().zip(sig) {
            let slot = fun.slot()?;
            fun.bind(name, slot, T::of(ty))?;
            ps.push((slot, ty));
        }
        fun.result = fun.slot()?;
        let mut out = Vec::new();
        fun.list(body, Tail::Return, &mut out)?;
        if let Some(done) = fun.done {
            out.insert(0, Stmt::Let(done, Expr::Const(Value::Bool(false))));
        }
        if !fun.widened {
            // The types have settled: every value stored into a variable's slot has its type.
            let int_locals = fun
                .bound
                .iter()
                .filter(|&&(_, id)| fun.var_ty[id].ty == Ty::Int)
                .map(|&(slot, _)| slot)
                .collect();
            return Ok(Translated {
                params: ps,
                body: out,
                result: fun.result,
                int_locals,
                slots: fun.slots,
                result_ty: fun.result_ty.unwrap_or(T::of(Ty::Nothing)),
                ops: fun.ops,
                depth: fun.depth,
            });
        }
        var_ty = fun.var_ty;
    }
    refuse("variable types do not settle")
}

/// Whether a block always ends in `return` (so what follows its `if` runs only on the other branch).
fn returns(stmts: &[RStmt]) -> bool {
    match stmts.last() {
        Some(RStmt::Return(_, flags, _)) => !flags.contains(ASTFlags::BREAK),
        Some(RStmt::If(x, _)) => returns(x.body.statements()) && returns(x.branch.statements()),
        Some(RStmt::Block(b)) => returns(b.statements()),
        _ => false,
    }
}

/// Expressions that cannot fail, draw or change anything, and read nothing a statement could change
/// between their evaluation and their use, apart from locals.
fn trivial(e: &Expr) -> bool {
    matches!(
        e,
        Expr::Const(_) | Expr::Local(_) | Expr::Me | Expr::Opponent | Expr::Counter(_)
    )
}

impl Fun<'_, '_> {
    /// A fresh local slot.
    pub fn slot(&mut self) -> Res<u16> {
        if self.slots >= MAX_SLOTS {
            return refuse("too many local values");
        }
        self.slots += 1;
        Ok(self.slots - 1)
    }

    fn bind(&mut self, name: &str, slot: u16, t: T) -> Res<()> {
        let id = self.ids;
        self.ids += 1;
        match self.var_ty.get(id).copied() {
            Some(old) => match old.join(t) {
                Some(j) => self.var_ty[id] = j,
                None => return refuse(format!("`{name}` holds values of different types")),
            },
            None => self.var_ty.push(t),
        }
        self.bound.push((slot, id));
        self.scope.push(Binding {
            name: name.to_string(),
            slot,
            id,
        });
        Ok(())
    }

    fn lookup(&self, name: &str) -> Res<(u16, usize)> {
        match self.scope.iter().rev().find(|b| b.name == name) {
            Some(b) => Ok((b.slot, b.id)),
            None => refuse(format!("unknown variable `{name}`")),
        }
    }

    /// Records that variable `id` also holds values of type `t`.
    fn assigned(&mut self, id: usize, t: T) -> Res<()> {
        let old = self.var_ty[id];
        match old.join(t) {
            Some(j) if j == old => Ok(()),
            Some(j) => {
                self.var_ty[id] = j;
                self.widened = true;
                Ok(())
            }
            None => refuse("a variable holds values of different types"),
        }
    }

    /// `x`, or a run error with `message` when it is `()`.
    pub fn expect(&self, x: X, message: impl Into<String>) -> X {
        if !x.t.null {
            return x;
        }
        X {
            pre: x.pre,
            e: Expr::Expect(Box::new(x.e), message.into()),
            t: T::of(x.t.ty),
        }
    }

    /// Evaluates `x` into a temporary (after its own statements) unless it is a constant.
    pub fn spill(&mut self, x: X, pre: &mut Vec<Stmt>) -> Res<Expr> {
        pre.extend(x.pre);
        if matches!(x.e, Expr::Const(_)) {
            return Ok(x.e);
        }
        let s = self.slot()?;
        pre.push(Stmt::Let(s, x.e));
        Ok(Expr::Local(s))
    }

    /// Operands evaluated left to right as Rhai does: everything before the last operand that needs
    /// statements is evaluated into temporaries before those statements run.
    pub fn combine(&mut self, xs: Vec<X>) -> Res<(Vec<Stmt>, Vec<Expr>)> {
        let last = xs.iter().rposition(|x| !x.pre.is_empty());
        let mut pre = Vec::new();
        let mut es = Vec::with_capacity(xs.len());
        for (i, x) in xs.into_iter().enumerate() {
            if last.is_some_and(|j| i < j) {
                let e = self.spill(x, &mut pre)?;
                es.push(e);
            } else {
                pre.extend(x.pre);
                es.push(x.e);
            }
        }
        Ok((pre, es))
    }

    /// Like `combine`, and every operand that is not trivial evaluated into a temporary: for statements
    /// that evaluate their operands in another order than Rhai, or only sometimes.
    pub fn stable(&mut self, xs: Vec<X>) -> Res<(Vec<Stmt>, Vec<Expr>)> {
        let (mut pre, es) = self.combine(xs)?;
        let mut out = Vec::with_capacity(es.len());
        for e in es {
            if trivial(&e) {
                out.push(e);
            } else {
                let s = self.slot()?;
                pre.push(Stmt::Let(s, e));
                out.push(Expr::Local(s));
            }
        }
        Ok((pre, out))
    }

    /// A statement list in its own scope.
    fn list(&mut self, stmts: &[RStmt], tail: Tail, out: &mut Vec<Stmt>) -> Res<T> {
        let mark = self.scope.len();
        let r = self.list_in(stmts, tail, out);
        self.scope.truncate(mark);
        r
    }

    /// A statement list in the current scope; returns the type of its value (for `Tail::Into`).
    fn list_in(&mut self, stmts: &[RStmt], tail: Tail, out: &mut Vec<Stmt>) -> Res<T> {
        if stmts.is_empty() {
            return self.value(tail, X::unit(), out);
        }
        for (i, s) in stmts.iter().enumerate() {
            let last = i + 1 == stmts.len();
            match s {
                RStmt::Return(e, flags, _) => {
                    if flags.contains(ASTFlags::BREAK) {
                        return refuse("`throw`");
                    }
                    let early = !matches!(tail, Tail::Return);
                    if early && self.in_expr > 0 {
                        return refuse("`return` inside an expression");
                    }
                    self.ops += 1;
                    let x = match e {
                        Some(e) => self.expr(e)?,
                        None => X::unit(),
                    };
                    self.value(Tail::Return, x, out)?;
                    if early {
                        // Elsewhere than at the end: the flag stops what follows (`exited`).
                        let done = self.done()?;
                        out.push(Stmt::Let(done, Expr::Const(Value::Bool(true))));
                        self.exits += 1;
                    }
                    // What follows a `return` never runs.
                    return Ok(T::of(Ty::Nothing));
                }
                RStmt::If(x, _)
                    if matches!(tail, Tail::Return)
                        && !last
                        && (returns(x.body.statements()) || returns(x.branch.statements())) =>
                {
                    // `if c { ...; return v; } rest`: the rest belongs to the branch that does not return.
                    self.ops += 1;
                    let c = self.expr(&x.expr)?;
                    let c = self.boolean(c, "if")?;
                    out.extend(c.pre);
                    let rest = &stmts[i + 1..];
                    let a = self.then_rest(x.body.statements(), rest)?;
                    let b = self.then_rest(x.branch.statements(), rest)?;
                    out.push(Stmt::If(c.e, a, b));
                    return Ok(T::of(Ty::Nothing));
                }
                _ => {
                    let before = self.exits;
                    let t = self.stmt(s, if last { tail } else { Tail::Drop }, out)?;
                    if last {
                        return Ok(t);
                    }
                    if self.exits > before {
                        return self.unless_done(&stmts[i + 1..], tail, out);
                    }
                }
            }
        }
        Ok(T::of(Ty::Nothing))
    }

    /// The value `()` of a statement that may have returned (a `return` was translated since `exits`): given
    /// only if it did not, or it would overwrite the returned value.
    fn unit_after(&mut self, exits: u32, tail: Tail, out: &mut Vec<Stmt>) -> Res<T> {
        if self.exits == exits || matches!(tail, Tail::Drop) {
            return self.value(tail, X::unit(), out);
        }
        let done = self.done()?;
        let mut inner = Vec::new();
        let t = self.value(tail, X::unit(), &mut inner)?;
        out.push(Stmt::If(
            Expr::Not(Box::new(Expr::Local(done))),
            inner,
            Vec::new(),
        ));
        Ok(t)
    }

    /// The flag set by a `return` before the end of the function (false when the function starts).
    fn done(&mut self) -> Res<u16> {
        match self.done {
            Some(d) => Ok(d),
            None => {
                let d = self.slot()?;
                self.done = Some(d);
                Ok(d)
            }
        }
    }

    /// The rest of a list after a statement that may have returned: run only if it did not.
    fn unless_done(&mut self, rest: &[RStmt], tail: Tail, out: &mut Vec<Stmt>) -> Res<T> {
        let done = self.done()?;
        let mut inner = Vec::new();
        let t = self.list_in(rest, tail, &mut inner)?;
        out.push(Stmt::If(
            Expr::Not(Box::new(Expr::Local(done))),
            inner,
            Vec::new(),
        ));
        Ok(t)
    }

    /// A branch of an early-return `if`, followed by the rest of the function unless it returns.
    fn then_rest(&mut self, branch: &[RStmt], rest: &[RStmt]) -> Res<Vec<Stmt>> {
        let mut out = Vec::new();
        if returns(branch) {
            self.list(branch, Tail::Return, &mut out)?;
        } else {
            let before = self.exits;
            self.list(branch, Tail::Drop, &mut out)?;
            let mark = self.scope.len();
            if self.exits > before {
                self.unless_done(rest, Tail::Return, &mut out)?;
            } else {
                self.list_in(rest, Tail::Return, &mut out)?;
            }
            self.scope.truncate(mark);
        }
        Ok(out)
    }

    /// Sends a statement's value where the tail says.
    fn value(&mut self, tail: Tail, x: X, out: &mut Vec<Stmt>) -> Res<T> {
        out.extend(x.pre);
        match tail {
            Tail::Drop => {
                if !trivial(&x.e) {
                    out.push(Stmt::Eval(x.e));
                }
            }
            Tail::Into(s) => out.push(Stmt::Let(s, x.e)),
            Tail::Return => {
                out.push(Stmt::Let(self.result, x.e));
                self.result_ty = Some(match self.result_ty {
                    None => x.t,
                    Some(r) => match r.join(x.t) {
                        Some(j) => j,
                        None => return refuse("returns values of different types"),
                    },
                });
            }
        }
        Ok(x.t)
    }

    fn stmt(&mut self, s: &RStmt, tail: Tail, out: &mut Vec<Stmt>) -> Res<T> {
        self.ops += 1;
        let exits = self.exits;
        match s {
            RStmt::Noop(_) => self.value(tail, X::unit(), out),
            RStmt::Var(x, flags, _) => {
                if flags.contains(ASTFlags::EXPORTED) {
                    return refuse("`export`");
                }
                let (ident, init, _) = &**x;
                let slot = self.slot()?;
                let t = if let RExpr::Stmt(b) = init {
                    // `let x = if ... { } else { }`: the branches write the variable directly.
                    self.ops += 1;
                    self.list(b.statements(), Tail::Into(slot), out)?
                } else {
                    let v = self.expr(init)?;
                    out.extend(v.pre);
                    out.push(Stmt::Let(slot, v.e));
                    v.t
                };
                self.bind(ident.name.as_str(), slot, t)?;
                self.unit_after(exits, tail, out)
            }
            RStmt::Assignment(x) => {
                let (op, bin) = &**x;
                let RExpr::Variable(v, _, _) = &bin.lhs else {
                    return refuse("assignment to something other than a variable");
                };
                let (slot, id) = self.lookup(v.1.as_str())?;
                let rhs = self.expr(&bin.rhs)?;
                let x = match op.get_op_assignment_info() {
                    None => rhs,
                    Some((.., syntax)) => {
                        // Rhai evaluates the right side first, then combines it with the variable.
                        let cur = X::pure(Expr::Local(slot), self.var_ty[id]);
                        let mut pre = rhs.pre;
                        let r = X::pure(rhs.e, rhs.t);
                        let mut x = self.arith(syntax, cur, r)?;
                        pre.append(&mut x.pre);
                        X { pre, ..x }
                    }
                };
                self.assigned(id, x.t)?;
                out.extend(x.pre);
                out.push(Stmt::Let(slot, x.e));
                self.unit_after(exits, tail, out)
            }
            RStmt::If(x, _) => {
                let c = self.expr(&x.expr)?;
                let c = self.boolean(c, "if")?;
                out.extend(c.pre);
                let (mut a, mut b) = (Vec::new(), Vec::new());
                let ta = self.list(x.body.statements(), tail, &mut a)?;
                let tb = self.list(x.branch.statements(), tail, &mut b)?;
                out.push(Stmt::If(c.e, a, b));
                match ta.join(tb) {
                    Some(t) => Ok(t),
                    None if matches!(tail, Tail::Into(_)) => {
                        refuse("an `if` whose branches give values of different types")
                    }
                    None => Ok(T::of(Ty::Nothing)),
                }
            }
            RStmt::For(x, _) => {
                let (var, counter, flow) = &**x;
                if counter.is_some() {
                    return refuse("a `for` loop with a counter");
                }
                self.for_neighbours(var.name.as_str(), &flow.expr, flow.body.statements(), out)?;
                self.unit_after(exits, tail, out)
            }
            RStmt::FnCall(c, _) => {
                let x = self.call(c)?;
                self.value(tail, x, out)
            }
            RStmt::Expr(e) => {
                let x = self.expr(e)?;
                self.value(tail, x, out)
            }
            RStmt::Block(b) => self.list(b.statements(), tail, out),
            _ => refuse("a statement outside the native subset (loops other than `for`, `switch`, `try`...)"),
        }
    }

    /// `for v in neighbours(c) { ... }`: the IR's loop over the cell's neighbours, in board order.
    fn for_neighbours(
        &mut self,
        var: &str,
        source: &RExpr,
        body: &[RStmt],
        out: &mut Vec<Stmt>,
    ) -> Res<()> {
        let RExpr::FnCall(c, _) = source else {
            return refuse("a `for` loop over something other than `neighbours(cell)`");
        };
        if c.name.as_str() != "neighbours"
            || c.args.len() != 1
            || c.op_token.is_some()
            || c.capture_parent_scope
            || self.cx.script_fn("neighbours", 1).is_some()
        {
            return refuse("a `for` loop over something other than `neighbours(cell)`");
        }
        if self.cx.max_degree > MAX_ARRAY {
            return refuse("a cell has more neighbours than a Rhai array may hold");
        }
        let cell = self.typed(A::Ast(&c.args[0]), Ty::Cell, "neighbours")?;
        out.extend(cell.pre);
        let slot = self.slot()?;
        let mark = self.scope.len();
        self.bind(var, slot, T::of(Ty::Cell))?;
        let before = self.ops;
        let exits = self.exits;
        let mut inner = Vec::new();
        let r = self.list(body, Tail::Drop, &mut inner);
        self.scope.truncate(mark);
        r?;
        if self.exits > exits {
            // A `return` in the body: later rounds do nothing (the rest of the function is skipped too).
            let done = self.done()?;
            inner = vec![Stmt::If(
                Expr::Not(Box::new(Expr::Local(done))),
                inner,
                Vec::new(),
            )];
        }
        let degree = self.cx.max_degree.max(1) as u64;
        self.ops = before + (self.ops - before + 1).saturating_mul(degree);
        out.push(Stmt::For(
            SetExpr {
                source: SetSource::Neighbours(cell.e),
                slot,
                filter: None,
                elem: Ty::Cell,
                scan: CellScan::default(),
            },
            inner,
        ));
        Ok(())
    }

    pub fn expr(&mut self, e: &RExpr) -> Res<X> {
        self.ops += 1;
        Ok(match e {
            RExpr::IntegerConstant(i, _) => X::pure(Expr::Const(Value::Int(*i)), T::of(Ty::Int)),
            RExpr::FloatConstant(f, _) => {
                X::pure(Expr::Const(Value::Float(*f.as_ref())), T::of(Ty::Float))
            }
            RExpr::BoolConstant(b, _) => X::pure(Expr::Const(Value::Bool(*b)), T::of(Ty::Bool)),
            RExpr::Unit(_) => X::unit(),
            RExpr::StringConstant(s, _) => self.text(s.as_str())?,
            RExpr::DynamicConstant(d, _) => {
                if d.is_unit() {
                    X::unit()
                } else if let Ok(i) = d.as_int() {
                    X::pure(Expr::Const(Value::Int(i)), T::of(Ty::Int))
                } else if let Ok(f) = d.as_float() {
                    X::pure(Expr::Const(Value::Float(f)), T::of(Ty::Float))
                } else if let Ok(b) = d.as_bool() {
                    X::pure(Expr::Const(Value::Bool(b)), T::of(Ty::Bool))
                } else if let Ok(s) = d.clone().into_immutable_string() {
                    self.text(s.as_str())?
                } else {
                    return refuse("a constant that is not a number, a boolean or text");
                }
            }
            RExpr::Variable(v, _, _) => {
                let (slot, id) = self.lookup(v.1.as_str())?;
                X::pure(Expr::Local(slot), self.var_ty[id])
            }
            RExpr::Stmt(b) => {
                let s = self.slot()?;
                let mut pre = Vec::new();
                self.in_expr += 1;
                let t = self.list(b.statements(), Tail::Into(s), &mut pre);
                self.in_expr -= 1;
                let t = t?;
                X {
                    pre,
                    e: Expr::Local(s),
                    t,
                }
            }
            RExpr::FnCall(c, _) => self.call(c)?,
            RExpr::Dot(b, flags, _) if flags.is_empty() => {
                let mut x = self.expr(&b.lhs)?;
                let mut rhs = &b.rhs;
                loop {
                    match rhs {
                        RExpr::MethodCall(c, _) => break self.method(x, c)?,
                        RExpr::Dot(d, flags, _) if flags.is_empty() => {
                            let RExpr::MethodCall(c, _) = &d.lhs else {
                                return refuse("a property or index");
                            };
                            x = self.method(x, c)?;
                            rhs = &d.rhs;
                        }
                        _ => return refuse("a property or index"),
                    }
                }
            }
            RExpr::And(list, _) => self.logic(list, true)?,
            RExpr::Or(list, _) => self.logic(list, false)?,
            _ => {
                return refuse("an expression outside the native subset (arrays, maps, strings...)")
            }
        })
    }

    /// A text constant: a value only if the ruleset already knows the text (no new symbols are made).
    fn text(&self, s: &str) -> Res<X> {
        match self.cx.game.symbols.get(s) {
            Some(sym) => Ok(X::pure(Expr::Const(Value::Text(sym)), T::of(Ty::Text))),
            None => refuse(format!("the text \"{s}\" used as a value")),
        }
    }

    /// A function call: an operator, a script function or a host function.
    pub fn call(&mut self, c: &FnCallExpr) -> Res<X> {
        if c.capture_parent_scope {
            return refuse("a call capturing the caller's scope");
        }
        let name = c.name.as_str();
        if c.op_token.is_some() {
            return self.operator(name, &c.args);
        }
        if let Some(g) = self.cx.script_fn(name, c.args.len()) {
            return self.script(g, &c.args);
        }
        let args = c.args.iter().map(A::Ast).collect();
        self.host(name, args)
    }

    /// `x.f(args)`: a host or Rhai function with `x` first (a script function's name is refused: Rhai would
    /// bind `x` to `this`).
    fn method(&mut self, this: X, c: &FnCallExpr) -> Res<X> {
        let name = c.name.as_str();
        if c.capture_parent_scope || c.op_token.is_some() || self.cx.names.contains(name) {
            return refuse(format!("the method call `.{name}()`"));
        }
        let mut args = vec![A::Done(this)];
        args.extend(c.args.iter().map(A::Ast));
        self.host(name, args)
    }

    /// A call of another script function, natively.
    fn script(&mut self, g: u16, args: &[RExpr]) -> Res<X> {
        // Text naming a cell, a player or a row stands for it where the callee takes one.
        let sig = self.cx.signature(g);
        let mut xs = Vec::new();
        for (i, a) in args.iter().enumerate() {
            let want = sig.as_ref().and_then(|s| s.get(i).copied());
            let x = match (a, want) {
                (RExpr::StringConstant(s, _), Some(ty)) => self.literal(s.as_str(), ty)?,
                (_, Some(ty)) => {
                    let x = self.expr(a)?;
                    match x.e {
                        Expr::Const(Value::Text(sym)) if ty != Ty::Text => {
                            let s = self.cx.game.symbols.name(sym).clone();
                            self.literal(&s, ty)?
                        }
                        _ => x,
                    }
                }
                _ => self.expr(a)?,
            };
            xs.push(x);
        }
        if xs.iter().any(|x| x.t.ty == Ty::Nothing) {
            return refuse("a script function called with ()");
        }
        let tys: Vec<Ty> = xs.iter().map(|x| x.t.ty).collect();
        let done = self.cx.request(g, &tys)?;
        self.ops = self.ops.saturating_add(done.ops + 1);
        self.depth = self.depth.max(done.depth + 1);
        // An argument that is `()` when the call runs sends the call to Rhai, which gives a value of the
        // same type or `()` (an operation on `()` fails, anything else passes it on).
        let null = xs.iter().any(|x| x.t.null);
        let (pre, es) = self.combine(xs)?;
        Ok(X {
            pre,
            e: Expr::Script(g, es),
            t: T {
                ty: done.result.ty,
                null: done.result.null || null,
            },
        })
    }
}
