//! The random agent: uniform over the legal actions, drawing from its own seeded stream so the game's
//! random draws are untouched.
use serde_json::Value as Json;

use super::{apply_recorded, close, Agent, Mark, MAX_SUBMISSION};
use crate::engine::{Engine, Match, RunError};
use crate::model::PlayerIdx;
use crate::rng::{Rng, RngKind};
use crate::ruleset::game::Submission;

/// Stream numbers of agents start here, far from the streams a game uses.
pub const STREAM_BASE: u64 = 1000;

pub struct RandomAgent {
    rng: Rng,
}

impl RandomAgent {
    /// A random agent for `player` in the match seeded with `seed`.
    pub fn new(seed: u64, player: PlayerIdx) -> Self {
        RandomAgent {
            rng: Rng::stream(RngKind::ChaCha8, seed, STREAM_BASE + player as u64),
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
    ) -> Result<Vec<Json>, RunError> {
        let mark = Mark::new(m);
        // In order phases handing in is a choice like any order, so a random number of orders is given.
        let orders = engine.game.phase(&m.state).submission == Submission::Orders;
        let mut out = Vec::new();
        while out.len() < MAX_SUBMISSION && mark.open(m, player) {
            let n = engine.count_legal(m, player)?;
            let choices = n + u64::from(orders);
            if choices == 0 {
                break;
            }
            let k = self.rng.below(choices);
            if k == n {
                break;
            }
            let Some(action) = engine.nth_legal(m, player, k)? else {
                return Err(RunError::new(format!(
                    "legal action {k} of {n} could not be enumerated"
                )));
            };
            apply_recorded(engine, m, player, &action, &mut out)?;
        }
        close(engine, m, player, mark)?;
        Ok(out)
    }
}
