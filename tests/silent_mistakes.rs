//! Mistakes that used to pass silently now stop with a message: a phase with no actions and an empty wire
//! discriminator (schema), a recruit that would take a living unit's id when scenario ids leave gaps (the
//! next free number is used instead), and a script event without a text `type`.
mod support;
use std::fs;
use support::{arbiter_in, root, scratch};

use serde_json::Value;

/// The `stuck` fixture with one line replaced, validated: its stderr.
fn validate_fixture_with(test: &str, line: &str, replacement: &str) -> String {
    let dir = scratch("silent_mistakes", test);
    let from = root().join("tests/fixtures/stuck");
    fs::create_dir_all(dir.join("rs/scenarios")).unwrap();
    let text = fs::read_to_string(from.join("ruleset.yaml")).unwrap();
    assert!(text.contains(line));
    fs::write(dir.join("rs/ruleset.yaml"), text.replace(line, replacement)).unwrap();
    fs::copy(
        from.join("scenarios/one_cell.yaml"),
        dir.join("rs/scenarios/one_cell.yaml"),
    )
    .unwrap();
    let o = arbiter_in(&dir, &["validate", "rs"]);
    assert_eq!(o.status.code(), Some(1), "{test} validates");
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn a_phase_without_actions_and_an_empty_discriminator_are_refused() {
    let err = validate_fixture_with("no_actions", "      actions: [claim]", "      actions: []");
    assert!(err.contains("schema::min_items"), "{err}");
    let err = validate_fixture_with(
        "empty_discriminator",
        "state:\n",
        "wire: {discriminator: \"\"}\n\nstate:\n",
    );
    assert!(err.contains("schema::min_length"), "{err}");
}

#[test]
fn recruits_never_take_a_living_units_id() {
    let dir = scratch("silent_mistakes", "unit_ids");
    let scenario =
        fs::read_to_string(root().join("scenarios/war_of_attrition/arena_21x9.yaml")).unwrap();
    let line = "  - {id: A-2, type: infantry, owner: A, at: H2}";
    assert!(scenario.contains(line));
    fs::write(
        dir.join("gaps.yaml"),
        scenario.replace(line, "  - {id: A-7, type: infantry, owner: A, at: H2}"),
    )
    .unwrap();
    fs::write(
        dir.join("script.yaml"),
        "ruleset: war_of_attrition\nscenario: gaps.yaml\nset: {state.player.gold.initial: 100}\nsubmissions:\n  - {player: A, actions: [{action: move, unitId: A-1, to: C3}, {action: recruit, unitType: infantry, at: B2}]}\n",
    )
    .unwrap();
    let rulesets = root()
        .join("rulesets/war_of_attrition")
        .display()
        .to_string();
    let script = fs::read_to_string(dir.join("script.yaml")).unwrap();
    fs::write(
        dir.join("script.yaml"),
        script.replace("ruleset: war_of_attrition", &format!("ruleset: {rulesets}")),
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
    let units = r["state"]["units"].as_object().unwrap();
    assert_eq!(
        units["A-7"]["at"], "H2",
        "the scenario's A-7 stays where it was"
    );
    assert_eq!(
        units["A-8"]["at"], "B2",
        "the recruit takes the next free id"
    );
}

#[test]
fn a_core_tag_on_text_of_another_type_is_reported_not_dropped() {
    let dir = scratch("silent_mistakes", "tags");
    for (name, text) in [
        ("key", "ruleset: asg\n!!int abc: 1\nsubmissions: []\n"),
        (
            "flow",
            "ruleset: asg\nseed: 1\nsubmissions: [!!bool maybe]\n",
        ),
        ("value", "ruleset: asg\nseed: !!float x1\nsubmissions: []\n"),
    ] {
        fs::write(dir.join(format!("{name}.yaml")), text).unwrap();
        let o = arbiter_in(&dir, &["run", &format!("{name}.yaml")]);
        let err = String::from_utf8_lossy(&o.stderr).into_owned();
        assert_eq!(o.status.code(), Some(1), "{name}: {err}");
        assert!(
            err.contains("yaml::tag") && err.contains("is not of the tag's type"),
            "{name}: {err}"
        );
    }
}

#[test]
fn unit_id_patterns_must_number_each_unit() {
    let canonical = root().join("rulesets/war_of_attrition");
    let text = fs::read_to_string(canonical.join("ruleset.yaml")).unwrap();
    let line = "  ids: \"{owner}-{n}\"";
    assert!(text.contains(line));
    for (name, pattern) in [
        ("fixed", "X"),
        ("empty", ""),
        ("unknown", "{bogus}-{n}"),
        ("no_n", "{owner}"),
    ] {
        let dir = scratch("silent_mistakes", &format!("unit_ids_{name}"));
        fs::write(
            dir.join("ruleset.yaml"),
            text.replace(line, &format!("  ids: \"{pattern}\"")),
        )
        .unwrap();
        fs::copy(canonical.join("combat.rhai"), dir.join("combat.rhai")).unwrap();
        let scenario = root().join("scenarios/war_of_attrition/arena_21x9.yaml");
        let o = arbiter_in(
            &dir,
            &["validate", "ruleset.yaml", &scenario.display().to_string()],
        );
        let err = String::from_utf8_lossy(&o.stderr).into_owned();
        assert_eq!(o.status.code(), Some(1), "{name}: {err}");
        assert!(err.contains("schema::pattern"), "{name}: {err}");
    }
}
