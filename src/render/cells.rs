//! The text of one cell: its owner's mark, the glyph of a row-typed variable or of the unit standing on
//! it, and a number, as the ruleset's `display` section asks. What a cell holds is first read into
//! [`CellFacts`] (from the match state here, from a state JSON in `view.rs`), so the terminal and the
//! HTML viewer label cells with the same words.
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

/// A number a cell shows.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Number {
    Int(i64),
    Float(f64),
}

impl Number {
    /// Zero and absent values are not drawn.
    fn shown(self) -> bool {
        match self {
            Number::Int(v) => v != 0,
            Number::Float(f) => f != 0.0,
        }
    }

    fn text(self) -> String {
        match self {
            Number::Int(v) => v.to_string(),
            Number::Float(f) if f.fract() == 0.0 => format!("{f:.0}"),
            Number::Float(f) => format!("{f:.1}"),
        }
    }
}

/// What a drawing needs to know about one cell, whoever looks at it.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct CellFacts {
    pub owner: Option<u8>,
    /// The unit standing on the cell: its row of the units table and its owner.
    pub unit: Option<(u16, u8)>,
    /// The row of the display's glyph variable.
    pub glyph_row: Option<usize>,
    /// The display's number: one entry per player for a per-player variable, else one; `None` where the
    /// value is absent or hidden from the viewer.
    pub numbers: Vec<Option<Number>>,
}

/// The facts of cell `c` in the match state (everything, as the whole board shows it).
pub fn facts(g: &Game, st: &MatchState, c: CellId) -> CellFacts {
    let d: &Display = &g.display;
    let unit = st.occupant_of(c).map(|u| {
        let u = &st.units[u as usize];
        (u.kind, u.owner)
    });
    let glyph_row = d.glyph.as_ref().and_then(|gv| {
        let raw = st.cell_vars[c as usize * g.cell_slots + gv.slot as usize];
        match Value::decode(raw, crate::model::Ty::Row(0)) {
            Value::Row(_, r) => Some(r as usize),
            _ => None,
        }
    });
    let numbers = match &d.number {
        None => Vec::new(),
        Some(n) => {
            let base = c as usize * g.cell_slots + n.slot as usize;
            let width = if n.per_player { g.players.len() } else { 1 };
            (0..width)
                .map(|p| {
                    let raw = st.cell_vars[base + p];
                    (raw != crate::model::value::ABSENT).then(|| {
                        if n.float {
                            Number::Float(f64::from_bits(raw as u64))
                        } else {
                            Number::Int(raw)
                        }
                    })
                })
                .collect()
        }
    };
    CellFacts {
        owner: st.owner_of(c),
        unit,
        glyph_row,
        numbers,
    }
}

/// The label of cell `c`.
pub fn label(g: &Game, st: &MatchState, c: CellId) -> Label {
    label_of(g, &facts(g, st, c))
}

/// The label of a cell holding `f`.
pub fn label_of(g: &Game, f: &CellFacts) -> Label {
    let d: &Display = &g.display;
    let mut text = String::new();
    if d.owner {
        match f.owner {
            Some(p) => text.push_str(&d.marks[p as usize]),
            None => text.push('.'),
        }
    }
    match f.unit {
        Some((kind, _)) => {
            text.push_str(d.unit_glyphs.get(kind as usize).map_or("?", String::as_str))
        }
        None => {
            if let (Some(gv), Some(r)) = (&d.glyph, f.glyph_row) {
                if let Some(Some(s)) = gv.glyphs.get(r) {
                    text.push_str(s);
                }
            }
        }
    }
    if let Some(n) = &d.number {
        let value = |p: usize| f.numbers.get(p).copied().flatten().filter(|v| v.shown());
        let mut parts = Vec::new();
        if n.per_player {
            // The owner's value first, then any other player's, each with its mark.
            let first = f.owner.map(usize::from);
            if let Some(v) = first.and_then(value) {
                parts.push(v.text());
            }
            for p in 0..g.players.len() {
                if Some(p) != first {
                    if let Some(v) = value(p) {
                        parts.push(format!("{}{}", d.marks[p], v.text()));
                    }
                }
            }
        } else if let Some(v) = value(0) {
            parts.push(v.text());
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
    let role = match (f.unit, f.owner) {
        (Some((_, p)), _) => Role::Player(p),
        (None, Some(p)) => Role::Player(p),
        (None, None) => Role::Dim,
    };
    Label { text, role }
}
