//! The `pass` fallback: an empty submission, which ends the player's decision in batch turns and
//! simultaneous orders. Where an empty submission would end nothing (phases whose turn ends with an
//! action: one action per turn, or actions paid with points), it hands in the first legal action, in
//! enumeration order, that ends the player's turn (tried on a copy), or failing that the first legal
//! action; a stuck player's empty submission is settled by the ruleset's `when_stuck`. Either way the
//! decision makes progress, so a silent agent never stalls a match.
use serde_json::Value as Json;

use crate::engine::{wire, Engine, Match, RunError};
use crate::ir::game::Submission;
use crate::model::{Action, PlayerIdx};

/// Hands in `pass` for `player` on `m` (checked, as any outside submission); returns the actions and
/// their wire form. `trial` keeps an engine for trying actions on copies between calls.
pub fn pass(
    engine: &mut Engine,
    m: &mut Match,
    player: PlayerIdx,
    trial: &mut Option<Engine>,
) -> Result<(Vec<Action>, Vec<Json>), RunError> {
    let name = engine.game.players[player as usize].clone();
    let refused = |e| RunError::new(format!("handing in {name}'s pass: {e}"));
    let kind = engine.game.phase(&m.state).submission;
    let mut legal = Vec::new();
    if matches!(kind, Submission::Single | Submission::Points) {
        engine.legal(m, player, &mut legal)?;
    }
    let Some(first) = legal.first().cloned() else {
        engine.submit(m, &name, &[]).map_err(refused)?;
        return Ok((Vec::new(), Vec::new()));
    };
    let trial = match trial {
        Some(t) => t,
        None => trial.insert(engine.sibling()?),
    };
    let ply = m.state.ply;
    let mut copy = m.clone();
    let mut chosen = first;
    for a in &legal {
        copy.clone_from(m);
        if trial.apply_listed(&mut copy, player, a).is_ok()
            && (copy.state.ply != ply || copy.state.is_over() || !copy.state.is_due(player))
        {
            chosen = a.clone();
            break;
        }
    }
    let handed = vec![wire::encode(&engine.game, &m.state, &chosen)];
    engine.submit(m, &name, &handed).map_err(refused)?;
    Ok((vec![chosen], handed))
}
