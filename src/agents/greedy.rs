//! The greedy agent: one-ply lookahead on the evaluation the ruleset declares, from its own point of view.
//!
//! Each candidate action is tried on a copy of the match by a private engine with logging off, so the
//! recorded events of the real match are untouched. The copy draws from the agent's own random stream, not
//! the match's, so the lookahead cannot peek at the dice the real action will roll.
use super::search::take_lookahead;
use super::{submit_each, Agent};
use crate::engine::{Engine, Match, RunError};
use crate::ir::game::Submission;
use crate::model::{Action, PlayerIdx};
use crate::rng::{Rng, RngKind};

/// Stream numbers of greedy lookahead draws (random agents use 1000 + player).
pub const STREAM_BASE: u64 = 2000;
/// Value of a position the agent has won (and minus that for one it has lost).
pub const DECIDED: f64 = 1e15;

pub struct GreedyAgent {
    player: PlayerIdx,
    rng: Rng,
    look: Option<Engine>,
    legal: Vec<Action>,
    /// The copy each candidate is tried on, reused so trying one allocates nothing.
    scratch: Option<Match>,
    /// Which evaluation: `None` the one named `greedy`; `Some(None)` none (every position scores 0).
    eval: Option<Option<usize>>,
    name: String,
}

impl GreedyAgent {
    /// The `greedy` agent: the evaluation the ruleset declares as `agents.greedy`.
    pub fn new(seed: u64, player: PlayerIdx) -> Self {
        GreedyAgent {
            player,
            rng: Rng::stream(RngKind::ChaCha8, seed, STREAM_BASE + player as u64),
            look: None,
            legal: Vec::new(),
            scratch: None,
            eval: None,
            name: "greedy".into(),
        }
    }

    /// The same lookahead on the `eval`-th evaluation of the game (`None`: every position scores 0),
    /// called `name`.
    pub fn with_evaluation(seed: u64, player: PlayerIdx, eval: Option<usize>, name: &str) -> Self {
        GreedyAgent {
            eval: Some(eval),
            name: name.into(),
            ..GreedyAgent::new(seed, player)
        }
    }
}

/// The value of `m` for `player`: decided games first, then the evaluation `eval` (NaN counts as worst).
pub fn score(
    look: &mut Engine,
    m: &mut Match,
    player: PlayerIdx,
    eval: Option<usize>,
) -> Result<f64, RunError> {
    if let Some(r) = &m.state.result {
        match r.winner {
            Some(w) if w == player => return Ok(DECIDED),
            Some(_) => return Ok(-DECIDED),
            None => {}
        }
    }
    let v = match eval {
        Some(k) => look.evaluate_with(k, m, player)?,
        None => 0.0,
    };
    Ok(if v.is_nan() { f64::NEG_INFINITY } else { v })
}

/// `m` copied into `scratch` (reusing its memory), drawing from the generator state `probe`. The match's
/// own generator is never copied: the probe's replaces it (and is left in place when the last try drew
/// nothing, see `Rng::clone_from`).
fn trial<'s>(scratch: &'s mut Option<Match>, m: &Match, probe: &Rng) -> &'s mut Match {
    match scratch {
        Some(c) => {
            c.state.clone_from(&m.state);
            c.rng.clone_from(probe);
            c.seed = m.seed;
            c
        }
        None => {
            let c = scratch.insert(m.clone());
            c.rng.clone_from(probe);
            c
        }
    }
}

impl Agent for GreedyAgent {
    fn name(&self) -> &str {
        &self.name
    }

    fn act_into(
        &mut self,
        engine: &mut Engine,
        m: &mut Match,
        player: PlayerIdx,
        out: &mut Vec<Action>,
    ) -> Result<(), RunError> {
        debug_assert_eq!(player, self.player);
        let mut look = take_lookahead(&mut self.look, engine)?;
        let result = self.submit(engine, &mut look, m, player, out);
        self.look = Some(look);
        result
    }
}

impl GreedyAgent {
    /// One submission: the best-scoring action, again and again; where handing in early is allowed, it
    /// stops once nothing improves the position.
    fn submit(
        &mut self,
        engine: &mut Engine,
        look: &mut Engine,
        m: &mut Match,
        player: PlayerIdx,
        out: &mut Vec<Action>,
    ) -> Result<(), RunError> {
        let game = engine.game.clone();
        let eval = self.eval.unwrap_or_else(|| game.evaluation("greedy"));
        let optional = matches!(
            game.phase(&m.state).submission,
            Submission::Orders | Submission::Batch
        );
        submit_each(engine, m, player, out, |engine, m| {
            engine.legal(m, player, &mut self.legal)?;
            if self.legal.is_empty() {
                return Ok(None);
            }
            // Every try starts from the same generator state, copied into the scratch match's own.
            let probe = Rng::new(game.rng, self.rng.below(u64::MAX));
            let current = if optional {
                let c = trial(&mut self.scratch, m, &probe);
                Some(score(look, c, player, eval)?)
            } else {
                None
            };
            let mut best: Option<(usize, f64)> = None;
            for (i, a) in self.legal.iter().enumerate() {
                let c = trial(&mut self.scratch, m, &probe);
                look.apply_listed(c, player, a)?;
                let v = score(look, c, player, eval)?;
                if best.is_none_or(|(_, b)| v > b) {
                    best = Some((i, v));
                }
            }
            let Some((i, v)) = best else { return Ok(None) };
            if current.is_some_and(|c| v <= c) {
                return Ok(None);
            }
            Ok(Some(self.legal[i].clone()))
        })
    }
}
