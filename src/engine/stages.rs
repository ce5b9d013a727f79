//! Stages inside a player-turn (boardgame.io's turn stages): the turn of a phase with `stages` goes through
//! them in order, each allowing its own actions until the player moves on (`end_stage`), jumps (`stage:`),
//! or its budget is used; after the last stage (or one whose `next` is `end`) the turn ends. Like a
//! `points` turn, it lasts over as many submissions as the player needs.
use serde_json::{json, Value as Json};

use super::exec::Signals;
use super::machine::{Machine, RunError};
use crate::ir::game::{Game, END_TURN};
use crate::model::MatchState;

type R<T> = Result<T, RunError>;

/// What `points` holds in a stage without a budget: more than any cost (costs are small constants).
pub const UNLIMITED: i64 = i64::MAX;

impl Machine<'_> {
    /// Makes stage `i` of the current phase the current one, with its whole budget.
    pub fn enter_stage(&mut self, i: usize) {
        let phase = &self.game.phases[self.st.phase as usize];
        self.st.stage = i as u16;
        self.st.points = phase.stages[i].budget.unwrap_or(UNLIMITED);
    }

    /// After a valid action of a phase with stages: the turn ends, the stage changes, or the action's
    /// cost comes off the stage's budget (moving on when it is used up).
    pub fn after_staged_action(&mut self, cost: i64, sig: Signals) -> R<()> {
        if sig.end_turn {
            return self.end_turn();
        }
        let phase = &self.game.phases[self.st.phase as usize];
        match sig.stage {
            Some(Some(sym)) => {
                let Some(i) = phase.stages.iter().position(|s| s.sym == sym) else {
                    return Err(RunError::new(format!(
                        "stage `{}` is not a stage of phase `{}`",
                        self.game.symbols.name(sym),
                        phase.name
                    )));
                };
                self.enter_stage(i);
                Ok(())
            }
            Some(None) => self.next_stage(),
            None => {
                if self.st.points != UNLIMITED {
                    self.st.points -= cost;
                    if self.st.points <= 0 {
                        return self.next_stage();
                    }
                }
                Ok(())
            }
        }
    }

    /// Moves on from the current stage: to its `next`, else the following one; the turn ends after the last.
    fn next_stage(&mut self) -> R<()> {
        let phase = &self.game.phases[self.st.phase as usize];
        let here = self.st.stage as usize;
        let next = match phase.stages[here].next {
            Some(END_TURN) => phase.stages.len(),
            Some(i) => i as usize,
            None => here + 1,
        };
        if next >= phase.stages.len() {
            return self.end_turn();
        }
        self.enter_stage(next);
        Ok(())
    }
}

/// Adds the current stage to the state JSON of a phase with stages (`stage`; `points` is null in a stage
/// without a budget).
pub fn extend_state_json(g: &Game, st: &MatchState, state: &mut Json) {
    let phase = &g.phases[st.phase as usize];
    if let Some(stage) = phase.stages.get(st.stage as usize) {
        state["stage"] = json!(stage.name);
        if st.points == UNLIMITED {
            state["points"] = Json::Null;
        }
    }
}
