//! `arbiter report` and `simulate --report` without a browser (tests/browser.rs opens a report in
//! Chromium): what simulate's JSON adds for it (lengths, reasons, settings), experiment folders read by
//! the JSON-lines contract of INTERFACE.md section 13 (a hand-written fixture), where pages go, and
//! mistakes in the inputs as clear messages.
mod support;

use std::path::Path;

use serde_json::Value as Json;
use support::{arbiter_in, code, network_references, root, scratch, stderr};

fn simulate_json(dir: &Path, name: &str, extra: &[&str]) -> (std::path::PathBuf, Json) {
    let mut args = vec![
        "simulate",
        "--ruleset",
        "asg",
        "--p1",
        "greedy",
        "--p2",
        "random",
        "--games",
        "30",
        "--format",
        "json",
    ];
    args.extend(extra);
    let o = arbiter_in(&root(), &args);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let path = dir.join(name);
    std::fs::write(&path, &o.stdout).unwrap();
    (path, serde_json::from_slice(&o.stdout).unwrap())
}

fn copy_fixture(dir: &Path) -> std::path::PathBuf {
    let to = dir.join("experiment");
    std::fs::create_dir_all(&to).unwrap();
    std::fs::copy(
        root().join("tests/fixtures/report/experiment/results.jsonl"),
        to.join("results.jsonl"),
    )
    .unwrap();
    to
}

#[test]
fn simulate_json_records_lengths_reasons_and_settings() {
    let dir = scratch("report", "simulate_json");
    let (_, v) = simulate_json(&dir, "s.json", &["--set", "settings.turnCapPlies=8"]);
    assert_eq!(v["ruleset"], "asg");
    assert_eq!(v["scenario"], "scenario_01");
    assert_eq!(
        v["overrides"],
        serde_json::json!({"settings.turnCapPlies": 8})
    );
    assert_eq!(v["settings"]["turnCapPlies"], 8);
    let lengths = v["lengths"].as_array().unwrap();
    let in_lengths: u64 = lengths.iter().map(|p| p[1].as_u64().unwrap()).sum();
    let in_reasons: u64 = v["reasons"]
        .as_object()
        .unwrap()
        .values()
        .map(|n| n.as_u64().unwrap())
        .sum();
    assert_eq!(in_lengths, 30, "every finished game has a length");
    assert_eq!(in_reasons, 30, "and a reason");
    let turns: Vec<i64> = lengths.iter().map(|p| p[0].as_i64().unwrap()).collect();
    assert!(
        turns.windows(2).all(|w| w[0] < w[1]),
        "ascending: {turns:?}"
    );
    let mean = lengths
        .iter()
        .map(|p| p[0].as_f64().unwrap() * p[1].as_f64().unwrap())
        .sum::<f64>()
        / 30.0;
    assert!((mean - v["mean_turns"].as_f64().unwrap()).abs() < 1e-9);
}

#[test]
fn reports_experiment_folders_and_simulate_outputs() {
    let dir = scratch("report", "both");
    let exp = copy_fixture(&dir);
    let (sim, _) = simulate_json(&dir, "sim.json", &[]);
    // A folder alone: the page goes into it.
    let o = arbiter_in(&dir, &["report", "experiment"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let page = std::fs::read_to_string(exp.join("report.html")).expect("DIR/report.html");
    assert_eq!(page.matches("<tr><td>").count(), 12, "one row per cell");
    assert!(page.contains("<h3>hitChance</h3>") && page.contains("<h3>turns</h3>"));
    assert!(
        network_references(&page).is_empty(),
        "{:?}",
        network_references(&page)
    );
    // A file first: beside it.
    let o = arbiter_in(&dir, &["report", "sim.json", "experiment/results.jsonl"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let page = std::fs::read_to_string(sim.with_extension("html")).expect("beside sim.json");
    assert_eq!(page.matches("<tr><td>").count(), 13);
    assert!(page.contains("Balance report: asg"));
    assert!(
        page.contains("hq_captured"),
        "simulate's end reasons are charted"
    );
    // -o somewhere else, deterministic.
    let o = arbiter_in(&dir, &["report", "experiment", "-o", "-"]);
    assert_eq!(code(&o), 0);
    let again = arbiter_in(&dir, &["report", "experiment", "-o", "-"]);
    assert_eq!(o.stdout, again.stdout, "same inputs, same page");
}

#[test]
fn simulate_writes_its_own_report() {
    let dir = scratch("report", "shortcut");
    let page = dir.join("sim.html");
    let (_, _) = simulate_json(&dir, "s.json", &["--report", &page.display().to_string()]);
    let text = std::fs::read_to_string(&page).expect("--report wrote the page");
    assert!(text.contains("greedy vs random"));
    assert_eq!(
        text.matches("<svg class=\"chart\"").count(),
        4,
        "win rates, first seat, lengths, reasons"
    );
    assert!(network_references(&text).is_empty());
}

#[test]
fn mistakes_in_inputs_are_messages() {
    let dir = scratch("report", "mistakes");
    std::fs::create_dir_all(dir.join("empty_dir")).unwrap();
    let o = arbiter_in(&dir, &["report", "empty_dir"]);
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    assert!(
        stderr(&o).contains("holds no results.jsonl"),
        "{}",
        stderr(&o)
    );

    let o = arbiter_in(&dir, &["report", "missing.json"]);
    assert_eq!(code(&o), 2, "{}", stderr(&o));

    std::fs::write(
        dir.join("bad.jsonl"),
        "{\"cell\": {\"p1\": \"a\", \"p2\": \"b\"}, \"games\": 2, \"wins\": {\"P1\": 1, \"P2\": 1}, \"draws\": 0}\n\
         {\"cell\": {}, \"games\": -1, \"wins\": {}, \"draws\": 0}\n",
    )
    .unwrap();
    let o = arbiter_in(&dir, &["report", "bad.jsonl"]);
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    assert!(
        stderr(&o).contains("bad.jsonl:2: `games` is not a whole number"),
        "{}",
        stderr(&o)
    );

    std::fs::write(dir.join("other.json"), "{\"hello\": 1}").unwrap();
    let o = arbiter_in(&dir, &["report", "other.json"]);
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    assert!(
        stderr(&o).contains("not `simulate --format json` output"),
        "{}",
        stderr(&o)
    );

    let o = arbiter_in(&dir, &["report"]);
    assert_eq!(code(&o), 2, "an input is required");
}

/// The real thing: `arbiter experiment run` writes a folder, `arbiter report` charts it (its sweep, and
/// the ruleset named by the folder's manifest).
#[test]
fn reports_what_experiment_run_writes() {
    let dir = scratch("report", "experiment_run");
    std::fs::write(
        dir.join("sweep.toml"),
        "ruleset = \"asg\"\ngames = 20\nseed = 3\nagents = [[\"greedy\", \"random\"], [\"random\", \"greedy\"]]\n\
         [grid]\n\"settings.turnCapPlies\" = [4, 40]\n",
    )
    .unwrap();
    let mut c = support::command(&root());
    let o = c
        .args([
            "experiment",
            "run",
            &dir.join("sweep.toml").display().to_string(),
            "--out",
            &dir.join("out").display().to_string(),
        ])
        .output()
        .unwrap();
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let o = arbiter_in(&dir, &["report", "out"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let page = std::fs::read_to_string(dir.join("out/report.html")).unwrap();
    assert!(
        page.contains("Balance report: asg"),
        "the manifest names the ruleset"
    );
    assert_eq!(page.matches("<tr><td>").count(), 4, "2 values x 2 seatings");
    assert!(
        page.contains("<h3>turnCapPlies</h3>"),
        "the sweep is charted"
    );
    assert!(
        !page.contains("None of these inputs records game lengths")
            && !page.contains("None of these inputs records how games ended"),
        "an experiment's results carry lengths and end reasons"
    );
    assert!(page.contains("hq_captured") || page.contains("turn_cap"));
}
