//! ASG with `rng: xorshift32` against an independent model of the public reference engine's ply loop.
//!
//! The public reference implementation of ASG MVP v0 (repository MykolaPinchuk/ASG: `src/game/engine.ts`,
//! `src/game/match.ts`, `scenarios/scenario_01.json`, the generator in
//! `IA_HANDOFF/prototype_optional/src/game/prng.ts`) ships no match records: its `replays/` folder is
//! git-ignored. So instead of replaying records, `tests/asg_reference/model.rs` holds a small model of the
//! reference's ply loop, written from the normative spec (`asg-mvp-spec-v0.md`) and RULINGS ASG 1-12,
//! sharing no code with Arbiter (`tests/asg_reference/controllers.rs` plays it). Seeded games are played
//! twice, by the model and by Arbiter's canonical `asg` ruleset with the same submissions, and compared
//! event by event, state after state (after every ply) and result by result, `ply` included. Four of these games are also conformance cases (`53_model_*` to `56_model_*`).
//!
//! The model keeps the reference's shape: a ply applies its income first, then the submission, then
//! `ply += 1` and the turn-cap check. Arbiter applies a ply's income as soon as the ply starts (RULINGS
//! ASG 12), so between plies its state already shows the next player's income; the model's expected state
//! adds it the same way. Events carry Arbiter's names (INTERFACE section 8; the reference names the same
//! facts `location`, `supplyAfter`, ...), and each model event must match its Arbiter event field by field
//! (Arbiter may add fields, as INTERFACE allows).
//!
//! Where reference versions differ, the model follows the spec and RULINGS: a combat with delta 0 draws a
//! coin (RULINGS ASG 9, 10), as the reference did when RULINGS ASG 11 was measured; later versions of the
//! reference give such a combat to the defender without a draw. Amounts are read as a JavaScript engine
//! reads the JSON it wrote itself (integers without a fraction part); the controllers send no `3.0`.
//!
//! Controllers: scripted policies (march on the enemy HQ, random with invalid entries, turtle, mixed) drawn
//! per game from a seed, across settings variants, so games end by HQ capture and by the turn cap, with
//! combats, coin flips, budget overflows and every invalid reason of RULINGS ASG 3.
mod asg_reference;
mod support;

use arbiter::engine::Engine;
use asg_reference::controllers::{Choices, Controller, Policy};
use asg_reference::model::{Model, Settings, XorShift32, PLAYERS};
use serde_json::{json, Map, Value as Json};
use support::{deep, root};

#[test]
fn the_model_generator_gives_the_rulings_test_vectors() {
    let draws = |seed: u32, n: usize| {
        let mut r = XorShift32::new(seed);
        (0..n).map(|_| r.next()).collect::<Vec<_>>()
    };
    assert_eq!(
        draws(1, 5),
        [270369, 67634689, 2647435461, 307599695, 2398689233]
    );
    assert_eq!(draws(42, 3), [11355432, 2836018348, 476557059]);
    assert_eq!(draws(0, 2), [1085196063, 2447379481]);
}

// ---------------------------------------------------------------------------------------------------
// Playing both and comparing.

/// `want` holds in `got`: every field of an object `want` has (recursively; Arbiter may show more), the
/// echoed `action` of an `invalid_action` exactly, and every other value exactly.
fn holds(want: &Json, got: &Json) -> bool {
    match (want, got) {
        (Json::Object(w), Json::Object(g)) => w.iter().all(|(k, v)| {
            g.get(k)
                .is_some_and(|gv| if k == "action" { v == gv } else { holds(v, gv) })
        }),
        _ => want == got,
    }
}

#[derive(Default)]
struct Coverage {
    games: usize,
    plies: usize,
    events: usize,
    hq_wins: usize,
    cap_draws: usize,
    combats: usize,
    coin_flips: usize,
    captures_of_neutral: usize,
    reasons: std::collections::BTreeMap<String, usize>,
}

impl Coverage {
    fn count(&mut self, events: &[Json]) {
        self.events += events.len();
        for e in events {
            match e["type"].as_str() {
                Some("combat") => {
                    self.combats += 1;
                    self.coin_flips += usize::from(!e["coin_flip"].is_null());
                }
                Some("capture") if e["previous_owner"].is_null() => self.captures_of_neutral += 1,
                Some("invalid_action") => {
                    *self
                        .reasons
                        .entry(e["reason"].as_str().unwrap_or("?").to_string())
                        .or_default() += 1
                }
                Some("game_end") if e["reason"] == "hq_captured" => self.hq_wins += 1,
                Some("game_end") if e["reason"] == "turn_cap" => self.cap_draws += 1,
                _ => {}
            }
        }
    }
}

/// Plays one game in the model and in Arbiter; the first difference, described, if any.
fn play_both(
    engine: &mut Engine,
    s: Settings,
    seed: u32,
    policies: [Policy; 2],
    cov: &mut Coverage,
) -> Result<(), String> {
    let mut model = Model::new(s, seed);
    let mut ctl = [
        Controller::new(seed, 0, policies[0]),
        Controller::new(seed, 1, policies[1]),
    ];
    let mut m = engine.start(u64::from(seed)).map_err(|e| e.to_string())?;
    let mut got = engine.take_log();
    let mut want: Vec<Json> = Vec::new();
    let mut checked = 0;
    let mut submissions = Vec::new();
    loop {
        let state = engine.state_json(&m);
        let expected = model.expected_state();
        if !holds(&expected, &state) {
            return Err(format!(
                "state after ply {} differs\n  model:   {expected}\n  arbiter: {state}\n  submissions: {}",
                model.ply,
                Json::Array(submissions)
            ));
        }
        if model.result.is_some() {
            break;
        }
        let p = model.active;
        let actions = ctl[p].submission(&model);
        submissions.push(json!({"player": PLAYERS[p], "actions": actions}));
        let events = model.play_ply(&actions);
        cov.count(&events);
        cov.plies += 1;
        want.extend(events);
        engine
            .submit(&mut m, PLAYERS[p], &actions)
            .map_err(|e| format!("ply {}: Arbiter refused the submission: {e}", model.ply - 1))?;
        got.extend(engine.take_log());
        // Arbiter has already logged the next ply's income, which the model logs when that ply is played.
        let pending = usize::from(model.result.is_none());
        for i in checked..want.len().max(got.len().saturating_sub(pending)) {
            let (w, g) = (want.get(i), got.get(i));
            if !matches!((w, g), (Some(w), Some(g)) if holds(w, g)) {
                return Err(format!(
                    "event {i} (ply {}) differs\n  model:   {}\n  arbiter: {}\n  submissions: {}",
                    model.ply - 1,
                    w.map_or("(none)".into(), Json::to_string),
                    g.map_or("(none)".into(), Json::to_string),
                    Json::Array(submissions)
                ));
            }
        }
        checked = want.len();
        if got.len() != want.len() + pending {
            return Err(format!(
                "after ply {}: Arbiter logged {} events, the model {} (+{pending} for the next ply's income)",
                model.ply - 1,
                got.len(),
                want.len()
            ));
        }
    }
    let result = serde_json::to_value(arbiter::replay::record::ResultRecord::of(
        &engine.game,
        &m.state,
    ))
    .expect("result serialises");
    if result != model.expected_result() {
        return Err(format!(
            "result differs: model {}, arbiter {result}",
            model.expected_result()
        ));
    }
    cov.games += 1;
    Ok(())
}

/// Settings variants: the defaults, short caps, small budgets, no and full combat variance, dearer
/// reinforcements, no base income, a one-ply game.
fn variants() -> Vec<Settings> {
    let d = Settings::DEFAULT;
    vec![
        d,
        Settings { turn_cap: 12, ..d },
        Settings {
            turn_cap: 30,
            budget: 3,
            ..d
        },
        Settings {
            turn_cap: 20,
            budget: 1,
            ..d
        },
        Settings { fraction: 0.0, ..d },
        Settings {
            fraction: 1.0,
            base_income: 5,
            ..d
        },
        Settings {
            cost: 2,
            base_income: 0,
            ..d
        },
        Settings {
            cost: 3,
            turn_cap: 7,
            budget: 8,
            ..d
        },
        Settings {
            fraction: 0.5,
            turn_cap: 1,
            ..d
        },
        Settings {
            fraction: 0.2,
            budget: 2,
            turn_cap: 40,
            ..d
        },
    ]
}

/// Match seeds: the rulings' seeds (0 becomes 0x6D2B79F5), the largest, and spread-out others.
fn seeds() -> Vec<u32> {
    let mut v = vec![0, 1, 42, 49, u32::MAX];
    let mut c = Choices(7);
    while v.len() < 16 {
        v.push(c.next() as u32);
    }
    v
}

#[test]
fn seeded_xorshift32_games_match_the_reference_model_event_by_event() {
    let cov = deep(|| {
        let policies = [Policy::March, Policy::Random, Policy::Turtle, Policy::Mixed];
        let mut cov = Coverage::default();
        let mut failures = Vec::new();
        for s in variants() {
            let asg = root().join("rulesets/asg").display().to_string();
            let loaded = arbiter::ruleset::load(&asg, Some("scenario_01"), &s.overrides())
                .unwrap_or_else(|e| panic!("asg with {s:?} does not load: {:?}", e.diagnostics()));
            let mut engine = Engine::new(loaded.game).expect("engine");
            engine.set_logging(true);
            for (i, &seed) in seeds().iter().enumerate() {
                let pair = [policies[i % 4], policies[(i / 4) % 4]];
                if let Err(e) = play_both(&mut engine, s, seed, pair, &mut cov) {
                    failures.push(format!("{s:?}, seed {seed}, {pair:?}: {e}"));
                }
            }
        }
        assert!(
            failures.is_empty(),
            "{} game(s) differ from the reference model; the first:\n{}",
            failures.len(),
            failures[0]
        );
        cov
    });
    // The games must have exercised what they are meant to compare.
    assert_eq!(cov.games, variants().len() * seeds().len());
    assert!(cov.hq_wins >= 20, "HQ captures: {}", cov.hq_wins);
    assert!(cov.cap_draws >= 20, "turn-cap draws: {}", cov.cap_draws);
    assert!(cov.combats >= 100, "combats: {}", cov.combats);
    assert!(cov.coin_flips >= 3, "coin flips: {}", cov.coin_flips);
    assert!(
        cov.captures_of_neutral >= 20,
        "neutral captures: {}",
        cov.captures_of_neutral
    );
    for reason in [
        "budget_exceeded",
        "unknown_from",
        "unknown_to",
        "not_adjacent",
        "amount_not_positive_integer",
        "insufficient_forces",
        "insufficient_supply",
    ] {
        assert!(
            cov.reasons.get(reason).copied().unwrap_or(0) >= 5,
            "too few `{reason}` entries: {:?}",
            cov.reasons
        );
    }
    println!(
        "{} games, {} plies, {} events: {} HQ captures, {} turn-cap draws, {} combats ({} coin flips), invalid entries {:?}",
        cov.games, cov.plies, cov.events, cov.hq_wins, cov.cap_draws, cov.combats, cov.coin_flips, cov.reasons
    );
}

// ---------------------------------------------------------------------------------------------------
// A few of these games, written out as conformance cases so that `arbiter conformance` checks them too.

/// `(file, variant, seed, policies, what it shows)`.
const CASES: [(&str, usize, u32, [Policy; 2], &str); 4] = [
    (
        "53_model_hq_capture_xorshift32",
        0,
        1,
        [Policy::Random, Policy::March],
        "P2 captures P1's HQ on ply 7 (ply: 8), after combats with two coin flips and invalid entries",
    ),
    (
        "54_model_hq_capture_seed0_xorshift32",
        0,
        0,
        [Policy::March, Policy::March],
        "seed 0 (xorshift32 state 0x6D2B79F5): both march, P1's HQ falls on ply 5 (ply: 6)",
    ),
    (
        "55_model_turn_cap_60_xorshift32",
        0,
        2289652585,
        [Policy::Turtle, Policy::Mixed],
        "default settings, no HQ falls: a draw at the cap of 60 plies (ply: 60)",
    ),
    (
        "56_model_turn_cap_12_xorshift32",
        1,
        3132172802,
        [Policy::Mixed, Policy::Random],
        "turnCapPlies 12: a draw (ply: 12) after combats, budget overflows and invalid entries",
    ),
];

/// The conformance case of one model game: its submissions, and the model's events, result and state.
fn model_case(variant: usize, seed: u32, policies: [Policy; 2], what: &str) -> String {
    let s = variants()[variant];
    let mut model = Model::new(s, seed);
    let mut ctl = [
        Controller::new(seed, 0, policies[0]),
        Controller::new(seed, 1, policies[1]),
    ];
    let (mut subs, mut events) = (Vec::new(), Vec::new());
    while model.result.is_none() {
        let p = model.active;
        let actions = ctl[p].submission(&model);
        events.extend(model.play_ply(&actions));
        subs.push(json!({"player": PLAYERS[p], "actions": actions}));
    }
    let set: Map<String, Json> = s
        .overrides()
        .into_iter()
        .filter(|(k, v)| {
            let default = Settings::DEFAULT.overrides();
            k == "settings.rng" || !default.contains(&(k.clone(), v.clone()))
        })
        .collect();
    let line = |v: &Json| format!("    - {v}\n");
    let mut t = String::from(
        "# yaml-language-server: $schema=../../../schemas/conformance.schema.json\n\
         # Written by tests/asg_reference_model.rs (ARBITER_BLESS=1 rewrites it). The public reference engine ships\n\
         # no match records: these expectations are those of the independent model of the reference's\n\
         # ply loop in tests/asg_reference/ (spec + RULINGS ASG), not Arbiter's output. Do not edit by hand.\n",
    );
    t += &format!(
        "description: {}\n",
        json!(format!("reference model, xorshift32: {what}"))
    );
    t += &format!(
        "ruleset: asg\nscenario: scenario_01\nseed: {seed}\nset: {}\nsubmissions:\n",
        Json::Object(set)
    );
    t += &subs
        .iter()
        .map(|v| format!("  - {v}\n"))
        .collect::<String>();
    t += "expect:\n  events:\n";
    t += &events.iter().map(line).collect::<String>();
    t += &format!(
        "  result: {}\n  state: {}\n  legal_count: 0\n",
        model.expected_result(),
        model.expected_state()
    );
    t
}

#[test]
fn the_model_conformance_cases_are_the_models_games() {
    let bless = std::env::var_os("ARBITER_BLESS").is_some();
    for (file, variant, seed, policies, what) in CASES {
        let path = root().join(format!("rulesets/asg/conformance/{file}.yaml"));
        let text = model_case(variant, seed, policies, what);
        if bless {
            std::fs::write(&path, &text).expect("write the case");
            continue;
        }
        let have = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            have == text,
            "{} is not the model's game any more (ARBITER_BLESS=1 rewrites it)",
            path.display()
        );
    }
}
