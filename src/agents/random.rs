//! The random agent: uniform over the legal actions, drawing from its own seeded stream so the game's
//! random draws are untouched.
use super::{apply_recorded, close, Agent, Mark, MAX_SUBMISSION};
use crate::engine::{Engine, Match, RunError};
use crate::ir::game::Submission;
use crate::model::{Action, PlayerIdx};
use crate::rng::{Rng, RngKind};

/// Stream numbers of agents start here, far from the streams a game uses.
pub const STREAM_BASE: u64 = 1000;

pub struct RandomAgent {
    rng: Rng,
    /// Reused between picks so sampling does not allocate.
    blocks: crate::engine::blocks::BlockList,
}

impl RandomAgent {
    /// A random agent for `player` in the match seeded with `seed`.
    pub fn new(seed: u64, player: PlayerIdx) -> Self {
        RandomAgent {
            rng: Rng::stream(RngKind::ChaCha8, seed, STREAM_BASE + player as u64),
            blocks: Default::default(),
        }
    }
}

impl Agent for RandomAgent {
    fn name(&self) -> &str {
        "random"
    }

    fn act(
        &mut self,
        engine: &mut Engine,
        m: &mut Match,
        player: PlayerIdx,
    ) -> Result<Vec<Action>, RunError> {
        let mark = Mark::new(m);
        // In order phases handing in is a choice like any order, so a random number of orders is given.
        let orders = engine.game.phase(&m.state).submission == Submission::Orders;
        let mut out = Vec::new();
        while out.len() < MAX_SUBMISSION && mark.open(m, player) {
            // One walk lists the legal actions as blocks; the pick is uniform over every action in them
            // (the same draw as counting then taking the k-th).
            engine.block_list(m, player, &mut self.blocks)?;
            let n = self.blocks.total();
            let choices = n + u64::from(orders);
            if choices == 0 {
                break;
            }
            let k = self.rng.below(choices);
            if k == n {
                break;
            }
            let Some(action) = self.blocks.get(k) else {
                return Err(RunError::new(format!(
                    "legal action {k} of {n} could not be enumerated"
                )));
            };
            apply_recorded(engine, m, player, action, &mut out)?;
        }
        close(engine, m, player, mark)?;
        Ok(out)
    }
}
