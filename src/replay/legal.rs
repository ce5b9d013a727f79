//! The `legal` field of a replay: every legal single action for whoever is due in the final position.
use serde_json::{json, Map, Value as Json};

use crate::engine::{wire, Engine, Match, RunError};
use crate::ruleset::game::Order;

/// `{"player": P, "actions": [...]}` when one player is due (`player` null and no actions when nobody is),
/// or `{"P1": [...], "P2": [...]}` in a simultaneous phase (a player who has handed in has no actions).
pub fn legal_json(engine: &mut Engine, m: &mut Match) -> Result<Json, RunError> {
    let game = engine.game.clone();
    let mut buf = Vec::new();
    let mut list = |engine: &mut Engine, m: &mut Match, p: u8| -> Result<Json, RunError> {
        engine.legal(m, p, &mut buf)?;
        Ok(Json::Array(
            buf.iter()
                .map(|a| wire::encode(&game, &m.state, a))
                .collect(),
        ))
    };
    if !m.state.is_over() && game.phase(&m.state).order == Order::Simultaneous {
        let mut out = Map::new();
        for (p, name) in game.players.iter().enumerate() {
            out.insert(name.clone(), list(engine, m, p as u8)?);
        }
        return Ok(Json::Object(out));
    }
    match engine.due(m).first() {
        Some(&p) => Ok(json!({"player": game.players[p as usize], "actions": list(engine, m, p)?})),
        None => Ok(json!({"player": null, "actions": []})),
    }
}

/// Every action listed in a `legal` value, whichever of its two shapes it has.
pub fn all_actions(legal: &Json) -> Vec<&Json> {
    match legal.get("actions") {
        Some(Json::Array(a)) if legal.get("player").is_some() => a.iter().collect(),
        _ => match legal {
            Json::Object(m) => m.values().filter_map(Json::as_array).flatten().collect(),
            _ => Vec::new(),
        },
    }
}
