//! Script functions that analysis translated into the IR (`Game::script_native`), lowered like any rule and
//! called without Rhai. A call runs the native body only when every argument has the type the translation
//! assumed (and nothing about the call is unusual); any other call goes to Rhai, so both give the same result.
use super::stmt::CStmt;
use super::Lowerer;
use crate::engine::exec::Signals;
use crate::engine::machine::{Machine, RunError};
use crate::model::{Ty, Value};

/// A lowered native script function.
pub struct CNative {
    /// Each parameter's slot and the type its argument must have.
    pub params: Vec<(usize, Ty)>,
    pub body: Vec<CStmt>,
    pub result: usize,
}

impl CNative {
    /// Whether the native body may run for these arguments (otherwise Rhai runs the function).
    #[inline]
    fn accepts(&self, m: &Machine<'_>, args: &[Value]) -> bool {
        args.len() == self.params.len()
            && self
                .params
                .iter()
                .zip(args)
                .all(|(&(_, ty), &v)| match (ty, v) {
                    (Ty::Int, Value::Int(_))
                    | (Ty::Float, Value::Float(_))
                    | (Ty::Bool, Value::Bool(_))
                    | (Ty::Text, Value::Text(_))
                    | (Ty::Cell, Value::Cell(_))
                    | (Ty::Player, Value::Player(_)) => true,
                    // Rhai is handed `()` for a unit index the match does not hold.
                    (Ty::Unit, Value::Unit(u)) => (u as usize) < m.st.units.len(),
                    (Ty::Row(t), Value::Row(r, _)) => t == r,
                    _ => false,
                })
    }
}

impl Lowerer<'_> {
    /// The native script functions lowered (none when the option is off).
    pub(super) fn natives(&mut self) -> Vec<Option<CNative>> {
        if !self.opts.native_scripts {
            return Vec::new();
        }
        let game = self.game;
        game.script_native
            .iter()
            .map(|n| {
                n.as_ref().map(|n| {
                    for &s in &n.int_locals {
                        let s = s as usize;
                        if self.int_locals.len() <= s {
                            self.int_locals.resize(s + 1, false);
                        }
                        self.int_locals[s] = true;
                    }
                    let body = self.stmts(&n.body);
                    self.int_locals.clear();
                    CNative {
                        params: n.params.iter().map(|&(s, t)| (s as usize, t)).collect(),
                        body,
                        result: n.result as usize,
                    }
                })
            })
            .collect()
    }
}

/// Calls script function `f`: natively when it has a native body that accepts the arguments, in Rhai
/// otherwise. A native body never runs after the game is decided or inside a Rhai call (where Rhai would
/// refuse the call), so those cases take the Rhai path too.
pub fn call(m: &mut Machine<'_>, f: u16, args: &[Value]) -> Result<Value, RunError> {
    let prog = m.prog;
    if let Some(Some(n)) = prog.natives.get(f as usize) {
        if m.st.result.is_none() && m.rt.scripts.available() && n.accepts(m, args) {
            for (&(slot, _), &v) in n.params.iter().zip(args) {
                m.rt.locals[slot] = v;
            }
            let mut signals = Signals::default();
            return match m.run(&n.body, &mut signals) {
                Ok(()) => Ok(m.rt.locals[n.result]),
                Err(e) => Err(RunError::new(format!(
                    "script function `{}` failed: {e}",
                    m.game.script_fns[f as usize].0
                ))),
            };
        }
    }
    m.call_script(f, args)
}
