//! Cell facts read from a state JSON (INTERFACE.md section 6), whole or as one player may see it
//! (`Engine::state_view`): what a player's drawing is made from, so it shows only what that player may
//! see. A value the view leaves out is drawn as absent.
use serde_json::Value as Json;

use super::cells::{CellFacts, Number};
use crate::ir::game::Game;
use crate::model::Ty;

fn player_index(g: &Game, v: &Json) -> Option<u8> {
    let name = v.as_str()?;
    g.players.iter().position(|p| p == name).map(|p| p as u8)
}

fn number(v: Option<&Json>, float: bool) -> Option<Number> {
    let v = v?;
    if float {
        v.as_f64().map(Number::Float)
    } else {
        v.as_i64().map(Number::Int)
    }
}

/// The facts of every cell, in board order, from `state`.
pub fn facts_from_state(g: &Game, state: &Json) -> Vec<CellFacts> {
    let d = &g.display;
    let glyph_keys: Option<&[String]> = d.glyph.as_ref().and_then(|gv| {
        let decl = g.cell_vars.iter().find(|v| v.name == gv.name)?;
        match decl.ty {
            Ty::Row(t) => g.tables.get(t as usize).map(|t| t.keys.as_slice()),
            _ => None,
        }
    });
    let mut out: Vec<CellFacts> = (0..g.board.len())
        .map(|c| {
            let cell = &state["cells"][g.board.id(c as u32)];
            let glyph_row = d.glyph.as_ref().and_then(|gv| {
                let key = cell.get(&gv.name)?.as_str()?;
                glyph_keys?.iter().position(|k| k == key)
            });
            let numbers = match &d.number {
                None => Vec::new(),
                Some(n) if n.per_player => {
                    let per = cell.get(&n.name);
                    g.players
                        .iter()
                        .map(|p| number(per.and_then(|m| m.get(p)), n.float))
                        .collect()
                }
                Some(n) => vec![number(cell.get(&n.name), n.float)],
            };
            CellFacts {
                owner: cell.get("owner").and_then(|o| player_index(g, o)),
                unit: None,
                glyph_row,
                numbers,
            }
        })
        .collect();
    let kinds: &[String] = g.unit_table().map_or(&[], |t| t.keys.as_slice());
    if let Some(Json::Object(units)) = state.get("units") {
        for u in units.values() {
            let at = u
                .get("at")
                .and_then(Json::as_str)
                .and_then(|id| g.board.find(id));
            let owner = u.get("owner").and_then(|o| player_index(g, o));
            let kind = u
                .get("type")
                .and_then(Json::as_str)
                .and_then(|t| kinds.iter().position(|k| k == t))
                .unwrap_or(usize::MAX);
            if let (Some(at), Some(owner)) = (at, owner) {
                let slot = &mut out[at as usize].unit;
                // One unit per cell, as the match state keeps it; the first listed wins otherwise.
                if slot.is_none() {
                    *slot = Some((u16::try_from(kind).unwrap_or(u16::MAX), owner));
                }
            }
        }
    }
    out
}
