//! One match between agents: start, ask whoever is due for a submission until the game ends, and keep the
//! submissions and events when recording.
use serde_json::Value as Json;

use super::check::check_submission;
use crate::agents::Agent;
use crate::engine::{Engine, Match, RunError};
use crate::replay::{Replay, SubmissionRecord};

/// Most submissions in one match before it counts as stuck.
pub const MAX_SUBMISSIONS: usize = 100_000;
/// Most actions in one match before it counts as stuck.
pub const MAX_ACTIONS: usize = 1_000_000;

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
}

impl Played {
    /// The replay of this match (meaningful when it was recorded).
    pub fn replay(&self, engine: &Engine) -> Replay {
        Replay::new(
            engine,
            &self.m,
            self.submissions.clone(),
            self.events.clone(),
        )
    }
}

/// Plays a match seeded with `seed`; `agents[p]` plays player `p`. Fails when the rules fail, when a player
/// is due but makes no progress, or after [`MAX_SUBMISSIONS`] submissions or [`MAX_ACTIONS`] actions.
pub fn play_match(
    engine: &mut Engine,
    agents: &mut [Box<dyn Agent>],
    seed: u64,
    opts: PlayOptions,
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
    engine.record_actions = opts.record || opts.check;
    let mut m = engine.start(seed)?;
    let mut played = Played {
        m: m.clone(),
        submissions: Vec::new(),
        events: engine.take_log(),
        failures: Vec::new(),
    };
    let (mut count, mut applied) = (0, 0);
    while !m.state.is_over() {
        let Some(&p) = engine.due(&m).first() else {
            return Err(RunError::new(
                "the game is not over but nobody is due to act",
            ));
        };
        count += 1;
        if count > MAX_SUBMISSIONS {
            return Err(RunError::new(format!(
                "no result after {MAX_SUBMISSIONS} submissions"
            )));
        }
        let before = opts.check.then(|| m.clone());
        let (ply, due) = (m.state.ply, m.state.due);
        let actions = agents[p as usize].act(engine, &mut m, p)?;
        applied += actions.len();
        if applied > MAX_ACTIONS {
            return Err(RunError::new(format!(
                "no result after {MAX_ACTIONS} actions"
            )));
        }
        if opts.record {
            played.events.extend(engine.take_log());
        }
        if let Some(before) = before {
            // The log was just emptied, so switching it off and on again loses nothing.
            engine.set_logging(false);
            check_submission(engine, before, p, &actions, &m, &mut played.failures)?;
            engine.set_logging(opts.record);
            engine.record_actions = opts.record || opts.check;
        }
        if !m.state.is_over() && m.state.ply == ply && m.state.due == due && actions.is_empty() {
            let name = &game.players[p as usize];
            return Err(RunError::new(format!(
                "player {name} is due at ply {ply} but has no legal action and cannot hand in"
            )));
        }
        if opts.record {
            played.submissions.push(SubmissionRecord {
                player: game.players[p as usize].clone(),
                actions,
            });
        }
    }
    played.m = m;
    Ok(played)
}
