//! Everything Rhai: a sandboxed engine, the host API scripts see, compiled script functions and static
//! checks of script text. The only module that imports rhai.
mod host;
mod sandbox;

use std::sync::Arc;

use rhai::{Dynamic, Engine, Scope, AST};
use serde_json::Value as Json;

use crate::engine::machine::RunError;
use crate::model::{MatchState, PlayerIdx, Value};
use crate::rng::Rng;
use crate::ruleset::Game;

pub use sandbox::MAX_OPERATIONS;

/// A compiled script function's name and parameter count.
pub type FnSig = (String, usize);

/// A script compile problem: file-relative line and column (1-based) and message.
#[derive(Debug, Clone)]
pub struct ScriptError {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

/// Compiles a script to list its functions (analysis uses this; no game is needed).
pub fn inspect(text: &str) -> Result<Vec<FnSig>, ScriptError> {
    let engine = sandbox::engine();
    let ast = engine.compile(text).map_err(|e| {
        let pos = e.position();
        ScriptError {
            line: pos.line().unwrap_or(1),
            column: pos.position().unwrap_or(1),
            message: e.to_string(),
        }
    })?;
    Ok(ast
        .iter_functions()
        .map(|f| (f.name.to_string(), f.params.len()))
        .collect())
}

/// Names of host-API calls whose variable/column argument is a literal, found in script text:
/// (function, literal, byte offset of the literal). Analysis checks them against the declarations.
pub fn literal_names(text: &str) -> Vec<(String, String, usize)> {
    let mut out = Vec::new();
    for f in host::NAMED_ACCESSORS {
        let pat = format!("{f}(");
        let mut from = 0;
        while let Some(i) = text[from..].find(&pat) {
            let start = from + i;
            from = start + pat.len();
            // Skip identifiers that merely end with the name (e.g. my_stat).
            if start > 0 {
                let prev = text.as_bytes()[start - 1];
                if prev.is_ascii_alphanumeric() || prev == b'_' {
                    continue;
                }
            }
            let rest = &text[from..];
            let Some(close) = rest.find(')') else {
                continue;
            };
            let args = &rest[..close];
            if let Some(q) = args.find('"') {
                if let Some(end) = args[q + 1..].find('"') {
                    let lit = &args[q + 1..q + 1 + end];
                    out.push((f.to_string(), lit.to_string(), from + q + 1));
                }
            }
        }
    }
    out
}

/// One thread's compiled scripts, ready to call.
pub struct ScriptHost {
    engine: Engine,
    ast: AST,
    names: Vec<String>,
    scope: Scope<'static>,
    ids: host::Ids,
}

impl ScriptHost {
    pub fn new(game: &Game) -> Result<Self, RunError> {
        let mut engine = sandbox::engine();
        host::register(&mut engine);
        let mut ast = AST::empty();
        for s in &game.scripts {
            let a = engine
                .compile(&*s.text)
                .map_err(|e| RunError::new(format!("script {}: {e}", s.path)))?;
            ast = ast.merge(&a);
        }
        Ok(ScriptHost {
            engine,
            ast,
            names: game.script_fns.iter().map(|(n, _)| n.clone()).collect(),
            scope: Scope::new(),
            ids: host::Ids::new(game),
        })
    }

    /// Calls script function `f` with the game state reachable through the host API for the call's duration.
    #[allow(clippy::too_many_arguments)]
    pub fn call(
        &mut self,
        game: &Game,
        st: &mut MatchState,
        rng: &mut Rng,
        log: &mut Option<Vec<Json>>,
        me: PlayerIdx,
        f: u16,
        args: &[Value],
    ) -> Result<Value, RunError> {
        let name = &self.names[f as usize];
        let dyn_args: Vec<Dynamic> = args
            .iter()
            .map(|v| self.ids.to_dynamic(game, st, *v))
            .collect();
        let _guard = host::enter(game, st, rng, log, me);
        let options = rhai::CallFnOptions::new()
            .eval_ast(false)
            .rewind_scope(true);
        let r = self.engine.call_fn_with_options::<Dynamic>(
            options,
            &mut self.scope,
            &self.ast,
            name,
            dyn_args,
        );
        drop(_guard);
        match r {
            Ok(d) => Ok(self.ids.value_of(game, st, d)),
            Err(e) => Err(RunError::new(format!(
                "script function `{name}` failed: {e}"
            ))),
        }
    }
}

/// Shared handle type for script texts.
pub type ScriptText = Arc<str>;
