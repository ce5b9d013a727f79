//! Script functions translated into the IR run natively with exactly the meaning they have in Rhai: whole
//! games.
//!
//! Plays many seeded games of every shipped ruleset (and the script variants among the test fixtures)
//! twice, with native scripts on and off, recording replays with events, and compares them byte for byte
//! together with the final states and random streams. The constructs one by one are in
//! `native_scripts_constructs.rs` and `native_scripts_boundaries.rs`.
#[path = "support/native_scripts.rs"]
mod native_support;
mod support;

use std::path::Path;

use arbiter::agents::by_name;
use arbiter::engine::Engine;
use arbiter::simulate::play::{play_match, PlayOptions};
use native_support::{engines, games, load_dir};
use serde_json::{json, Value as Json};
use support::{deep, root};

/// Everything a game leaves behind, as text: the replay (events, result, state), the raw final state and
/// the random stream's position; or the error.
fn play(engine: &mut Engine, seed: u64, agents: [&str; 2]) -> String {
    let players = engine.game.players.len() as u8;
    let mut seats: Vec<_> = (0..players)
        .map(|p| by_name(agents[(p as usize).min(1)], seed, p).expect("agent"))
        .collect();
    let opts = PlayOptions {
        record: true,
        check: false,
    };
    match play_match(engine, &mut seats, seed, opts) {
        Ok(played) => {
            let replay = serde_json::to_string(&played.replay(engine)).expect("replay serialises");
            format!(
                "{replay}\n{:?}\n{:?}",
                played.m.state,
                played.m.rng.clone().next_raw()
            )
        }
        Err(e) => format!("error: {}", e.message.replace("`", "")),
    }
}

fn differential(dir: &Path, overrides: &[(String, Json)], games: u64) -> usize {
    let l = load_dir(dir, overrides);
    let (mut on, mut off) = engines(&l.game);
    let native = l.game.script_native.iter().flatten().count();
    for seed in 0..games {
        let agents = if seed % 10 == 9 {
            ["greedy", "random"]
        } else {
            ["random", "random"]
        };
        let a = play(&mut on, seed, agents);
        let b = play(&mut off, seed, agents);
        if a != b {
            let out = Path::new(env!("CARGO_TARGET_TMPDIR"));
            let _ = std::fs::write(out.join("native_on.txt"), &a);
            let _ = std::fs::write(out.join("native_off.txt"), &b);
        }
        assert!(
            a == b,
            "{} {overrides:?} seed {seed}: native and Rhai scripts differ",
            dir.display()
        );
    }
    native
}

#[test]
fn shipped_scripts_are_native() {
    for (name, fns) in [
        ("asg", &["resolve_combat"][..]),
        ("war_of_attrition", &["attack_power", "defense_power"][..]),
    ] {
        let l = load_dir(&root().join("rulesets").join(name), &[]);
        let why = arbiter::script::native::explain(&l.game);
        for f in fns {
            let (_, reason) = why.iter().find(|(n, _)| n == f).expect("function exists");
            assert!(reason.is_none(), "{name}: `{f}` is not native: {reason:?}");
        }
    }
}

#[test]
fn native_and_rhai_scripts_play_the_same_games() {
    deep(|| {
        let mut dirs = support::shipped_rulesets();
        dirs.push(root().join("tests/fixtures/variants/spearman"));
        let n = games();
        for dir in &dirs {
            differential(dir, &[], n);
        }
    })
}

#[test]
fn native_and_rhai_scripts_agree_under_other_settings() {
    deep(|| {
        let asg = root().join("rulesets/asg");
        for v in [json!(0), json!(1), json!(0.999), json!(0.01)] {
            let set = [("settings.combatVarianceFraction".to_string(), v)];
            assert_eq!(differential(&asg, &set, games() / 4), 1);
        }
        let woa = root().join("rulesets/war_of_attrition");
        for (k, v) in [
            ("settings.shieldWallMax", json!(0)),
            ("settings.chargeBonus", json!(7)),
            ("settings.fortifyBonus", json!(0)),
        ] {
            let set = [(k.to_string(), v)];
            assert_eq!(differential(&woa, &set, games() / 4), 2);
        }
    })
}
