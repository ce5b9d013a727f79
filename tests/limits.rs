//! Input of extreme size or shape ends in a diagnostic or a clear error, quickly and in bounded memory,
//! never in a panic, an abort or a hang (docs/limits.md lists the limits): a diagnostic far along a
//! one-line file, thousands of diagnostics, operator chains far deeper than the nesting limit, and
//! `simulate --games` beyond what can be counted.
mod support;
use std::fs;
use std::path::Path;
use support::{arbiter_in, root, scratch, stderr};

use serde_json::Value;

#[test]
fn a_diagnostic_far_along_a_one_line_file_is_quoted_from_a_window() {
    let dir = scratch("limits", "long_line");
    for pad in [70_000, 200_000, 2_000_000] {
        let text = format!(
            "{{\"ruleset\": \"asg\", \"submissions\": [], \"seed\": 1, \"set\": {{\"settings.turnCapPlies\": \"{}\"}}, \"bogus\": 1}}\n",
            "a".repeat(pad)
        );
        fs::write(dir.join("script.yaml"), &text).unwrap();
        let o = arbiter_in(&dir, &["run", "script.yaml"]);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{}", &err[..err.len().min(2000)]);
        assert!(!err.contains("panicked"), "{}", &err[..err.len().min(2000)]);
        let column = text.find("\"bogus\"").unwrap() + 1;
        assert!(
            err.contains(&format!("script.yaml:1:{column}")),
            "the real column is shown: {err}"
        );
        assert!(
            err.len() < 4_000,
            "the line is not echoed: {} bytes",
            err.len()
        );
    }
}

/// A ruleset folder whose scenario has `n` cells with an unknown key each: `n` diagnostics.
fn many_mistakes(dir: &Path, n: usize) {
    let si = root().join("rulesets/strategic_influence/ruleset.yaml");
    fs::create_dir_all(dir.join("rs/scenarios")).unwrap();
    fs::copy(si, dir.join("rs/ruleset.yaml")).unwrap();
    let canonical =
        fs::read_to_string(root().join("scenarios/strategic_influence/standard_5x5.yaml")).unwrap();
    let mut scenario = canonical.clone();
    scenario.push('\n');
    for i in 0..n {
        scenario.push_str(&format!("bogus_{i}: 1\n"));
    }
    fs::write(dir.join("rs/scenarios/standard_5x5.yaml"), scenario).unwrap();
}

#[test]
fn thousands_of_diagnostics_are_capped_in_text_and_json() {
    let dir = scratch("limits", "many");
    many_mistakes(&dir, 10_050);
    let o = arbiter_in(
        &dir,
        &[
            "validate",
            "rs/scenarios/standard_5x5.yaml",
            "--format",
            "json",
        ],
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let items: Value = serde_json::from_slice(&o.stdout).unwrap();
    let items = items.as_array().unwrap();
    assert_eq!(items.len(), 10_001);
    let last = &items[10_000];
    assert_eq!(last["code"], "diagnostic::truncated");
    assert!(
        last["message"].as_str().unwrap().contains("50 more"),
        "{last}"
    );
    // Locations stay exact with the line index: the 10,000th mistake is on its own line.
    let n = items[9_999]["line"].as_u64().unwrap();
    assert!(n > 10_000, "{}", items[9_999]);

    let o = arbiter_in(&dir, &["validate", "rs/scenarios/standard_5x5.yaml"]);
    let err = stderr(&o);
    assert_eq!(err.matches("error[").count(), 100, "text shows 100 reports");
    assert!(
        err.contains("and 9950 more diagnostics not shown"),
        "{}",
        &err[err.len().saturating_sub(500)..]
    );
}

#[test]
fn chains_past_the_nesting_limit_are_a_diagnostic() {
    let dir = scratch("limits", "chains");
    let canonical =
        fs::read_to_string(root().join("rulesets/strategic_influence/ruleset.yaml")).unwrap();
    let line = "      - set: {at.owner: me, at.stones: settings.stonesPerPlacement}";
    assert!(canonical.contains(line));
    for (name, expr) in [
        ("minus", format!("{}1", "-".repeat(100_000))),
        ("sum", vec!["1"; 70_000].join(" + ")),
        (
            "parens",
            format!("{}1{}", "(".repeat(5_000), ")".repeat(5_000)),
        ),
    ] {
        let rs = dir.join(name);
        fs::create_dir_all(&rs).unwrap();
        fs::write(
            rs.join("ruleset.yaml"),
            canonical.replace(
                line,
                &format!("      - set: {{at.owner: me, at.stones: \"{expr}\"}}"),
            ),
        )
        .unwrap();
        let scenario = root().join("scenarios/strategic_influence/standard_5x5.yaml");
        let o = arbiter_in(
            &dir,
            &[
                "validate",
                &rs.display().to_string(),
                &scenario.display().to_string(),
            ],
        );
        let err = stderr(&o);
        assert_eq!(
            o.status.code(),
            Some(1),
            "{name}: {}",
            &err[..err.len().min(2000)]
        );
        assert!(
            err.contains("nested too deeply"),
            "{name}: {}",
            &err[..err.len().min(2000)]
        );
        assert!(
            err.len() < 4_000,
            "{name}: the expression is not echoed whole"
        );
    }
}

#[test]
fn simulate_games_beyond_two_to_the_53_is_a_usage_error() {
    let dir = root();
    for games in ["18446744073709551615", "9007199254740993"] {
        let o = arbiter_in(
            &dir,
            &[
                "simulate",
                "--ruleset",
                "asg",
                "--p1",
                "random",
                "--p2",
                "random",
                "--games",
                games,
            ],
        );
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert!(stderr(&o).contains("2^53"), "{}", stderr(&o));
    }
    // Counts of what went wrong are reported whole even when messages are capped.
    let o = arbiter_in(
        &dir,
        &[
            "simulate",
            "--ruleset",
            "asg",
            "--p1",
            "random",
            "--p2",
            "random",
            "--games",
            "3",
            "--format",
            "json",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["games"], 3);
    assert_eq!(v["error_count"], 0);
}

#[test]
fn huge_ranges_are_counted_not_walked_and_walks_are_bounded() {
    let dir = scratch("limits", "ranges");
    let canonical =
        fs::read_to_string(root().join("rulesets/strategic_influence/ruleset.yaml")).unwrap();
    let event = "      - emit: {type: place, player: me, at: at, stones: at.stones}";
    assert!(canonical.contains(event));
    let scenario = root().join("scenarios/strategic_influence/standard_5x5.yaml");
    for (name, expr, expect) in [
        (
            "count",
            "count(range(1, 9223372036854775807))",
            Ok("\"n\": 9223372036854775807"),
        ),
        ("empty", "count(range(5, 1))", Ok("\"n\": 0")),
        (
            "overflow",
            "count(range(-9223372036854775807 - 1, 9223372036854775807))",
            Err("leaves the 64-bit integer range"),
        ),
        (
            "walk",
            "count(range(1, 9223372036854775807) where it > 5)",
            Err("walked past 1000000 elements"),
        ),
        (
            "top",
            "count(range(9223372036854775800, 9223372036854775807) where it > 5)",
            Ok("\"n\": 8"),
        ),
    ] {
        let rs = dir.join(name);
        fs::create_dir_all(&rs).unwrap();
        let effect = format!("      - let: {{n: \"{expr}\"}}\n      - emit: {{type: place, player: me, at: at, stones: at.stones, n: n}}");
        fs::write(rs.join("ruleset.yaml"), canonical.replace(event, &effect)).unwrap();
        fs::write(
            rs.join("script.yaml"),
            format!(
                "ruleset: ./\nscenario: {}\nsubmissions:\n  - {{player: P1, actions: [{{type: place, at: A1}}]}}\n",
                scenario.display()
            ),
        )
        .unwrap();
        let o = arbiter_in(&rs, &["run", "script.yaml"]);
        let out = String::from_utf8_lossy(&o.stdout);
        match expect {
            Ok(field) => {
                assert_eq!(o.status.code(), Some(0), "{name}: {}", stderr(&o));
                assert!(out.contains(field), "{name}: {field} not in the replay");
            }
            Err(message) => {
                assert_eq!(o.status.code(), Some(1), "{name}");
                assert!(stderr(&o).contains(message), "{name}: {}", stderr(&o));
            }
        }
    }
}

#[test]
fn listing_every_action_of_a_huge_range_is_a_clear_error_and_sampling_still_plays() {
    let dir = scratch("limits", "listing");
    let canonical = fs::read_to_string(root().join("scenarios/asg/scenario_01.yaml")).unwrap();
    assert!(canonical.contains("forces: {P1: 10}}"));
    fs::write(
        dir.join("big.yaml"),
        canonical.replace("forces: {P1: 10}}", "forces: {P1: 100000000}}"),
    )
    .unwrap();
    let asg = root().join("rulesets/asg").display().to_string();
    let play = |p1: &str| {
        arbiter_in(
            &dir,
            &[
                "match",
                "--ruleset",
                &asg,
                "--scenario",
                "big.yaml",
                "--p1",
                p1,
                "--p2",
                "random",
                "--seed",
                "1",
                "--out",
                "replay.json",
            ],
        )
    };
    let o = play("greedy");
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("more than 1000000 legal actions"),
        "{}",
        stderr(&o)
    );
    let o = play("random");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}
