//! A due player with no legal action: `when_stuck` (pass by default, lose, draw) decides, logged as
//! `stuck {player, outcome}`; matches end instead of failing, and their replays verify because an empty
//! submission re-runs the same way. Fixture: tests/fixtures/stuck (one cell, one claim per turn), which
//! `validate` warns about (`ruleset::stuck_unhandled`) since it relies on the default.
mod support;
use std::fs;
use std::path::{Path, PathBuf};
use support::{arbiter_in, root, scratch};

use serde_json::Value;

/// A scratch project holding the fixture as `rulesets/stuck`, so `replay verify` finds it by id.
fn project(test: &str) -> PathBuf {
    let dir = scratch("when_stuck", test);
    let to = dir.join("rulesets/stuck/scenarios");
    fs::create_dir_all(&to).unwrap();
    let from = root().join("tests/fixtures/stuck");
    fs::copy(
        from.join("ruleset.yaml"),
        dir.join("rulesets/stuck/ruleset.yaml"),
    )
    .unwrap();
    fs::copy(
        from.join("scenarios/one_cell.yaml"),
        to.join("one_cell.yaml"),
    )
    .unwrap();
    dir
}

fn play(dir: &Path, rule: Option<&str>) -> Value {
    let set = rule.map(|r| format!("when_stuck={r}"));
    let mut args = vec![
        "match",
        "--ruleset",
        "stuck",
        "--p1",
        "greedy",
        "--p2",
        "random",
        "--out",
        "replay.json",
    ];
    if let Some(s) = &set {
        args.extend(["--set", s]);
    }
    let o = arbiter_in(dir, &args);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let v = arbiter_in(dir, &["replay", "verify", "replay.json"]);
    assert_eq!(
        v.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&v.stderr)
    );
    serde_json::from_str(&fs::read_to_string(dir.join("replay.json")).unwrap()).unwrap()
}

fn stuck_events(r: &Value) -> Vec<Value> {
    r["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["type"] == "stuck")
        .cloned()
        .collect()
}

#[test]
fn pass_is_the_default_and_play_goes_on() {
    let dir = project("pass");
    let r = play(&dir, None);
    assert_eq!(r["result"]["winner"], "P1");
    assert_eq!(r["result"]["reason"], "cells");
    let stuck = stuck_events(&r);
    assert_eq!(
        stuck[0],
        serde_json::json!({"type": "stuck", "player": "P2", "outcome": "pass"})
    );
    assert_eq!(
        stuck.len(),
        5,
        "every turn after the claim passes: {stuck:?}"
    );
}

#[test]
fn lose_and_draw_end_the_game_at_once() {
    let dir = project("lose_draw");
    let r = play(&dir, Some("lose"));
    assert_eq!(r["result"]["winner"], "P1");
    assert_eq!(r["result"]["reason"], "no_legal_action");
    assert_eq!(r["state"]["ply"], 2);
    assert_eq!(r["state"]["active"], serde_json::json!([]));
    assert_eq!(stuck_events(&r).len(), 1);

    let r = play(&dir, Some("draw"));
    assert_eq!(r["result"]["winner"], Value::Null);
    assert_eq!(r["result"]["reason"], "no_legal_action");
}

#[test]
fn an_empty_submission_of_a_stuck_player_is_settled_in_scripts() {
    let dir = project("script");
    fs::write(
        dir.join("script.yaml"),
        "ruleset: stuck\nset: {when_stuck: lose}\nsubmissions:\n  - {player: P1, actions: [{type: claim, at: A1}]}\n  - {player: P2, actions: []}\n",
    )
    .unwrap();
    let o = arbiter_in(&dir, &["run", "script.yaml"]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let r: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(r["result"]["reason"], "no_legal_action");

    // A player who still has a legal action is not stuck: an empty submission changes nothing.
    fs::write(
        dir.join("idle.yaml"),
        "ruleset: stuck\nsubmissions:\n  - {player: P1, actions: []}\n",
    )
    .unwrap();
    let o = arbiter_in(&dir, &["run", "idle.yaml"]);
    let r: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(r["state"]["active"], serde_json::json!(["P1"]));
}

#[test]
fn an_unknown_rule_is_refused() {
    let dir = project("unknown");
    let o = arbiter_in(
        &dir,
        &[
            "match",
            "--ruleset",
            "stuck",
            "--p1",
            "random",
            "--p2",
            "random",
            "--set",
            "when_stuck=forfeit",
        ],
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("when_stuck"));
}

/// `validate` of the fixture with `line` replaced: exit code and stderr.
fn validate_with(test: &str, line: &str, replacement: &str) -> (Option<i32>, String) {
    let dir = project(test);
    let path = dir.join("rulesets/stuck/ruleset.yaml");
    let text = fs::read_to_string(&path).unwrap();
    assert!(text.contains(line), "the fixture changed: {line}");
    fs::write(&path, text.replace(line, replacement)).unwrap();
    let o = support::arbiter_in(&dir, &["validate", "rulesets/stuck"]);
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
fn validate_warns_when_a_player_may_get_stuck_without_a_rule() {
    let claim = "      actions: [claim]";
    let (code, err) = validate_with("warns", claim, claim);
    assert_eq!(code, Some(0), "a warning does not fail validate: {err}");
    assert!(err.contains("warning[ruleset::stuck_unhandled]"), "{err}");
    assert!(err.contains("1 file valid, 1 warning"), "{err}");
    // An explicit rule, or an action that is always legal, settles it.
    let declared = "state:\n";
    let (code, err) = validate_with("declared", declared, "when_stuck: lose\n\nstate:\n");
    assert_eq!((code, err.contains("warning")), (Some(0), false), "{err}");
    let (code, err) = validate_with(
        "always_legal",
        "actions:\n  claim:",
        "actions:\n  wait: {}\n  claim:",
    );
    assert_eq!((code, err.contains("warning")), (Some(0), true), "{err}");
    let dir = project("always_legal_in_phase");
    let path = dir.join("rulesets/stuck/ruleset.yaml");
    let text = fs::read_to_string(&path)
        .unwrap()
        .replace("actions:\n  claim:", "actions:\n  wait: {}\n  claim:")
        .replace(claim, "      actions: [claim, wait]");
    fs::write(&path, text).unwrap();
    let o = support::arbiter_in(&dir, &["validate", "rulesets/stuck"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(!err.contains("warning"), "{err}");
}

#[test]
fn the_shipped_rulesets_do_not_warn() {
    let o = support::arbiter(&["validate"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(!err.contains("warning"), "{err}");
}
