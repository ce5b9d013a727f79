//! The optimised program plays exactly the games the plain one does. Every shipped ruleset (and the
//! fixtures with simultaneous turns, whose later orders the optimised program applies unchecked when they
//! cannot interact, stuck players, sums and counts computed column-wise, a board of more than 256 cells,
//! and every kind of set walked by loops, counts, sums, `any` and `first`) is lowered
//! twice: with every optimisation (leaf operands read in place, typed reads, scheduled and hoisted tests,
//! planned scans, cached fixed sets) and with none. The same seeded games between random agents (which pick by counting blocks of legal actions
//! and apply them trusted, and in simultaneous turns whose orders cannot interact act on the live match,
//! where the plain program has them decide on a copy of the turn start) and between greedy agents (which list every action) are recorded on both, and
//! their events, results and final states must be identical; a third run re-applies every submission
//! step by step through the checked path (the per-step checks), so trusted and checked application agree.
//! The rulesets' evaluations are compared value for value at every position of random games.
mod support;

use std::path::{Path, PathBuf};

use arbiter::agents::by_name;
use arbiter::engine::{Engine, Options, Program};
use arbiter::simulate::play::{play_match, play_match_observed, PlayOptions};

fn games() -> Vec<PathBuf> {
    let mut v = support::shipped_rulesets();
    for fixture in [
        "simultaneous/pennies",
        "simultaneous/claims",
        "stuck",
        "column_sums",
        "large_board",
        "set_walks",
    ] {
        v.push(support::root().join("tests/fixtures").join(fixture));
    }
    v
}

/// The game in `dir` on two engines: lowered with every optimisation, and with none.
fn fast_and_plain(dir: &Path) -> (Engine, Engine) {
    let loaded = match arbiter::ruleset::load(&dir.display().to_string(), None, &[]) {
        Ok(l) => l,
        Err(e) => panic!("{} does not load: {:?}", dir.display(), e.diagnostics()),
    };
    let game = loaded.game;
    let fast = Engine::new(game.clone()).expect("engine");
    let plain = Program::new(&game, Options::plain());
    let slow = Engine::with_program(game, plain).expect("engine");
    (fast, slow)
}

/// The replay JSON of one game, or the error it stopped with.
fn play(engine: &mut Engine, agent: &str, seed: u64, check: bool) -> String {
    let players = engine.game.players.len() as u8;
    let mut agents: Vec<_> = (0..players)
        .map(|p| by_name(agent, seed, p).expect("agent"))
        .collect();
    match play_match(
        engine,
        &mut agents,
        seed,
        PlayOptions {
            record: true,
            check,
        },
    ) {
        Ok(played) => {
            assert!(
                played.failures.is_empty(),
                "seed {seed}: {:?}",
                played.failures
            );
            serde_json::to_string(&played.replay(engine).to_json()).expect("json")
        }
        Err(e) => format!("error: {e}"),
    }
}

#[test]
fn optimised_and_plain_programs_play_the_same_games() {
    support::deep(|| {
        for dir in games() {
            let (mut fast, mut slow) = fast_and_plain(&dir);
            for (agent, seeds) in [("random", 0..12u64), ("greedy", 0..2u64)] {
                for seed in seeds {
                    let a = play(&mut fast, agent, seed, false);
                    let b = play(&mut slow, agent, seed, false);
                    assert!(
                        a == b,
                        "{}: {agent} game {seed} differs between the optimised and the plain program",
                        dir.display()
                    );
                    if agent == "random" && seed < 3 {
                        let c = play(&mut slow, agent, seed, true);
                        assert_eq!(a, c, "{}: checked re-application differs", dir.display());
                    }
                }
            }
        }
    });
}

/// Every evaluation a ruleset declares gives the same value for every player in both programs, at every
/// position of a few random games: the typed sums, counts and arithmetic against the generic path (the
/// greedy games above compare only which action scores best).
#[test]
fn optimised_and_plain_programs_evaluate_alike() {
    support::deep(|| {
        for dir in games() {
            let (mut fast, mut slow) = fast_and_plain(&dir);
            let game = fast.game.clone();
            if game.evaluations.is_empty() {
                continue;
            }
            let players = game.players.len() as u8;
            for seed in 0..3u64 {
                let mut agents: Vec<_> = (0..players)
                    .map(|p| by_name("random", seed, p).expect("agent"))
                    .collect();
                let mut positions = Vec::new();
                play_match_observed(
                    &mut fast,
                    &mut agents,
                    seed,
                    PlayOptions::default(),
                    &mut |step| positions.push(step.m.clone()),
                )
                .expect("game");
                assert!(!positions.is_empty(), "{}: no position", dir.display());
                for (i, m) in positions.iter_mut().enumerate() {
                    for (k, (name, _)) in game.evaluations.iter().enumerate() {
                        for p in 0..players {
                            let a = fast.evaluate_with(k, m, p);
                            let b = slow.evaluate_with(k, m, p);
                            let same = match (&a, &b) {
                                (Ok(x), Ok(y)) => x == y || (x.is_nan() && y.is_nan()),
                                _ => a == b,
                            };
                            assert!(
                                same,
                                "{}: seed {seed}, step {i}: evaluation `{name}` for player {p} is \
                                 {a:?} optimised, {b:?} plain",
                                dir.display()
                            );
                        }
                    }
                }
            }
        }
    });
}
