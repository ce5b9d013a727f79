//! One match between agents: start, ask whoever is due for a submission until the game ends, and keep the
//! submissions and events when recording.
use serde_json::Value as Json;

use super::check::check_submission;
use crate::agents::{Agent, HandedIn};
use crate::engine::{wire, Engine, Match, RunError};
use crate::model::{Action, PlayerIdx};
use crate::replay::{Replay, SubmissionRecord};
use crate::ruleset::game::Submission;

/// The longest match an agent plays, in submissions and in actions (`limits`, docs/limits.md).
pub use crate::limits::{MAX_ACTIONS, MAX_SUBMISSIONS};

#[derive(Clone, Copy, Debug, Default)]
pub struct PlayOptions {
    /// Keep the submissions and events (for a replay).
    pub record: bool,
    /// Re-apply each submission step by step on a copy and check every step (see [`super::check`]).
    pub check: bool,
}

/// A finished (or stuck-free ongoing) match and what was kept of it.
#[derive(Debug, Clone)]
pub struct Played {
    pub m: Match,
    pub submissions: Vec<SubmissionRecord>,
    pub events: Vec<Json>,
    /// Problems found by the per-step checks.
    pub failures: Vec<String>,
    /// Decisions an agent outside the process failed to make (the replay's `faults`).
    pub faults: Vec<Json>,
}

impl Played {
    /// The replay of this match (meaningful when it was recorded).
    pub fn replay(&self, engine: &Engine) -> Replay {
        let mut r = Replay::new(
            engine,
            &self.m,
            self.submissions.clone(),
            self.events.clone(),
        );
        r.faults = self.faults.clone();
        r
    }
}

/// A later player of a simultaneous turn decides on a copy of the position as the turn began, so it can
/// never see the orders handed in before its own (the live match holds them); its orders are then handed
/// in to the live match, checked like any outside player's would be unless no player's orders can change
/// another's legality (`Engine::submit_orders_decided_on_copy`).
fn hand_in_from(
    engine: &mut Engine,
    agent: &mut dyn Agent,
    view: &mut Match,
    m: &mut Match,
    player: PlayerIdx,
    name: &str,
    actions: &mut Vec<Action>,
) -> Result<Vec<HandedIn>, RunError> {
    let decided = agent.act_into(engine, view, player, actions);
    // Whatever the copy logged is not the match's: the live match logs the orders when they arrive.
    engine.take_log();
    decided?;
    let mut handed = agent.take_handed_in();
    let refused = |e| RunError::new(format!("handing in {name}'s orders: {e}"));
    if handed.is_empty() {
        engine
            .submit_orders_decided_on_copy(m, name, actions)
            .map_err(refused)?;
    } else {
        // An agent outside the process: its submissions as they came (what it handed in once the orders
        // were in never reached the copy either).
        let mut kept = 0;
        for h in &handed {
            if !m.state.is_due(player) || m.state.is_over() {
                break;
            }
            engine.submit(m, name, &h.actions).map_err(refused)?;
            kept += 1;
        }
        handed.truncate(kept);
    }
    Ok(handed)
}

/// One submission as it happened, for an observer (`arbiter watch`).
pub struct Step<'a> {
    /// The match after the submission.
    pub m: &'a Match,
    pub player: PlayerIdx,
    /// The submission's actions on the wire (empty unless recording).
    pub actions: &'a [Json],
    /// The events it caused (empty unless recording).
    pub events: &'a [Json],
}

/// Plays a match seeded with `seed`; `agents[p]` plays player `p`. Fails when the rules fail, when a player
/// is due but makes no progress, or after [`MAX_SUBMISSIONS`] submissions or [`MAX_ACTIONS`] actions.
pub fn play_match(
    engine: &mut Engine,
    agents: &mut [Box<dyn Agent>],
    seed: u64,
    opts: PlayOptions,
) -> Result<Played, RunError> {
    play_match_observed(engine, agents, seed, opts, &mut |_| {})
}

/// [`play_match`], calling `observe` after every submission.
pub fn play_match_observed(
    engine: &mut Engine,
    agents: &mut [Box<dyn Agent>],
    seed: u64,
    opts: PlayOptions,
    observe: &mut dyn FnMut(&Step),
) -> Result<Played, RunError> {
    let game = engine.game.clone();
    if agents.len() != game.players.len() {
        return Err(RunError::new(format!(
            "{} agents for {} players",
            agents.len(),
            game.players.len()
        )));
    }
    engine.set_logging(opts.record);
    let mut m = engine.start(seed)?;
    // What is kept of the match, gathered as it goes (the match itself joins them at the end).
    let (mut submissions, mut events) = (Vec::new(), engine.take_log());
    let (mut failures, mut faults) = (Vec::new(), Vec::new());
    // Submissions handed in so far (a fault names the decision by its submission's index).
    let mut decisions = 0usize;
    let (mut count, mut applied) = (0, 0);
    // The position as the current simultaneous turn began, once its first player has been asked, and the
    // copy of it a later player decides on (both kept across turns so copying reuses their memory).
    let mut turn_start: Option<Match> = None;
    let mut view: Option<Match> = None;
    // Each decision's actions, in one buffer reused across decisions.
    let mut actions: Vec<Action> = Vec::new();
    let legal_only = agents.iter().all(|a| a.decides_from_legal_actions_only());
    while !m.state.is_over() {
        let Some(p) = engine.first_due(&m) else {
            return Err(RunError::new(
                "the game is not over but nobody is due to act",
            ));
        };
        count += 1;
        if count > MAX_SUBMISSIONS {
            return Err(RunError::new(format!(
                "no result after {MAX_SUBMISSIONS} submissions: the longest match an agent plays (docs/limits.md); does the game have a rule that ends it?"
            )));
        }
        let before = opts.check.then(|| m.clone());
        let first_event = events.len();
        let (ply, due) = (m.state.ply, m.state.due);
        let agent = agents[p as usize].as_mut();
        let handed = if game.phase(&m.state).submission != Submission::Orders
            || (legal_only && engine.orders_independent(&m))
        {
            // Agents that decide from the legal actions alone list on the live match what they would on the
            // turn start when no player's orders can change another's legality: every player of such a
            // turn acts on the live match, and the turn start need not be copied.
            agent.act_into(engine, &mut m, p, &mut actions)?;
            agent.take_handed_in()
        } else if let Some(start) = turn_start.as_mut().filter(|s| s.state.ply == m.state.ply) {
            if opts.record {
                events.extend(engine.take_log());
            }
            // The last player due decides on the turn start itself: nobody needs it after them.
            let last = m.state.due == 1 << p;
            let view = if last {
                start
            } else {
                copy_into(&mut view, start, engine)
            };
            let name = &game.players[p as usize];
            hand_in_from(engine, agent, view, &mut m, p, name, &mut actions)?
        } else {
            // The first player of a simultaneous turn acts on the live match: no orders are in yet.
            copy_into(&mut turn_start, &m, engine);
            agent.act_into(engine, &mut m, p, &mut actions)?;
            agent.take_handed_in()
        };
        applied += actions
            .len()
            .max(handed.iter().map(|h| h.actions.len()).sum());
        if applied > MAX_ACTIONS {
            return Err(RunError::new(format!(
                "no result after {MAX_ACTIONS} actions: the most an agent-driven match may take (docs/limits.md); does the game have a rule that ends it?"
            )));
        }
        if opts.record {
            events.extend(engine.take_log());
        }
        // Unit ids never change and units are never removed, so the state after the submission encodes
        // its actions as the state before each one would.
        let wire_actions: Vec<Json> = if !handed.is_empty() {
            handed
                .iter()
                .flat_map(|h| h.actions.iter().cloned())
                .collect()
        } else if opts.record || opts.check {
            actions
                .iter()
                .map(|a| wire::encode(&game, &m.state, a))
                .collect()
        } else {
            Vec::new()
        };
        // What an agent outside the process handed in may hold refused actions: nothing to check step
        // by step there, the engine checked each one as it arrived.
        if let Some(before) = before.filter(|_| handed.is_empty()) {
            // The log was just emptied, so switching it off and on again loses nothing.
            engine.set_logging(false);
            check_submission(engine, before, p, &wire_actions, &m, &mut failures)?;
            engine.set_logging(opts.record);
        }
        if !m.state.is_over() && m.state.ply == ply && m.state.due == due && actions.is_empty() {
            let name = &game.players[p as usize];
            if !engine.is_stuck(&mut m, p)? {
                return Err(RunError::new(format!(
                    "agent of player {name} handed in nothing at ply {ply} although it has legal actions"
                )));
            }
            // The ruleset's `when_stuck` decides; a replay's empty submission re-runs the same way.
            engine.settle_stuck(&mut m, p)?;
            if opts.record {
                events.extend(engine.take_log());
            }
        }
        observe(&Step {
            m: &m,
            player: p,
            actions: &wire_actions,
            events: &events[first_event.min(events.len())..],
        });
        let name = &game.players[p as usize];
        if handed.is_empty() {
            if opts.record {
                submissions.push(SubmissionRecord::new(name.clone(), wire_actions));
            }
            decisions += 1;
        }
        for h in handed {
            if let Some(f) = &h.fault {
                faults.push(f.record(name, decisions));
            }
            if opts.record {
                submissions.push(SubmissionRecord {
                    player: name.clone(),
                    actions: h.actions,
                    rationale: h.rationale,
                });
            }
            decisions += 1;
        }
    }
    for (p, agent) in agents.iter_mut().enumerate() {
        agent.finish(engine, &m, p as PlayerIdx);
    }
    for spare in [turn_start, view].into_iter().flatten() {
        engine.recycle(spare);
    }
    Ok(Played {
        m,
        submissions,
        events,
        failures,
        faults,
    })
}

/// Copies `from` into `slot`, reusing the memory of the match already there (or of one the engine
/// recycled).
fn copy_into<'s>(slot: &'s mut Option<Match>, from: &Match, engine: &mut Engine) -> &'s mut Match {
    match slot {
        Some(m) => {
            m.clone_from(from);
            m
        }
        None => slot.insert(engine.copy_of(from)),
    }
}
