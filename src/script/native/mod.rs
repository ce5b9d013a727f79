//! Static translation of script functions into the IR, so the engine runs them natively, with the meaning
//! they have in Rhai. A function translates when its body (as Rhai's optimiser left it) uses only a subset
//! whose every construct has an exact IR counterpart, and its parameter types are known; any other function
//! keeps running in Rhai. `func` translates statements and expressions, `ops` the operators, `host` the host
//! API calls; `sites` finds the argument types at the rules' call sites, `slots` moves a function's locals to
//! its own range.
//!
//! Values: in Rhai, cells, players, units and rows are id strings; here they are typed values. Each
//! expression has a static type (`T`: a `Ty` and whether it may be `()`) and every operation is translated
//! only for the types where Rhai and the IR agree, with `Expr::Expect` where Rhai fails on `()`. At run time
//! the engine checks each argument against the parameter types before running the native body and calls Rhai
//! for anything else, so a wrong guess at a call site costs speed, never meaning.
mod func;
mod host;
mod ops;
mod sites;
mod slots;

use std::collections::HashSet;

use rhai::{ASTNode, Stmt as RStmt};

use crate::ir::game::{Game, NativeFn};
use crate::model::Ty;

pub(crate) use sites::Sig;

/// Static bound on the Rhai operations of one native call (Rhai stops a call at `MAX_OPERATIONS`): a
/// function that might come near the limit stays in Rhai, where the limit is enforced.
const MAX_OPS: u64 = super::MAX_OPERATIONS / 10;
/// Deepest chain of native calls between script functions (Rhai allows 32 levels).
const MAX_DEPTH: u32 = 16;
/// Largest neighbourhood `neighbours(c)` may return (Rhai's array size limit).
const MAX_ARRAY: usize = 10_000;

/// The static type of a script value: a type and whether the value may also be `()`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct T {
    pub ty: Ty,
    pub null: bool,
}

impl T {
    pub fn of(ty: Ty) -> T {
        T {
            ty,
            null: ty == Ty::Nothing,
        }
    }
    pub fn maybe(ty: Ty) -> T {
        T { ty, null: true }
    }
    /// Both types as one (a variable assigned both), if they have one.
    pub fn join(self, o: T) -> Option<T> {
        match (self.ty, o.ty) {
            (a, b) if a == b => Some(T {
                ty: a,
                null: self.null || o.null,
            }),
            (Ty::Nothing, b) => Some(T::maybe(b)),
            (a, Ty::Nothing) => Some(T::maybe(a)),
            _ => None,
        }
    }
}

/// Why a function is not translated (kept for tests and debugging; the function simply stays in Rhai).
#[derive(Debug, Clone)]
pub(crate) struct Refuse(pub String);

pub(crate) type Res<T> = Result<T, Refuse>;

pub(crate) fn refuse<T>(why: impl Into<String>) -> Res<T> {
    Err(Refuse(why.into()))
}

/// A script function's definition: parameter names and top-level statements.
struct Def {
    params: Vec<String>,
    body: Vec<RStmt>,
}

/// A translated function before its slots are moved to their final range.
pub(crate) struct Translated {
    pub params: Vec<(u16, Ty)>,
    pub body: Vec<crate::ir::Stmt>,
    pub result: u16,
    /// See [`NativeFn::int_locals`] (slots before they are moved).
    pub int_locals: Vec<u16>,
    pub slots: u16,
    pub result_ty: T,
    pub ops: u64,
    pub depth: u32,
}

/// What is known of a translated function, for its callers.
#[derive(Clone, Copy)]
pub(crate) struct Done {
    pub result: T,
    pub ops: u64,
    pub depth: u32,
}

enum State {
    Todo,
    Busy,
    Failed(String),
    Done(Done, NativeFn),
}

/// The translation of a whole game's scripts: definitions, signatures, results, the slot counter.
pub(crate) struct Cx<'g> {
    pub game: &'g Game,
    defs: Vec<Option<Def>>,
    sigs: Vec<Sig>,
    state: Vec<State>,
    next_slot: u32,
    /// Translations under way (a caller's translation asks for its callees'): bounded like the calls.
    active: u32,
    /// Names of script functions (a method call with one of these names is not a host call).
    pub names: HashSet<String>,
    /// The most neighbours any cell has.
    pub max_degree: usize,
    /// Line-of-sight tests neither call scripts nor draw (so a native `line_of_sight` means the same).
    pub sight_pure: bool,
    /// Some player id is also a cell id (a player returned to the rules would come back as the cell).
    pub player_cell_clash: bool,
}

/// Translates every script function it can and stores the results in the game (`script_native`), raising
/// `max_locals` above the native functions' slots.
pub fn attach(game: &mut Game) {
    let n = game.script_fns.len();
    game.script_native = vec![None; n];
    if n == 0 {
        return;
    }
    let (natives, max) = {
        let Some(defs) = definitions(game) else {
            return;
        };
        let mut cx = Cx::new(game, defs);
        for f in 0..n {
            if matches!(cx.sigs[f], Sig::Known(_)) {
                cx.translate(f as u16);
            }
        }
        cx.finish()
    };
    game.script_native = natives;
    game.max_locals = game.max_locals.max(max);
}

/// Why each script function is or is not native (`None` when it is): for tests and debugging.
pub fn explain(game: &Game) -> Vec<(String, Option<String>)> {
    let n = game.script_fns.len();
    let Some(defs) = definitions(game) else {
        return game
            .script_fns
            .iter()
            .map(|(f, _)| (f.clone(), Some("the scripts do not compile".into())))
            .collect();
    };
    let mut cx = Cx::new(game, defs);
    for f in 0..n {
        if matches!(cx.sigs[f], Sig::Known(_)) {
            cx.translate(f as u16);
        }
    }
    (0..n)
        .map(|f| {
            let why = match (&cx.state[f], &cx.sigs[f]) {
                (State::Done(..), _) => None,
                (State::Failed(w), _) => Some(w.clone()),
                (_, Sig::Unseen) => Some("not called from the rules".into()),
                (_, Sig::Bad(w)) => Some(w.clone()),
                _ => Some("not translated".into()),
            };
            (game.script_fns[f].0.clone(), why)
        })
        .collect()
}

/// Each script function's definition, compiled as the runtime compiles it (same engine, same optimiser).
fn definitions(game: &Game) -> Option<Vec<Option<Def>>> {
    let engine = super::host_engine();
    let mut defs: Vec<Option<Def>> = game.script_fns.iter().map(|_| None).collect();
    for s in &game.scripts {
        let ast = engine.compile(&*s.text).ok()?;
        for fd in ast.iter_fn_def() {
            let (name, arity) = (fd.name.to_string(), fd.params.len());
            let Some(i) = game.script_fns.iter().position(|(n, _)| *n == name) else {
                continue;
            };
            if game.script_fns[i].1 != arity || defs[i].is_some() {
                continue;
            }
            // The body's top-level statements: walk a copy of the AST holding only this function
            // (`clone_functions_only_filtered` keeps every function of a fresh module: retain instead).
            let mut one = ast.clone_functions_only();
            one.retain_functions(|_, _, n, k| n == name && k == arity);
            if one.iter_fn_def().count() != 1 {
                continue;
            }
            let mut body = Vec::new();
            one.walk(&mut |path: &[ASTNode]| {
                if let [ASTNode::Stmt(s)] = path {
                    body.push((*s).clone());
                }
                true
            });
            defs[i] = Some(Def {
                params: fd.params.iter().map(|p| p.to_string()).collect(),
                body,
            });
        }
    }
    Some(defs)
}

impl<'g> Cx<'g> {
    fn new(game: &'g Game, defs: Vec<Option<Def>>) -> Self {
        let sigs = sites::signatures(game);
        let sight_pure = game.sight.as_ref().is_none_or(|s| {
            [&s.opaque, &s.screens, &s.see_over]
                .into_iter()
                .flatten()
                .all(|e| e.reads(&mut Vec::new()))
        });
        let board = &game.board;
        Cx {
            game,
            state: defs.iter().map(|_| State::Todo).collect(),
            defs,
            sigs,
            next_slot: game.max_locals as u32,
            active: 0,
            names: game.script_fns.iter().map(|(n, _)| n.clone()).collect(),
            max_degree: (0..board.len() as u32)
                .map(|c| board.neighbours(c).len())
                .max()
                .unwrap_or(0),
            sight_pure,
            player_cell_clash: game.players.iter().any(|p| board.find(p).is_some()),
        }
    }

    /// The index of script function `name` taking `arity` arguments.
    pub fn script_fn(&self, name: &str, arity: usize) -> Option<u16> {
        let i = self.game.script_fns.iter().position(|(n, _)| n == name)?;
        (self.game.script_fns[i].1 == arity).then_some(i as u16)
    }

    /// The argument types `f` is translated for, when they are known already.
    pub fn signature(&self, f: u16) -> Option<Vec<Ty>> {
        match &self.sigs[f as usize] {
            Sig::Known(s) => Some(s.clone()),
            _ => None,
        }
    }

    /// A native call of `f` with arguments of types `args` (never `()`) from another native function: the
    /// callee translated on first use. `Err` when it cannot run natively with these types.
    pub fn request(&mut self, f: u16, args: &[Ty]) -> Res<Done> {
        let i = f as usize;
        match &self.sigs[i] {
            Sig::Known(s) if s.as_slice() != args => {
                return refuse(format!(
                    "`{}` is called with other argument types elsewhere",
                    self.game.script_fns[i].0
                ))
            }
            Sig::Bad(w) => return refuse(w.clone()),
            Sig::Unseen => self.sigs[i] = Sig::Known(args.to_vec()),
            Sig::Known(_) => {}
        }
        if matches!(self.state[i], State::Todo) {
            self.translate(f);
        }
        match &self.state[i] {
            State::Done(d, _) => Ok(*d),
            State::Busy => refuse("recursion"),
            State::Failed(w) => refuse(format!("calls `{}`: {w}", self.game.script_fns[i].0)),
            State::Todo => refuse("not translated"),
        }
    }

    /// Translates `f` for its known signature and records the outcome.
    fn translate(&mut self, f: u16) {
        let i = f as usize;
        if !matches!(self.state[i], State::Todo) {
            return;
        }
        let Sig::Known(sig) = self.sigs[i].clone() else {
            return;
        };
        let Some(def) = self.defs[i].take() else {
            self.state[i] = State::Failed("no definition".into());
            return;
        };
        self.state[i] = State::Busy;
        self.active += 1;
        let out = if self.active > MAX_DEPTH + 1 {
            refuse("calls nest too deeply")
        } else {
            func::translate(self, f, &def.params, &def.body, &sig)
        };
        self.active -= 1;
        self.defs[i] = Some(def);
        self.state[i] = match out.and_then(|t| self.place(t)) {
            Ok((done, native)) => State::Done(done, native),
            Err(Refuse(why)) => State::Failed(why),
        };
    }

    /// Checks a translation's limits and moves its slots to a range no other function or rule uses.
    fn place(&mut self, mut t: Translated) -> Res<(Done, NativeFn)> {
        if t.ops > MAX_OPS {
            return refuse("might run too many operations");
        }
        if t.depth > MAX_DEPTH {
            return refuse("calls nest too deeply");
        }
        let safe = match t.result_ty.ty {
            Ty::Int | Ty::Float | Ty::Bool | Ty::Nothing | Ty::Cell => true,
            Ty::Player => !self.player_cell_clash,
            _ => false,
        };
        if !safe {
            return refuse(format!(
                "returns a {} (which Rhai hands back as text)",
                t.result_ty.ty.name()
            ));
        }
        let base = self.next_slot;
        let end = base + t.slots as u32;
        if end >= u16::MAX as u32 {
            return refuse("too many local slots");
        }
        let base = base as u16;
        for s in &mut t.body {
            slots::stmt(s, base)?;
        }
        self.next_slot = end;
        let native = NativeFn {
            params: t.params.iter().map(|&(s, ty)| (s + base, ty)).collect(),
            body: t.body,
            result: t.result + base,
            int_locals: t.int_locals.iter().map(|&s| s + base).collect(),
        };
        let done = Done {
            result: t.result_ty,
            ops: t.ops,
            depth: t.depth,
        };
        Ok((done, native))
    }

    fn finish(self) -> (Vec<Option<NativeFn>>, usize) {
        let max = self.next_slot as usize;
        let natives = self
            .state
            .into_iter()
            .map(|s| match s {
                State::Done(_, n) => Some(n),
                _ => None,
            })
            .collect();
        (natives, max)
    }
}
