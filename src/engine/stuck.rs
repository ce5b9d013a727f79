//! A due player with no legal action: the ruleset's `when_stuck` decides (pass, lose or draw; pass by
//! default). Batch and order phases never get stuck (an empty submission is a valid one); single-action and
//! points phases would wait forever for an action that cannot come.
use serde_json::json;

use super::{Engine, Match, Program, RunError};
use crate::ir::game::Game;
use crate::ir::game::Submission;
use crate::ir::game::WhenStuck;
use crate::model::PlayerIdx;

impl Engine {
    /// Whether `player` is due in `m`, in a phase that needs an action, and has none.
    pub fn is_stuck(&mut self, m: &mut Match, player: PlayerIdx) -> Result<bool, RunError> {
        if m.state.is_over() || !m.state.is_due(player) {
            return Ok(false);
        }
        let needs_action = matches!(
            self.game.phase(&m.state).submission,
            Submission::Single | Submission::Points
        );
        Ok(needs_action && self.count_legal(m, player)? == 0)
    }

    /// Settles a stuck `player` as the ruleset says, logging `stuck {player, outcome}` first.
    pub fn settle_stuck(&mut self, m: &mut Match, player: PlayerIdx) -> Result<(), RunError> {
        let Engine { game, prog, rt, .. } = &mut *self;
        let (game, prog): (&Game, &Program) = (game, prog);
        let rule = game.when_stuck;
        let mut mm = Self::machine(game, prog, rt, m, player);
        if mm.logging() {
            mm.log(json!({"type": "stuck", "player": game.players[player as usize], "outcome": rule.name()}));
        }
        match rule {
            WhenStuck::Pass => mm.end_turn(),
            WhenStuck::Lose => {
                let others: Vec<u8> = (0..game.players.len() as u8)
                    .filter(|p| *p != player)
                    .collect();
                let winner = (others.len() == 1).then(|| others[0]);
                mm.finish(winner, "no_legal_action", Vec::new());
                Ok(())
            }
            WhenStuck::Draw => {
                mm.finish(None, "no_legal_action", Vec::new());
                Ok(())
            }
        }
    }
}
