//! End-to-end tests of the `arbiter` binary: exit codes, where output goes, and the JSON shapes that
//! INTERFACE.md promises. They run against the canonical `asg` ruleset.
mod support;
use std::path::Path;
use std::process::{Command, Output};
use support::{arbiter, code, scratch, stderr, stdout};

use serde_json::Value;

fn json(o: &Output) -> Value {
    serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("stdout is not JSON ({e}): {}", stdout(o)))
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).expect("write");
    p.display().to_string()
}

const SHORT_SCRIPT: &str = "ruleset: asg
seed: 7
set: {settings.turnCapPlies: 10}
submissions:
  - player: P1
    actions: [{type: reinforce, amount: 1}, {type: pass}, {type: no_such_action}]
  - player: P2
    actions: [{type: pass}]
";

#[test]
fn help_and_version_exit_zero() {
    assert_eq!(code(&arbiter(&["--help"])), 0);
    assert_eq!(code(&arbiter(&["--version"])), 0);
    assert_eq!(code(&arbiter(&["simulate", "--help"])), 0);
}

#[test]
fn usage_errors_exit_two() {
    assert_eq!(code(&arbiter(&[])), 2);
    assert_eq!(code(&arbiter(&["no-such-command"])), 2);
    assert_eq!(
        code(&arbiter(&["match", "--ruleset", "asg"])),
        2,
        "missing --p1/--p2"
    );
    assert_eq!(
        code(&arbiter(&[
            "simulate",
            "--ruleset",
            "asg",
            "--p1",
            "random",
            "--p2",
            "random"
        ])),
        2,
        "missing --games"
    );
    let o = arbiter(&[
        "match",
        "--ruleset",
        "asg",
        "--p1",
        "random",
        "--p2",
        "nobody",
    ]);
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("nobody"), "{}", stderr(&o));
    let o = arbiter(&[
        "match",
        "--ruleset",
        "asg",
        "--p1",
        "random",
        "--p2",
        "random",
        "--set",
        "no-equals-sign",
    ]);
    assert_eq!(code(&o), 2);
}

#[test]
fn unreadable_inputs_exit_two() {
    assert_eq!(code(&arbiter(&["run", "no/such/script.yaml"])), 2);
    assert_eq!(code(&arbiter(&["validate", "no/such/file.yaml"])), 2);
    assert_eq!(
        code(&arbiter(&["replay", "verify", "no/such/replay.json"])),
        2
    );
    assert_eq!(
        code(&arbiter(&[
            "match",
            "--ruleset",
            "no_such_ruleset",
            "--p1",
            "random",
            "--p2",
            "random"
        ])),
        2
    );
    let dir = scratch("cli", "unreadable");
    let script = write(
        &dir,
        "s.yaml",
        "ruleset: no_such_ruleset\nsubmissions: []\n",
    );
    assert_eq!(code(&arbiter(&["run", &script])), 2);
}

#[test]
fn validate_everything_by_default() {
    let o = arbiter(&["validate"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let o = arbiter(&["validate", "--format", "json"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(json(&o), Value::Array(vec![]));
}

#[test]
fn validate_explain_shows_how_each_game_is_played_with_its_defaults() {
    let o = arbiter(&["validate", "rulesets/war_of_attrition", "--explain"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let text = stdout(&o);
    for line in [
        "rulesets/war_of_attrition: ruleset `war_of_attrition`",
        "3 points per turn",
        "    move: unitId (unit), to (cell); cost 1 (default)",
        "    end_turn: no parameters; cost 0; always legal",
        "a due player with no legal action: pass (default",
        "victory: elimination",
    ] {
        assert!(text.contains(line), "`{line}` missing from\n{text}");
    }
    // Text only: it would spoil the JSON array.
    let o = arbiter(&["validate", "rulesets/asg", "--explain", "--format", "json"]);
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    // Nothing is explained for an invalid game.
    let o = arbiter(&[
        "validate",
        "rulesets/strategic_influence",
        "--explain",
        "--set",
        "settings.stonesPerPlacement=11",
    ]);
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    assert!(stderr(&o).contains("ruleset::setting_out_of_range"));
    assert_eq!(stdout(&o), "");
}

#[test]
fn validate_json_lists_every_problem_with_a_location() {
    let dir = scratch("cli", "validate_json");
    let bad = write(
        &dir,
        "bad.yaml",
        "ruleset: asg\nsubmissions: []\nset: {settings.actionBudget: 0}\n",
    );
    let o = arbiter(&["validate", "--format", "json", &bad]);
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    let problems = json(&o);
    let list = problems.as_array().expect("an array");
    assert!(!list.is_empty());
    for p in list {
        for key in ["file", "line", "column", "code", "message"] {
            assert!(p.get(key).is_some(), "{key} missing in {p}");
        }
    }
    let o = arbiter(&["validate", &bad]);
    assert_eq!(code(&o), 1);
    assert!(stdout(&o).is_empty(), "text diagnostics go to stderr");
    assert!(stderr(&o).contains("error["), "{}", stderr(&o));
}

#[test]
fn run_writes_a_replay_with_the_interface_shape() {
    let dir = scratch("cli", "run_shape");
    let script = write(&dir, "s.yaml", SHORT_SCRIPT);
    let o = arbiter(&["run", &script]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let r = json(&o);
    assert_eq!(r["format"], "arbiter-replay");
    assert_eq!(r["version"], 1);
    assert_eq!(r["ruleset"]["id"], "asg");
    assert!(r["ruleset"]["version"].is_string());
    assert!(r["ruleset"]["digest"]
        .as_str()
        .is_some_and(|d| d.starts_with("sha256:")));
    assert_eq!(r["scenario"], "scenario_01");
    assert_eq!(r["seed"], 7);
    assert_eq!(r["settings"]["turnCapPlies"], 10);
    assert_eq!(r["settings"]["actionBudget"], 6);
    assert_eq!(r["submissions"].as_array().map(Vec::len), Some(2));
    assert_eq!(r["submissions"][0]["player"], "P1");
    let events = r["events"].as_array().expect("events");
    assert!(events.iter().all(|e| e["type"].is_string()));
    assert_eq!(events[0]["type"], "income");
    assert!(events.iter().any(|e| e["type"] == "invalid_action"
        && e["reason"].is_string()
        && e["action"]["type"] == "no_such_action"));
    assert_eq!(r["result"]["status"], "ongoing");
    assert!(r["result"]["winner"].is_null());
    for key in ["turn", "ply", "active", "players", "cells", "units"] {
        assert!(r["state"].get(key).is_some(), "state.{key} missing");
    }
    assert!(r.get("legal").is_none());

    let out = dir.join("replay.json");
    let o = arbiter(&[
        "run",
        &script,
        "--out",
        &out.display().to_string(),
        "--legal",
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(stdout(&o).is_empty());
    let r: Value = serde_json::from_str(&std::fs::read_to_string(&out).expect("replay written"))
        .expect("JSON");
    assert_eq!(r["legal"]["player"], "P1");
    let actions = r["legal"]["actions"].as_array().expect("legal actions");
    assert!(actions.iter().any(|a| a["type"] == "pass"));
    assert_eq!(
        code(&arbiter(&["replay", "verify", &out.display().to_string()])),
        0
    );
}

#[test]
fn runs_are_byte_identical() {
    let dir = scratch("cli", "run_twice");
    let script = write(&dir, "s.yaml", SHORT_SCRIPT);
    assert_eq!(
        arbiter(&["run", &script]).stdout,
        arbiter(&["run", &script]).stdout
    );
}

#[test]
fn script_errors_exit_one_naming_the_submission() {
    let dir = scratch("cli", "script_errors");
    let not_due = write(&dir, "not_due.yaml", "ruleset: asg\nsubmissions:\n  - {player: P1, actions: []}\n  - {player: P1, actions: []}\n");
    let o = arbiter(&["run", &not_due]);
    assert_eq!(code(&o), 1);
    assert!(
        stderr(&o).contains("match::not_due") && stderr(&o).contains("submission 1"),
        "{}",
        stderr(&o)
    );

    let unknown = write(
        &dir,
        "unknown.yaml",
        "ruleset: asg\nsubmissions:\n  - {player: P9, actions: []}\n",
    );
    let o = arbiter(&["run", &unknown]);
    assert_eq!(code(&o), 1);
    assert!(stderr(&o).contains("submission 0"), "{}", stderr(&o));

    let not_list = write(
        &dir,
        "not_list.yaml",
        "ruleset: asg\nsubmissions: {P1: []}\n",
    );
    let o = arbiter(&["run", &not_list]);
    assert_eq!(code(&o), 1);
    assert!(
        stderr(&o).contains("match::submissions_not_list"),
        "{}",
        stderr(&o)
    );

    let not_mapping = write(&dir, "not_mapping.yaml", "- 1\n- 2\n");
    assert_eq!(code(&arbiter(&["run", &not_mapping])), 1);

    let bad_override = write(
        &dir,
        "bad_override.yaml",
        "ruleset: asg\nset: {settings.actionBudget: 0}\nsubmissions: []\n",
    );
    assert_eq!(code(&arbiter(&["run", &bad_override])), 1);

    let after_end =
        write(&dir, "after_end.yaml", "ruleset: asg\nset: {settings.turnCapPlies: 1}\nsubmissions:\n  - {player: P1, actions: []}\n  - {player: P2, actions: []}\n");
    let o = arbiter(&["run", &after_end]);
    assert_eq!(code(&o), 1);
    assert!(stderr(&o).contains("submission 1"), "{}", stderr(&o));
}

#[test]
fn wrong_action_content_is_an_event_not_an_error() {
    let dir = scratch("cli", "wrong_content");
    let script = write(
        &dir,
        "s.yaml",
        "ruleset: asg\nsubmissions:\n  - player: P1\n    actions: [17, {}, {type: reinforce, amount: -1}, {type: reinforce, amount: 1.5}, {type: move}]\n",
    );
    let o = arbiter(&["run", &script]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let r = json(&o);
    let invalid = r["events"]
        .as_array()
        .expect("events")
        .iter()
        .filter(|e| e["type"] == "invalid_action")
        .count();
    assert_eq!(invalid, 5);
}

#[test]
fn match_replays_verify_and_tampering_is_caught() {
    let dir = scratch("cli", "match_verify");
    let out = dir.join("m.json").display().to_string();
    let o = arbiter(&[
        "match",
        "--ruleset",
        "asg",
        "--p1",
        "random",
        "--p2",
        "greedy",
        "--seed",
        "5",
        "--set",
        "settings.turnCapPlies=12",
        "--out",
        &out,
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let mut r: Value =
        serde_json::from_str(&std::fs::read_to_string(&out).expect("written")).expect("JSON");
    assert_eq!(r["result"]["status"], "finished");
    assert_eq!(r["settings"]["turnCapPlies"], 12);
    let o = arbiter(&["replay", "verify", &out]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));

    r["events"][0]["amount"] = Value::from(999);
    let tampered = write(&dir, "tampered.json", &r.to_string());
    let o = arbiter(&["replay", "verify", &tampered]);
    assert_eq!(code(&o), 1);
    assert!(stderr(&o).contains("event 0"), "{}", stderr(&o));

    let garbage = write(&dir, "garbage.json", "{\"format\": \"something-else\"}");
    assert_eq!(code(&arbiter(&["replay", "verify", &garbage])), 1);
}

#[test]
fn match_is_deterministic() {
    let args = [
        "match",
        "--ruleset",
        "asg",
        "--p1",
        "random",
        "--p2",
        "random",
        "--seed",
        "11",
    ];
    let a = arbiter(&args);
    assert_eq!(code(&a), 0, "{}", stderr(&a));
    assert_eq!(a.stdout, arbiter(&args).stdout);
}

#[test]
fn simulate_json_shape_and_independence_from_jobs() {
    let base = [
        "simulate",
        "--ruleset",
        "asg",
        "--p1",
        "random",
        "--p2",
        "random",
        "--games",
        "12",
        "--seed",
        "3",
        "--format",
        "json",
    ];
    let one = arbiter(&[&base[..], &["--jobs", "1"]].concat());
    assert_eq!(code(&one), 0, "{}", stderr(&one));
    let three = arbiter(&[&base[..], &["--jobs", "3"]].concat());
    assert_eq!(code(&three), 0, "{}", stderr(&three));
    let (a, b) = (json(&one), json(&three));
    assert_eq!(a["games"], 12);
    let wins = a["wins"].as_object().expect("wins");
    assert!(wins.contains_key("P1") && wins.contains_key("P2"));
    let total = wins
        .values()
        .map(|v| v.as_u64().expect("count"))
        .sum::<u64>()
        + a["draws"].as_u64().expect("draws");
    assert_eq!(total, 12);
    assert!(a["mean_turns"].is_number());
    for key in ["games", "wins", "draws", "mean_turns", "mean_plies"] {
        assert_eq!(a[key], b[key], "{key} depends on --jobs");
    }
    assert!(
        stderr(&one).is_empty(),
        "no progress bar with --format json: {}",
        stderr(&one)
    );
}

#[test]
fn simulate_text_and_checks() {
    let o = arbiter(&[
        "simulate",
        "--ruleset",
        "asg",
        "--p1",
        "greedy",
        "--p2",
        "random",
        "--games",
        "3",
        "--check",
        "--set",
        "settings.turnCapPlies=10",
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let text = stdout(&o);
    assert!(
        text.contains("P1 (greedy)") && text.contains("draws") && text.contains("games/s"),
        "{text}"
    );
}

#[test]
fn conformance_reports_each_case() {
    let o = arbiter(&["conformance"]);
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    assert!(stdout(&o).contains(" passed, 0 failed"), "{}", stdout(&o));

    let dir = scratch("cli", "conformance");
    write(
        &dir,
        "a_pass.yaml",
        "description: income first\nruleset: asg\nsubmissions:\n  - {player: P1, actions: [{type: pass}]}\n\
         expect:\n  events_include: [{type: income, player: P1}, {type: income, player: P2}]\n  result: {status: ongoing}\n  legal_include: [{type: pass}]\n",
    );
    write(
        &dir,
        "b_error.yaml",
        "ruleset: asg\nsubmissions: [{player: P2, actions: []}]\nexpect: {error: match::not_due}\n",
    );
    write(
        &dir,
        "c_fail.yaml",
        "ruleset: asg\nsubmissions: []\nexpect:\n  result: {status: finished}\n",
    );
    let o = arbiter(&["conformance", &dir.display().to_string()]);
    assert_eq!(code(&o), 1);
    let text = stdout(&o);
    assert!(
        text.contains("PASS") && text.contains("a_pass.yaml: income first"),
        "{text}"
    );
    assert!(
        text.contains("FAIL") && text.contains("c_fail.yaml"),
        "{text}"
    );
    assert!(text.trim_end().ends_with("2 passed, 1 failed"), "{text}");
}

/// Copies a folder tree (test helper).
fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for e in std::fs::read_dir(from).expect("read_dir") {
        let e = e.expect("entry");
        let target = to.join(e.file_name());
        if e.path().is_dir() {
            copy_tree(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), &target).expect("copy");
        }
    }
}

#[test]
fn arbiter_toml_adds_search_folders_and_rejects_unknown_keys() {
    let dir = scratch("cli", "arbiter_toml");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    // A games folder of the user's own, outside the repository, with a ruleset under a new name.
    copy_tree(
        &root.join("rulesets/asg"),
        &dir.join("games/rulesets/my_variant"),
    );
    copy_tree(
        &root.join("scenarios/asg"),
        &dir.join("games/scenarios/asg"),
    );
    let work = dir.join("work");
    std::fs::create_dir_all(&work).expect("mkdir");
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_arbiter"))
            .args(args)
            .current_dir(&work)
            .output()
            .expect("runs")
    };
    let args = [
        "match",
        "--ruleset",
        "my_variant",
        "--p1",
        "random",
        "--p2",
        "random",
        "--seed",
        "1",
    ];
    let without = run(&args);
    assert_eq!(
        code(&without),
        2,
        "not found without arbiter.toml: {}",
        stderr(&without)
    );
    std::fs::write(work.join("arbiter.toml"), "search = [\"../games\"]\n").expect("write");
    let with = run(&args);
    assert_eq!(code(&with), 0, "{}", stderr(&with));
    assert_eq!(json(&with)["ruleset"]["id"], "asg");
    std::fs::write(work.join("arbiter.toml"), "serch = [\"../games\"]\n").expect("write");
    let broken = run(&args);
    assert_eq!(code(&broken), 2);
    assert!(
        stderr(&broken).contains("config::invalid") && stderr(&broken).contains("search"),
        "{}",
        stderr(&broken)
    );
}
