//! The conformance runner checks its cases before trusting them: the conformance schema applies, action
//! patterns must name actions and fields the game has with values of the right type (a misspelt key in
//! `legal_exclude` would otherwise pass vacuously), and a folder without cases is a failure, not a pass.
use std::fs;
use std::process::Command;

fn run(test: &str, case: Option<&str>) -> (Option<i32>, String) {
    let dir = std::env::temp_dir().join(format!("arbiter-conformance-checks-{test}"));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    if let Some(text) = case {
        fs::write(dir.join("case.yaml"), text).unwrap();
    }
    let o = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["conformance", &dir.display().to_string()])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr),
    )
}

const HEAD: &str = "ruleset: strategic_influence\nseed: 0\nsubmissions: []\nexpect:\n";

fn fails(test: &str, expect: &str, message: &str) {
    let (code, out) = run(test, Some(&format!("{HEAD}{expect}")));
    assert_eq!(code, Some(1), "{test}: {out}");
    assert!(
        out.contains("FAIL") && out.contains(message),
        "{test}: expected `{message}` in {out}"
    );
}

#[test]
fn a_sound_case_passes() {
    // Guards the harness: the same shape with correct patterns passes.
    let (code, out) = run(
        "sound",
        Some(&format!("{HEAD}  legal_include:\n    - {{type: place, at: A1}}\n  legal_exclude:\n    - {{at: C3}}\n")),
    );
    assert_eq!(code, Some(0), "{out}");
}

#[test]
fn patterns_that_can_match_nothing_are_refused() {
    fails(
        "misspelt_key",
        "  legal_exclude:\n    - {att: C3}\n",
        "no action here has a field `att` (did you mean `at`?)",
    );
    fails(
        "wrong_type",
        "  legal_exclude:\n    - {type: move, amount: two}\n",
        "wrong type",
    );
    fails(
        "unknown_action",
        "  legal_include:\n    - {type: plac, at: A1}\n",
        "unknown action `plac` (did you mean `place`?)",
    );
}

#[test]
fn the_conformance_schema_applies() {
    fails("schema", "  legal_count: many\n", "not a valid case");
}

#[test]
fn a_folder_without_cases_fails() {
    let (code, out) = run("empty", None);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("no cases"), "{out}");
}
