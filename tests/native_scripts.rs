//! Script functions translated into the IR run natively with exactly the meaning they have in Rhai.
//!
//! The differential part plays many seeded games of every shipped ruleset (and the script variants among
//! the test fixtures) twice, with native scripts on and off, recording replays with events, and compares
//! them byte for byte together with the final states and random streams. The unit part translates small
//! scripts covering each construct of the native subset and each way a call can fail, calls them both ways
//! on the same positions, and compares values, errors, states, events and draws.
use std::path::{Path, PathBuf};
use std::sync::Arc;

use arbiter::agents::by_name;
use arbiter::engine::{Engine, Match, Options, Program};
use arbiter::model::Value;
use arbiter::ruleset::{load, Game, Loaded};
use arbiter::simulate::play::{play_match, PlayOptions};
use serde_json::{json, Value as Json};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn load_dir(dir: &Path, overrides: &[(String, Json)]) -> Loaded {
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
fn engines(game: &Arc<Game>) -> (Engine, Engine) {
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

/// Runs `f` on a thread with a deep stack, as the CLI does (Rhai recursion needs it).
fn deep<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(f)
        .expect("thread starts")
        .join()
        .expect("no panic")
}

/// Everything a game leaves behind, as text: the replay (events, result, state), the raw final state and
/// the random stream's position; or the error.
fn play(engine: &mut Engine, seed: u64, agents: [&str; 2]) -> String {
    let players = engine.game.players.len() as u8;
    let mut seats: Vec<_> = (0..players)
        .map(|p| by_name(agents[(p as usize).min(1)], seed, p).expect("agent"))
        .collect();
    let opts = PlayOptions {
        record: true,
        check: false,
    };
    match play_match(engine, &mut seats, seed, opts) {
        Ok(played) => {
            let replay = serde_json::to_string(&played.replay(engine)).expect("replay serialises");
            format!(
                "{replay}\n{:?}\n{:?}",
                played.m.state,
                played.m.rng.clone().next_raw()
            )
        }
        Err(e) => format!("error: {}", e.message.replace("`", "")),
    }
}

/// Games per ruleset for the differential test (`ARBITER_NATIVE_GAMES` raises it).
fn games() -> u64 {
    std::env::var("ARBITER_NATIVE_GAMES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(200)
}

fn differential(dir: &Path, overrides: &[(String, Json)], games: u64) -> usize {
    let l = load_dir(dir, overrides);
    let (mut on, mut off) = engines(&l.game);
    let native = l.game.script_native.iter().flatten().count();
    for seed in 0..games {
        let agents = if seed % 10 == 9 {
            ["greedy", "random"]
        } else {
            ["random", "random"]
        };
        let a = play(&mut on, seed, agents);
        let b = play(&mut off, seed, agents);
        if a != b {
            let out = Path::new(env!("CARGO_TARGET_TMPDIR"));
            let _ = std::fs::write(out.join("native_on.txt"), &a);
            let _ = std::fs::write(out.join("native_off.txt"), &b);
        }
        assert!(
            a == b,
            "{} {overrides:?} seed {seed}: native and Rhai scripts differ",
            dir.display()
        );
    }
    native
}

#[test]
fn shipped_scripts_are_native() {
    for (name, fns) in [
        ("asg", &["resolve_combat"][..]),
        ("war_of_attrition", &["attack_power", "defense_power"][..]),
    ] {
        let l = load_dir(&root().join("rulesets").join(name), &[]);
        let why = arbiter::script::native::explain(&l.game);
        for f in fns {
            let (_, reason) = why.iter().find(|(n, _)| n == f).expect("function exists");
            assert!(reason.is_none(), "{name}: `{f}` is not native: {reason:?}");
        }
    }
}

#[test]
fn native_and_rhai_scripts_play_the_same_games() {
    deep(|| {
        let mut dirs: Vec<PathBuf> = std::fs::read_dir(root().join("rulesets"))
            .expect("rulesets/")
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.join("ruleset.yaml").is_file())
            .collect();
        dirs.sort();
        dirs.push(root().join("tests/fixtures/variants/spearman"));
        let n = games();
        for dir in &dirs {
            differential(dir, &[], n);
        }
    })
}

#[test]
fn native_and_rhai_scripts_agree_under_other_settings() {
    deep(|| {
        let asg = root().join("rulesets/asg");
        for v in [json!(0), json!(1), json!(0.999), json!(0.01)] {
            let set = [("settings.combatVarianceFraction".to_string(), v)];
            assert_eq!(differential(&asg, &set, games() / 4), 1);
        }
        let woa = root().join("rulesets/war_of_attrition");
        for (k, v) in [
            ("settings.shieldWallMax", json!(0)),
            ("settings.chargeBonus", json!(7)),
            ("settings.fortifyBonus", json!(0)),
        ] {
            let set = [(k.to_string(), v)];
            assert_eq!(differential(&woa, &set, games() / 4), 2);
        }
    })
}

// ---------------------------------------------------------------------------------------------------------
// The translator on small scripts.

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
fn probe(test: &str, script: &str, calls: &[(&str, &str)]) -> Arc<Game> {
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

fn native(game: &Game, f: &str) -> bool {
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
fn both(game: &Arc<Game>, f: &str, args: &[Value]) -> Result<String, String> {
    both_on(game, f, args, |_| {})
}

fn both_on(
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

fn cell(game: &Game, id: &str) -> Value {
    Value::Cell(game.board.find(id).expect("cell"))
}

fn int(i: i64) -> Value {
    Value::Int(i)
}

fn ok(x: &str) -> Result<String, String> {
    Ok(x.to_string())
}

/// Asserts every listed function translated.
fn all_native(g: &Game, fns: &[&str]) {
    let why = arbiter::script::native::explain(g);
    for f in fns {
        let (_, reason) = why.iter().find(|(n, _)| n == f).expect("function exists");
        assert!(reason.is_none(), "`{f}` is not native: {reason:?}");
    }
}

/// Clears cell variable `var` of every cell (none).
fn clear(g: &Game, m: &mut Match, var: &str) {
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
fn kill(m: &mut Match, u: usize) {
    let st = &mut m.state;
    st.units[u].alive = false;
    let at = st.units[u].at as usize;
    st.occupant[at] = u32::MAX;
}

#[test]
fn integer_arithmetic_is_rhai_arithmetic() {
    let g = probe(
        "arith",
        "fn div(a, b) { a / b }\n\
         fn rem(a, b) { a % b }\n\
         fn add(a, b) { a + b }\n\
         fn sub(a, b) { a - b }\n\
         fn mul(a, b) { a * b }\n\
         fn neg(a, b) { -a + b - b }\n\
         fn mix(a, b) { let x = a * 3 - b; x / 2 + x % 2 - (-x) / 3 }\n",
        &[
            ("div", "k, k"),
            ("rem", "k, k"),
            ("add", "k, k"),
            ("sub", "k, k"),
            ("mul", "k, k"),
            ("neg", "k, k"),
            ("mix", "k, k"),
        ],
    );
    all_native(&g, &["div", "rem", "add", "sub", "mul", "neg", "mix"]);
    // Rhai's `/` and `%` truncate toward zero (the rules' are Euclidean).
    assert_eq!(both(&g, "div", &[int(-7), int(2)]), ok("Int(-3)"));
    assert_eq!(both(&g, "div", &[int(7), int(-2)]), ok("Int(-3)"));
    assert_eq!(both(&g, "rem", &[int(-7), int(2)]), ok("Int(-1)"));
    assert_eq!(both(&g, "rem", &[int(7), int(-2)]), ok("Int(1)"));
    for (a, b) in [(-7, -2), (0, 5), (9, 3), (i64::MAX, 2), (i64::MIN, 3)] {
        for f in ["div", "rem", "add", "sub", "mul", "neg", "mix"] {
            both(&g, f, &[int(a), int(b)]).ok();
        }
    }
    // Errors: division by zero, overflow of every operator.
    for (f, a, b) in [
        ("div", 1, 0),
        ("rem", 1, 0),
        ("div", i64::MIN, -1),
        ("rem", i64::MIN, -1),
        ("add", i64::MAX, 1),
        ("sub", i64::MIN, 1),
        ("mul", i64::MAX, 2),
        ("neg", i64::MIN, 0),
        ("mix", i64::MAX, 0),
    ] {
        assert!(both(&g, f, &[int(a), int(b)]).is_err(), "{f}({a}, {b})");
    }
}

#[test]
fn float_conversions_are_rhai_conversions() {
    let g = probe(
        "floats",
        "fn scaled(k) { (k.to_float() * setting(\"ratio\")).floor().to_int() }\n\
         fn big(k) { (k.to_float() * 1e18).to_int() }\n\
         fn nan(k) { (k.to_float() / 0.0 - k.to_float() / 0.0).to_int() }\n\
         fn floor_neg(k) { (-k.to_float() - 0.5).floor() }\n\
         fn mixed(k) { let x = k + 0.5; x * 2 - k / 2.0 + k % 2.5 }\n\
         fn same(k) { k == 2.0 }\n\
         fn trunc(k) { (k.to_float() / 4.0 - 1.0).to_int() }\n\
         fn fdiv(k) { k.to_float() / (k - k).to_float() }\n\
         fn whole(k) { k.to_int() + abs(-k) + max(k, 2) - min(k, 2) }\n",
        &[
            ("scaled", "k"),
            ("big", "k"),
            ("nan", "k"),
            ("floor_neg", "k"),
            ("mixed", "k"),
            ("same", "k"),
            ("trunc", "k"),
            ("fdiv", "k"),
            ("whole", "k"),
        ],
    );
    all_native(
        &g,
        &[
            "scaled",
            "big",
            "nan",
            "floor_neg",
            "mixed",
            "same",
            "trunc",
            "fdiv",
            "whole",
        ],
    );
    assert_eq!(both(&g, "scaled", &[int(7)]), ok("Int(3)"));
    assert_eq!(both(&g, "big", &[int(9)]), ok("Int(9000000000000000000)"));
    assert!(both(&g, "big", &[int(10)]).is_err(), "1e19 does not fit");
    assert_eq!(both(&g, "nan", &[int(1)]), ok("Int(0)"));
    assert_eq!(both(&g, "floor_neg", &[int(2)]), ok("Float(-3.0)"));
    assert_eq!(both(&g, "same", &[int(2)]), ok("Bool(true)"));
    assert_eq!(both(&g, "trunc", &[int(1)]), ok("Int(0)"));
    for k in [-9, -1, 0, 1, 2, 3, 17, i64::MAX, i64::MIN] {
        for f in [
            "scaled",
            "big",
            "nan",
            "floor_neg",
            "mixed",
            "same",
            "trunc",
            "fdiv",
            "whole",
        ] {
            both(&g, f, &[int(k)]).ok();
        }
    }
}

#[test]
fn blocks_scopes_and_returns() {
    let g = probe(
        "scopes",
        "fn scopes(k) {\n\
             let a = k;\n\
             let a = a + 1;\n\
             { let a = 100; a += 1; }\n\
             let b = 2;\n\
             if k > 1 { let b = 50; b -= 1; a += b; } else { b += 10; }\n\
             a * 10 + b\n\
         }\n\
         fn ifexpr(k) {\n\
             let v = if k > 2 { let t = k * 2; t + 1 } else if k > 1 { 7 } else { -1 };\n\
             let w = if k > 0 { 5 };\n\
             if w == () { v } else { v + w }\n\
         }\n\
         fn early(k) {\n\
             if k < 1 { return -5; }\n\
             let z = k * 3;\n\
             if k > 2 { return z; } else { z += 1; }\n\
             z\n\
         }\n\
         fn ret_end(k) { let a = k + 1; return a * 2; }\n\
         fn nothing(k) { let a = k; }\n\
         fn tail_if(k) { if k > 1 { k } }\n\
         fn value_of_block(k) { let x = { let y = k * 2; y + 1 }; x * { k } }\n\
         fn flips(k) { let f = (); if k > 1 { f = k; } f }\n\
         fn nested_return(k) {\n\
             let a = 1;\n\
             if k > 0 { a = 2; if k > 2 { return a * 10; } a += 1; } else { a = 5; }\n\
             a\n\
         }\n\
         fn loop_return(c) {\n\
             let s = 0;\n\
             for n in neighbours(c) { s += 1; if cell_var(n, \"level\") > 3 { return s * 100; } }\n\
             s\n\
         }\n\
         fn let_return(k) { let x = if k > 1 { return -1; } else { k * 2 }; x + 1 }\n\
         fn last_loop(c) { for n in neighbours(c) { if cell_var(n, \"level\") > 3 { return 7; } } }\n\
         fn last_let(k) { let x = if k > 1 { return -1; } else { k }; }\n\
         fn last_if_loop(c) { if cell_var(c, \"level\") > 0 { for n in neighbours(c) { return 3; } } }\n",
        &[
            ("scopes", "k"),
            ("ifexpr", "k"),
            ("early", "k"),
            ("ret_end", "k"),
            ("nothing", "k"),
            ("tail_if", "k"),
            ("value_of_block", "k"),
            ("flips", "k"),
            ("nested_return", "k"),
            ("loop_return", "at"),
            ("let_return", "k"),
            ("last_loop", "at"),
            ("last_let", "k"),
            ("last_if_loop", "at"),
        ],
    );
    let fns = [
        "scopes",
        "ifexpr",
        "early",
        "ret_end",
        "nothing",
        "tail_if",
        "value_of_block",
        "flips",
        "nested_return",
        "let_return",
    ];
    all_native(&g, &fns);
    all_native(
        &g,
        &["loop_return", "last_loop", "last_if_loop", "last_let"],
    );
    // A `return` in the last statement is the function's value, not the statement's `()`.
    assert_eq!(both(&g, "last_loop", &[cell(&g, "b")]), ok("Int(7)"));
    assert_eq!(both(&g, "last_loop", &[cell(&g, "e")]), ok("None"));
    assert_eq!(both(&g, "last_if_loop", &[cell(&g, "a")]), ok("Int(3)"));
    assert_eq!(both(&g, "last_let", &[int(2)]), ok("Int(-1)"));
    assert_eq!(both(&g, "last_let", &[int(0)]), ok("None"));
    assert_eq!(both(&g, "nested_return", &[int(3)]), ok("Int(20)"));
    assert_eq!(both(&g, "nested_return", &[int(1)]), ok("Int(3)"));
    assert_eq!(both(&g, "let_return", &[int(2)]), ok("Int(-1)"));
    for c in ["a", "b", "c", "d", "e"] {
        both(&g, "loop_return", &[cell(&g, c)]).expect("loop_return");
    }
    assert_eq!(both(&g, "loop_return", &[cell(&g, "b")]), ok("Int(100)"));
    assert_eq!(both(&g, "scopes", &[int(3)]), ok("Int(532)"));
    assert_eq!(both(&g, "scopes", &[int(0)]), ok("Int(22)"));
    assert_eq!(both(&g, "ifexpr", &[int(0)]), ok("Int(-1)"));
    assert_eq!(both(&g, "early", &[int(0)]), ok("Int(-5)"));
    assert_eq!(both(&g, "early", &[int(3)]), ok("Int(9)"));
    assert_eq!(both(&g, "early", &[int(2)]), ok("Int(7)"));
    assert_eq!(both(&g, "nothing", &[int(2)]), ok("None"));
    assert_eq!(both(&g, "tail_if", &[int(0)]), ok("None"));
    assert_eq!(both(&g, "flips", &[int(0)]), ok("None"));
    for k in -2..5 {
        for f in fns {
            both(&g, f, &[int(k)]).ok();
        }
    }
}

#[test]
fn comparisons_and_logic() {
    let g = probe(
        "logic",
        "fn logic(c, u, k) {\n\
             let occupant = unit_at(c);\n\
             let a = occupant != () && unit_owner(occupant) == me();\n\
             let b = occupant == () || stat(occupant, \"guard\");\n\
             let d = !(k > 1) || unit_var(u, \"ready\") || k == 3;\n\
             let e = k < () || () >= k || occupant == \"P2-1\";\n\
             let f = owner(c) == \"P2\" && c != \"e\" && cell_var(c, \"ground\") == \"hill\";\n\
             (if a {1} else {0}) + (if b {2} else {0}) + (if d {4} else {0}) + (if e {8} else {0})\n\
                 + (if f {16} else {0})\n\
         }\n",
        &[("logic", "at, u, k")],
    );
    // A unit id as a literal is not translated: ids are made during play.
    let why = arbiter::script::native::explain(&g);
    assert!(why[0].1.is_some(), "{why:?}");
    let g = probe(
        "logic2",
        &std::fs::read_to_string(
            Path::new(env!("CARGO_TARGET_TMPDIR")).join("native_scripts/logic/probe.rhai"),
        )
        .expect("script")
        .replace(" || occupant == \"P2-1\"", ""),
        &[("logic", "at, u, k")],
    );
    all_native(&g, &["logic"]);
    for c in ["a", "b", "c", "d", "e"] {
        for u in 0..3 {
            for k in 0..4 {
                both(&g, "logic", &[cell(&g, c), Value::Unit(u), int(k)]).ok();
            }
        }
    }
    assert_eq!(
        both(&g, "logic", &[cell(&g, "b"), Value::Unit(0), int(0)]),
        ok("Int(20)")
    );
}

#[test]
fn loops_and_reads() {
    let g = probe(
        "reads",
        "fn around(c) {\n\
             let total = 0;\n\
             for n in neighbours(c) {\n\
                 let t = cell_var_of(n, \"troops\", me());\n\
                 total += t * 10 + cell_var(n, \"level\") % 7;\n\
                 let n = 5;\n\
                 total += n;\n\
             }\n\
             total\n\
         }\n\
         fn reads(c, u) {\n\
             let p = unit_owner(u);\n\
             let at = unit_cell(u);\n\
             let kind = unit_type(u);\n\
             let w = stat(u, \"weight\");\n\
             let g = table(\"ground\", cell_var(at, \"ground\"), \"cost\");\n\
             let h = cell_var(c, \"heat\");\n\
             let o = owner(c);\n\
             let gold = player_var(p, \"gold\");\n\
             let d = distance(at, c);\n\
             let adj = adjacent(at, c);\n\
             let pl = path_length(at, c, 5);\n\
             let los = line_of_sight(at, c);\n\
             let label = table(\"ground\", \"hill\", \"label\");\n\
             emit(#{\"type\": \"reads\", p: p, at: at, kind: kind, w: w, g: g, h: h, o: o, gold: gold,\n\
                    d: d, adj: adj, pl: pl, los: los, t: turn(), y: ply(), f: setting(\"flag\"),\n\
                    b: setting(\"bonus\"), s: stat(u, \"spare\"), m: cell_var(c, \"mark\"),\n\
                    l: label, home: player_var(p, \"home\"), plain: cell_var_of(c, \"level\", p)});\n\
             gold + g\n\
         }\n",
        &[("around", "at"), ("reads", "at, u")],
    );
    all_native(&g, &["around", "reads"]);
    for c in ["a", "b", "c", "d", "e"] {
        both(&g, "around", &[cell(&g, c)]).ok();
        for u in 0..3 {
            assert!(both(&g, "reads", &[cell(&g, c), Value::Unit(u)]).is_ok());
        }
    }
    // `d`'s one neighbour `c` has level i64::MAX (a multiple of 7) and no troops of P1.
    assert_eq!(both(&g, "around", &[cell(&g, "d")]), ok("Int(5)"));
}

#[test]
fn writes() {
    let g = probe(
        "writes",
        "fn writes(c, u, k) {\n\
             set_cell_var(c, \"level\", k * 2);\n\
             set_cell_var_of(c, \"troops\", me(), k);\n\
             set_cell_var_of(c, \"level\", unit_owner(u), cell_var(c, \"level\") + 1);\n\
             set_cell_var(c, \"heat\", k);\n\
             set_cell_var(c, \"mark\", me());\n\
             if k > 1 { set_cell_var(c, \"mark\", ()); }\n\
             set_player_var(me(), \"gold\", player_var(me(), \"gold\") + k);\n\
             set_player_var(me(), \"home\", \"e\");\n\
             set_unit_var(u, \"ready\", k > 0);\n\
             set_unit_var(u, \"hp\", ());\n\
             set_owner(c, me());\n\
             if k == 3 { set_owner(\"b\", ()); }\n\
             set_cell_var(c, \"ground\", cell_var(unit_cell(u), \"ground\"));\n\
             cell_var(c, \"level\")\n\
         }\n",
        &[("writes", "at, u, k")],
    );
    all_native(&g, &["writes"]);
    for c in ["a", "b", "c", "e"] {
        for u in 0..3 {
            for k in 0..4 {
                both(&g, "writes", &[cell(&g, c), Value::Unit(u), int(k)]).expect("writes");
            }
        }
    }
}

#[test]
fn draws_and_events() {
    let g = probe(
        "draws",
        "fn draws(k) {\n\
             let r = random(-k, k);\n\
             let c = coin();\n\
             let h = chance(0.25);\n\
             if logging() {\n\
                 emit(#{\"type\": \"draws\", zeta: r, Alpha: c, _x: h, beta2: k, \"with space\": (),\n\
                        a: 1.5, b: 1e300 * 1e300, n: \"east\", m: me()});\n\
             }\n\
             r + random(0, 1000)\n\
         }\n\
         fn quiet(k) { emit(#{\"type\": \"quiet\", v: k / (k - 1)}); k }\n",
        &[("draws", "k"), ("quiet", "k")],
    );
    all_native(&g, &["draws", "quiet"]);
    for k in 0..4 {
        both(&g, "draws", &[int(k)]).expect("draws");
    }
    // The map is built (and its values evaluated) whether or not events are kept.
    assert!(both(&g, "quiet", &[int(1)]).is_err());
    assert!(both(&g, "quiet", &[int(2)]).is_ok());
    let (mut on, _) = engines(&g);
    let mut m = on.start(3).expect("start");
    on.set_logging(false);
    assert!(on.call_script(&mut m, 0, "quiet", &[int(1)]).is_err());
}

#[test]
fn errors_are_errors_both_ways() {
    let g = probe(
        "errors",
        "fn dead_owner(u) { unit_owner(u) }\n\
         fn dead_var(u) { unit_var(u, \"hp\") }\n\
         fn dead_stat(u) { stat(u, \"power\") }\n\
         fn dead_set(u) { set_unit_var(u, \"hp\", 1); 0 }\n\
         fn dead_cell(u) { unit_cell(u) }\n\
         fn dead_type(u) { let t = unit_type(u); 1 }\n\
         fn empty_owner(c) { unit_owner(unit_at(c)) }\n\
         fn empty_cell(c) { unit_cell(unit_at(c)) }\n\
         fn none_arith(c) { cell_var(c, \"empty_int\") + 1 }\n\
         fn none_neg(c) { -cell_var(c, \"empty_int\") }\n\
         fn none_if(c) { if cell_var(c, \"maybe\") { 1 } else { 2 } }\n\
         fn none_not(c) { !cell_var(c, \"maybe\") }\n\
         fn none_and(c) { cell_var(c, \"level\") > 0 && cell_var(c, \"maybe\") }\n\
         fn none_float(c) { cell_var(c, \"empty_int\").to_float() }\n\
         fn none_player(c) { cell_var_of(c, \"troops\", owner(c)) }\n\
         fn none_plain_player(c) { cell_var_of(c, \"level\", owner(c)) }\n\
         fn none_set_player(c) { set_cell_var_of(c, \"level\", owner(c), 1); 0 }\n\
         fn none_cell(c) { owner(cell_var(c, \"link\")) }\n\
         fn none_row(c) { table(\"ground\", cell_var(c, \"maybe_row\"), \"cost\") }\n\
         fn none_plus(c) { let x = 1; x += cell_var(c, \"empty_int\"); x }\n\
         fn bad_random(k) { random(k, -k) }\n\
         fn bad_chance(k) { chance(k.to_float()) }\n\
         fn overflow(c) { cell_var(c, \"level\") + 1 }\n\
         fn overflow_neg(c) { -(cell_var(c, \"level\") - 1) }\n\
         fn div_zero(k) { 10 / (k - k) }\n\
         fn rem_zero(k) { 10 % (k - k) }\n\
         fn to_int_big(k) { (k.to_float() * 1e300).to_int() }\n",
        &[
            ("dead_owner", "u"),
            ("dead_var", "u"),
            ("dead_stat", "u"),
            ("dead_set", "u"),
            ("dead_cell", "u"),
            ("dead_type", "u"),
            ("empty_owner", "at"),
            ("empty_cell", "at"),
            ("none_arith", "at"),
            ("none_neg", "at"),
            ("none_if", "at"),
            ("none_not", "at"),
            ("none_and", "at"),
            ("none_float", "at"),
            ("none_player", "at"),
            ("none_plain_player", "at"),
            ("none_set_player", "at"),
            ("none_cell", "at"),
            ("none_row", "at"),
            ("none_plus", "at"),
            ("bad_random", "k"),
            ("bad_chance", "k"),
            ("overflow", "at"),
            ("overflow_neg", "at"),
            ("div_zero", "k"),
            ("rem_zero", "k"),
            ("to_int_big", "k"),
        ],
    );
    let why = arbiter::script::native::explain(&g);
    for (f, reason) in &why {
        assert!(reason.is_none(), "{f}: {reason:?}");
    }
    let dead = |m: &mut Match| kill(m, 1);
    for f in [
        "dead_owner",
        "dead_var",
        "dead_stat",
        "dead_set",
        "dead_cell",
        "dead_type",
    ] {
        assert!(both_on(&g, f, &[Value::Unit(1)], dead).is_err(), "{f}");
        assert!(both(&g, f, &[Value::Unit(1)]).is_ok(), "{f}");
    }
    let e = cell(&g, "e");
    let cleared = |m: &mut Match| {
        for v in ["empty_int", "maybe", "link", "maybe_row"] {
            clear(&g, m, v);
        }
    };
    for f in [
        "empty_owner",
        "empty_cell",
        "none_arith",
        "none_neg",
        "none_if",
        "none_not",
        "none_float",
        "none_player",
        "none_plain_player",
        "none_set_player",
        "none_cell",
        "none_row",
        "none_plus",
    ] {
        assert!(both_on(&g, f, &[e], cleared).is_err(), "{f}");
    }
    assert!(both_on(&g, "none_and", &[cell(&g, "a")], cleared).is_err());
    assert!(
        both_on(&g, "none_and", &[cell(&g, "d")], cleared).is_ok(),
        "short circuit"
    );
    assert!(both(&g, "bad_random", &[int(1)]).is_err());
    assert!(both(&g, "bad_random", &[int(-1)]).is_ok());
    assert!(both(&g, "bad_chance", &[int(2)]).is_err());
    assert!(both(&g, "bad_chance", &[int(1)]).is_ok());
    assert!(both(&g, "overflow", &[cell(&g, "c")]).is_err());
    assert!(both(&g, "overflow_neg", &[cell(&g, "d")]).is_err());
    assert!(both(&g, "div_zero", &[int(3)]).is_err());
    assert!(both(&g, "rem_zero", &[int(3)]).is_err());
    assert!(both(&g, "to_int_big", &[int(1)]).is_err());
    assert!(both(&g, "to_int_big", &[int(0)]).is_ok());
    // A native error names the function, as Rhai's does.
    let (mut on, _) = engines(&g);
    let mut m = on.start(1).expect("start");
    let err = on
        .call_script(&mut m, 0, "div_zero", &[int(1)])
        .unwrap_err();
    assert!(
        err.message.contains("div_zero") && err.message.to_lowercase().contains("division by zero")
    );
}

#[test]
fn calls_between_script_functions() {
    let g = probe(
        "calls",
        "fn helper(a, b) { if a > b { a - b } else { b - a } }\n\
         fn twice(c) { cell_var(c, \"level\") * 2 }\n\
         fn outer(c, k) { helper(k, 2) * helper(3, k) + helper(k, k) + twice(c) * twice(c) }\n\
         fn deep(k) { outer(\"b\", k) + 1 }\n\
         fn countdown(k) { if k <= 0 { 0 } else { countdown(k - 1) + 1 } }\n\
         fn uses_countdown(k) { countdown(k) + 1 }\n\
         fn returns_cell(k) { if k > 1 { \"a\" } else { \"b\" } }\n\
         fn unit_helper(c) { unit_at(c) }\n\
         fn uses_unit_helper(c) { unit_helper(c) == () }\n\
         fn pass(a) { a }\n\
         fn uses_pass(c) { pass(cell_var(c, \"empty_int\")) + 1 }\n\
         fn tests_pass(c) { pass(cell_var(c, \"empty_int\")) == () }\n",
        &[
            ("outer", "at, k"),
            ("deep", "k"),
            ("uses_countdown", "k"),
            ("uses_unit_helper", "at"),
            ("uses_pass", "at"),
            ("tests_pass", "at"),
        ],
    );
    // `()` for a parameter: the callee runs in Rhai and gives `()` back, as it would to a Rhai caller.
    all_native(&g, &["pass", "uses_pass", "tests_pass"]);
    let a = cell(&g, "a");
    let cleared = |m: &mut Match| clear(&g, m, "empty_int");
    assert!(both_on(&g, "uses_pass", &[a], cleared).is_err());
    assert_eq!(both_on(&g, "tests_pass", &[a], cleared), ok("Bool(true)"));
    assert_eq!(both(&g, "uses_pass", &[a]), ok("Int(1)"));
    all_native(&g, &["helper", "twice", "outer", "deep"]);
    assert!(
        !native(&g, "countdown") && !native(&g, "uses_countdown"),
        "recursion stays in Rhai"
    );
    assert!(
        !native(&g, "unit_helper") && !native(&g, "uses_unit_helper"),
        "units come back as text"
    );
    for k in -2..5 {
        both(&g, "outer", &[cell(&g, "a"), int(k)]).expect("outer");
        both(&g, "deep", &[int(k)]).expect("deep");
        both(&g, "uses_countdown", &[int(k)]).expect("countdown");
    }
    both(&g, "uses_unit_helper", &[cell(&g, "a")]).expect("unit helper");
}

#[test]
fn outside_the_subset_stays_in_rhai() {
    let g = probe(
        "rhai_only",
        "fn loops(k) { let s = 0; let i = 0; while i < k { s += i; i += 1; } s }\n\
         fn arrays(k) { let a = [1, 2, k]; a.len() }\n\
         fn strings(k) { let s = \"a\" + k; s.len() }\n\
         fn computed(c, k) { cell_var(c, if k > 1 { \"level\" } else { \"heat\" }) }\n\
         fn thrower(k) { if k > 1 { throw \"no\"; } k }\n\
         fn gives_unit(c) { unit_at(c) }\n\
         fn per_player_plain(c) { cell_var(c, \"troops\") }\n\
         fn wrong_type(c) { set_cell_var(c, \"level\", 1.5); 0 }\n\
         fn switchy(k) { switch k { 1 => 10, _ => 0 } }\n\
         fn float_max(k) { max(k.to_float(), 2.0) }\n\
         fn text_cmp(c) { owner(c) == unit_at(c) }\n\
         fn ordering(c) { owner(c) < owner(c) }\n\
         fn unknown_setting(k) { setting(\"nope\") + k }\n\
         fn bool_order(k) { (k > 1) > (k > 2) }\n",
        &[
            ("loops", "k"),
            ("arrays", "k"),
            ("strings", "k"),
            ("computed", "at, k"),
            ("thrower", "k"),
            ("gives_unit", "at"),
            ("per_player_plain", "at"),
            ("wrong_type", "at"),
            ("switchy", "k"),
            ("float_max", "k"),
            ("text_cmp", "at"),
            ("ordering", "at"),
            ("unknown_setting", "k"),
            ("bool_order", "k"),
        ],
    );
    for (f, reason) in arbiter::script::native::explain(&g) {
        assert!(reason.is_some(), "`{f}` should stay in Rhai");
        assert!(!reason.unwrap().contains("not called"), "{f}");
    }
    for k in 0..3 {
        for f in [
            "loops",
            "arrays",
            "strings",
            "thrower",
            "switchy",
            "float_max",
            "unknown_setting",
            "bool_order",
        ] {
            let _ = both(&g, f, &[int(k)]);
        }
    }
    for c in ["a", "e"] {
        let _ = both(&g, "computed", &[cell(&g, c), int(2)]);
        for f in [
            "gives_unit",
            "per_player_plain",
            "wrong_type",
            "text_cmp",
            "ordering",
        ] {
            let _ = both(&g, f, &[cell(&g, c)]);
        }
    }
}

#[test]
fn arguments_of_other_types_go_to_rhai() {
    let g = probe(
        "guard",
        "fn f(c, u, k) { let o = unit_at(c); if o == () { k } else { k + cell_var(c, \"level\") } }\n",
        &[("f", "at, u, k")],
    );
    all_native(&g, &["f"]);
    let a = cell(&g, "a");
    let text = Value::Text(g.symbols.get("east").expect("a known text"));
    for args in [
        vec![a, Value::Unit(0), int(1)],
        vec![Value::None, Value::Unit(0), int(1)],
        vec![a, Value::None, int(1)],
        vec![a, Value::Unit(0), Value::Float(1.5)],
        vec![a, Value::Unit(99), int(1)],
        vec![text, Value::Unit(0), int(1)],
        vec![a, Value::Player(1), int(1)],
    ] {
        let _ = both(&g, "f", &args);
    }
}

/// A small deterministic generator of script functions within the native subset (xorshift64).
struct Gen {
    state: u64,
    vars: Vec<String>,
    next_var: usize,
}

impl Gen {
    fn below(&mut self, n: u64) -> u64 {
        self.state ^= self.state << 13;
        self.state ^= self.state >> 7;
        self.state ^= self.state << 17;
        self.state % n
    }

    fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[self.below(xs.len() as u64) as usize]
    }

    fn int(&mut self, depth: u32) -> String {
        if depth == 0 || self.below(3) == 0 {
            return match self.below(10) {
                0 => "k".into(),
                1 | 2 if !self.vars.is_empty() => {
                    let i = self.below(self.vars.len() as u64) as usize;
                    self.vars[i].clone()
                }
                3 => self
                    .pick(&["0", "1", "-1", "2", "3", "7", "-7", "9223372036854775807"])
                    .into(),
                4 => "cell_var(c, \"level\")".into(),
                5 => "cell_var_of(c, \"troops\", me())".into(),
                6 => "stat(u, \"power\")".into(),
                7 => "setting(\"bonus\")".into(),
                8 if self.below(2) == 0 => "unit_var(u, \"hp\")".into(),
                8 if self.below(2) == 0 => "cell_var(c, \"empty_int\")".into(),
                8 => "random(-3, 3)".into(),
                _ => "player_var(unit_owner(u), \"gold\")".into(),
            };
        }
        let d = depth - 1;
        match self.below(8) {
            0..=2 => {
                let op = self.pick(&["+", "-", "*", "/", "%"]);
                format!("({} {op} {})", self.int(d), self.int(d))
            }
            3 => format!("-({})", self.int(d)),
            4 => format!(
                "(if {} {{ {} }} else {{ {} }})",
                self.cond(d),
                self.int(d),
                self.int(d)
            ),
            5 if self.below(2) == 0 => {
                format!("(({}).to_float() * 0.5).floor().to_int()", self.int(d))
            }
            5 => format!("({}).to_int()", self.float(d)),
            7 if self.below(2) == 0 => format!("helper({}, {})", self.int(d), self.int(d)),
            6 => {
                let f = self.pick(&["abs", "max", "min"]);
                if f == "abs" {
                    format!("abs({})", self.int(d))
                } else {
                    format!("{f}({}, {})", self.int(d), self.int(d))
                }
            }
            _ => format!("({{ let t = {}; t * 2 - t }})", self.int(d)),
        }
    }

    fn float(&mut self, depth: u32) -> String {
        if depth == 0 || self.below(3) == 0 {
            return match self.below(6) {
                0 => "k.to_float()".into(),
                1 => "cell_var(c, \"heat\")".into(),
                2 => "stat(u, \"weight\")".into(),
                3 => "setting(\"ratio\")".into(),
                _ => self
                    .pick(&["0.5", "-1.5", "1e300", "0.0", "-0.0", "2.75"])
                    .into(),
            };
        }
        let d = depth - 1;
        match self.below(4) {
            0 | 1 => {
                let op = self.pick(&["+", "-", "*", "/", "%"]);
                format!("({} {op} {})", self.float(d), self.float(d))
            }
            2 => {
                let op = self.pick(&["+", "-", "*", "/", "%"]);
                format!("({} {op} {})", self.int(d), self.float(d))
            }
            _ => format!("({}).floor()", self.float(d)),
        }
    }

    fn cond(&mut self, depth: u32) -> String {
        let d = depth.saturating_sub(1);
        let choice = if depth == 0 {
            [0, 5][self.below(2) as usize]
        } else {
            self.below(7)
        };
        match choice {
            0 | 1 => {
                let op = self.pick(&["<", "<=", ">", ">=", "==", "!="]);
                format!("{} {op} {}", self.int(d), self.int(d))
            }
            2 => format!("({} && {})", self.cond(d), self.cond(d)),
            3 => format!("({} || {})", self.cond(d), self.cond(d)),
            4 => format!("!({})", self.cond(d)),
            5 => self
                .pick(&[
                    "unit_at(c) == ()",
                    "stat(u, \"guard\")",
                    "coin()",
                    "distance(c, unit_cell(u)) == ()",
                ])
                .into(),
            6 if self.below(2) == 0 => format!("({} && unit_var(u, \"ready\"))", self.cond(d)),
            6 if self.below(2) == 0 => {
                let op = self.pick(&["<", "<=", ">", ">=", "==", "!="]);
                format!("{} {op} {}", self.float(d), self.int(d))
            }
            _ => format!(
                "unit_at(c) != () && stat(unit_at(c), \"power\") > {}",
                self.int(d)
            ),
        }
    }

    fn stmts(&mut self, n: u32, depth: u32, out: &mut String) {
        for _ in 0..n {
            match self.below(7) {
                0 | 1 => {
                    let v = format!("v{}", self.next_var);
                    self.next_var += 1;
                    out.push_str(&format!("let {v} = {};\n", self.int(depth)));
                    self.vars.push(v);
                }
                2 if !self.vars.is_empty() => {
                    let i = self.below(self.vars.len() as u64) as usize;
                    let op = self.pick(&["=", "+=", "-=", "*=", "/=", "%="]);
                    let v = self.vars[i].clone();
                    out.push_str(&format!("{v} {op} {};\n", self.int(depth)));
                }
                3 if depth > 0 => {
                    let mark = self.vars.len();
                    out.push_str(&format!("if {} {{\n", self.cond(depth)));
                    self.stmts(2, depth - 1, out);
                    self.vars.truncate(mark);
                    out.push_str("} else {\n");
                    self.stmts(1, depth - 1, out);
                    self.vars.truncate(mark);
                    out.push_str("}\n");
                }
                4 if !self.vars.is_empty() => {
                    let i = self.below(self.vars.len() as u64) as usize;
                    let v = self.vars[i].clone();
                    out.push_str(&format!(
                        "for n in neighbours(c) {{ {v} += cell_var(n, \"level\") % 5 + cell_var_of(n, \"troops\", me()); }}\n"
                    ));
                }
                5 => out.push_str(&format!(
                    "if {} {{ return {}; }}\n",
                    self.cond(depth),
                    self.int(depth)
                )),
                6 if self.below(2) == 0 => {
                    let w = match self.below(4) {
                        0 => format!("set_cell_var(c, \"level\", {})", self.int(depth)),
                        1 => format!("set_cell_var_of(c, \"troops\", me(), {})", self.int(depth)),
                        2 => format!("set_unit_var(u, \"hp\", {})", self.int(depth)),
                        _ => format!("set_unit_var(u, \"ready\", {})", self.cond(depth)),
                    };
                    out.push_str(&format!("{w};\n"));
                }
                _ => out.push_str(&format!(
                    "if logging() {{ emit(#{{\"type\": \"g\", x: {}, k: k}}); }}\n",
                    self.int(depth)
                )),
            }
        }
    }

    fn function(&mut self, name: &str) -> String {
        self.vars.clear();
        let mut body = String::new();
        self.stmts(4, 2, &mut body);
        // Mostly a value; sometimes a statement, whose value is `()` unless it returns.
        let tail = match self.below(4) {
            0 => format!(
                "for n in neighbours(c) {{ if {} {{ return {}; }} }}",
                self.cond(1),
                self.int(1)
            ),
            1 => format!("if {} {{ {} }}", self.cond(1), self.int(1)),
            _ => self.int(2),
        };
        format!("fn {name}(c, u, k) {{\n{body}{tail}\n}}\n")
    }
}

#[test]
fn generated_functions_agree_both_ways() {
    let mut gen = Gen {
        state: 0x9E37_79B9_7F4A_7C15,
        vars: Vec::new(),
        next_var: 0,
    };
    let rounds = (games() / 20).max(4);
    let (mut native_count, mut total, mut values, mut errors) = (0, 0, 0, 0);
    for round in 0..rounds {
        let names: Vec<String> = (0..25).map(|i| format!("g{i}")).collect();
        let mut script: String = names.iter().map(|n| gen.function(n)).collect();
        script.push_str("fn helper(a, b) { if a > b { a - b } else { b % 5 + a } }\n");
        let calls: Vec<(&str, &str)> = names.iter().map(|n| (n.as_str(), "at, u, k")).collect();
        let g = probe(&format!("generated_{round}"), &script, &calls);
        for n in &names {
            total += 1;
            if native(&g, n) {
                native_count += 1;
            } else if std::env::var("ARBITER_NATIVE_WHY").is_ok() {
                let why = arbiter::script::native::explain(&g);
                eprintln!("{n}: {:?}", why.iter().find(|(f, _)| f == n));
            }
            for (c, u, k) in [
                ("a", 0, 1),
                ("b", 1, -3),
                ("c", 2, 2),
                ("d", 0, 0),
                ("e", 1, 3),
            ] {
                match both(&g, n, &[cell(&g, c), Value::Unit(u), int(k)]) {
                    Ok(_) => values += 1,
                    Err(_) => errors += 1,
                }
            }
            // A destroyed unit, variables that hold none.
            let dead = |m: &mut Match| {
                kill(m, 1);
                clear(&g, m, "empty_int");
            };
            match both_on(&g, n, &[cell(&g, "b"), Value::Unit(1), int(2)], dead) {
                Ok(_) => values += 1,
                Err(_) => errors += 1,
            }
        }
    }
    // Nearly every generated function is within the subset (the rest fail in Rhai at analysis time or mix
    // types a variable cannot hold).
    assert!(
        native_count * 10 >= total * 9,
        "{native_count} of {total} native"
    );
    // Both outcomes are exercised: values, and errors (overflow, division by zero...).
    assert!(values > 0 && errors > 0, "{values} values, {errors} errors");
    eprintln!(
        "{native_count} of {total} functions native; {values} calls gave values, {errors} failed"
    );
}
