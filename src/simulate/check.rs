//! Per-step checks of a submission: re-applied one action at a time on a copy of the match, every action
//! must decode, be listed as legal and apply without `invalid_action`; enumeration must agree with counting;
//! declared invariants must hold after every step; and the copy must end where the real match did.
use serde_json::Value as Json;

use crate::engine::{wire, Applied, Engine, Match, RunError};
use crate::model::PlayerIdx;

/// Re-applies `actions` by `player` to `before` and appends a message to `failures` for each problem.
/// `after` is the match as the agent left it.
pub fn check_submission(
    engine: &mut Engine,
    mut before: Match,
    player: PlayerIdx,
    actions: &[Json],
    after: &Match,
    failures: &mut Vec<String>,
) -> Result<(), RunError> {
    let game = engine.game.clone();
    let m = &mut before;
    let at = |m: &Match| format!("seed {} turn {} ply {}", m.seed, m.state.turn, m.state.ply);
    let ply = m.state.ply;
    let mut legal = Vec::new();
    for json in actions {
        if m.state.is_over() || !m.state.is_due(player) || m.state.ply != ply {
            failures.push(format!(
                "{}: action {json} was applied after the submission had ended",
                at(m)
            ));
            return Ok(());
        }
        let action = match wire::decode(&game, &m.state, json) {
            Ok(a) => a,
            Err(reason) => {
                failures.push(format!(
                    "{}: action {json} does not decode ({reason})",
                    at(m)
                ));
                return Ok(());
            }
        };
        engine.legal(m, player, &mut legal)?;
        let n = engine.count_legal(m, player)?;
        if n != legal.len() as u64 {
            failures.push(format!(
                "{}: count_legal gives {n} but {} actions are listed",
                at(m),
                legal.len()
            ));
        }
        for k in [0, legal.len() / 2, legal.len().saturating_sub(1)] {
            if k < legal.len() {
                let nth = engine.nth_legal(m, player, k as u64)?;
                if nth.as_ref() != Some(&legal[k]) {
                    failures.push(format!(
                        "{}: nth_legal({k}) differs from the {k}th listed action",
                        at(m)
                    ));
                }
            }
        }
        let listed = legal.contains(&action);
        let where_ = at(m);
        match engine.apply(m, player, &action)? {
            Applied::Invalid(reason) if listed => {
                failures.push(format!(
                    "{where_}: listed legal action {json} was refused ({reason})"
                ));
            }
            Applied::Done if !listed => {
                failures.push(format!(
                    "{where_}: action {json} was accepted but is not listed as legal"
                ));
            }
            _ => {}
        }
        for broken in engine.broken_invariants(m)? {
            failures.push(format!("{}: after {json}: {broken}", at(m)));
        }
    }
    if !m.state.is_over() && m.state.is_due(player) && m.state.ply == ply {
        engine.end_submission(m, player)?;
    }
    if m.state != after.state {
        failures.push(format!(
            "{}: re-applying the submission step by step gave a different state",
            at(after)
        ));
    }
    Ok(())
}
