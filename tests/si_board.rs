//! Strategic Influence on the 7x7 scenario: the setup zones follow mid = 7 / 2 = 3 (RULINGS 2), so D4 is
//! nobody's; and random games on it play to the end after `turns` main turns with a consistent score.
mod support;
use std::collections::BTreeSet;
use support::deep;

use arbiter::agents::by_name;
use arbiter::engine::{wire, Engine, Match};
use arbiter::simulate::play::{play_match, PlayOptions};
use serde_json::{json, Value as Json};

fn load_7x7() -> arbiter::ruleset::Loaded {
    arbiter::ruleset::load("strategic_influence", Some("large_7x7"), &[])
        .unwrap_or_else(|e| panic!("large_7x7 loads: {:?}", e.diagnostics()))
}

/// The cells where `player` may place now, as ids.
fn placements(engine: &mut Engine, m: &mut Match, player: u8) -> BTreeSet<String> {
    let mut buf = Vec::new();
    engine.legal(m, player, &mut buf).expect("legal actions");
    buf.iter()
        .map(|a| {
            let w = wire::encode(&engine.game, &m.state, a);
            assert_eq!(w["type"], json!("place"), "{w}");
            w["at"].as_str().expect("a cell id").to_string()
        })
        .collect()
}

#[test]
fn setup_zones_on_7x7_leave_d4_to_nobody() {
    let loaded = load_7x7();
    let mut engine = Engine::new(loaded.game.clone()).expect("engine");
    engine.set_logging(true);
    let mut m = engine.start(0).expect("starts");
    let state = engine.state_json(&m);
    let cells = state["cells"].as_object().expect("cells");
    assert_eq!(cells.len(), 49, "7x7 board");
    for id in ["A1", "G7", "D4", "A7", "G1"] {
        assert!(cells.contains_key(id), "{id} exists");
    }
    assert!(!cells.contains_key("H1") && !cells.contains_key("A8"));

    // P1: columns A-C (col < 3) on every row, plus D1-D3 (col == 3, row < 3).
    let mut p1 = BTreeSet::new();
    for col in ["A", "B", "C"] {
        for row in 1..=7 {
            p1.insert(format!("{col}{row}"));
        }
    }
    for row in 1..=3 {
        p1.insert(format!("D{row}"));
    }
    assert_eq!(placements(&mut engine, &mut m, 0), p1);

    // The centre is refused and P1 stays due.
    engine
        .submit(&mut m, "P1", &[json!({"type": "place", "at": "D4"})])
        .expect("P1 is due");
    let log = engine.take_log();
    assert_eq!(
        log,
        vec![json!({"type": "invalid_action", "player": "P1",
                    "action": {"type": "place", "at": "D4"}, "reason": "outside_setup_zone"})]
    );
    assert_eq!(engine.due(&m), vec![0]);
    engine
        .submit(&mut m, "P1", &[json!({"type": "place", "at": "D3"})])
        .expect("P1 places");
    assert_eq!(
        engine.take_log(),
        vec![json!({"type": "place", "player": "P1", "at": "D3", "stones": 3})]
    );

    // P2: columns E-G on every row, plus D5-D7.
    let mut p2 = BTreeSet::new();
    for col in ["E", "F", "G"] {
        for row in 1..=7 {
            p2.insert(format!("{col}{row}"));
        }
    }
    for row in 5..=7 {
        p2.insert(format!("D{row}"));
    }
    assert_eq!(placements(&mut engine, &mut m, 1), p2);
    assert!(p1.is_disjoint(&p2));
    assert_eq!(p1.len() + p2.len(), 48, "every cell but D4 is someone's");

    engine
        .submit(&mut m, "P2", &[json!({"type": "place", "at": "D4"})])
        .expect("P2 is due");
    engine
        .submit(&mut m, "P2", &[json!({"type": "place", "at": "D5"})])
        .expect("P2 places");
    let log = engine.take_log();
    assert_eq!(log[0]["reason"], json!("outside_setup_zone"), "{log:?}");
    assert_eq!(
        log[1],
        json!({"type": "place", "player": "P2", "at": "D5", "stones": 3})
    );
    let state = engine.state_json(&m);
    assert_eq!(state["cells"]["D4"], json!({"owner": null, "stones": 0}));
    assert_eq!(state["cells"]["D3"], json!({"owner": "P1", "stones": 3}));
    assert_eq!(state["turn"], json!(0));
    assert_eq!(engine.due(&m), vec![0, 1], "main turns are simultaneous");
}

#[test]
fn random_games_on_7x7_play_to_the_end() {
    deep(|| {
        let loaded = load_7x7();
        let mut engine = Engine::new(loaded.game.clone()).expect("engine");
        for seed in 0..8u64 {
            let mut agents = vec![
                by_name("random", seed, 0).expect("random agent"),
                by_name("random", seed, 1).expect("random agent"),
            ];
            let played = play_match(
                &mut engine,
                &mut agents,
                seed,
                PlayOptions {
                    record: true,
                    check: true,
                },
            )
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
            assert!(
                played.failures.is_empty(),
                "seed {seed}: {:?}",
                played.failures
            );
            assert!(played.m.state.is_over(), "seed {seed}: the game ended");
            check_finished(&engine.state_json(&played.m), &played.events, seed);
        }
    });
}

/// After the last turn: 20 turns resolved, a territory count matching the board, stones within bounds,
/// and the winner the player with more cells.
fn check_finished(state: &Json, events: &[Json], seed: u64) {
    assert_eq!(state["turn"], json!(20), "seed {seed}: ends after turn 20");
    let (mut n1, mut n2) = (0, 0);
    for (id, cell) in state["cells"].as_object().expect("cells") {
        let stones = cell["stones"].as_i64().expect("stones");
        match cell["owner"].as_str() {
            None => assert_eq!(stones, 0, "seed {seed}: neutral {id} has no stones"),
            Some(p) => {
                assert!(
                    (1..=10).contains(&stones),
                    "seed {seed}: {id} of {p} has {stones} stones"
                );
                if p == "P1" {
                    n1 += 1;
                } else {
                    n2 += 1;
                }
            }
        }
    }
    let ends: Vec<&Json> = events
        .iter()
        .filter(|e| e["type"] == json!("game_end"))
        .collect();
    assert_eq!(ends.len(), 1, "seed {seed}: one game_end");
    let end = ends[0];
    assert_eq!(
        Some(end),
        events.last(),
        "seed {seed}: game_end closes the game"
    );
    assert_eq!(end["reason"], json!("territories"), "seed {seed}");
    assert_eq!(
        end["territories"],
        json!({"P1": n1, "P2": n2}),
        "seed {seed}: {end}"
    );
    let winner = match n1.cmp(&n2) {
        std::cmp::Ordering::Greater => json!("P1"),
        std::cmp::Ordering::Less => json!("P2"),
        std::cmp::Ordering::Equal => Json::Null,
    };
    assert_eq!(end["winner"], winner, "seed {seed}: {end}");
    // Every main turn resolved: the random agents place once each, then 20 turns follow.
    let places = events
        .iter()
        .filter(|e| e["type"] == json!("place"))
        .count();
    assert_eq!(places, 2, "seed {seed}: one placement each");
}
