//! Checks the action patterns of a conformance case (`legal_include`, `legal_exclude`) against the game,
//! before they are matched: a misspelt key or a value of the wrong type matches no action, so an exclusion
//! would pass vacuously and an inclusion fail for a reason the author cannot see.
use serde_json::Value as Json;

use crate::model::Ty;
use crate::ruleset::compile::closest;
use crate::ruleset::Game;

fn fits(ty: Ty, v: &Json) -> bool {
    match ty {
        Ty::Int => v.as_i64().is_some(),
        Ty::Float => v.is_number(),
        Ty::Bool => v.is_boolean(),
        _ => v.is_string(),
    }
}

/// Why pattern `p` can match no action of `g`, if it cannot.
pub fn pattern_problem(g: &Game, p: &Json) -> Option<String> {
    let Json::Object(fields) = p else {
        return Some("a pattern is a mapping of action fields".into());
    };
    let candidates: Vec<usize> = match fields.get(&g.wire_key) {
        Some(Json::String(name)) => match g.action_index(name) {
            Some(i) => vec![i as usize],
            None => {
                let near = closest(name, g.actions.iter().map(|a| a.name.as_str()))
                    .map(|n| format!(" (did you mean `{n}`?)"))
                    .unwrap_or_default();
                return Some(format!("unknown action `{name}`{near}"));
            }
        },
        Some(other) => return Some(format!("`{}: {other}` is not an action name", g.wire_key)),
        None => (0..g.actions.len()).collect(),
    };
    for (key, value) in fields.iter().filter(|(k, _)| **k != g.wire_key) {
        let params: Vec<_> = candidates
            .iter()
            .flat_map(|&i| g.actions[i].params.iter())
            .filter(|p| p.wire == *key)
            .collect();
        if params.is_empty() {
            let names = candidates
                .iter()
                .flat_map(|&i| g.actions[i].params.iter().map(|p| p.wire.as_str()));
            let near = closest(key, names)
                .map(|n| format!(" (did you mean `{n}`?)"))
                .unwrap_or_default();
            return Some(format!("no action here has a field `{key}`{near}"));
        }
        if !params.iter().any(|p| fits(p.ty, value)) {
            return Some(format!(
                "`{key}: {value}` has the wrong type for that field"
            ));
        }
    }
    None
}
