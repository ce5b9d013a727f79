//! Drawing matches as text, shared by `watch` and `play` (and later the HTML viewer): the board from its
//! topology (square and hex grids as grids, graphs from node positions) with what the ruleset's `display`
//! section asks each cell to show, a status line, the players' marks and variables, and events in words.
//! Colours are ANSI and only drawn when asked for (a terminal); the text is otherwise identical.
pub mod cells;
pub mod events;
pub mod graph;
pub mod grid;
pub mod html;
pub mod report;
pub mod style;
pub mod view;

use serde_json::Value as Json;

use crate::board::Topology;
use crate::engine::state_json::state_json;
use crate::ir::game::Game;
use crate::model::MatchState;
use style::{paint, Role};

/// The board alone.
pub fn board(g: &Game, st: &MatchState, color: bool) -> String {
    match g.board.topology() {
        Topology::Graph => graph::draw(g, st, color),
        _ => grid::draw(g, st, color),
    }
}

/// `turn 3, ply 5, phase main: P1 to act` or the result.
pub fn status(g: &Game, st: &MatchState) -> String {
    let phase = &g.phase(st).name;
    let head = format!("{} - turn {}, ply {}, phase {phase}", g.id, st.turn, st.ply);
    match &st.result {
        Some(r) => match r.winner {
            Some(w) => format!("{head}: {} wins ({})", g.players[w as usize], r.reason),
            None => format!("{head}: a draw ({})", r.reason),
        },
        None => {
            let due: Vec<&str> = (0..g.players.len())
                .filter(|p| st.is_due(*p as u8))
                .map(|p| g.players[p].as_str())
                .collect();
            format!("{head}: {} to act", due.join(" and "))
        }
    }
}

/// One line per player: its mark, how many cells it owns, and its visible variables.
pub fn players(g: &Game, st: &MatchState, color: bool) -> String {
    players_in(g, &state_json(g, st), color)
}

/// [`players`] read from a state JSON (whole, or one player's view).
pub fn players_in(g: &Game, state: &Json, color: bool) -> String {
    let mut out = String::new();
    for (p, line) in player_lines(g, state).into_iter().enumerate() {
        out.push_str(&paint(&g.display.marks[p], Role::Player(p as u8), color));
        out.push(' ');
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// Per player, after its mark: `NAME: cells N[, units N], VAR VALUE...` from a state JSON.
pub fn player_lines(g: &Game, state: &Json) -> Vec<String> {
    let owned_by = |v: &Json, name: &str| v.get("owner").and_then(Json::as_str) == Some(name);
    let count = |key: &str, name: &str| match state.get(key) {
        Some(Json::Object(m)) => m.values().filter(|v| owned_by(v, name)).count(),
        _ => 0,
    };
    let has_units = g.unit_table().is_some()
        || matches!(state.get("units"), Some(Json::Object(m)) if !m.is_empty());
    g.players
        .iter()
        .map(|name| {
            let mut line = format!("{name}: cells {}", count("cells", name));
            if has_units {
                line.push_str(&format!(", units {}", count("units", name)));
            }
            if let Some(Json::Object(vars)) = state["players"].get(name) {
                for (k, v) in vars {
                    line.push_str(&format!(", {k} {}", compact(v)));
                }
            }
            line
        })
        .collect()
}

fn compact(v: &Json) -> String {
    match v {
        Json::String(s) => s.clone(),
        Json::Null => "none".into(),
        _ => v.to_string(),
    }
}

/// A whole frame: status, board, players, then `events` in words (one per line, indented).
pub fn frame(g: &Game, st: &MatchState, events: &[Json], color: bool) -> String {
    let mut out = paint(&status(g, st), Role::Bold, color);
    out.push('\n');
    out.push_str(&board(g, st, color));
    out.push_str(&players(g, st, color));
    for e in events {
        out.push_str("  ");
        out.push_str(&events::describe(e));
        out.push('\n');
    }
    out
}
