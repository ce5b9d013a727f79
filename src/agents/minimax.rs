//! The minimax agent: alpha-beta search to a fixed number of decisions on the ruleset's evaluation.
//!
//! - A move is one action or handing in ([`super::search`]); `depth` counts moves, whoever makes them, so
//!   in a `batch` or `orders` phase depth 2 looks at the agent's next two actions of the same turn.
//! - Leaves score `eval(me) - mean(eval(others))` (the evaluation named by `eval`, `greedy` by default);
//!   a finished game scores +-10^15 (a draw 0), sooner wins preferred.
//! - The agent maximises at its own moves, every other player minimises (two-player zero-sum view).
//! - Chance: the game's draws inside the search come from one sampled generator per search, seeded from
//!   the agent's own stream (never the match's), so a search sees one plausible roll of the dice. With
//!   `samples=k` it searches k sampled dice and plays the move with the best mean value.
//! - Simultaneous turns: the agent's own orders come first; then the other players' orders are searched
//!   as if they were chosen knowing the agent's (a pessimistic, "paranoid" model); then the turn resolves.
//!   The agent itself decides on the position as the turn began and never sees real orders of others.
//! - Ties go to the first move listed (handing in comes first), so the agent stops where nothing improves.
//!
//! Copies for lookahead are kept per depth and refilled with `clone_from`, so a search allocates nothing
//! per node once warm.
use super::search::{advantage, decider, moves, play, take_lookahead, Move};
use super::{submit_each, Agent};
use crate::engine::{Engine, Match, RunError};
use crate::model::{Action, PlayerIdx};
use crate::rng::{Rng, RngKind};

/// Stream numbers of minimax's sampled dice.
pub const STREAM_BASE: u64 = 4000;
/// Value of a won position (minus it for a lost one), before the bonus for winning sooner.
const DECIDED: f64 = 1e15;

#[derive(Clone, Debug)]
pub struct MinimaxConfig {
    /// Moves searched from the current position.
    pub depth: u32,
    /// The evaluation at the leaves (`None`: every unfinished position is worth 0).
    pub eval: Option<usize>,
    /// Sampled dice per decision.
    pub samples: u32,
}

impl Default for MinimaxConfig {
    fn default() -> Self {
        MinimaxConfig {
            depth: 2,
            eval: None,
            samples: 1,
        }
    }
}

pub struct MinimaxAgent {
    player: PlayerIdx,
    cfg: MinimaxConfig,
    rng: Rng,
    look: Option<Engine>,
    /// One copy of the match per depth, and one move list per depth.
    copies: Vec<Match>,
    lists: Vec<Vec<Move>>,
    legal: Vec<Action>,
    /// Nodes visited by the last decision (for measurements).
    pub nodes: u64,
}

impl MinimaxAgent {
    pub fn new(seed: u64, player: PlayerIdx, cfg: MinimaxConfig) -> Self {
        MinimaxAgent {
            player,
            cfg,
            rng: Rng::stream(RngKind::ChaCha8, seed, STREAM_BASE + player as u64),
            look: None,
            copies: Vec::new(),
            lists: Vec::new(),
            legal: Vec::new(),
            nodes: 0,
        }
    }

    /// Value of `self.copies[level]` with `left` moves to go, for the root player (alpha-beta, fail-soft).
    fn value(
        &mut self,
        look: &mut Engine,
        level: usize,
        left: u32,
        mut alpha: f64,
        mut beta: f64,
    ) -> Result<f64, RunError> {
        self.nodes += 1;
        let me = self.player;
        let players = look.game.players.len();
        let m = &mut self.copies[level];
        if let Some(r) = &m.state.result {
            // Sooner decisions weigh more: a win now beats a win later, a loss later beats a loss now.
            let soon = f64::from(left);
            return Ok(match r.winner {
                Some(w) if w == me => DECIDED + soon,
                Some(_) => -DECIDED - soon,
                None => 0.0,
            });
        }
        let Some(p) = decider(look, m, me) else {
            return advantage(look, m, me, self.cfg.eval);
        };
        if left == 0 {
            return advantage(look, m, me, self.cfg.eval);
        }
        let mut list = std::mem::take(&mut self.lists[level]);
        moves(look, m, p, &mut self.legal, &mut list)?;
        let maximise = p == me || players < 2;
        let mut best = if maximise {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        };
        for mv in &list {
            let (head, tail) = self.copies.split_at_mut(level + 1);
            tail[0].clone_from(&head[level]);
            play(look, &mut tail[0], p, mv)?;
            let v = self.value(look, level + 1, left - 1, alpha, beta)?;
            if maximise {
                best = best.max(v);
                alpha = alpha.max(v);
            } else {
                best = best.min(v);
                beta = beta.min(v);
            }
            if alpha >= beta {
                break;
            }
        }
        self.lists[level] = list;
        Ok(best)
    }

    /// The best move for the agent at `m` (which it is due to play), or `None` when it has none.
    fn decide(&mut self, look: &mut Engine, m: &Match) -> Result<Option<Move>, RunError> {
        let depth = self.cfg.depth.max(1);
        let levels = depth as usize + 1;
        while self.copies.len() < levels {
            self.copies.push(m.clone());
        }
        while self.lists.len() < levels {
            self.lists.push(Vec::new());
        }
        self.nodes = 0;
        self.copies[0].clone_from(m);
        let mut root = std::mem::take(&mut self.lists[0]);
        moves(
            look,
            &mut self.copies[0],
            self.player,
            &mut self.legal,
            &mut root,
        )?;
        if root.len() <= 1 {
            let only = root.first().cloned();
            self.lists[0] = root;
            return Ok(only);
        }
        let mut totals = vec![0.0; root.len()];
        let samples = self.cfg.samples.max(1);
        for _ in 0..samples {
            let dice = self.rng.next_raw();
            let kind = look.game.rng;
            let mut alpha = f64::NEG_INFINITY;
            for (i, mv) in root.iter().enumerate() {
                self.copies[1].clone_from(m);
                self.copies[1].rng = Rng::new(kind, dice);
                play(look, &mut self.copies[1], self.player, mv)?;
                // One sample: alpha-beta across the root moves too (only the best value must be exact).
                // Several: every root move's value exactly, so that the means compare like with like.
                let lower = if samples == 1 {
                    alpha
                } else {
                    f64::NEG_INFINITY
                };
                let v = self.value(look, 1, depth - 1, lower, f64::INFINITY)?;
                alpha = alpha.max(v);
                totals[i] += v;
            }
        }
        let mut best = 0;
        for (i, t) in totals.iter().enumerate() {
            if *t > totals[best] {
                best = i;
            }
        }
        let mv = root[best].clone();
        self.lists[0] = root;
        Ok(Some(mv))
    }
}

impl Agent for MinimaxAgent {
    fn name(&self) -> &str {
        "minimax"
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
        let result = submit_each(engine, m, player, out, |_, m| {
            Ok(match self.decide(&mut look, m)? {
                Some(Move::Act(a)) => Some(a),
                Some(Move::End) | None => None,
            })
        });
        self.look = Some(look);
        result
    }
}
