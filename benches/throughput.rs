//! Throughput per ruleset: whole random-vs-random games on one thread with logging off, and loading plus
//! validating a ruleset with its default scenario. Every folder under `rulesets/` with a `ruleset.yaml`
//! is benchmarked. Run with `cargo bench`.
use std::cell::Cell;
use std::path::PathBuf;

use arbiter::agents::{self, Agent};
use arbiter::engine::Engine;
use arbiter::ruleset::{load, Loaded};
use arbiter::simulate::{play_match, PlayOptions};

fn main() {
    divan::main();
}

/// Names of the folders under `rulesets/` that hold a `ruleset.yaml`.
fn rulesets() -> Vec<String> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("rulesets");
    let mut dirs: Vec<String> = std::fs::read_dir(&root)
        .map(|entries| {
            entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.join("ruleset.yaml").is_file())
                .filter_map(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
                .collect()
        })
        .unwrap_or_default();
    dirs.sort();
    dirs
}

fn load_or_panic(name: &str) -> Loaded {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("rulesets")
        .join(name);
    match load(&dir.display().to_string(), None, &[]) {
        Ok(l) => l,
        Err(e) => {
            let messages: Vec<String> = e
                .diagnostics()
                .iter()
                .map(|d| format!("[{}] {}", d.code, d.message))
                .collect();
            panic!("{name} does not load: {}", messages.join("; "))
        }
    }
}

/// One whole random-vs-random game per iteration, a new seed each time.
#[divan::bench(args = rulesets(), sample_count = 20)]
fn random_game(bencher: divan::Bencher, name: &str) {
    let loaded = load_or_panic(name);
    let mut engine = Engine::new(loaded.game.clone()).expect("engine");
    let seed = Cell::new(0u64);
    let players = loaded.game.players.len() as u8;
    bencher.bench_local(|| {
        let s = seed.get();
        seed.set(s + 1);
        let mut seats: Vec<Box<dyn Agent>> = (0..players)
            .map(|p| agents::by_name("random", s, p).expect("random agent"))
            .collect();
        let played = play_match(&mut engine, &mut seats, s, PlayOptions::default()).expect("game");
        divan::black_box(played.m.state.ply)
    });
}

/// Loading, schema-checking and analysing a ruleset with its default scenario.
#[divan::bench(args = rulesets(), sample_count = 20)]
fn load_and_validate(name: &str) -> usize {
    load_or_panic(name).game.players.len()
}
