//! Script functions translated into the IR run natively with exactly the meaning they have in Rhai: each
//! construct of the native subset.
//!
//! Translates small scripts covering integer arithmetic, float conversions, blocks, scopes and returns,
//! comparisons and logic, loops and reads, writes, and draws and events, calls them natively and in Rhai on
//! the same positions, and compares values, errors, states, events and draws. Errors, calls, what stays in
//! Rhai and generated functions are in `native_scripts_boundaries.rs`; whole games in
//! `native_scripts_games.rs`.
#[path = "support/native_scripts.rs"]
mod native_support;

use std::path::Path;

use arbiter::model::Value;
use native_support::{all_native, both, cell, engines, int, ok, probe};

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
    const FUNCTIONS: [&str; 9] = [
        "scaled",
        "big",
        "nan",
        "floor_neg",
        "mixed",
        "same",
        "trunc",
        "fdiv",
        "whole",
    ];
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
    all_native(&g, &FUNCTIONS);
    assert_eq!(both(&g, "scaled", &[int(7)]), ok("Int(3)"));
    assert_eq!(both(&g, "big", &[int(9)]), ok("Int(9000000000000000000)"));
    assert!(both(&g, "big", &[int(10)]).is_err(), "1e19 does not fit");
    assert_eq!(both(&g, "nan", &[int(1)]), ok("Int(0)"));
    assert_eq!(both(&g, "floor_neg", &[int(2)]), ok("Float(-3.0)"));
    assert_eq!(both(&g, "same", &[int(2)]), ok("Bool(true)"));
    assert_eq!(both(&g, "trunc", &[int(1)]), ok("Int(0)"));
    for k in [-9, -1, 0, 1, 2, 3, 17, i64::MAX, i64::MIN] {
        for f in FUNCTIONS {
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
