//! `replay verify` trusts nothing it can check: the replay schema (unknown keys, wrong types), the
//! ruleset's version and digest, and the recorded settings (a misspelt or missing one) are all refused;
//! and replays that `match` writes with `--set` overrides outside `settings` record them, so that they
//! verify. `--set settings.<typo>` is refused before any match is played.
mod support;
use std::fs;
use std::path::Path;
use support::{arbiter, scratch, stderr};

use serde_json::{json, Value};

/// A fresh ASG replay (random against random, seed 7, with extra `--set` arguments) as JSON.
fn recorded(dir: &Path, extra: &[&str]) -> Value {
    let out = dir.join("replay.json");
    let mut args = vec![
        "match",
        "--ruleset",
        "asg",
        "--p1",
        "random",
        "--p2",
        "random",
        "--seed",
        "7",
        "--out",
    ];
    let out_text = out.display().to_string();
    args.push(&out_text);
    args.extend_from_slice(extra);
    let o = arbiter(&args);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    serde_json::from_str(&fs::read_to_string(out).unwrap()).unwrap()
}

/// Writes `replay` and verifies it: the exit code and stderr.
fn verify(dir: &Path, replay: &Value) -> (Option<i32>, String) {
    let path = dir.join("edited.json");
    fs::write(&path, serde_json::to_string_pretty(replay).unwrap()).unwrap();
    let o = arbiter(&["replay", "verify", &path.display().to_string()]);
    (o.status.code(), stderr(&o))
}

fn refused(dir: &Path, replay: &Value, message: &str) {
    let (code, err) = verify(dir, replay);
    assert_eq!(
        code,
        Some(1),
        "expected a refusal mentioning `{message}`: {err}"
    );
    assert!(err.contains(message), "expected `{message}` in\n{err}");
}

#[test]
fn tampered_headers_and_settings_are_refused() {
    let dir = scratch("replay_tampering", "headers");
    let original = recorded(&dir, &[]);
    assert_eq!(
        verify(&dir, &original).0,
        Some(0),
        "the untouched replay verifies"
    );

    let mut r = original.clone();
    r["ruleset"]["digest"] = json!(format!("sha256:{}", "0".repeat(64)));
    refused(&dir, &r, "has changed since the replay was recorded");

    let mut r = original.clone();
    r["ruleset"]["version"] = json!("9.9.9");
    refused(&dir, &r, "recorded with version 9.9.9");

    let mut r = original.clone();
    r["comment"] = json!("added by hand");
    refused(&dir, &r, "replay schema");

    let mut r = original.clone();
    r["seed"] = json!("seven");
    refused(&dir, &r, "replay schema");

    let mut r = original.clone();
    let budget = r["settings"]["actionBudget"].take();
    r["settings"]
        .as_object_mut()
        .unwrap()
        .remove("actionBudget");
    r["settings"]["actionBudgt"] = budget;
    refused(&dir, &r, "did you mean `actionBudget`");

    let mut r = original.clone();
    r["settings"]
        .as_object_mut()
        .unwrap()
        .remove("actionBudget");
    refused(&dir, &r, "does not record setting `actionBudget`");
}

#[test]
fn overrides_outside_settings_are_recorded_and_reapplied() {
    let dir = scratch("replay_tampering", "overrides");
    let r = recorded(&dir, &["--set", "actions.move.params.amount.min.value=0"]);
    assert_eq!(
        r["overrides"],
        json!({"actions.move.params.amount.min.value": 0}),
        "the override is recorded"
    );
    let (code, err) = verify(&dir, &r);
    assert_eq!(code, Some(0), "{err}");

    // Without the record, the re-run starts from another position and differs.
    let mut stripped = r.clone();
    stripped.as_object_mut().unwrap().remove("overrides");
    assert_eq!(verify(&dir, &stripped).0, Some(1));

    // Plain matches record no `overrides` at all.
    let plain = recorded(&dir, &["--set", "settings.actionBudget=2"]);
    assert!(plain.get("overrides").is_none(), "{plain}");
}

#[test]
fn unknown_settings_are_refused_with_a_suggestion() {
    let o = arbiter(&[
        "match",
        "--ruleset",
        "asg",
        "--p1",
        "random",
        "--p2",
        "random",
        "--set",
        "settings.actionBudgt=2",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(
        err.contains("set::unknown_setting")
            && err.contains("did you mean `settings.actionBudget`"),
        "{err}"
    );

    let dir = scratch("replay_tampering", "script_set");
    let script = dir.join("script.yaml");
    fs::write(
        &script,
        "ruleset: asg\nset: {settings.actionBudgt: 2}\nsubmissions: []\n",
    )
    .unwrap();
    let o = arbiter(&["run", &script.display().to_string()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("set::unknown_setting"),
        "{}",
        stderr(&o)
    );
}
