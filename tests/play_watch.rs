//! `arbiter watch`, `arbiter play` and `arbiter tournament` end to end: frames on a pipe, a person's
//! lines through a pipe (and once through a pseudo-terminal), replays that verify, and the tournament's
//! JSON of INTERFACE section 12.
mod support;
use std::io::Write;
use std::process::{Child, Output, Stdio};
use std::time::{Duration, Instant};
use support::{arbiter, code, command, root, scratch, stderr, stdout};

use serde_json::Value;

/// Waits for `child` at most `limit`; kills it and fails past that.
fn wait_bounded(mut child: Child, limit: Duration) -> Output {
    let start = Instant::now();
    loop {
        match child.try_wait().expect("wait") {
            Some(_) => return child.wait_with_output().expect("output"),
            None if start.elapsed() > limit => {
                let _ = child.kill();
                let o = child.wait_with_output().expect("output");
                panic!(
                    "no exit within {limit:?}\nstdout: {}\nstderr: {}",
                    stdout(&o),
                    stderr(&o)
                );
            }
            None => std::thread::sleep(Duration::from_millis(20)),
        }
    }
}

/// Runs `arbiter ARGS` with `input` on stdin (a pipe).
fn with_input(args: &[&str], input: &str) -> Output {
    let mut child = command(&root())
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("write input");
    wait_bounded(child, Duration::from_secs(60))
}

fn verify(path: &str) {
    let o = arbiter(&["replay", "verify", path]);
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
}

#[test]
fn watch_on_a_pipe_prints_plain_frames_then_the_result() {
    let o = arbiter(&[
        "watch",
        "--ruleset",
        "strategic_influence",
        "--p1",
        "greedy",
        "--p2",
        "defensive",
        "--seed",
        "4",
        "--set",
        "settings.turns=3",
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let out = stdout(&o);
    assert!(!out.contains('\x1b'), "escape codes on a pipe");
    assert!(
        out.starts_with("start: P1 (greedy) against P2 (defensive)"),
        "{out}"
    );
    // Setup (2) and three turns of two order submissions each.
    assert_eq!(out.matches("\nstep ").count(), 8, "{out}");
    assert!(
        out.contains("expansion: player") || out.contains("growth: cell"),
        "{out}"
    );
    assert!(out
        .trim_end()
        .lines()
        .last()
        .unwrap()
        .starts_with("result: strategic_influence - turn 3"));
    let bad = arbiter(&[
        "watch",
        "--ruleset",
        "asg",
        "--p1",
        "greedy",
        "--p2",
        "mcts:depth=x",
    ]);
    assert_eq!(code(&bad), 2);
    assert!(
        stderr(&bad).contains("--p2: agent `mcts`"),
        "{}",
        stderr(&bad)
    );
}

#[test]
fn play_through_a_pipe_every_kind_of_line() {
    let dir = scratch("play_watch", "pipe");
    let out = dir.join("si.json").display().to_string();
    let lines = [
        "help",
        "3",       // place C1 (setup: one action ends the turn)
        "",        // nothing
        "foo",     // not an action
        "move C1", // a prefix: the matching actions
        "move C1 B1 9",
        "move C1 B1 x",
        "{\"type\": \"grow\", \"at\": \"E5\"}",
        "{not json",
        "[1]",
        "999",
        "done", // hands in no orders: the cell grows
        "legal",
        "move C1 B1 2",
        "move from=C1 to=C2 amount=1",
        "board",
        "done",
        "grow C1",
        "done",
    ];
    let o = with_input(
        &[
            "play",
            "--ruleset",
            "strategic_influence",
            "--opponent",
            "greedy",
            "--seed",
            "2",
            "--set",
            "settings.turns=3",
            "--out",
            &out,
        ],
        &(lines.join("\n") + "\n"),
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let text = stdout(&o);
    for want in [
        "You are P1 (W); greedy plays P2.",
        "You played: place C1",
        "no action `foo`",
        "legal actions start with `move C1`",
        "Refused (exceeds_stones): move C1 B1 9; nothing changed.",
        "`amount` is a whole number, not `x`",
        "Refused (not_owned): grow E5; nothing changed.",
        "Not JSON",
        "An action in JSON is an object",
        "No action 999",
        "Your orders so far: move C1 B1 2; move C1 C2 1",
        "P2 (greedy) played:",
        "Game over: strategic_influence - turn 3",
    ] {
        assert!(text.contains(want), "missing {want:?} in:\n{text}");
    }
    assert!(!text.contains('\x1b'));
    verify(&out);
    let replay: Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(replay["result"]["status"], "finished");
    // The person's orders reached the match as typed, in seat order with the agent's.
    let subs = replay["submissions"].as_array().unwrap();
    assert_eq!(subs[0]["actions"][0]["at"], "C1");
    assert_eq!(subs[4]["player"], "P1");
    assert_eq!(subs[4]["actions"].as_array().unwrap().len(), 2);
}

#[test]
fn play_batch_and_points_turns_and_quitting_midway() {
    let dir = scratch("play_watch", "batch");
    // ASG: a batch turn of two actions handed in with `done`, then quitting inside the next one.
    let asg = dir.join("asg.json").display().to_string();
    let o = with_input(
        &[
            "play",
            "--ruleset",
            "asg",
            "--opponent",
            "random",
            "--seed",
            "3",
            "--out",
            &asg,
        ],
        "reinforce 3\nmove p1_hq p1_bridge 4\ndone\npass\nquit\n",
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(stdout(&o).contains("P1 (2 so far)>"), "{}", stdout(&o));
    verify(&asg);
    // War of Attrition as the second player: points turns end with end_turn (or its alias pass);
    // `done` is refused there; the input ends midway.
    let woa = dir.join("woa.json").display().to_string();
    let o = with_input(
        &[
            "play",
            "--ruleset",
            "war_of_attrition",
            "--opponent",
            "greedy",
            "--as",
            "B",
            "--seed",
            "1",
            "--out",
            &woa,
        ],
        "1\ndone\nend_turn\npass\n",
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("`done` is not available here"), "{text}");
    assert!(text.contains("(end of input)"), "{text}");
    verify(&woa);
    let bad = arbiter(&[
        "play",
        "--ruleset",
        "asg",
        "--opponent",
        "greedy",
        "--as",
        "P3",
    ]);
    assert_eq!(code(&bad), 2);
    assert!(stderr(&bad).contains("--as P3: not a player"));
}

#[test]
fn play_in_a_pseudo_terminal() {
    // util-linux `script` runs the game on a pseudo-terminal; skip quietly where it is missing.
    if std::process::Command::new("script")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!("`script` not found: pseudo-terminal test skipped");
        return;
    }
    let bin = env!("CARGO_BIN_EXE_arbiter");
    let cmd = format!(
        "{bin} play --ruleset strategic_influence --opponent random --seed 1 --set settings.turns=1"
    );
    let mut child = std::process::Command::new("script")
        .args(["-q", "-e", "-c", &cmd, "/dev/null"])
        .current_dir(root())
        .env_remove("NO_COLOR")
        .env("TERM", "xterm")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn script");
    let mut input = child.stdin.take().expect("stdin");
    // Lines typed one at a time, as a person would.
    let feeder = std::thread::spawn(move || {
        for line in ["1", "done", "quit"] {
            std::thread::sleep(Duration::from_millis(300));
            let _ = input.write_all(format!("{line}\n").as_bytes());
        }
    });
    let o = wait_bounded(child, Duration::from_secs(60));
    let _ = feeder.join();
    let text = stdout(&o);
    assert!(text.contains("You played: place A1"), "{text}");
    // A terminal gets colours.
    assert!(
        text.contains("\x1b[94m"),
        "no colours on a terminal:\n{text}"
    );
    assert!(
        text.contains("Game over") || text.contains("Bye."),
        "{text}"
    );
}

#[test]
fn tournament_json_and_table() {
    let args = [
        "tournament",
        "--ruleset",
        "strategic_influence",
        "--agents",
        "random",
        "greedy",
        "random_kind",
        "--games-per-pair",
        "3",
        "--seed",
        "1",
        "--jobs",
        "2",
    ];
    let mut json_args = args.to_vec();
    json_args.extend(["--format", "json"]);
    let o = arbiter(&json_args);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let v: Value = serde_json::from_slice(&o.stdout).expect("JSON");
    let agents = v["agents"].as_array().unwrap();
    assert_eq!(agents.len(), 3);
    for a in agents {
        for k in [
            "name",
            "games",
            "wins",
            "draws",
            "losses",
            "rating",
            "rating_low",
            "rating_high",
        ] {
            assert!(a.get(k).is_some(), "agent without {k}: {a}");
        }
        assert_eq!(a["games"], 12);
        let r = a["rating"].as_f64().unwrap();
        assert!(a["rating_low"].as_f64().unwrap() < r && r < a["rating_high"].as_f64().unwrap());
    }
    let pairs = v["pairs"].as_array().unwrap();
    assert_eq!(pairs.len(), 3);
    for p in pairs {
        for k in ["a", "b", "games", "a_wins", "b_wins", "draws"] {
            assert!(p.get(k).is_some(), "pair without {k}: {p}");
        }
        assert_eq!(p["games"], 6);
    }
    // Greedy is rated above random; the ratings average 1500.
    let rating = |n: &str| {
        agents.iter().find(|a| a["name"] == n).unwrap()["rating"]
            .as_f64()
            .unwrap()
    };
    assert!(rating("greedy") > rating("random"));
    let mean: f64 = agents
        .iter()
        .map(|a| a["rating"].as_f64().unwrap())
        .sum::<f64>()
        / 3.0;
    assert!((mean - 1500.0).abs() < 1e-6);
    // Same seed, one thread: the same results.
    let mut one = json_args.clone();
    let jobs = one.len() - 3;
    one[jobs] = "1";
    let again: Value = serde_json::from_slice(&arbiter(&one).stdout).unwrap();
    assert_eq!(again["agents"], v["agents"]);
    assert_eq!(again["pairs"], v["pairs"]);
    let table = stdout(&arbiter(&args));
    assert!(table.starts_with("agent"), "{table}");
    assert!(
        table.contains("rating") && table.contains("random vs greedy: 6 games"),
        "{table}"
    );
    for bad in [
        vec![
            "tournament",
            "--ruleset",
            "asg",
            "--agents",
            "random",
            "random",
        ],
        vec!["tournament", "--ruleset", "asg", "--agents", "random"],
        vec![
            "tournament",
            "--ruleset",
            "asg",
            "--agents",
            "random",
            "nobody",
        ],
    ] {
        assert_eq!(code(&arbiter(&bad)), 2, "{bad:?}");
    }
}
