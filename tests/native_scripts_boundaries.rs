//! Script functions translated into the IR run natively with exactly the meaning they have in Rhai: where
//! the native subset meets Rhai.
//!
//! Translates small scripts and checks, calling them natively and in Rhai on the same positions, that each
//! way a call can fail is an error both ways, that calls between script functions (native or not) agree,
//! that what is outside the subset and arguments of other types go to Rhai, and that many generated
//! functions within the subset give the same values, errors, states, events and draws. The constructs one
//! by one are in `native_scripts_constructs.rs`; whole games in `native_scripts_games.rs`.
#[path = "support/native_scripts.rs"]
mod native_support;

use arbiter::engine::Match;
use arbiter::model::Value;
use native_support::{
    all_native, both, both_on, cell, clear, engines, games, int, kill, native, ok, probe,
};

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
