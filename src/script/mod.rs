//! Everything Rhai: a sandboxed engine, the host API scripts see, compiled script functions and static
//! checks of script text. The only module that imports rhai.
mod host;
pub mod native;
mod sandbox;

use std::rc::Rc;

use rhai::{Dynamic, Engine, Scope, AST};
use serde_json::Value as Json;

use crate::ir::game::Game;
use crate::model::{MatchState, PlayerIdx, RunError, Value};
use crate::rng::Rng;

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
    let engine = host_engine();
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

/// The host API's function names (for "did you mean" hints).
pub const HOST_FUNCTIONS: &[&str] = &[
    "me",
    "turn",
    "ply",
    "setting",
    "random",
    "coin",
    "chance",
    "owner",
    "set_owner",
    "cell_var",
    "cell_var_of",
    "set_cell_var",
    "set_cell_var_of",
    "player_var",
    "set_player_var",
    "unit_at",
    "unit_owner",
    "unit_cell",
    "unit_type",
    "unit_var",
    "set_unit_var",
    "stat",
    "table",
    "neighbours",
    "distance",
    "line_of_sight",
    "path_length",
    "adjacent",
    "emit",
    "logging",
];

/// The sandboxed engine with the host API registered, built once per thread and shared: building one
/// registers Rhai's whole library (~2M instructions, and as much again to drop it), and loading a ruleset
/// needs one to inspect the scripts, list the library's names and translate functions, then every match
/// runs its scripts on one. Compiling and calling never change an engine.
pub(crate) fn host_engine() -> Rc<Engine> {
    thread_local! {
        static ENGINE: Rc<Engine> = {
            let mut engine = sandbox::engine();
            host::register(&mut engine);
            Rc::new(engine)
        };
    }
    ENGINE.with(Rc::clone)
}

/// The names of the host API's and Rhai's library functions, worked out once per process: listing them
/// formats every signature of the library (~5M instructions, more than the rest of loading a ruleset's
/// scripts), and they are the same for every ruleset.
fn library_names() -> &'static std::collections::HashSet<String> {
    static NAMES: std::sync::OnceLock<std::collections::HashSet<String>> =
        std::sync::OnceLock::new();
    NAMES.get_or_init(|| {
        host_engine()
            .gen_fn_signatures(true)
            .into_iter()
            .filter_map(|sig| sig.split('(').next().map(|n| n.trim().to_string()))
            .collect()
    })
}

/// Lists the library's function names now (see [`library_names`]), when they are not listed yet.
pub fn list_library_names() {
    library_names();
}

/// Calls in script text to functions that exist nowhere: not in the scripts, the host API or Rhai's
/// library. Returns (name, byte offset). Rhai itself only notices these when the call runs.
pub fn unknown_calls(text: &str, script_fns: &[FnSig]) -> Vec<(String, usize)> {
    let library = library_names();
    let known = |name: &str| library.contains(name) || script_fns.iter().any(|(n, _)| n == name);
    const KEYWORDS: &[&str] = &[
        "if",
        "else",
        "while",
        "loop",
        "for",
        "in",
        "fn",
        "return",
        "switch",
        "do",
        "until",
        "let",
        "const",
        "throw",
        "try",
        "catch",
        "break",
        "continue",
        "Fn",
        "call",
        "curry",
        "is_def_fn",
        "is_def_var",
        "type_of",
        "print",
        "debug",
        "is_shared",
    ];
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let mut in_comment = false;
    let mut in_string: Option<u8> = None;
    while i < bytes.len() {
        let c = bytes[i];
        if in_comment {
            if c == b'\n' {
                in_comment = false;
            }
            i += 1;
            continue;
        }
        if let Some(q) = in_string {
            if c == b'\\' {
                i += 2;
                continue;
            }
            if c == q {
                in_string = None;
            }
            i += 1;
            continue;
        }
        if c == b'/' && bytes.get(i + 1) == Some(&b'/') {
            in_comment = true;
            i += 2;
            continue;
        }
        if c == b'"' || c == b'`' || c == b'\'' {
            in_string = Some(c);
            i += 1;
            continue;
        }
        if c.is_ascii_alphabetic() || c == b'_' {
            let start = i;
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
            let name = &text[start..i];
            let mut j = i;
            while j < bytes.len() && bytes[j] == b' ' {
                j += 1;
            }
            // A definition (`fn name(`) is not a call.
            let defined_here = text[..start].trim_end().ends_with("fn");
            if bytes.get(j) == Some(&b'(')
                && !defined_here
                && !KEYWORDS.contains(&name)
                && !known(name)
            {
                out.push((name.to_string(), start));
            }
            continue;
        }
        i += 1;
    }
    out
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

/// The rule queries a script may make that only the engine can answer (it implements this trait, so this
/// module never imports the engine).
pub trait Queries {
    /// The ruleset's line of sight between two cells.
    fn line_of_sight(
        &self,
        game: &Game,
        st: &mut MatchState,
        rng: &mut Rng,
        me: PlayerIdx,
        a: u32,
        b: u32,
    ) -> Result<bool, RunError>;
}

/// One thread's compiled scripts, ready to call.
pub struct ScriptHost {
    engine: Rc<Engine>,
    ast: AST,
    names: Vec<String>,
    scope: Scope<'static>,
    ids: host::Ids,
}

impl ScriptHost {
    pub fn new(game: &Game) -> Result<Self, RunError> {
        let engine = host_engine();
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
        queries: &dyn Queries,
        f: u16,
        args: &[Value],
    ) -> Result<Value, RunError> {
        let name = &self.names[f as usize];
        let dyn_args: Vec<Dynamic> = args
            .iter()
            .map(|v| self.ids.to_dynamic(game, st, *v))
            .collect();
        let _guard = host::enter(game, st, rng, log, me, queries);
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
