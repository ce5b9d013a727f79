//! The agent protocol's messages (INTERFACE.md section 10, version 1): `start`, `act` and `end` as the
//! engine sends them, and an agent's reply as it is read back.
use serde_json::{json, Value as Json};

use crate::engine::{wire, Engine, Match, RunError};
use crate::ir::game::Game;
use crate::model::{MatchState, PlayerIdx};

/// The `protocol` field of `start`.
pub const PROTOCOL: &str = "arbiter-agent";
/// The protocol version this build speaks.
pub const VERSION: u64 = 1;
/// The longest reply read (a line on stdio, a response body over HTTP): far more than any submission.
pub const MAX_REPLY_BYTES: usize = 1 << 20;
/// The most actions one reply may hold (as for the engine's own agents).
pub const MAX_REPLY_ACTIONS: usize = super::super::MAX_SUBMISSION;
/// A longer `rationale` is cut to this many bytes before it goes into the replay.
pub const MAX_RATIONALE_BYTES: usize = 10_000;

/// `start`: who the agent plays, in which game.
pub fn start(game: &Game, player: PlayerIdx) -> Json {
    json!({
        "type": "start",
        "protocol": PROTOCOL,
        "version": VERSION,
        "player": game.players[player as usize],
        "players": game.players,
        "ruleset": {"id": game.id, "version": game.version},
        "scenario": game.scenario,
        "settings": game.settings,
    })
}

/// `act`: the position as `player` may see it and every legal single action, in wire form.
pub fn act(
    engine: &mut Engine,
    m: &mut Match,
    player: PlayerIdx,
    deadline_ms: u64,
) -> Result<Json, RunError> {
    let mut legal = Vec::new();
    engine.legal(m, player, &mut legal)?;
    let game = &engine.game;
    let legal: Vec<Json> = legal
        .iter()
        .map(|a| wire::encode(game, &m.state, a))
        .collect();
    Ok(json!({
        "type": "act",
        "player": game.players[player as usize],
        "turn": m.state.turn,
        "ply": m.state.ply,
        "state": engine.state_view(m, player),
        "legal": legal,
        "deadline_ms": deadline_ms,
    }))
}

/// The result of section 5: `{"status", "winner", "reason"}`.
pub fn result(game: &Game, st: &MatchState) -> Json {
    match &st.result {
        Some(r) => json!({
            "status": "finished",
            "winner": r.winner.map(|w| game.players[w as usize].clone()),
            "reason": r.reason.to_string(),
        }),
        None => json!({"status": "ongoing", "winner": null, "reason": null}),
    }
}

/// `end`: the result and the final position as `player` may see it.
pub fn end(engine: &Engine, m: &Match, player: PlayerIdx) -> Json {
    json!({
        "type": "end",
        "result": result(&engine.game, &m.state),
        "state": engine.state_view(m, player),
    })
}

/// A well-formed reply to `act`.
#[derive(Clone, Debug, PartialEq)]
pub struct Reply {
    pub actions: Vec<Json>,
    pub rationale: Option<String>,
}

/// What one line (or response body) from an agent is.
#[derive(Clone, Debug, PartialEq)]
pub enum Parsed {
    /// `{"type": "ready"}` (the optional answer to `start`), or a blank line: not a reply.
    Greeting,
    Reply(Reply),
    /// Not JSON, or not `{"actions": [...]}`: why, in words.
    Malformed(String),
}

/// The first characters of `text`, for a message.
fn excerpt(text: &str) -> String {
    let t: String = text.trim().chars().take(60).collect();
    let more = if text.trim().chars().count() > 60 {
        "..."
    } else {
        ""
    };
    format!("{t:?}{more}")
}

/// Reads one reply. A `rationale` that is not a string is ignored; a long one is cut.
pub fn parse(text: &str) -> Parsed {
    if text.trim().is_empty() {
        return Parsed::Greeting;
    }
    let v: Json = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) => return Parsed::Malformed(format!("not JSON ({e}): {}", excerpt(text))),
    };
    let Json::Object(mut o) = v else {
        return Parsed::Malformed(format!(
            "not a JSON object {{\"actions\": [...]}}: {}",
            excerpt(text)
        ));
    };
    if o.get("type").and_then(Json::as_str) == Some("ready") && !o.contains_key("actions") {
        return Parsed::Greeting;
    }
    let actions = match o.remove("actions") {
        Some(Json::Array(a)) => a,
        Some(_) => return Parsed::Malformed("`actions` is not a list".into()),
        None => {
            return Parsed::Malformed(format!("no `actions` list in the reply: {}", excerpt(text)))
        }
    };
    if actions.len() > MAX_REPLY_ACTIONS {
        return Parsed::Malformed(format!(
            "{} actions in one reply, more than the {MAX_REPLY_ACTIONS} a submission may hold",
            actions.len()
        ));
    }
    let rationale = match o.remove("rationale") {
        Some(Json::String(s)) => Some(cut(s, MAX_RATIONALE_BYTES)),
        _ => None,
    };
    Parsed::Reply(Reply { actions, rationale })
}

/// `s` cut to at most `max` bytes, on a character boundary.
fn cut(mut s: String, max: usize) -> String {
    if s.len() > max {
        let mut end = max;
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        s.truncate(end);
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replies_are_read_strictly() {
        assert_eq!(parse(""), Parsed::Greeting);
        assert_eq!(parse("{\"type\": \"ready\"}"), Parsed::Greeting);
        assert_eq!(
            parse("{\"actions\": [{\"type\": \"pass\"}], \"rationale\": \"why not\"}"),
            Parsed::Reply(Reply {
                actions: vec![json!({"type": "pass"})],
                rationale: Some("why not".into())
            })
        );
        assert_eq!(
            parse("{\"actions\": [], \"rationale\": 3}"),
            Parsed::Reply(Reply {
                actions: vec![],
                rationale: None
            })
        );
        for bad in [
            "hello",
            "[1]",
            "{\"actions\": 3}",
            "{\"act\": []}",
            "{\"actions\": [",
        ] {
            assert!(matches!(parse(bad), Parsed::Malformed(_)), "{bad}");
        }
        let many = format!("{{\"actions\": [{}]}}", vec!["1"; 1001].join(","));
        assert!(matches!(parse(&many), Parsed::Malformed(_)));
    }

    #[test]
    fn long_rationales_are_cut_on_a_character_boundary() {
        let s = "é".repeat(MAX_RATIONALE_BYTES);
        let c = cut(s, MAX_RATIONALE_BYTES + 1);
        assert!(c.len() <= MAX_RATIONALE_BYTES + 1 && c.chars().all(|x| x == 'é'));
    }
}
