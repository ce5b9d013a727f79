//! Players: the ids of the ruleset, each listed once, between 1 and 8 of them; interned before any other
//! name.
use std::collections::HashSet;

use super::Cx;
use crate::ruleset::raw::RawRuleset;

/// Checks the list of players.
pub(super) fn check(cx: &mut Cx, raw: &RawRuleset) {
    let (rd, d) = (cx.rd, &mut cx.d);
    let mut seen = HashSet::new();
    for (i, p) in raw.players.iter().enumerate() {
        if !seen.insert(p) {
            d.at(
                rd,
                &format!("/players/{i}"),
                "ruleset::duplicate_player",
                format!("player `{p}` is listed twice"),
                None,
            );
        }
    }
    if raw.players.is_empty() || raw.players.len() > 8 {
        d.at(
            rd,
            "/players",
            "ruleset::players",
            "a ruleset has between 1 and 8 players",
            None,
        );
    }
}

/// Interns the player ids (the first symbols of the game).
pub(super) fn intern(cx: &mut Cx, raw: &RawRuleset) -> Vec<u32> {
    raw.players.iter().map(|p| cx.symbols.intern(p)).collect()
}
