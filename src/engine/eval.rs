//! Evaluation helpers around the lowered program: line of sight as the ruleset declares it, values as JSON.
use serde_json::Value as Json;

use super::lower::Cond;
use super::machine::{Machine, RunError};
use crate::model::Value;

type R<T> = Result<T, RunError>;

impl Machine<'_> {
    /// Shared-neighbour line of sight as the ruleset's `board.line_of_sight` declares it.
    pub fn line_of_sight(&mut self, a: u32, b: u32) -> R<bool> {
        let g = self.game;
        match g.board.distance(a, b) {
            Some(1) => return Ok(true),
            Some(2) => {}
            _ => return Ok(false),
        }
        let (1, Some(mid)) = g.board.shared_neighbours(a, b) else {
            return Ok(false);
        };
        let Some(sight) = &self.prog.sight else {
            return Ok(true);
        };
        if let Some(opaque) = &sight.opaque {
            if self.pred_on(opaque, b)? || self.pred_on(opaque, mid)? {
                return Ok(false);
            }
        }
        if let Some(screens) = &sight.screens {
            if self.pred_on(screens, mid)? {
                let over = match &sight.see_over {
                    Some(s) => self.pred_on(s, a)?,
                    None => false,
                };
                return Ok(over);
            }
        }
        Ok(true)
    }

    /// Evaluates a line-of-sight cell test for cell `c`.
    fn pred_on(&mut self, e: &Cond, c: u32) -> R<bool> {
        // Line-of-sight tests are compiled with their cell in the reserved slot, clear of action locals.
        let slot = crate::ir::game::SIGHT_SLOT as usize;
        self.rt.locals[slot] = Value::Cell(c);
        e(self)
    }

    /// A value as JSON for events and state output.
    pub fn to_json(&self, v: Value) -> Json {
        match v {
            Value::List(..) => Json::from(self.list_items(v)),
            _ => value_json(self.game, self.st, v),
        }
    }
}

/// A value as JSON: ids for cells, units, players and rows.
pub fn value_json(g: &crate::ir::game::Game, st: &crate::model::MatchState, v: Value) -> Json {
    match v {
        Value::None => Json::Null,
        Value::Int(i) => Json::from(i),
        Value::Float(f) => serde_json::Number::from_f64(f).map_or(Json::Null, Json::Number),
        Value::Bool(b) => Json::Bool(b),
        Value::Text(s) => Json::String(g.symbols.name(s).to_string()),
        Value::Cell(c) => Json::String(g.board.id(c).to_string()),
        Value::Unit(u) => st
            .units
            .get(u as usize)
            .map_or(Json::Null, |u| Json::String(u.id.to_string())),
        Value::Player(p) => Json::String(g.players[p as usize].clone()),
        Value::Row(t, r) => Json::String(g.tables[t as usize].keys[r as usize].clone()),
        // A list's items are in the store of the evaluation that made it (see `Machine::to_json`).
        Value::List(..) => Json::Null,
    }
}
