//! The suite every ruleset folder passes (OpenSpiel's habit): it validates clean; seeded random games run to
//! the end with per-step checks (every listed action applies without `invalid_action`, counts agree,
//! invariants hold); every replay verifies; a golden playthrough stays byte-identical.
//! Bless goldens after an intended rule change with `ARBITER_BLESS=1 cargo test --test every_ruleset`.
mod support;
use std::path::{Path, PathBuf};
use support::{deep, root};

use arbiter::agents::by_name;
use arbiter::engine::Engine;
use arbiter::simulate::play::{play_match, PlayOptions};

/// Every folder under rulesets/ with a ruleset.yaml.
fn rulesets() -> Vec<PathBuf> {
    let v = support::shipped_rulesets();
    assert!(v.len() >= 3, "the three canonical rulesets are present");
    v
}

fn load(dir: &Path) -> arbiter::ruleset::Loaded {
    match arbiter::ruleset::load(&dir.display().to_string(), None, &[]) {
        Ok(l) => l,
        Err(e) => panic!(
            "{} does not validate:\n{}",
            dir.display(),
            arbiter::diagnostic::render_text(e.diagnostics(), false)
        ),
    }
}

#[test]
fn every_ruleset_validates_clean() {
    for dir in rulesets() {
        let l = load(&dir);
        assert!(!l.game.players.is_empty());
    }
}

#[test]
fn random_games_run_to_the_end_with_per_step_checks() {
    deep(|| {
        for dir in rulesets() {
            let l = load(&dir);
            let mut engine = Engine::new(l.game.clone()).expect("engine");
            for seed in 0..12u64 {
                let mut agents: Vec<_> = (0..l.game.players.len() as u8)
                    .map(|p| by_name("random", seed, p).expect("random agent"))
                    .collect();
                let played = play_match(
                    &mut engine,
                    &mut agents,
                    seed,
                    PlayOptions {
                        record: false,
                        check: true,
                    },
                )
                .unwrap_or_else(|e| panic!("{} seed {seed}: {e}", dir.display()));
                assert!(
                    played.m.state.is_over(),
                    "{} seed {seed}: game did not end",
                    dir.display()
                );
                assert!(
                    played.failures.is_empty(),
                    "{} seed {seed}: {:?}",
                    dir.display(),
                    played.failures
                );
            }
        }
    });
}

#[test]
fn greedy_games_end_and_replays_verify() {
    deep(|| {
        for dir in rulesets() {
            let l = load(&dir);
            let mut engine = Engine::new(l.game.clone()).expect("engine");
            for seed in 0..3u64 {
                let mut agents = vec![
                    by_name("greedy", seed, 0).unwrap(),
                    by_name("random", seed, 1).unwrap(),
                ];
                let played = play_match(
                    &mut engine,
                    &mut agents,
                    seed,
                    PlayOptions {
                        record: true,
                        check: false,
                    },
                )
                .unwrap_or_else(|e| panic!("{} seed {seed}: {e}", dir.display()));
                let replay =
                    serde_json::to_value(played.replay(&engine)).expect("replay serialises");
                arbiter::replay::verify::verify(&replay).unwrap_or_else(|e| {
                    panic!("{} seed {seed}: replay does not verify: {e}", dir.display())
                });
            }
        }
    });
}

#[test]
fn golden_playthroughs_stay_byte_identical() {
    deep(|| {
        let bless = std::env::var_os("ARBITER_BLESS").is_some();
        for dir in rulesets() {
            let l = load(&dir);
            let mut engine = Engine::new(l.game.clone()).expect("engine");
            let mut agents: Vec<_> = (0..l.game.players.len() as u8)
                .map(|p| by_name("random", 7, p).unwrap())
                .collect();
            let played = play_match(
                &mut engine,
                &mut agents,
                7,
                PlayOptions {
                    record: true,
                    check: false,
                },
            )
            .expect("plays");
            // The digest changes with any edit of the ruleset text (comments too); behaviour is what is pinned.
            let mut replay = serde_json::to_value(played.replay(&engine)).expect("serialises");
            replay["ruleset"]["digest"] = serde_json::json!("(not pinned)");
            let text = serde_json::to_string_pretty(&replay).expect("serialises") + "\n";
            let name = dir.file_name().unwrap().to_string_lossy().to_string();
            let golden = root().join("tests/golden").join(format!("{name}.json"));
            if bless || !golden.exists() {
                std::fs::write(&golden, &text).expect("write golden");
                continue;
            }
            let want = std::fs::read_to_string(&golden).expect("read golden");
            if want != text {
                let line = want
                    .lines()
                    .zip(text.lines())
                    .position(|(a, b)| a != b)
                    .unwrap_or(0);
                panic!(
                    "{name}: playthrough differs from {} at line {} (bless with ARBITER_BLESS=1 if the change is intended)\n  golden: {}\n  now:    {}",
                    golden.display(),
                    line + 1,
                    want.lines().nth(line).unwrap_or(""),
                    text.lines().nth(line).unwrap_or("")
                );
            }
        }
    });
}
