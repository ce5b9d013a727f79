//! The state JSON of INTERFACE.md section 6 (whole, or as one player may see it), and variable-bound
//! invariants.
use serde_json::{json, Map, Value as Json};

use super::eval::value_json;
use crate::ir::game::Game;
use crate::ir::game::VarDecl;
use crate::model::{MatchState, Value};

/// Who looks at the state: everybody (replays) or one player (agents, served seats, player views).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Viewer {
    All,
    Player(crate::model::PlayerIdx),
}

impl Viewer {
    /// Whether a variable owned by `owner` (`None`: owned by nobody in particular) is shown.
    fn sees(self, d: &VarDecl, owner: Option<usize>) -> bool {
        match self {
            Viewer::All => true,
            Viewer::Player(p) => !d.owner_only || owner == Some(p as usize),
        }
    }
}

fn vars_json(
    g: &Game,
    st: &MatchState,
    decls: &[VarDecl],
    slots: &[i64],
    viewer: Viewer,
    owner: Option<usize>,
    out: &mut Map<String, Json>,
) {
    for d in decls.iter().filter(|d| !d.hidden) {
        if d.per_player {
            let mut m = Map::new();
            for (p, name) in g.players.iter().enumerate() {
                if !viewer.sees(d, Some(p)) {
                    continue;
                }
                m.insert(
                    name.clone(),
                    value_json(g, st, Value::decode(slots[d.slot as usize + p], d.ty)),
                );
            }
            out.insert(d.name.clone(), Json::Object(m));
        } else if viewer.sees(d, owner) {
            let v = Value::decode(slots[d.slot as usize], d.ty);
            if !v.is_none() {
                out.insert(d.name.clone(), value_json(g, st, v));
            }
        }
    }
}

/// The whole state (INTERFACE.md section 6).
pub fn state_json(g: &Game, st: &MatchState) -> Json {
    state_view(g, st, Viewer::All)
}

/// The state as `viewer` may see it: variables declared `visible: owner` appear only to their owner.
pub fn state_view(g: &Game, st: &MatchState, viewer: Viewer) -> Json {
    let active: Vec<Json> = (0..g.players.len())
        .filter(|p| st.is_due(*p as u8))
        .map(|p| json!(g.players[p]))
        .collect();
    let mut players = Map::new();
    for (p, name) in g.players.iter().enumerate() {
        let mut m = Map::new();
        let base = p * g.player_slots;
        vars_json(
            g,
            st,
            &g.player_vars,
            &st.player_vars[base..base + g.player_slots],
            viewer,
            Some(p),
            &mut m,
        );
        players.insert(name.clone(), Json::Object(m));
    }
    let mut cells = Map::new();
    for c in 0..g.board.len() {
        let mut m = Map::new();
        m.insert(
            "owner".into(),
            st.owner_of(c as u32)
                .map_or(Json::Null, |p| json!(g.players[p as usize])),
        );
        let base = c * g.cell_slots;
        vars_json(
            g,
            st,
            &g.cell_vars,
            &st.cell_vars[base..base + g.cell_slots],
            viewer,
            None,
            &mut m,
        );
        cells.insert(g.board.id(c as u32).to_string(), Json::Object(m));
    }
    let mut units = Map::new();
    for (i, u) in st.units.iter().enumerate().filter(|(_, u)| u.alive) {
        let mut m = Map::new();
        if let Some(t) = g.unit_table() {
            m.insert("type".into(), json!(t.keys[u.kind as usize]));
        }
        m.insert("owner".into(), json!(g.players[u.owner as usize]));
        m.insert("at".into(), json!(g.board.id(u.at)));
        let base = i * g.unit_slots;
        vars_json(
            g,
            st,
            &g.unit_vars,
            &st.unit_vars[base..base + g.unit_slots],
            viewer,
            Some(u.owner as usize),
            &mut m,
        );
        units.insert(u.id.to_string(), Json::Object(m));
    }
    let mut state = json!({
        "turn": st.turn,
        "ply": st.ply,
        "phase": g.phases[st.phase as usize].name,
        "active": active,
        "points": st.points,
        "players": players,
        "cells": cells,
        "units": units,
    });
    super::stages::extend_state_json(g, st, &mut state);
    if !g.game_vars.is_empty() {
        // Game variables are stored as the first player's (see `Game::game_vars`).
        let mut m = Map::new();
        vars_json(
            g,
            st,
            &g.game_vars,
            &st.player_vars[..g.player_slots],
            viewer,
            None,
            &mut m,
        );
        state["game"] = Json::Object(m);
    }
    state
}

/// Appends a message for every integer variable outside its declared bounds.
pub fn check_bounds(g: &Game, st: &MatchState, broken: &mut Vec<String>) {
    let mut check = |what: &str, decls: &[VarDecl], slots: &[i64], per: usize, n: usize| {
        for e in 0..n {
            for d in decls {
                let width = if d.per_player { g.players.len() } else { 1 };
                for k in 0..width {
                    let raw = slots[e * per + d.slot as usize + k];
                    if raw == crate::model::value::ABSENT {
                        continue;
                    }
                    if d.min.is_some_and(|m| raw < m) || d.max.is_some_and(|m| raw > m) {
                        broken.push(format!(
                            "{what} {e}: variable {} = {raw} is out of its bounds",
                            d.name
                        ));
                    }
                }
            }
        }
    };
    check(
        "player",
        &g.player_vars,
        &st.player_vars,
        g.player_slots,
        g.players.len(),
    );
    check("game", &g.game_vars, &st.player_vars, g.player_slots, 1);
    check(
        "cell",
        &g.cell_vars,
        &st.cell_vars,
        g.cell_slots,
        g.board.len(),
    );
    check(
        "unit",
        &g.unit_vars,
        &st.unit_vars,
        g.unit_slots,
        st.units.len(),
    );
}
