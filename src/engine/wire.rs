//! Actions on the wire: decoding submitted JSON into typed actions (never failing: bad content becomes a
//! reason) and encoding actions back to JSON.
use serde_json::{Map, Value as Json};

use crate::ir::game::Game;
use crate::model::action::ArgList;
use crate::model::{Action, MatchState, Ty, Value};

/// Decodes one submitted action. Unknown fields are ignored; a missing or unusable field becomes `None`,
/// which the legality check turns into that parameter's `invalid` reason.
pub fn decode(g: &Game, st: &MatchState, json: &Json) -> Result<Action, &'static str> {
    let Json::Object(m) = json else {
        return Err("malformed_action");
    };
    let Some(Json::String(name)) = m.get(&g.wire_key) else {
        return Err("missing_action_type");
    };
    let Some(kind) = g.action_index(name) else {
        return Err("unknown_action");
    };
    let spec = &g.actions[kind as usize];
    let mut args = ArgList::new();
    for p in &spec.params {
        // A list: every item a JSON integer (else the parameter is missing, as for any bad value).
        if let (Ty::List, Some(Json::Array(items))) = (p.ty, m.get(&p.wire)) {
            let ints: Option<Vec<i64>> = items.iter().map(Json::as_i64).collect();
            match ints {
                Some(ints) if ints.len() <= crate::limits::MAX_LIST_LEN => args.push_list(&ints),
                _ => args.push(Value::None),
            }
            continue;
        }
        args.push(
            m.get(&p.wire)
                .map_or(Value::None, |v| decode_value(g, st, p.ty, v)),
        );
    }
    Ok(Action { kind, args })
}

fn decode_value(g: &Game, st: &MatchState, ty: Ty, v: &Json) -> Value {
    match (ty, v) {
        (Ty::Int, Json::Number(n)) => n.as_i64().map_or(Value::None, Value::Int),
        (Ty::Float, Json::Number(n)) => n.as_f64().map_or(Value::None, Value::Float),
        (Ty::Bool, Json::Bool(b)) => Value::Bool(*b),
        (Ty::Cell, Json::String(s)) => g.board.find(s).map_or(Value::None, Value::Cell),
        (Ty::Player, Json::String(s)) => g.player_index(s).map_or(Value::None, Value::Player),
        (Ty::Row(t), Json::String(s)) => g.tables[t as usize]
            .row(s)
            .map_or(Value::None, |r| Value::Row(t, r)),
        (Ty::Unit, Json::String(s)) => st
            .units
            .iter()
            .position(|u| u.alive && &*u.id == s)
            .map_or(Value::None, |u| Value::Unit(u as u32)),
        (Ty::Text, Json::String(s)) => g.symbols.get(s).map_or(Value::None, Value::Text),
        _ => Value::None,
    }
}

/// Encodes an action as its wire JSON.
pub fn encode(g: &Game, st: &MatchState, a: &Action) -> Json {
    let spec = &g.actions[a.kind as usize];
    let mut m = Map::new();
    m.insert(g.wire_key.clone(), Json::String(spec.name.clone()));
    for (i, p) in spec.params.iter().enumerate() {
        let v = match a.args.get(i) {
            Value::List(..) => Json::from(a.args.list(i)),
            v => super::eval::value_json(g, st, v),
        };
        m.insert(p.wire.clone(), v);
    }
    Json::Object(m)
}
