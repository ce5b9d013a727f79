//! The viewer's per-step data, kept small: every cell's label (text, owner, colour) and the players'
//! lines for the whole board and for each player's view, each written only where it changed since the
//! previous step, and a player's view that equals the whole board written as `0`. The page rebuilds
//! full frames from it once, on load.
use std::sync::Arc;

use serde_json::{json, Value as Json};

use super::position::Position;
use crate::ir::game::Game;
use crate::render::cells::label_of;
use crate::render::events::describe;
use crate::render::player_lines;
use crate::render::style::Role;
use crate::render::view::facts_from_state;

/// What one cell shows in one view.
#[derive(Clone, Debug, PartialEq)]
pub struct Shown {
    pub text: String,
    /// Seat of the cell's owner, -1 for none.
    pub owner: i64,
    /// Seat whose colour the text takes, -1 for none (dim).
    pub tint: i64,
}

/// Every cell of `state` as it shows.
pub fn shown(g: &Game, state: &Json) -> Vec<Shown> {
    facts_from_state(g, state)
        .iter()
        .map(|f| {
            let l = label_of(g, f);
            Shown {
                text: l.text,
                owner: f.owner.map_or(-1, i64::from),
                tint: match l.role {
                    Role::Player(p) => i64::from(p),
                    _ => -1,
                },
            }
        })
        .collect()
}

/// One view of one step: the cells that changed since `before` (`None`: all of them) and the players'
/// lines when they changed.
fn delta(
    now: &[Shown],
    before: Option<&[Shown]>,
    lines: &[String],
    lines_before: Option<&[String]>,
) -> Json {
    let cells: Vec<Json> = now
        .iter()
        .enumerate()
        .filter(|(i, s)| before.is_none_or(|b| b.get(*i) != Some(*s)))
        .map(|(i, s)| json!([i, s.text, s.owner, s.tint]))
        .collect();
    let mut v = json!({ "c": cells });
    if lines_before != Some(lines) {
        v["p"] = json!(lines);
    }
    v
}

/// The encoded steps, and the whole board's cells at the start (drawn into the page itself).
pub struct Encoded {
    pub steps: Json,
    pub first: Vec<Shown>,
    /// The longest label of any cell in any step and view, in characters.
    pub widest: usize,
}

/// One view of one step in full: every cell, and the players' lines.
type Frame = (Vec<Shown>, Vec<String>);

/// Encodes positions one at a time as a re-run produces them, keeping only the last frame of each view,
/// so a long replay never holds every position's states at once.
pub struct Encoder {
    g: Arc<Game>,
    prev: Vec<Option<Frame>>,
    steps: Vec<Json>,
    first: Vec<Shown>,
    widest: usize,
}

impl Encoder {
    pub fn new(g: Arc<Game>) -> Self {
        Encoder {
            prev: vec![None; 1 + g.players.len()],
            g,
            steps: Vec::new(),
            first: Vec::new(),
            widest: 1,
        }
    }

    /// Adds the next position (the start first).
    pub fn push(&mut self, p: &Position) {
        let g = &*self.g;
        let mut encoded = Vec::with_capacity(self.prev.len());
        let mut whole: Option<Frame> = None;
        let start = self.steps.is_empty();
        for (v, before) in self.prev.iter_mut().enumerate() {
            // A position without a player's view shows that player the whole board.
            let state = p.views.get(v).or(p.views.first()).unwrap_or(&Json::Null);
            let now: Frame = (shown(g, state), player_lines(g, state));
            self.widest = now
                .0
                .iter()
                .map(|s| s.text.chars().count())
                .fold(self.widest, usize::max);
            if v > 0 && whole.as_ref() == Some(&now) {
                encoded.push(json!(0));
            } else {
                let b = before.as_ref();
                encoded.push(delta(
                    &now.0,
                    b.map(|b| b.0.as_slice()),
                    &now.1,
                    b.map(|b| b.1.as_slice()),
                ));
            }
            if v == 0 {
                if start {
                    self.first = now.0.clone();
                }
                whole = Some(now.clone());
            }
            *before = Some(now);
        }
        let (who, actions) = match &p.submitted {
            Some((who, acts)) => (json!(who), json!(acts)),
            None => (Json::Null, json!([])),
        };
        let events: Vec<String> = p.events.iter().map(describe).collect();
        self.steps.push(json!({
            "who": who,
            "a": actions,
            "s": p.status,
            "end": p.finished,
            "e": events,
            "v": encoded,
        }));
    }

    pub fn game(&self) -> &Arc<Game> {
        &self.g
    }

    /// How many positions were added.
    pub fn len(&self) -> usize {
        self.steps.len()
    }

    pub fn is_empty(&self) -> bool {
        self.steps.is_empty()
    }

    pub fn finish(self) -> Encoded {
        Encoded {
            steps: Json::Array(self.steps),
            first: self.first,
            widest: self.widest,
        }
    }
}

/// Encodes `positions` (the start first).
pub fn encode(g: &Arc<Game>, positions: &[Position]) -> Encoded {
    let mut e = Encoder::new(g.clone());
    for p in positions {
        e.push(p);
    }
    e.finish()
}
