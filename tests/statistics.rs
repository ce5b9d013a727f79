//! Statistical checks of Strategic Influence's random procedures (RULINGS.md, Strategic Influence 4 and 5),
//! measured over many fixed seeds through the library API and counted from the logged events.
//!
//! Bound: every estimate p_hat over N games must satisfy |p_hat - p| <= 4.5 * sqrt(p (1 - p) / N).
//! The seeds are fixed (0..N), so each assertion is deterministic: it either always passes or always fails.
//! 4.5 standard errors is wide enough that a correct engine passes for all but a ~7e-6 (two-sided normal tail)
//! share of seed ranges per estimate (about 1e-4 over the dozen estimates here), so a change of seeds or
//! of the generator will not turn the test red by chance; and it is narrow enough to catch real mistakes:
//! with N = 4000 and p = 1/2 it is +-0.036, while the plausible bugs (attacker rolling first: 2/3 instead
//! of 1/3; one roll per expansion instead of one per stone: 1/2 instead of 3/4 or 7/8; sequential
//! instead of simultaneous contest rounds: no mutual destruction at all) move an estimate by 0.1 or more.
use std::collections::HashMap;

use arbiter::engine::{Engine, Match};
use serde_json::{json, Value as Json};

/// Games per measurement (seeds 0..GAMES).
const GAMES: u64 = 4000;
/// Allowed distance from the exact value, in standard errors (see the module doc).
const BOUND_SE: f64 = 4.5;

fn engine(overrides: &[(&str, Json)]) -> Engine {
    let overrides: Vec<(String, Json)> = overrides
        .iter()
        .map(|(k, v)| (k.to_string(), v.clone()))
        .collect();
    let loaded = arbiter::ruleset::load("strategic_influence", None, &overrides)
        .unwrap_or_else(|e| panic!("strategic_influence loads: {:?}", e.diagnostics()));
    let mut engine = Engine::new(loaded.game.clone()).expect("engine");
    engine.set_logging(true);
    engine
}

fn submit(engine: &mut Engine, m: &mut Match, player: &str, actions: &[Json]) {
    engine
        .submit(m, player, actions)
        .unwrap_or_else(|e| panic!("{player} submits {actions:?}: {e}"));
}

/// Plays the setup (P1 at `p1`, P2 at `p2`) and one main turn with the given orders; returns the turn's
/// events (the setup's `place` events are dropped). Fails on any `invalid_action`.
fn one_turn(
    engine: &mut Engine,
    seed: u64,
    p1: &str,
    p2: &str,
    p1_orders: &[Json],
    p2_orders: &[Json],
) -> Vec<Json> {
    let mut m = engine.start(seed).expect("starts");
    submit(engine, &mut m, "P1", &[json!({"type": "place", "at": p1})]);
    submit(engine, &mut m, "P2", &[json!({"type": "place", "at": p2})]);
    let setup = engine.take_log();
    assert_eq!(setup.len(), 2, "two placements: {setup:?}");
    submit(engine, &mut m, "P1", p1_orders);
    submit(engine, &mut m, "P2", p2_orders);
    let events = engine.take_log();
    assert_eq!(engine.state_json(&m)["turn"], json!(1), "the turn resolved");
    for e in &events {
        assert_ne!(e["type"], json!("invalid_action"), "seed {seed}: {e}");
    }
    events
}

fn of_type<'a>(events: &'a [Json], kind: &str) -> Vec<&'a Json> {
    events.iter().filter(|e| e["type"] == json!(kind)).collect()
}

/// Asserts that `hits` out of `n` is within the bound of `p`, and returns the estimate.
fn assert_rate(what: &str, hits: u64, n: u64, p: f64) -> f64 {
    let est = hits as f64 / n as f64;
    let se = (p * (1.0 - p) / n as f64).sqrt();
    let bound = BOUND_SE * se;
    eprintln!(
        "{what}: {hits}/{n} = {est:.4} (exact {p:.4}, bound +-{bound:.4}, z = {:.2})",
        (est - p) / se
    );
    assert!(
        (est - p).abs() <= bound,
        "{what}: measured {est:.4} over {n} games, expected {p:.4} +- {bound:.4} ({BOUND_SE} standard errors)"
    );
    est
}

/// (a) An expansion of k stones succeeds unless every one of its k independent rolls (chance 1/2) fails:
/// P = 1 - (1/2)^k, so 1/2, 3/4 and 7/8 for 1, 2 and 3 stones (manual, "Expansion").
#[test]
fn expansion_success_is_one_minus_all_rolls_failing() {
    let mut engine = engine(&[]);
    for (k, p) in [(1u64, 0.5), (2, 0.75), (3, 0.875)] {
        let mut successes = 0;
        for seed in 0..GAMES {
            let events = one_turn(
                &mut engine,
                seed,
                "B2",
                "D4",
                &[json!({"type": "move", "from": "B2", "to": "B3", "amount": k})],
                &[],
            );
            let exp = of_type(&events, "expansion");
            assert_eq!(exp.len(), 1, "seed {seed}: {events:?}");
            let e = exp[0];
            let rolls: Vec<bool> = e["rolls"]
                .as_array()
                .expect("rolls")
                .iter()
                .map(|r| r.as_bool().expect("a boolean roll"))
                .collect();
            // One roll per stone, all drawn; success iff any roll succeeds.
            assert_eq!(rolls.len() as u64, k, "seed {seed}: {e}");
            let success = e["success"].as_bool().expect("success");
            assert_eq!(success, rolls.iter().any(|r| *r), "seed {seed}: {e}");
            // The cell is taken with every stone sent, or stays neutral.
            let state = engine_state_after(&events, "B3");
            if success {
                successes += 1;
                assert_eq!(state, Some(("P1".to_string(), k as i64)), "seed {seed}");
            }
        }
        assert_rate(
            &format!("expansion with {k} stone(s) succeeds"),
            successes,
            GAMES,
            p,
        );
    }
}

/// Who ends up at `cell` according to the events of a turn (expansion or combat there), if anyone took it.
fn engine_state_after(events: &[Json], cell: &str) -> Option<(String, i64)> {
    let mut at = None;
    for e in events.iter().filter(|e| e["cell"] == json!(cell)) {
        match e["type"].as_str() {
            Some("expansion") if e["success"] == json!(true) => {
                at = Some((
                    e["player"].as_str().unwrap().to_string(),
                    e["stones"].as_i64().unwrap(),
                ))
            }
            Some("combat") => {
                at = e["winner"]
                    .as_str()
                    .map(|w| (w.to_string(), e["survivors"].as_i64().unwrap()))
            }
            _ => {}
        }
    }
    at
}

/// (b) Defender-first alternating combat at p = 1/2 (RULINGS 4d).
///
/// Let f(a, d) be the attacker's chance to win with a attackers and d defenders when the defender rolls
/// next, g(a, d) the same when the attacker rolls next. With p = q = 1/2:
///   f(a, d) = p g(a - 1, d) + q g(a, d),   g(a, d) = p f(a, d - 1) + q f(a, d),
///   f(0, d) = g(0, d) = 0,  f(a, 0) = g(a, 0) = 1.
/// 1 vs 1: f = q g and g = p + q f, so f = pq / (1 - q^2) = (1/4) / (3/4) = 1/3 (the first hit decides,
///   and it is the attacker's with chance 1/4 + 1/16 + ... = 1/3); g(1, 1) = p + q/3 = 2/3.
/// 2 vs 1: f(2, 1) = p g(1, 1) + q g(2, 1) with g(2, 1) = p + q f(2, 1), so
///   f = 1/3 + 1/4 + f/4, f = (7/12) / (3/4) = 7/9.
///   Check: the attacker loses iff the defender hits twice before the attacker's first hit. That first hit
///   is on attacker roll k with chance 2^-k, after k defender rolls, so
///   P(lose) = sum_k 2^-k P(Bin(k, 1/2) >= 2) = 1 - sum_k (k + 1) 4^-k = 1 - (4/9 + 1/3) = 2/9.
///   The attacker keeps both stones iff its first hit comes before any defender hit: 1/3 (as in 1 vs 1);
///   so it wins with 1 survivor with chance 7/9 - 1/3 = 4/9.
#[test]
fn defender_first_combat_odds() {
    // 1 vs 1: one stone each, P1 sends its only stone.
    let mut engine1 = engine(&[("settings.stonesPerPlacement", json!(1))]);
    let mut wins = 0;
    for seed in 0..GAMES {
        let events = one_turn(
            &mut engine1,
            seed,
            "C2",
            "D2",
            &[json!({"type": "move", "from": "C2", "to": "D2", "amount": 1})],
            &[],
        );
        let c = of_type(&events, "combat");
        assert_eq!(c.len(), 1, "seed {seed}: {events:?}");
        check_alternating_combat(c[0], 1, 1, seed);
        if c[0]["winner"] == json!("P1") {
            wins += 1;
        }
    }
    assert_rate(
        "1 vs 1, defender first: attacker wins",
        wins,
        GAMES,
        1.0 / 3.0,
    );

    // 2 vs 1: two stones each; P2 sends one of its stones away (an expansion, resolved before the attack) so
    // that one defender is left at D2, and P1 attacks with both of its stones.
    let mut engine2 = engine(&[("settings.stonesPerPlacement", json!(2))]);
    let (mut wins, mut wins_with_two) = (0, 0);
    for seed in 0..GAMES {
        let events = one_turn(
            &mut engine2,
            seed,
            "C2",
            "D2",
            &[json!({"type": "move", "from": "C2", "to": "D2", "amount": 2})],
            &[json!({"type": "move", "from": "D2", "to": "E2", "amount": 1})],
        );
        let c = of_type(&events, "combat");
        assert_eq!(c.len(), 1, "seed {seed}: {events:?}");
        check_alternating_combat(c[0], 2, 1, seed);
        if c[0]["winner"] == json!("P1") {
            wins += 1;
            if c[0]["survivors"] == json!(2) {
                wins_with_two += 1;
            }
        }
    }
    assert_rate(
        "2 vs 1, defender first: attacker wins",
        wins,
        GAMES,
        7.0 / 9.0,
    );
    assert_rate(
        "2 vs 1, defender first: attacker wins with both stones",
        wins_with_two,
        GAMES,
        1.0 / 3.0,
    );
}

/// The combat event's rolls alternate, defender first, each hit removes one stone, and it stops as soon as
/// one side has none; winner and survivors follow.
fn check_alternating_combat(c: &Json, attackers: i64, defenders: i64, seed: u64) {
    assert_eq!(c["attackers"], json!(attackers), "seed {seed}: {c}");
    assert_eq!(c["defenders"], json!(defenders), "seed {seed}: {c}");
    let (mut a, mut d) = (attackers, defenders);
    let rolls = c["rolls"].as_array().expect("rolls");
    for (i, r) in rolls.iter().enumerate() {
        assert!(a > 0 && d > 0, "seed {seed}: roll after the end: {c}");
        let side = if i % 2 == 0 { "defender" } else { "attacker" };
        assert_eq!(r["side"], json!(side), "seed {seed}: {c}");
        if r["hit"] == json!(true) {
            if side == "defender" {
                a -= 1;
            } else {
                d -= 1;
            }
        }
    }
    assert!(a == 0 || d == 0, "seed {seed}: combat stopped early: {c}");
    let (winner, survivors) = if a > 0 { ("P1", a) } else { ("P2", d) };
    assert_eq!(c["winner"], json!(winner), "seed {seed}: {c}");
    assert_eq!(c["survivors"], json!(survivors), "seed {seed}: {c}");
}

/// (c) Two successful expansions into one cell fight in simultaneous rounds (RULINGS 5). 1 vs 1: in each
/// round, with p = 1/2, both hit (1/4: mutual destruction), only P1 hits (1/4: P1 takes the cell), only
/// P2 hits (1/4: P2 takes it), or neither (1/4: another round). Conditional on the round deciding, each
/// outcome has chance (1/4) / (3/4) = 1/3.
#[test]
fn contested_expansion_rounds_are_simultaneous() {
    let mut engine = engine(&[
        ("settings.stonesPerPlacement", json!(1)),
        ("settings.expansionChance", json!(1)),
    ]);
    let mut outcomes: HashMap<String, u64> = HashMap::new();
    for seed in 0..GAMES {
        let events = one_turn(
            &mut engine,
            seed,
            "C2",
            "C4",
            &[json!({"type": "move", "from": "C2", "to": "C3", "amount": 1})],
            &[json!({"type": "move", "from": "C4", "to": "C3", "amount": 1})],
        );
        let exp = of_type(&events, "expansion");
        assert_eq!(exp.len(), 2, "seed {seed}: {events:?}");
        assert_eq!(exp[0]["player"], json!("P1"), "P1 rolls first");
        assert_eq!(exp[1]["player"], json!("P2"));
        let c = of_type(&events, "combat");
        assert_eq!(c.len(), 1, "seed {seed}: {events:?}");
        let c = c[0];
        // Rolls come in pairs (P1's then P2's) and only the last pair has a hit.
        let rolls = c["rolls"].as_array().expect("rolls");
        assert!(
            !rolls.is_empty() && rolls.len().is_multiple_of(2),
            "seed {seed}: {c}"
        );
        for (i, pair) in rolls.chunks(2).enumerate() {
            assert_eq!(pair[0]["side"], json!("attacker"), "seed {seed}: {c}");
            assert_eq!(pair[1]["side"], json!("defender"), "seed {seed}: {c}");
            let any = pair[0]["hit"] == json!(true) || pair[1]["hit"] == json!(true);
            assert_eq!(any, i == rolls.len() / 2 - 1, "seed {seed}: {c}");
        }
        let last = &rolls[rolls.len() - 2..];
        let outcome = match (last[0]["hit"] == json!(true), last[1]["hit"] == json!(true)) {
            (true, true) => "mutual",
            (true, false) => "P1",
            (false, true) => "P2",
            _ => unreachable!(),
        };
        let want_winner = match outcome {
            "mutual" => Json::Null,
            w => json!(w),
        };
        assert_eq!(c["winner"], want_winner, "seed {seed}: {c}");
        let taken = engine_state_after(&events, "C3");
        match outcome {
            "mutual" => assert_eq!(taken, None, "seed {seed}"),
            w => assert_eq!(taken, Some((w.to_string(), 1)), "seed {seed}"),
        }
        *outcomes.entry(outcome.to_string()).or_default() += 1;
    }
    for outcome in ["mutual", "P1", "P2"] {
        assert_rate(
            &format!("contested 1 vs 1, both successful: {outcome}"),
            outcomes.get(outcome).copied().unwrap_or(0),
            GAMES,
            1.0 / 3.0,
        );
    }
}

/// (d) Both players send one stone into the same neutral cell at expansion chance 1/2: each side rolls its
/// own expansion, so nobody succeeds with 1/4, exactly one side with 1/2 (each 1/4), both with 1/4 (then a
/// contest follows); the cell ends neutral when nobody succeeds or the contest is mutual destruction:
/// 1/4 + 1/4 * 1/3 = 1/3.
#[test]
fn contested_expansion_success_split() {
    let mut engine = engine(&[("settings.stonesPerPlacement", json!(1))]);
    let (mut none, mut only_p1, mut only_p2, mut both, mut neutral) = (0, 0, 0, 0, 0);
    for seed in 0..GAMES {
        let events = one_turn(
            &mut engine,
            seed,
            "C2",
            "C4",
            &[json!({"type": "move", "from": "C2", "to": "C3", "amount": 1})],
            &[json!({"type": "move", "from": "C4", "to": "C3", "amount": 1})],
        );
        let exp = of_type(&events, "expansion");
        assert_eq!(exp.len(), 2, "seed {seed}: {events:?}");
        let s1 = exp[0]["success"] == json!(true);
        let s2 = exp[1]["success"] == json!(true);
        let combats = of_type(&events, "combat").len();
        assert_eq!(combats, usize::from(s1 && s2), "seed {seed}: {events:?}");
        match (s1, s2) {
            (false, false) => none += 1,
            (true, false) => only_p1 += 1,
            (false, true) => only_p2 += 1,
            (true, true) => both += 1,
        }
        if engine_state_after(&events, "C3").is_none() {
            neutral += 1;
        }
    }
    assert_rate("contested, no expansion succeeds", none, GAMES, 0.25);
    assert_rate("contested, only P1 succeeds", only_p1, GAMES, 0.25);
    assert_rate("contested, only P2 succeeds", only_p2, GAMES, 0.25);
    assert_rate("contested, both succeed", both, GAMES, 0.25);
    assert_rate("contested, C3 ends neutral", neutral, GAMES, 1.0 / 3.0);
}

/// hitChance 0 would make combat endless, so loading rejects it (RULINGS, all games 3); 1 is allowed.
#[test]
fn hit_chance_must_be_positive() {
    let Err(err) = arbiter::ruleset::load(
        "strategic_influence",
        None,
        &[("settings.hitChance".into(), json!(0))],
    ) else {
        panic!("hitChance 0 is rejected");
    };
    assert!(
        err.diagnostics()
            .iter()
            .any(|d| d.code == "ruleset::setting_out_of_range"),
        "{:?}",
        err.diagnostics()
    );
    assert!(arbiter::ruleset::load(
        "strategic_influence",
        None,
        &[("settings.hitChance".into(), json!(1))]
    )
    .is_ok());
}
