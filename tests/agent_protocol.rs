//! Agents outside the process (INTERFACE.md sections 9 and 10) for real: Python bots as child processes
//! (`exec:`) and behind HTTP (`http://`) play whole matches of the three canonical games, and the replays
//! verify; bots that sleep past the deadline, print garbage, exit, flood their output, refuse to make
//! progress or go silent never stop a match: the faults are in the replay, the fallback played, and no
//! process is left behind (not running, not a zombie).
mod support;
use std::io::{Read, Write};
use std::net::TcpListener;
use std::process::Command;
use std::sync::Arc;

use serde_json::Value as Json;
use support::{arbiter, code, root, scratch, start_with_first_line, stderr, stdout};

use arbiter::agents::remote::RemoteOptions;
use arbiter::agents::{Agent, AgentSpec};
use arbiter::engine::Engine;
use arbiter::replay::verify;
use arbiter::ruleset::{load, Game};
use arbiter::simulate::{play_match, PlayOptions};

/// Short games of the canonical rulesets (as `--set` overrides), so each test stays quick.
const SHORT: &[(&str, &str)] = &[
    ("asg", "settings.turnCapPlies=16"),
    ("war_of_attrition", "settings.turnLimit=4"),
    ("strategic_influence", "settings.turns=4"),
];

fn bot(name: &str) -> String {
    root()
        .join("examples/bots")
        .join(name)
        .display()
        .to_string()
}

fn faulty() -> String {
    root()
        .join("tests/fixtures/bots/faulty_bot.py")
        .display()
        .to_string()
}

fn game(ruleset: &str, set: &str) -> Arc<Game> {
    let (k, v) = set.split_once('=').unwrap();
    let overrides = vec![(k.to_string(), serde_json::from_str(v).unwrap())];
    load(ruleset, None, &overrides).unwrap().game
}

fn replay_of(out: &std::process::Output) -> Json {
    assert_eq!(code(out), 0, "{}", stderr(out));
    serde_json::from_str(&stdout(out)).expect("a replay")
}

fn verifies(replay: &Json) {
    if let Err(e) = verify(replay) {
        panic!("the replay does not verify: {e}");
    }
}

fn faults(replay: &Json) -> Vec<Json> {
    replay["faults"].as_array().cloned().unwrap_or_default()
}

#[test]
fn the_stdio_bot_plays_every_canonical_game_from_either_seat() {
    let exec = format!("exec:python3 {}", bot("random_bot.py"));
    for (ruleset, set) in SHORT {
        for (p1, p2) in [(exec.as_str(), "random"), ("greedy", exec.as_str())] {
            let out = arbiter(&[
                "match",
                "--ruleset",
                ruleset,
                "--set",
                set,
                "--p1",
                p1,
                "--p2",
                p2,
                "--seed",
                "3",
            ]);
            let r = replay_of(&out);
            assert_eq!(r["result"]["status"], "finished", "{ruleset}");
            assert!(faults(&r).is_empty(), "{ruleset}: {:?}", faults(&r));
            let seat = if p1.starts_with("exec:") { 0 } else { 1 };
            let players = r["state"]["players"].as_object().unwrap();
            let me = players.keys().nth(seat).unwrap();
            // The bot's submissions carry its rationale into the replay.
            assert!(r["submissions"]
                .as_array()
                .unwrap()
                .iter()
                .any(|s| s["player"] == *me && s["rationale"] == "a random legal action"));
            verifies(&r);
        }
    }
}

/// Plays `ruleset` between `p1` and `random` in process (the test is the bot's parent, so a zombie
/// would show), and returns the replay.
fn play_with(ruleset: &str, set: &str, p1: &str, opts: &RemoteOptions) -> Json {
    let (ruleset, set, p1, opts) = (
        ruleset.to_string(),
        set.to_string(),
        p1.to_string(),
        opts.clone(),
    );
    support::deep(move || {
        let g = game(&ruleset, &set);
        let mut engine = Engine::new(g.clone()).unwrap();
        let specs = [
            AgentSpec::with_options(&p1, &g, &opts).unwrap(),
            AgentSpec::new("random", &g).unwrap(),
        ];
        let mut agents: Vec<Box<dyn Agent>> = specs
            .iter()
            .enumerate()
            .map(|(p, s)| s.build(7, p as u8))
            .collect();
        let opts = PlayOptions {
            record: true,
            check: false,
        };
        let played = play_match(&mut engine, &mut agents, 7, opts).expect("the match finishes");
        drop(agents);
        played.replay(&engine).to_json()
    })
}

/// The fault bot in `mode` plays `ruleset` with a deadline of `ms`; returns the replay and the faults.
fn faulty_match(mode: &str, ruleset: &str, set: &str, ms: u64) -> (Json, Vec<Json>) {
    let dir = scratch("agent_protocol", &format!("{mode}_{ruleset}"));
    let pidfile = dir.join("pid");
    let spec = format!("exec:python3 {} {mode} {}", faulty(), pidfile.display());
    let opts = RemoteOptions {
        timeout_ms: ms,
        ..RemoteOptions::default()
    };
    let replay = play_with(ruleset, set, &spec, &opts);
    assert_eq!(replay["result"]["status"], "finished", "{mode}");
    verifies(&replay);
    let pid: u32 = std::fs::read_to_string(&pidfile)
        .expect("the bot wrote its process id")
        .trim()
        .parse()
        .unwrap();
    assert!(
        support::process_gone(pid),
        "{mode}: bot process {pid} is still there after the match (running or a zombie)"
    );
    let f = faults(&replay);
    (replay, f)
}

fn kinds(faults: &[Json]) -> Vec<&str> {
    faults.iter().map(|f| f["kind"].as_str().unwrap()).collect()
}

#[test]
fn a_bot_that_sleeps_past_the_deadline_times_out() {
    let (r, f) = faulty_match("sleep", "asg", "settings.turnCapPlies=8", 150);
    assert!(kinds(&f).contains(&"timeout"), "{f:?}");
    // Each fault names the submission handed in instead: the fallback's empty one, by that player.
    for fault in &f {
        let s = &r["submissions"][fault["decision"].as_u64().unwrap() as usize];
        assert_eq!(s["player"], fault["player"]);
        assert_eq!(s["actions"], Json::Array(vec![]));
    }
}

#[test]
fn a_bot_that_prints_garbage_is_malformed_every_time() {
    let (_, f) = faulty_match("garbage", "war_of_attrition", "settings.turnLimit=3", 2000);
    assert!(!f.is_empty());
    assert!(kinds(&f).iter().all(|k| *k == "malformed"), "{f:?}");
    assert!(f[0]["detail"].as_str().unwrap().contains("not JSON"));
}

#[test]
fn a_bot_that_exits_after_its_first_decision_crashed() {
    let (r, f) = faulty_match("quit", "strategic_influence", "settings.turns=3", 2000);
    assert!(!f.is_empty());
    assert!(kinds(&f).iter().all(|k| *k == "crashed"), "{f:?}");
    // Its first decision was its own.
    let first_own = r["submissions"]
        .as_array()
        .unwrap()
        .iter()
        .position(|s| s["player"] == "P1")
        .unwrap();
    assert!(f[0]["decision"].as_u64().unwrap() as usize > first_own);
}

#[test]
fn a_bot_that_floods_its_output_is_stopped() {
    let (_, f) = faulty_match("flood", "asg", "settings.turnCapPlies=6", 2000);
    assert_eq!(f[0]["kind"], "malformed", "{f:?}");
    assert!(f[0]["detail"].as_str().unwrap().contains("longer than"));
    assert!(kinds(&f[1..]).iter().all(|k| *k == "crashed"), "{f:?}");
}

#[test]
fn a_bot_whose_replies_change_nothing_stalls_and_the_fallback_moves_on() {
    // Setup placements and War of Attrition turns end only with an action.
    for (ruleset, set) in [
        ("strategic_influence", "settings.turns=2"),
        ("war_of_attrition", "settings.turnLimit=2"),
    ] {
        let (r, f) = faulty_match("refuse", ruleset, set, 2000);
        assert!(kinds(&f).iter().all(|k| *k == "stalled"), "{f:?}");
        assert!(!f.is_empty());
        // The refused actions are ordinary invalid_action events, repeated by the replay.
        assert!(r["events"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["type"] == "invalid_action"));
    }
}

#[test]
fn a_silent_bot_that_ignores_the_end_of_its_input_is_killed_and_reaped() {
    let (_, f) = faulty_match("silent", "asg", "settings.turnCapPlies=4", 100);
    assert!(kinds(&f).iter().all(|k| *k == "timeout"), "{f:?}");
    assert_eq!(f.len(), 2);
}

#[test]
fn the_fallback_may_be_an_agent() {
    let dir = scratch("agent_protocol", "fallback_agent");
    let spec = format!(
        "exec:python3 {} garbage {}",
        faulty(),
        dir.join("pid").display()
    );
    let out = arbiter(&[
        "match",
        "--ruleset",
        "asg",
        "--set",
        "settings.turnCapPlies=6",
        "--p1",
        &spec,
        "--p2",
        "random",
        "--fallback",
        "greedy",
    ]);
    let r = replay_of(&out);
    let f = faults(&r);
    assert_eq!(f.len(), 3, "{f:?}");
    for fault in &f {
        let s = &r["submissions"][fault["decision"].as_u64().unwrap() as usize];
        assert!(!s["actions"].as_array().unwrap().is_empty(), "greedy moved");
    }
    verifies(&r);
}

#[test]
fn mistakes_in_agent_options_are_usage_errors() {
    let base = ["match", "--ruleset", "asg", "--p2", "random"];
    for (extra, says) in [
        (
            vec!["--p1", "exec:no-such-program-here"],
            "cannot find the program",
        ),
        (vec!["--p1", "exec:python3 'unclosed"], "not closed"),
        (vec!["--p1", "exec:"], "needs a command"),
        (vec!["--p1", "https://127.0.0.1:1/"], "plain HTTP"),
        (vec!["--p1", "http://"], "not a URL"),
        (
            vec!["--p1", "random", "--agent-timeout", "0"],
            "--agent-timeout",
        ),
        (
            vec!["--p1", "random", "--fallback", "exec:python3"],
            "--fallback",
        ),
        (
            vec!["--p1", "random", "--fallback", "randon"],
            "did you mean",
        ),
    ] {
        let args: Vec<&str> = base.iter().copied().chain(extra.iter().copied()).collect();
        let out = arbiter(&args);
        assert_eq!(code(&out), 2, "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains(says), "{args:?}: {}", stderr(&out));
    }
}

#[test]
fn the_http_bot_plays_every_canonical_game() {
    let mut cmd = Command::new("python3");
    cmd.arg(bot("http_bot.py")).args(["--seed", "5"]);
    let (_server, line) = start_with_first_line(cmd);
    let url = line.trim_start_matches("listening on ").to_string();
    for (ruleset, set) in SHORT {
        let out = arbiter(&[
            "match",
            "--ruleset",
            ruleset,
            "--set",
            set,
            "--p1",
            "random",
            "--p2",
            &url,
        ]);
        let r = replay_of(&out);
        assert_eq!(r["result"]["status"], "finished", "{ruleset}");
        assert!(faults(&r).is_empty(), "{ruleset}: {:?}", faults(&r));
        verifies(&r);
    }
}

/// An HTTP agent that misbehaves: answers every request with `respond` (the raw response) after
/// `delay_ms`. Returns its URL; the listener thread ends with the test process.
fn bad_http_agent(respond: &'static [u8], delay_ms: u64) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/act", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        for stream in listener.incoming().take(200) {
            let Ok(mut s) = stream else { continue };
            std::thread::spawn(move || {
                // Read the request head and body (Content-Length) before answering.
                let mut buf = Vec::new();
                let mut chunk = [0u8; 8192];
                loop {
                    let Ok(n) = s.read(&mut chunk) else { return };
                    if n == 0 {
                        return;
                    }
                    buf.extend_from_slice(&chunk[..n]);
                    let text = String::from_utf8_lossy(&buf);
                    if let Some(end) = text.find("\r\n\r\n") {
                        let len = text[..end]
                            .lines()
                            .find_map(|l| {
                                l.to_ascii_lowercase()
                                    .strip_prefix("content-length:")
                                    .map(|v| v.trim().parse::<usize>().unwrap_or(0))
                            })
                            .unwrap_or(0);
                        if buf.len() >= end + 4 + len {
                            break;
                        }
                    }
                }
                std::thread::sleep(std::time::Duration::from_millis(delay_ms));
                let _ = s.write_all(respond);
            });
        }
    });
    url
}

#[test]
fn http_faults_are_recorded_and_never_stop_the_match() {
    const ERROR: &[u8] =
        b"HTTP/1.1 500 Internal Server Error\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";
    const GARBAGE: &[u8] =
        b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello";
    const SLOW: &[u8] =
        b"HTTP/1.1 200 OK\r\nContent-Length: 14\r\nConnection: close\r\n\r\n{\"actions\": []}";
    let huge: &'static [u8] = {
        let mut v =
            b"HTTP/1.1 200 OK\r\nContent-Length: 3145728\r\nConnection: close\r\n\r\n".to_vec();
        v.extend(std::iter::repeat_n(b' ', 3 << 20));
        Box::leak(v.into_boxed_slice())
    };
    // A port nobody listens on: bound, then closed.
    let closed = {
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        format!("http://{}/", l.local_addr().unwrap())
    };
    let cases: Vec<(String, u64, &str)> = vec![
        (bad_http_agent(ERROR, 0), 2000, "http"),
        (bad_http_agent(GARBAGE, 0), 2000, "malformed"),
        (bad_http_agent(SLOW, 1000), 150, "timeout"),
        (bad_http_agent(huge, 0), 2000, "malformed"),
        (closed, 2000, "http"),
    ];
    for (url, ms, kind) in cases {
        let opts = RemoteOptions {
            timeout_ms: ms,
            ..RemoteOptions::default()
        };
        let r = play_with("asg", "settings.turnCapPlies=4", &url, &opts);
        assert_eq!(r["result"]["status"], "finished");
        let f = faults(&r);
        assert_eq!(f.len(), 2, "{url}: {f:?}");
        assert!(kinds(&f).iter().all(|k| *k == kind), "{url}: {f:?}");
        verifies(&r);
    }
}

#[test]
fn bots_take_part_in_simulate_and_tournament() {
    let exec = format!("exec:python3 {}", bot("random_bot.py"));
    let out = arbiter(&[
        "simulate",
        "--ruleset",
        "strategic_influence",
        "--set",
        "settings.turns=3",
        "--p1",
        &exec,
        "--p2",
        "random",
        "--games",
        "3",
        "--format",
        "json",
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let s: Json = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(s["games"], 3);
    assert_eq!(s["error_count"], 0);
    let out = arbiter(&[
        "tournament",
        "--ruleset",
        "strategic_influence",
        "--set",
        "settings.turns=3",
        "--agents",
        &exec,
        "random",
        "--games-per-pair",
        "1",
        "--format",
        "json",
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let t: Json = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(t["error_count"], 0);
    assert_eq!(t["agents"][0]["games"], 2);
}

#[test]
fn the_process_check_tells_a_zombie_from_a_reaped_process() {
    let mut child = Command::new("python3")
        .arg("-c")
        .arg("pass")
        .spawn()
        .unwrap();
    let pid = child.id();
    // Wait for it to exit without reaping it: a zombie, which the check must see.
    // SAFETY: waitid(2) writes only into the siginfo we own.
    let r = unsafe {
        let mut info: libc::siginfo_t = std::mem::zeroed();
        libc::waitid(
            libc::P_PID,
            pid as libc::id_t,
            &mut info,
            libc::WEXITED | libc::WNOWAIT,
        )
    };
    assert_eq!(r, 0);
    assert!(!support::process_gone(pid));
    child.wait().unwrap();
    assert!(support::process_gone(pid));
}

#[test]
fn a_person_can_play_against_a_bot() {
    let dir = scratch("agent_protocol", "play");
    let out_file = dir.join("replay.json");
    let exec = format!("exec:python3 {}", bot("random_bot.py"));
    let mut child = support::command(&root())
        .args([
            "play",
            "--ruleset",
            "asg",
            "--set",
            "settings.turnCapPlies=4",
            "--as",
            "P2",
        ])
        .args([
            "--opponent",
            &exec,
            "--out",
            &out_file.display().to_string(),
        ])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"1\n1\nquit\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let r: Json = serde_json::from_str(&std::fs::read_to_string(&out_file).unwrap()).unwrap();
    // The bot (P1) moved first, with its rationale.
    assert_eq!(r["submissions"][0]["player"], "P1");
    assert_eq!(r["submissions"][0]["rationale"], "a random legal action");
    verifies(&r);
}
