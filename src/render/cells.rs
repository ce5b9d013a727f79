//! The text of one cell: its owner's mark, the glyph of a row-typed variable or of the unit standing on
//! it, and a number, as the ruleset's `display` section asks.
use super::style::Role;
use crate::board::CellId;
use crate::ir::display::Display;
use crate::ir::game::Game;
use crate::model::{MatchState, Value};

/// A cell's label and the role that colours it.
pub struct Label {
    pub text: String,
    pub role: Role,
}

fn number_text(v: i64, float: bool) -> String {
    if float {
        let f = f64::from_bits(v as u64);
        if f.fract() == 0.0 {
            format!("{f:.0}")
        } else {
            format!("{f:.1}")
        }
    } else {
        v.to_string()
    }
}

/// The label of cell `c`.
pub fn label(g: &Game, st: &MatchState, c: CellId) -> Label {
    let d: &Display = &g.display;
    let owner = st.owner_of(c);
    let mut text = String::new();
    if d.owner {
        match owner {
            Some(p) => text.push_str(&d.marks[p as usize]),
            None => text.push('.'),
        }
    }
    let unit = st.occupant_of(c).map(|u| &st.units[u as usize]);
    match unit {
        Some(u) => text.push_str(
            d.unit_glyphs
                .get(u.kind as usize)
                .map_or("?", String::as_str),
        ),
        None => {
            if let Some(gv) = &d.glyph {
                let raw = st.cell_vars[c as usize * g.cell_slots + gv.slot as usize];
                if let Value::Row(_, r) = Value::decode(raw, crate::model::Ty::Row(0)) {
                    if let Some(Some(s)) = gv.glyphs.get(r as usize) {
                        text.push_str(s);
                    }
                }
            }
        }
    }
    if let Some(n) = &d.number {
        let base = c as usize * g.cell_slots + n.slot as usize;
        let value = |p: usize| st.cell_vars[base + if n.per_player { p } else { 0 }];
        let shown = |v: i64| v != crate::model::value::ABSENT && v != 0;
        let mut parts = Vec::new();
        if n.per_player {
            // The owner's value first, then any other player's, each with its mark.
            let first = owner.map_or(usize::MAX, usize::from);
            if first != usize::MAX && shown(value(first)) {
                parts.push(number_text(value(first), n.float));
            }
            for p in 0..g.players.len() {
                if p != first && shown(value(p)) {
                    parts.push(format!("{}{}", d.marks[p], number_text(value(p), n.float)));
                }
            }
        } else if shown(value(0)) {
            parts.push(number_text(value(0), n.float));
        }
        let joined = parts.join("+");
        if !joined.is_empty() {
            // A digit mark followed by a number would read as one number.
            if text.chars().last().is_some_and(|ch| ch.is_ascii_digit())
                && joined.starts_with(|ch: char| ch.is_ascii_digit())
            {
                text.push(':');
            }
            text.push_str(&joined);
        }
    }
    if text.is_empty() {
        text.push('.');
    }
    let role = match (unit, owner) {
        (Some(u), _) => Role::Player(u.owner),
        (None, Some(p)) => Role::Player(p),
        (None, None) => Role::Dim,
    };
    Label { text, role }
}
