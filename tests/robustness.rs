//! Bad input never panics and never passes silently: malformed YAML, wrong types, unknown and duplicate
//! keys, numbers out of range, nonsense action amounts, alias bombs, endless rule scripts, unreadable
//! and empty files, and mangled copies of the canonical files. Every case must end quickly with the
//! documented exit code (INTERFACE.md: 1 invalid input, 2 usage or unreadable file) and, where the
//! input is invalid, with the diagnostic code that names the problem.
//!
//! Input that used to be accepted although wrong is pinned at the end.
mod support;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use support::{root, scratch};

use serde_json::Value;

/// Longest any command may take; the alias bomb and the endless loop must stay far below it.
const TIME_LIMIT: Duration = Duration::from_secs(60);

struct Out {
    code: Option<i32>,
    stdout: String,
    stderr: String,
    elapsed: Duration,
}

impl Out {
    /// Both streams, for assertion messages.
    fn all(&self) -> String {
        format!(
            "exit {:?} after {:?}\n--- stdout\n{}\n--- stderr\n{}",
            self.code, self.elapsed, self.stdout, self.stderr
        )
    }

    fn json(&self) -> Value {
        serde_json::from_str(&self.stdout)
            .unwrap_or_else(|e| panic!("stdout is not JSON ({e}):\n{}", self.all()))
    }

    /// The codes of a `validate --format json` array.
    fn codes(&self) -> Vec<String> {
        match self.json() {
            Value::Array(items) => items
                .iter()
                .filter_map(|d| d["code"].as_str().map(str::to_string))
                .collect(),
            other => panic!("expected a JSON array, got {other}"),
        }
    }
}

/// Runs the binary in `dir`, killing it after [`TIME_LIMIT`]; fails the test on a panic or a hang.
fn arbiter_in(dir: &Path, args: &[&str]) -> Out {
    let started = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let mut so = child.stdout.take().expect("stdout");
    let mut se = child.stderr.take().expect("stderr");
    let so = std::thread::spawn(move || {
        let mut b = Vec::new();
        let _ = so.read_to_end(&mut b);
        b
    });
    let se = std::thread::spawn(move || {
        let mut b = Vec::new();
        let _ = se.read_to_end(&mut b);
        b
    });
    let status = loop {
        match child.try_wait().expect("wait") {
            Some(s) => break Some(s),
            None if started.elapsed() > TIME_LIMIT => {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            None => std::thread::sleep(Duration::from_millis(5)),
        }
    };
    let out = Out {
        code: status.and_then(|s| s.code()),
        stdout: String::from_utf8_lossy(&so.join().unwrap_or_default()).into_owned(),
        stderr: String::from_utf8_lossy(&se.join().unwrap_or_default()).into_owned(),
        elapsed: started.elapsed(),
    };
    assert!(
        status.is_some(),
        "`arbiter {}` did not finish within {TIME_LIMIT:?}",
        args.join(" ")
    );
    assert!(
        !out.stdout.contains("panicked") && !out.stderr.contains("panicked"),
        "`arbiter {}` panicked:\n{}",
        args.join(" "),
        out.all()
    );
    out
}

fn write(dir: &Path, name: &str, text: impl AsRef<[u8]>) {
    let p = dir.join(name);
    if let Some(parent) = p.parent() {
        std::fs::create_dir_all(parent).expect("folder");
    }
    std::fs::write(p, text).expect("write");
}

/// Validates `text` written as `name` and returns the output (JSON format).
fn validate_text(test: &str, name: &str, text: &str) -> Out {
    let dir = scratch("robustness", test);
    write(&dir, name, text);
    arbiter_in(&dir, &["validate", name, "--format", "json"])
}

/// Asserts that validating `text` fails with exit 1 and reports `code`.
fn assert_rejected(test: &str, text: &str, code: &str) -> Out {
    let out = validate_text(test, "input.yaml", text);
    assert_eq!(out.code, Some(1), "{test}: {}", out.all());
    let codes = out.codes();
    assert!(
        codes.iter().any(|c| c == code),
        "{test}: expected {code} in {codes:?}\n{}",
        out.all()
    );
    for d in out.json().as_array().into_iter().flatten() {
        if d["code"].as_str() == Some(code) {
            assert!(
                d["line"].is_u64() && d["column"].is_u64(),
                "{test}: {code} has no position: {d}"
            );
        }
    }
    out
}

const SCENARIO_HEAD: &str = "ruleset: asg\nid: t\n";
const NODES: &str = "board:\n  nodes:\n    - {id: a}\n    - {id: b}\n  edges:\n    - [a, b]\n";

#[test]
fn malformed_yaml_is_reported_not_panicked_on() {
    let cases = [
        "ruleset: asg\nboard: [1, 2\n",
        "ruleset: asg\n board: 2\n",
        "ruleset: 'unterminated\n",
        "ruleset: asg\nboard: {a: 1\n",
        "- a\nb: 1\n",
        "ruleset: asg\n\tboard: 1\n",
        "ruleset: \"bad escape \\q\"\n",
        "ruleset: asg\nboard: ]\n",
        "&a\n",
        "? \n: : :\n",
        "ruleset: asg\n%YAML 1.2\n",
        "\u{feff}\u{feff}ruleset: [\n",
    ];
    for (i, text) in cases.iter().enumerate() {
        let out = validate_text("malformed", "input.yaml", text);
        assert_eq!(out.code, Some(1), "case {i} {text:?}: {}", out.all());
        let codes = out.codes();
        assert!(!codes.is_empty(), "case {i} {text:?} passed: {}", out.all());
    }
    assert_rejected(
        "malformed_syntax",
        "ruleset: asg\nboard: [1, 2\n",
        "yaml::syntax",
    );
}

#[test]
fn wrong_types_are_schema_errors() {
    assert_rejected(
        "types_scenario",
        &format!("ruleset: asg\nid: [t]\n{NODES}"),
        "schema::type",
    );
    assert_rejected(
        "types_match",
        "ruleset: asg\nseed: many\nsubmissions: 5\n",
        "schema::type",
    );
    assert_rejected(
        "types_node",
        "ruleset: asg\nid: t\nboard:\n  nodes: {a: 1}\n",
        "schema::type",
    );
}

#[test]
fn unknown_keys_are_reported_with_a_suggestion() {
    let out = assert_rejected(
        "unknown_keys",
        &format!("{SCENARIO_HEAD}frist_player: P1\n{NODES}"),
        "schema::additional_properties",
    );
    let json = out.json();
    let d = json
        .as_array()
        .and_then(|a| {
            a.iter()
                .find(|d| d["code"] == "schema::additional_properties")
        })
        .expect("the diagnostic");
    assert_eq!(
        (d["line"].as_u64(), d["column"].as_u64()),
        (Some(3), Some(1))
    );
    assert!(
        d["hint"]
            .as_str()
            .is_some_and(|h| h.contains("first_player")),
        "{d}"
    );
}

#[test]
fn duplicate_keys_are_all_reported() {
    let out = assert_rejected(
        "duplicates",
        &format!("{SCENARIO_HEAD}id: u\n{NODES}ruleset: asg\n"),
        "yaml::duplicate_key",
    );
    let n = out
        .codes()
        .iter()
        .filter(|c| *c == "yaml::duplicate_key")
        .count();
    assert_eq!(n, 2, "{}", out.all());
    // Quoted and plain spellings of one key are the same key.
    assert_rejected(
        "duplicates_quoted",
        &format!("{SCENARIO_HEAD}\"id\": u\n{NODES}"),
        "yaml::duplicate_key",
    );
}

#[test]
fn huge_numbers_are_out_of_range() {
    for number in [
        "1e400",
        "-1e400",
        "99999999999999999999",
        "-9223372036854775809",
        "0xFFFFFFFFFFFFFFFFFF",
    ] {
        let text = format!("{SCENARIO_HEAD}settings: {{turnCapPlies: {number}}}\n{NODES}");
        assert_rejected("huge", &text, "yaml::number_out_of_range");
    }
    for number in [".inf", "-.inf", ".nan"] {
        let text = format!("{SCENARIO_HEAD}settings: {{turnCapPlies: {number}}}\n{NODES}");
        assert_rejected("non_finite", &text, "yaml::non_finite");
    }
    // In a match script's actions too: `run` refuses the file instead of running it.
    let dir = scratch("robustness", "huge_run");
    write(
        &dir,
        "m.yaml",
        "ruleset: asg\nsubmissions:\n  - player: P1\n    actions: [{type: reinforce, amount: 1e400}]\n",
    );
    let out = arbiter_in(&dir, &["run", "m.yaml"]);
    assert_eq!(out.code, Some(1), "{}", out.all());
    assert!(
        out.stderr.contains("[yaml::number_out_of_range]"),
        "{}",
        out.all()
    );
}

/// Runs a match script and returns its replay.
fn run_script(test: &str, script: &str) -> Value {
    let dir = scratch("robustness", test);
    write(&dir, "m.yaml", script);
    let out = arbiter_in(&dir, &["run", "m.yaml"]);
    assert_eq!(out.code, Some(0), "{}", out.all());
    out.json()
}

fn invalid_reasons(replay: &Value) -> Vec<(Value, String)> {
    replay["events"]
        .as_array()
        .expect("events")
        .iter()
        .filter(|e| e["type"] == "invalid_action")
        .map(|e| {
            (
                e["action"].clone(),
                e["reason"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect()
}

#[test]
fn nonsense_amounts_are_invalid_actions_not_diagnostics() {
    let replay = run_script(
        "amounts_asg",
        "ruleset: asg
seed: 1
submissions:
  - player: P1
    actions:
      - {type: reinforce, amount: -1}
      - {type: reinforce, amount: 1.5}
      - {type: reinforce, amount: \"3\"}
      - {type: reinforce, amount: 0}
      - {type: reinforce, amount: 9223372036854775807}
      - {type: move, from: p1_hq, to: p1_bridge, amount: -9223372036854775808}
",
    );
    let reasons: Vec<String> = invalid_reasons(&replay)
        .into_iter()
        .map(|(_, r)| r)
        .collect();
    assert_eq!(
        reasons,
        [
            "amount_not_positive_integer",
            "amount_not_positive_integer",
            "amount_not_positive_integer",
            "amount_not_positive_integer",
            "insufficient_supply",
            "amount_not_positive_integer",
        ],
        "{replay}"
    );
    // Nothing changed: the HQ keeps its 10, P1 keeps its income.
    let state = &replay["state"];
    assert_eq!(state["cells"]["p1_hq"]["forces"]["P1"], 10, "{state}");
    assert_eq!(state["cells"]["p1_bridge"]["forces"]["P1"], 0, "{state}");
    assert_eq!(state["players"]["P1"]["supply"], 3, "{state}");

    let replay = run_script(
        "amounts_si",
        "ruleset: strategic_influence
submissions:
  - {player: P1, actions: [{type: place, at: A1}]}
  - {player: P2, actions: [{type: place, at: E5}]}
  - player: P1
    actions:
      - {type: move, from: A1, to: A2, amount: -1}
      - {type: move, from: A1, to: A2, amount: 0.5}
      - {type: move, from: A1, to: A2, amount: 9223372036854775807}
  - {player: P2, actions: []}
",
    );
    let invalid = invalid_reasons(&replay);
    assert_eq!(invalid.len(), 3, "{replay}");
    assert!(
        invalid
            .iter()
            .take(2)
            .all(|(_, r)| r == "amount_not_positive_integer"),
        "{invalid:?}"
    );
    assert_eq!(invalid[2].1, "exceeds_stones", "{invalid:?}");
}

/// Nine levels of nine aliases: 9^9 values if expanded.
fn alias_bomb() -> String {
    let mut text = String::from(
        "a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n",
    );
    let names = ["a", "b", "c", "d", "e", "f", "g", "h", "i"];
    for w in names.windows(2) {
        let refs = vec![format!("*{}", w[0]); 9].join(",");
        text.push_str(&format!("{}: &{} [{}]\n", w[1], w[1], refs));
    }
    text
}

#[test]
fn alias_bombs_are_refused_quickly() {
    let bomb = alias_bomb();
    let out = assert_rejected(
        "bomb",
        &format!("ruleset: asg\nid: t\n{bomb}"),
        "yaml::alias_limit",
    );
    assert!(out.elapsed < Duration::from_secs(10), "{:?}", out.elapsed);
    // In a match script given to `run`.
    let dir = scratch("robustness", "bomb_run");
    write(
        &dir,
        "m.yaml",
        format!("ruleset: asg\nsubmissions: []\n{bomb}"),
    );
    let out = arbiter_in(&dir, &["run", "m.yaml"]);
    assert_eq!(out.code, Some(1), "{}", out.all());
    assert!(out.stderr.contains("[yaml::alias_limit]"), "{}", out.all());
    assert!(out.elapsed < Duration::from_secs(10), "{:?}", out.elapsed);
}

/// A two-node ruleset whose turn start calls `spin()` from `spin.rhai`.
fn spinning_ruleset(test: &str, script: &str) -> PathBuf {
    let dir = scratch("robustness", test);
    write(
        &dir,
        "ruleset.yaml",
        "id: spinner
version: \"1\"
players: [P1, P2]
default_scenario: tiny
scripts: [spin.rhai]
board:
  topology: graph
actions:
  pass:
    effects: []
flow:
  phases:
    - name: main
      order: alternating
      submission: single
      actions: [pass]
      on_turn_start:
        - eval: \"spin()\"
",
    );
    write(
        &dir,
        "scenarios/tiny.yaml",
        "ruleset: spinner\nid: tiny\nboard:\n  nodes: [{id: a}, {id: b}]\n  edges: [[a, b]]\n",
    );
    write(&dir, "spin.rhai", script);
    write(
        &dir,
        "m.yaml",
        "ruleset: ruleset.yaml\nsubmissions:\n  - {player: P1, actions: [{type: pass}]}\n",
    );
    dir
}

#[test]
fn an_endless_script_stops_at_the_operation_limit() {
    let dir = spinning_ruleset("endless", "fn spin() {\n    loop {}\n}\n");
    // The ruleset itself is fine: the loop only shows when it runs.
    let out = arbiter_in(&dir, &["validate", "ruleset.yaml"]);
    assert_eq!(out.code, Some(0), "{}", out.all());

    let out = arbiter_in(
        &dir,
        &[
            "match",
            "--ruleset",
            ".",
            "--p1",
            "random",
            "--p2",
            "random",
        ],
    );
    assert_eq!(out.code, Some(1), "{}", out.all());
    assert!(
        out.stderr.to_lowercase().contains("too many operations"),
        "the error should name the operation limit: {}",
        out.all()
    );
    assert!(out.stdout.is_empty(), "no replay on failure: {}", out.all());
    assert!(out.elapsed < Duration::from_secs(30), "{:?}", out.elapsed);

    let out = arbiter_in(&dir, &["run", "m.yaml"]);
    assert_eq!(out.code, Some(1), "{}", out.all());
    assert!(out.stderr.contains("[match::run_error]"), "{}", out.all());
    assert!(
        out.stderr.to_lowercase().contains("too many operations"),
        "{}",
        out.all()
    );
}

#[test]
fn runaway_scripts_fail_cleanly() {
    let cases = [
        ("fn spin() { spin() }", "stack overflow"),
        (
            "fn spin() { let s = \"x\"; loop { s += s; } }",
            "string too large",
        ),
        ("fn spin() { let a = [1]; loop { a += a; } }", "too large"),
        ("fn spin() { 1 / 0 }", "division by zero"),
        ("fn spin() { throw \"no\"; }", "no"),
    ];
    for (i, (script, expected)) in cases.iter().enumerate() {
        let dir = spinning_ruleset(&format!("runaway_{i}"), script);
        let out = arbiter_in(
            &dir,
            &[
                "match",
                "--ruleset",
                ".",
                "--p1",
                "random",
                "--p2",
                "random",
            ],
        );
        assert_eq!(out.code, Some(1), "{script}: {}", out.all());
        assert!(
            out.stderr.to_lowercase().contains(expected),
            "{script}: expected {expected:?}: {}",
            out.all()
        );
    }
}

#[test]
fn unreadable_files_exit_2() {
    let dir = scratch("robustness", "unreadable");
    std::fs::create_dir_all(dir.join("folder.yaml")).expect("folder");
    for args in [
        &["validate", "folder.yaml"][..],
        &["validate", "missing.yaml"],
        &["validate", "--format", "json", "missing.yaml"],
        &["run", "folder.yaml"],
        &["run", "missing.yaml"],
        &["replay", "verify", "folder.yaml"],
        &["replay", "verify", "missing.json"],
        &[
            "match",
            "--ruleset",
            "missing",
            "--p1",
            "random",
            "--p2",
            "random",
        ],
        &[
            "match",
            "--ruleset",
            "asg",
            "--scenario",
            "missing.yaml",
            "--p1",
            "random",
            "--p2",
            "random",
        ],
    ] {
        let out = arbiter_in(&dir, args);
        assert_eq!(out.code, Some(2), "{args:?}: {}", out.all());
        assert!(
            out.stderr.contains("error") || out.stdout.contains("io::"),
            "{args:?}: {}",
            out.all()
        );
    }
    let out = arbiter_in(&dir, &["validate", "--format", "json", "folder.yaml"]);
    assert_eq!(out.codes(), ["io::unreadable"], "{}", out.all());
    // One unreadable file among valid ones still exits 2, and the others are still checked.
    let scenario = root().join("scenarios/asg/scenario_01.yaml");
    let out = arbiter_in(
        &dir,
        &[
            "validate",
            "--format",
            "json",
            "missing.yaml",
            &scenario.display().to_string(),
        ],
    );
    assert_eq!(out.code, Some(2), "{}", out.all());
    assert_eq!(out.codes(), ["io::unreadable"], "{}", out.all());
    // Bytes that are not UTF-8.
    write(&dir, "latin1.yaml", b"ruleset: asg\nid: caf\xe9\n");
    let out = arbiter_in(&dir, &["validate", "--format", "json", "latin1.yaml"]);
    assert_eq!(out.code, Some(2), "{}", out.all());
    assert_eq!(out.codes(), ["io::not_utf8"], "{}", out.all());
}

#[test]
fn empty_files_are_invalid_not_valid() {
    for (name, text) in [
        ("empty.yaml", ""),
        ("blank.yaml", "\n\n   \n"),
        ("comment.yaml", "# nothing here\n"),
        ("null.yaml", "~\n"),
        ("document.yaml", "---\n...\n"),
    ] {
        let out = validate_text("empty", name, text);
        assert_eq!(out.code, Some(1), "{name}: {}", out.all());
        assert_eq!(
            out.codes(),
            ["validate::unknown_kind"],
            "{name}: {}",
            out.all()
        );
    }
    let dir = scratch("robustness", "empty_run");
    write(&dir, "m.yaml", "");
    let out = arbiter_in(&dir, &["run", "m.yaml"]);
    assert_eq!(out.code, Some(1), "{}", out.all());
    assert!(out.stderr.contains("[match::not_mapping]"), "{}", out.all());
    // An empty ruleset.yaml, and an empty scenario next to a good ruleset.
    write(&dir, "empty_rules/ruleset.yaml", "");
    let out = arbiter_in(
        &dir,
        &[
            "match",
            "--ruleset",
            "empty_rules",
            "--p1",
            "random",
            "--p2",
            "random",
        ],
    );
    assert_eq!(out.code, Some(1), "{}", out.all());
    assert!(out.stderr.contains("[schema::type]"), "{}", out.all());
    write(&dir, "empty_scenario.yaml", "");
    let out = arbiter_in(
        &dir,
        &[
            "match",
            "--ruleset",
            "asg",
            "--scenario",
            "empty_scenario.yaml",
            "--p1",
            "random",
            "--p2",
            "random",
        ],
    );
    assert_eq!(out.code, Some(1), "{}", out.all());
    assert!(out.stderr.contains("[schema::type]"), "{}", out.all());
    // An empty replay.
    write(&dir, "replay.json", "");
    let out = arbiter_in(&dir, &["replay", "verify", "replay.json"]);
    assert_eq!(out.code, Some(1), "{}", out.all());
}

#[test]
fn bad_set_values_are_rejected() {
    let dir = scratch("robustness", "bad_set");
    for (set, code) in [
        ("settings.turnCapPlies=1e400", "ruleset::setting_type"),
        ("settings.turnCapPlies=-5", "ruleset::setting_out_of_range"),
        ("settings.turnCapPlies=[1]", "schema::type"),
        ("settings.rng=mersenne", "ruleset::setting_out_of_range"),
        ("settings.turnCapPlies.max=3", "set::bad_path"),
        ("players=none", "schema::type"),
    ] {
        let out = arbiter_in(
            &dir,
            &[
                "match",
                "--ruleset",
                "asg",
                "--p1",
                "random",
                "--p2",
                "random",
                "--set",
                set,
            ],
        );
        assert_eq!(out.code, Some(1), "--set {set}: {}", out.all());
        assert!(
            out.stderr.contains(&format!("[{code}]")),
            "--set {set}: {}",
            out.all()
        );
    }
    for set in ["nothing", "=3", "settings..x=1"] {
        let out = arbiter_in(
            &dir,
            &[
                "match",
                "--ruleset",
                "asg",
                "--p1",
                "random",
                "--p2",
                "random",
                "--set",
                set,
            ],
        );
        assert_eq!(out.code, Some(2), "--set {set}: {}", out.all());
    }
}

/// A small deterministic generator, so that failures reproduce.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
}

/// Mangled copies of `text`: truncations at line ends and mid-line, and single-byte edits.
fn mangled(text: &str, count: usize, seed: u64) -> Vec<String> {
    let mut rng = Lcg(seed);
    let bytes = text.as_bytes();
    let edits: &[u8] = b" \t\n:-[]{}&*!|>\"'#,?%@`0";
    let mut out = Vec::new();
    for i in 0..count {
        let at = (rng.next() as usize) % bytes.len().max(1);
        let mut b = bytes.to_vec();
        match i % 3 {
            0 => b.truncate(at),
            1 => b[at] = edits[(rng.next() as usize) % edits.len()],
            _ => {
                b.insert(at, edits[(rng.next() as usize) % edits.len()]);
            }
        }
        // Keep it UTF-8 so that the YAML and schema layers, not the reader, see it.
        out.push(String::from_utf8_lossy(&b).into_owned());
    }
    out
}

#[test]
fn mangled_canonical_files_never_panic() {
    let dir = scratch("robustness", "mangled");
    let asg = root().join("rulesets/asg");
    let ruleset = std::fs::read_to_string(asg.join("ruleset.yaml")).expect("asg ruleset");
    let script = std::fs::read_to_string(asg.join("combat.rhai")).expect("asg script");
    let scenario =
        std::fs::read_to_string(root().join("scenarios/asg/scenario_01.yaml")).expect("scenario");
    let woa = std::fs::read_to_string(root().join("scenarios/war_of_attrition/arena_21x9.yaml"))
        .expect("woa scenario");
    let match_script = "ruleset: asg\nseed: 7\nset: {settings.turnCapPlies: 10}\nsubmissions:\n  - player: P1\n    actions: [{type: reinforce, amount: 1}, {type: move, from: p1_hq, to: p1_bridge, amount: 2}]\n  - player: P2\n    actions: [{type: pass}]\n";
    let mut cases: Vec<(&str, String)> = Vec::new();
    cases.extend(
        mangled(&ruleset, 40, 1)
            .into_iter()
            .map(|t| ("rules/ruleset.yaml", t)),
    );
    cases.extend(
        mangled(&scenario, 20, 2)
            .into_iter()
            .map(|t| ("scenario.yaml", t)),
    );
    cases.extend(mangled(&woa, 10, 3).into_iter().map(|t| ("woa.yaml", t)));
    cases.extend(
        mangled(match_script, 20, 4)
            .into_iter()
            .map(|t| ("m.yaml", t)),
    );
    write(&dir, "rules/combat.rhai", &script);
    for (i, (name, text)) in cases.iter().enumerate() {
        write(&dir, name, text);
        let out = arbiter_in(&dir, &["validate", "--format", "json", name]);
        assert!(
            matches!(out.code, Some(0 | 1)),
            "case {i} ({name}) exited {:?}:\n{text}\n{}",
            out.code,
            out.all()
        );
        let codes = out.codes();
        assert_eq!(
            out.code == Some(0),
            codes.is_empty(),
            "case {i} ({name}): the exit code and the diagnostics disagree:\n{text}\n{}",
            out.all()
        );
        if *name == "m.yaml" {
            let out = arbiter_in(&dir, &["run", name]);
            assert!(
                matches!(out.code, Some(0..=2)),
                "case {i} (run): {}\n{text}",
                out.all()
            );
        }
    }
    // Mangled scripts: a compile error or a clean run, never a panic.
    write(&dir, "rules/ruleset.yaml", &ruleset);
    for (i, text) in mangled(&script, 20, 5).iter().enumerate() {
        write(&dir, "rules/combat.rhai", text);
        let out = arbiter_in(
            &dir,
            &["validate", "--format", "json", "rules/ruleset.yaml"],
        );
        assert!(
            matches!(out.code, Some(0 | 1)),
            "script case {i}:\n{text}\n{}",
            out.all()
        );
    }
}

// ---- Former gaps: input that was accepted although it is wrong. ----

#[test]
fn scenario_values_below_their_minimum_are_rejected() {
    let out = validate_text(
        "gap_min",
        "input.yaml",
        "ruleset: asg\nid: t\nplayers:\n  P1: {hq: a, supply: -4}\n  P2: {hq: b}\nboard:\n  nodes:\n    - {id: a, forces: {P1: -3}}\n    - {id: b}\n  edges:\n    - [a, b]\n",
    );
    let n = out
        .codes()
        .iter()
        .filter(|c| *c == "scenario::bad_value")
        .count();
    assert_eq!(n, 2, "{}", out.all());
}

#[test]
fn fractional_override_of_an_integer_setting_is_rejected() {
    let dir = scratch("robustness", "gap_fraction");
    let out = arbiter_in(
        &dir,
        &[
            "match",
            "--ruleset",
            "asg",
            "--p1",
            "random",
            "--p2",
            "random",
            "--set",
            "settings.turnCapPlies=2.5",
        ],
    );
    assert_eq!(out.code, Some(1), "{}", out.all());
}
