//! The random agents, drawing from their own seeded streams so the game's random draws are untouched:
//! `random` is uniform over the legal actions; `random_kind` draws an action kind first (uniform over the
//! kinds with a legal action), then one of that kind's actions.
use super::{submit_each, Agent, MAX_SUBMISSION};
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
        Self::from_rng(Rng::stream(
            RngKind::ChaCha8,
            seed,
            STREAM_BASE + player as u64,
        ))
    }

    /// A random agent drawing from `rng` (search agents' rollouts).
    pub fn from_rng(rng: Rng) -> Self {
        RandomAgent {
            rng,
            blocks: crate::engine::blocks::BlockList::with_capacity(64, 128),
        }
    }

    /// The generator, so a rollout can reseed it without allocating.
    pub fn rng_mut(&mut self) -> &mut Rng {
        &mut self.rng
    }
}

impl Agent for RandomAgent {
    fn name(&self) -> &str {
        "random"
    }

    fn restart(&mut self, seed: u64, player: PlayerIdx) -> bool {
        self.rng
            .restream(RngKind::ChaCha8, seed, STREAM_BASE + player as u64);
        true
    }

    fn decides_from_legal_actions_only(&self) -> bool {
        true
    }

    fn act_into(
        &mut self,
        engine: &mut Engine,
        m: &mut Match,
        player: PlayerIdx,
        out: &mut Vec<Action>,
    ) -> Result<(), RunError> {
        // In order phases handing in is a choice like any order, so a random number of orders is given.
        let orders = engine.game.phase(&m.state).submission == Submission::Orders;
        let rng = &mut self.rng;
        // One walk lists the legal actions as blocks; the pick is uniform over every action in them (the
        // same draw as counting then taking the k-th).
        engine.submit_from_listing(m, player, MAX_SUBMISSION, &mut self.blocks, out, |blocks| {
            let n = blocks.total();
            let choices = n + u64::from(orders);
            if choices == 0 {
                return None;
            }
            let k = rng.below(choices);
            (k != n).then_some(k)
        })
    }
}

/// Draws an action kind first (uniform over the kinds with at least one legal action, plus handing in
/// as one more choice in `orders` phases), then uniformly among that kind's legal actions. In games where
/// one kind has many more actions than the others (integer amounts, many targets), this plays the rare
/// kinds far more often than `random`.
pub struct RandomKindAgent {
    rng: Rng,
    blocks: Vec<crate::engine::legal::Block>,
    /// Actions per kind of the current listing, and the kinds with any.
    per_kind: Vec<u64>,
}

impl RandomKindAgent {
    pub fn new(seed: u64, player: PlayerIdx) -> Self {
        Self::from_rng(Rng::stream(
            RngKind::ChaCha8,
            seed,
            STREAM_BASE + player as u64,
        ))
    }

    pub fn from_rng(rng: Rng) -> Self {
        RandomKindAgent {
            rng,
            blocks: Vec::new(),
            per_kind: Vec::new(),
        }
    }

    pub fn rng_mut(&mut self) -> &mut Rng {
        &mut self.rng
    }
}

impl Agent for RandomKindAgent {
    fn name(&self) -> &str {
        "random_kind"
    }

    fn restart(&mut self, seed: u64, player: PlayerIdx) -> bool {
        self.rng
            .restream(RngKind::ChaCha8, seed, STREAM_BASE + player as u64);
        true
    }

    fn decides_from_legal_actions_only(&self) -> bool {
        true
    }

    fn act_into(
        &mut self,
        engine: &mut Engine,
        m: &mut Match,
        player: PlayerIdx,
        out: &mut Vec<Action>,
    ) -> Result<(), RunError> {
        let orders = engine.game.phase(&m.state).submission == Submission::Orders;
        self.per_kind.clear();
        self.per_kind.resize(engine.game.actions.len(), 0);
        submit_each(engine, m, player, out, |engine, m| {
            engine.legal_blocks(m, player, &mut self.blocks)?;
            self.per_kind.iter_mut().for_each(|n| *n = 0);
            for b in &self.blocks {
                self.per_kind[b.action.kind as usize] += b.size();
            }
            let kinds = self.per_kind.iter().filter(|n| **n > 0).count() as u64;
            let choices = kinds + u64::from(orders);
            if choices == 0 {
                return Ok(None);
            }
            let pick = self.rng.below(choices);
            if pick == kinds {
                return Ok(None);
            }
            let Some(kind) = self
                .per_kind
                .iter()
                .enumerate()
                .filter(|(_, n)| **n > 0)
                .nth(pick as usize)
                .map(|(k, _)| k as u16)
            else {
                return Ok(None);
            };
            let mut k = self.rng.below(self.per_kind[kind as usize]);
            for b in self.blocks.iter().filter(|b| b.action.kind == kind) {
                if k < b.size() {
                    return Ok(Some(b.get(k)));
                }
                k -= b.size();
            }
            Err(RunError::new("a listed action could not be enumerated"))
        })
    }
}
