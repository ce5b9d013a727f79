//! `arbiter serve` for real (INTERFACE.md section 11): a server process on 127.0.0.1, Python bots playing
//! seats over HTTP in every canonical game (the replays verify), tokens that guard every seat (401, 403,
//! 409 and nothing changes), body and match limits (413, 429), expiry, simultaneous orders held back
//! from the other seats until the turn resolves, and a load test of 200 matches played at once.
mod support;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::Command;
use std::sync::{Arc, Barrier};
use std::time::{Duration, Instant};

use serde_json::{json, Value as Json};
use support::{arbiter, code, root, start_with_first_line, stderr, Background};

use arbiter::replay::verify;

/// A client of one server.
#[derive(Clone)]
struct Api {
    base: String,
    agent: ureq::Agent,
}

impl Api {
    fn new(base: &str) -> Self {
        let config = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .proxy(None)
            .timeout_global(Some(Duration::from_secs(60)))
            .build();
        Api {
            base: base.to_string(),
            agent: ureq::Agent::new_with_config(config),
        }
    }

    /// (status, JSON body) of one request.
    fn call(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<&Json>,
    ) -> (u16, Json) {
        let url = format!("{}{path}", self.base);
        let auth = token.map(|t| format!("Bearer {t}"));
        let response = match method {
            "GET" => {
                let mut r = self.agent.get(&url);
                if let Some(a) = &auth {
                    r = r.header("Authorization", a);
                }
                r.call()
            }
            _ => {
                let mut r = self
                    .agent
                    .post(&url)
                    .header("Content-Type", "application/json");
                if let Some(a) = &auth {
                    r = r.header("Authorization", a);
                }
                r.send(serde_json::to_string(body.unwrap_or(&Json::Null)).unwrap())
            }
        };
        let mut response = response.unwrap_or_else(|e| panic!("{method} {path}: {e}"));
        let status = response.status().as_u16();
        let text = response.body_mut().read_to_string().unwrap();
        (status, serde_json::from_str(&text).unwrap_or(Json::Null))
    }

    fn get(&self, path: &str, token: Option<&str>) -> (u16, Json) {
        self.call("GET", path, token, None)
    }

    fn post(&self, path: &str, token: Option<&str>, body: &Json) -> (u16, Json) {
        self.call("POST", path, token, Some(body))
    }

    /// Creates a match; returns its id and its tokens.
    fn create(&self, body: Json) -> (String, Json) {
        let (s, made) = self.post("/matches", None, &body);
        assert_eq!(s, 201, "{made}");
        (
            made["id"].as_str().unwrap().to_string(),
            made["tokens"].clone(),
        )
    }
}

/// A server on a free port of 127.0.0.1 with `extra` flags.
fn server(extra: &[&str]) -> (Background, Api) {
    let mut cmd = support::command(&root());
    cmd.args(["serve", "--addr", "127.0.0.1:0"]).args(extra);
    let (bg, line) = start_with_first_line(cmd);
    let base = line
        .strip_prefix("listening on ")
        .expect("the address")
        .to_string();
    (bg, Api::new(&base))
}

/// Short games of the canonical rulesets.
fn short(ruleset: &str) -> Json {
    match ruleset {
        "asg" => json!({"settings.turnCapPlies": 12}),
        "war_of_attrition" => json!({"settings.turnLimit": 3}),
        _ => json!({"settings.turns": 3}),
    }
}

fn verifies(replay: &Json) {
    if let Err(e) = verify(replay) {
        panic!("the replay does not verify: {e}");
    }
}

fn serve_bot(api: &Api, id: &str, player: &str, token: &str, seed: u32) -> Command {
    let mut cmd = Command::new("python3");
    cmd.arg(root().join("examples/bots/serve_bot.py"))
        .args(["--server", &api.base, "--match", id, "--player", player])
        .args(["--token", token, "--seed", &seed.to_string()]);
    cmd
}

#[test]
fn python_bots_play_every_canonical_game_on_the_server() {
    let (_server, api) = server(&[]);
    for ruleset in ["asg", "war_of_attrition", "strategic_influence"] {
        let (_, rulesets) = api.get("/rulesets", None);
        let players: Vec<String> = rulesets
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["id"] == ruleset)
            .map(|r| serde_json::from_value(r["players"].clone()).unwrap())
            .unwrap();
        // Two bots against each other, then a bot against an agent that plays on the server.
        for seats in [
            json!({players[0].as_str(): "remote", players[1].as_str(): "remote"}),
            json!({players[0].as_str(): "greedy", players[1].as_str(): "remote"}),
        ] {
            let (id, tokens) = api.create(json!({
                "ruleset": ruleset, "seed": 11, "set": short(ruleset), "seats": seats,
            }));
            let bots: Vec<_> = tokens
                .as_object()
                .unwrap()
                .iter()
                .enumerate()
                .map(|(i, (p, t))| {
                    serve_bot(&api, &id, p, t.as_str().unwrap(), i as u32)
                        .stdout(std::process::Stdio::piped())
                        .stderr(std::process::Stdio::piped())
                        .spawn()
                        .expect("the bot starts")
                })
                .collect();
            // Both seats play at once (a simultaneous turn needs both).
            let bots: Vec<_> = bots
                .into_iter()
                .map(|b| b.wait_with_output().expect("the bot ends"))
                .collect();
            for out in &bots {
                assert!(
                    out.status.success(),
                    "{ruleset}: {}",
                    String::from_utf8_lossy(&out.stderr)
                );
            }
            let (s, status) = api.get(&format!("/matches/{id}"), None);
            assert_eq!(s, 200);
            assert_eq!(status["status"], "finished", "{ruleset}: {status}");
            let (_, replay) = api.get(&format!("/matches/{id}/replay"), None);
            assert_eq!(replay["result"], status["result"]);
            verifies(&replay);
        }
    }
}

fn error_code(body: &Json) -> &str {
    body["error"]["code"].as_str().unwrap_or("")
}

/// POSTs a body of `len` bytes to `path` on a raw connection (the body sent from another thread, so a
/// server that answers before reading it all does not block us); returns the response's status.
fn post_raw(api: &Api, path: &str, token: &str, len: usize) -> u16 {
    let addr = api.base.trim_start_matches("http://").trim_end_matches('/');
    let mut stream = TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    let head = format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nAuthorization: Bearer {token}\r\nContent-Type: application/json\r\nContent-Length: {len}\r\n\r\n"
    );
    let mut writer = stream.try_clone().unwrap();
    let sender = std::thread::spawn(move || {
        let _ = writer.write_all(head.as_bytes());
        let _ = writer.write_all(&vec![b' '; len]);
    });
    let mut response = Vec::new();
    let mut buf = [0u8; 4096];
    while !response.windows(4).any(|w| w == b"\r\n\r\n") {
        match stream.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => response.extend_from_slice(&buf[..n]),
        }
    }
    let _ = sender.join();
    let text = String::from_utf8_lossy(&response);
    text.split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0)
}

#[test]
fn tokens_guard_every_seat_and_refused_requests_change_nothing() {
    let (_server, api) = server(&[]);
    let body = json!({"ruleset": "asg", "seed": 3, "set": short("asg"),
                      "seats": {"P1": "remote", "P2": "remote"}});
    let (id, tokens) = api.create(body.clone());
    let (other, other_tokens) = api.create(body);
    let (t1, t2) = (
        tokens["P1"].as_str().unwrap(),
        tokens["P2"].as_str().unwrap(),
    );
    assert_ne!(t1, t2);
    let sub = format!("/matches/{id}/submissions");
    let legal = format!("/matches/{id}/legal");
    let pass = json!({"actions": [{"type": "pass"}]});
    let snapshot = || {
        (
            api.get(&format!("/matches/{id}/replay"), None),
            api.get(&format!("/matches/{id}"), None),
        )
    };
    let before = snapshot();

    for (path, post) in [(&sub, true), (&legal, false)] {
        let call = |token: Option<&str>| {
            if post {
                api.post(path, token, &pass)
            } else {
                api.get(path, token)
            }
        };
        let (s, b) = call(None);
        assert_eq!((s, error_code(&b)), (401, "token_missing"), "{path}: {b}");
        let (s, b) = call(Some("not-a-token"));
        assert_eq!((s, error_code(&b)), (403, "forbidden"), "{path}: {b}");
        let (s, _) = call(Some(other_tokens["P1"].as_str().unwrap()));
        assert_eq!(s, 403, "{path}: another match's token");
        // P2's own token, while P1 is due.
        let (s, b) = call(Some(t2));
        assert_eq!((s, error_code(&b)), (409, "not_your_turn"), "{path}: {b}");
    }
    // A header that is not `Bearer TOKEN` is no token.
    let url = format!("{}{legal}", api.base);
    let r = api
        .agent
        .get(&url)
        .header("Authorization", t1)
        .call()
        .unwrap();
    assert_eq!(r.status().as_u16(), 401);
    let (s, b) = api.post(&sub, Some(t1), &json!({"acts": []}));
    assert_eq!((s, error_code(&b)), (400, "bad_body"));
    let (s, _) = api.post(&sub, Some(t1), &json!("pass"));
    assert_eq!(s, 400);
    assert_eq!(post_raw(&api, &sub, t1, (1 << 20) + 1), 413);
    assert_eq!(snapshot(), before, "refused requests changed the match");
    // The other match was not touched by its token's use here.
    let (_, o) = api.get(&format!("/matches/{other}"), None);
    assert_eq!(o["ply"], 0);

    // Seats see the state (a wrong token does not), and act in turn.
    assert_eq!(api.get(&format!("/matches/{id}/state"), Some(t1)).0, 200);
    assert_eq!(api.get(&format!("/matches/{id}/state"), Some("x")).0, 403);
    let (s, b) = api.post(&sub, Some(t1), &pass);
    assert_eq!(s, 200, "{b}");
    assert!(b["events"].is_array());
    assert_eq!(api.post(&sub, Some(t1), &pass).0, 409);
    // Play it out, then everything is 409 game_over.
    let mut turn = [t2, t1].into_iter().cycle();
    for _ in 0..100 {
        let (_, st) = api.get(&format!("/matches/{id}"), None);
        if st["status"] == "finished" {
            break;
        }
        assert_eq!(api.post(&sub, Some(turn.next().unwrap()), &pass).0, 200);
    }
    let (s, b) = api.post(&sub, Some(t1), &pass);
    assert_eq!((s, error_code(&b)), (409, "game_over"));
    assert_eq!(api.get(&legal, Some(t2)).0, 409);
    let (_, replay) = api.get(&format!("/matches/{id}/replay"), None);
    assert_eq!(replay["result"]["status"], "finished");
    verifies(&replay);
    // Nothing here: 404.
    assert_eq!(api.get("/matches/0000000000000000", None).0, 404);
    assert_eq!(api.get("/nothing", None).0, 404);
}

#[test]
fn simultaneous_orders_stay_hidden_until_the_turn_resolves() {
    let (_server, api) = server(&[]);
    let (id, tokens) = api.create(json!({"ruleset": "strategic_influence", "seed": 5,
        "set": short("strategic_influence"), "seats": {"P1": "remote", "P2": "remote"}}));
    let token = |p: &str| tokens[p].as_str().unwrap().to_string();
    let status = || api.get(&format!("/matches/{id}"), None).1;
    // The setup places one at a time; the orders phase has both players due.
    for _ in 0..20 {
        let active = status()["active"].as_array().unwrap().clone();
        if active.len() == 2 {
            break;
        }
        let p = active[0].as_str().unwrap();
        let (_, legal) = api.get(&format!("/matches/{id}/legal"), Some(&token(p)));
        let first = legal["actions"][0].clone();
        let (s, _) = api.post(
            &format!("/matches/{id}/submissions"),
            Some(&token(p)),
            &json!({"actions": [first]}),
        );
        assert_eq!(s, 200);
    }
    assert_eq!(status()["active"], json!(["P1", "P2"]));
    let state_as = |p: &str| api.get(&format!("/matches/{id}/state"), Some(&token(p))).1;
    let (p1_before, p2_before) = (state_as("P1"), state_as("P2"));
    let (_, news) = api.get(&format!("/matches/{id}/events"), None);
    let next = news["next"].as_u64().unwrap();
    let (_, replay_before) = api.get(&format!("/matches/{id}/replay"), None);

    let (_, legal) = api.get(&format!("/matches/{id}/legal"), Some(&token("P1")));
    let orders = json!({"actions": [legal["actions"].as_array().unwrap().last().unwrap()]});
    let (s, b) = api.post(
        &format!("/matches/{id}/submissions"),
        Some(&token("P1")),
        &orders,
    );
    assert_eq!((s, b.clone()), (200, json!({"events": []})));
    // Nobody can tell P1's orders: not P2's view, not P1's, not the events, not the replay.
    assert_eq!(state_as("P2"), p2_before);
    assert_eq!(state_as("P1"), p1_before);
    let (_, news) = api.get(&format!("/matches/{id}/events?since={next}"), None);
    assert_eq!(news, json!({"events": [], "next": next}));
    let (_, replay) = api.get(&format!("/matches/{id}/replay"), None);
    assert_eq!(replay["submissions"], replay_before["submissions"]);
    assert_eq!(status()["active"], json!(["P2"]));
    // P1 has handed in for this turn.
    assert_eq!(
        api.post(
            &format!("/matches/{id}/submissions"),
            Some(&token("P1")),
            &orders
        )
        .0,
        409
    );
    assert_eq!(
        api.get(&format!("/matches/{id}/legal"), Some(&token("P1")))
            .0,
        409
    );

    // A long poll for news wakes up when P2 hands in and the turn resolves.
    let waiter = {
        let (api, id) = (api.clone(), id.clone());
        std::thread::spawn(move || {
            api.get(
                &format!("/matches/{id}/events?since={next}&wait_ms=20000"),
                None,
            )
            .1
        })
    };
    std::thread::sleep(Duration::from_millis(200));
    let (s, b) = api.post(
        &format!("/matches/{id}/submissions"),
        Some(&token("P2")),
        &json!({"actions": []}),
    );
    assert_eq!(s, 200);
    assert!(
        !b["events"].as_array().unwrap().is_empty(),
        "the resolution's events: {b}"
    );
    let woke = waiter.join().unwrap();
    assert!(!woke["events"].as_array().unwrap().is_empty());
    let (_, replay) = api.get(&format!("/matches/{id}/replay"), None);
    let subs = replay["submissions"].as_array().unwrap();
    let n = subs.len();
    assert_eq!(
        subs[n - 2],
        json!({"player": "P1", "actions": orders["actions"]})
    );
    assert_eq!(subs[n - 1], json!({"player": "P2", "actions": []}));
    verifies(&replay);
}

#[test]
fn mistakes_in_a_new_match_are_400() {
    let (_server, api) = server(&[]);
    let seats = json!({"P1": "remote", "P2": "random"});
    for (body, says) in [
        (json!({"ruleset": "nope", "seats": seats}), "no ruleset"),
        (
            json!({"ruleset": "asg", "scenario": "nope", "seats": seats}),
            "no scenario",
        ),
        (
            json!({"ruleset": "asg", "set": {"settings.turnCapPlies": "many"}, "seats": seats}),
            "does not load",
        ),
        (
            json!({"ruleset": "asg", "seats": {"P1": "remote"}}),
            "no seat for player",
        ),
        (
            json!({"ruleset": "asg", "seats": {"P1": "remote", "P2": "random", "P3": "random"}}),
            "not a player",
        ),
        (
            json!({"ruleset": "asg", "seats": {"P1": "remote", "P2": "exec:python3 bot.py"}}),
            "remote",
        ),
        (
            json!({"ruleset": "asg", "seats": {"P1": "remote", "P2": "randon"}}),
            "did you mean",
        ),
        (
            json!({"ruleset": "asg", "seats": seats, "colour": "red"}),
            "unknown field",
        ),
        (json!({"seats": seats}), "ruleset"),
    ] {
        let (s, b) = api.post("/matches", None, &body);
        assert_eq!((s, error_code(&b)), (400, "bad_body"), "{body}: {b}");
        assert!(
            b["error"]["message"].as_str().unwrap().contains(says),
            "{body}: {b}"
        );
    }
}

#[test]
fn the_match_limit_is_429_and_idle_matches_expire() {
    let (_server, api) = server(&["--max-matches", "2", "--idle-timeout", "1"]);
    let body = json!({"ruleset": "asg", "seats": {"P1": "remote", "P2": "random"}});
    let (a, _) = api.create(body.clone());
    api.create(body.clone());
    let (s, b) = api.post("/matches", None, &body);
    assert_eq!((s, error_code(&b)), (429, "too_many_matches"));
    // Nobody touches them (asking for a new match touches none): they go, and there is room again.
    let start = Instant::now();
    loop {
        let (s, _) = api.post("/matches", None, &body);
        if s == 201 {
            break;
        }
        assert_eq!(s, 429);
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "no match ever expired"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    let (s, b) = api.get(&format!("/matches/{a}"), None);
    assert_eq!((s, error_code(&b)), (404, "not_found"));
}

#[test]
fn serving_beyond_loopback_needs_an_explicit_flag() {
    let out = arbiter(&["serve", "--addr", "0.0.0.0:0"]);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("--public"), "{}", stderr(&out));
}

/// A small generator for the load test's choices.
struct Dice(u64);

impl Dice {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// Plays match `id` to the end as every remote seat in `tokens`; returns the submissions made per player.
fn play_out(api: &Api, id: &str, tokens: &Json, dice: &mut Dice) -> Vec<(String, usize)> {
    let mut made: Vec<(String, usize)> = tokens
        .as_object()
        .unwrap()
        .keys()
        .map(|p| (p.clone(), 0))
        .collect();
    let mut since = 0;
    for _ in 0..5_000 {
        let (_, st) = api.get(&format!("/matches/{id}"), None);
        if st["status"] != "ongoing" {
            assert_eq!(st["status"], "finished", "{st}");
            return made;
        }
        let mine: Vec<String> = st["active"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|p| p.as_str())
            .filter(|p| tokens.get(p).is_some())
            .map(str::to_string)
            .collect();
        if mine.is_empty() {
            let (_, news) = api.get(
                &format!("/matches/{id}/events?since={since}&wait_ms=5000"),
                None,
            );
            since = news["next"].as_u64().unwrap();
            continue;
        }
        for p in mine {
            let t = tokens[&p].as_str().unwrap();
            let (s, legal) = api.get(&format!("/matches/{id}/legal"), Some(t));
            assert_eq!(s, 200, "{legal}");
            let list = legal["actions"].as_array().unwrap();
            let actions: Vec<Json> = if list.is_empty() {
                vec![]
            } else {
                vec![list[dice.below(list.len())].clone()]
            };
            let (s, b) = api.post(
                &format!("/matches/{id}/submissions"),
                Some(t),
                &json!({"actions": actions}),
            );
            assert_eq!(s, 200, "{b}");
            made.iter_mut().find(|(q, _)| *q == p).unwrap().1 += 1;
        }
    }
    panic!("match {id} did not end");
}

#[test]
fn two_hundred_matches_played_at_once_lose_nothing() {
    const MATCHES: usize = 200;
    let (_server, api) = server(&["--max-matches", "400"]);
    let rulesets = [
        ("asg", ["P1", "P2"]),
        ("war_of_attrition", ["A", "B"]),
        ("strategic_influence", ["P1", "P2"]),
    ];
    let barrier = Arc::new(Barrier::new(MATCHES));
    let clients: Vec<_> = (0..MATCHES)
        .map(|i| {
            let (api, barrier) = (api.clone(), barrier.clone());
            let (ruleset, players) = rulesets[i % 3];
            std::thread::Builder::new()
                .stack_size(16 << 20)
                .spawn(move || {
                    // Every other match has an agent playing one seat on the server.
                    let second = if i % 2 == 0 { "remote" } else { "random" };
                    let (id, tokens) = api.create(json!({"ruleset": ruleset, "seed": i,
                        "set": short(ruleset), "seats": {players[0]: "remote", players[1]: second}}));
                    // All of them exist before any is played.
                    barrier.wait();
                    let made = play_out(&api, &id, &tokens, &mut Dice(i as u64 * 7919 + 1));
                    let (_, replay) = api.get(&format!("/matches/{id}/replay"), None);
                    for (p, n) in &made {
                        let recorded = replay["submissions"]
                            .as_array()
                            .unwrap()
                            .iter()
                            .filter(|s| s["player"] == p.as_str())
                            .count();
                        assert_eq!(recorded, *n, "match {id}: {p}'s submissions");
                    }
                    verifies(&replay);
                })
                .unwrap()
        })
        .collect();
    for c in clients {
        c.join().expect("a client failed");
    }
    let (s, _) = api.get("/rulesets", None);
    assert_eq!(s, 200);
}
