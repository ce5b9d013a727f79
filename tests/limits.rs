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

// ---------------------------------------------------------------------------------------------------
// Size limits: files, cells, units, match length (src/limits.rs).

/// A two-player game on a square grid numbered on both axes (so it may be wider than 26 columns), with a
/// `pawn` unit type, a `claim` action on empty cells, a `spawn` action that creates a pawn, and a
/// `settings.turns` limit; written as `rulesets/grid` in `dir` with the scenario `big` given.
fn grid_game(dir: &Path, scenario_tail: &str) {
    let rs = dir.join("rulesets/grid");
    fs::create_dir_all(rs.join("scenarios")).unwrap();
    fs::write(
        rs.join("ruleset.yaml"),
        r#"id: grid
version: "1.0.0"
title: A big grid (limits)
players: [P1, P2]
default_scenario: big
settings:
  turns: 4
board:
  topology: square
  ids: {first: col, rows: numbers, cols: numbers}
tables:
  kinds:
    rows:
      pawn: {}
units:
  table: kinds
state:
  turn: 0
actions:
  claim:
    description: Take an unowned cell.
    params:
      at:
        type: cell
        invalid: unknown_cell
        require:
          - {when: "at.owner == none", reason: cell_taken}
    effects:
      - set: {at.owner: me}
  spawn:
    description: Put a pawn on an empty cell.
    params:
      at:
        type: cell
        invalid: unknown_cell
        require:
          - {when: "at.unit == none", reason: occupied}
    effects:
      - create_unit: {type: "'pawn'", owner: me, at: at}
flow:
  phases:
    - name: main
      order: alternating
      submission: single
      actions: [claim, spawn]
victory:
  - kind: limit
    when: "turn >= settings.turns"
    reason: cells
    rank: ["count(cells where owner == me)"]
"#,
    )
    .unwrap();
    fs::write(
        rs.join("scenarios/big.yaml"),
        format!("ruleset: grid\nid: big\ntitle: Big\nfirst_player: P1\n{scenario_tail}"),
    )
    .unwrap();
}

/// `validate --format json` in `dir`: the exit code and the diagnostics.
fn validate_json(dir: &Path, what: &str) -> (Option<i32>, Vec<Value>) {
    let o = arbiter_in(dir, &["validate", what, "--format", "json"]);
    let v: Value = serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}", stderr(&o)));
    (o.status.code(), v.as_array().cloned().unwrap_or_default())
}

#[test]
fn files_over_16_mib_are_refused_unread() {
    let dir = scratch("limits", "file_size");
    let limit = arbiter::limits::MAX_FILE_BYTES;
    // One byte over, and a sparse file of 4 GiB that would exhaust memory if it were read.
    let over = dir.join("over.yaml");
    fs::write(&over, vec![b'#'; limit as usize + 1]).unwrap();
    let sparse = dir.join("sparse.json");
    fs::File::create(&sparse).unwrap().set_len(4 << 30).unwrap();
    for (file, size) in [("over.yaml", limit + 1), ("sparse.json", 4 << 30)] {
        for args in [
            vec!["validate", file],
            vec!["run", file],
            vec!["replay", "verify", file],
            vec!["conformance", "."],
        ] {
            let started = std::time::Instant::now();
            let o = arbiter_in(&dir, &args);
            let err = stderr(&o);
            if args[0] == "conformance" {
                // A folder of cases reports an oversized case as a failed one.
                assert_eq!(o.status.code(), Some(1), "{args:?}: {err}");
                let out = support::stdout(&o);
                assert!(
                    out.contains(&format!("{file} is too large to read")),
                    "{out}"
                );
                continue;
            }
            assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
            assert!(
                err.contains("io::too_large") && err.contains(&format!("this one is {size} bytes")),
                "{args:?}: {err}"
            );
            assert!(err.contains("docs/limits.md"), "a hint: {err}");
            assert!(started.elapsed().as_secs() < 10, "{args:?} read the file");
        }
    }
    let (code, diags) = validate_json(&dir, "sparse.json");
    assert_eq!(code, Some(2));
    assert_eq!(diags[0]["code"], "io::too_large");
    assert_eq!(
        (diags[0]["line"].as_u64(), diags[0]["column"].as_u64()),
        (Some(1), Some(1))
    );
    // A file that reports no size is stopped one byte past the limit while it is read.
    if Path::new("/dev/zero").exists() {
        let o = arbiter_in(&dir, &["validate", "/dev/zero"]);
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert!(stderr(&o).contains("io::too_large"), "{}", stderr(&o));
    }
    // So is an oversized arbiter.toml.
    let toml = scratch("limits", "big_toml");
    fs::File::create(toml.join("arbiter.toml"))
        .unwrap()
        .set_len(limit + 1)
        .unwrap();
    let o = arbiter_in(&toml, &["validate"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("config::too_large"), "{}", stderr(&o));
    // A file of exactly the limit is read: a valid match script padded with a comment.
    let script = "ruleset: asg\nsubmissions: []\n";
    let padded = format!(
        "#{}\n{script}",
        " ".repeat(limit as usize - script.len() - 2)
    );
    assert_eq!(padded.len() as u64, limit);
    fs::write(dir.join("at_limit.yaml"), padded).unwrap();
    let o = arbiter_in(
        &root(),
        &["validate", &dir.join("at_limit.yaml").display().to_string()],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

#[test]
fn boards_over_65536_cells_are_a_diagnostic_and_the_largest_board_plays_and_verifies() {
    let max = arbiter::limits::MAX_CELLS;
    let dir = scratch("limits", "cells");
    // 8 columns (numbers 1-8 cannot run into each other) by enough rows for one cell too many.
    let rows = max / 8 + 1;
    grid_game(&dir, &format!("board:\n  width: 8\n  height: {rows}\n"));
    let (code, diags) = validate_json(&dir, "rulesets/grid");
    assert_eq!(code, Some(1), "{diags:?}");
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert_eq!(diags[0]["code"], "scenario::too_many_cells");
    assert!(diags[0]["file"].as_str().unwrap().ends_with("big.yaml"));
    assert_eq!(diags[0]["line"], 5, "at `board:`");
    let o = arbiter_in(&dir, &["validate", "rulesets/grid"]);
    assert!(stderr(&o).contains("at most 65536 cells"), "{}", stderr(&o));
    // A graph of one node too many as well.
    let nodes: String = (0..=max).map(|i| format!("    - {{id: n{i}}}\n")).collect();
    let graph = scratch("limits", "cells_graph");
    fs::create_dir_all(graph.join("rulesets/g/scenarios")).unwrap();
    fs::write(
        graph.join("rulesets/g/ruleset.yaml"),
        fs::read_to_string(dir.join("rulesets/grid/ruleset.yaml"))
            .unwrap()
            .replace("id: grid", "id: g")
            .replace(
                "  topology: square\n  ids: {first: col, rows: numbers, cols: numbers}",
                "  topology: graph",
            ),
    )
    .unwrap();
    fs::write(
        graph.join("rulesets/g/scenarios/big.yaml"),
        format!("ruleset: g\nid: big\ntitle: Big\nfirst_player: P1\nboard:\n  nodes:\n{nodes}"),
    )
    .unwrap();
    let (code, diags) = validate_json(&graph, "rulesets/g");
    assert_eq!(code, Some(1), "{diags:?}");
    assert_eq!(diags[0]["code"], "scenario::too_many_cells", "{diags:?}");
    // The largest board validates, plays, and its replay (every cell in the final state) verifies.
    grid_game(
        &dir,
        &format!("board:\n  width: 8\n  height: {}\n", max / 8),
    );
    let (code, diags) = validate_json(&dir, "rulesets/grid");
    assert_eq!(code, Some(0), "{diags:?}");
    let args = [
        "match",
        "--ruleset",
        "grid",
        "--p1",
        "random",
        "--p2",
        "random",
    ];
    let o = arbiter_in(&dir, &[&args[..], &["--out", "replay.json"]].concat());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let size = fs::metadata(dir.join("replay.json")).unwrap().len();
    assert!(
        size < arbiter::limits::MAX_FILE_BYTES / 2,
        "replay of {size} bytes"
    );
    let o = arbiter_in(&dir, &["replay", "verify", "replay.json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

#[test]
fn units_over_the_limit_are_a_diagnostic_or_a_run_error() {
    let max = arbiter::limits::MAX_UNITS;
    let dir = scratch("limits", "units");
    // 8 columns, enough rows for every unit plus a few empty cells.
    let rows = max / 8 + 2;
    let units = |n: usize| -> String {
        (0..n)
            .map(|i| {
                let (col, row) = (i % 8 + 1, i / 8 + 1);
                format!("  - {{id: u{i}, type: pawn, owner: P1, at: \"{col}{row}\"}}\n")
            })
            .collect()
    };
    let board = format!("board:\n  width: 8\n  height: {rows}\n");
    grid_game(&dir, &format!("{board}units:\n{}", units(max + 1)));
    let (code, diags) = validate_json(&dir, "rulesets/grid");
    assert_eq!(code, Some(1), "{diags:?}");
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert_eq!(diags[0]["code"], "scenario::too_many_units");
    assert_eq!(diags[0]["line"], 8, "at `units:`");
    // Exactly the limit validates; creating one more unit in play is a run error, not an abort.
    grid_game(&dir, &format!("{board}units:\n{}", units(max)));
    let (code, diags) = validate_json(&dir, "rulesets/grid");
    assert_eq!(code, Some(0), "{diags:?}");
    fs::write(
        dir.join("script.yaml"),
        format!(
            "ruleset: grid\nsubmissions:\n  - {{player: P1, actions: [{{type: spawn, at: \"8{rows}\"}}]}}\n"
        ),
    )
    .unwrap();
    let o = arbiter_in(&dir, &["run", "script.yaml"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("match::run_error")
            && stderr(&o).contains(&format!("already holds {max} units")),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_match_that_never_ends_stops_after_the_longest_match_an_agent_plays() {
    let dir = scratch("limits", "endless");
    grid_game(&dir, "board:\n  width: 2\n  height: 1\n");
    // Claiming is only possible twice; then both players pass forever (when_stuck: pass) and the turn
    // limit is far away.
    let o = arbiter_in(
        &dir,
        &[
            "match",
            "--ruleset",
            "grid",
            "--p1",
            "random",
            "--p2",
            "random",
            "--set",
            "settings.turns=1000000000",
        ],
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains(&format!(
            "no result after {} submissions",
            arbiter::limits::MAX_SUBMISSIONS
        )),
        "{}",
        stderr(&o)
    );
}
