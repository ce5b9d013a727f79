//! What an MCTS agent is told: its budget of iterations or time, the exploration constant, the rollout
//! policy and depth, the evaluation, widening and bias (`mcts:key=value,...`, see `agents/spec.rs`).

/// The policy of rollouts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rollout {
    /// Uniform over legal actions (the `random` agent).
    Random,
    /// Action kind first (the `random_kind` agent).
    Kind,
    /// No rollout: a new node is scored by the evaluation at once.
    None,
}

#[derive(Clone, Debug)]
pub struct MctsConfig {
    pub iterations: u64,
    pub time_ms: Option<u64>,
    pub c: f64,
    pub rollout: Rollout,
    /// Player-turns a rollout plays before it is scored; `None` to the end of the game.
    pub depth: Option<u64>,
    /// The evaluation scoring cut-off rollouts.
    pub eval: Option<usize>,
    /// Progressive widening, with moves ranked by the evaluation where there is one.
    pub widen: bool,
    /// Weight of the evaluation's ranking in selection (progressive bias, fading as 1 / visits).
    pub bias: f64,
}

impl Default for MctsConfig {
    fn default() -> Self {
        MctsConfig {
            iterations: 400,
            time_ms: None,
            c: 0.5,
            rollout: Rollout::Random,
            depth: Some(1),
            eval: None,
            widen: true,
            bias: 3.0,
        }
    }
}
