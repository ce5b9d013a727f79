//! The short text form of actions: the action's wire name, then its parameter values in declared order
//! (`move A2 B2 3`), or as `name=value` pairs in any order (`move to=B2 from=A2 amount=1`).
use serde_json::{Map, Value as Json};

use crate::diagnostic::closest;
use crate::ir::game::Game;
use crate::model::Ty;

fn scalar(v: &Json) -> String {
    match v {
        Json::String(s) => s.clone(),
        Json::Null => "none".into(),
        other => other.to_string(),
    }
}

/// An action on the wire in its short text form.
pub fn short(g: &Game, action: &Json) -> String {
    let Json::Object(m) = action else {
        return action.to_string();
    };
    let name = m.get(&g.wire_key).map(scalar).unwrap_or_else(|| "?".into());
    let mut out = name.clone();
    match g.action_index(&name) {
        Some(k) => {
            for p in &g.actions[k as usize].params {
                if let Some(v) = m.get(&p.wire) {
                    out.push(' ');
                    out.push_str(&scalar(v));
                }
            }
        }
        None => return action.to_string(),
    }
    out
}

/// A value typed in for a parameter of type `ty`.
fn value(ty: Ty, text: &str, param: &str) -> Result<Json, String> {
    match ty {
        Ty::Int => text
            .parse::<i64>()
            .map(Json::from)
            .map_err(|_| format!("`{param}` is a whole number, not `{text}`")),
        Ty::Float => text
            .parse::<f64>()
            .ok()
            .and_then(serde_json::Number::from_f64)
            .map(Json::Number)
            .ok_or_else(|| format!("`{param}` is a number, not `{text}`")),
        Ty::Bool => match text {
            "true" | "yes" => Ok(Json::Bool(true)),
            "false" | "no" => Ok(Json::Bool(false)),
            _ => Err(format!("`{param}` is true or false, not `{text}`")),
        },
        // A list (a `split` parameter): whole numbers separated by commas, brackets optional.
        Ty::List => text
            .trim_start_matches('[')
            .trim_end_matches(']')
            .split(',')
            .filter(|x| !x.trim().is_empty())
            .map(|x| x.trim().parse::<i64>().map(Json::from))
            .collect::<Result<Vec<Json>, _>>()
            .map(Json::Array)
            .map_err(|_| {
                format!(
                    "`{param}` is whole numbers separated by commas, like 4,3,3,0,0; not `{text}`"
                )
            }),
        _ => Ok(Json::String(text.to_string())),
    }
}

/// Parses a short text form into the action's wire JSON. Values are not checked against the position
/// here (the engine does that); only the shape: a known action, the right number of values, numbers
/// where numbers go.
pub fn parse(g: &Game, text: &str) -> Result<Json, String> {
    let mut words = text.split_whitespace();
    let Some(name) = words.next() else {
        return Err("empty action".into());
    };
    let Some(k) = g.action_index(name) else {
        let names: Vec<&str> = g.actions.iter().map(|a| a.name.as_str()).collect();
        return Err(format!(
            "no action `{name}` (actions: {}){}",
            names.join(", "),
            closest(name, names.iter().copied())
                .map_or(String::new(), |c| format!("; did you mean `{c}`?"))
        ));
    };
    let spec = &g.actions[k as usize];
    let params: Vec<&str> = spec.params.iter().map(|p| p.wire.as_str()).collect();
    let usage = if params.is_empty() {
        format!("`{name}` takes no values")
    } else {
        format!("`{name}` takes {}: {}", params.len(), params.join(" "))
    };
    let mut m = Map::new();
    m.insert(g.wire_key.clone(), Json::String(name.to_string()));
    let mut next = 0;
    for w in words {
        let (p, v) = match w.split_once('=') {
            Some((key, v)) => match spec.params.iter().find(|p| p.wire == key) {
                Some(p) => (p, v),
                None => return Err(format!("`{name}` has no parameter `{key}` ({usage})")),
            },
            None => {
                while spec
                    .params
                    .get(next)
                    .is_some_and(|p| m.contains_key(&p.wire))
                {
                    next += 1;
                }
                match spec.params.get(next) {
                    Some(p) => (p, w),
                    None => return Err(format!("too many values ({usage})")),
                }
            }
        };
        if m.contains_key(&p.wire) {
            return Err(format!("`{}` is given twice ({usage})", p.wire));
        }
        m.insert(p.wire.clone(), value(p.ty, v, &p.wire)?);
    }
    let missing: Vec<&str> = params
        .iter()
        .filter(|p| !m.contains_key(**p))
        .copied()
        .collect();
    if !missing.is_empty() {
        return Err(format!("missing {} ({usage})", missing.join(", ")));
    }
    Ok(Json::Object(m))
}
