//! The built-in agents on every canonical ruleset: specs are checked with clear messages; every agent
//! finishes games with every step checked; search agents are reproducible for a seed and never read the
//! match's own random stream; in a simultaneous game they gain nothing from moving second.
mod support;
use std::sync::Arc;
use support::{deep, root};

use arbiter::agents::AgentSpec;
use arbiter::engine::{Engine, Match};
use arbiter::rng::Rng;
use arbiter::ruleset::{load, Game};
use arbiter::simulate::{play_match, simulate, PlayOptions, SimConfig};

const RULESETS: &[&str] = &["asg", "war_of_attrition", "strategic_influence"];

fn game(path: &str) -> Arc<Game> {
    match load(&root().join(path).display().to_string(), None, &[]) {
        Ok(l) => l.game,
        Err(e) => panic!("{path}: {:?}", e.diagnostics()),
    }
}

#[test]
fn specs_are_checked_with_clear_messages() {
    let g = game("rulesets/strategic_influence");
    let err = |s: &str| AgentSpec::new(s, &g).unwrap_err();
    assert!(
        err("gredy").contains("did you mean `greedy`"),
        "{}",
        err("gredy")
    );
    assert!(err("mcts:iteration=5").contains("did you mean `iterations`"));
    assert!(err("mcts:iterations=abc").contains("whole number"));
    assert!(err("mcts:iterations=0").contains("from 1"));
    assert!(err("mcts:iterations").contains("key=value"));
    assert!(err("mcts:c=-1").contains("number from 0"));
    assert!(err("minimax:depth=2,depth=3").contains("twice"));
    assert!(err("minimax:eval=defensiv").contains("did you mean `defensive`"));
    assert!(err("greedy:depth=1").contains("takes none"));
    assert!(err("random:by=colour").contains("`action` or `kind`"));
    for ok in [
        "random",
        "random:by=kind",
        "random_kind",
        "greedy",
        "defensive",
        "mcts",
        "mcts:iterations=10,c=1.4,rollout=kind,depth=end,eval=defensive,widen=no,bias=0",
        "mcts:time_ms=5",
        "minimax:depth=3,samples=2,eval=greedy",
    ] {
        assert!(AgentSpec::new(ok, &g).is_ok(), "{ok}");
    }
    assert!(!AgentSpec::new("mcts:time_ms=5", &g).unwrap().reproducible());
}

/// Cheap budgets of every agent, for whole games in tests.
const CHEAP: &[&str] = &[
    "random_kind",
    "mcts:iterations=12",
    "mcts:iterations=8,rollout=kind,depth=2",
    "minimax:depth=1",
];

#[test]
fn every_agent_finishes_every_game_with_every_step_checked() {
    deep(|| {
        for r in RULESETS {
            let g = game(&format!("rulesets/{r}"));
            for a in CHEAP.iter().copied().chain(if *r == "strategic_influence" {
                Some("defensive")
            } else {
                None
            }) {
                let s = simulate(
                    &g,
                    &SimConfig {
                        agents: vec![a.into(), "greedy".into()],
                        games: 2,
                        seed: 5,
                        jobs: 1,
                        check: true,
                        progress: None,
                    },
                )
                .unwrap();
                assert_eq!(s.error_count, 0, "{r} {a}: {:?}", s.errors);
                assert_eq!(s.check_failure_count, 0, "{r} {a}: {:?}", s.check_failures);
                assert_eq!(s.games, 2);
            }
        }
    });
}

fn replay_of(g: &Arc<Game>, agents: [&str; 2], seed: u64) -> String {
    let mut engine = Engine::new(g.clone()).unwrap();
    let mut seats: Vec<_> = agents
        .iter()
        .enumerate()
        .map(|(p, a)| AgentSpec::new(a, g).unwrap().build(seed, p as u8))
        .collect();
    let played = play_match(
        &mut engine,
        &mut seats,
        seed,
        PlayOptions {
            record: true,
            check: false,
        },
    )
    .unwrap();
    played.replay(&engine).to_text()
}

#[test]
fn search_agents_are_reproducible_for_a_seed() {
    deep(|| {
        for r in RULESETS {
            let g = game(&format!("rulesets/{r}"));
            for a in ["mcts:iterations=10", "minimax:depth=1"] {
                let one = replay_of(&g, [a, "random"], 9);
                assert_eq!(one, replay_of(&g, [a, "random"], 9), "{r} {a}");
            }
        }
    });
}

#[test]
fn search_agents_never_read_the_match_random_stream() {
    // The same position with two different match generators: the agent (same seed) decides the same.
    deep(|| {
        for r in ["asg", "strategic_influence"] {
            let g = game(&format!("rulesets/{r}"));
            for a in ["mcts:iterations=30", "minimax:depth=2"] {
                let spec = AgentSpec::new(a, &g).unwrap();
                let mut engine = Engine::new(g.clone()).unwrap();
                let base = engine.start(1).unwrap();
                let mut decided = Vec::new();
                for stream in [11, 12] {
                    let mut m: Match = base.clone();
                    m.rng = Rng::stream(g.rng, 77, stream);
                    let mut agent = spec.build(4, 0);
                    decided.push(agent.act(&mut engine, &mut m, 0).unwrap());
                }
                // The first turn of these games draws nothing when its actions apply (no contact yet), so
                // any difference would come from the agent reading the match's generator.
                assert_eq!(decided[0], decided[1], "{r} {a}");
            }
        }
    });
}

#[test]
fn moving_second_gains_nothing_in_matching_pennies() {
    let g = game("tests/fixtures/simultaneous/pennies");
    for a in ["mcts:iterations=30", "minimax:depth=2"] {
        let s = simulate(
            &g,
            &SimConfig {
                agents: vec!["random".into(), a.into()],
                games: 200,
                seed: 3,
                jobs: 2,
                check: true,
                progress: None,
            },
        )
        .unwrap();
        assert_eq!(s.error_count + s.check_failure_count, 0, "{s:?}");
        let (p1, p2) = (s.wins["P1"], s.wins["P2"]);
        // Seeing P1's pick, the second player would win all 200.
        assert!(p2 <= 140, "{a}: P1 {p1} wins, P2 {p2} wins of 200");
    }
}

#[test]
fn mcts_beats_random() {
    deep(|| {
        let g = game("rulesets/strategic_influence");
        let s = simulate(
            &g,
            &SimConfig {
                agents: vec!["mcts:iterations=30".into(), "random".into()],
                games: 6,
                seed: 1,
                jobs: 1,
                check: false,
                progress: None,
            },
        )
        .unwrap();
        assert!(s.wins["P1"] >= 5, "{s:?}");
    });
}

/// A submission holds exactly the actions that were applied: when the agent fails midway (or hands in),
/// the slot it was given for the next action is not left behind.
#[test]
fn a_failed_or_finished_submission_keeps_only_applied_actions() {
    use arbiter::agents::submit_each_into;
    use arbiter::engine::RunError;
    // War of Attrition: a points budget, so a player may give several actions in one submission.
    let g = game("rulesets/war_of_attrition");
    let mut engine = Engine::new(g).unwrap();
    let mut m = engine.start(7).unwrap();
    let p = engine.first_due(&m).unwrap();
    let mut out = Vec::new();
    let mut calls = 0;
    let r = submit_each_into(&mut engine, &mut m, p, &mut out, |engine, m, slot| {
        calls += 1;
        if calls == 2 {
            return Err(RunError::new("the agent failed"));
        }
        // The first legal action: a move (end_turn, which would close the submission, is listed last).
        let a = engine.nth_legal(m, p, 0)?.expect("a legal action");
        *slot = a;
        Ok(true)
    });
    assert!(r.is_err());
    assert_eq!(calls, 2);
    assert_eq!(out.len(), 1, "only the applied action stays");

    // Handing in at once leaves the submission empty.
    let mut m = engine.start(8).unwrap();
    let p = engine.first_due(&m).unwrap();
    submit_each_into(&mut engine, &mut m, p, &mut out, |_, _, _| Ok(false)).unwrap();
    assert!(out.is_empty());
}
