//! Arithmetic and built-in calls that have no meaningful value stop a match with a message naming the
//! call, instead of wrapping, clamping or quietly giving none: `abs` of the smallest integer, `floor` of a
//! float beyond the integer range, `random` with crossed bounds, `chance` outside 0..1. Each case is a
//! copy of Strategic Influence whose setup placement evaluates the expression, played by `arbiter run`.
//! Counters do not wrap either: the `turn` counter started at the largest integer, and the built-in growth
//! step on a cell already holding it, stop with a run error.
mod support;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use support::{root, scratch};

const PLACE_EFFECT: &str = "      - set: {at.owner: me, at.stones: settings.stonesPerPlacement}";
const PLACE_EVENT: &str = "      - emit: {type: place, player: me, at: at, stones: at.stones}";

/// A scratch folder holding the variant ruleset (its placement line replaced) and a one-placement script.
fn variant(test: &str, line: &str, replacement: &str) -> PathBuf {
    let dir = scratch("runtime_errors", test);
    fs::create_dir_all(dir.join("variant")).unwrap();
    let canonical = root().join("rulesets/strategic_influence/ruleset.yaml");
    let text = fs::read_to_string(canonical).unwrap();
    assert!(text.contains(line), "the canonical ruleset changed: {line}");
    fs::write(
        dir.join("variant/ruleset.yaml"),
        text.replace(line, replacement),
    )
    .unwrap();
    let scenario = root().join("scenarios/strategic_influence/standard_5x5.yaml");
    fs::write(
        dir.join("script.yaml"),
        format!(
            "ruleset: ./variant\nscenario: {}\nsubmissions:\n  - {{player: P1, actions: [{{type: place, at: A1}}]}}\n",
            scenario.display()
        ),
    )
    .unwrap();
    dir
}

fn run(dir: &Path) -> (Option<i32>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["run", "script.yaml", "--out", "replay.json"])
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The variant stops at the placement with a run error containing `message`.
fn stops(test: &str, line: &str, replacement: &str, message: &str) {
    let dir = variant(test, line, replacement);
    let (code, stderr) = run(&dir);
    assert_eq!(code, Some(1), "{test}: {stderr}");
    assert!(
        stderr.contains("match::run_error") && stderr.contains(message),
        "{test}: expected `{message}` in\n{stderr}"
    );
}

fn set_stones(expr: &str) -> String {
    format!("      - set: {{at.owner: me, at.stones: \"{expr}\"}}")
}

fn emit_extra(expr: &str) -> String {
    format!("      - let: {{lucky: \"{expr}\"}}\n      - emit: {{type: place, player: me, at: at, stones: at.stones, lucky: lucky}}")
}

#[test]
fn the_control_variant_runs() {
    // Guards the harness: the same copy with a harmless expression plays the placement.
    let dir = variant("control", PLACE_EFFECT, &set_stones("abs(-3)"));
    let (code, stderr) = run(&dir);
    assert_eq!(code, Some(0), "{stderr}");
    let replay = fs::read_to_string(dir.join("replay.json")).unwrap();
    assert!(replay.contains("\"stones\": 3"), "{replay}");
}

#[test]
fn abs_of_the_smallest_integer_is_an_error() {
    stops(
        "abs",
        PLACE_EFFECT,
        &set_stones("abs(-9223372036854775807 - 1)"),
        "abs(-9223372036854775808) leaves the 64-bit integer range",
    );
}

#[test]
fn floor_and_ceil_beyond_the_integer_range_are_errors() {
    for f in ["floor", "ceil"] {
        stops(
            f,
            PLACE_EFFECT,
            &set_stones(&format!("{f}(4.0 * 9223372036854775807)")),
            "leaves the 64-bit integer range",
        );
    }
}

#[test]
fn random_with_crossed_bounds_is_an_error() {
    stops(
        "random",
        PLACE_EFFECT,
        &set_stones("random(5, 1)"),
        "random(5, 1): the lower bound is above the upper bound",
    );
}

#[test]
fn chance_outside_zero_to_one_is_an_error() {
    for (name, p) in [
        ("chance_high", "2"),
        ("chance_low", "-1"),
        ("chance_tiny", "-0.5"),
    ] {
        stops(
            name,
            PLACE_EVENT,
            &emit_extra(&format!("chance({p})")),
            "a probability must be between 0 and 1",
        );
    }
}

#[test]
fn a_test_of_unchanging_data_errs_only_where_listing_reaches_it() {
    // Enumeration evaluates a test that reads only a cell's fixed data once for every cell and keeps the
    // answers; here it divides by zero on A1, which P1 takes first. Listing P2's placements never reaches
    // A1 (the owner test comes first), so it must not stop with that error.
    let owner_test = "          - {when: \"at.owner == none\", reason: cell_taken}";
    let with_division = format!(
        "{owner_test}\n          - {{when: \"me == 'P1' or 10 / (at.col * 10 + at.row) != 99\", reason: never}}"
    );
    let dir = variant("fixed_test", owner_test, &with_division);
    let out = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["run", "script.yaml", "--legal"])
        .current_dir(&dir)
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let replay: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let legal = &replay["legal"];
    assert_eq!(legal["player"], "P2");
    let cells: Vec<&str> = legal["actions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["at"].as_str().unwrap())
        .collect();
    assert!(cells.contains(&"E5") && !cells.contains(&"A1"), "{cells:?}");
}

#[test]
fn the_turn_counter_does_not_wrap() {
    let dir = std::env::temp_dir().join("arbiter-runtime-errors-turn_counter");
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(dir.join("counter/scenarios")).unwrap();
    fs::write(
        dir.join("counter/ruleset.yaml"),
        "id: counter\nversion: \"1\"\nplayers: [P1, P2]\ndefault_scenario: tiny\nboard: {topology: square, ids: {first: col, rows: numbers, cols: letters}}\nstate:\n  turn: 9223372036854775807\nactions:\n  pass: {}\nflow:\n  phases:\n    - {name: main, order: alternating, submission: single, actions: [pass]}\n",
    )
    .unwrap();
    fs::write(
        dir.join("counter/scenarios/tiny.yaml"),
        "ruleset: counter\nid: tiny\nboard: {width: 1, height: 1}\n",
    )
    .unwrap();
    fs::write(
        dir.join("script.yaml"),
        "ruleset: ./counter\nsubmissions:\n  - {player: P1, actions: [{type: pass}]}\n  - {player: P2, actions: [{type: pass}]}\n",
    )
    .unwrap();
    let (code, stderr) = run(&dir);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(
        stderr.contains("match::run_error") && stderr.contains("the `turn` counter passed"),
        "{stderr}"
    );
}

#[test]
fn the_growth_step_does_not_wrap() {
    // Stones at the largest integer, a cap that lets them be: growing by one more is a run error.
    let dir = variant("growth", PLACE_EFFECT, &set_stones("9223372036854775807"));
    let path = dir.join("variant/ruleset.yaml");
    let text = fs::read_to_string(&path).unwrap();
    let text = text
        .replace("  maxStones: 10\n", "  maxStones: 9223372036854775807\n")
        .replace(
            "  maxStones: {min: 1, max: 1000000}\n",
            "  maxStones: {min: 1}\n",
        );
    fs::write(&path, text).unwrap();
    let script = fs::read_to_string(dir.join("script.yaml")).unwrap();
    fs::write(
        dir.join("script.yaml"),
        format!("{script}  - {{player: P2, actions: [{{type: place, at: E5}}]}}\n  - {{player: P1, actions: []}}\n  - {{player: P2, actions: []}}\n"),
    )
    .unwrap();
    let (code, stderr) = run(&dir);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(
        stderr.contains("match::run_error")
            && stderr.contains("arithmetic overflow: `stones` in cell A1"),
        "{stderr}"
    );
}

#[test]
fn an_add_that_would_overflow_a_variable_stops_the_match() {
    // A whole-number store done in place must fail exactly as the generic assignment does.
    stops(
        "add_overflow",
        PLACE_EFFECT,
        &format!("{PLACE_EFFECT}\n      - add: {{at.stones: 9223372036854775807}}"),
        "overflow",
    );
}
