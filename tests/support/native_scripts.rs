//! Helpers shared by the native-script tests (`native_scripts_*.rs`, each saying
//! `#[path = "support/native_scripts.rs"] mod native_support;`): loading a ruleset folder, a pair of
//! engines with native scripts on and off, the number of games to play, and the probe harness that
//! translates small scripts in a scratch ruleset and calls their functions both ways on the same position.
#![allow(dead_code)] // every test file uses a different part of it
use std::path::Path;
use std::sync::Arc;

use arbiter::engine::{Engine, Match, Options, Program};
use arbiter::model::Value;
use arbiter::ruleset::{load, Game, Loaded};
use serde_json::Value as Json;

/// Loads the ruleset folder `dir` with `overrides`; panics with the rendered diagnostics if it does not load.
pub fn load_dir(dir: &Path, overrides: &[(String, Json)]) -> Loaded {
    match load(&dir.display().to_string(), None, overrides) {
        Ok(l) => l,
        Err(e) => panic!(
            "{} does not load:\n{}",
            dir.display(),
            arbiter::diagnostic::render_text(e.diagnostics(), false)
        ),
    }
}

/// Two engines for the same game: native scripts on, and off (everything else optimised alike).
pub fn engines(game: &Arc<Game>) -> (Engine, Engine) {
    let on = Options::optimised();
    let off = Options {
        native_scripts: false,
        ..on
    };
    (
        Engine::with_program(game.clone(), Program::new(game, on)).expect("engine"),
        Engine::with_program(game.clone(), Program::new(game, off)).expect("engine"),
    )
}

/// Games per ruleset for the differential tests (`ARBITER_NATIVE_GAMES` raises it); the generated-function
/// test scales its rounds by it too.
pub fn games() -> u64 {
    std::env::var("ARBITER_NATIVE_GAMES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(200)
}

// ---------------------------------------------------------------------------------------------------------
// The probe harness: the translator on small scripts.

const PROBE_RULESET: &str = r#"id: probe
version: "1"
players: [P1, P2]
default_scenario: tiny
scripts: [probe.rhai]
settings:
  bonus: 3
  ratio: 0.5
  flag: true
  word: east
tables:
  ground:
    rows:
      plain: {cost: 1, label: east}
      hill: {cost: 2, label: west}
  kinds:
    defaults: {spare: null}
    rows:
      soldier: {power: 3, guard: true, weight: 1.5, spare: 1}
      scout: {power: 1, guard: false, weight: 0.5}
units:
  table: kinds
  ids: "{owner}-{n}"
state:
  player:
    gold: {type: int, initial: 5}
    home: {type: cell}
  cell:
    troops: {type: int, per_player: true, initial: 0}
    level: {type: int, initial: 1}
    ground: {type: row, table: ground, initial: plain}
    mark: {type: player}
    heat: {type: float, initial: 0.5}
    empty_int: {type: int}
    maybe: {type: bool}
    maybe_row: {type: row, table: ground}
    link: {type: cell}
  unit:
    ready: {type: bool, initial: false}
    hp: {type: int, initial: 3}
board:
  topology: graph
actions:
  probe:
    params:
      at: {type: cell, invalid: unknown_cell}
      u: {type: unit, invalid: unknown_unit}
      k: {type: int, invalid: bad_k, min: {value: 0, reason: bad_k}, max: {value: 3, reason: bad_k}}
    effects:
__CALLS__
flow:
  phases:
    - name: main
      order: alternating
      submission: single
      actions: [probe]
"#;

const PROBE_SCENARIO: &str = r#"ruleset: probe
id: tiny
first_player: P1
players:
  P1: {home: a}
  P2: {home: d}
board:
  nodes:
    - {id: a, owner: P1, troops: {P1: 7, P2: 2}, level: 4}
    - {id: b, owner: P2, troops: {P1: 3, P2: 3}, ground: hill}
    - {id: c, troops: {P2: 9}, level: 9223372036854775807}
    - {id: d, owner: P2, level: -9223372036854775807}
    - {id: e}
  edges: [[a, b], [b, c], [c, d], [a, c]]
units:
  - {id: P1-1, type: soldier, owner: P1, at: a}
  - {id: P2-1, type: scout, owner: P2, at: b}
  - {id: P1-2, type: scout, owner: P1, at: c}
"#;

/// A scratch ruleset whose script is `script` and whose `probe` action calls each `(function, args)` (the
/// arguments in the rule language, over parameters `at: cell`, `u: unit`, `k: int`).
pub fn probe(test: &str, script: &str, calls: &[(&str, &str)]) -> Arc<Game> {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("native_scripts")
        .join(test);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("scenarios")).expect("scratch folder");
    let effects: String = calls
        .iter()
        .map(|(f, args)| format!("      - eval: \"{f}({args})\"\n"))
        .collect();
    std::fs::write(
        dir.join("ruleset.yaml"),
        PROBE_RULESET.replace("__CALLS__\n", &effects),
    )
    .expect("write");
    std::fs::write(dir.join("scenarios/tiny.yaml"), PROBE_SCENARIO).expect("write");
    std::fs::write(dir.join("probe.rhai"), script).expect("write");
    load_dir(&dir, &[]).game
}

pub fn native(game: &Game, f: &str) -> bool {
    let i = game
        .script_fns
        .iter()
        .position(|(n, _)| n == f)
        .expect("function");
    game.script_native[i].is_some()
}

/// What a call left: its value or error, the events, the state and the next draw.
fn outcome(
    engine: &mut Engine,
    m: &mut Match,
    f: &str,
    args: &[Value],
) -> (Result<String, String>, String) {
    engine.set_logging(true);
    let r = engine
        .call_script(m, 0, f, args)
        .map(|v| format!("{v:?}"))
        .map_err(|e| e.message.to_string());
    let after = format!(
        "{:?}\n{:?}\n{}",
        engine.take_log(),
        m.state,
        m.rng.clone().next_raw()
    );
    (r, after)
}

/// Calls `f(args)` natively and in Rhai on the same position and checks that both agree; returns the value
/// (`Err` with Rhai's message when both failed).
pub fn both(game: &Arc<Game>, f: &str, args: &[Value]) -> Result<String, String> {
    both_on(game, f, args, |_| {})
}

pub fn both_on(
    game: &Arc<Game>,
    f: &str,
    args: &[Value],
    setup: impl Fn(&mut Match),
) -> Result<String, String> {
    let (mut on, mut off) = engines(game);
    let mut a = on.start(11).expect("start");
    let mut b = off.start(11).expect("start");
    setup(&mut a);
    setup(&mut b);
    let (ra, sa) = outcome(&mut on, &mut a, f, args);
    let (rb, sb) = outcome(&mut off, &mut b, f, args);
    match (&ra, &rb) {
        (Ok(x), Ok(y)) => assert_eq!(x, y, "{f}{args:?}: values differ"),
        (Err(_), Err(_)) => {}
        _ => panic!("{f}{args:?}: native {ra:?}, Rhai {rb:?}"),
    }
    if ra.is_ok() {
        assert_eq!(sa, sb, "{f}{args:?}: effects differ");
    }
    rb
}

pub fn cell(game: &Game, id: &str) -> Value {
    Value::Cell(game.board.find(id).expect("cell"))
}

pub fn int(i: i64) -> Value {
    Value::Int(i)
}

pub fn ok(x: &str) -> Result<String, String> {
    Ok(x.to_string())
}

/// Asserts every listed function translated.
pub fn all_native(g: &Game, fns: &[&str]) {
    let why = arbiter::script::native::explain(g);
    for f in fns {
        let (_, reason) = why.iter().find(|(n, _)| n == f).expect("function exists");
        assert!(reason.is_none(), "`{f}` is not native: {reason:?}");
    }
}

/// Clears cell variable `var` of every cell (none).
pub fn clear(g: &Game, m: &mut Match, var: &str) {
    let d = g
        .cell_vars
        .iter()
        .find(|d| d.name == var)
        .expect("variable");
    for c in 0..g.board.len() {
        m.state.cell_vars[c * g.cell_slots + d.slot as usize] = i64::MIN;
    }
}

/// Kills unit `u` (as `destroy_unit` does).
pub fn kill(m: &mut Match, u: usize) {
    let st = &mut m.state;
    st.units[u].alive = false;
    let at = st.units[u].at as usize;
    st.occupant[at] = u32::MAX;
}
