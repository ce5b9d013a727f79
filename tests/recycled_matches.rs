//! An engine reuses the memory of matches handed back to it (`Engine::recycle`, as `simulate` does after
//! each game and the match driver with its copies of simultaneous turns): a match started in recycled
//! memory must be the match a new engine starts, and play the same game. Each shipped ruleset (and the
//! simultaneous-turn fixture) plays a game, hands everything back, then starts another seed on the same
//! engine and on a new one; the positions must be equal and both games' replays identical.
mod support;

use arbiter::agents::by_name;
use arbiter::engine::Engine;
use arbiter::simulate::play::{play_match, PlayOptions};

fn replay_of(engine: &mut Engine, seed: u64) -> String {
    let players = engine.game.players.len() as u8;
    let mut agents: Vec<_> = (0..players)
        .map(|p| by_name("random", seed, p).expect("agent"))
        .collect();
    let played = play_match(
        engine,
        &mut agents,
        seed,
        PlayOptions {
            record: true,
            check: false,
        },
    )
    .expect("game");
    let json = serde_json::to_string(&played.replay(engine).to_json()).expect("json");
    engine.recycle(played.m);
    json
}

#[test]
fn a_match_started_in_recycled_memory_is_a_new_match() {
    support::deep(|| {
        let mut dirs = support::shipped_rulesets();
        dirs.push(support::root().join("tests/fixtures/simultaneous/pennies"));
        for dir in dirs {
            let loaded = arbiter::ruleset::load(&dir.display().to_string(), None, &[])
                .unwrap_or_else(|e| panic!("{}: {:?}", dir.display(), e.diagnostics()));
            let mut reused = Engine::new(loaded.game.clone()).expect("engine");
            // A whole game first, so that the match and any copies of it go back to the engine.
            replay_of(&mut reused, 1);
            let mut fresh = Engine::new(loaded.game).expect("engine");
            let (a, b) = (
                reused.start(2).expect("start"),
                fresh.start(2).expect("start"),
            );
            assert!(
                a.state == b.state,
                "{}: a recycled start differs from a new one",
                dir.display()
            );
            reused.recycle(a);
            assert_eq!(
                replay_of(&mut reused, 2),
                replay_of(&mut fresh, 2),
                "{}: the game in recycled memory differs",
                dir.display()
            );
        }
    });
}
