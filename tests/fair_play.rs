//! Agents of a simultaneous phase decide on the position as the turn began: none of them sees an order
//! handed in before its own (issue: a second player who saw the first's orders won nearly every game).
//! (a) A spy agent records what every agent is shown in every simultaneous turn of every shipped ruleset
//!     with such a phase: all players of one turn are shown the same position.
//! (b) Matching pennies (tests/fixtures/simultaneous/pennies), where seeing the other's pick wins every
//!     game: greedy against greedy, neither side may win much more than half.
//! (c) Orders that change what the other player may do (tests/fixtures/simultaneous/claims) are checked
//!     again when they reach the match: a second player's claim of a cell claimed earlier in the same
//!     turn is refused there, though it was free where that player decided. (Orders that cannot interact
//!     are applied unchecked; tests/optimised_paths.rs plays them both ways.)
mod support;
use std::cell::RefCell;
use std::rc::Rc;
use support::root;

use arbiter::agents::{by_name, Agent};
use arbiter::engine::{Engine, Match, Options, Program, RunError};
use arbiter::model::PlayerIdx;
use arbiter::ruleset::game::Submission;
use arbiter::ruleset::{load, Game};
use arbiter::simulate::{play_match, simulate, PlayOptions, SimConfig};

fn game(path: &str) -> std::sync::Arc<Game> {
    let p = root().join(path).display().to_string();
    match load(&p, None, &[]) {
        Ok(l) => l.game,
        Err(e) => panic!("{path} does not load: {:?}", e.diagnostics()),
    }
}

/// What one agent was shown: the ply, the player, and the whole match state.
type Seen = Rc<RefCell<Vec<(i64, PlayerIdx, String)>>>;

/// Plays like `inner` and writes down what it is shown in simultaneous phases.
struct Spy {
    inner: Box<dyn Agent>,
    seen: Seen,
}

impl Agent for Spy {
    fn name(&self) -> &str {
        "spy"
    }
    fn act_into(
        &mut self,
        engine: &mut Engine,
        m: &mut Match,
        player: PlayerIdx,
        out: &mut Vec<arbiter::model::Action>,
    ) -> Result<(), RunError> {
        if engine.game.phase(&m.state).submission == Submission::Orders {
            self.seen
                .borrow_mut()
                .push((m.state.ply, player, format!("{:?}", m.state)));
        }
        self.inner.act_into(engine, m, player, out)
    }
}

fn spy_on(path: &str, agent: &str, seeds: u64) -> usize {
    let g = game(path);
    let mut engine = Engine::new(g.clone()).unwrap();
    let mut turns = 0;
    for seed in 0..seeds {
        let seen: Seen = Rc::default();
        let mut agents: Vec<Box<dyn Agent>> = (0..g.players.len() as u8)
            .map(|p| {
                Box::new(Spy {
                    inner: by_name(agent, seed, p).unwrap(),
                    seen: seen.clone(),
                }) as Box<dyn Agent>
            })
            .collect();
        play_match(&mut engine, &mut agents, seed, PlayOptions::default())
            .unwrap_or_else(|e| panic!("{path} seed {seed}: {e}"));
        let seen = seen.borrow();
        for (i, (ply, p, state)) in seen.iter().enumerate() {
            if let Some((_, first, shown)) = seen[..i].iter().find(|(q, _, _)| q == ply) {
                assert_eq!(
                    shown, state,
                    "{path} seed {seed} ply {ply}: player {p} was shown another position than player {first} (same-turn orders leak)"
                );
                turns += 1;
            }
        }
    }
    turns
}

#[test]
fn every_agent_of_a_simultaneous_turn_is_shown_the_turn_start() {
    let mut compared = 0;
    for agent in ["random", "greedy"] {
        compared += spy_on("rulesets/strategic_influence", agent, 10);
        compared += spy_on("tests/fixtures/simultaneous/pennies", agent, 10);
    }
    assert!(
        compared > 100,
        "only {compared} simultaneous turns compared"
    );
}

#[test]
fn moving_second_gains_nothing_in_matching_pennies() {
    let g = game("tests/fixtures/simultaneous/pennies");
    let s = simulate(
        &g,
        &SimConfig {
            agents: vec!["greedy".into(), "greedy".into()],
            games: 300,
            seed: 0,
            jobs: 2,
            check: true,
            progress: None,
        },
    )
    .unwrap();
    assert_eq!(s.error_count + s.check_failure_count, 0, "{s:?}");
    let (p1, p2) = (s.wins["P1"], s.wins["P2"]);
    assert_eq!(p1 + p2 + s.draws, 300);
    // Seeing P1's pick, P2 would win all 300; without it each side wins about half.
    assert!(p1 <= 210 && p2 <= 210, "P1 {p1} wins, P2 {p2} wins of 300");
}

#[test]
fn orders_that_may_interact_are_checked_when_they_reach_the_match() {
    let g = game("tests/fixtures/simultaneous/claims");
    let mut engine = Engine::new(g.clone()).unwrap();
    let mut refused = 0;
    for seed in 0..20 {
        let mut agents: Vec<Box<dyn Agent>> = (0..2)
            .map(|p| by_name("random", seed, p).unwrap())
            .collect();
        let opts = PlayOptions {
            record: true,
            check: false,
        };
        let played = play_match(&mut engine, &mut agents, seed, opts).unwrap();
        refused += played
            .events
            .iter()
            .filter(|e| e["type"] == "invalid_action" && e["reason"] == "taken")
            .inspect(|e| assert_eq!(e["player"], "P2", "{e}"))
            .count();
    }
    assert!(refused > 5, "only {refused} claims refused in 20 matches");
}

/// Per phase, whether the optimised program applies a later player's orders unchecked.
fn orders_trusted(path: &str) -> Vec<bool> {
    let prog = Program::new(&game(path), Options::optimised());
    prog.phases.iter().map(|p| p.orders_trusted).collect()
}

#[test]
fn orders_touching_only_the_players_own_part_are_trusted() {
    // Setup is one player at a time; main orders touch only the mover's own cells and its own entry of
    // the arrivals. Each pick of matching pennies is the picker's own entry.
    assert_eq!(
        orders_trusted("rulesets/strategic_influence"),
        [false, true]
    );
    assert_eq!(
        orders_trusted("tests/fixtures/simultaneous/pennies"),
        [true]
    );
    // Claiming makes a cell owned: the other player's claim of it is no longer legal.
    assert_eq!(
        orders_trusted("tests/fixtures/simultaneous/claims"),
        [false]
    );
    // The plain program checks every order.
    let plain = Program::new(&game("rulesets/strategic_influence"), Options::plain());
    assert!(plain.phases.iter().all(|p| !p.orders_trusted));
}
