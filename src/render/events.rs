//! Events in words: `move: player P1, from A2, to B2, amount 3`. Generic over every event a
//! ruleset emits: the type, then each field as `name value` (underscores read as spaces).
use serde_json::Value as Json;

fn value(v: &Json) -> String {
    match v {
        Json::Null => "none".into(),
        Json::Bool(true) => "yes".into(),
        Json::Bool(false) => "no".into(),
        Json::String(s) => s.clone(),
        Json::Number(n) => n.to_string(),
        Json::Array(items) => {
            let parts: Vec<String> = items.iter().map(value).collect();
            format!("[{}]", parts.join(" "))
        }
        Json::Object(m) => {
            // Small objects (a roll, per-player counts) read best as their values in order.
            let parts: Vec<String> = m
                .iter()
                .map(|(k, v)| match v {
                    Json::Bool(b) => {
                        if *b {
                            k.replace('_', " ")
                        } else {
                            format!("no {}", k.replace('_', " "))
                        }
                    }
                    _ => format!("{k} {}", value(v)),
                })
                .collect();
            parts.join(" ")
        }
    }
}

/// One event as a line of words.
pub fn describe(event: &Json) -> String {
    let Json::Object(m) = event else {
        return value(event);
    };
    let kind = m.get("type").and_then(Json::as_str).unwrap_or("event");
    let fields: Vec<String> = m
        .iter()
        .filter(|(k, _)| k.as_str() != "type")
        .map(|(k, v)| match v {
            // An echoed action reads as its JSON.
            Json::Object(_) if k == "action" => format!("action {v}"),
            _ => format!("{} {}", k.replace('_', " "), value(v)),
        })
        .collect();
    if fields.is_empty() {
        kind.replace('_', " ")
    } else {
        format!("{}: {}", kind.replace('_', " "), fields.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn words() {
        assert_eq!(
            describe(&json!({"type": "move", "player": "P1", "from": "a", "to": "b", "amount": 3})),
            "move: player P1, from a, to b, amount 3"
        );
        assert_eq!(
            describe(&json!({"type": "game_end", "winner": null, "reason": "turn_cap"})),
            "game end: winner none, reason turn_cap"
        );
        assert_eq!(
            describe(
                &json!({"type": "combat", "rolls": [{"side": "attacker", "hit": true}], "coin_flip": false})
            ),
            "combat: rolls [side attacker hit], coin flip no"
        );
    }
}
