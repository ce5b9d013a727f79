//! Throughput per ruleset: whole random-vs-random games on one thread with logging off, and loading plus
//! validating a ruleset with its default scenario; the engine's bookkeeping per action alone, on a fixture
//! whose one action does almost nothing. Every folder under `rulesets/` with a `ruleset.yaml`
//! is benchmarked. Also the cost of one script call, natively and in Rhai: ASG's combat and War of
//! Attrition's defense power; and what search agents pay: one greedy or MCTS decision, one evaluation.
//! Run with `cargo bench`.
use std::path::PathBuf;

use arbiter::agents::{self, Agent};
use arbiter::engine::{Engine, Options, Program};
use arbiter::model::Value;
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
    load_dir_or_panic(
        &PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("rulesets")
            .join(name),
        name,
    )
}

/// The ruleset in folder `dir` (`name` for messages).
fn load_dir_or_panic(dir: &std::path::Path, name: &str) -> Loaded {
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

/// Games of a `random_game` sample.
const GAMES_PER_SAMPLE: u64 = 64;

/// Whole random-vs-random games, as `simulate --jobs 1` plays them: every sample plays the same games
/// (seeds 0 to 63), so samples differ only by the machine, and the throughput reads as games per second.
/// As in `simulate`'s workers, each game starts in the memory of the last (`Engine::recycle`) with the
/// last game's agents restarted in place (`Agent::restart`).
#[divan::bench(args = rulesets(), sample_count = 20)]
fn random_game(bencher: divan::Bencher, name: &str) {
    random_games(bencher, &load_or_panic(name), GAMES_PER_SAMPLE);
}

/// Actions of a game of the bookkeeping fixture: sixty turns of six.
const BOOKKEEPING_ACTIONS_PER_GAME: u64 = 360;

/// What the engine spends around an action, alone: random games of `benches/fixtures/bookkeeping`, whose
/// one action adds 1 to a player variable (listing set-up, the pick, decoding, applying, the victory
/// check and the turns are all the rest). Reads as actions per second.
#[divan::bench(sample_count = 20)]
fn bookkeeping(bencher: divan::Bencher) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("benches/fixtures/bookkeeping");
    let loaded = load_dir_or_panic(&dir, "bookkeeping");
    random_games(
        bencher,
        &loaded,
        GAMES_PER_SAMPLE * BOOKKEEPING_ACTIONS_PER_GAME,
    );
}

/// Plays [`GAMES_PER_SAMPLE`] random games per sample, counted as `items`.
fn random_games(bencher: divan::Bencher, loaded: &Loaded, items: u64) {
    let mut engine = Engine::new(loaded.game.clone()).expect("engine");
    let players = loaded.game.players.len() as u8;
    let mut seats: Vec<Box<dyn Agent>> = (0..players)
        .map(|p| agents::by_name("random", 0, p).expect("random agent"))
        .collect();
    bencher
        .counter(divan::counter::ItemsCount::new(items))
        .bench_local(|| {
            let mut plies = 0;
            for s in 0..GAMES_PER_SAMPLE {
                for (p, seat) in (0..players).zip(seats.iter_mut()) {
                    if !seat.restart(s, p) {
                        *seat = agents::by_name("random", s, p).expect("random agent");
                    }
                }
                let played =
                    play_match(&mut engine, &mut seats, s, PlayOptions::default()).expect("game");
                plies += played.m.state.ply;
                engine.recycle(played.m);
            }
            divan::black_box(plies)
        });
}

/// Loading, schema-checking and analysing a ruleset with its default scenario.
#[divan::bench(args = rulesets(), sample_count = 20)]
fn load_and_validate(name: &str) -> usize {
    load_or_panic(name).game.players.len()
}

/// A position some way into a random game (ten submissions), for the per-position benchmarks.
fn midgame(name: &str) -> (Engine, arbiter::engine::Match, u8) {
    let loaded = load_or_panic(name);
    let mut engine = Engine::new(loaded.game.clone()).expect("engine");
    engine.set_logging(false);
    let mut m = engine.start(7).expect("start");
    let players = loaded.game.players.len() as u8;
    let mut seats: Vec<Box<dyn Agent>> = (0..players)
        .map(|p| agents::by_name("random", 7, p).expect("random agent"))
        .collect();
    for _ in 0..10 {
        let Some(&p) = engine.due(&m).first() else {
            break;
        };
        seats[p as usize].act(&mut engine, &mut m, p).expect("act");
    }
    let p = engine.due(&m).first().copied().unwrap_or(0);
    (engine, m, p)
}

/// Listing every legal action of a mid-game position as blocks (what the random agent does per pick).
#[divan::bench(args = rulesets(), sample_count = 20)]
fn legal_blocks(bencher: divan::Bencher, name: &str) {
    let (mut engine, mut m, p) = midgame(name);
    let mut blocks = Vec::new();
    bencher.bench_local(|| {
        engine.legal_blocks(&mut m, p, &mut blocks).expect("legal");
        divan::black_box(blocks.len())
    });
}

/// Copying a mid-game match into a reused one, as search agents do for every node (no allocation once
/// the target has the source's size). The size of the state is printed once per ruleset.
#[divan::bench(args = rulesets(), sample_count = 20)]
fn clone_state(bencher: divan::Bencher, name: &str) {
    let (_, m, _) = midgame(name);
    let st = &m.state;
    let bytes = std::mem::size_of_val(st)
        + st.player_vars.len() * 8
        + st.owner.len()
        + st.cell_vars.len() * 8
        + st.units.len() * std::mem::size_of::<arbiter::model::state::UnitState>()
        + st.unit_vars.len() * 8
        + st.occupant.len() * 4
        + st.units_created.len() * 4;
    println!("{name}: a mid-game state is {bytes} bytes");
    let mut copy = m.clone();
    bencher.bench_local(|| {
        copy.clone_from(&m);
        divan::black_box(copy.state.ply)
    });
}

/// An engine for `name` with native scripts on (`native`) or off (every call in Rhai).
fn engine_for(name: &str, mode: &str) -> Engine {
    let game = load_or_panic(name).game;
    let opts = Options {
        native_scripts: mode == "native",
        ..Options::optimised()
    };
    let prog = Program::new(&game, opts);
    let mut engine = Engine::with_program(game, prog).expect("engine");
    engine.set_logging(false);
    engine
}

/// One call of ASG's `resolve_combat` (12 against 9 at mid_n, a draw of noise, the forces written back).
#[divan::bench(args = ["native", "rhai"], sample_count = 100, sample_size = 200)]
fn script_call_asg_combat(bencher: divan::Bencher, mode: &str) {
    let mut engine = engine_for("asg", mode);
    let game = engine.game.clone();
    let mut m = engine.start(1).expect("start");
    let node = game.board.find("mid_n").expect("mid_n");
    let forces = game
        .cell_vars
        .iter()
        .find(|d| d.name == "forces")
        .expect("forces");
    let at = node as usize * game.cell_slots + forces.slot as usize;
    let args = [Value::Cell(node), Value::Player(0), Value::Player(1)];
    bencher.bench_local(|| {
        m.state.cell_vars[at] = 12;
        m.state.cell_vars[at + 1] = 9;
        engine
            .call_script(&mut m, 0, "resolve_combat", &args)
            .expect("combat")
    });
}

/// One call of War of Attrition's `defense_power` (B-2 at H20, an infantry with a neighbour that also
/// forms a shield wall, against A-5).
#[divan::bench(args = ["native", "rhai"], sample_count = 100, sample_size = 200)]
fn script_call_woa_defense_power(bencher: divan::Bencher, mode: &str) {
    let mut engine = engine_for("war_of_attrition", mode);
    let mut m = engine.start(1).expect("start");
    let unit = |id: &str| {
        let u = m.state.units.iter().position(|u| &*u.id == id);
        Value::Unit(u.expect("unit") as u32)
    };
    let args = [unit("B-2"), unit("A-5")];
    bencher.bench_local(|| {
        engine
            .call_script(&mut m, 1, "defense_power", &args)
            .expect("defense power")
    });
}

/// One decision of a search agent (`spec`) from the same mid-game position each time.
fn search_decision(bencher: divan::Bencher, name: &str, spec: &str) {
    let (mut engine, m, p) = midgame(name);
    let spec = arbiter::agents::spec::AgentSpec::new(spec, &engine.game).expect("agent spec");
    let mut agent = spec.build(7, p);
    let mut copy = m.clone();
    bencher.bench_local(|| {
        copy.clone_from(&m);
        agent
            .act(&mut engine, &mut copy, p)
            .expect("decision")
            .len()
    });
}

/// One `greedy` decision: every legal action tried on a copy and scored by the ruleset's evaluation.
#[divan::bench(args = rulesets(), sample_count = 10)]
fn greedy_decision(bencher: divan::Bencher, name: &str) {
    search_decision(bencher, name, "greedy");
}

/// One `mcts:iterations=100` decision.
#[divan::bench(args = rulesets(), sample_count = 10)]
fn mcts_decision(bencher: divan::Bencher, name: &str) {
    search_decision(bencher, name, "mcts:iterations=100");
}

/// One evaluation of the ruleset's `greedy` evaluation on a mid-game position (what search agents score
/// every position they try with); rulesets without one are skipped.
#[divan::bench(args = rulesets(), sample_count = 20, sample_size = 100)]
fn evaluation(bencher: divan::Bencher, name: &str) {
    let (mut engine, mut m, p) = midgame(name);
    let Some(k) = engine.game.evaluation("greedy") else {
        return;
    };
    bencher.bench_local(|| engine.evaluate_with(k, &mut m, p).expect("evaluation"));
}
