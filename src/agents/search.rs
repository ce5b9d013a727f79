//! What a "move" is for the search agents (mcts, minimax), in every kind of phase.
//!
//! A move is one single action, or [`Move::End`]: handing in the rest of the submission. `End` is offered
//! where a player may stop early (`batch` and `orders` phases, always) and, as the only move, where a
//! player is due with no legal action at all (the ruleset's `when_stuck` then decides). In `single`
//! phases a turn is one move; in `points` phases a turn is as many moves as the points allow (a ruleset's
//! own end action, such as `end_turn`, is an ordinary move); in `batch` phases up to the budget, or fewer
//! followed by `End`; in `orders` phases each order is a move and `End` hands the orders in.
use crate::engine::{Engine, Match, RunError};
use crate::ir::game::Submission;
use crate::model::{Action, PlayerIdx};

/// One decision of a search: an action, or handing in.
#[derive(Clone, Debug, PartialEq)]
pub enum Move {
    Act(Action),
    End,
}

/// Whether `player` may hand in now without another action (batch and orders phases).
pub fn may_end(engine: &Engine, m: &Match) -> bool {
    matches!(
        engine.game.phase(&m.state).submission,
        Submission::Batch | Submission::Orders
    )
}

/// Lists the moves of `player` in `m` into `out`: `End` first where allowed (so that ties prefer handing
/// in, as the greedy agent stops when nothing improves), then the legal actions in enumeration order;
/// `End` alone when the player is stuck. Empty when the player is not due.
pub fn moves(
    engine: &mut Engine,
    m: &mut Match,
    player: PlayerIdx,
    legal: &mut Vec<Action>,
    out: &mut Vec<Move>,
) -> Result<(), RunError> {
    out.clear();
    if m.state.is_over() || !m.state.is_due(player) {
        return Ok(());
    }
    engine.legal(m, player, legal)?;
    if may_end(engine, m) || legal.is_empty() {
        out.push(Move::End);
    }
    out.extend(legal.drain(..).map(Move::Act));
    Ok(())
}

/// Plays `mv` for `player` on `m` (a move [`moves`] just listed for this very state).
pub fn play(
    engine: &mut Engine,
    m: &mut Match,
    player: PlayerIdx,
    mv: &Move,
) -> Result<(), RunError> {
    match mv {
        Move::Act(a) => {
            engine.apply_listed(m, player, a)?;
        }
        Move::End => {
            if may_end(engine, m) {
                engine.end_submission(m, player)?;
            } else if engine.is_stuck(m, player)? {
                engine.settle_stuck(m, player)?;
            }
        }
    }
    Ok(())
}

/// Who decides next in a search from `root`'s point of view: in an `orders` phase `root` while it is
/// due (its own orders come first), otherwise the lowest due player; `None` once the game is over.
pub fn decider(engine: &Engine, m: &Match, root: PlayerIdx) -> Option<PlayerIdx> {
    if m.state.is_over() || m.state.due == 0 {
        return None;
    }
    if m.state.is_due(root) {
        return Some(root);
    }
    (0..engine.game.players.len() as PlayerIdx).find(|p| m.state.is_due(*p))
}

/// The reward of a finished game for `player`: 1 for a win, 0 for a loss, 1/n for a draw of n players.
pub fn outcome(m: &Match, player: PlayerIdx, players: usize) -> Option<f64> {
    let r = m.state.result.as_ref()?;
    Some(match r.winner {
        Some(w) if w == player => 1.0,
        Some(_) => 0.0,
        None => 1.0 / players.max(1) as f64,
    })
}

/// The evaluation `eval` for `player` minus the mean of the other players' (0 without an evaluation):
/// how far ahead `player` stands by the ruleset's own measure.
pub fn advantage(
    engine: &mut Engine,
    m: &mut Match,
    player: PlayerIdx,
    eval: Option<usize>,
) -> Result<f64, RunError> {
    let Some(k) = eval else {
        return Ok(0.0);
    };
    let n = engine.game.players.len();
    let mine = engine.evaluate_with(k, m, player)?;
    if n < 2 {
        return Ok(finite(mine));
    }
    let mut others = 0.0;
    for q in 0..n as PlayerIdx {
        if q != player {
            others += finite(engine.evaluate_with(k, m, q)?);
        }
    }
    Ok(finite(mine) - others / (n - 1) as f64)
}

fn finite(x: f64) -> f64 {
    if x.is_finite() {
        x
    } else if x.is_nan() {
        0.0
    } else {
        x.signum() * 1e12
    }
}

/// The lookahead engine a search agent keeps between decisions, taken out of `slot` when it plays
/// `engine`'s game, or a new one (the agent puts it back after the decision).
pub fn take_lookahead(slot: &mut Option<Engine>, engine: &Engine) -> Result<Engine, RunError> {
    match slot.take() {
        Some(l) if std::sync::Arc::ptr_eq(&l.game, &engine.game) => Ok(l),
        _ => engine.sibling(),
    }
}

/// Copies `from` into `slot`, reusing the memory of the match already there.
pub fn copy_into<'s>(slot: &'s mut Option<Match>, from: &Match) -> &'s mut Match {
    match slot {
        Some(m) => {
            m.clone_from(from);
            m
        }
        None => slot.insert(from.clone()),
    }
}
