//! `arbiter experiment`: a cell equals `simulate` with the same inputs, shards merge into exactly the
//! unsharded bytes, merges of mismatched, overlapping or incomplete shards are refused, reruns resume
//! without writing anything twice, a killed run leaves only whole files, and mistakes in the experiment
//! file point at its line with nothing run. Real binary, real files.
mod support;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::Value;
use support::{arbiter_in, code, command, scratch, stderr, stdout};

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).expect("write");
    p
}

fn run(dir: &Path, args: &[&str]) -> std::process::Output {
    arbiter_in(dir, args)
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn lines(p: &Path) -> Vec<Value> {
    read(p)
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

/// A small sweep over a fast game: 2 hit chances x 2 seatings, short games.
const SWEEP: &str = r#"ruleset = "strategic_influence"
games = 40
seed = 7
agents = [["greedy", "random"], ["random", "random"]]
[grid]
"settings.hitChance" = [0.4, 0.6]
"settings.turns" = [4]
"#;

#[test]
fn a_cell_equals_simulate_with_the_same_inputs() {
    let dir = scratch("experiments", "equals_simulate");
    write(&dir, "e.toml", SWEEP);
    let o = run(
        &dir,
        &["experiment", "run", "e.toml", "--out", "out", "--jobs", "2"],
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let results = lines(&dir.join("out/results.jsonl"));
    assert_eq!(results.len(), 4);
    for line in &results {
        let cell = &line["cell"];
        let set_hit = format!("settings.hitChance={}", cell["settings.hitChance"]);
        let set_turns = format!("settings.turns={}", cell["settings.turns"]);
        let o = run(
            &dir,
            &[
                "simulate",
                "--ruleset",
                "strategic_influence",
                "--p1",
                cell["p1"].as_str().unwrap(),
                "--p2",
                cell["p2"].as_str().unwrap(),
                "--games",
                "40",
                "--seed",
                "7",
                "--jobs",
                "1",
                "--set",
                &set_hit,
                "--set",
                &set_turns,
                "--format",
                "json",
            ],
        );
        assert_eq!(code(&o), 0, "{}", stderr(&o));
        let sim: Value = serde_json::from_slice(&o.stdout).expect("JSON");
        assert_eq!(line["games"], sim["games"], "{cell}");
        assert_eq!(line["wins"], sim["wins"], "{cell}");
        assert_eq!(line["draws"], sim["draws"], "{cell}");
        assert_eq!(line["mean_turns"], sim["mean_turns"], "{cell}");
        assert_eq!(line["mean_plies"], sim["mean_plies"], "{cell}");
        assert_eq!(line["lengths"], sim["lengths"], "{cell}");
        assert_eq!(line["reasons"], sim["reasons"], "{cell}");
        for p in ["P1", "P2"] {
            let ours = &line["win_rate"][p];
            let theirs = &sim["intervals95"][p];
            assert_eq!(ours[0], theirs[0], "{cell} {p}");
            assert_eq!(ours[2], theirs[1], "{cell} {p}");
        }
    }
    // The cells are in grid order with the seatings innermost, and the CSV says the same.
    assert_eq!(results[1]["cell"]["p1"], "random");
    assert_eq!(results[2]["cell"]["settings.hitChance"], 0.6);
    let csv = read(&dir.join("out/results.csv"));
    assert_eq!(csv.lines().count(), 5);
    assert!(csv
        .starts_with("index,settings.hitChance,settings.turns,p1,p2,games,wins_P1,wins_P2,draws,"));
}

#[test]
fn shards_merge_into_exactly_the_unsharded_results() {
    let dir = scratch("experiments", "shards_merge");
    write(&dir, "e.toml", SWEEP);
    let whole = run(&dir, &["experiment", "run", "e.toml", "--out", "whole"]);
    assert_eq!(code(&whole), 0, "{}", stderr(&whole));
    for shard in ["1/3", "2/3", "3/3", "1/2", "3/4", "4/4"] {
        let out = format!("s{}", shard.replace('/', "of"));
        let o = run(
            &dir,
            &[
                "experiment",
                "run",
                "e.toml",
                "--shard",
                shard,
                "--out",
                &out,
            ],
        );
        assert_eq!(code(&o), 0, "{}", stderr(&o));
        assert!(
            stdout(&o).contains(&format!("shard {shard} finished")),
            "{}",
            stdout(&o)
        );
        assert!(
            !dir.join(&out).join("results.jsonl").exists(),
            "a shard alone has no results"
        );
    }
    // Three thirds, and a half with its other half split in two, both give the unsharded bytes.
    for (inputs, out) in [
        (vec!["s1of3", "s2of3", "s3of3"], "m3"),
        (vec!["s4of4", "s1of2", "s3of4"], "m24"),
    ] {
        let mut args = vec!["experiment", "merge"];
        args.extend(&inputs);
        args.extend(["--out", out]);
        let o = run(&dir, &args);
        assert_eq!(code(&o), 0, "{}", stderr(&o));
        for f in ["results.jsonl", "results.csv"] {
            assert_eq!(
                read(&dir.join(out).join(f)),
                read(&dir.join("whole").join(f)),
                "{out}/{f}"
            );
        }
        // A merged directory is a finished run: running the experiment into it plays nothing.
        let o = run(&dir, &["experiment", "run", "e.toml", "--out", out]);
        assert_eq!(code(&o), 0, "{}", stderr(&o));
        assert!(stdout(&o).contains("0 games played"), "{}", stdout(&o));
        assert!(stdout(&o).contains("already complete"), "{}", stdout(&o));
    }
}

#[test]
fn merges_of_mismatched_overlapping_or_incomplete_shards_are_refused() {
    let dir = scratch("experiments", "merge_refusals");
    write(&dir, "e.toml", SWEEP);
    write(&dir, "other.toml", &SWEEP.replace("seed = 7", "seed = 8"));
    for (file, shard, out) in [
        ("e.toml", "1/3", "a1"),
        ("e.toml", "2/3", "a2"),
        ("e.toml", "3/3", "a3"),
        ("e.toml", "1/2", "h1"),
        ("other.toml", "2/3", "b2"),
    ] {
        let o = run(
            &dir,
            &["experiment", "run", file, "--shard", shard, "--out", out],
        );
        assert_eq!(code(&o), 0, "{}", stderr(&o));
    }
    let refused = |inputs: &[&str], expect: &[&str]| {
        let mut args = vec!["experiment", "merge"];
        args.extend(inputs);
        args.extend(["--out", "m"]);
        let o = run(&dir, &args);
        assert_eq!(code(&o), 1, "{inputs:?}: {}", stderr(&o));
        for e in expect {
            assert!(
                stderr(&o).contains(e),
                "{inputs:?}: `{e}` not in {}",
                stderr(&o)
            );
        }
        assert!(!dir.join("m").exists(), "nothing written");
    };
    refused(
        &["a1", "b2", "a3"],
        &["merge::different_experiments", "seed 8 instead of 7"],
    );
    refused(
        &["a1", "a2", "a3", "h1"],
        &["merge::overlap", "h1 (shard 1/2)"],
    );
    refused(
        &["a1", "a3"],
        &["merge::incomplete", "shard 2/3 is missing"],
    );
    refused(&["a1", "a2", "a3", "a2"], &["merge::overlap"]);
    refused(&["a1", "nowhere", "a3"], &["merge::not_results", "nowhere"]);
    // A shard that stopped half way is named, with the command that finishes it.
    let part = std::fs::read_dir(dir.join("a2/parts"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    std::fs::remove_file(part).unwrap();
    refused(
        &["a1", "a2", "a3"],
        &["merge::unfinished", "--shard 2/3 --out a2"],
    );
    let o = run(
        &dir,
        &[
            "experiment",
            "run",
            "e.toml",
            "--shard",
            "2/3",
            "--out",
            "a2",
        ],
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let o = run(
        &dir,
        &["experiment", "merge", "a1", "a2", "a3", "--out", "m"],
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    // Merging again into the same place finds the same results there and writes nothing.
    let o = run(
        &dir,
        &["experiment", "merge", "a1", "a2", "a3", "--out", "m"],
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(stdout(&o).contains("already merged"), "{}", stdout(&o));
    let o = run(
        &dir,
        &["experiment", "merge", "a1", "a2", "a3", "--out", "a1"],
    );
    assert_eq!(code(&o), 2, "{}", stderr(&o));
}

/// Modification times of every file under `dir`, by path.
fn stamps(dir: &Path) -> Vec<(PathBuf, std::time::SystemTime)> {
    let mut out = Vec::new();
    for sub in [dir.to_path_buf(), dir.join("parts")] {
        for e in std::fs::read_dir(&sub).unwrap().flatten() {
            if e.path().is_file() {
                out.push((e.path(), e.metadata().unwrap().modified().unwrap()));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn a_rerun_skips_finished_work_and_writes_nothing_twice() {
    let dir = scratch("experiments", "resume");
    write(&dir, "e.toml", SWEEP);
    let o = run(&dir, &["experiment", "run", "e.toml", "--out", "out"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let first_jsonl = read(&dir.join("out/results.jsonl"));
    let before = stamps(&dir.join("out"));
    std::thread::sleep(Duration::from_millis(20));
    // A finished directory: nothing is played or written.
    let o = run(&dir, &["experiment", "run", "e.toml", "--out", "out"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(stdout(&o).contains("0 games played"), "{}", stdout(&o));
    assert_eq!(stamps(&dir.join("out")), before);
    // Two cells lost: only their games are played again, the other parts are left as they were.
    let parts: Vec<PathBuf> = before
        .iter()
        .map(|(p, _)| p.clone())
        .filter(|p| p.starts_with(dir.join("out/parts")))
        .collect();
    assert_eq!(parts.len(), 4);
    std::fs::remove_file(&parts[0]).unwrap();
    std::fs::remove_file(&parts[3]).unwrap();
    std::fs::remove_file(dir.join("out/results.jsonl")).unwrap();
    let o = run(&dir, &["experiment", "run", "e.toml", "--out", "out"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(stdout(&o).contains("80 games played"), "{}", stdout(&o));
    assert!(
        stdout(&o).contains("80 done by an earlier run"),
        "{}",
        stdout(&o)
    );
    let after = stamps(&dir.join("out"));
    for kept in [&parts[1], &parts[2]] {
        let stamp = |s: &[(PathBuf, std::time::SystemTime)]| {
            s.iter().find(|(p, _)| p == kept).map(|(_, t)| *t)
        };
        assert_eq!(
            stamp(&after),
            stamp(&before),
            "{} rewritten",
            kept.display()
        );
    }
    assert_eq!(read(&dir.join("out/results.jsonl")), first_jsonl);
}

#[test]
fn a_directory_of_another_experiment_or_shard_is_refused() {
    let dir = scratch("experiments", "conflicts");
    write(&dir, "e.toml", SWEEP);
    write(
        &dir,
        "other.toml",
        &SWEEP.replace("games = 40", "games = 41"),
    );
    let o = run(
        &dir,
        &[
            "experiment",
            "run",
            "e.toml",
            "--out",
            "out",
            "--shard",
            "1/2",
        ],
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let o = run(
        &dir,
        &[
            "experiment",
            "run",
            "other.toml",
            "--out",
            "out",
            "--shard",
            "1/2",
        ],
    );
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("another experiment"), "{}", stderr(&o));
    let o = run(&dir, &["experiment", "run", "e.toml", "--out", "out"]);
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("holds shard 1/2"), "{}", stderr(&o));
    std::fs::create_dir_all(dir.join("busy")).unwrap();
    write(&dir.join("busy"), "notes.txt", "mine");
    let o = run(&dir, &["experiment", "run", "e.toml", "--out", "busy"]);
    assert_eq!(code(&o), 2);
    assert!(
        stderr(&o).contains("not an experiment's results directory"),
        "{}",
        stderr(&o)
    );
    for bad in ["0/2", "3/2", "x"] {
        let o = run(&dir, &["experiment", "run", "e.toml", "--shard", bad]);
        assert_eq!(code(&o), 2, "{bad}");
    }
    // Without --out, the results go next to where the command runs, named after the file.
    let o = run(&dir, &["experiment", "run", "e.toml", "--shard", "2/2"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(dir.join("e.shard-2-of-2/manifest.json").is_file());
}

#[test]
fn a_killed_run_leaves_whole_files_and_finishes_on_rerun() {
    let dir = scratch("experiments", "killed");
    // Random games are quick; two cells of two chunks each give a run that can be stopped part way.
    let text = "ruleset = \"strategic_influence\"\ngames = 8500\nseed = 3\nagents = [[\"random\", \"random\"]]\n[grid]\n\"settings.turns\" = [3, 4]\n";
    write(&dir, "e.toml", text);
    let mut child = command(&dir)
        .args(["experiment", "run", "e.toml", "--out", "out", "--jobs", "2"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("starts");
    let parts = dir.join("out/parts");
    let deadline = Instant::now() + Duration::from_secs(120);
    while Instant::now() < deadline {
        let n = std::fs::read_dir(&parts)
            .map(|d| {
                d.flatten()
                    .filter(|e| !e.file_name().to_string_lossy().starts_with('.'))
                    .count()
            })
            .unwrap_or(0);
        if n >= 1 || child.try_wait().unwrap().is_some() {
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let _ = child.kill();
    let _ = child.wait();
    // Every file under its own name is whole (only temporaries, starting with a dot, may be cut short).
    for sub in ["out", "out/parts"] {
        for e in std::fs::read_dir(dir.join(sub)).unwrap().flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if e.path().is_file() && !name.starts_with('.') && name.ends_with(".json") {
                let _: Value = serde_json::from_str(&read(&e.path()))
                    .unwrap_or_else(|err| panic!("{name} is cut short: {err}"));
            }
        }
    }
    let o = run(&dir, &["experiment", "run", "e.toml", "--out", "out"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let leftovers: Vec<String> = std::fs::read_dir(&parts)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('.'))
        .collect();
    assert!(leftovers.is_empty(), "temporaries left: {leftovers:?}");
    let o = run(&dir, &["experiment", "run", "e.toml", "--out", "fresh"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    for f in ["results.jsonl", "results.csv"] {
        assert_eq!(
            read(&dir.join("out").join(f)),
            read(&dir.join("fresh").join(f)),
            "{f}"
        );
    }
}

#[test]
fn a_second_run_into_a_busy_directory_is_refused() {
    let dir = scratch("experiments", "busy");
    // Far more games than the test waits for: the first run is still writing when the second starts.
    let text = "ruleset = \"strategic_influence\"\ngames = 1000000000\nseed = 3\nagents = [[\"random\", \"random\"]]\n";
    write(&dir, "e.toml", text);
    let mut child = command(&dir)
        .args(["experiment", "run", "e.toml", "--out", "out", "--jobs", "1"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("starts");
    // The lock is taken before the manifest is written.
    let deadline = Instant::now() + Duration::from_secs(120);
    while !dir.join("out/manifest.json").is_file() && Instant::now() < deadline {
        assert!(
            child.try_wait().unwrap().is_none(),
            "the first run ended early"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    // Without the lock the second run would join in for a billion games: it is stopped if it does.
    let mut second = command(&dir)
        .args(["experiment", "run", "e.toml", "--out", "out"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("starts");
    let deadline = Instant::now() + Duration::from_secs(60);
    while second.try_wait().unwrap().is_none() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(5));
    }
    let refused_in_time = second.try_wait().unwrap().is_some();
    let _ = second.kill();
    let o = second.wait_with_output().unwrap();
    let still_running = child.try_wait().unwrap().is_none();
    let _ = child.kill();
    let _ = child.wait();
    assert!(refused_in_time, "the second run was not refused: it ran");
    assert!(still_running, "the first run was still writing");
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    assert!(
        stderr(&o).contains("another `arbiter experiment run` is writing into"),
        "{}",
        stderr(&o)
    );
}

/// Runs an experiment that should be refused; returns stderr.
fn refused(dir: &Path, text: &str) -> String {
    write(dir, "bad.toml", text);
    let o = run(dir, &["experiment", "run", "bad.toml", "--out", "never"]);
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    assert!(!dir.join("never").exists(), "nothing runs");
    stderr(&o)
}

#[test]
fn mistakes_point_at_the_experiment_file_and_nothing_runs() {
    let dir = scratch("experiments", "mistakes");
    let err = refused(&dir, &SWEEP.replace("[0.4, 0.6]", "[0.4, 7]"));
    assert!(err.contains("experiment::bad_override"), "{err}");
    assert!(err.contains("bad.toml:6:30"), "{err}");
    assert!(err.contains("settings.hitChance = 7"), "{err}");
    let err = refused(
        &dir,
        &SWEEP.replace("\"settings.hitChance\"", "\"settings.hitChanse\""),
    );
    assert!(
        err.contains("experiment::bad_override") && err.contains("bad.toml:6:1"),
        "{err}"
    );
    assert!(err.contains("settings.hitChance"), "did-you-mean: {err}");
    let err = refused(
        &dir,
        &SWEEP.replace("[\"random\", \"random\"]", "[\"random\", \"greedyy\"]"),
    );
    assert!(
        err.contains("experiment::bad_agent") && err.contains("bad.toml:4:44"),
        "{err}"
    );
    let err = refused(
        &dir,
        &SWEEP.replace("[\"random\", \"random\"]", "[\"random\"]"),
    );
    assert!(
        err.contains("experiment::seats") && err.contains("bad.toml:4:33"),
        "{err}"
    );
    let err = refused(&dir, &SWEEP.replace("games = 40", "games = \"40\""));
    assert!(
        err.contains("experiment::type") && err.contains("bad.toml:2:9"),
        "{err}"
    );
    // A ruleset that cannot be found is an unreadable file, as for --ruleset (exit 2).
    write(
        &dir,
        "bad.toml",
        &SWEEP.replace("strategic_influence", "no_such_game"),
    );
    let o = run(&dir, &["experiment", "run", "bad.toml", "--out", "never"]);
    assert_eq!(code(&o), 2);
    assert!(
        stderr(&o).contains("experiment::ruleset") && stderr(&o).contains("bad.toml:1:11"),
        "{}",
        stderr(&o)
    );
    assert!(!dir.join("never").exists(), "nothing runs");
    let err = refused(&dir, &format!("seeds = 1\n{SWEEP}"));
    assert!(
        err.contains("experiment::unknown_key") && err.contains("did you mean `seed`"),
        "{err}"
    );
    // A combination the ruleset refuses, though each value alone is fine, points at the cell.
    let err = refused(
        &dir,
        "ruleset = \"strategic_influence\"\ngames = 2\nagents = [[\"random\", \"random\"]]\ncells = [\n  { \"settings.turns\" = 3 },\n  { \"settings.stonesPerPlacement\" = 5, \"settings.maxStones\" = 4 },\n]\n",
    );
    assert!(
        err.contains("experiment::bad_cell") && err.contains("bad.toml:6:3"),
        "{err}"
    );
    let o = run(&dir, &["experiment", "run", "missing.toml"]);
    assert_eq!(code(&o), 2);
}

#[test]
fn the_example_experiments_are_valid() {
    let examples = support::root().join("examples/experiments");
    let mut checked = 0;
    for e in std::fs::read_dir(&examples).unwrap().flatten() {
        let path = e.path();
        let o = run(
            &support::root(),
            &["experiment", "run", path.to_str().unwrap(), "--check"],
        );
        assert_eq!(code(&o), 0, "{}: {}", path.display(), stderr(&o));
        assert!(
            stdout(&o).contains("experiment digest sha256:"),
            "{}",
            stdout(&o)
        );
        checked += 1;
    }
    assert!(checked >= 2);
}
