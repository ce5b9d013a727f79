//! One position of a match as the viewer keeps it: who handed in what, the events it logged, the status
//! line, and the state as the whole board shows it and as each player may see it (`Engine::state_view`,
//! what agents and served seats receive).
use serde_json::Value as Json;

use crate::engine::{Engine, Match};

#[derive(Clone, Debug)]
pub struct Position {
    /// The player who handed in a submission and its actions in words; `None` for the start.
    pub submitted: Option<(String, Vec<String>)>,
    pub events: Vec<Json>,
    /// `render::status`: turn, ply, phase, and who is due or the result.
    pub status: String,
    pub finished: bool,
    /// The whole state, then each player's view of it, in seat order.
    pub views: Vec<Json>,
}

impl Position {
    /// The position of `m` now, after `submitted` logged `events`.
    pub fn capture(
        engine: &Engine,
        m: &Match,
        submitted: Option<(String, Vec<String>)>,
        events: &[Json],
    ) -> Self {
        let g = &engine.game;
        let mut views = vec![engine.state_json(m)];
        views.extend((0..g.players.len()).map(|p| engine.state_view(m, p as u8)));
        Position {
            submitted,
            events: events.to_vec(),
            status: super::super::status(g, &m.state),
            finished: m.state.result.is_some(),
            views,
        }
    }
}
