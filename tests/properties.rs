//! Property tests (proptest) over positions reached by random play in every shipped ruleset and in the
//! test fixtures with other shapes (a simultaneous matching-pennies game, a game whose player gets stuck, a
//! War of Attrition variant with its own combat script, a skirmish on a board of more than 256 cells, one
//! that walks every kind of set). A case is a ruleset, a seed and a number of
//! random steps (one action, or handing a submission in); shrinking looks for the fewest steps.
//!
//! - `apply_accepts_exactly_the_listed_actions`: for every due player, each candidate action (all listed
//!   ones or a sample, their mutations: neighbouring cells, amounts +-1, 0, -1 and far off, other units,
//!   players and table rows, a missing argument, another action kind with the same parameter types, and
//!   arbitrary actions) is accepted by `Engine::apply` if and only if `Engine::legal` lists it, and no
//!   candidate, listed or not, makes `apply` fail with a run error.
//! - `listing_counting_blocks_and_picking_agree`: `count_legal`, `legal`, `legal_blocks` (expanded),
//!   `block_list` and `nth_legal` give the same actions in the same order; past the end gives none.
//! - `replays_and_clones_give_identical_bytes`: the submissions of the random play, handed in again
//!   through `Engine::submit` in a fresh match, give the same state JSON and event log, byte for byte;
//!   and a clone of the match taken at the position, given the same next actions as the original, logs
//!   the same events and ends in the same state.
//!
//! Only the engine's public API is used. Every run is deterministic (fixed proptest seed, no failure
//! files, no timing); the case counts keep the file to a few seconds in release.
mod support;

use std::cell::RefCell;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::sync::Arc;

use arbiter::agents::{apply_recorded, close, Mark};
use arbiter::engine::{Applied, Engine, Match, RunError};
use arbiter::model::{Action, PlayerIdx, Value};
use arbiter::rng::{Rng, RngKind};
use arbiter::ruleset::Game;
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed, TestCaseError, TestRunner};
use serde_json::Value as Json;
use support::{deep, root};

/// Every shipped ruleset, then fixtures that add shapes the shipped ones lack.
fn rulesets() -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(root().join("rulesets"))
        .expect("rulesets/")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.join("ruleset.yaml").is_file())
        .map(|p| p.display().to_string())
        .collect();
    v.sort();
    assert!(v.len() >= 3, "the canonical rulesets are present");
    for f in [
        "simultaneous/pennies",
        "stuck",
        "variants/spearman",
        "large_board",
        "set_walks",
    ] {
        v.push(root().join("tests/fixtures").join(f).display().to_string());
    }
    v
}

fn games() -> Vec<Arc<Game>> {
    rulesets()
        .iter()
        .map(|r| match arbiter::ruleset::load(r, None, &[]) {
            Ok(l) => l.game,
            Err(e) => panic!("{r} does not load: {:?}", e.diagnostics()),
        })
        .collect()
}

/// A deterministic runner: fixed seed, no failure persistence, bounded shrinking.
fn runner(cases: u32, seed: u64) -> TestRunner {
    TestRunner::new(Config {
        cases,
        rng_seed: RngSeed::Fixed(seed),
        failure_persistence: None,
        max_shrink_iters: 256,
        ..Config::default()
    })
}

/// `(ruleset, seed, steps)`.
fn cases(rulesets: usize, max_steps: u32) -> impl Strategy<Value = (usize, u64, u32)> {
    (0..rulesets, any::<u64>(), 0..max_steps)
}

fn fail(e: RunError) -> TestCaseError {
    TestCaseError::fail(format!("run error: {e}"))
}

/// An action with its arguments as a plain list (compared without the argument list's spare slots).
fn key(a: &Action) -> (u16, Vec<Value>) {
    (a.kind, (0..a.args.len()).map(|i| a.args.get(i)).collect())
}

fn action(kind: u16, args: &[Value]) -> Action {
    Action {
        kind,
        args: arbiter::model::action::ArgList::from_slice(args),
    }
}

/// A match reached by random play, with what it logged and what was handed in.
struct Walk {
    m: Match,
    events: Vec<Json>,
    /// Complete submissions: `(player, wire actions)`.
    submissions: Vec<(String, Vec<Json>)>,
    /// The state JSON and the number of events after the last complete submission.
    at_last_submission: (String, usize),
}

/// Plays `steps` random steps from the start of a match seeded with `seed`: each step applies one legal
/// action chosen uniformly, or hands the submission in (as often as any one action). Stops early when
/// the game ends; the last submission may be left open.
fn random_play(engine: &mut Engine, seed: u64, steps: u32) -> Result<Walk, RunError> {
    let game = engine.game.clone();
    engine.set_logging(true);
    let mut rng = Rng::stream(RngKind::ChaCha8, seed, 7);
    let mut m = engine.start(seed)?;
    let mut w = Walk {
        events: engine.take_log(),
        submissions: Vec::new(),
        at_last_submission: (String::new(), 0),
        m: m.clone(),
    };
    w.at_last_submission = (engine.state_json(&m).to_string(), w.events.len());
    let mut left = steps;
    'play: while left > 0 && !m.state.is_over() {
        let Some(&p) = engine.due(&m).first() else {
            return Err(RunError::new("the game is not over but nobody is due"));
        };
        let (mark, ply) = (Mark::new(&m), m.state.ply);
        let mut out = Vec::new();
        while mark.open(&m, p) {
            let n = engine.count_legal(&mut m, p)?;
            let k = rng.below(n + 1);
            left = left.saturating_sub(1);
            if k == n {
                break;
            }
            let a = engine
                .nth_legal(&mut m, p, k)?
                .ok_or_else(|| RunError::new("nth_legal gave nothing below count_legal"))?;
            out.push(arbiter::engine::wire::encode(&game, &m.state, &a));
            apply_recorded(engine, &mut m, p, a, &mut Vec::new())?;
            w.events.extend(engine.take_log());
            if left == 0 {
                break 'play;
            }
        }
        // As `Engine::submit` ends a submission: close it, then let `when_stuck` settle a stuck player.
        close(engine, &mut m, p, mark)?;
        if m.state.ply == ply && engine.is_stuck(&mut m, p)? {
            engine.settle_stuck(&mut m, p)?;
        }
        w.events.extend(engine.take_log());
        w.submissions.push((game.players[p as usize].clone(), out));
        w.at_last_submission = (engine.state_json(&m).to_string(), w.events.len());
    }
    w.m = m;
    Ok(w)
}

/// Loads every game once and runs `body` for each case on a thread with a deep stack (Rhai needs it).
fn run_property(
    name: &'static str,
    cases_n: u32,
    seed: u64,
    max_steps: u32,
    body: fn(&mut Engine, u64, u32) -> Result<(), TestCaseError>,
) {
    deep(move || {
        let games = games();
        let engines: Vec<RefCell<Engine>> = games
            .iter()
            .map(|g| RefCell::new(Engine::new(g.clone()).expect("engine")))
            .collect();
        let names = rulesets();
        let started = std::time::Instant::now();
        let result =
            runner(cases_n, seed).run(&cases(engines.len(), max_steps), |(r, seed, steps)| {
                body(&mut engines[r].borrow_mut(), seed, steps).map_err(|e| {
                    TestCaseError::fail(format!("{} (seed {seed}, {steps} steps): {e}", names[r]))
                })
            });
        if let Err(e) = result {
            panic!("{name}: {e}");
        }
        println!(
            "{name}: {cases_n} cases in {:?} ({} candidate verdicts so far, {} of them listed)",
            started.elapsed(),
            CHECKED.load(Relaxed),
            ACCEPTED.load(Relaxed)
        );
    })
}

// ---------------------------------------------------------------------------------------------------
// (a), (b): apply accepts an action if and only if it is listed, and never fails.

/// Other values of the same type as `v`, for mutating an argument.
fn neighbours_of(game: &Game, m: &Match, v: Value, rng: &mut Rng) -> Vec<Value> {
    let mut out = Vec::new();
    match v {
        Value::Cell(c) => {
            out.extend(game.board.neighbours(c).iter().map(|&n| Value::Cell(n)));
            out.push(Value::Cell(rng.below(game.board.len() as u64) as u32));
        }
        Value::Int(x) => {
            for d in [1, -1] {
                out.extend(x.checked_add(d).map(Value::Int));
            }
            out.extend([0, -1, i64::MAX, i64::MIN].map(Value::Int));
            out.extend(x.checked_mul(2).map(Value::Int));
        }
        Value::Unit(_) => {
            let alive: Vec<u32> = (0..m.state.units.len() as u32)
                .filter(|&u| m.state.units[u as usize].alive)
                .collect();
            for _ in 0..3.min(alive.len()) {
                out.push(Value::Unit(alive[rng.below(alive.len() as u64) as usize]));
            }
        }
        Value::Player(_) => {
            out.extend((0..game.players.len() as u8).map(Value::Player));
        }
        Value::Row(t, _) => {
            let rows = game.tables[t as usize].keys.len() as u16;
            out.extend((0..rows).map(|r| Value::Row(t, r)));
        }
        Value::Bool(b) => out.push(Value::Bool(!b)),
        _ => {}
    }
    out.push(Value::None);
    out
}

/// An arbitrary action of any kind, each argument drawn from its parameter's type.
fn arbitrary_action(game: &Game, m: &Match, rng: &mut Rng) -> Action {
    use arbiter::model::Ty;
    let kind = rng.below(game.actions.len() as u64) as u16;
    let args: Vec<Value> = game.actions[kind as usize]
        .params
        .iter()
        .map(|p| match p.ty {
            Ty::Cell => Value::Cell(rng.below(game.board.len() as u64) as u32),
            Ty::Int => Value::Int(rng.below(16) as i64 - 3),
            Ty::Player => Value::Player(rng.below(game.players.len() as u64) as u8),
            Ty::Bool => Value::Bool(rng.below(2) == 1),
            Ty::Row(t) => Value::Row(
                t,
                rng.below(game.tables[t as usize].keys.len().max(1) as u64) as u16,
            ),
            Ty::Unit => {
                let alive: Vec<u32> = (0..m.state.units.len() as u32)
                    .filter(|&u| m.state.units[u as usize].alive)
                    .collect();
                if alive.is_empty() {
                    Value::None
                } else {
                    Value::Unit(alive[rng.below(alive.len() as u64) as usize])
                }
            }
            _ => Value::None,
        })
        .collect();
    action(kind, &args)
}

/// Candidate actions at a position: listed ones (all, or 150 of them), mutations of up to 40 listed
/// ones, and 40 arbitrary ones.
fn candidates(game: &Game, m: &Match, listed: &[Action], rng: &mut Rng) -> Vec<Action> {
    let mut out: Vec<Action> = if listed.len() <= 150 {
        listed.to_vec()
    } else {
        (0..150)
            .map(|_| listed[rng.below(listed.len() as u64) as usize].clone())
            .collect()
    };
    for _ in 0..40.min(listed.len()) {
        let a = &listed[rng.below(listed.len() as u64) as usize];
        let (kind, args) = key(a);
        for i in 0..args.len() {
            for v in neighbours_of(game, m, args[i], rng) {
                let mut b = args.clone();
                b[i] = v;
                out.push(action(kind, &b));
            }
        }
        if !args.is_empty() {
            out.push(action(kind, &args[..args.len() - 1]));
        }
        // Another kind whose parameters have the same types.
        let types = |k: usize| {
            game.actions[k]
                .params
                .iter()
                .map(|p| format!("{:?}", p.ty))
                .collect::<Vec<_>>()
        };
        for k in 0..game.actions.len() {
            if k != kind as usize && types(k) == types(kind as usize) {
                out.push(action(k as u16, &args));
            }
        }
    }
    for _ in 0..40 {
        out.push(arbitrary_action(game, m, rng));
    }
    out
}

/// Candidate verdicts checked, and how many of them were listed (printed with the case count).
static CHECKED: AtomicUsize = AtomicUsize::new(0);
static ACCEPTED: AtomicUsize = AtomicUsize::new(0);

fn apply_iff_listed(engine: &mut Engine, seed: u64, steps: u32) -> Result<(), TestCaseError> {
    let game = engine.game.clone();
    let mut w = random_play(engine, seed, steps).map_err(fail)?;
    let mut rng = Rng::stream(RngKind::ChaCha8, seed, 8);
    // What each player may do now (nothing when not due or once the game is over); candidates come from
    // everybody's actions, so each player is also offered the others'.
    let mut listed: Vec<Vec<Action>> = Vec::new();
    for p in 0..game.players.len() as PlayerIdx {
        let mut l = Vec::new();
        engine.legal(&mut w.m, p, &mut l).map_err(fail)?;
        listed.push(l);
    }
    let everybody: Vec<Action> = listed.concat();
    let cands = candidates(&game, &w.m, &everybody, &mut rng);
    // Values are not hashable (floats): their debug text is.
    let text = |a: &Action| format!("{:?}", key(a));
    for (p, mine) in listed.iter().enumerate() {
        let p = p as PlayerIdx;
        let keys: std::collections::HashSet<String> = mine.iter().map(text).collect();
        for a in &cands {
            let is_listed = keys.contains(&text(a));
            CHECKED.fetch_add(1, Relaxed);
            ACCEPTED.fetch_add(usize::from(is_listed), Relaxed);
            let verdict = engine.apply(&mut w.m.clone(), p, a);
            engine.take_log();
            let shown = || format!("{} by {}", wire(engine, &w.m, a), game.players[p as usize]);
            match verdict {
                Err(e) => {
                    return Err(TestCaseError::fail(format!(
                        "{} ({}listed) fails with a run error: {e}",
                        shown(),
                        if is_listed { "" } else { "not " }
                    )))
                }
                Ok(Applied::Done) if !is_listed => {
                    return Err(TestCaseError::fail(format!(
                        "{} is accepted but not listed",
                        shown()
                    )))
                }
                Ok(Applied::Invalid(reason)) if is_listed => {
                    return Err(TestCaseError::fail(format!(
                        "{} is listed but refused ({reason})",
                        shown()
                    )))
                }
                _ => {}
            }
        }
    }
    Ok(())
}

/// An action in wire form for messages (an argument the wire cannot show appears as null).
fn wire(engine: &Engine, m: &Match, a: &Action) -> String {
    arbiter::engine::wire::encode(&engine.game, &m.state, a).to_string()
}

#[test]
fn apply_accepts_exactly_the_listed_actions() {
    run_property("apply iff listed", 192, 0xA991, 400, apply_iff_listed);
}

// ---------------------------------------------------------------------------------------------------
// (d): listing, counting, blocks and picking agree.

fn enumerations_agree(engine: &mut Engine, seed: u64, steps: u32) -> Result<(), TestCaseError> {
    let mut w = random_play(engine, seed, steps).map_err(fail)?;
    let mut rng = Rng::stream(RngKind::ChaCha8, seed, 9);
    let (mut listed, mut blocks) = (Vec::new(), Vec::new());
    for p in 0..engine.game.players.len() as PlayerIdx {
        let m = &mut w.m;
        engine.legal(m, p, &mut listed).map_err(fail)?;
        let n = engine.count_legal(m, p).map_err(fail)?;
        prop_assert_eq!(n, listed.len() as u64, "count_legal against legal");
        engine.legal_blocks(m, p, &mut blocks).map_err(fail)?;
        let expanded: Vec<Action> = blocks
            .iter()
            .flat_map(|b| (0..b.size()).map(|k| b.get(k)))
            .collect();
        prop_assert_eq!(expanded.len(), listed.len(), "legal_blocks against legal");
        for (i, (a, b)) in expanded.iter().zip(&listed).enumerate() {
            prop_assert_eq!(key(a), key(b), "action {} of legal_blocks", i);
        }
        let picks: Vec<u64> = if n <= 64 {
            (0..n).collect()
        } else {
            (0..32).map(|_| rng.below(n)).chain([0, n - 1]).collect()
        };
        let mut list = arbiter::engine::blocks::BlockList::default();
        engine.block_list(m, p, &mut list).map_err(fail)?;
        prop_assert_eq!(list.total(), n, "block_list against count_legal");
        prop_assert!(
            list.get(n, &engine.game.board).is_none(),
            "block_list past the end"
        );
        // Built all at once, and keyed without building (the search agents' moves).
        let mut all = Vec::new();
        list.actions(&engine.game.board, &mut all);
        prop_assert_eq!(all.len(), listed.len(), "block_list actions against legal");
        for (i, (a, b)) in all.iter().zip(&listed).enumerate() {
            prop_assert_eq!(key(a), key(b), "action {} of block_list actions", i);
        }
        let mut keys = Vec::new();
        list.keys(&engine.game.board, &mut keys);
        let built: Vec<u64> = listed.iter().map(Action::key).collect();
        prop_assert_eq!(keys, built, "block_list keys against each action's key");
        for k in picks {
            let nth = engine.nth_legal(m, p, k).map_err(fail)?;
            prop_assert_eq!(
                nth.as_ref().map(key),
                Some(key(&listed[k as usize])),
                "nth_legal({})",
                k
            );
            prop_assert_eq!(
                list.get(k, &engine.game.board).as_ref().map(key),
                Some(key(&listed[k as usize])),
                "block_list get({})",
                k
            );
            let board = &engine.game.board;
            prop_assert!(
                list.is(k, &listed[k as usize], board),
                "block_list is({})",
                k
            );
            for other in [k.wrapping_sub(1), k + 1] {
                if let Some(b) = listed.get(other as usize) {
                    prop_assert_eq!(
                        list.is(k, b, board),
                        *b == listed[k as usize],
                        "block_list is({}) of action {}",
                        k,
                        other
                    );
                }
            }
        }
        prop_assert!(
            engine.nth_legal(m, p, n).map_err(fail)?.is_none(),
            "nth_legal past the end"
        );
        if !engine.due(m).contains(&p) {
            prop_assert_eq!(n, 0, "a player who is not due has legal actions");
        }
    }
    Ok(())
}

#[test]
fn listing_counting_blocks_and_picking_agree() {
    run_property("enumerations agree", 192, 0xD1, 400, enumerations_agree);
}

// ---------------------------------------------------------------------------------------------------
// (c): replays and clones give identical bytes.

fn identical_bytes(engine: &mut Engine, seed: u64, steps: u32) -> Result<(), TestCaseError> {
    let mut w = random_play(engine, seed, steps).map_err(fail)?;
    // The complete submissions, handed in again through the wire in a fresh match.
    let mut m = engine.start(seed).map_err(fail)?;
    let mut events = engine.take_log();
    for (i, (player, actions)) in w.submissions.iter().enumerate() {
        engine
            .submit(&mut m, player, actions)
            .map_err(|e| TestCaseError::fail(format!("submission {i} refused: {e}")))?;
        events.extend(engine.take_log());
    }
    let (state, n) = &w.at_last_submission;
    prop_assert_eq!(
        &engine.state_json(&m).to_string(),
        state,
        "state JSON after the replay"
    );
    prop_assert_eq!(
        serde_json::to_string(&events).unwrap(),
        serde_json::to_string(&w.events[..*n]).unwrap(),
        "event log after the replay"
    );
    // A clone at the position, given the same next actions, logs and ends the same.
    let mut copy = w.m.clone();
    let mut rng = Rng::stream(RngKind::ChaCha8, seed, 10);
    for _ in 0..24 {
        let Some(&p) = engine.due(&w.m).first() else {
            break;
        };
        let n = engine.count_legal(&mut w.m, p).map_err(fail)?;
        if n == 0 {
            engine.end_submission(&mut w.m, p).map_err(fail)?;
            let a = engine.take_log();
            engine.end_submission(&mut copy, p).map_err(fail)?;
            prop_assert_eq!(a, engine.take_log(), "events of ending a submission");
        } else {
            let k = rng.below(n);
            let a = engine.nth_legal(&mut w.m, p, k).map_err(fail)?.unwrap();
            engine.apply(&mut w.m, p, &a).map_err(fail)?;
            let logged = engine.take_log();
            engine.apply(&mut copy, p, &a).map_err(fail)?;
            prop_assert_eq!(
                logged,
                engine.take_log(),
                "events of {}",
                wire(engine, &copy, &a)
            );
        }
        prop_assert_eq!(
            engine.state_json(&w.m).to_string(),
            engine.state_json(&copy).to_string(),
            "state JSON of the clone"
        );
    }
    Ok(())
}

#[test]
fn replays_and_clones_give_identical_bytes() {
    run_property("identical bytes", 96, 0xC10E, 400, identical_bytes);
}
